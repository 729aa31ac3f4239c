#!/usr/bin/env bash
# Builds pkg/ as the one npm package user-management-client: the web target
# of the JS layer's crate (js/, named user_management_client* in pkg/web/,
# also what the demo page loads; its .wasm is the one every entry uses),
# then the entries, node.cjs and package.json (npm/build.mjs).
# `npm pack` in pkg/ makes the tarball.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf pkg/web/snippets
wasm-pack build --release --target web --out-dir ../pkg/web --out-name user_management_client --no-pack js
node npm/build.mjs
