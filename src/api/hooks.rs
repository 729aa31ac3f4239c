//! Observer hooks (the contract's "Hooks"): closures on
//! [`ClientOptions::hooks`](crate::ClientOptions::hooks) that see every attempt's
//! request, every response's arrival and every retry. They observe only:
//! nothing they do changes the request or the outcome, and no credential
//! value reaches them (credential headers read `"[REDACTED]"`).
//!
//! A Rust hook must not panic (a panic traps the module); the JS layer wraps
//! each JS hook so that an exception or a rejected promise is reported
//! (`reportError`, else `console.error`) and changes nothing.
//!
//! The info types serialize (serde, camelCase) to the objects JS hooks get:
//! an attempt's `{ operation, url, attempt, headers }`, headers as a record;
//! a response's `{ httpStatus, durationMs }`, which the JS layer lays over
//! its attempt's object (a JS `ResponseInfo` extends `AttemptInfo`); a
//! retry's `{ operation, attempt, delayMs }`, to which the JS layer adds
//! `error`. Times are [`Duration`]s in Rust, measured on the transport's
//! monotonic clock (`performance.now()` in a JS host, `Instant` natively,
//! `wasi:clocks/monotonic-clock` on WASI), and milliseconds in JS:
//! `durationMs` in whole milliseconds (as JS hosts' clocks have given it),
//! `delayMs` as the retry rule decided it.

use std::fmt;
#[cfg(target_arch = "wasm32")]
use std::rc::Rc;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Arc;
use std::time::Duration;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
use wasm_bindgen::JsValue;

use crate::error::Error;
use crate::host::{MaybeSendSync, Rejection};
use crate::model::Operation;

/// What a hook sees of an attempt about to be sent. Serializes to
/// `{ operation, url, attempt, headers }`, headers as a record (`{ name:
/// value }`).
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptInfo {
    /// Count or list.
    pub operation: Operation,
    /// The full request URL (in `query` mode, with its query string).
    pub url: String,
    /// 1 for the first attempt.
    pub attempt: u32,
    /// The headers as sent, credential values replaced by `"[REDACTED]"`.
    pub headers: Vec<(String, String)>,
}

/// The hook infos serialize as maps, not structs: in JSON, and in JS
/// through serde-wasm-bindgen's `Serializer::json_compatible()`, the two
/// are the same object, but serde-wasm-bindgen keeps a hash table of the
/// JS strings of struct field names, which would cost the package's
/// `.wasm` more than it saves.
impl Serialize for AttemptInfo {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut info = serializer.serialize_map(Some(4))?;
        info.serialize_entry("operation", &self.operation)?;
        info.serialize_entry("url", &self.url)?;
        info.serialize_entry("attempt", &self.attempt)?;
        info.serialize_key("headers")?;
        info.serialize_value(&Record(&self.headers))?;
        info.end()
    }
}

/// Header pairs as a record (`{ name: value }`), as JS hooks get them.
struct Record<'a>(&'a [(String, String)]);

impl Serialize for Record<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, value)| (name, value)))
    }
}

/// What a hook sees when an attempt's response headers arrived.
/// Serializes to `{ httpStatus, durationMs }`.
#[derive(Clone, Debug, PartialEq)]
pub struct ResponseInfo {
    /// The attempt (serialized on its own).
    pub request: AttemptInfo,
    /// The HTTP status.
    pub http_status: u16,
    /// From sending to the response headers, on a monotonic clock (JS:
    /// `durationMs`, whole milliseconds).
    pub duration: Duration,
}

impl Serialize for ResponseInfo {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut info = serializer.serialize_map(Some(2))?;
        info.serialize_entry("httpStatus", &self.http_status)?;
        // Cut, not rounded: never longer than the span it measures.
        info.serialize_entry("durationMs", &ms(self.duration).floor())?;
        info.end()
    }
}

/// What a hook sees when a failed attempt will be retried. Serializes to
/// `{ operation, attempt, delayMs }`.
#[derive(Clone, Debug)]
pub struct RetryInfo {
    /// Count or list.
    pub operation: Operation,
    /// The attempt that failed (1 for the first).
    pub attempt: u32,
    /// Why it failed (credentials already cut out).
    pub error: Error,
    /// How long the client now waits before the next attempt (JS:
    /// `delayMs`).
    pub delay: Duration,
    /// The JS value behind `error`, where there was one (credentials cut
    /// out): the JS layer's `UsersApiError` shows it as `cause`.
    #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
    pub(crate) cause: Option<JsValue>,
}

