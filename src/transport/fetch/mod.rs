//! The transport through the JS host's `fetch`, from the bottom up:
//!
//! - [`bridge`]: the steps made in JS, each one call (an attempt from its
//!   request to its body, a body parsed with its envelope's fields, a
//!   stop for the waits between attempts, what a JS value is).
//! - [`js_value`]: a JS value read as the rules' `Value`.
//! - [`promise`]: a JS promise awaited, through one function made once.
//! - [`wait`]: timers and the caller's `AbortSignal` between attempts.
//! - [`request`]: what each attempt sends, as `fetch` takes it.
//! - [`exchange`]: one attempt through `fetch`.
//! - [`answer`]: the answer read for the envelope rules.
//!
//! [`Fetch`] puts them together as the call driver's [`Transport`]. It is
//! compiled on wasm32 only.

pub mod answer;
pub mod bridge;
pub mod exchange;
pub mod js_value;
pub mod promise;
pub mod request;
pub mod wait;

use std::future::Future;
use std::time::Duration;

use js_sys::{Function, Object};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

use crate::call::Outcome;
use crate::error::{Error, ErrorKind};
use crate::host::{failure_detail, Rejection, Signal};
use crate::model::{Credentials, Envelope, Operation, ParamsIn};
use crate::rules::headers::Resolved;
use crate::rules::options::{shown_url, without_query, Bounds};
use crate::rules::value::Value;
use crate::transport::seam::{Arrived, Failed, Retry, Settled, Transport};

