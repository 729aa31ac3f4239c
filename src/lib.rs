//! `user-management-client`: a strict, small client for the User Management
//! API (`countUsers`, `listUsers`), for JavaScript through WebAssembly and
//! for Rust programs compiled to `wasm32`.
//!
//! ```no_run
//! # async fn run() -> Result<(), user_management_client::Error> {
//! use user_management_client::{
//!     Active, CallOptions, ClientOptions, Count, CountParams, Envelope, UsersClient,
//! };
//!
//! let client = UsersClient::new(ClientOptions::new("https://api.example.com"))?;
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
//!    `request` (what each attempt sends), `exchange` (one attempt over
//!    gloo-net), `answer` (judging what came back).
//! 3. The client: [`UsersClient`], the call loop with retries, and its
//!    observer [`Hooks`].
//! 4. The JS exports: [`js`].
//!
//! Everything compiles on every target (so the docs and the pure tests
//! build natively), but only the pure layer runs outside wasm32: the rest
//! calls JavaScript.
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
pub mod model;
pub mod options;
pub mod params;
pub mod retry;
pub mod secrets;
pub mod value;

mod answer;
mod client;
mod exchange;
mod hooks;
pub mod js;
mod request;
mod wait;

pub use client::{
    CallOptions, ClientOptions, HeaderList, HeaderProvider, HeadersFuture, UsersClient,
};
pub use error::{Error, ErrorKind};
pub use hooks::{AttemptInfo, Hook, Hooks, ResponseInfo, RetryInfo};
pub use model::{
    Active, Count, CountParams, Credentials, Envelope, ListParams, Operation, ParamsIn,
};
