#!/usr/bin/env bash
# The publish checks: both client crates as crates.io would get them, and
# the npm package in pkg/ (needs `make build`) as npm would. Each file list
# is checked against what users need: anything else fails.
#
# --allow-dirty: a dry run in a work tree with uncommitted changes checks
# those changes (a real `cargo publish` still refuses a dirty tree).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

# Fails, naming the files, when a list has a file no pattern allows.
only() {
  local what=$1 allowed=$2 list=$3 extra
  extra=$(grep -Ev "$allowed" <<<"$list" || true)
  if [ -n "$extra" ]; then
    printf 'publish-check: %s would ship files users do not need:\n%s\n' "$what" "$extra" >&2
    exit 1
  fi
}
# Fails when a list lacks a file users need.
has() {
  local what=$1 file=$2 list=$3
  grep -qx "$file" <<<"$list" || { echo "publish-check: $what lacks $file" >&2; exit 1; }
}

cargo_meta='^(Cargo\.toml|Cargo\.toml\.orig|Cargo\.lock|\.cargo_vcs_info\.json|LICENSE-MIT|LICENSE-APACHE)$'
lib=$(cargo package --list --allow-dirty -p user-management-client)
only user-management-client "$cargo_meta|^README\.md$|^docs/src/[a-z-]+\.md$|^README\.crate\.md$|^src/.+\.rs$|^src/transport/fetch/bridge\.js$" "$lib"
for file in README.crate.md README.md docs/src/rust.md LICENSE-MIT LICENSE-APACHE src/lib.rs src/transport/fetch/bridge.js; do has user-management-client "$file" "$lib"; done
js=$(cargo package --list --allow-dirty -p user-management-client-js)
only user-management-client-js "$cargo_meta|^README\.md$|^snippet\.js$|^src/.+\.rs$" "$js"
for file in README.md LICENSE-MIT LICENSE-APACHE snippet.js src/lib.rs; do has user-management-client-js "$file" "$js"; done
echo "publish-check: user-management-client ships $(wc -l <<<"$lib") files, user-management-client-js $(wc -l <<<"$js")"

# Packages both crates and builds each from its packaged sources, the JS
# crate against the packaged library (the server and the component are not
# published): what `cargo publish` uploads and checks, without reading the
# registry (--offline: the crates are fetched by set-up; `cargo publish
# --dry-run` would update the index).
# cargo verifies the JS crate against the packaged library through a
# registry overlay of its own, whose unpacked copy it keeps between runs
# (the `-<hash>` folders) and does not unpack again for the same version:
# a copy from an earlier run would be verified instead of today's.
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/user-management-client-"$version"
cargo package --locked --offline --allow-dirty -p user-management-client -p user-management-client-js

# The library's tests, doctests included, as a distribution runs them on
# the published crate: from the unpacked .crate alone, outside the
# repository (so that no workspace is found: the pages its doctests
# compile ship with it); built in the repository's target/, where the
# dependencies the workspace's tests built are reused (CONTRIBUTING.md has
# the times): the unpacked crate's path is its own, and so are its
# artifacts.
repo=$PWD
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
tar -xzf "target/package/user-management-client-$version.crate" -C "$unpacked"
(cd "$unpacked/user-management-client-$version" &&
  CARGO_TARGET_DIR="$repo/target" cargo test --locked --offline -q) ||
  { echo "publish-check: the packaged user-management-client fails its tests" >&2; exit 1; }

[ -f pkg/package.json ] || { echo "publish-check: no pkg/package.json: run make build" >&2; exit 1; }
npm_json=$(cd pkg && npm publish --dry-run --json --loglevel=error 2>/dev/null)
files=$(node -e 'const r = JSON.parse(process.argv[1]); const p = r["user-management-client"] ?? r; for (const f of p.files) console.log(f.path)' "$npm_json")
only "the npm package" '^(package\.json|README\.md|LICENSE-MIT|LICENSE-APACHE|index\.d\.c?ts|manual\.d\.c?ts|query\.d\.c?ts|wasm\.d\.c?ts|[a-z-]+\.(js|mjs|cjs)|web/user_management_client(\.js|_bg\.wasm)|web/gate\.js|web/snippets/[^/]+/snippet\.js|web/snippets/[^/]+/src/transport/fetch/bridge\.js)$' "$files"
for file in package.json README.md LICENSE-MIT LICENSE-APACHE index.d.ts index.d.cts query.js query.cjs query.d.ts query.d.cts web/user_management_client_bg.wasm; do has "the npm package" "$file" "$files"; done
node -e 'const r = JSON.parse(process.argv[1]); const p = r["user-management-client"] ?? r;
  console.log(`publish-check: npm ${p.name}@${p.version}: ${p.entryCount} files, ${(p.size / 1000).toFixed(1)} kB packed, ${(p.unpackedSize / 1000).toFixed(1)} kB unpacked`)' "$npm_json"
