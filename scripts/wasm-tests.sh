#!/usr/bin/env bash
# The shared wasm suite (js/tests/common), run in Node and in headless
# Chromium against the reference server. Fails if either run executed no
# test, or if the two runs executed different numbers of tests: a browser
# run that is not configured for the browser skips everything and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${USERS_API_URL:?run through scripts/with-server.sh}"
export CHROMEDRIVER=${CHROMEDRIVER:-$(command -v chromedriver)}
# wasm-bindgen-test stops a browser run after 20 s by default, and then
# reports no test as run: the suite's browser run can take longer than that
# on a small, busy machine.
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-120}

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
status=0
# USERS_API_URL is compiled in (option_env!), so each run rebuilds the tests.
# From js/, the crate of the suite (wasm-pack takes `-- --test` only there).
(cd js && wasm-pack test --node -- --test node) 2>&1 | tee "$logs/node" || status=1
(cd js && wasm-pack test --headless --chrome -- --test browser) 2>&1 | tee "$logs/browser" || status=1

passed() { sed -n 's/^test result: ok\. \([0-9]*\) passed.*/\1/p' "$1" | tail -n 1; }
node=$(passed "$logs/node"); browser=$(passed "$logs/browser")
echo "wasm suite: node ran ${node:-0} tests, browser ran ${browser:-0}"
if [ "$status" != 0 ]; then echo "wasm suite: a run failed" >&2; exit 1; fi
if [ -z "$node" ] || [ "$node" = 0 ] || [ "$node" != "$browser" ]; then
  echo "wasm suite: both runs must execute the same number of tests, more than zero" >&2
  exit 1
fi