impl Serialize for RetryInfo {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut info = serializer.serialize_map(Some(3))?;
        info.serialize_entry("operation", &self.operation)?;
        info.serialize_entry("attempt", &self.attempt)?;
        info.serialize_entry("delayMs", &ms(self.delay))?;
        info.end()
    }
}

/// A duration in milliseconds, to the nanosecond (whole milliseconds come
/// out whole).
fn ms(duration: Duration) -> f64 {
    duration.as_secs() as f64 * 1e3 + f64::from(duration.subsec_nanos()) / 1e6
}

impl RetryInfo {
    /// What a hook sees of attempt `attempt`, which failed with `shown`
    /// (credentials already cut out) and is retried after `delay`.
    pub(crate) fn new(
        operation: Operation,
        attempt: u32,
        shown: Rejection,
        delay: Duration,
    ) -> RetryInfo {
        RetryInfo {
            operation,
            attempt,
            error: shown.error,
            delay,
            #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
            cause: shown.cause,
        }
    }
}

/// A hook: a closure called with what it observes.
#[cfg(target_arch = "wasm32")]
pub type Hook<T> = Rc<dyn Fn(&T)>;
/// A hook: a closure called with what it observes (natively `Send + Sync`).
#[cfg(not(target_arch = "wasm32"))]
pub type Hook<T> = Arc<dyn Fn(&T) + Send + Sync>;

#[cfg(target_arch = "wasm32")]
fn hook<T>(hook: impl Fn(&T) + 'static) -> Hook<T> {
    Rc::new(hook)
}

#[cfg(not(target_arch = "wasm32"))]
fn hook<T>(hook: impl Fn(&T) + Send + Sync + 'static) -> Hook<T> {
    Arc::new(hook)
}

/// The three hooks; each is optional. Default: none. The setters box
/// the closures.
///
/// ```no_run
/// use std::sync::atomic::{AtomicU32, Ordering};
/// use std::sync::Arc;
/// use user_management_client::{ClientOptions, Hooks};
///
/// let retries = Arc::new(AtomicU32::new(0));
/// let seen = Arc::clone(&retries);
/// let options = ClientOptions::new("https://api.example.com").hooks(
///     Hooks::default()
///         .before_request(|info| println!("-> {} #{}", info.url, info.attempt))
///         .after_response(|info| println!("<- HTTP {} in {:?}", info.http_status, info.duration))
///         .before_retry(move |info| {
///             seen.fetch_add(1, Ordering::Relaxed);
///             println!("retrying in {:?}", info.delay);
///         }),
/// );
/// ```
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct Hooks {
    /// Before each attempt's `fetch`.
    pub before_request: Option<Hook<AttemptInfo>>,
    /// When an attempt's response headers arrived (any HTTP status).
    pub after_response: Option<Hook<ResponseInfo>>,
    /// When a failed attempt will be retried, before the pause.
    pub before_retry: Option<Hook<RetryInfo>>,
}

impl Hooks {
    /// Sets the hook called before each attempt's `fetch`.
    pub fn before_request(mut self, f: impl Fn(&AttemptInfo) + MaybeSendSync + 'static) -> Self {
        self.before_request = Some(hook(f));
        self
    }

    /// Sets the hook called when an attempt's response headers arrived.
    pub fn after_response(mut self, f: impl Fn(&ResponseInfo) + MaybeSendSync + 'static) -> Self {
        self.after_response = Some(hook(f));
        self
    }

    /// Sets the hook called when a failed attempt will be retried.
    pub fn before_retry(mut self, f: impl Fn(&RetryInfo) + MaybeSendSync + 'static) -> Self {
        self.before_retry = Some(hook(f));
        self
    }

    /// Whether any hook is set (the client builds hook info only then).
    pub fn any(&self) -> bool {
        self.before_request.is_some()
            || self.after_response.is_some()
            || self.before_retry.is_some()
    }
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hooks")
            .field("before_request", &self.before_request.is_some())
            .field("after_response", &self.after_response.is_some())
            .field("before_retry", &self.before_retry.is_some())
            .finish()
    }
}
