#!/usr/bin/env bash
# Benchmarks `chaosclock query` on warm tables: draws K random openings
# (derangements, 乙 to move) of N slots, answers them all with one
# `query -` (value, every move's value and a line to the end of the game),
# BENCH_RUNS times (default 3), and prints the median time per position.
# The first, untimed pass warms the page cache and checks that the tables
# answer every position (`--no-solve`; an error where files are missing).
#
# Usage: scripts/bench-query.sh DIR N [K]     (K = 2000 by default)
#   DIR: the tables root given to `generate --tables` (complete N-slot
#   tables, with depths or values only).
#   BENCH_FIXED=F: pieces 1 to F stand fixed on their own slots and the
#   others are deranged on the rest (default 0: openings); the tables need
#   only the files with pieces 1 to F fixed and their supersets, so a
#   table still being made can be measured.
#   BENCH_PIECES=P,Q,...: these pieces stand fixed instead (for example 4,
#   whose file f0010 is made before f0002 of piece 1).
#   BENCH_WARM=W: also measures the K positions in a warm process: each
#   round times W other positions (drawn after the K, none of them again)
#   alone and then followed by the K in the same `query -`, and the
#   difference over K is what a new position costs once the process has
#   read the model sets and blocks that W positions need (median of the
#   rounds' differences; `serve` is such a process).
#   BENCH_BIN=PATH: times this chaosclock binary instead of building one
#   (to compare two builds side by side).
# Needs bash 5, awk, sort and cargo. CARGO_TARGET_DIR is honoured.
set -euo pipefail
here="${BASH_SOURCE[0]%/*}"
[[ "$here" == "${BASH_SOURCE[0]}" ]] && here=.
cd "$here/.."

if [[ $# -lt 2 ]]; then
    echo "usage: scripts/bench-query.sh DIR N [K]" >&2
    exit 2
fi
dir="$1" n="$2" k="${3:-2000}" runs="${BENCH_RUNS:-3}" fixed="${BENCH_FIXED:-0}"
warm="${BENCH_WARM:-0}"
if ! [[ "$warm" =~ ^[0-9]+$ ]]; then
    echo "error: BENCH_WARM must be a number of positions, not '$warm'" >&2
    exit 2
fi
if ! [[ "$fixed" =~ ^[0-9]+$ ]] || ((fixed > n - 2)); then
    echo "error: BENCH_FIXED must be 0 to N - 2, not '$fixed'" >&2
    exit 2
fi
pieces="${BENCH_PIECES:-}"
if [[ -z "$pieces" ]]; then
    pieces="$(seq -s, 1 "$fixed")"
elif ((fixed > 0)) || ! [[ "$pieces" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]]; then
    echo "error: BENCH_PIECES must be pieces like 4 or 3,8, and not given with BENCH_FIXED, not '$pieces'" >&2
    exit 2
fi
for v in "$n" "$k" "$runs"; do
    if ! [[ "$v" =~ ^[1-9][0-9]*$ ]]; then
        echo "error: N, K and BENCH_RUNS must be positive integers, not '$v'" >&2
        exit 2
    fi
done

bin="${BENCH_BIN:-}"
if [[ -z "$bin" ]]; then
    cargo build --release --quiet
    bin="${CARGO_TARGET_DIR:-target}/release/chaosclock"
fi
input="$(mktemp)"
trap 'rm -f "$input" "$input".*' EXIT
# Derangements by rejection: shuffle the other pieces on the other slots
# until none is on its own (the fixed pieces stay on theirs). With pieces 1
# to F fixed this draws what it drew before BENCH_PIECES.
awk -v n="$n" -v k="$k" -v w="$warm" -v pieces="$pieces" 'BEGIN {
    srand(12345)
    m = split(pieces, list, ",")
    for (i = 1; i <= m; i++) {
        if (list[i] > n || list[i] in fix) { print "error: BENCH_PIECES: bad piece " list[i] > "/dev/stderr"; exit 2 }
        fix[list[i] + 0] = 1
    }
    if (n - m < 2) { print "error: at least two pieces must be free" > "/dev/stderr"; exit 2 }
    free = 0
    for (i = 1; i <= n; i++) if (!(i in fix)) slot[++free] = i
    # The K first (the same draw whatever W is), then W that are none of
    # them nor each other (giving up after many tries on a small board).
    for (done = 0; done < k + w && tries < 100 * (k + w); tries++) {
        for (i = 1; i <= n; i++) p[i] = i
        for (i = free; i > 1; i--) {
            j = int(rand() * i) + 1; a = slot[i]; b = slot[j]; t = p[a]; p[a] = p[b]; p[b] = t
        }
        ok = 1
        for (i = 1; i <= free; i++) if (p[slot[i]] == slot[i]) ok = 0
        if (!ok) continue
        line = p[1]; for (i = 2; i <= n; i++) line = line "," p[i]
        if (done >= k && line in seen) continue
        seen[line] = 1
        print line; done++
    }
    if (done < k + w) { print "error: fewer than K + BENCH_WARM distinct positions drawn" > "/dev/stderr"; exit 2 }
}' >"$input.all"
head -n "$k" "$input.all" >"$input"

# The untimed pass also checks that the tables answer every position (not
# the openings book, nor a solve when files are missing).
answered="$("$bin" query - --tables "$dir" --no-solve --json <"$input" | grep -c '"source":"tables"' || true)"
if ((answered != k)); then
    echo "error: the tables in $dir answer $answered of the $k positions drawn: not complete $n-slot tables for them" >&2
    exit 1
fi
times=()
for ((r = 0; r < runs; r++)); do
    start=$EPOCHREALTIME
    "$bin" query - --tables "$dir" --no-solve <"$input" >/dev/null
    end=$EPOCHREALTIME
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", b - a }')")
done
median="$(printf '%s\n' "${times[@]}" | sort -g | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }')"
lines="$("$bin" query - --tables "$dir" --no-solve <"$input" | awk -F'"line":\\[' '{ split($2, a, "]"); c += split(a[1], b, ",") } END { print c / NR }')"
awk -v m="$median" -v k="$k" -v n="$n" -v l="$lines" -v d="$dir" -v f="$pieces" 'BEGIN {
    what = f == "" ? "openings" : sprintf("positions with pieces %s fixed", f)
    printf "%d %d-slot %s from %s: median %.3f s, %.1f us per position (line of %.1f plies on average)\n", k, n, what, d, m, m / k * 1e6, l
}'

((warm > 0)) || exit 0
tail -n "$warm" "$input.all" >"$input.warm"
cat "$input.warm" "$input" >"$input.both"
"$bin" query - --tables "$dir" --no-solve <"$input.both" >/dev/null
extra=()
for ((r = 0; r < runs; r++)); do
    start=$EPOCHREALTIME
    "$bin" query - --tables "$dir" --no-solve <"$input.warm" >/dev/null
    middle=$EPOCHREALTIME
    "$bin" query - --tables "$dir" --no-solve <"$input.both" >/dev/null
    end=$EPOCHREALTIME
    extra+=("$(awk -v a="$start" -v b="$middle" -v c="$end" 'BEGIN { printf "%.6f", (c - b) - (b - a) }')")
done
median="$(printf '%s\n' "${extra[@]}" | sort -g | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }')"
awk -v m="$median" -v k="$k" -v w="$warm" 'BEGIN {
    printf "warm: the same %d after %d others in one process: median %.3f s more, %.1f us per new position\n", k, w, m, m / k * 1e6
}'
