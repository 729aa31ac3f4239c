//! The Rust API: [`client::UsersClient`], its request builders, its
//! options and its hooks. It
//! resolves each call with the rules and runs its attempts through the
//! target's transport; it is the only layer that sees all of them.

pub mod client;
#[cfg(all(test, target_os = "wasi"))]
mod deadline_tests;
pub mod hooks;
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub mod js_steps;
pub mod options;
pub mod request;
#[cfg(all(test, target_os = "wasi"))]
mod retry_tests;
mod trace;
