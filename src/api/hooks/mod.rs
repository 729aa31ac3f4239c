//! Hooks (the contract's "Hooks"): closures on
//! [`ClientOptions::hooks`](crate::ClientOptions::hooks) that see every
//! attempt's request, every response's arrival and every retry, and may
//! change an attempt: `before_request` by returning headers for it (merged
//! over the attempt's, checked as any header), `after_response` by
//! returning [`ResponseAction::Retry`] (the answer is set aside and the
//! attempt made again after the usual backoff; such retries are counted
//! apart from the retry policy's, at most `max(1, limit)` per call), and
//! `before_retry` by returning `false` (the retry is not made). A hook may return what it decides, or a future resolving to
//! it: the attempt waits for the future (in a JS host, the caller's signal
//! still ends the call at once). No credential value reaches a hook:
//! credential headers, in the request's headers and the response's alike,
//! read `"[REDACTED]"`.
//!
//! A Rust hook must not panic (a panic traps the module); the JS layer wraps
//! each JS hook so that an exception or a rejected promise is reported
//! (`reportError`, else `console.error`) and changes nothing.
//!
//! The info types serialize (serde, camelCase) to the objects JS hooks get:
//! an attempt's `{ operation, url, attempt, headers }`, headers as a record;
//! a response's `{ httpStatus, durationMs, responseHeaders }`, which the JS
//! layer lays over its attempt's object (a JS `ResponseInfo` extends
//! `AttemptInfo`); a retry's `{ operation, attempt, delayMs }`, to which the
//! JS layer adds `error`. Times are [`Duration`]s in Rust, measured on the
//! transport's monotonic clock (`performance.now()` in a JS host, `Instant`
//! natively, `wasi:clocks/monotonic-clock` on WASI), and milliseconds in JS:
//! `durationMs` in whole milliseconds (as JS hosts' clocks have given it),
//! `delayMs` as the retry rule decided it.

mod info;
mod output;

use std::fmt;
#[cfg(target_arch = "wasm32")]
use std::rc::Rc;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Arc;

use crate::host::MaybeSendSync;

pub use crate::call::{AttemptInfo, ResponseAction, ResponseInfo};
pub use info::RetryInfo;
pub use output::{AttemptHeaders, Decided, Deferred, HookFuture, HookOutput, HookReturn};

/// A hook: a closure called with what it observes, returning what it
/// decides (`T`) at once or later.
#[cfg(target_arch = "wasm32")]
pub type Hook<I, T> = Rc<dyn Fn(&I) -> HookReturn<T>>;
/// A hook: a closure called with what it observes, returning what it
/// decides (`T`) at once or later (natively `Send + Sync`).
#[cfg(not(target_arch = "wasm32"))]
pub type Hook<I, T> = Arc<dyn Fn(&I) -> HookReturn<T> + Send + Sync>;

#[cfg(target_arch = "wasm32")]
fn hook<I, T, M, R>(f: impl Fn(&I) -> R + 'static) -> Hook<I, T>
where
    R: HookOutput<T, M>,
{
    Rc::new(move |info| f(info).into_return())
}

#[cfg(not(target_arch = "wasm32"))]
fn hook<I, T, M, R>(f: impl Fn(&I) -> R + Send + Sync + 'static) -> Hook<I, T>
where
    R: HookOutput<T, M>,
{
    Arc::new(move |info| f(info).into_return())
}

/// The three hooks; each is optional. Default: none. The setters box
/// the closures, which may return what they decide (see [`HookOutput`])
/// or a future of it.
///
/// ```no_run
/// use std::sync::atomic::{AtomicU32, Ordering};
/// use std::sync::Arc;
/// use user_management_client::{ClientOptions, Hooks, ResponseAction};
///
/// let retries = Arc::new(AtomicU32::new(0));
/// let seen = Arc::clone(&retries);
/// let options = ClientOptions::new("https://api.example.com").hooks(
///     Hooks::default()
///         // Headers for this attempt, merged over its own.
///         .before_request(|info| vec![("x-request-id".to_string(), format!("r-{}", info.attempt))])
///         .after_response(|info| {
///             println!("<- HTTP {} in {:?}", info.http_status, info.duration);
///             // A future works too: the attempt waits for it.
///             let refused = info.http_status == 401;
///             async move {
///                 if refused {
///                     // Refresh the token here (the header provider reads it).
///                     ResponseAction::Retry
///                 } else {
///                     ResponseAction::Keep
///                 }
///             }
///         })
///         .before_retry(move |info| {
///             seen.fetch_add(1, Ordering::Relaxed);
///             println!("retrying in {:?}", info.delay);
///         }),
/// );
/// ```
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct Hooks {
    /// Before each attempt's `fetch`; may give the attempt headers.
    pub before_request: Option<Hook<AttemptInfo, AttemptHeaders>>,
    /// When an attempt's response headers arrived (any HTTP status); may
    /// ask for the attempt again.
    pub after_response: Option<Hook<ResponseInfo, ResponseAction>>,
    /// When a failed attempt will be retried, before the pause; may stop
    /// the retry (`false`).
    pub before_retry: Option<Hook<RetryInfo, bool>>,
}

impl Hooks {
    /// Sets the hook called before each attempt's `fetch`. It may return
    /// headers for that attempt (a [`HeaderList`](crate::HeaderList), an
    /// `Option` or a `Result` of one, or a future of any of those), merged
    /// over the attempt's and checked as any header.
    pub fn before_request<M, R>(
        mut self,
        f: impl Fn(&AttemptInfo) -> R + MaybeSendSync + 'static,
    ) -> Self
    where
        R: HookOutput<AttemptHeaders, M>,
    {
        self.before_request = Some(hook(f));
        self
    }

    /// Sets the hook called when an attempt's response headers arrived.
    /// It may return [`ResponseAction::Retry`] (or a future of it) to set
    /// the answer aside and make the attempt again.
    pub fn after_response<M, R>(
        mut self,
        f: impl Fn(&ResponseInfo) -> R + MaybeSendSync + 'static,
    ) -> Self
    where
        R: HookOutput<ResponseAction, M>,
    {
        self.after_response = Some(hook(f));
        self
    }

    /// Sets the hook called when a failed attempt will be retried, before
    /// the pause (a future it returns is waited for first). It may return
    /// `false` (or a future of it) to stop the retry: the call then ends
    /// with the error it was to retry. `()` or `true` go on.
    pub fn before_retry<M, R>(
        mut self,
        f: impl Fn(&RetryInfo) -> R + MaybeSendSync + 'static,
    ) -> Self
    where
        R: HookOutput<bool, M>,
    {
        self.before_retry = Some(hook(f));
        self
    }

    /// Whether any hook is set.
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
