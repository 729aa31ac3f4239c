//! The one error type of the crate: [`Error`], with its [`ErrorKind`].
//!
//! The pure rules build the `validation` and `decode` errors, the exchange
//! builds the rest. An `Error` becomes the JS `UsersApiError` (the
//! class in `js/snippet.js`, so `instanceof UsersApiError` and
//! `instanceof Error` hold) with `JsValue::from`, and a JS exception comes
//! the other way as an error's `cause`.

use std::fmt;

use wasm_bindgen::JsValue;

/// What went wrong: the `kind` of a `UsersApiError`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A parameter or option was rejected before anything was sent.
    Validation,
    /// `fetch` itself failed (refused, reset, DNS, CORS).
    Network,
    /// No answer within the attempt's timeout.
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

impl ErrorKind {
    /// The `kind` string JavaScript sees.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Validation => "validation",
            ErrorKind::Network => "network",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Aborted => "aborted",
            ErrorKind::Http => "http",
            ErrorKind::Decode => "decode",
            ErrorKind::Api => "api",
        }
    }
}

/// A failed call. Its message never holds a credential.
#[derive(Debug, Clone)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    param: Option<String>,
    status: Option<f64>,
    http_status: Option<u16>,
    body_text: Option<String>,
    /// The body as JS sees it (the parsed value, or the cut text).
    pub(crate) body: Option<JsValue>,
    /// The underlying JS error, where there was one.
    pub(crate) cause: Option<JsValue>,
}

