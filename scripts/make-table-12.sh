#!/usr/bin/env bash
# Makes the complete 12-slot table of values only (or, with
# CHAOSCLOCK_KIND=depths, the table with depths) in the background, outside
# the repository, and resumes it when started again.
#
# Usage: scripts/make-table-12.sh [start|status|stop|finish] [DIR]
#   start   (default) build the release binary, copy it to DIR/bin and start
#           `generate --slots 12 --max-live 12 --values-only --tables DIR`
#           in the background (nothing happens if a run is going already);
#           a run that was stopped goes on from its last checkpoint.
#   status  is it running, the last progress lines, the files made so far.
#   stop    stop the run (it goes on from its last checkpoint next time).
#   finish  once the table is complete: verify it (every checksum, 1,000,000
#           entries re-derived, 50 positions solved), classify every
#           opening (--stats, docs/openings-12.svg; for when-stuck
#           docs/openings-12-when-stuck.svg), write the manifest
#           tables/n12-RULE.json (files, states, runs, openings) and
#           the rule's book file with its 12-slot section
#           (book/openings.ccbk for always, book/openings-when-stuck.ccbk
#           for when-stuck; the other sizes kept, the other rule's file
#           untouched) into the repository, then check the rebuilt
#           binary's book against the table; the reports go to
#           DIR/n12-RULE.*.txt, each step's wall time and peak memory to
#           DIR/n12-RULE.finish.txt. Stopped part way (the end of a
#           session), `finish` run again skips the steps done
#           (DIR/n12-always.finish.steps, tied to the run's summary
#           DIR/n12-always.json: a new table starts the list afresh).
# DIR defaults to $CHAOSCLOCK_TABLES, else ~/chaosclock-tables (values only)
# or ~/chaosclock-depths-12 (with depths).
#
# CHAOSCLOCK_KIND=depths: the table with depths (encoding 4, about 14 GB,
# with side files of 乙's depths besides, see docs/depths.md). The run keeps
# the side files (`--keep-side-files`): with them `finish` reads the
# openings' depths straight from the files instead of by a one-ply search
# each (7 times faster on 10 slots). `finish` then verifies the table,
# writes the openings' statistics and depths (`openings --depths`), times
# `query` on 2,000 openings (scripts/bench-query.sh, into
# DIR/n12-always.bench-query.txt), removes the side files (set
# CHAOSCLOCK_KEEP_SIDE_FILES=1 to keep them: queries are about a sixth
# faster with them), rewrites every file with one model set and its blocks
# in segments (`recode`, about 45 minutes), writes
# tables/n12-always-depths.json, checks
# that it has the same files, states and openings of each value as
# tables/n12-always.json (a test of tests/manifest.rs), times `query`
# again and leaves the openings book alone (it holds values, which the
# values-only table gave).
#
# CHAOSCLOCK_BLOCK_CACHE=BLOCKS: the decoded blocks each worker thread
# keeps (`generate --block-cache`; default 131,072, 192 MiB a thread of
# blocks with depths). Tables with depths stream the sub-tables their
# moves lead to (f52a970 and after), so 65,536 (96 MiB a thread) is
# plenty; values only decode fewer blocks again with more; the progress
# lines say how many reads missed.
#
# CHAOSCLOCK_PGO=1: `start` runs a profile-guided build
# (scripts/build-pgo.sh, trained on the complete 10-slot table of the
# run's kind; 15 to 25 minutes before the run starts) instead of the plain
# release build: the same tables byte for byte, about 12% less time on the
# 10-slot table with depths. Needs `rustup component add llvm-tools`. A
# run may be stopped and started again with or without it.
#
# MIMALLOC_PURGE_DELAY=-1 (passed on to the run, and named in the log's
# "run started" line): the allocator keeps the memory a sub-table frees
# for the next one instead of giving it back and faulting it in again. On
# the last 10-slot file: 5% less CPU, 4% more peak memory; on the 12-slot
# files of one fixed piece the anonymous memory grew from 4.7 GiB to over
# 7 GiB within an hour, so it is not the default (the target is 8 GB).
#
# Files under DIR:
#   n12-always/            the table files (f*.cctb) as they are completed
#   n12-always.log         progress: one line a minute (share of nodes done,
#                          nodes per second, time left), and per run its
#                          start, end, wall time and peak memory
#   n12-always.json        the summary of the run that completed the table
#   n12-always.files.jsonl one JSON line per table file as it is completed
#                          (nodes, states, states per value, bytes): the
#                          totals of the whole table, over all its runs
#   n12-always.pid         the process id of the run going on
#   n12-always.start.lock  held by a `start` while it runs
#   bin/chaosclock         the binary the runs use
set -euo pipefail
here="${BASH_SOURCE[0]%/*}"
[[ "$here" == "${BASH_SOURCE[0]}" ]] && here=.
repo="$(cd "$here/.." && pwd)"

