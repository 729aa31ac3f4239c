//! The transport through the JS host's `fetch`, from the bottom up:
//!
//! - [`js_value`]: a JS value read as the rules' `Value`.
//! - [`rejection`]: an error with the JS value behind it, and the words that
//!   describe a JS failure. Uses only the error, the secrets rule and the
//!   values.
//! - [`wait`]: timers and the caller's `AbortSignal`.
//! - [`request`]: what each attempt sends, as `fetch` takes it.
//! - [`exchange`]: one attempt through `fetch`.
//! - [`answer`]: the answer read for the envelope rules.

pub mod answer;
pub mod exchange;
pub mod js_value;
pub mod rejection;
pub mod request;
pub mod wait;
