#!/usr/bin/env bash
# make mutants: cargo-mutants over every file of src/ that a native build
# compiles, in three groups, each run whatever the others found: `rest`
# (the model, errors, options, the host layer and the plain and native
# transports, against the unit tests and every native integration test),
# `loop` (the call machine, its driver, the request builders and the tracing spans,
# against the unit tests and the native client's tests) and `rules` (src/rules/, against the unit tests). Then
# scripts/mutants_table.py writes mutants.md's score table from the
# groups' outcomes.json. Fails when a run itself fails, or when a mutant
# survives that mutants.md does not list in its `survivors` blocks, keyed
# by file, line and mutation (`src/x.rs:LINE: replace ...`). A timeout is
# detected (the tests never pass), so it does not fail the run.
#
#   scripts/mutants.sh                  all three groups
#   scripts/mutants.sh rest|loop|rules  one or more of them
#   scripts/mutants.sh --sample ...     one round-robin shard in ten (SHARD,
#                                       default 0) of each: a tenth
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

mutants() {
  CARGO_TARGET_DIR="$PWD/target" cargo mutants --package user-management-client \
    --profile mutants --cargo-arg=--locked --cargo-arg=--lib -j 1 "${sample[@]}" "$@"
}

# The natively compiled files outside src/rules/ and the call loop. The
# fetch and WASI transports and host/js_rejection.rs are not compiled
# natively (their cfg), so no native test can judge them.
rest_files=(src/lib.rs src/binding.rs src/error.rs src/model.rs src/platform.rs src/wire.rs
  src/api/mod.rs src/api/options.rs src/host/mod.rs src/host/provider.rs src/host/rejection.rs
  src/transport/mod.rs src/transport/seam.rs 'src/transport/plain/**' 'src/transport/native/**')

file_args=()
for file in "${rest_files[@]}"; do file_args+=(--file "$file"); done

. scripts/mutants-common.sh
[ ${#sample_arg[@]} -gt 0 ] && shift
groups=("$@")
[ $# -eq 0 ] && groups=(rest loop rules)
cargo build --locked -p user-management-server --profile mutants || exit 1
mkdir -p target/mutants-report
for group in "${groups[@]}"; do
  started=$SECONDS
  case $group in
    rest) mutants --timeout 120 "${file_args[@]}" \
      --cargo-arg=--test=native_client --cargo-arg=--test=native --cargo-arg=--test=native_limits \
      --cargo-arg=--test=native_tls --output target/mutants-report/rest ;;
    rules) mutants --timeout 60 --file 'src/rules/**' --output target/mutants-report/rules ;;
    loop) mutants --timeout 120 --file 'src/call/**' --file src/api/client.rs --file src/api/request.rs --file 'src/api/hooks/**' \
      --file src/api/trace.rs \
      --cargo-arg=--test=native_client --cargo-arg=--test=native --cargo-arg=--test=native_hooks \
      --output target/mutants-report/loop ;;
    *) echo "usage: $0 [rest | loop | rules]..." >&2; exit 2 ;;
  esac
  judge $? "$group"
  finish_group "$group" "$started"
done

python3 scripts/mutants_table.py || exit 1
