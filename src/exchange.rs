//! One attempt of a call over gloo-net: send the request, wait for the
//! response and its whole body within the attempt's timeout, give up at once
//! when the caller's signal aborts, and cancel whatever is still in flight.
//!
//! With the platform's `fetch`, the request is a gloo-net `Request` sent with
//! `Request::send`. With the caller's own `fetch` (the `fetch` option), that
//! function is called as `fetch(url, init)` with the same URL and
//! `RequestInit`, and its result is checked here before it is wrapped as a
//! gloo-net `Response`: gloo-net 0.7 panics when `fetch` rejects with
//! something that is not an `Error` or resolves to something that is not a
//! `Response`, and a panic would trap the module for every later call.
//!
//! The body is read as a JS string and never copied into Rust: the answer
//! module hands it to `JSON.parse` (gloo-net's `Response::text` would copy a
//! 100,000-user list into Rust and back).

use js_sys::{Function, JsString, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal};

use crate::request::Request;
use crate::retry::is_retryable_status;
use crate::wait::{is_aborted, Armed, Stop, Stopped};

/// A response that arrived, with its whole body.
pub struct Answer {
    /// The HTTP status.
    pub http_status: u16,
    /// The body.
    pub text: JsString,
    /// `Retry-After`, read only where the status is one that is retried.
    pub retry_after: Option<String>,
}

/// Why an attempt has no answer.
pub enum Failure {
    /// The attempt's timeout passed.
    TimedOut,
    /// The caller's signal aborted.
    Aborted,
    /// `fetch` failed (or the platform has none); the JS error.
    Fetch(JsValue),
    /// Reading the body failed; the JS error.
    Body(JsValue),
    /// The caller's `fetch` resolved with something that is not a `Response`.
    NotAResponse,
}

impl From<Stopped> for Failure {
    fn from(stopped: Stopped) -> Failure {
        match stopped {
            Stopped::TimedOut => Failure::TimedOut,
            Stopped::Aborted => Failure::Aborted,
        }
    }
}

/// An attempt's cancelling: its controller, and what may abort it (its
/// timer, the caller's signal). Dropped, it clears the timer, stops
/// listening, and aborts the controller unless the body arrived whole, so
/// whatever is still in flight is cancelled, also when the caller drops the
/// call's future. (Not after a whole body: `abort()` builds a
/// `DOMException`, a cost per call, and there is nothing left to cancel.)
struct Cancel {
    controller: AbortController,
    armed: Armed,
    done: bool,
}

impl Drop for Cancel {
    fn drop(&mut self) {
        // (`armed` clears the timer and the listener after this.)
        if !self.done {
            self.controller.abort();
        }
    }
}

thread_local! {
    /// What an attempt's controller is aborted with when its timer fires,
    /// to tell a timeout from the caller's abort afterwards. An `Error`:
    /// gloo-net's `send` expects `fetch` to reject with one.
    static TIMED_OUT: JsValue = {
        let reason = js_sys::Error::new("the attempt's timeout passed");
        reason.set_name("TimeoutError");
        reason.into()
    };
    /// What it is aborted with when the caller's signal aborts.
    static CALLER_ABORTED: JsValue = {
        let reason = js_sys::Error::new("the call was aborted by its signal");
        reason.set_name("AbortError");
        reason.into()
    };
}

/// Runs one attempt: `timeout_ms` (0: none) covers the response and its
/// body; `signal` is the caller's; `arrived` is told the HTTP status as
/// soon as the response headers are there.
pub async fn attempt(
    request: &Request,
    fetch: Option<&Function>,
    timeout_ms: u32,
    signal: Option<&AbortSignal>,
    arrived: &dyn Fn(u16),
) -> Result<Answer, Failure> {
    let controller = AbortController::new().map_err(Failure::Fetch)?;
    request.init.set_signal(Some(&controller.signal()));
    let mut cancel = Cancel {
        controller,
        armed: Armed::default(),
        done: false,
    };
    let timeout = (timeout_ms > 0).then_some(timeout_ms);
    let (response, stop) = match fetch {
        // The platform's `fetch` rejects, and its body fails, as soon as the
        // request's signal aborts: the timer and the caller's signal abort
        // the attempt's controller directly, and nothing races.
        None => {
            arm(&mut cancel, timeout, signal)?;
            let response = send(request)
                .await
                .map_err(|failure| settle_failure(failure, &cancel.controller, signal))?;
            (response, None)
        }
        // The caller's `fetch` may ignore the signal, and its `Response`'s
        // body may never end: each wait races a `Stop`.
        Some(fetch) => {
            let mut stop = Stop::new(timeout, signal);
            let response = call_fetch(fetch, request, &mut stop).await?;
            (response, Some(stop))
        }
    };
    let raw = web_sys::Response::from(response);
    let http_status = match Reflect::get(&raw, &"status".into()).map(|s| s.as_f64()) {
        Ok(Some(s)) if (100.0..=599.0).contains(&s) && s.fract() == 0.0 => s as u16,
        _ => return Err(Failure::NotAResponse),
    };
    arrived(http_status);
    let retry_after = if is_retryable_status(http_status) {
        // A custom `fetch`'s answer may have no usable headers: no value.
        raw.headers().get("retry-after").ok().flatten()
    } else {
        None
    };
    let body = JsFuture::from(Promise::resolve(&raw.text().map_err(Failure::Body)?));
    let text = match stop {
        None => body
            .await
            .map_err(|e| settle_failure(Failure::Body(e), &cancel.controller, signal))?,
        Some(mut stop) => stop.until(body).await?.map_err(Failure::Body)?,
    };
    cancel.done = true;
    Ok(Answer {
        http_status,
        text: text.dyn_into().unwrap_or_else(|_| JsString::from("")),
        retry_after,
    })
}

