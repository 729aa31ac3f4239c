//! One attempt of a call: send the request, wait for the response and its
//! whole body within the attempt's timeout, give up at once when the
//! caller's signal aborts, and cancel whatever is still in flight.
//!
//! The `fetch` called is the `fetch` option or, without it, the global
//! `fetch` looked up at each attempt, always as `fetch(url, init)`; what it
//! throws, rejects with or resolves to is checked here, and the answer is
//! read as a `web_sys::Response`, never trusted to be one: a replaced
//! `globalThis.fetch` (a test suite's stub, a polyfill) may resolve with
//! anything or reject with something that is not an `Error`. Each wait is
//! a [`Stop::race`] in JS against the attempt's timer and the caller's
//! signal, since a replaced or custom `fetch` may ignore the request's
//! signal and never settle: the attempt then leaves nothing behind on its
//! promise but JS functions.
//!
//! The body is read as a JS string and never copied into Rust: the answer
//! module hands it to `JSON.parse`. It is read under its limit by
//! [`read_capped`](crate::transport::fetch::bridge::read_capped).

use js_sys::{Function, JsString, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{AbortController, AbortSignal};

use crate::error::Error;
use crate::host::provider::HeaderList;
use crate::rules::options::Bounds;
use crate::rules::retry::is_retryable_status;
use crate::transport::fetch::bridge::{
    controlled, read_capped, response_headers, retry_after, status,
};
use crate::transport::fetch::request::{Headers, Request};
use crate::transport::fetch::wait::{is_aborted, Stop, Stopped};

/// A response that arrived, with its whole body.
pub struct Answer {
    /// The HTTP status.
    pub http_status: u16,
    /// The body.
    pub text: JsString,
    /// `Retry-After`, read only where the status is one that is retried.
    pub retry_after: Option<String>,
}

thread_local! {
    // What a body's read rejects with when the body is over its limit: an
    // object of the module's own, which no body can reject with.
    static TOO_LARGE: JsValue = js_sys::Object::new().into();
}

/// Why an attempt has no answer.
pub enum Failure {
    /// The caller's signal aborted.
    Aborted,
    /// `fetch` failed; the JS error.
    Fetch(JsValue),
    /// Reading the body failed; the JS error.
    Body(JsValue),
    /// The host has no global `fetch` (and no `fetch` option was given).
    NoFetch,
    /// `fetch` resolved with this, which is not a `Response`.
    NotAResponse(JsValue),
    /// A bound of the attempt passed (its timeout, its body limit): the
    /// rules' error.
    Bound(Error),
}

/// Aborts the attempt's controller when dropped, unless the body arrived
/// whole: whatever is still in flight is cancelled, also when the caller
/// drops the call's future. (Not after a whole body: `abort()` builds a
/// `DOMException`, a cost per call, and there is nothing left to cancel.)
struct Cancel {
    controller: AbortController,
    done: bool,
}

impl Drop for Cancel {
    fn drop(&mut self) {
        if !self.done {
            self.controller.abort();
        }
    }
}

/// Runs one attempt of `request` with `headers` through `fetch` (the
/// global one for `None`): the timeout of `bounds` (0: none) covers the
/// response and its body, of which no more than the limit is read;
/// `signal` is the caller's; `arrived` is told the HTTP status as soon as
/// the response headers are there, with a way to read them.
pub async fn attempt(
    request: &Request,
    headers: &Headers,
    fetch: Option<&Function>,
    bounds: Bounds,
    signal: Option<&AbortSignal>,
    arrived: &dyn Fn(u16, &dyn Fn() -> HeaderList),
) -> Result<Answer, Failure> {
    if is_aborted(signal) {
        return Err(Failure::Aborted);
    }
    let global;
    let fetch = match fetch {
        Some(fetch) => fetch,
        None => {
            global = global_fetch()?;
            &global
        }
    };
    let init = request.init(headers);
    let controller = controlled(&init).map_err(Failure::Fetch)?;
    let mut cancel = Cancel {
        controller,
        done: false,
    };
    let stop = Stop::new((bounds.timeout_ms > 0).then_some(bounds.timeout_ms), signal);
    let stopped = |stopped: Stopped| match stopped {
        Stopped::TimedOut => Failure::Bound(bounds.timed_out(&request.url)),
        Stopped::Aborted => Failure::Aborted,
    };
    // `fetch(url, init)`, unbound. It may throw, reject with anything, or
    // resolve with anything: all of it is checked.
    let returned = fetch
        .call2(&JsValue::UNDEFINED, &request.url.as_str().into(), &init)
        .map_err(Failure::Fetch)?;
    let raw = stop
        .race(&returned)
        .await
        .map_err(stopped)?
        .map_err(Failure::Fetch)?;
    let http_status = match status(&raw) {
        Ok(s) if (100.0..=599.0).contains(&s) && s.fract() == 0.0 => s as u16,
        _ => return Err(Failure::NotAResponse(raw)),
    };
    let raw: web_sys::Response = raw.unchecked_into();
    arrived(http_status, &|| headers_of(&raw));
    // An answer from a caller's `fetch` may have no usable headers.
    let retry_after = if is_retryable_status(http_status) {
        retry_after(&raw).ok().and_then(|value| value.as_string())
    } else {
        None
    };
    // As a JS number: exact up to 2^53 bytes, far past any body.
    let cap = bounds.max_body_bytes as f64;
    let body = TOO_LARGE.with(|too_large| read_capped(&raw, cap, too_large));
    let text = stop.race(&body).await.map_err(stopped)?.map_err(|error| {
        if TOO_LARGE.with(|too_large| error == *too_large) {
            Failure::Bound(bounds.too_large(http_status, &request.url))
        } else {
            Failure::Body(error)
        }
    })?;
    cancel.done = true;
    Ok(Answer {
        http_status,
        text: text.dyn_into().unwrap_or_else(|_| JsString::from("")),
        retry_after,
    })
}

/// The global `fetch`, looked up per attempt (a caller may replace it).
fn global_fetch() -> Result<Function, Failure> {
    Reflect::get(&js_sys::global(), &"fetch".into())
        .ok()
        .and_then(|global| global.dyn_into().ok())
        .ok_or(Failure::NoFetch)
}

/// A response's headers, names in lower case, as the platform lists them
/// (one call into JS: `name\nvalue\n...`). A response without headers it
/// can list (a caller's `fetch` may answer with a `Response`-like object)
/// has none.
fn headers_of(response: &web_sys::Response) -> HeaderList {
    let text = response_headers(response);
    let mut lines = text.split('\n');
    let mut list = HeaderList::new();
    while let (Some(name), Some(value)) = (lines.next(), lines.next()) {
        list.push((name.to_string(), value.to_string()));
    }
    list
}
