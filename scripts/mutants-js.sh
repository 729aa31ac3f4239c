#!/usr/bin/env bash
# make mutants, its third part: StrykerJS (tests/mutation/, installed from
# its lock file) over the JavaScript the package ships written by hand, one
# group per file, each against the node:test files of tests/js that load
# it (tests/mutation/stryker.config.mjs says how). Needs `make build` (the
# .wasm every run builds its package over) and the reference server's
# debug build. Each group writes target/mutants-report/GROUP/mutation.json,
# which scripts/mutants_table.py reads.
#
# --sample tests one mutant in ten (SHARD, default 0: those whose number
# is 0 modulo 10), for a run in under an hour.
#
#   scripts/mutants-js.sh [--sample] [query | gate | snippet | bridge]...
set -euo pipefail
cd "$(dirname "$0")/.."
sample_arg=()
if [ "${1:-}" = --sample ]; then
  export MUTANTS_SAMPLE="${SHARD:-0}/10"
  sample_arg=(--sample)
  shift
fi
[ -d target/wasm-pack/web ] || { echo "mutants: no target/wasm-pack/web: run make build" >&2; exit 1; }
if [ -z "${USERS_API_URL:-}" ]; then
  exec scripts/with-server.sh --faults -- "$0" "${sample_arg[@]}" "$@"
fi
(cd tests/mutation && npm ci --no-audit --no-fund --silent)
groups=("$@")
[ $# -eq 0 ] && groups=(query gate snippet bridge)
export MUTANTS_REPO=$PWD
for group in "${groups[@]}"; do
  case $group in
    query) file=npm/query.js tests="tests/js/query.test.mjs" ;;
    gate) file=npm/gate.js tests="tests/js/free.test.mjs tests/js/manual.test.mjs tests/js/promises.test.mjs tests/js/errors.test.mjs tests/js/query.test.mjs" ;;
    snippet) file=js/snippet.js tests="tests/js/errors.test.mjs tests/js/hooks.test.mjs tests/js/promises.test.mjs tests/js/deadline.test.mjs tests/js/abort-race.test.mjs tests/js/free.test.mjs" ;;
    bridge) file=src/transport/fetch/bridge.js tests="tests/js/hooks.test.mjs tests/js/promises.test.mjs tests/js/abort-race.test.mjs tests/js/body-limit.test.mjs tests/js/errors.test.mjs tests/js/pages.test.mjs tests/js/edge-refused.test.mjs" ;;
    *) echo "usage: $0 [query | gate | snippet | bridge]..." >&2; exit 2 ;;
  esac
  started=$SECONDS
  mkdir -p "target/mutants-report/js-$group"
  rm -f "target/mutants-report/js-$group/skipped" "target/mutants-report/js-$group/sample"
  [ -n "${MUTANTS_SAMPLE:-}" ] && echo "$MUTANTS_SAMPLE by number" >"target/mutants-report/js-$group/sample"
  MUTANTS_GROUP="js-$group" MUTATE=$file TESTS=$tests \
    tests/mutation/node_modules/.bin/stryker run tests/mutation/stryker.config.mjs
  echo $((SECONDS - started)) >"target/mutants-report/js-$group/seconds"
done

python3 scripts/mutants_table.py
