#!/usr/bin/env bash
# The app outside the workspace on today's reqwest (tests/apps/reqwest-app):
# builds it from its own committed lock and runs it against the reference
# server with its fault routes (its checks are in its src/main.rs); then
# builds its `operation-match`, a `match` on `Operation` without a wildcard
# arm, which must fail with rustc's E0004 for `Operation` being
# non-exhaustive, and with no other error. Uses USERS_API_URL if set (a
# server started with --faults), else starts one through
# scripts/with-server.sh.
#   scripts/reqwest-app.sh
set -euo pipefail
cd "$(dirname "$0")/.."

manifest=tests/apps/reqwest-app/Cargo.toml
# A target dir of its own, inside the root one, for the reason
# scripts/rust-example.sh gives (the app builds the library with other
# dependency features: reqwest's defaults).
target=${REQWEST_APP_TARGET_DIR:-$PWD/target/reqwest-app}

# --locked: the app's Cargo.lock is committed and used as it is. Clippy
# after the build, which it mostly reuses; the app is outside `make lint`'s
# workspace.
CARGO_TARGET_DIR=$target cargo build --locked -q --manifest-path "$manifest"
CARGO_TARGET_DIR=$target cargo clippy --locked -q --manifest-path "$manifest" -- -D warnings

if out=$(CARGO_TARGET_DIR=$target cargo build --locked -q --manifest-path "$manifest" \
  --bin operation-match --features compile-fail 2>&1); then
  echo "reqwest-app: a match on Operation without a wildcard arm compiled" >&2
  exit 1
fi
errors=$(grep -c '^error\[' <<<"$out" || true)
if [ "$errors" != 1 ] ||
  ! grep -q '^error\[E0004\]: non-exhaustive patterns: `_` not covered' <<<"$out" ||
  ! grep -q '`Operation` is marked as non-exhaustive' <<<"$out"; then
  echo "$out" >&2
  echo "reqwest-app: the match on Operation did not fail with E0004 alone, for Operation being non-exhaustive" >&2
  exit 1
fi
echo "ok: a match on Operation without a wildcard arm fails with E0004 (non-exhaustive)"

if [ -n "${USERS_API_URL:-}" ]; then
  "$target/debug/reqwest-app"
else
  scripts/with-server.sh --faults -- "$target/debug/reqwest-app"
fi
