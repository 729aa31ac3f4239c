#!/usr/bin/env bash
# The Rust API example (examples/rust): builds it with wasm-pack (nodejs
# target, dev profile) and runs examples/rust/run.mjs, which checks its
# numbers against raw fetches to the reference server. Uses USERS_API_URL
# if set, else starts a server through scripts/with-server.sh.
#   scripts/rust-example.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# A target dir of its own, inside the root one (git-ignored, `cargo clean`
# removes it). Not the root's itself: the library is a path crate with a
# cdylib, so Cargo names its rlib without a hash (deps/libuser_management_client.rlib),
# and the example's build of it (other dependency features, so other
# serde/js-sys builds) would overwrite the root's, which Cargo then takes
# as fresh: the next `wasm-pack test` fails with "multiple different
# versions of crate serde_core".
export CARGO_TARGET_DIR=${RUST_EXAMPLE_TARGET_DIR:-$PWD/target/rust-example}
pkg=$CARGO_TARGET_DIR/pkg

# --locked: examples/rust/Cargo.lock is committed and used as it is.
wasm-pack --log-level warn build --dev --target nodejs --no-pack --out-dir "$pkg" examples/rust -- --locked

export RUST_EXAMPLE_PKG=$pkg
if [ -n "${USERS_API_URL:-}" ]; then
  node examples/rust/run.mjs
else
  scripts/with-server.sh -- node examples/rust/run.mjs
fi
