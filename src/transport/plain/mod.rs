//! The request and the answer of the transports outside a JS host (`wasi`,
//! `native`): JSON through serde_json and URLs through the `url` crate (the
//! WHATWG URL standard, which is what `URL` is in a JS runtime), where a
//! JS host has its platform's.

pub mod answer;
pub mod request;
