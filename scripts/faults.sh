#!/usr/bin/env bash
# The long forms of the fault-injection checks (issue 68; the short forms
# run in `cargo test --release --test faults`):
#   generate killed at seeded random moments (SIGKILL, and every 4th signal
#   SIGTERM or SIGINT), resumed each time with the same command, then
#   `manifest` compared byte for byte with a run never stopped:
#   8 slots with depths, and 10 slots values only.
# `scripts/faults.sh bits [FLIPS]`: one bit flipped at FLIPS (1,000)
#   seeded random offsets across a 10-slot table with depths, one at a
#   time: verify must catch each (exit 1, the file named), serve must
#   never answer from it.
# Each prints its seed; CHAOSCLOCK_FAULT_SEED=N replays the kill times.
# CHAOSCLOCK_FAULT_MAX_LIVE=K makes partial tables (--max-live K), for a
# busy machine. For `bits`, CHAOSCLOCK_FAULT_TABLES=DIR takes a copy of the
# always table already made under the tables root DIR instead of making
# one (20 minutes for 10 slots values only on a loaded machine); for the
# kills, CHAOSCLOCK_FAULT_TABLES=DIR and CHAOSCLOCK_FAULT_TOOK=SECONDS take
# the 10-slot run's manifest from a complete table an uninterrupted run of
# the same command made before, and that run's time, instead of making
# the table twice.
# Usage: scripts/faults.sh [KILLS]   (default 20 per table)
# The figures of a run go in docs/checking.md (section "Faults").
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = bits ]; then
    CHAOSCLOCK_FAULT_FLIPS="${2:-1000}" exec cargo test --release --test faults_bits -- \
        --ignored --nocapture --exact long_form_every_flipped_bit_is_caught_and_never_believed
fi
kills="${1:-20}"
long() {
    CHAOSCLOCK_FAULT_KILLS="$kills" cargo test --release --test faults -- --ignored \
        --nocapture --exact long_form_killed_at_random_moments_gives_the_same_manifest
}
echo "== 8 slots with depths, $kills kills"
(unset CHAOSCLOCK_FAULT_TABLES CHAOSCLOCK_FAULT_TOOK; CHAOSCLOCK_FAULT_SLOTS=8 long)
echo "== 10 slots values only, $kills kills"
CHAOSCLOCK_FAULT_SLOTS=10 CHAOSCLOCK_FAULT_VALUES_ONLY=1 long
