//! The one error type of the crate: [`Error`], with its [`ErrorKind`].
//!
//! The pure rules build the `validation` and `decode` errors, the transport
//! builds the rest. An `Error` holds Rust data only (so it is `Send + Sync`
//! and goes into `anyhow::Error` or `Box<dyn Error + Send + Sync>`): what JS
//! threw behind it is described by its [`source`](std::error::Error::source),
//! a [`Cause`]. The JS value itself travels beside it inside the fetch
//! transport, for the JS layer's `UsersApiError`.

use std::fmt;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Arc;

use serde::{Deserialize, Serialize, Serializer};

use crate::wire::Wire;

/// What went wrong: the `kind` of a `UsersApiError`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase", variant_identifier)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A parameter or option was rejected before anything was sent.
    Validation,
    /// The request failed on its way (refused, reset, DNS, CORS): `fetch`
    /// rejected, reqwest or `wasi:http` failed. (A host without `fetch`, a
    /// runtime without what a call needs, is a setup error: `Validation`.)
    Network,
    /// No answer within the attempt's timeout; or, in a JS host, the
    /// caller's `AbortSignal` aborted with a `TimeoutError` (the caller's
    /// deadline, `AbortSignal.timeout`), which ends the call unretried.
    Timeout,
    /// The caller's `AbortSignal` aborted for any other reason.
    Aborted,
    /// The server answered with a status outside 2xx.
    Http,
    /// The body was not JSON, not an envelope, or not the expected shape.
    Decode,
    /// A well-formed envelope whose `status` is not 200.
    Api,
}

impl ErrorKind {
    /// The `kind` string JavaScript sees (also what `Display` writes).
    pub fn as_str(self) -> &'static str {
        self.name()
    }
}

impl Wire for ErrorKind {
    const ALL: &'static [ErrorKind] = &[
        ErrorKind::Validation,
        ErrorKind::Network,
        ErrorKind::Timeout,
        ErrorKind::Aborted,
        ErrorKind::Http,
        ErrorKind::Decode,
        ErrorKind::Api,
    ];
    const NAMES: &'static [&'static str] = &[
        "validation",
        "network",
        "timeout",
        "aborted",
        "http",
        "decode",
        "api",
    ];

    fn name(self) -> &'static str {
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

/// As its `kind` string, which is also what it deserializes from.
impl Serialize for ErrorKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What JavaScript threw or rejected with behind an [`Error`], described
/// in text (`TypeError: fetch failed (ECONNREFUSED)`): the error's
/// [`source`](std::error::Error::source).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cause(String);

