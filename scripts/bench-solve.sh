#!/usr/bin/env bash
# Benchmarks `chaosclock solve`: builds the release binary, solves a fixed set
# of positions BENCH_RUNS times each (default 3) and prints one table row per
# position: its value, reachable states, the median solve time (enumerate +
# solve, as the JSON reports it), the median wall time, states per second
# (states / median solve time) and the peak memory (the largest of the runs).
#
# Peak memory is the "Maximum resident set size" of /usr/bin/time -v when
# that program exists, else the binary's own peak_memory_bytes (VmHWM).
#
# The bytes a state (peak memory / states) is what `query` and `serve` size
# their default state budget by (BYTES_PER_STATE in src/budget.rs).
#
# With BENCH_RANDOM=K it solves K random 12-slot openings instead
# (derangements, 乙 to move, drawn from BENCH_SEED, default 1, by a
# Fisher-Yates shuffle on a MINSTD generator written in awk, so that the
# same seed gives the same openings with any awk), BENCH_RUNS times each
# (default 1 in this mode), and ends with the median, the 90th percentile
# (nearest rank) and the maximum of each column.
#
# With BENCH_OLD=PATH (an older build's binary) it compares that build with
# today's instead: on the documented opening and the two other 12-slot
# openings, BENCH_PAIRS alternating pairs each (default 3: old, new, old,
# new, ...), every run `solve POS --no-tables --json`. It prints each
# pair's wall times and CPU times (user + system, from /usr/bin/time) and
# their ratios new / old, then the median ratio of each opening and of all
# pairs. A ratio above 1 means today's build is slower. The answers must be
# the same: the JSON of both, without its timings and memory, is compared
# byte for byte, and a difference stops the script (BENCH_ANY_ANSWER=1 for
# builds whose JSON differs in form). BENCH_NEW=PATH takes a built binary
# as today's instead of building it; BENCH_POSITIONS="POS POS ..." other
# positions (a quick check on 10 slots, say).
# With BENCH_COUNT=instructions as well, each build solves each position
# once under callgrind (valgrind, one worker thread, so that the count
# repeats) and the ratio of instructions is printed instead: a figure a
# loaded machine does not spoil, as it does wall time. Under callgrind the
# documented opening took about 35 minutes on a loaded machine;
# BENCH_POSITIONS=2,1,6,10,4,3,5,7,8,9 counts a 10-slot one in about 5.
#
# Needs only bash 5, awk, sort and cargo (and /usr/bin/time if present;
# valgrind for BENCH_COUNT).
# Usage: scripts/bench-solve.sh            (from any directory)
#        BENCH_RUNS=5 scripts/bench-solve.sh
#        BENCH_RANDOM=50 BENCH_SEED=1 scripts/bench-solve.sh
#        git worktree add /tmp/old 10b881f && (cd /tmp/old && cargo build --release)
#        BENCH_OLD=/tmp/old/target/release/chaosclock BENCH_PAIRS=5 scripts/bench-solve.sh
#        BENCH_OLD=... BENCH_COUNT=instructions scripts/bench-solve.sh
# CARGO_TARGET_DIR is honoured. The 12-slot runs need about 1.3 GB of memory
# (a random opening up to about 2 GB).
set -euo pipefail
here="${BASH_SOURCE[0]%/*}"
[[ "$here" == "${BASH_SOURCE[0]}" ]] && here=.
# The binaries given, from where the script was started.
[[ -n "${BENCH_OLD:-}" && "$BENCH_OLD" != /* ]] && BENCH_OLD="$PWD/$BENCH_OLD"
[[ -n "${BENCH_NEW:-}" && "$BENCH_NEW" != /* ]] && BENCH_NEW="$PWD/$BENCH_NEW"
cd "$here/.."

random="${BENCH_RANDOM:-}"
seed="${BENCH_SEED:-1}"
if [[ -n "$random" ]] && ! [[ "$random" =~ ^[1-9][0-9]*$ ]]; then
    echo "error: BENCH_RANDOM must be a positive integer, not '$random'" >&2
    exit 2
fi
if ! [[ "$seed" =~ ^[1-9][0-9]{0,8}$ ]]; then
    echo "error: BENCH_SEED must be an integer from 1 to 999999999, not '$seed'" >&2
    exit 2
fi
runs="${BENCH_RUNS:-$([[ -n "$random" ]] && echo 1 || echo 3)}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
    echo "error: BENCH_RUNS must be a positive integer, not '$runs'" >&2
    exit 2
fi
old_bin="${BENCH_OLD:-}"
pairs="${BENCH_PAIRS:-3}"
count="${BENCH_COUNT:-}"
if [[ -n "$old_bin" && ! -x "$old_bin" ]]; then
    echo "error: BENCH_OLD must be an executable (an older build of chaosclock), not '$old_bin'" >&2
    exit 2
fi
if [[ -n "$old_bin" && -n "$random" ]]; then
    echo "error: BENCH_OLD and BENCH_RANDOM are two modes: give one" >&2
    exit 2
fi
if ! [[ "$pairs" =~ ^[1-9][0-9]*$ ]]; then
    echo "error: BENCH_PAIRS must be a positive integer, not '$pairs'" >&2
    exit 2
fi
if [[ -n "$count" && "$count" != instructions ]]; then
    echo "error: BENCH_COUNT can only be 'instructions', not '$count'" >&2
    exit 2
fi
if [[ -n "$count" && -z "$old_bin" ]]; then
    echo "error: BENCH_COUNT=instructions compares two builds: give BENCH_OLD too" >&2
    exit 2
fi
if [[ -n "$count" ]] && ! command -v valgrind >/dev/null; then
    echo "error: BENCH_COUNT=instructions needs valgrind (callgrind)" >&2
    exit 2
fi
if [[ -z "${EPOCHREALTIME:-}" ]]; then
    echo "error: bash 5 or later is needed (EPOCHREALTIME)" >&2
    exit 2
fi

# The positions: a name and the interchange notation. The documented
# opening, two other 12-slot openings (derangements, 乙 to move), the
# documented mid-game position and a 10-slot opening.
positions=(
    "opening-12         2,8,11,9,4,12,10,6,5,7,1,3"
    "derangement-12a    6,11,5,12,7,3,9,2,1,4,8,10"
    "derangement-12b    7,6,1,3,8,12,4,10,5,11,9,2"
    "mid-game-12        4,3,7,11,5,10,12,0,0,2,0,0;0;7"
    "derangement-10     2,1,6,10,4,3,5,7,8,9"
)

# K random 12-slot derangements from the seed: MINSTD (x = 48271 x mod
# 2^31 - 1, exact in awk's doubles), a Fisher-Yates shuffle, shuffled again
# until no piece stands on its own slot.
random_openings() {
    awk -v k="$1" -v seed="$2" 'BEGIN {
        x = seed % 2147483647
        if (x == 0) { x = 1 }
        for (i = 1; i <= k; i++) {
            do {
                for (s = 1; s <= 12; s++) { p[s] = s }
                for (s = 12; s > 1; s--) {
                    x = (48271 * x) % 2147483647
                    j = 1 + x % s
                    t = p[s]; p[s] = p[j]; p[j] = t
                }
                fixed = 0
                for (s = 1; s <= 12; s++) { if (p[s] == s) { fixed = 1 } }
            } while (fixed)
            line = p[1]
            for (s = 2; s <= 12; s++) { line = line "," p[s] }
            printf "random-%d %s\n", i, line
        }
    }'
}
if [[ -n "$random" ]]; then
    mapfile -t positions < <(random_openings "$random" "$seed")
fi

if [[ -n "${BENCH_NEW:-}" ]]; then
    bin="$BENCH_NEW"
    if [[ ! -x "$bin" ]]; then
        echo "error: BENCH_NEW must be an executable, not '$bin'" >&2
        exit 2
    fi
else
    echo "building the release binary..." >&2
    cargo build --release --quiet
    target="${CARGO_TARGET_DIR:-target}"
    [[ "$target" == /* ]] || target="$PWD/$target"
    bin="$target/release/chaosclock"
    if [[ ! -x "$bin" ]]; then
        echo "error: no binary at $bin after the build" >&2
        exit 1
    fi
fi

if [[ -x /usr/bin/time ]]; then
    timer=(/usr/bin/time -v)
    memory_source="/usr/bin/time -v, maximum resident set size"
else
    timer=()
    memory_source="the JSON's peak_memory_bytes (VmHWM); /usr/bin/time not found"
fi

# The number after "key": in the JSON line of $2 (the line starting with
# '{'). Keys are matched with their quotes, so "seconds" does not match
# "solve_seconds".
json_number() {
    awk -v key="\"$1\":" '/^\{/ {
        i = index($0, key)
        if (i == 0) { exit 1 }
        rest = substr($0, i + length(key))
        match(rest, /^[-0-9.eE+]+/)
        if (RSTART == 0) { exit 1 }
        print substr(rest, 1, RLENGTH)
    }' <<<"$2"
}

# The median of the arguments.
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR % 2) { print v[(NR + 1) / 2] } else { print (v[NR / 2] + v[NR / 2 + 1]) / 2 }
    }'
}

# The JSON of a solve without the fields that vary from run to run (its
# timings and memory): what two builds must print alike.
answer_of() {
    sed -E 's/"(seconds|enumerate_seconds|solve_seconds|states_per_second|peak_memory_bytes|bytes_per_state)":[-0-9.eE+a-z]*,?//g' <<<"$1"
}

# Old against new: BENCH_PAIRS alternating pairs on each position (or one
# callgrind count each), the ratios new / old and their medians.
compare_builds() {
    local list=()
    if [[ -n "${BENCH_POSITIONS:-}" ]]; then
        read -r -a list <<<"$BENCH_POSITIONS"
    else
        list=(2,8,11,9,4,12,10,6,5,7,1,3 6,11,5,12,7,3,9,2,1,4,8,10 7,6,1,3,8,12,4,10,5,11,9,2)
    fi
    scratch="$(mktemp -d)"
    trap 'rm -rf "$scratch"' EXIT
    # The builds print no progress lines (both read this variable).
    export CHAOSCLOCK_PROGRESS_SECS=0
    echo "old: $old_bin" >&2
    echo "new: $bin" >&2
    local all=() pos
    if [[ -n "$count" ]]; then
        printf '%-31s %16s %16s %7s\n' position "old instr" "new instr" ratio
        for pos in "${list[@]}"; do
            local ir=() out=() b
            for b in "$old_bin" "$bin"; do
                RAYON_NUM_THREADS=1 valgrind --tool=callgrind \
                    --callgrind-out-file="$scratch/cg" "$b" solve "$pos" --no-tables --json \
                    >"$scratch/out" 2>"$scratch/err" || {
                    echo "error: $b solve $pos failed under callgrind:" >&2
                    tail -n 5 "$scratch/err" >&2
                    exit 1
                }
                out+=("$(answer_of "$(cat "$scratch/out")")")
                ir+=("$(awk '/^summary:/ { print $2 }' "$scratch/cg")")
            done
            check_answers "$pos" "${out[0]}" "${out[1]}"
            local r
            r="$(awk -v a="${ir[0]}" -v b="${ir[1]}" 'BEGIN { printf "%.4f", b / a }')"
            all+=("$r")
            printf '%-31s %16s %16s %7s\n' "$pos" "${ir[0]}" "${ir[1]}" "$r"
        done
        echo "median instructions ratio (new / old): $(median "${all[@]}")"
        return
    fi
    local cpu_all=()
    printf '%-31s %4s %8s %8s %6s %8s %8s %6s\n' \
        position pair "old s" "new s" ratio "old cpu" "new cpu" ratio
    for pos in "${list[@]}"; do
        local ratios=() cpu_ratios=() p
        for ((p = 1; p <= pairs; p++)); do
            local wall=() cpu=() out=() b
            for b in "$old_bin" "$bin"; do
                local start end
                start="$EPOCHREALTIME"
                if [[ -x /usr/bin/time ]]; then
                    /usr/bin/time -f '%U %S' -o "$scratch/time" \
                        "$b" solve "$pos" --no-tables --json >"$scratch/out" 2>"$scratch/err"
                else
                    "$b" solve "$pos" --no-tables --json >"$scratch/out" 2>"$scratch/err"
                fi || {
                    echo "error: $b solve $pos failed:" >&2
                    tail -n 5 "$scratch/err" >&2
                    exit 1
                }
                end="$EPOCHREALTIME"
                wall+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')")
                if [[ -x /usr/bin/time ]]; then
                    cpu+=("$(awk '{ printf "%.2f", $1 + $2 }' "$scratch/time")")
                else
                    cpu+=(0)
                fi
                out+=("$(answer_of "$(cat "$scratch/out")")")
            done
            check_answers "$pos" "${out[0]}" "${out[1]}"
            local r c
            r="$(awk -v a="${wall[0]}" -v b="${wall[1]}" 'BEGIN { printf "%.3f", b / a }')"
            c="$(awk -v a="${cpu[0]}" -v b="${cpu[1]}" 'BEGIN { printf "%.3f", (a > 0 ? b / a : 0) }')"
            ratios+=("$r")
            cpu_ratios+=("$c")
            printf '%-31s %4d %8.2f %8.2f %6s %8.2f %8.2f %6s\n' \
                "$pos" "$p" "${wall[0]}" "${wall[1]}" "$r" "${cpu[0]}" "${cpu[1]}" "$c"
        done
        printf '%-31s %4s %17s %6s %17s %6s\n' "$pos" median "" \
            "$(median "${ratios[@]}")" "" "$(median "${cpu_ratios[@]}")"
        all+=("${ratios[@]}")
        cpu_all+=("${cpu_ratios[@]}")
    done
    echo "median of all ${#all[@]} pairs (new / old): wall $(median "${all[@]}"), CPU $(median "${cpu_all[@]}")"
}

# Stops unless two builds' answers for `pos` are the same.
check_answers() {
    if [[ "$2" != "$3" && -z "${BENCH_ANY_ANSWER:-}" ]]; then
        echo "error: the builds answer $1 differently (JSON without timings; BENCH_ANY_ANSWER=1 if only its form changed):" >&2
        diff <(echo "$2") <(echo "$3") | head -n 5 >&2
        exit 1
    fi
}

if [[ -n "$old_bin" ]]; then
    compare_builds
    exit 0
fi

echo "runs per position: $runs; peak memory from $memory_source" >&2
[[ -n "$random" ]] && echo "$random random 12-slot openings, seed $seed" >&2
printf '%-16s %-31s %5s %11s %8s %8s %10s %8s %7s\n' \
    position notation value states "solve s" "wall s" "states/s" "peak MiB" "B/state"

# One line per position for the summary: states, solve s, wall s, peak
# bytes, bytes a state.
rows=()

for entry in "${positions[@]}"; do
    read -r name pos <<<"$entry"
    solve_times=()
    wall_times=()
    peak=0
    states=""
    for ((r = 1; r <= runs; r++)); do
        start="$EPOCHREALTIME"
        # stdout: the JSON line; stderr: /usr/bin/time's report, if any.
        if ! out="$("${timer[@]}" "$bin" solve "$pos" --json 2>&1)"; then
            echo "error: solving $name ($pos) failed:" >&2
            echo "$out" >&2
            exit 1
        fi
        end="$EPOCHREALTIME"
        wall_times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')")
        solve_times+=("$(json_number seconds "$out")")
        if [[ ${#timer[@]} -gt 0 ]]; then
            mem="$(awk -F': *' '/Maximum resident set size/ { print $2 * 1024 }' <<<"$out")"
        else
            mem="$(json_number peak_memory_bytes "$out")"
        fi
        peak="$(awk -v a="$peak" -v b="$mem" 'BEGIN { print (b > a ? b : a) }')"
        run_states="$(json_number states "$out")"
        if [[ -n "$states" && "$run_states" != "$states" ]]; then
            echo "error: $name reached $run_states states, earlier $states" >&2
            exit 1
        fi
        states="$run_states"
        value="$(json_number value "$out")"
    done
    s="$(median "${solve_times[@]}")"
    w="$(median "${wall_times[@]}")"
    awk -v name="$name" -v pos="$pos" -v value="$value" -v states="$states" \
        -v s="$s" -v w="$w" -v peak="$peak" 'BEGIN {
            rate = s > 0 ? states / s : 0
            printf "%-16s %-31s %5s %11d %8.2f %8.2f %10.0f %8.0f %7.1f\n",
                name, pos, value, states, s, w, rate, peak / 1048576, peak / states
        }'
    rows+=("$states $s $w $peak $(awk -v p="$peak" -v n="$states" 'BEGIN { print p / n }')")
done

# The summary of a random sample: median, 90th percentile (nearest rank:
# the ceil(0.9 K)-th smallest) and maximum of each column.
if [[ -n "$random" ]]; then
    echo
    printf '%-10s %11s %8s %8s %8s %7s\n' "" states "solve s" "wall s" "peak MiB" "B/state"
    for stat in median p90 max; do
        line="$(printf '%-10s' "$stat")"
        for col in 1 2 3 4 5; do
            v="$(printf '%s\n' "${rows[@]}" | awk -v c="$col" '{ print $c }' | sort -g |
                awk -v stat="$stat" '{ v[NR] = $1 } END {
                    if (stat == "max") { print v[NR] }
                    else if (stat == "p90") { r = int(0.9 * NR); if (r < 0.9 * NR) { r++ }; print v[r] }
                    else if (NR % 2) { print v[(NR + 1) / 2] }
                    else { print (v[NR / 2] + v[NR / 2 + 1]) / 2 }
                }')"
            case "$col" in
                1) line+="$(printf ' %11.0f' "$v")" ;;
                2 | 3) line+="$(printf ' %8.2f' "$v")" ;;
                4) line+="$(awk -v b="$v" 'BEGIN { printf " %8.0f", b / 1048576 }')" ;;
                5) line+="$(printf ' %7.1f' "$v")" ;;
            esac
        done
        echo "$line"
    done
fi
