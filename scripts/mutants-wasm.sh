#!/usr/bin/env bash
# make mutants, its second part: cargo-mutants over the code that only a
# wasm32 build compiles, each group against the suite that runs it:
#
#   fetch  src/transport/fetch/ (the fetch transport), with the JS host's
#          rejection (src/host/js_rejection.rs) and the JS layer's door into
#          the library (src/binding.rs), against the shared
#          wasm suite in Node (js/tests/node.rs through
#          wasm-bindgen-test-runner, cargo's runner for wasm32), with the
#          reference server in fault mode around the run;
#   js     js/src/ (the JS layer), against the same suite;
#   wasi   src/transport/wasi/ (the WASI transport), against the library's
#          unit tests built for wasm32-wasip2 and run in the wasmtime CLI
#          (with wasi:http: some call the reference server).
#
# The JavaScript files are scripts/mutants-js.sh's (StrykerJS). Each group
# writes target/mutants-report/GROUP/; scripts/mutants_table.py reads them
# with the native groups'. --sample runs one round-robin shard in ten
# (SHARD, default 0) of each group: a tenth, for a run in under an hour.
#
#   scripts/mutants-wasm.sh [--sample] [fetch | js | wasi]...
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

. scripts/mutants-common.sh
[ ${#sample_arg[@]} -gt 0 ] && shift
groups=("$@")
[ $# -eq 0 ] && groups=(fetch js wasi)

# What the wasm32 test binaries run in: Node through wasm-bindgen's runner
# (the version Cargo.lock pins, which set-up installs), and the wasmtime CLI
# with wasi:http.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CARGO_TARGET_WASM32_WASIP2_RUNNER="$PWD/target/venv/bin/wasmtime run -S http"
export WASM_BINDGEN_TEST_TIMEOUT=900
command -v wasm-bindgen-test-runner >/dev/null || { echo "mutants: wasm-bindgen-test-runner not found: run make setup" >&2; exit 1; }
[ -x target/venv/bin/wasmtime ] || { echo "mutants: the wasmtime CLI is not in target/venv: run make setup" >&2; exit 1; }

# One job: a mutant's build and the suite's waits fill the machine; a test
# run past 180 s (the suite takes about 50) is a mutant that hangs it. The
# scratch copy builds in its own target directory (the native groups share
# target/, and a wasm32 build there would wait on their lock).
mutants() {
  cargo mutants --profile mutants --cargo-arg=--locked -j 1 --timeout 180 --build-timeout 900 "${sample[@]}" "$@"
}

# The suites call the reference server: the run goes on under
# scripts/with-server.sh (its debug build, or SERVER_BIN).
if [ -z "${USERS_API_URL:-}" ]; then
  exec scripts/with-server.sh --faults -- "$0" "${sample_arg[@]}" "${groups[@]}"
fi

mkdir -p target/mutants-report
for group in "${groups[@]}"; do
  started=$SECONDS
  case $group in
    # cargo-mutants 27 runs its baseline on the mutated package's tests,
    # not --test-package's: skipped here (make test's wasm suite is that
    # baseline), with the timeouts given above.
    fetch) mutants --package user-management-client --file 'src/transport/fetch/**' \
      --file src/host/js_rejection.rs --file src/binding.rs \
      --test-package user-management-client-js --baseline skip \
      --cargo-arg=--target=wasm32-unknown-unknown \
      --cargo-test-arg=--test=node --output target/mutants-report/fetch ;;
    js) mutants --package user-management-client-js --file 'js/src/**' \
      --cargo-arg=--target=wasm32-unknown-unknown \
      --cargo-test-arg=--test=node --output target/mutants-report/js ;;
    wasi) mutants --package user-management-client --file 'src/transport/wasi/**' \
      --cargo-arg=--target=wasm32-wasip2 --cargo-arg=--lib --output target/mutants-report/wasi ;;
    *) echo "usage: $0 [--sample] [fetch | js | wasi]..." >&2; exit 2 ;;
  esac
  judge $? "$group"
  finish_group "$group" "$started"
done

python3 scripts/mutants_table.py
