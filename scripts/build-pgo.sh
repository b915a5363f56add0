#!/usr/bin/env bash
# Builds chaosclock with profile-guided optimisation, for the long table
# runs: an instrumented build, a training run of `generate --slots 10` (the
# complete 10-slot table of the kind given, in a temporary directory,
# removed afterwards), the profile merged, then the optimised build. The
# binary computes the same tables byte for byte; on the complete 10-slot
# table with depths it took 12% less time than the plain release build
# (docs/benchmarks.md, "Profile-guided builds").
#
# Usage: scripts/build-pgo.sh [depths|values]
#   depths (default)  train on the table with depths, with side files and
#                     the block cache of the 12-slot run
#   values            train on the values-only table
# Prints the optimised binary's path on stdout (target/pgo/release/chaosclock);
# the steps go to stderr. A build of the same code and kind is kept and
# used again. About 15 to 25 minutes on 2 cores (two release
# builds, and a training run of 5 to 10 minutes).
#
# Needs llvm-profdata of rustc's own LLVM: `rustup component add
# llvm-tools` (Debian's llvm-profdata is an older LLVM, whose profiles
# rustc refuses).
set -euo pipefail
here="${BASH_SOURCE[0]%/*}"
[[ "$here" == "${BASH_SOURCE[0]}" ]] && here=.
repo="$(cd "$here/.." && pwd)"

kind="${1:-depths}"
case "$kind" in
depths) train_flags=(--keep-side-files --block-cache 65536) ;;
values) train_flags=(--values-only) ;;
*) echo "error: the kind must be depths or values, not '$kind'" >&2; exit 2 ;;
esac

host="$(rustc -vV | sed -n 's/^host: //p')"
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [[ ! -x "$profdata" ]]; then
    echo "error: $profdata not found: run \`rustup component add llvm-tools\`" >&2
    exit 2
fi

# The build is kept with a stamp of what made it (the code as committed
# and any change to it not committed, the kind, rustc): the same again is
# not built again.
out="$repo/target/pgo/release/chaosclock"
stamp="$repo/target/pgo/stamp"
code=(src book Cargo.toml Cargo.lock .cargo)
key=""
# Outside a git checkout there is nothing to stamp: build every time.
if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
    key="$(cd "$repo" && {
        git ls-tree HEAD -- "${code[@]}"
        git diff HEAD -- "${code[@]}"
        git ls-files --others --exclude-standard -- "${code[@]}"
        echo "$kind"
        rustc -vV
    } | sha256sum | cut -d' ' -f1)"
fi
if [[ -n "$key" && -x "$out" && -f "$stamp" && "$(cat "$stamp")" == "$key" ]]; then
    echo "build-pgo: $out is up to date" >&2
    echo "$out"
    exit 0
fi

# RUSTFLAGS replaces the flags of .cargo/config.toml: repeat them.
base_flags="-C target-cpu=x86-64-v2"
work="$(mktemp -d)"
rm -f "$stamp"
trap 'rm -rf "$work"' EXIT

echo "build-pgo: the instrumented build" >&2
RUSTFLAGS="$base_flags -C profile-generate=$work/profiles" \
    cargo build --release --quiet --manifest-path "$repo/Cargo.toml" --target-dir "$repo/target/pgo-gen"
# Build scripts run by the instrumented build wrote profiles of their own.
rm -rf "$work/profiles"

echo "build-pgo: training, generate --slots 10 ${train_flags[*]}" >&2
mkdir "$work/tables"
LLVM_PROFILE_FILE="$work/profiles/generate-%p-%m.profraw" \
    "$repo/target/pgo-gen/release/chaosclock" generate --slots 10 "${train_flags[@]}" \
    --tables "$work/tables" --json >/dev/null 2>"$work/train.log" ||
    { tail -5 "$work/train.log" >&2; echo "error: the training run failed" >&2; exit 1; }
rm -rf "$work/tables"

"$profdata" merge -o "$work/merged.profdata" "$work/profiles"
echo "build-pgo: the optimised build" >&2
RUSTFLAGS="$base_flags -C profile-use=$work/merged.profdata" \
    cargo build --release --quiet --manifest-path "$repo/Cargo.toml" --target-dir "$repo/target/pgo"
[[ -z "$key" ]] || echo "$key" >"$stamp"
echo "$out"