cmd="${1:-start}"
rule="${CHAOSCLOCK_RULE:-always}"
case "$rule" in
always | when-stuck) ;;
*) echo "CHAOSCLOCK_RULE must be always or when-stuck, not $rule" >&2; exit 2 ;;
esac
kind="${CHAOSCLOCK_KIND:-values}"
case "$kind" in
values) kind_flags=(--values-only); default_dir="$HOME/chaosclock-tables"; manifest="n12-$rule.json" ;;
depths) kind_flags=(--allow-large --keep-side-files); default_dir="$HOME/chaosclock-depths-12"; manifest="n12-$rule-depths.json" ;;
*) echo "CHAOSCLOCK_KIND must be values or depths, not $kind" >&2; exit 2 ;;
esac
dir="${2:-${CHAOSCLOCK_TABLES:-$default_dir}}"
log="$dir/n12-$rule.log"
pidfile="$dir/n12-$rule.pid"

running() {
    [[ -f "$pidfile" ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

# Whether a run of the other kind is going in its default directory (the
# kinds share the name of the pid file); if so, sets o_kind, o_dir, o_pid.
other_run() {
    if [[ "$kind" == values ]]; then o_kind=depths o_dir="$HOME/chaosclock-depths-12"
    else o_kind=values o_dir="$HOME/chaosclock-tables"; fi
    [[ "$o_dir" != "$dir" && -f "$o_dir/n12-$rule.pid" ]] || return 1
    o_pid="$(cat "$o_dir/n12-$rule.pid")"
    kill -0 "$o_pid" 2>/dev/null
}

# "not running", and where a run of the other kind is going if one is.
not_running() {
    if other_run; then
        echo "no run in $dir; a run of kind $o_kind is going in $o_dir (pid $o_pid): CHAOSCLOCK_KIND=$o_kind $0 $cmd"
    else
        echo "not running"
    fi
}

case "$cmd" in
start)
    mkdir -p "$dir/bin"
    # One start at a time: two at once would both find no run, and the
    # one refused by the table's lock would leave its pid in the pid file.
    # The lock is held until this script ends (the run does not inherit
    # it: 9>&- below).
    exec 9>"$dir/n12-$rule.start.lock"
    if ! flock -n 9; then
        echo "another start is under way in $dir" >&2
        exit 1
    fi
    if running; then
        echo "a run is going already (pid $(cat "$pidfile")); see: $0 status $dir"
        exit 0
    fi
    if other_run; then
        echo "a run of kind $o_kind is going in $o_dir (pid $o_pid): two runs would share the cores and the memory; stop it first (CHAOSCLOCK_KIND=$o_kind $0 stop)" >&2
        exit 1
    fi
    if [[ -n "${CHAOSCLOCK_PGO:-}" ]]; then
        built="$("$repo/scripts/build-pgo.sh" "$kind")"
        build_note=" (profile-guided build)"
    else
        (cd "$repo" && cargo build --release --quiet)
        built="$repo/target/release/chaosclock"
        build_note=""
    fi
    cp "$built" "$dir/bin/chaosclock.new"
    mv "$dir/bin/chaosclock.new" "$dir/bin/chaosclock"
    version="$(cd "$repo" && git rev-parse --short HEAD 2>/dev/null || echo unknown)$build_note"
    timer=()
    [[ -x /usr/bin/time ]] && timer=(/usr/bin/time -f "run ended: exit %x, wall %e s, peak memory %M KiB")
    cache=()
    [[ -n "${CHAOSCLOCK_BLOCK_CACHE:-}" ]] && cache=(--block-cache "$CHAOSCLOCK_BLOCK_CACHE")
    purge="${MIMALLOC_PURGE_DELAY+, MIMALLOC_PURGE_DELAY=$MIMALLOC_PURGE_DELAY}"
    echo "=== run started $(date -u '+%F %T') UTC, commit $version${cache[*]:+, ${cache[*]}}$purge" >>"$log"
    # setsid: the run does not end with the shell that started it.
    setsid nohup "${timer[@]}" "$dir/bin/chaosclock" generate --slots 12 --max-live 12 --pass-rule "$rule" \
        "${kind_flags[@]}" "${cache[@]}" --tables "$dir" --json --file-log "$dir/n12-$rule.files.jsonl" \
        >"$dir/n12-$rule.json.part" 2>>"$log" </dev/null 9>&- &
    echo $! >"$pidfile"
    # Keep the summary only from a run that ended well.
    (
        while kill -0 "$(cat "$pidfile")" 2>/dev/null; do sleep 10; done
        if [[ -s "$dir/n12-$rule.json.part" ]]; then
            mv "$dir/n12-$rule.json.part" "$dir/n12-$rule.json"
        fi
    ) </dev/null >/dev/null 2>&1 9>&- &
    disown -a
    echo "started (pid $(cat "$pidfile")): tables in $dir/n12-$rule, log in $log"
    ;;
status)
    if running; then echo "running (pid $(cat "$pidfile"))"; else not_running; fi
    [[ -f "$log" ]] && tail -n 5 "$log"
    if [[ -d "$dir/n12-$rule" ]]; then
        files=$(find "$dir/n12-$rule" -name 'f*.cctb' ! -name '*.side.cctb' | wc -l)
        echo "files: $files of 1,248 complete; $(du -sh "$dir/n12-$rule" | cut -f1) on disk"
    fi
    [[ -f "$dir/n12-$rule.json" ]] && echo "complete: $(cat "$dir/n12-$rule.json")"
    ;;
stop)
    if running; then
        kill -- -"$(cat "$pidfile")"
        echo "stopped; start again to go on from the last checkpoint"
    else
        not_running
    fi
    ;;
