#!/usr/bin/env bash
# The Leptos app (examples/leptos), built both ways it runs, into
# target/leptos/ (or LEPTOS_TARGET_DIR): the server render natively
# (debug/render, feature `ssr`) and the page for wasm32 (pkg/, feature
# `csr`, wasm-pack's web target, dev profile). tests/leptos/ runs them.
#   scripts/leptos.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# A target dir of its own, as for examples/rust (scripts/rust-example.sh
# says why), which the two builds share: the macros Leptos and serde
# derive with are built once.
export CARGO_TARGET_DIR=${LEPTOS_TARGET_DIR:-$PWD/target/leptos}

# --locked: examples/leptos/Cargo.lock is committed and used as it is.
cargo build --locked -q --manifest-path examples/leptos/Cargo.toml --features ssr --bin render
wasm-pack --log-level warn build --dev --target web --no-pack --out-dir "$CARGO_TARGET_DIR/pkg" examples/leptos -- --locked --features csr
