#!/usr/bin/env bash
# The slow checks: every `#[ignore]`d test but three: the two that read
# tables made outside the repository (CHAOSCLOCK_TABLES_10,
# CC_VALUES/CC_DEPTHS), and every 8-slot opening solved one by one (over 20
# minutes on a busy machine; `cargo test --release` checks every 97th, and
# all of them solved together), which runs by hand with
# `cargo test --release --test cli_openings -- --ignored each_opening`.
# The long fault-injection runs (minutes each) run from scripts/faults.sh.
# The 200 12-slot openings solved against the book's when-stuck section
# (20 minutes, docs/book.md) run by hand too:
# `cargo test --release --test book -- --ignored --exact when_stuck_12_slot_values_agree_with_the_solver_on_200_openings`.
# `cargo test --release` leaves these out to stay quick; .ci/run runs this
# after it. Extra arguments go to `cargo test` (e.g. `--test every_state`);
# without them the 3-minute soak of `serve` follows (scripts/soak.py).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --tests "$@" -- --ignored \
    --skip ten_slot_tables_agree_with_solve \
    --skip counts_of_8_slots_match_solving_each_opening \
    --skip values_only_records_match_records_with_depths_in_given_directories \
    --skip long_form_killed_at_random_moments_gives_the_same_manifest \
    --skip long_form_every_flipped_bit_is_caught_and_never_believed \
    --skip when_stuck_12_slot_values_agree_with_the_solver_on_200_openings
# The 3-minute soak of `serve` (issue 68; scripts/soak.py, the hour's
# checks scaled), with a SIGTERM and restart under load and the limits on
# connections; only when no test was named.
if [ $# -eq 0 ]; then
    out="$(mktemp -d)"
    python3 scripts/soak.py 180 "$out" --restart --limits
    rm -rf "$out"
fi
