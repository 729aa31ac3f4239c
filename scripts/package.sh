#!/usr/bin/env bash
# Builds pkg/ as the one npm package user-management-client: the web target
# (pkg/web/, also what the demo page loads; its .wasm is the one every entry
# uses), then the entries, node.cjs and package.json (npm/build.mjs).
# `npm pack` in pkg/ makes the tarball.
set -euo pipefail
cd "$(dirname "$0")/.."
wasm-pack build --release --target web --out-dir pkg/web --no-pack
node npm/build.mjs
