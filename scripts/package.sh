#!/usr/bin/env bash
# Builds pkg/ as the one npm package user-management-client: the web target
# of the JS layer's crate (js/, named user_management_client*, built into
# target/wasm-pack/web/), then npm/build.mjs assembles pkg/ from it: pkg/web/
# (also what the demo page loads; its .wasm is the one every entry uses),
# the entries, node.cjs and package.json. `npm pack` in pkg/ makes the tarball.
set -euo pipefail
cd "$(dirname "$0")/.."
# wasm-pack finds wasm-opt (npm's binaryen) here, also when run outside make.
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Panic locations in the .wasm name the registry's sources by their path:
# written from a fixed prefix, the .wasm is the same whoever builds it,
# whatever their CARGO_HOME (the size test holds it to the byte).
export RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}/registry/src=/crates"
rm -rf target/wasm-pack/web
wasm-pack build --release --target web --out-dir ../target/wasm-pack/web --out-name user_management_client --no-pack js
node npm/build.mjs