/// Sets the attempt's timer and listens to the caller's signal, both
/// aborting the attempt's controller (the timer with [`TIMED_OUT`]).
fn arm(
    cancel: &mut Cancel,
    timeout: Option<u32>,
    signal: Option<&AbortSignal>,
) -> Result<(), Failure> {
    if is_aborted(signal) {
        return Err(Failure::Aborted);
    }
    let abort: Function = Reflect::get(&cancel.controller, &"abort".into())
        .map_err(Failure::Fetch)?
        .unchecked_into();
    if let Some(ms) = timeout {
        let on_timeout = TIMED_OUT.with(|reason| abort.bind1(&cancel.controller, reason));
        cancel.armed.set_timer(&on_timeout.unchecked_into(), ms);
    }
    if let Some(signal) = signal {
        // With a reason of our own: bound without one, the event would be
        // the reason, and `fetch` would reject with something that is not an
        // `Error`, which gloo-net cannot take.
        let on_abort: Function = CALLER_ABORTED
            .with(|reason| abort.bind1(&cancel.controller, reason))
            .unchecked_into();
        cancel.armed.listen(signal, on_abort);
    }
    Ok(())
}

/// What a failure of the platform's `fetch` or body really was: the caller's
/// abort, the timer, or the failure itself.
fn settle_failure(
    failure: Failure,
    controller: &AbortController,
    signal: Option<&AbortSignal>,
) -> Failure {
    if is_aborted(signal) {
        return Failure::Aborted;
    }
    let reason = controller.signal().reason();
    if TIMED_OUT.with(|timed_out| *timed_out == reason) {
        return Failure::TimedOut;
    }
    failure
}

/// The platform's `fetch`, through gloo-net. The global is looked up per
/// call (a caller may replace it), and its absence is a `network` error.
async fn send(request: &Request) -> Result<gloo_net::http::Response, Failure> {
    let global_fetch = Reflect::get(&js_sys::global(), &"fetch".into()).map_err(Failure::Fetch)?;
    if !global_fetch.is_function() {
        return Err(Failure::Fetch(
            js_sys::TypeError::new("this platform has no global fetch").into(),
        ));
    }
    let raw = web_sys::Request::new_with_str_and_init(&request.url, &request.init)
        .map_err(Failure::Fetch)?;
    gloo_net::http::Request::from(raw)
        .send()
        .await
        .map_err(|error| Failure::Fetch(js_error(error)))
}

/// The caller's `fetch`, called unbound as `fetch(url, init)`. It may throw,
/// reject with anything, or resolve with anything: all of it is checked.
async fn call_fetch(
    fetch: &Function,
    request: &Request,
    stop: &mut Stop,
) -> Result<gloo_net::http::Response, Failure> {
    let returned = fetch
        .call2(
            &JsValue::UNDEFINED,
            &request.url.as_str().into(),
            &request.init,
        )
        .map_err(Failure::Fetch)?;
    let resolved = stop
        .until(JsFuture::from(Promise::resolve(&returned)))
        .await?
        .map_err(Failure::Fetch)?;
    let has_text = resolved.is_object()
        && Reflect::get(&resolved, &"text".into()).is_ok_and(|text| text.is_function());
    if !has_text {
        return Err(Failure::NotAResponse);
    }
    Ok(gloo_net::http::Response::from(
        resolved.unchecked_into::<web_sys::Response>(),
    ))
}

/// gloo-net's error as a JS `Error` (it keeps the platform error's name and
/// message, not the error itself).
fn js_error(error: gloo_net::Error) -> JsValue {
    match error {
        gloo_net::Error::JsError(error) => {
            let js = js_sys::Error::new(&error.message);
            js.set_name(&error.name);
            js.into()
        }
        other => js_sys::Error::new(&other.to_string()).into(),
    }
}

/// Why `fetch` failed, in a few words: the error's name and message, and
/// the code or message of its cause (Node's undici hides ECONNREFUSED
/// there). At most 300 characters.
pub fn failure_detail(cause: &JsValue) -> String {
    let mut text = match cause.dyn_ref::<js_sys::Error>() {
        Some(error) => format!(
            "{}: {}",
            String::from(error.name()),
            String::from(error.message())
        ),
        None => match cause.as_string() {
            Some(text) => text,
            None => crate::value::Value::of(cause).shown(),
        },
    };
    if cause.is_object() {
        let inner = Reflect::get(cause, &"cause".into()).unwrap_or(JsValue::UNDEFINED);
        if inner.is_truthy() {
            let read = |key: &str| {
                Reflect::get(&inner, &key.into())
                    .ok()
                    .and_then(|v| v.as_string())
            };
            let detail = read("code")
                .or_else(|| read("message"))
                .or_else(|| inner.as_string());
            if let Some(detail) = detail {
                text = format!("{text} ({detail})");
            }
        }
    }
    text.chars().take(300).collect()
}
