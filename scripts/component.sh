#!/usr/bin/env bash
# Builds the WebAssembly component (component/, for wasm32-wasip2) into
# target/component/user-management-client.wasm, checks its world with
# jco's `wit` (exports user-management:client/users@0.1.0, imports only
# wasi:* interfaces), transpiles it with jco for Node into
# target/component/jco/ and for browsers (JSPI) into
# target/component/jco-browser/, and prints its size raw and gzip -9; and
# builds the joined-calls program (component/examples/joined.rs) into
# target/component/joined.wasm.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

out=target/component
wasm=$out/user-management-client.wasm
mkdir -p "$out"
# The component and, from the same dependency builds, the joined-calls
# program (component/examples/joined.rs: the library's calls joined under
# wstd's runtime, which tests/component/joined.test.mjs runs in the
# wasmtime CLI). One build with the example's feature, which changes
# nothing in the component: a second build without it would write another
# build of the component over the same file.
# Without the name section (the functions' names, a sixth of the core
# module): no host needs it, and a trap's backtrace is all it served. The
# release profile keeps it for the other builds (wasm-opt drops it from the
# npm package's .wasm).
# Panic locations name the registry's sources by their path: written from a
# fixed prefix, the component is the same whoever builds it, whatever their
# CARGO_HOME (its size test holds it to the byte).
RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}/registry/src=/crates" \
  CARGO_PROFILE_RELEASE_STRIP=symbols cargo build --locked --release --target wasm32-wasip2 \
  -p user-management-client-component --lib \
  --example joined --example edge --example users_handler \
  --features joined-example,edge-example,users-handler-example
cp target/wasm32-wasip2/release/user_management_client_component.wasm "$wasm"
cp target/wasm32-wasip2/release/examples/joined.wasm "$out/joined.wasm"

wit=$(jco wit "$wasm")
grep -qx '  export user-management:client/users@0.1.0;' <<<"$wit" || {
  echo "$wit" >&2; echo "component: $wasm does not export user-management:client/users@0.1.0" >&2; exit 1; }
others=$(grep -E '^  import ' <<<"$wit" | grep -v '^  import wasi:' || true)
[ -z "$others" ] || { echo "component: imports beyond wasi:*:" >&2; echo "$others" >&2; exit 1; }
echo "component: exports users@0.1.0; imports $(grep -c '^  import wasi:' <<<"$wit") wasi:* interfaces and nothing else"

rm -rf "$out/jco"
jco transpile "$wasm" -o "$out/jco" --name user-management-client --quiet
# The transpiled module is ESM; the repository's package.json says no type.
echo '{ "type": "module" }' >"$out/jco/package.json"
# For browsers: the shim's wasi:io waits are promises there, so the component
# suspends on them through JSPI (WebAssembly.Suspending / promising), and
# its two calls return promises.
rm -rf "$out/jco-browser"
users=user-management:client/users@0.1.0
jco transpile "$wasm" -o "$out/jco-browser" --name user-management-client --quiet \
  --async-mode jspi --async-imports 'wasi:io/poll#poll' 'wasi:io/poll#[method]pollable.block' \
  --async-exports "$users#count-users" "$users#list-users"

# At the edge (tests/edge): the handler on the library, and a handler that
# imports `users` composed with the component into one; each exports
# wasi:http/incoming-handler, and the composed one imports no `users`.
edge=target/edge
mkdir -p "$edge"
cp target/wasm32-wasip2/release/examples/edge.wasm "$edge/handler.wasm"
target/venv/bin/wasm-tools compose target/wasm32-wasip2/release/examples/users_handler.wasm \
  -d "$wasm" -o "$edge/composed.wasm" 2>/dev/null
for handler in "$edge/handler.wasm" "$edge/composed.wasm"; do
  wit=$(jco wit "$handler")
  grep -q '^  export wasi:http/incoming-handler@' <<<"$wit" || {
    echo "$wit" >&2; echo "component: $handler exports no wasi:http/incoming-handler" >&2; exit 1; }
  ! grep -q '^  import user-management:' <<<"$wit" || {
    echo "$wit" >&2; echo "component: $handler still imports users" >&2; exit 1; }
done
echo "component: $edge/handler.wasm and $edge/composed.wasm export wasi:http/incoming-handler"

raw=$(stat -c %s "$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
echo "component: $wasm $raw B raw, $gz B gzip -9"
