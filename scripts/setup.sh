#!/usr/bin/env bash
# Installs everything the build and the tests need, on a fresh machine, and
# skips what is already there at the right version. Safe to run again.
#
#   - Rust target wasm32-unknown-unknown
#   - wasm-bindgen-cli at exactly the version Cargo.lock pins for wasm-bindgen
#   - wasm-pack
#   - Debian chromium + chromium-driver (headless browser tests)
#   - Debian firefox-esr and geckodriver (cargo install --locked, pinned)
#   - Debian webkit2gtk-driver (WebKitWebDriver, MiniBrowser) and xvfb (an X
#     display for MiniBrowser)
#   - the JS tooling from package.json + package-lock.json (npm ci):
#     binaryen (wasm-opt), playwright-core, ...
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_PACK_VERSION=0.15.1
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

# npm ci only when the lock file changed since the last install.
stamp=node_modules/.setup-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  say "installing JS tooling (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi

say "ready: $(wasm-pack --version), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), $(node_modules/.bin/wasm-opt --version)"
say "browsers: $(chromium --version 2>/dev/null); $(firefox-esr --version 2>/dev/null); WebKitGTK (WebKitWebDriver, MiniBrowser) $(dpkg-query -W -f '${Version}' webkit2gtk-driver)"
say "drivers: $(chromedriver --version | awk '{print $1, $2}'); $(geckodriver --version | head -n 1); Xvfb $(dpkg-query -W -f '${Version}' xvfb)"
