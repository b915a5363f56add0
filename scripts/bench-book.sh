#!/usr/bin/env bash
# Benchmarks the openings book: builds the release binary, then for each
# board size the book holds (or those given) times, in an empty directory
# (no tables):
#   - `openings --slots N` (the counts, from the book's header),
#   - a fair start `openings --slots N --both-win --random 1 --seed S` for
#     seeds 1..BENCH_RUNS (default 9),
#   - `query - --no-solve --json` on BENCH_BATCH random openings (default
#     1000; one process), the time per opening,
# and prints the median wall time of each and the peak memory of the
# largest (from /usr/bin/time when present).
#
# Usage: scripts/bench-book.sh [N ...]         (default: 10 12)
#        BENCH_RUNS=21 BENCH_BATCH=10000 scripts/bench-book.sh 12
#        BENCH_RULE=when-stuck scripts/bench-book.sh 12   (the pass rule's
#        sections; default always)
#        BENCH_BIN=path/to/chaosclock scripts/bench-book.sh 12   (that
#        binary instead of a release build of the checkout)
# Needs bash 5 (EPOCHREALTIME), awk, sort and cargo. CARGO_TARGET_DIR is
# honoured.
set -euo pipefail
here="${BASH_SOURCE[0]%/*}"
[[ "$here" == "${BASH_SOURCE[0]}" ]] && here=.
cd "$here/.."

runs="${BENCH_RUNS:-9}"
rule="${BENCH_RULE:-always}"
if [[ "$rule" != always && "$rule" != when-stuck ]]; then
    echo "error: BENCH_RULE must be always or when-stuck, not '$rule'" >&2
    exit 2
fi
batch="${BENCH_BATCH:-1000}"
for v in "$runs" "$batch"; do
    if ! [[ "$v" =~ ^[1-9][0-9]*$ ]]; then
        echo "error: BENCH_RUNS and BENCH_BATCH must be positive integers, not '$v'" >&2
        exit 2
    fi
done
sizes=("$@")
[[ ${#sizes[@]} -eq 0 ]] && sizes=(10 12)

if [[ -n "${BENCH_BIN:-}" ]]; then
    bin="$(realpath "$BENCH_BIN")"
else
    cargo build --release --quiet
    bin="$(cargo metadata --format-version 1 --no-deps 2>/dev/null |
        sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')/release/chaosclock"
    [[ -x "$bin" ]] || bin="target/release/chaosclock"
fi
# Every command runs under the pass rule asked for.
cc() { "$bin" --pass-rule "$rule" "$@"; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

# Milliseconds of wall time of the command.
ms() {
    local t0=$EPOCHREALTIME
    "$@" >/dev/null 2>&1
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", (b - a) * 1000 }'
}

median() {
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# K random openings of N slots, one a line, from a seeded awk generator.
openings() {
    awk -v n="$1" -v k="$2" 'BEGIN {
        srand(7); made = 0
        while (made < k) {
            for (i = 1; i <= n; i++) p[i] = i
            for (i = n; i > 1; i--) { j = int(rand() * i) + 1; t = p[i]; p[i] = p[j]; p[j] = t }
            ok = 1; for (i = 1; i <= n; i++) if (p[i] == i) ok = 0
            if (!ok) continue
            line = p[1]; for (i = 2; i <= n; i++) line = line "," p[i]
            print line; made++
        }
    }'
}

echo "binary: $bin ($(cd "$OLDPWD" && git rev-parse --short HEAD 2>/dev/null || echo unknown)), pass rule $rule"
printf '%-6s %14s %18s %20s %14s\n' slots "counts ms" "fair start ms" "query ms/opening" "peak MiB"
for n in "${sizes[@]}"; do
    if ! cc openings --slots "$n" >/dev/null 2>&1; then
        echo "$n slots: not in the book (skipped)"
        continue
    fi
    counts=$(for _ in $(seq "$runs"); do ms cc openings --slots "$n"; done | median)
    fair=$(for s in $(seq "$runs"); do
        ms cc openings --slots "$n" --both-win --random 1 --seed "$s"
    done | median)
    openings "$n" "$batch" >"openings-$n.txt"
    t0=$EPOCHREALTIME
    cc query - --no-solve --json <"openings-$n.txt" >/dev/null
    per=$(awk -v a="$t0" -v b="$EPOCHREALTIME" -v k="$batch" 'BEGIN { printf "%.3f", (b - a) * 1000 / k }')
    peak="-"
    if [[ -x /usr/bin/time ]]; then
        peak=$(/usr/bin/time -f '%M' "$bin" --pass-rule "$rule" query - --no-solve --json <"openings-$n.txt" 2>&1 >/dev/null |
            tail -n 1 | awk '{ printf "%.0f", $1 / 1024 }')
    fi
    printf '%-6s %14s %18s %20s %14s\n' "$n" "$counts" "$fair" "$per" "$peak"
done
