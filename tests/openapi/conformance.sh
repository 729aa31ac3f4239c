#!/usr/bin/env bash
# Schemathesis against the reference server at $USERS_API_URL, generating
# requests from openapi/openapi.json: every check, a fixed seed, and enough
# examples per operation for at least MIN_CASES cases in all. Fails on any
# failure or on fewer cases. Run by `make openapi-conformance`, through
# scripts/with-server.sh.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
: "${USERS_API_URL:?run me through scripts/with-server.sh}"

MAX_EXAMPLES=100
SEED=22
MIN_CASES=300

# Schemathesis and Hypothesis keep their caches in the working directory.
mkdir -p "$repo/target/schemathesis"
cd "$repo/target/schemathesis"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
"$repo/target/venv/bin/schemathesis" --no-color run "$repo/openapi/openapi.json" \
  --url "$USERS_API_URL" --checks all --max-examples "$MAX_EXAMPLES" --seed "$SEED" \
  --workers 1 --generation-database none \
  --report junit --report-dir reports | tee "$out" || status=$?

# The summary's "N generated, N passed" (or "N generated, F found ...").
cases=$(sed -n 's/^ *\([0-9][0-9]*\) generated, .*/\1/p' "$out" | tail -1)
passed=$(sed -n 's/^ *[0-9][0-9]* generated, \([0-9][0-9]*\) passed.*/\1/p' "$out" | tail -1)
[ -n "$cases" ] || { echo "schemathesis: no case count in its summary" >&2; exit 1; }
[ -z "$passed" ] || echo "schemathesis: $passed passed, $((cases - passed)) failed"
[ "$status" -eq 0 ] || exit "$status"
if [ "$cases" -lt "$MIN_CASES" ]; then
  echo "schemathesis generated $cases cases, fewer than $MIN_CASES" >&2
  exit 1
fi
