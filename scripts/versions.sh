#!/usr/bin/env bash
# wasm-bindgen and its sibling crates are semver ranges in the library's
# Cargo.toml, so Rust apps resolve with their own wasm-bindgen release:
#   - tests/apps/older-wasm-bindgen pins the oldest release the range allows
#     (as workers-rs pins its own): it must resolve, and build for wasm32;
#   - examples/ssr takes the newest (resolved afresh, no lock file kept) and
#     is checked natively, as a server-side render compiles it.
# Each app gets a fresh lock file in a scratch copy; needs the crates.io index.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TARGET_DIR=${VERSIONS_TARGET_DIR:-$root/target/apps}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# A copy of an app whose path dependency points back at this checkout.
copy() {
  mkdir -p "$scratch/$2"
  cp -r "$1/." "$scratch/$2/"
  rm -f "$scratch/$2/Cargo.lock"
  sed -i "s|path = \"[./]*\"|path = \"$root\"|" "$scratch/$2/Cargo.toml"
}
resolved() { awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$1/Cargo.lock"; }

copy tests/apps/older-wasm-bindgen older
pinned=$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' tests/apps/older-wasm-bindgen/Cargo.toml)
(cd "$scratch/older" && cargo generate-lockfile -q)
got=$(resolved "$scratch/older")
echo "versions: an app pinning wasm-bindgen =$pinned resolves to $got"
[ "$got" = "$pinned" ] || { echo "versions: expected wasm-bindgen $pinned, got $got" >&2; exit 1; }
(cd "$scratch/older" && cargo check -q --target wasm32-unknown-unknown)
echo "versions: it builds for wasm32"

copy examples/ssr ssr
(cd "$scratch/ssr" && cargo generate-lockfile -q)
newest=$(resolved "$scratch/ssr")
ours=$(resolved "$root")
echo "versions: an app taking the newest resolves wasm-bindgen $newest (this repository's lock: $ours)"
[ "$(printf '%s\n' "$ours" "$newest" | sort -V | tail -n 1)" = "$newest" ] ||
  { echo "versions: the fresh resolution took $newest, older than $ours" >&2; exit 1; }
(cd "$scratch/ssr" && cargo check -q)
echo "versions: the server-side render app checks natively"