finish)
    if running; then
        echo "a run is going (pid $(cat "$pidfile")): finish when it is complete" >&2
        exit 1
    fi
    if [[ ! -f "$dir/n12-$rule.json" ]]; then
        echo "the table is not complete: no $dir/n12-$rule.json (start the run again)" >&2
        exit 1
    fi
    (cd "$repo" && cargo build --release --quiet)
    bin="$repo/target/release/chaosclock"
    # Each step's wall time and peak memory go to DIR/n12-$rule.finish.txt.
    timed=()
    [[ -x /usr/bin/time ]] && timed=(/usr/bin/time -a -o "$dir/n12-$rule.finish.txt" \
        -f "%C: exit %x, wall %e s, peak memory %M KiB")
    # The steps done, listed under the checksum of the run's summary: a
    # finish stopped part way goes on with the first step not done, and a
    # table made again starts the list afresh.
    steps="$dir/n12-$rule.finish.steps"
    run_sum="run $(sha256sum "$dir/n12-$rule.json" | cut -d' ' -f1)"
    if [[ ! -f "$steps" || "$(head -n 1 "$steps")" != "$run_sum" ]]; then
        echo "$run_sum" >"$steps"
    fi
    # step NAME FUNCTION: runs FUNCTION unless NAME is listed as done, and
    # lists it once FUNCTION has succeeded (a failure stops the script).
    step() {
        if grep -qx "$1" "$steps"; then
            echo "finish: $1 done before, skipped ($steps)"
            return
        fi
        echo "finish: $1"
        "$2"
        echo "$1" >>"$steps"
    }
    do_verify() {
        "${timed[@]}" "$bin" verify --pass-rule "$rule" --slots 12 --max-live 12 --tables "$dir" \
            --sample 1000000 --solves 50 \
            | tee "$dir/n12-$rule.verify.txt"
    }
    # What goes into the repository is written under DIR first and copied
    # in by every finish run (a finish resumed in a fresh checkout).
    do_manifest() {
        "${timed[@]}" "$bin" manifest --pass-rule "$rule" --slots 12 --max-live 12 --tables "$dir" \
            --file-log "$dir/n12-$rule.files.jsonl" --run-log "$log" \
            --output "$dir/n12-$rule.manifest.json"
    }
    # Each rule has its plot and its book file (docs/book.md).
    if [[ "$rule" == always ]]; then plot=docs/openings-12.svg book=book/openings.ccbk
    else plot="docs/openings-12-$rule.svg" book="book/openings-$rule.ccbk"; fi
    publish() {
        local from to
        for from in manifest.json openings.svg book.ccbk; do
            case "$from" in
            manifest.json) to="tables/$manifest" ;;
            openings.svg) to="$plot" ;;
            book.ccbk) to="$book" ;;
            esac
            if [[ -f "$dir/n12-$rule.$from" ]] && ! cmp -s "$dir/n12-$rule.$from" "$repo/$to"; then
                cp "$dir/n12-$rule.$from" "$repo/$to"
                echo "finish: copied $dir/n12-$rule.$from to $repo/$to"
            fi
        done
    }
    step verify do_verify
    if [[ "$kind" == depths ]]; then
        # The openings' values and depths from this table (the manifest
        # has their counts too): the text for docs/openings.md, the JSON
        # with the whole histograms.
        do_openings() {
            "${timed[@]}" "$bin" openings --pass-rule "$rule" --slots 12 --tables "$dir" --stats --depths \
                | tee "$dir/n12-$rule.openings.txt"
            "${timed[@]}" "$bin" openings --pass-rule "$rule" --slots 12 --tables "$dir" --depths --json \
                >"$dir/n12-$rule.openings.json"
        }
        # Queries of 2,000 openings (value, every move, the line), with the
        # side files and, once they are removed and the files recoded, without.
        do_bench_before() {
            "$repo/scripts/bench-query.sh" "$dir" 12 | tee "$dir/n12-$rule.bench-query.txt"
        }
        do_remove_sides() {
            if [[ "${CHAOSCLOCK_KEEP_SIDE_FILES:-}" != 1 ]]; then
                sides="$(du -ch "$dir"/n12-$rule/f*.side.cctb 2>/dev/null | tail -n 1 | cut -f1)"
                find "$dir/n12-$rule" -name 'f*.side.cctb' -delete
                echo "removed the side files (${sides:-0}); the table answers without them"
            fi
        }
        # One model set for all the table files, blocks in segments: queries
        # read several times as fast (docs/tables.md, "Recoding"). The
        # manifest lists the files as recoded, and the set. A recoding
        # stopped part way goes on where it stopped, to the same bytes.
        do_recode() {
            "${timed[@]}" "$bin" recode --pass-rule "$rule" --slots 12 --max-live 12 --tables "$dir" \
                --file-log "$dir/n12-$rule.files.jsonl" | tee "$dir/n12-$rule.recode.txt"
        }
        # The same files, nodes, states and openings of each value as the
        # values-only table's manifest (tables/n12-$rule.json).
        do_manifest_test() {
            (cd "$repo" && cargo test --release --quiet --test manifest manifests_of_both_kinds_agree)
            echo "wrote $repo/tables/$manifest and $dir/n12-$rule.openings.{txt,json}"
        }
        # Recoded: also a new opening in a warm process (the 1 ms target).
        do_bench_after() {
            BENCH_WARM=2000 "$repo/scripts/bench-query.sh" "$dir" 12 \
                | tee -a "$dir/n12-$rule.bench-query.txt"
        }
        step openings do_openings
        step bench-before do_bench_before
        step remove-side-files do_remove_sides
        step recode do_recode
        step manifest do_manifest
        publish
        step manifest-test do_manifest_test
        step bench-after do_bench_after
        exit 0
    fi
    do_openings_plot() {
        "${timed[@]}" "$bin" openings --pass-rule "$rule" --slots 12 --tables "$dir" --stats \
            --plot "$dir/n12-$rule.openings.svg" \
            | tee "$dir/n12-$rule.openings.txt"
    }
    # The rule's book file: 12 slots from the table, 4 to 8 solved, 10
    # copied from the built-in book (the other rule's file is not touched).
    do_book() {
        "${timed[@]}" "$bin" book --pass-rule "$rule" --build "$dir/n12-$rule.book.ccbk" --tables "$dir" \
            | tee "$dir/n12-$rule.book.txt"
    }
    # The binary embeds the book: build it again, then check it.
    do_book_verify() {
        (cd "$repo" && cargo build --release --quiet)
        "${timed[@]}" "$bin" book --pass-rule "$rule" --verify --slots 12 --tables "$dir" \
            | tee -a "$dir/n12-$rule.book.txt"
        echo "wrote $repo/tables/n12-$rule.json, $repo/$plot and $repo/$book"
    }
    step manifest do_manifest
    step openings do_openings_plot
    step book do_book
    publish
    step book-verify do_book_verify
    ;;
*)
    echo "usage: $0 [start|status|stop|finish] [DIR]" >&2
    exit 2
    ;;
esac
