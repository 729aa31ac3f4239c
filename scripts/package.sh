#!/usr/bin/env bash
# Builds pkg/ as the one npm package user-management-client: the web target
# (pkg/web/, also what the demo page loads) and the nodejs target
# (pkg/node/, for require), then the entries and package.json (npm/build.mjs).
# `npm pack` in pkg/ makes the tarball.
set -euo pipefail
cd "$(dirname "$0")/.."
wasm-pack build --release --target web --out-dir pkg/web --no-pack
wasm-pack build --release --target nodejs --out-dir pkg/node --no-pack
node npm/build.mjs
