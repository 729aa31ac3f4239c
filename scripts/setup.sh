#!/usr/bin/env bash
# Installs everything the build and the tests need, on a fresh machine, and
# skips what is already there at the right version. Safe to run again.
# `scripts/setup.sh --build` installs only what the package and the server
# need (`make build`, `make demo`): the first five lines marked (build).
#
#   - (build) Rust target wasm32-unknown-unknown
#   - (build) wasm-bindgen-cli at exactly the version Cargo.lock pins for wasm-bindgen
#   - (build) wasm-pack
#   - Rust target wasm32-wasip2 (the component)
#   - Debian chromium + chromium-driver (headless browser tests)
#   - Debian firefox-esr and geckodriver (cargo install --locked, pinned)
#   - Debian webkit2gtk-driver (WebKitWebDriver, MiniBrowser) and xvfb (an X
#     display for MiniBrowser)
#   - (build) the JS tooling from package.json + package-lock.json (npm ci):
#     binaryen (wasm-opt), playwright-core, @redocly/cli, jco and its WASI shim, ...
#   - openapi-typescript and the TypeScript 5 it needs (npm ci in tests/openapi)
#   - schemathesis, pinned with everything it pulls in
#     (tests/openapi/requirements.txt), in a virtual environment: target/venv
#   - mdBook (the book in docs/) and, from docs/typedoc/'s lock, TypeDoc
#   - the component's wasmtime host (component/host), built once and kept in
#     ~/.cargo/bin until its sources change (a stamp of their hash)
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  "") for_tests=1 ;;
  --build) for_tests=0 ;;
  *) echo "usage: $0 [--build]" >&2; exit 2 ;;
esac

WASM_PACK_VERSION=0.15.1
MDBOOK_VERSION=0.5.4
GECKODRIVER_VERSION=0.37.1
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '[setup] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

command -v cargo >/dev/null || { echo "cargo not found: install Rust (rustup) first" >&2; exit 1; }
command -v npm >/dev/null || { echo "npm not found: install Node.js >= 18 first" >&2; exit 1; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$for_tests" = 1 ] && ! rustup target list --installed | grep -qx wasm32-wasip2; then
  say "adding the wasm32-wasip2 target (the component)"
  rustup target add wasm32-wasip2
fi

# The CLI must match the wasm-bindgen crate exactly, or wasm-pack quietly
# cargo-installs another one on every run.
[ -f Cargo.lock ] || cargo generate-lockfile
pinned=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$pinned" ]; then
  say "installing wasm-bindgen-cli $pinned (have: ${have:-none}; takes a few minutes)"
  # Not --locked: its lock file names a webpki-roots release the index no longer serves.
  cargo install wasm-bindgen-cli --version "$pinned" --force
fi

have=$(wasm-pack --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$WASM_PACK_VERSION" ]; then
  say "installing wasm-pack $WASM_PACK_VERSION (have: ${have:-none}; takes a few minutes)"
  cargo install wasm-pack --version "$WASM_PACK_VERSION" --force
fi

if [ "$for_tests" = 1 ]; then
  # The component's wasmtime host: wasmtime is a long build, so it is a tool
  # built once per version of its sources (and of the WIT it binds), with its
  # own lock file; target/component-host keeps the build for the next change.
  host=user-management-component-host
  host_stamp="$HOME/.cargo/bin/.$host.stamp"
  host_hash=$(cat component/host/Cargo.toml component/host/Cargo.lock component/host/src/*.rs wit/*.wit | sha256sum | cut -c1-16)
  if ! command -v "$host" >/dev/null || [ "$(cat "$host_stamp" 2>/dev/null)" != "$host_hash" ]; then
    say "building the component's wasmtime host ($host_hash; the first build takes several minutes)"
    cargo install --locked --path component/host --target-dir target/component-host --force
    echo "$host_hash" >"$host_stamp"
  fi

  # Without mdBook's `serve` and `watch` (a web server and a file watcher):
  # `make docs` only builds.
  have=$(mdbook --version 2>/dev/null | awk '{print $2}' || true)
  if [ "$have" != "v$MDBOOK_VERSION" ]; then
    say "installing mdbook $MDBOOK_VERSION (have: ${have:-none}; takes a few minutes)"
    cargo install mdbook --locked --version "$MDBOOK_VERSION" --no-default-features --features search --force
  fi

  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    say "installing Debian chromium and chromium-driver"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium chromium-driver >/dev/null
  fi

  # The other engines: Firefox ESR, and WebKitGTK driven by WebKitWebDriver
  # (MiniBrowser needs an X display: Xvfb).
  missing=()
  command -v firefox-esr >/dev/null || missing+=(firefox-esr)
  command -v WebKitWebDriver >/dev/null || missing+=(webkit2gtk-driver)
  command -v Xvfb >/dev/null || missing+=(xvfb)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian ${missing[*]}"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
  fi

  have=$(geckodriver --version 2>/dev/null | awk 'NR == 1 {print $2}' || true)
  if [ "$have" != "$GECKODRIVER_VERSION" ]; then
    say "installing geckodriver $GECKODRIVER_VERSION (have: ${have:-none}; takes a few minutes)"
    cargo install geckodriver --locked --version "$GECKODRIVER_VERSION" --force
  fi
fi

# npm ci only when the lock file changed since the last install.
stamp=node_modules/.setup-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  say "installing JS tooling (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi

if [ "$for_tests" = 0 ]; then
  say "ready to build: $(wasm-pack --version), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), $(node_modules/.bin/wasm-opt --version)"
  exit 0
fi

# TypeDoc and the TypeScript it supports, apart from the root's tooling.
stamp=docs/typedoc/node_modules/.setup-stamp
if [ ! -f "$stamp" ] || [ docs/typedoc/package-lock.json -nt "$stamp" ] || [ docs/typedoc/package.json -nt "$stamp" ]; then
  say "installing TypeDoc (npm ci in docs/typedoc)"
  (cd docs/typedoc && npm ci --no-audit --no-fund --loglevel=error)
  touch "$stamp"
fi

# Apart from the root's tooling: openapi-typescript needs TypeScript 5's
# compiler API, and the root's TypeScript is 7.
stamp=tests/openapi/node_modules/.setup-stamp
if [ ! -f "$stamp" ] || [ tests/openapi/package-lock.json -nt "$stamp" ] || [ tests/openapi/package.json -nt "$stamp" ]; then
  say "installing openapi-typescript (npm ci in tests/openapi)"
  npm ci --prefix tests/openapi --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi

# schemathesis for make openapi-conformance, reinstalled when the pins change.
venv=target/venv
requirements=tests/openapi/requirements.txt
if ! cmp -s "$requirements" "$venv/requirements.txt"; then
  if ! command -v python3 >/dev/null || ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    say "installing Debian python3-venv"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq python3-venv >/dev/null
  fi
  say "installing schemathesis into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$requirements"
  cp "$requirements" "$venv/requirements.txt"
fi

say "ready: $(wasm-pack --version), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), $(node_modules/.bin/wasm-opt --version), $host $host_hash, $("$venv/bin/schemathesis" --version)"
say "browsers: $(chromium --version 2>/dev/null); $(firefox-esr --version 2>/dev/null); WebKitGTK (WebKitWebDriver, MiniBrowser) $(dpkg-query -W -f '${Version}' webkit2gtk-driver)"
say "drivers: $(chromedriver --version | awk '{print $1, $2}'); $(geckodriver --version | head -n 1); Xvfb $(dpkg-query -W -f '${Version}' xvfb)"
