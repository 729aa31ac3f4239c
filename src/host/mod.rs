//! What the transports and the Rust API both use, as each kind of host has
//! it: the `Send` bounds (natively a client and its closures move between
//! threads; wasm32 has one), a rejection (an error, and in a JS host the JS
//! value behind it), header lists and the header provider, and the caller's
//! signal. Below both layers, so that neither imports the other's files to
//! get them; it uses only the rules and the root files.

#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
mod js_rejection;
pub mod provider;
#[cfg(not(all(target_arch = "wasm32", not(target_os = "wasi"))))]
mod rejection;

#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub use js_rejection::{failure_detail, Rejection};
#[cfg(not(all(target_arch = "wasm32", not(target_os = "wasi"))))]
pub use rejection::Rejection;

/// The caller's signal: aborting it ends a call at once (a JS host's
/// `AbortSignal`).
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub type Signal = web_sys::AbortSignal;
/// The caller's signal: none outside a JS host (drop the call's future).
#[cfg(not(all(target_arch = "wasm32", not(target_os = "wasi"))))]
#[derive(Debug)]
pub enum Signal {}

/// `Send + Sync` natively, where a client and its closures may move between
/// threads (`tokio::spawn`); nothing on wasm32, which has one thread.
#[cfg(not(target_arch = "wasm32"))]
pub trait MaybeSendSync: Send + Sync {}
#[cfg(not(target_arch = "wasm32"))]
impl<T: Send + Sync + ?Sized> MaybeSendSync for T {}
/// `Send + Sync` natively, where a client and its closures may move between
/// threads (`tokio::spawn`); nothing on wasm32, which has one thread.
#[cfg(target_arch = "wasm32")]
pub trait MaybeSendSync {}
#[cfg(target_arch = "wasm32")]
impl<T: ?Sized> MaybeSendSync for T {}

/// `Send` natively (a header provider's future); nothing on wasm32.
#[cfg(not(target_arch = "wasm32"))]
pub trait MaybeSend: Send {}
#[cfg(not(target_arch = "wasm32"))]
impl<T: Send + ?Sized> MaybeSend for T {}
/// `Send` natively (a header provider's future); nothing on wasm32.
#[cfg(target_arch = "wasm32")]
pub trait MaybeSend {}
#[cfg(target_arch = "wasm32")]
impl<T: ?Sized> MaybeSend for T {}

/// A boxed future of the call driver's (a page's call in a walk): natively
/// `Send`.
#[cfg(not(target_arch = "wasm32"))]
pub type Boxed<T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send>>;
/// A boxed future of the call driver's (a page's call in a walk).
#[cfg(target_arch = "wasm32")]
pub type Boxed<T> = std::pin::Pin<Box<dyn std::future::Future<Output = T>>>;