impl Cause {
    /// A cause described by `text`.
    pub(crate) fn new(text: impl Into<String>) -> Cause {
        Cause(text.into())
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Cause {}

/// What an [`Error`]'s [`source`](std::error::Error::source) is: a
/// description in text (what JavaScript threw), or an error of its own
/// (natively the transport's `reqwest::Error`; an app's, from a header
/// provider or [`Error::with_source`]), which a caller can downcast. A
/// wasm32 build keeps an app's error as its text: there, the code of an
/// error of its own (its chain's text, its drop) would weigh on the npm
/// package's `.wasm` and the component (`docs/src/size.md` has the
/// figures) for what neither a JS caller nor a component's host can make.
/// (A text is kept as one, not as a `dyn Error`, so that a wasm32 build
/// carries no `Debug` of it.)
#[derive(Clone, Debug)]
enum Source {
    Text(Cause),
    #[cfg(not(target_arch = "wasm32"))]
    Error(Arc<dyn std::error::Error + Send + Sync>),
}

/// Everything `error` says, its own sources included, as anyhow's `{:#}`
/// writes it.
fn chain_text(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut next = error.source();
    while let Some(cause) = next {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        next = cause.source();
    }
    text
}

impl Source {
    fn as_error(&self) -> &(dyn std::error::Error + 'static) {
        match self {
            Source::Text(cause) => cause,
            #[cfg(not(target_arch = "wasm32"))]
            Source::Error(error) => &**error,
        }
    }

    /// The text of a source that is one (an error of its own is not).
    fn text_mut(&mut self) -> Option<&mut String> {
        match self {
            Source::Text(cause) => Some(&mut cause.0),
            #[cfg(not(target_arch = "wasm32"))]
            Source::Error(_) => None,
        }
    }

    /// Everything the source says, its own sources included, as anyhow's
    /// `{:#}` writes it. (A text is read as it is: through `dyn Error` it
    /// would bring `Debug` into the `.wasm`.)
    fn text(&self) -> String {
        match self {
            Source::Text(cause) => cause.0.clone(),
            #[cfg(not(target_arch = "wasm32"))]
            Source::Error(error) => chain_text(&**error),
        }
    }
}

/// A failed call. Its message never holds a credential.
///
/// Its accessors are named as reqwest names them where they mean the
/// same: [`Error::http_status`] is the HTTP status, and the envelope's own
/// `status` is [`Error::api_status`]. There is no `status()`: in reqwest
/// `status()` is the HTTP status, and an error with two statuses names
/// each, so that `error.http_status() == Some(401)` says which one it
/// compares.
///
/// ```
/// use user_management_client::{ClientOptions, Error, ErrorKind, UsersClient};
///
/// fn assert_send_sync<T: Send + Sync + 'static>() {}
/// assert_send_sync::<Error>();
///
/// fn check() -> Result<UsersClient, Box<dyn std::error::Error + Send + Sync>> {
///     Ok(UsersClient::new(ClientOptions::new("ftp://example.com"))?)
/// }
/// let error = check().unwrap_err().downcast::<Error>().unwrap();
/// assert_eq!(error.kind(), ErrorKind::Validation);
/// assert_eq!(error.param(), Some("base_url"));
/// assert!(!error.is_retryable());
/// assert_eq!(ErrorKind::Validation.to_string(), "validation");
/// ```
#[derive(Debug, Clone)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    param: Option<String>,
    status: Option<i64>,
    http_status: Option<u16>,
    // Boxed, rare: keeps `Result<_, Error>` small.
    body: Option<Box<Body>>,
    /// What went wrong below: a [`Cause`] (what JavaScript threw, a
    /// platform's words), the transport's own error (natively a
    /// `reqwest::Error`), or an app's (a header provider's `Err`).
    source: Option<Box<Source>>,
    /// Whether the transport could tell that no connection was made
    /// (refused, DNS, unreachable, a connect timeout); `fetch` cannot, so a
    /// JS host build has no such field.
    #[cfg(not(all(target_arch = "wasm32", not(target_os = "wasi"))))]
    connect: bool,
    /// A failure no attempt is made again for whatever its kind (a setup
    /// error, a body over its limit), which the transports and the JS
    /// layer's `isRetryable` read.
    never_retried: bool,
}

/// Errors are equal when everything they say is: their sources compare by
/// what they say.
impl PartialEq for Error {
    fn eq(&self, other: &Error) -> bool {
        self.kind == other.kind
            && self.message == other.message
            && self.param == other.param
            && self.status == other.status
            && self.http_status == other.http_status
            && self.body == other.body
            && self.source.as_ref().map(|s| s.text()) == other.source.as_ref().map(|s| s.text())
    }
}

/// A response body as an error keeps it.
#[derive(Debug, Clone, PartialEq)]
struct Body {
    text: String,
    /// Whether `text` is the whole body and parses as JSON.
    json: bool,
}

impl Error {
    /// An error of `kind` with `message` and nothing else. With the
    /// `with_*` setters, an error of any kind with any statuses, body and
    /// source, as a call fails: a test double of a call, or the error an
    /// app's header provider fails with.
    ///
    /// ```
    /// use user_management_client::{Error, ErrorKind};
    ///
    /// // What the app does with a failed call: sign in again after a 401.
    /// fn must_sign_in(error: &Error) -> bool {
    ///     error.kind() == ErrorKind::Http && error.http_status() == Some(401)
    /// }
    ///
    /// let expired = Error::new(ErrorKind::Http, "the server answered 401 Unauthorized")
    ///     .with_http_status(401)
    ///     .with_body(r#"{"status":401,"result":null}"#)
    ///     .with_api_status(401);
    /// assert!(must_sign_in(&expired));
    /// assert!(!expired.is_retryable());
    /// assert_eq!(expired.body(), Some(r#"{"status":401,"result":null}"#));
    ///
    /// let io = std::io::Error::other("the token store is locked");
    /// let failed = Error::new(ErrorKind::Validation, "no token").with_param("headers").with_source(io);
    /// let source = std::error::Error::source(&failed).unwrap();
    /// assert!(source.downcast_ref::<std::io::Error>().is_some());
    /// ```
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            param: None,
            status: None,
            http_status: None,
            body: None,
            source: None,
            #[cfg(not(all(target_arch = "wasm32", not(target_os = "wasi"))))]
            connect: false,
            never_retried: false,
        }
    }

    /// The same error, marked as one no attempt is made again for,
    /// whatever its kind.
    pub(crate) fn never_retried(mut self) -> Error {
        self.never_retried = true;
        self
    }

    /// Whether no attempt is made again after this error, whatever its
    /// kind (a setup error, a body over its limit).
    pub(crate) fn is_never_retried(&self) -> bool {
        self.never_retried
    }

    /// A `validation` error about `param`.
    pub(crate) fn validation(param: &str, message: impl Into<String>) -> Error {
        Error::validation_text(param, message.into())
    }

    /// [`Error::validation`] past the conversion: one copy in the `.wasm`,
    /// whatever the message's type.
    fn validation_text(param: &str, message: String) -> Error {
        Error {
            param: Some(param.into()),
            ..Error::new(ErrorKind::Validation, message)
        }
    }

    /// A `validation` error naming the value and the allowed ones, e.g.
    /// `active must be "all", "true", "false" or a boolean; got "yes"`.
    pub(crate) fn invalid(param: &str, expected: &str, got: &str) -> Error {
        Error::validation(param, format!("{param} must be {expected}; got {got}"))
    }

    /// The same error with the envelope's `status`.
    pub(crate) fn with_status(mut self, status: Option<i64>) -> Error {
        self.status = status;
        self
    }

    /// The same error with the HTTP status `http_status`
    /// ([`Error::http_status`]).
    pub fn with_http_status(mut self, http_status: u16) -> Error {
        self.http_status = Some(http_status);
        self
    }

    /// The same error with the envelope's `status` ([`Error::api_status`]).
    pub fn with_api_status(mut self, status: i64) -> Error {
        self.status = Some(status);
        self
    }

    /// The same error with `param` ([`Error::param`]) as the param or
    /// option at fault.
    pub fn with_param(mut self, param: impl Into<String>) -> Error {
        self.param = Some(param.into());
        self
    }

    /// The same error with `body` as the response's text ([`Error::body`]).
    pub fn with_body(mut self, body: impl Into<String>) -> Error {
        self.body = Some(Box::new(Body {
            text: body.into(),
            json: false,
        }));
        self
    }

    /// The same error with `source` as its
    /// [`source`](std::error::Error::source): an error of the app's own,
    /// which a caller can downcast back. (On wasm32 it is kept as its
    /// text, its own sources included: there the source is a [`Cause`].)
    pub fn with_source(
        mut self,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Error {
        let source: Box<dyn std::error::Error + Send + Sync> = source.into();
        #[cfg(not(target_arch = "wasm32"))]
        let source = Source::Error(Arc::from(source));
        #[cfg(target_arch = "wasm32")]
        let source = Source::Text(Cause(chain_text(&*source)));
        self.source = Some(Box::new(source));
        self
    }

    /// The same error with the HTTP status and the body's text: the whole
    /// body when `json` (it parsed as JSON), else the body cut to 65,536
    /// UTF-16 units.
    pub(crate) fn with_response(mut self, http_status: u16, text: String, json: bool) -> Error {
        self.http_status = Some(http_status);
        self.body = Some(Box::new(Body { text, json }));
        self
    }

    /// The same error, with `cause` as its [`source`](std::error::Error::source).
    pub(crate) fn with_cause(mut self, cause: Cause) -> Error {
        self.source = Some(Box::new(Source::Text(cause)));
        self
    }

    /// The same error, as one the transport could tell made no
    /// connection (the native and WASI transports can; `fetch` cannot).
    #[cfg(not(all(target_arch = "wasm32", not(target_os = "wasi"))))]
    pub(crate) fn connecting(mut self) -> Error {
        self.connect = true;
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

    /// For `validation`: the param or option at fault, by the name the
    /// API that was called gives it: in the Rust API `"base_url"`,
    /// `"page_size"`, `"headers"`, `"active"`, an extra param's key
    /// itself, ...; in the JS API its own names (`"baseUrl"`,
    /// `"pageSize"`, ...).
    pub fn param(&self) -> Option<&str> {
        self.param.as_deref()
    }

    /// The envelope's own `status`, where a body carried one (an
    /// [`ErrorKind::Api`] error always has it; an [`ErrorKind::Http`] one
    /// where the body was an envelope). For the HTTP status, see
    /// [`Error::http_status`].
    pub fn api_status(&self) -> Option<i64> {
        self.status
    }

    /// Whether the call ended because an attempt had no answer in time
    /// ([`ErrorKind::Timeout`]: the `timeout` option, or in a JS host the
    /// caller's signal's deadline). Unlike reqwest's `is_timeout`, a
    /// connection not made within the connect timeout is not one: it is a
    /// [`ErrorKind::Network`] error, and [`Error::is_connect`] says so.
    pub fn is_timeout(&self) -> bool {
        self.kind == ErrorKind::Timeout
    }

    /// Whether the transport could tell that no connection was made: the
    /// server refused it, its name did not resolve, it was unreachable, or
    /// connecting timed out. Natively (reqwest's `is_connect`) and on WASI
    /// (`wasi:http`'s error code); a JS host's `fetch` does not say, so
    /// there it is always `false` (the error is [`ErrorKind::Network`]).
    pub fn is_connect(&self) -> bool {
        #[cfg(not(all(target_arch = "wasm32", not(target_os = "wasi"))))]
        return self.connect;
        #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
        false
    }

    /// The HTTP status, where a response arrived.
    pub fn http_status(&self) -> Option<u16> {
        self.http_status
    }

    /// The body's text, where a response arrived: the whole body when it
    /// is JSON, else cut at 65,536 UTF-16 units.
    pub fn body(&self) -> Option<&str> {
        self.body.as_ref().map(|body| body.text.as_str())
    }

    /// Whether [`Error::body`] is JSON (the JS layer hands it over parsed,
    /// through `binding::body_is_json`).
    pub(crate) fn body_is_json(&self) -> bool {
        self.body.as_ref().is_some_and(|body| body.json)
    }

    /// The same error with `cut` applied to every text that can quote what
    /// a server or a caller's `fetch` sent: the message, the body and the
    /// source (the secrets rule decides what to cut; `None`: nothing).
    ///
    /// A transport's own error cannot be cut: one whose text quotes a
    /// secret is replaced by its text with the secret cut out.
    pub(crate) fn cut(mut self, cut: impl Fn(&str) -> Option<String>) -> Error {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(source) = self.source.as_mut() {
            if let Source::Error(_) = **source {
                if let Some(text) = cut(&source.text()) {
                    **source = Source::Text(Cause(text));
                }
            }
        }
        let texts = [
            Some(&mut self.message),
            self.body.as_mut().map(|body| &mut body.text),
            self.source.as_mut().and_then(|source| source.text_mut()),
        ];
        for text in texts.into_iter().flatten() {
            if let Some(cut) = cut(text) {
                *text = cut;
            }
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|source| source.as_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const _: fn() = || {
        fn send_sync<T: Send + Sync + 'static>() {}
        send_sync::<Error>();
        send_sync::<ErrorKind>();
    };

    #[test]
    fn an_error_kind_serializes_as_it_deserializes() {
        for (kind, name) in ErrorKind::ALL.iter().zip(ErrorKind::NAMES) {
            let json = serde_json::to_string(kind).unwrap();
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(serde_json::from_str::<ErrorKind>(&json).unwrap(), *kind);
        }
    }

    #[test]
    fn invalid_names_param_expected_and_got() {
        let err = Error::invalid("active", "a boolean", "\"yes\"");
        assert_eq!(err.kind(), ErrorKind::Validation);
        assert_eq!(err.param(), Some("active"));
        assert_eq!(err.to_string(), "active must be a boolean; got \"yes\"");
    }

    #[test]
    fn redaction_cuts_message_body_and_source() {
        let err = Error::new(ErrorKind::Http, "echo s3cret")
            .with_response(500, "token s3cret".into(), false)
            .with_cause(Cause::new("TypeError: s3cret"))
            .cut(|text| crate::rules::secrets::redacted(text, &["s3cret".into()]));
        assert_eq!(err.message(), "echo [REDACTED]");
        assert_eq!(err.body(), Some("token [REDACTED]"));
        assert_eq!(err.http_status(), Some(500));
        let source = std::error::Error::source(&err).map(|s| s.to_string());
        assert_eq!(source.as_deref(), Some("TypeError: [REDACTED]"));
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn a_transport_source_downcasts_and_is_cut_when_it_quotes_a_secret() {
        let io = std::io::Error::other("refused by s3cret-host");
        let err = Error::new(ErrorKind::Network, "failed").with_source(io);
        let source = std::error::Error::source(&err).unwrap();
        assert!(source.downcast_ref::<std::io::Error>().is_some());
        let kept = err
            .clone()
            .cut(|text| crate::rules::secrets::redacted(text, &["other".into()]));
        assert!(std::error::Error::source(&kept)
            .unwrap()
            .downcast_ref::<std::io::Error>()
            .is_some());
        let cut = err.cut(|text| crate::rules::secrets::redacted(text, &["s3cret".into()]));
        let source = std::error::Error::source(&cut).unwrap();
        assert!(source.downcast_ref::<std::io::Error>().is_none());
        assert_eq!(source.to_string(), "refused by [REDACTED]-host");
    }

    #[test]
    fn errors_go_where_rust_apps_carry_them() {
        fn with_question_mark() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
            Err(Error::new(ErrorKind::Timeout, "no answer"))?;
            Ok(())
        }
        let boxed = with_question_mark().unwrap_err();
        assert_eq!(boxed.to_string(), "no answer");
        let back = boxed.downcast::<Error>().unwrap();
        assert_eq!(back.kind(), ErrorKind::Timeout);
        assert_eq!(ErrorKind::Network.to_string(), "network");
        assert!(std::error::Error::source(&*back).is_none());
    }

    #[test]
    fn errors_are_equal_exactly_when_everything_they_say_is() {
        let base = || {
            Error::new(ErrorKind::Api, "m")
                .with_status(Some(404))
                .with_response(200, "{}".into(), true)
                .with_cause(Cause::new("c"))
        };
        assert_eq!(base(), base());
        let differing = [
            Error {
                kind: ErrorKind::Http,
                ..base()
            },
            Error {
                message: "n".into(),
                ..base()
            },
            Error {
                param: Some("active".into()),
                ..base()
            },
            base().with_status(Some(500)),
            base().with_response(201, "{}".into(), true),
            base().with_response(200, "[]".into(), true),
            base().with_cause(Cause::new("d")),
        ];
        for (at, other) in differing.iter().enumerate() {
            assert_ne!(&base(), other, "field {at}");
        }
    }

    #[test]
    fn an_error_says_whether_its_body_is_json() {
        let error = |json| Error::new(ErrorKind::Http, "m").with_response(500, "x".into(), json);
        assert!(error(true).body_is_json());
        assert!(!error(false).body_is_json());
        assert!(!Error::new(ErrorKind::Http, "m").body_is_json());
    }
}
