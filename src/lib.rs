#![doc = include_str!("../README.crate.md")]
//!
//! Everything compiles and runs on every target. Natively the calls go
//! through reqwest on tokio and must run inside a tokio runtime: outside
//! one a call fails at once with an [`ErrorKind::Validation`] error naming
//! `runtime` and saying so.
//! Natively [`UsersClient`] is `Send + Sync` and its futures are `Send`
//! (`tokio::spawn`, axum handlers; hooks and header providers are then
//! `Send + Sync` closures), and no JS binding crate is in the dependency
//! tree. The JS-facing options (`fetch`, `signal`, `credentials`) exist in
//! a JS host build (wasm32-unknown-unknown) only; neither the native nor the
//! wasm32-wasip2 dependency tree has a JS binding crate.

// Layout
//
// The folders are the layers; each uses only those below it (the book's
// "Layout" page, `docs/src/layout.md`, says the same):
//
// ```text
// src/
// ├── lib.rs       the public API: re-exports only
// ├── binding.rs   the JS layer's, the component's and the fuzz targets' door (re-exported as the hidden `__private`); nothing in the crate uses it
// ├── api/         UsersClient and the driver of its calls, its request builders (request.rs), ClientOptions, CallOptions, Hooks (hooks/): may use transport, call, host, rules and the root files
// ├── transport/   how attempts reach the server: may use host, call (the Outcome its settle gives), rules and the root files
// │   ├── mod.rs   the transports, and Target, this build's
// │   ├── seam.rs  the Transport trait the driver is written against
// │   ├── fetch/   through the JS host's fetch (JS types: here, in host/'s JS rejection and signal, and api's JS-facing options)
// │   ├── wasi/    through wasi:http and wasi:clocks, on wasm32-wasip2 only (the component in component/)
// │   ├── native/  through reqwest (rustls) on tokio, on every target that is not wasm32
// │   └── plain/   the request and answer of wasi/ and native/ (serde_json, url)
// ├── call/        the call machine: a call as a synchronous state machine that decides and never waits; may use rules and the root files
// ├── host/        what transport and api both use: Send bounds, header provider, rejection, signal
// ├── rules/       pure, JS-free, native-tested: may use only the root files below
// ├── model.rs     the serde data types
// ├── error.rs     the one error type
// ├── wire.rs      the enums' wire names by match, tested against their serde attributes
// └── platform.rs  the host's number writer (JavaScript's, in a JS host)
// ```
//
// Each transport asks the same rules what to send and how to judge the
// answer; the call machine decides every step of a call, and
// `UsersClient`'s one driver of it is written once against the transport
// seam, and one `cfg`-selected alias names the target's transport.
//
// Nothing here may panic: a trap kills the wasm instance for every later
// call, so `unwrap`, `expect`, `panic!` and indexing are denied outside
// tests, and every JS exception becomes an `Error`.

#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented
    )
)]

// WASI is served through `wasi:http`, which only WASI 0.2 has: on any other
// WASI (wasm32-wasip1) the crate stops here rather than with errors about
// missing bindings.
#[cfg(all(target_os = "wasi", not(target_env = "p2")))]
compile_error!(
    "user-management-client on WASI needs wasm32-wasip2 (it calls the API through wasi:http, \
     which wasm32-wasip1 does not have): build with --target wasm32-wasip2"
);

mod api;
mod call;
mod error;
mod host;
mod model;
mod platform;
mod rules;
mod transport;
mod wire;

mod binding;

/// What the crate's JS layer (`user-management-client-js`), its component
/// and its fuzz targets use beyond the Rust API (`src/binding.rs`). Hidden,
/// and no part of the public API or of its semver promises: it may change
/// in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::binding::*;
}

/// The Rust samples of the README and the book, compiled (and, where they
/// need no server, run) by `cargo test --doc`: a sample that stops
/// compiling fails the tests. The packaged crate ships these pages
/// (Cargo.toml's `include`), so its `cargo test` compiles them too.
#[cfg(doctest)]
mod samples {
    #[doc = include_str!("../README.md")]
    mod readme {}
    #[doc = include_str!("../docs/src/rust.md")]
    mod rust_page {}
    #[doc = include_str!("../docs/src/recipes.md")]
    mod recipes {}
    #[doc = include_str!("../docs/src/errors.md")]
    mod errors {}
    #[doc = include_str!("../docs/src/retries.md")]
    mod retries {}
    #[doc = include_str!("../docs/src/hooks.md")]
    mod hooks {}
    #[doc = include_str!("../docs/src/troubleshooting.md")]
    mod troubleshooting {}
    #[doc = include_str!("../docs/src/component.md")]
    mod component {}
}

/// The reqwest this crate calls through natively: the one whose `Client`
/// [`ClientOptions::http_client`] takes and whose `Error` a transport
/// failure's `source()` is. An app that builds its own client with this
/// path needs no reqwest dependency of its own in step with the crate's.
#[cfg(not(target_arch = "wasm32"))]
#[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
pub use reqwest;

pub use api::client::UsersClient;
pub use api::hooks::{
    AttemptHeaders, AttemptInfo, Decided, Deferred, Hook, HookFuture, HookOutput, HookReturn,
    Hooks, ResponseAction, ResponseInfo, RetryInfo,
};
pub use api::options::{CallOptions, ClientOptions};
pub use api::request::{CountUsers, ListUsers, Pages};
pub use error::{Cause, Error, ErrorKind};
pub use host::provider::{HeaderList, HeaderProvider, ProvidedHeaders};
pub use host::{MaybeSend, MaybeSendSync};
pub use model::{
    Active, Count, CountParams, Credentials, Envelope, ListParams, Operation, ParamsIn, User,
    UserPage,
};
pub use rules::retry::RetryPolicy;
