//! How a call's attempts reach the server. A transport sends what the rules
//! resolved and hands back what came back; it decides nothing the rules
//! decide (which headers, whether an answer is good, whether to try again).
//!
//! [`fetch`] is the transport through the JS host's `fetch`: the only place,
//! with the client's JS-facing options, where JS types appear. [`wasi`] is
//! its sibling for `wasm32-wasip2` (the WebAssembly component in
//! `component/`), through `wasi:http` and `wasi:clocks`, using the same rules.

// On wasm32-wasip2 the client uses only fetch's `Rejection` and
// `is_aborted` (a signal is a JS host's); `binding` still names the rest.
#[cfg_attr(all(target_arch = "wasm32", target_os = "wasi"), allow(dead_code))]
pub(crate) mod fetch;
#[cfg(all(target_arch = "wasm32", target_os = "wasi"))]
pub mod wasi;
