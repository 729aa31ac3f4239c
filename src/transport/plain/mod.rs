//! The request and the answer of the transports outside a JS host (`wasi`,
//! `native`): JSON through serde_json and URLs through the `url` crate (the
//! WHATWG URL standard, which is what `URL` is in a JS runtime), where a
//! JS host has its platform's. Each of those transports is an
//! [`http::Http`], which makes it the call loop's `Transport`.

pub mod answer;
pub(crate) mod http;
pub mod request;

use crate::error::Error;
use crate::rules::secrets::redacted;

/// An [`Error`] as the call loop carries it (outside a JS host there is no
/// JS value behind one).
#[derive(Clone, Debug)]
pub struct Rejection {
    /// The error.
    pub error: Error,
}

impl Rejection {
    /// The same rejection with every `secret` cut out of the error.
    pub(crate) fn redact(self, secrets: &[String]) -> Rejection {
        if secrets.is_empty() {
            return self;
        }
        Rejection {
            error: self.error.cut(|text| redacted(text, secrets)),
        }
    }
}

impl From<Error> for Rejection {
    fn from(error: Error) -> Rejection {
        Rejection { error }
    }
}
