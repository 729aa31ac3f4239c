//! `user-management-client`: a strict, small client for the User Management
//! API (`count_users`, `list_users`) for Rust programs compiled to `wasm32`
//! (Leptos, Yew, Dioxus, workers-rs). The npm package's JS API is a thin
//! layer over this crate, in its own crate (`js/`): an app that depends on
//! this one gets no JS exports in its `.wasm`.
//!
//! ```no_run
//! # async fn run() -> Result<(), user_management_client::Error> {
//! use std::time::Duration;
//! use user_management_client::{
//!     Active, CallOptions, ClientOptions, Count, CountParams, Envelope, UsersClient,
//! };
//!
//! let client = UsersClient::new(
//!     ClientOptions::new("https://api.example.com")
//!         .header("x-tenant", "acme")
//!         .timeout(Duration::from_secs(5))
//!         .retries(3),
//! )?;
//! let params = CountParams { active: Some(Active::True), ..Default::default() };
//! let count: Envelope<Count> = client.count_users(&params, &CallOptions::default()).await?;
//! assert_eq!(count.status, 200);
//! # Ok(()) }
//! ```
//!
//! The layers, each using only those below it:
//!
//! 1. The model ([`model`]: serde types) and the pure rules, which unit-test
//!    natively: [`value`], [`params`], [`options`], [`envelope`], [`retry`],
//!    [`http_date`], [`secrets`], and the one [`error`] type.
//! 2. The exchange: `wait` (timers and the caller's signal),
//!    `request` (what each attempt sends), `exchange` (one attempt, through
//!    `fetch`), `answer` (judging what came back), and [`interop`] (the JS
//!    values behind an error, for a JS binding).
//! 3. The client: [`UsersClient`], the call loop with retries, its options
//!    ([`ClientOptions`], [`CallOptions`]) and its observer [`Hooks`].
//!
//! Everything compiles on every target (server-side rendering builds link
//! the crate natively), but only the pure layer runs outside wasm32: there
//! [`UsersClient::new`] checks its options as usual and every call fails
//! with an [`ErrorKind::Network`] error saying that the client needs a JS
//! `fetch`.
//!
//! Nothing here may panic: a trap kills the wasm instance for every later
//! call, so `unwrap`, `expect`, `panic!` and indexing are denied outside
//! tests, and every JS exception becomes an [`Error`].

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

pub mod envelope;
pub mod error;
pub mod http_date;
pub mod interop;
pub mod model;
pub mod options;
pub mod params;
pub mod retry;
pub mod secrets;
pub mod value;

/// The transports the client loop sends through; for now only the WASI one
/// (`wasm32-wasip2`), which the component in `component/` drives.
#[cfg(all(target_arch = "wasm32", target_os = "wasi"))]
#[doc(hidden)]
pub mod transport;

mod answer;
mod client;
mod client_options;
mod exchange;
mod hooks;
mod request;
mod wait;

pub use client::UsersClient;
pub use client_options::{
    CallOptions, ClientOptions, HeaderList, HeaderProvider, HeadersFuture, ProvidedHeaders,
};
pub use error::{Cause, Error, ErrorKind};
pub use hooks::{AttemptInfo, Hook, Hooks, ResponseInfo, RetryInfo};
pub use interop::Rejection;
pub use model::{
    Active, Count, CountParams, Credentials, Envelope, ListParams, Operation, ParamsIn,
};
