//! The one error type of the crate, and its conversion into the JS
//! `UsersApiError` class.
//!
//! Every failure a caller can see is an [`Error`]: the pure modules build the
//! `validation` and `decode` ones, the transport builds the rest. Turning it
//! into JS (`JsValue::from(error)`) goes through the class defined in
//! `js/snippet.js`, so `instanceof UsersApiError` and `instanceof Error` hold.
//! JS exceptions come the other way through [`Error::with_cause`].

use crate::prelude::*;
use wasm_bindgen::JsValue;

use crate::text::Text;

/// What went wrong, as the `kind` property of a `UsersApiError`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A parameter or option was rejected before anything was sent.
    Validation,
    /// `fetch` itself failed (refused, reset, DNS, CORS).
    Network,
    /// No answer within `timeoutMs`.
    Timeout,
    /// The caller's `AbortSignal` aborted.
    Aborted,
    /// The server answered with a status outside 2xx.
    Http,
    /// The body was not JSON, not an envelope, or not the expected shape.
    Decode,
    /// A well-formed envelope whose `status` is not 200.
    Api,
}

impl Kind {
    /// The `kind` string JavaScript sees.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Validation => "validation",
            Kind::Network => "network",
            Kind::Timeout => "timeout",
            Kind::Aborted => "aborted",
            Kind::Http => "http",
            Kind::Decode => "decode",
            Kind::Api => "api",
        }
    }
}

/// A failed call, before it becomes a JS `UsersApiError`.
#[derive(Debug)]
pub struct Error {
    /// The error kind.
    pub kind: Kind,
    /// A human-readable message; it never contains a credential.
    pub message: String,
    /// For validation errors: the parameter or option at fault.
    pub param: Option<String>,
    /// The envelope's `status`, where a body carried one.
    pub status: Option<f64>,
    /// The HTTP status, where a response arrived.
    pub http_status: Option<u16>,
    /// The parsed body, or its (cut) text, where a response arrived.
    pub body: Option<JsValue>,
    /// The underlying JS error, where there was one.
    pub cause: Option<JsValue>,
}

impl Error {
    /// An error of `kind` with `message` and nothing else.
    pub fn new(kind: Kind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            param: None,
            status: None,
            http_status: None,
            body: None,
            cause: None,
        }
    }

    /// A validation error about `param`.
    pub fn validation(param: &str, message: impl Into<String>) -> Error {
        Error {
            param: Some(param.into()),
            ..Error::new(Kind::Validation, message)
        }
    }

    /// The same error, carrying the JS exception that caused it.
    pub fn with_cause(mut self, cause: JsValue) -> Error {
        self.cause = Some(cause);
        self
    }

    /// A message naming a value and the allowed ones, e.g.
    /// `active must be "all", "true", "false" or a boolean; got "yes"`.
    pub fn invalid(param: &str, expected: &str, got: &str) -> Error {
        let message = Text::new()
            .push(param)
            .push(" must be ")
            .push(expected)
            .push("; got ")
            .push(got)
            .done();
        Error::validation(param, message)
    }
}

#[cfg(target_arch = "wasm32")]
impl Error {
    /// The JS `UsersApiError`, with `secrets` (the call's credentials) cut
    /// out of its message, body and cause by the snippet.
    pub fn into_js(self, secrets: &[String]) -> JsValue {
        let undefined = JsValue::UNDEFINED;
        crate::js::new_users_api_error(
            self.kind.as_str(),
            &self.message,
            &self.param.map(JsValue::from).unwrap_or(JsValue::UNDEFINED),
            &self.status.map(JsValue::from).unwrap_or(JsValue::UNDEFINED),
            &self
                .http_status
                .map(JsValue::from)
                .unwrap_or(JsValue::UNDEFINED),
            self.body.as_ref().unwrap_or(&undefined),
            self.cause.as_ref().unwrap_or(&undefined),
            &secrets.join("\n"),
        )
    }
}

#[cfg(target_arch = "wasm32")]
impl From<Error> for JsValue {
    fn from(error: Error) -> JsValue {
        error.into_js(&[])
    }
}