use exchange::{attempt, Answer, Failure};
use request::{Headers, Request};
use wait::{is_aborted, Stop, Stopped};

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`: milliseconds on the host's monotonic clock
    /// (every JS host the client runs in has `performance`).
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// The transport through the JS host's `fetch`.
pub struct Fetch;

/// What a client's options give the fetch transport.
pub struct Setup {
    /// The `fetch` option: called instead of the global `fetch`.
    pub fetch: Option<Function>,
    /// `fetch`'s credentials mode (`None`: the platform's).
    pub credentials: Option<Credentials>,
}

impl Transport for Fetch {
    type Params = Object;
    type Body = JsValue;
    type Headers = Headers;
    type Request = Request;
    type Setup = Setup;
    /// The `fetch` option and `credentials`, kept for every call.
    type Client = Setup;

    fn client(setup: Setup) -> Result<Setup, Error> {
        Ok(setup)
    }

    fn base_href(url: &str, param: &str) -> Result<String, Error> {
        request::base_href(url, param)
    }

    fn params<T: Serialize>(params: &T) -> Result<Object, Error> {
        request::params_object(params)
    }

    fn headers(resolved: Resolved) -> Headers {
        Headers::new(resolved)
    }

    fn resolved(headers: &Headers) -> &Resolved {
        &headers.resolved
    }

    fn build(
        url: &str,
        params: &Object,
        params_in: ParamsIn,
        client: &Setup,
    ) -> Result<Request, Rejection> {
        request::build(url, params_in, params, client.credentials)
    }

    fn url(request: &Request) -> &str {
        &request.url
    }

    fn ready(signal: Option<&Signal>) -> Result<(), Rejection> {
        if is_aborted(signal) {
            return Err(aborted(signal));
        }
        Ok(())
    }

    async fn waited<F: Future>(
        work: F,
        signal: Option<&Signal>,
        ms: Option<u32>,
    ) -> Result<Option<F::Output>, Rejection> {
        match Stop::new(ms, signal).until(work).await {
            Ok(done) => Ok(Some(done)),
            Err(Stopped::TimedOut) => Ok(None),
            Err(Stopped::Aborted) => Err(aborted(signal)),
        }
    }

    type Outcome = Result<Answer, Failure>;

    fn attempt<'a>(
        request: &'a Request,
        headers: &'a Headers,
        client: &'a Setup,
        signal: Option<&'a Signal>,
        bounds: Bounds,
        arrived: Option<Arrived<'a>>,
    ) -> impl Future<Output = Result<Answer, Failure>> + 'a {
        attempt(
            request,
            headers,
            client.fetch.as_ref(),
            bounds,
            signal,
            arrived,
        )
    }

    fn settle(
        outcome: Result<Answer, Failure>,
        request: &Request,
        signal: Option<&Signal>,
        operation: Operation,
        secrets: &[String],
    ) -> Settled<JsValue> {
        match settle(outcome, operation, &request.url, signal, secrets) {
            Ok(body) => (Ok(body), Outcome::Good),
            Err(failed) => failed.settled(),
        }
    }

    async fn pause(ms: f64, signal: Option<&Signal>) -> Result<(), Rejection> {
        Stop::new(Some(ms as u32), signal).wait().await;
        Ok(())
    }

    /// Milliseconds from `performance.now()`.
    type Instant = f64;

    fn now() -> f64 {
        performance_now()
    }

    fn since(earlier: f64) -> Duration {
        // `as` saturates: a negative span (none on a monotonic clock) is 0.
        Duration::from_nanos(((performance_now() - earlier) * 1e6) as u64)
    }

    fn date_ms() -> f64 {
        js_sys::Date::now()
    }

    fn random() -> f64 {
        js_sys::Math::random()
    }

    fn decode<T: DeserializeOwned>(body: JsValue) -> Result<Envelope<T>, Error> {
        decode(body)
    }
}

/// What an attempt came to: the parsed body of a good answer, or why it
/// failed. An abort that came after the body wins: the caller has not been
/// answered yet.
fn settle(
    outcome: Result<Answer, Failure>,
    operation: Operation,
    url: &str,
    signal: Option<&AbortSignal>,
    secrets: &[String],
) -> Result<JsValue, Failed> {
    if is_aborted(signal) {
        return Err(Failed {
            rejection: aborted(signal),
            retry: Retry::Never,
        });
    }
    match outcome {
        Ok(answer) => {
            let retry_after = answer.retry_after.clone();
            answer::judge(answer, operation, secrets).map_err(|error| Failed {
                rejection: error.into(),
                retry: Retry::AsTheRuleSays(retry_after),
            })
        }
        Err(failure) => {
            let retry = match failure {
                Failure::Aborted | Failure::NoFetch | Failure::NotAResponse(_) => Retry::Never,
                // A body over its limit, which no attempt is made again for.
                Failure::Bound(ref error) if error.is_never_retried() => Retry::Never,
                _ => Retry::AsTheRuleSays(None),
            };
            Err(Failed {
                rejection: failure_error(failure, url, signal),
                retry,
            })
        }
    }
}

/// The error of a call its signal ended, carrying the signal's reason:
/// `timeout` when that reason is a `TimeoutError` (`AbortSignal.timeout`,
/// alone or in `AbortSignal.any`: the caller's deadline passed), else
/// `aborted`.
pub(crate) fn aborted(signal: Option<&AbortSignal>) -> Rejection {
    let reason = signal.and_then(|s| js_sys::Reflect::get(s, &"reason".into()).ok());
    let error = match &reason {
        Some(reason) if is_timeout_error(reason) => Error::new(
            ErrorKind::Timeout,
            "the caller's deadline passed: the call's signal timed out",
        )
        .never_retried(),
        _ => Error::new(ErrorKind::Aborted, "the call was aborted by its signal"),
    };
    match reason {
        Some(reason) => Rejection::caused(error, reason),
        None => error.into(),
    }
}

/// Whether a signal's reason is a `TimeoutError` (a getter that throws
/// says no). The JS layer's `isRetryable` asks it of a `timeout`'s cause.
pub fn is_timeout_error(reason: &JsValue) -> bool {
    reason.is_object()
        && js_sys::Reflect::get(reason, &"name".into())
            .is_ok_and(|name| name.as_string().as_deref() == Some("TimeoutError"))
}

/// The error of an attempt that had no answer.
fn failure_error(failure: Failure, url: &str, signal: Option<&AbortSignal>) -> Rejection {
    match failure {
        Failure::Bound(error) => error.into(),
        Failure::Aborted => aborted(signal),
        Failure::Fetch(cause) => network_error("fetch", url, cause),
        Failure::Body(cause) => network_error("reading the body", url, cause),
        Failure::NoFetch => Error::validation(
            "fetch",
            "this host has no global fetch: pass one as the fetch option",
        )
        .into(),
        Failure::NotAResponse(value) => Error::validation(
            "fetch",
            format!(
                "fetch resolved with {}, which is not a Response",
                Value::of(&value).shown()
            ),
        )
        .into(),
    }
}

/// A `network` error that says what failed, where, and why, as far as the
/// platform told (`TypeError: fetch failed (ECONNREFUSED)` in Node); the
/// URL without its query string, in what the platform told too (Deno's
/// message names it). The platform's error is the JS error's `cause`; the
/// Rust error has no `source()` (its message says all there is, once).
fn network_error(what: &str, url: &str, cause: JsValue) -> Rejection {
    let detail = without_query(&failure_detail(&cause), url);
    let message = format!("{what} failed for POST {}: {detail}", shown_url(url));
    Rejection {
        error: Error::new(ErrorKind::Network, message),
        cause: Some(cause),
    }
}

/// A checked body (a 200 envelope) as the caller's type, through
/// serde-wasm-bindgen.
fn decode<T: DeserializeOwned>(body: JsValue) -> Result<Envelope<T>, Error> {
    serde_wasm_bindgen::from_value(body).map_err(|error| {
        let detail = error.to_string();
        let detail = detail.strip_prefix("Error: ").unwrap_or(&detail);
        Error::new(
            ErrorKind::Decode,
            format!("the result does not fit the requested type: {detail}"),
        )
        .with_status(Some(200))
    })
}