impl Error {
    /// An error of `kind` with `message` and nothing else.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            param: None,
            status: None,
            http_status: None,
            body_text: None,
            body: None,
            cause: None,
        }
    }

    /// A `validation` error about `param`.
    pub fn validation(param: &str, message: impl Into<String>) -> Error {
        Error {
            param: Some(param.into()),
            ..Error::new(ErrorKind::Validation, message)
        }
    }

    /// A `validation` error naming the value and the allowed ones, e.g.
    /// `active must be "all", "true", "false" or a boolean; got "yes"`.
    pub fn invalid(param: &str, expected: &str, got: &str) -> Error {
        Error::validation(param, format!("{param} must be {expected}; got {got}"))
    }

    /// The same error with the envelope's `status`.
    pub fn with_status(mut self, status: Option<f64>) -> Error {
        self.status = status;
        self
    }

    /// The same error with the HTTP status and the body: its text (for
    /// [`Error::body`]) and, on wasm32, the JS value a `UsersApiError` carries.
    pub fn with_response(mut self, http_status: u16, text: String, body: Option<JsValue>) -> Error {
        self.http_status = Some(http_status);
        self.body_text = Some(text);
        self.body = body;
        self
    }

    /// The same error, carrying the JS exception that caused it.
    pub fn with_cause(mut self, cause: JsValue) -> Error {
        self.cause = Some(cause);
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message (also what `Display` writes).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// For `validation`: the param or option at fault (`"active"`, `"headers"`,
    /// `"baseUrl"`, an unknown key itself, ...).
    pub fn param(&self) -> Option<&str> {
        self.param.as_deref()
    }

    /// The envelope's `status`, where a body carried one.
    pub fn status(&self) -> Option<f64> {
        self.status
    }

    /// The HTTP status, where a response arrived.
    pub fn http_status(&self) -> Option<u16> {
        self.http_status
    }

    /// The body's text (cut at 65,536 UTF-16 units), where a response arrived.
    pub fn body(&self) -> Option<&str> {
        self.body_text.as_deref()
    }

    /// The same error with every `secret` cut out of its message, body and
    /// cause (a server can echo a token back, a custom `fetch` can throw an
    /// error quoting it; see `secrets.rs`).
    pub(crate) fn redact(self, secrets: &[String]) -> Error {
        if secrets.is_empty() {
            return self;
        }
        let mut error = self.redact_text(secrets);
        error.body = error.body.map(|body| to_js::redact_value(body, secrets));
        error.cause = error.cause.map(|cause| to_js::redact_cause(cause, secrets));
        error
    }

    fn redact_text(mut self, secrets: &[String]) -> Error {
        self.message = crate::secrets::redact(&self.message, secrets);
        if let Some(text) = &self.body_text {
            self.body_text = Some(crate::secrets::redact(text, secrets));
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

mod to_js {
    use js_sys::JSON;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    use super::Error;
    use crate::secrets::redact;

    #[wasm_bindgen(module = "/js/snippet.js")]
    extern "C" {
        /// `new UsersApiError(...)`: the only JS the client needs written by
        /// hand, because a class that `extends Error` cannot be made from Rust.
        #[wasm_bindgen(js_name = UsersApiError)]
        type UsersApiError;
        #[wasm_bindgen(constructor, js_class = UsersApiError)]
        fn new(
            kind: &str,
            message: &str,
            param: Option<String>,
            status: Option<f64>,
            http_status: Option<u16>,
            body: &JsValue,
            cause: &JsValue,
        ) -> UsersApiError;
    }

    /// The JS `UsersApiError` (errors are redacted before they get here).
    impl From<Error> for JsValue {
        fn from(error: Error) -> JsValue {
            let undefined = JsValue::UNDEFINED;
            UsersApiError::new(
                error.kind.as_str(),
                &error.message,
                error.param,
                error.status,
                error.http_status,
                error.body.as_ref().unwrap_or(&undefined),
                error.cause.as_ref().unwrap_or(&undefined),
            )
            .into()
        }
    }

    /// A body with the secrets cut out: a string directly, a parsed value
    /// through its JSON text (parsed again only if anything was cut).
    pub(super) fn redact_value(body: JsValue, secrets: &[String]) -> JsValue {
        if secrets.is_empty() {
            return body;
        }
        if let Some(text) = body.as_string() {
            return redact(&text, secrets).into();
        }
        let Some(json) = JSON::stringify(&body).ok().and_then(|s| s.as_string()) else {
            return body;
        };
        let clean = redact(&json, secrets);
        if clean == json {
            return body;
        }
        JSON::parse(&clean).unwrap_or_else(|_| clean.into())
    }

    /// A cause that quotes a secret anywhere we can see (its message, its
    /// stack, its own properties as JSON, its `cause` chain) becomes a fresh
    /// `Error` with the cleaned message (its stack then quotes only that).
    pub(super) fn redact_cause(cause: JsValue, secrets: &[String]) -> JsValue {
        let mut seen = String::new();
        let mut link = cause.clone();
        // The chain, a few links deep (a cycle stops there too).
        for _ in 0..4 {
            seen.push_str(&describe(&link));
            match js_sys::Reflect::get(&link, &"cause".into()) {
                Ok(next) if next.is_object() || next.is_string() => link = next,
                _ => break,
            }
        }
        if redact(&seen, secrets) == seen {
            return cause;
        }
        let shown = match cause.dyn_ref::<js_sys::Error>() {
            Some(error) => read(error, "message"),
            None => cause.as_string().unwrap_or_default(),
        };
        js_sys::Error::new(&redact(&shown, secrets)).into()
    }

    /// All the text of a value that might quote a secret.
    fn describe(value: &JsValue) -> String {
        if let Some(text) = value.as_string() {
            return text;
        }
        let json = JSON::stringify(value)
            .ok()
            .and_then(|s| s.as_string())
            .unwrap_or_default();
        [read(value, "message"), read(value, "stack"), json].join("\n")
    }

    /// A string property, read without letting a throwing getter through.
    fn read(value: &JsValue, key: &str) -> String {
        js_sys::Reflect::get(value, &key.into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_names_param_expected_and_got() {
        let err = Error::invalid("active", "a boolean", "\"yes\"");
        assert_eq!(err.kind(), ErrorKind::Validation);
        assert_eq!(err.param(), Some("active"));
        assert_eq!(err.to_string(), "active must be a boolean; got \"yes\"");
    }

    #[test]
    fn redaction_cuts_message_and_body() {
        let err = Error::new(ErrorKind::Http, "echo s3cret")
            .with_response(500, "token s3cret".into(), None)
            .redact(&["s3cret".into()]);
        assert_eq!(err.message(), "echo [REDACTED]");
        assert_eq!(err.body(), Some("token [REDACTED]"));
        assert_eq!(err.http_status(), Some(500));
    }
}
