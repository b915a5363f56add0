#!/usr/bin/env bash
# The slow checks: every `#[ignore]`d test, but the two that read tables
# made outside the repository (CHAOSCLOCK_TABLES_10, CC_VALUES/CC_DEPTHS).
# `cargo test --release` leaves them out to stay quick; .ci/run runs this
# after it. Extra arguments go to `cargo test` (e.g. `--test every_state`).
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo test --release --tests "$@" -- --ignored \
    --skip ten_slot_tables_agree_with_solve \
    --skip values_only_records_match_records_with_depths_in_given_directories
