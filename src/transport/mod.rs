//! How a request leaves the client, per platform. For `wasm32-wasip2` (the
//! WebAssembly component in `component/`): [`wasi`], through `wasi:http`
//! and `wasi:clocks`.

#[cfg(all(target_arch = "wasm32", target_os = "wasi"))]
pub mod wasi;
