#!/usr/bin/env bash
# Load benchmark of `chaosclock serve` on loopback with wrk (Debian's
# package `wrk`): BENCH_CLIENTS connections (default 32) on 2 threads (1 for
# 1 connection) for
# BENCH_SECONDS (default 10) of GET /api/position, cycling through the
# positions of a few games (every legal move's value and a best line each
# time). Two runs:
#   tables:  BENCH_SLOTS-slot tables (default 8; made here with `generate
#            --slots N` into a temporary directory, about a minute for 8,
#            unless BENCH_TABLES names a tables root that holds them): the
#            positions of three games of 8 slots, or for another size the
#            best lines of BENCH_LINES (default 3) fair starts;
#   kept:    no tables: the positions of the documented 12-slot game, all
#            answered from the one solve of its opening, kept in memory.
# It prints wrk's latency percentiles and requests/s, and fails if any
# request failed (a socket error or a status other than 200). Bounded:
# each wrk run stops after its duration, and the servers are killed at
# the end, also on an error.
#
# BENCH_BIN=PATH runs that binary instead of building this checkout's (to
# compare two builds side by side: run the script once with each, the
# same settings, one after the other).
#
# Usage: scripts/bench-serve.sh     Needs bash, curl, wrk and cargo.
#        BENCH_SLOTS=10 BENCH_TABLES=DIR BENCH_CLIENTS=1 scripts/bench-serve.sh
set -euo pipefail
here="${BASH_SOURCE[0]%/*}"
[[ "$here" == "${BASH_SOURCE[0]}" ]] && here=.
cd "$here/.."
clients="${BENCH_CLIENTS:-32}" seconds="${BENCH_SECONDS:-10}"
# wrk needs a connection a thread.
threads=$((clients < 2 ? clients : 2))
command -v wrk >/dev/null || { echo "error: wrk is missing (apt-get install wrk)" >&2; exit 2; }

slots="${BENCH_SLOTS:-8}"
if [[ -n "${BENCH_BIN:-}" ]]; then
    bin="$(realpath "$BENCH_BIN")"
else
    cargo build --release --quiet
    bin="$(realpath "${CARGO_TARGET_DIR:-target}/release/chaosclock")"
fi
work="$(mktemp -d)"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# Starts a server with the given arguments; sets $url.
start() {
    "$bin" serve --bind 127.0.0.1:0 "$@" > "$work/out" 2> "$work/err" &
    pids+=("$!")
    for _ in $(seq 100); do
        url="$(sed -n 's/^listening on \(.*\)\/$/\1/p' "$work/out")"
        [[ -n "$url" ]] && return 0
        sleep 0.1
    done
    echo "error: the server did not start: $(cat "$work/err")" >&2
    exit 1
}

# The values of the "position" fields of the JSON on stdin, one a line.
position_fields() {
    grep -o '"position":"[^"]*"' | cut -d'"' -f4
}

# The positions of the game START MOVES (comma-separated), one a line.
positions() {
    curl -sf "$url/api/analyse?pos=$1&moves=$2" | position_fields
}

# The positions of the best line from START, one a line.
line_positions() {
    curl -sf "$url/api/mainline?pos=$1" | position_fields
}

# Runs wrk over the positions in file $1; prints the summary, fails on errors.
load() {
    local list="$1" name="$2"
    # A Lua script that cycles through the positions.
    {
        echo 'local paths = {}'
        while read -r p; do echo "table.insert(paths, \"/api/position?pos=$p\")"; done < "$list"
        echo 'local i = 0'
        echo 'request = function() i = i % #paths + 1; return wrk.format("GET", paths[i]) end'
    } > "$work/cycle.lua"
    wrk -t"$threads" -c"$clients" -d"${seconds}s" --latency -s "$work/cycle.lua" "$url" > "$work/wrk.txt"
    local p50 p99 rps bad
    p50="$(awk '$1 == "50%" {print $2}' "$work/wrk.txt")"
    p99="$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")"
    rps="$(awk '/^Requests\/sec/ {print $2}' "$work/wrk.txt")"
    bad="$(grep -E 'Non-2xx|Socket errors' "$work/wrk.txt" || true)"
    printf '%-8s %3d positions  p50 %8s  p99 %8s  %10s requests/s\n' \
        "$name" "$(wc -l < "$list")" "$p50" "$p99" "$rps"
    if [[ -n "$bad" ]]; then
        cat "$work/wrk.txt" >&2
        echo "error: some requests failed: $bad" >&2
        exit 1
    fi
}

echo "wrk: $clients connections, $threads threads, ${seconds} s per run"

# 1. From the tables.
tables="${BENCH_TABLES:-}"
if [[ -z "$tables" ]]; then
    tables="$work/tables"
    (cd "$work" && "$bin" generate --slots "$slots" --tables "$tables" > /dev/null)
fi
start --tables "$tables"
: > "$work/tables.txt"
if [[ "$slots" == 8 ]]; then
    for game in "2,1,4,3,6,5,8,7 2,pass,4,pass,6" "2,6,1,3,8,5,4,7 6,3,1" "3,4,1,2,7,8,5,6 4,2,8"; do
        positions ${game% *} ${game#* } >> "$work/tables.txt"
    done
else
    for seed in $(seq "${BENCH_LINES:-3}"); do
        fair="$(curl -s "$url/api/fair-start?slots=$slots&seed=$seed")"
        opening="$(position_fields <<< "$fair")" ||
            { echo "error: no fair start of $slots slots: $fair" >&2; exit 1; }
        line_positions "$opening" >> "$work/tables.txt" ||
            { echo "error: no best line from $opening" >&2; exit 1; }
    done
fi
one="$(head -1 "$work/tables.txt")"
curl -s -o /dev/null -w 'one table answer on loopback (curl time_total): %{time_total} s\n' \
    "$url/api/position?pos=$one"
load "$work/tables.txt" tables
kill "${pids[-1]}"

# 2. From the kept solve of the documented 12-slot opening.
start --tables "$work/none"
positions 2,8,11,9,4,12,10,6,5,7,1,3 6,3,10,11,8,9,2,1,6,9,12,7,10,5,4,7 > "$work/kept.txt"
next="$(sed -n 2p "$work/kept.txt")"
curl -s -o /dev/null -w 'a later position of the solved game (curl time_total): %{time_total} s\n' \
    "$url/api/position?pos=$next"
load "$work/kept.txt" kept
