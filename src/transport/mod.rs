//! How a call's attempts reach the server. A transport sends what the rules
//! resolved and hands back what came back; it decides nothing the rules
//! decide (which headers, whether an answer is good, whether to try again).
//!
//! [`Transport`] is the seam: the few things the call's driver in
//! `api/client.rs` needs, with one implementation per target, each in its
//! own folder. [`Target`] names the one this build uses; the loop is written
//! once against it.
//!
//! [`fetch`] is the transport through the JS host's `fetch`: the only
//! transport with JS types (`host/` has a JS host's rejection and signal,
//! `api/` its JS-facing options). [`wasi`] is
//! its sibling for `wasm32-wasip2` (the WebAssembly component in
//! `component/`), through `wasi:http` and `wasi:clocks`; [`native`] the one
//! for every target that is not wasm32, through reqwest on tokio. Those two
//! share [`plain`]'s request and answer (serde_json, `url`). All three use
//! the same rules.
//!
//! The seam itself is [`seam`]; this file only names the transports and the
//! one this build uses.

#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub(crate) mod fetch;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod native;
#[cfg(any(not(target_arch = "wasm32"), target_os = "wasi"))]
pub(crate) mod plain;
pub(crate) mod seam;
#[cfg(all(target_arch = "wasm32", target_os = "wasi"))]
pub mod wasi;

pub(crate) use seam::{Arrived, Transport};

/// The transport of this build: `wasi:http` on wasm32-wasip2.
#[cfg(all(target_arch = "wasm32", target_os = "wasi"))]
pub(crate) type Target = wasi::Wasi;
/// The transport of this build: the JS host's `fetch` on wasm32.
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub(crate) type Target = fetch::Fetch;
/// The transport of this build: reqwest on tokio outside wasm32.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) type Target = native::Native;
