#!/usr/bin/env bash
# One StrykerJS test run in its sandbox (tests/mutation/stryker.config.mjs):
# pkg/ built from the sandbox's sources (the snippets and npm/ as Stryker
# instrumented them) over the .wasm of MUTANTS_REPO's make build, once per
# set of sources; then `node --test` of the given files against it, the
# reference server at USERS_API_URL.
#
# A sampled run (MUTANTS_SAMPLE=K/N) tests only the mutants whose number is
# K modulo N: any other is recorded in the group's `skipped` file and passes
# at once (scripts/mutants_table.py leaves it out of the counts).
set -euo pipefail
: "${MUTANTS_REPO:?run through scripts/mutants-js.sh}" "${USERS_API_URL:?run through scripts/mutants-js.sh}"
mutant=${__STRYKER_ACTIVE_MUTANT__:-}
if [ -n "${MUTANTS_SAMPLE:-}" ] && [ -n "$mutant" ]; then
  if [ $((mutant % ${MUTANTS_SAMPLE#*/})) -ne "${MUTANTS_SAMPLE%/*}" ]; then
    echo "$mutant" >>"$MUTANTS_REPO/target/mutants-report/$MUTANTS_GROUP/skipped"
    exit 0
  fi
fi
stamp=$(cat src/transport/fetch/bridge.js js/snippet.js npm/*.js npm/*.mjs | sha1sum)
if [ "$(cat pkg/.sources 2>/dev/null)" != "$stamp" ]; then
  rm -rf target/wasm-pack pkg
  mkdir -p target/wasm-pack
  cp -r "$MUTANTS_REPO/target/wasm-pack/web" target/wasm-pack/web
  for copy in target/wasm-pack/web/snippets/*/src/transport/fetch/bridge.js; do cp src/transport/fetch/bridge.js "$copy"; done
  for copy in target/wasm-pack/web/snippets/*/snippet.js; do cp js/snippet.js "$copy"; done
  node npm/build.mjs >/dev/null
  echo "$stamp" >pkg/.sources
fi
exec node --test "$@"
