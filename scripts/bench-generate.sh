#!/usr/bin/env bash
# Benchmarks `chaosclock generate --values-only` (or, with
# BENCH_KIND=depths, the default kind with depths) on one board size, for one
# or more binaries side by side: the runs of the binaries alternate (A B A B
# ...), so that a machine that gets busier or quieter affects them alike.
# Prints one row per binary: the median wall time, the peak memory (the
# largest "Maximum resident set size" of /usr/bin/time -v), the states
# stored, states per second (stored states / median time), nodes and the
# bytes on disk.
#
# Usage: scripts/bench-generate.sh N [K] [BINARY...]
#   N        board size (4, 6, 8, 10 or 12)
#   K        --max-live (default N)
#   BINARY   chaosclock binaries to compare (default: this checkout's
#            release build, built first)
#   BENCH_RUNS=R  runs per binary (default 3)
#   BENCH_KIND=values|depths  the kind of tables (default values)
# Example, this build against the one before the symmetry:
#   git worktree add /tmp/old f7922f5 && (cd /tmp/old && cargo build --release)
#   scripts/bench-generate.sh 10 10 /tmp/old/target/release/chaosclock target/release/chaosclock
# Each run writes to a fresh temporary directory, removed afterwards.
# Needs bash, awk, sort, GNU time (/usr/bin/time) and python3 (for JSON).
set -euo pipefail
here="${BASH_SOURCE[0]%/*}"
[[ "$here" == "${BASH_SOURCE[0]}" ]] && here=.
cd "$here/.."

n="${1:?usage: $0 N [K] [BINARY...]}"
k="${2:-$n}"
shift $(($# >= 2 ? 2 : 1))
runs="${BENCH_RUNS:-3}"
case "${BENCH_KIND:-values}" in
values) kind=(--values-only) ;;
depths) kind=() ;;
*)
    echo "error: BENCH_KIND must be values or depths, not '$BENCH_KIND'" >&2
    exit 2
    ;;
esac
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
    echo "error: BENCH_RUNS must be a positive integer, not '$runs'" >&2
    exit 2
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "error: GNU time (/usr/bin/time) is needed for the peak memory" >&2
    exit 2
fi
bins=("$@")
if ((${#bins[@]} == 0)); then
    cargo build --release --quiet
    bins=(target/release/chaosclock)
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for ((r = 0; r < runs; r++)); do
    for i in "${!bins[@]}"; do
        out="$work/run"
        rm -rf "$out"
        /usr/bin/time -f "%e %M" -o "$work/time" "${bins[$i]}" generate --slots "$n" \
            --max-live "$k" "${kind[@]}" --tables "$out" --json >"$work/json" 2>/dev/null
        read -r wall kib <"$work/time"
        python3 - "$work/json" "$wall" "$kib" >>"$work/rows.$i" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(sys.argv[2], sys.argv[3], d["states"], d["nodes"], d["bytes_on_disk"])
EOF
        echo "run $((r + 1))/$runs of ${bins[$i]}: $wall s" >&2
    done
done

printf '%-40s %10s %10s %15s %12s %15s %14s\n' binary "median s" "peak MiB" states "states/s" nodes bytes
for i in "${!bins[@]}"; do
    sort -n "$work/rows.$i" | awk -v bin="${bins[$i]}" -v runs="$runs" '
        { t[NR] = $1; if ($2 > peak) peak = $2; states = $3; nodes = $4; bytes = $5 }
        END {
            m = (runs % 2) ? t[(runs + 1) / 2] : (t[runs / 2] + t[runs / 2 + 1]) / 2
            printf "%-40s %10.1f %10.0f %15d %12.0f %15d %14d\n", bin, m, peak / 1024, states, states / m, nodes, bytes
        }'
done
