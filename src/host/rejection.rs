//! Outside a JS host, a rejection is an [`Error`] alone: there is no JS
//! value behind one.

use crate::error::Error;
use crate::rules::secrets::redacted;

/// An [`Error`] as the call's driver carries it.
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
