#!/usr/bin/env bash
# The shared wasm suite (js/tests/common), run in Node, headless Chromium,
# headless Firefox ESR and WebKitGTK against the reference server. Fails if
# a run failed, executed no test, or executed a different number of tests
# than the others: a browser run that is not configured for the browser
# skips everything and exits 0. Prints each run's count and time. The four
# runs go at once, after one build of the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${USERS_API_URL:?run through scripts/with-server.sh}"
for tool in chromedriver geckodriver WebKitWebDriver xvfb-run; do
  command -v "$tool" >/dev/null || { echo "wasm suite: $tool not found: run scripts/setup.sh" >&2; exit 1; }
done
chromedriver=${CHROMEDRIVER:-$(command -v chromedriver)}
geckodriver=${GECKODRIVER:-$(command -v geckodriver)}
webkitdriver=${WEBKITWEBDRIVER:-$(command -v WebKitWebDriver)}
# The test runner takes the first driver it finds in GECKODRIVER,
# SAFARIDRIVER, CHROMEDRIVER, whatever wasm-pack was asked for: each run
# gets its own driver's variable and no other, and each run's log must name
# its browser (below).
unset CHROMEDRIVER GECKODRIVER SAFARIDRIVER
# The browsers' capabilities (the binaries, Chromium's flags, Firefox's
# prefs); the test runner reads the file from its working directory unless told.
export WASM_BINDGEN_TEST_WEBDRIVER_JSON=${WASM_BINDGEN_TEST_WEBDRIVER_JSON:-$PWD/webdriver.json}
# wasm-bindgen-test stops a browser run after 20 s by default, and then
# reports no test as run. The limit is no verdict on speed (each test's
# values and the equal counts are): it only ends a browser run that hangs,
# so it is generous enough for the whole suite on a small, busy machine.
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-900}

engines=(node chromium firefox webkit)
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
status=0
declare -A seconds
# From js/, the crate of the suite (wasm-pack takes `-- --test` only there).
# USERS_API_URL is compiled in (option_env!): a new server URL rebuilds the
# suite once, and the four runs, against the same server, share that build.
command_for() {
  case "$1" in
    node) cmd=(wasm-pack test --node -- --locked --test node) ;;
    chromium) cmd=(env CHROMEDRIVER="$chromedriver" wasm-pack test --headless --chrome --chromedriver "$chromedriver" -- --locked --test browser) ;;
    firefox) cmd=(env GECKODRIVER="$geckodriver" wasm-pack test --headless --firefox --geckodriver "$geckodriver" -- --locked --test browser) ;;
    # WebKitWebDriver stands in for safaridriver (it takes the same --port=N
    # and starts MiniBrowser by default); MiniBrowser needs an X display.
    webkit) cmd=(env SAFARIDRIVER="$webkitdriver" xvfb-run -a wasm-pack test --headless --safari --safaridriver "$webkitdriver" -- --locked --test browser) ;;
  esac
}
run() {
  local engine=$1 started
  command_for "$engine"
  started=$(date +%s)
  if (cd js && "${cmd[@]}") >"$logs/$engine" 2>&1; then :; else echo failed >"$logs/$engine.failed"; fi
  echo $(($(date +%s) - started)) >"$logs/$engine.seconds"
}
# The suite compiled first, as wasm-pack builds it; then the four runs at
# once, each finding it built: most of a run is the suite's own waits
# (timers, Retry-After), so they overlap.
for engine in "${engines[@]}"; do
  command_for "$engine"
  echo "wasm suite: $engine: ${cmd[*]}"
done
(cd js && cargo build --locked --tests --target wasm32-unknown-unknown)
pids=()
for engine in "${engines[@]}"; do
  run "$engine" &
  pids+=($!)
done
wait "${pids[@]}"
for engine in "${engines[@]}"; do
  echo "--- wasm suite: the $engine run's output"
  cat "$logs/$engine"
  [ -e "$logs/$engine.failed" ] && status=1
  seconds[$engine]=$(cat "$logs/$engine.seconds")
done

# The browser each run says it drove ("Running headless tests in Firefox").
declare -A browser=([chromium]=Chrome [firefox]=Firefox [webkit]=Safari)
for engine in chromium firefox webkit; do
  if ! grep -q "^Running headless tests in ${browser[$engine]} " "$logs/$engine"; then
    ran=$(sed -n 's/^Running headless tests in \([A-Za-z]*\).*/\1/p' "$logs/$engine" | head -n 1)
    echo "wasm suite: the $engine run drove ${ran:-no browser}, not ${browser[$engine]}" >&2
    status=1
  fi
done

passed() { sed -n 's/^test result: ok\. \([0-9]*\) passed.*/\1/p' "$1" | tail -n 1; }
counts=()
for engine in "${engines[@]}"; do
  n=$(passed "$logs/$engine")
  counts+=("${n:-0}")
  echo "wasm suite: $engine ran ${n:-0} tests in ${seconds[$engine]} s"
done
if [ "$status" != 0 ]; then echo "wasm suite: a run failed" >&2; exit 1; fi
for n in "${counts[@]}"; do
  if [ "$n" = 0 ] || [ "$n" != "${counts[0]}" ]; then
    echo "wasm suite: every run must execute the same number of tests, more than zero (${engines[*]}: ${counts[*]})" >&2
    exit 1
  fi
done
