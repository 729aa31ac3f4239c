//! The request and the answer of the transports outside a JS host (`wasi`,
//! `native`): JSON through serde_json and URLs through the `url` crate (the
//! WHATWG URL standard, which is what `URL` is in a JS runtime), where a
//! JS host has its platform's. Each of those transports is an
//! [`http::Http`], which makes it the call driver's `Transport`.

pub mod answer;
pub(crate) mod http;
pub mod request;
