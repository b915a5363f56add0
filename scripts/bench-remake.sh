#!/usr/bin/env bash
# Benchmarks `chaosclock generate` on one table file: the file FILE of a
# complete table is made again, over hard links of every file with at
# least as many fixed pieces (all a file's moves lead to), by one or more
# binaries side by side (A B A B ...), and checked to come out byte for
# byte as it was. One file of a large table is a far shorter benchmark
# than the whole table: the 10-slot file with no fixed piece holds half
# the nodes of its table and goes at the speed of the 12-slot one
# (docs/depths.md, "The generator, measured").
#
# Usage: scripts/bench-remake.sh TABLES N FILE [BINARY...]
#   TABLES   a tables root whose n{N}-always/ holds the files FILE needs
#   N        board size (4, 6, 8, 10 or 12)
#   FILE     the file to make again, as f0000 or f0000.cctb
#   BINARY   chaosclock binaries to compare (default: this checkout's
#            release build, built first)
#   BENCH_RUNS=R     runs per binary (default 2)
#   BENCH_THREADS=T  worker threads (default 1: user seconds that another
#                    job on the machine disturbs less)
#   BENCH_ARGS="..." more arguments for generate (say --block-cache 8192)
# The kind follows the source: with depths where FILE has a side file
# (f*.side.cctb) next to it, else values only. Prints one row per binary:
# the median user and wall seconds, the peak memory (GNU time's maximum
# resident set size) and whether every run gave the same bytes. The links
# go to a temporary directory inside TABLES (hard links need the same
# file system), removed afterwards.
# Needs bash, GNU time (/usr/bin/time), cmp and sort.
# Example, the 10-slot file with no fixed piece, d6fd09e against this build:
#   scripts/bench-remake.sh ~/t10 10 f0000 /tmp/old/chaosclock target/release/chaosclock
set -euo pipefail
here="${BASH_SOURCE[0]%/*}"
[[ "$here" == "${BASH_SOURCE[0]}" ]] && here=.
cd "$here/.."

usage="usage: $0 TABLES N FILE [BINARY...]"
tables="${1:?$usage}"
n="${2:?$usage}"
file="${3:?$usage}"
shift 3
file="${file%.cctb}"
runs="${BENCH_RUNS:-2}"
threads="${BENCH_THREADS:-1}"
read -r -a extra <<<"${BENCH_ARGS:-}"
src="$tables/n$n-always"
if ! [[ "$file" =~ ^f[0-9a-f]{4}$ ]]; then
    echo "error: FILE must be a table file's name such as f0000, not '$file'" >&2
    exit 2
fi
for v in "$runs" "$threads"; do
    if ! [[ "$v" =~ ^[1-9][0-9]*$ ]]; then
        echo "error: BENCH_RUNS and BENCH_THREADS must be positive integers, not '$v'" >&2
        exit 2
    fi
done
if [[ ! -f "$src/$file.cctb" ]]; then
    echo "error: no $src/$file.cctb" >&2
    exit 2
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "error: GNU time (/usr/bin/time) is needed for the times and the peak memory" >&2
    exit 2
fi
# The number of fixed pieces of a file, from the bits of its name.
fixed_of() {
    local set=$((16#${1#f})) count=0
    while ((set)); do
        count=$((count + (set & 1)))
        set=$((set >> 1))
    done
    echo "$count"
}
k="$(fixed_of "$file")"
kind=(--values-only)
[[ -f "$src/$file.side.cctb" ]] && kind=(--keep-side-files)
bins=("$@")
if ((${#bins[@]} == 0)); then
    cargo build --release --quiet
    bins=(target/release/chaosclock)
fi

work="$(mktemp -d "$tables/.bench-remake.XXXXXX")"
trap 'rm -rf "$work"' EXIT
declare -A user wall peak same
for ((r = 0; r < runs; r++)); do
    for i in "${!bins[@]}"; do
        out="$work/run"
        rm -rf "$out"
        mkdir -p "$out/n$n-always"
        for f in "$src"/f*.cctb; do
            name="${f##*/}"
            base="${name%%.*}"
            [[ "$base" == "$file" ]] && continue
            (($(fixed_of "$base") >= k)) && ln "$f" "$out/n$n-always/$name"
        done
        /usr/bin/time -f "%U %e %M" -o "$work/time" "${bins[$i]}" generate --slots "$n" \
            --max-live $((n - k)) --allow-large --threads "$threads" "${kind[@]}" "${extra[@]}" \
            --tables "$out" >/dev/null 2>"$work/stderr" || {
            echo "error: ${bins[$i]} failed:" >&2
            tail -n 3 "$work/stderr" >&2
            exit 1
        }
        read -r u e m <"$work/time"
        user[$i]+="$u "
        wall[$i]+="$e "
        ((m > ${peak[$i]:-0})) && peak[$i]=$m
        ok=yes
        for f in "$src/$file".cctb "$src/$file".side.cctb; do
            [[ -f "$f" ]] || continue
            cmp -s "$f" "$out/n$n-always/${f##*/}" || ok=no
        done
        [[ "${same[$i]:-yes}" == yes ]] && same[$i]=$ok
        echo "run $((r + 1)) of $runs, ${bins[$i]}: $u user s, $e wall s, bytes the same: $ok" >&2
    done
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
printf "%-50s %12s %12s %12s %6s\n" binary "user s" "wall s" "peak MiB" same
for i in "${!bins[@]}"; do
    printf "%-50s %12s %12s %12d %6s\n" "${bins[$i]}" "$(median <<<"${user[$i]}")" \
        "$(median <<<"${wall[$i]}")" $((peak[$i] / 1024)) "${same[$i]}"
done
