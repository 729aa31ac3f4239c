//! One attempt of a call: send the request, wait for the response and its
//! whole body within the attempt's timeout, give up at once when the
//! caller's signal aborts, and cancel whatever is still in flight.
//!
//! The attempt is one step of `bridge.js` ([`bridge::attempt`]), awaited
//! once: it builds the request's init, arms the attempt's timer and the
//! caller's signal, calls `fetch` (the `fetch` option or, without it, the
//! global `fetch` looked up at each attempt, always as `fetch(url, init)`)
//! and reads the body under its limit, then tells how it ended. Where a
//! hook waits for the response's headers, it is two steps: the headers,
//! then the body. What `fetch` throws, rejects with or resolves to is
//! checked here: a replaced `globalThis.fetch` (a test suite's stub, a
//! polyfill) may resolve with anything or reject with something that is
//! not an `Error`. The timer and the signal end the attempt in JS, since a
//! replaced or custom `fetch` may ignore the request's signal and never
//! settle: the attempt then leaves nothing behind on its promise but JS
//! functions.
//!
//! The body stays a JS string, never copied into Rust: `JSON.parse` reads
//! it, and the rules read the few fields they need ([`bridge::take`]).

use js_sys::Function;
use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

use crate::error::Error;
use crate::host::provider::HeaderList;
use crate::rules::options::Bounds;
use crate::rules::retry::reads_retry_after;
use crate::transport::fetch::bridge::{self, response_headers, AttemptHandle};
use crate::transport::fetch::promise::{Settled, Watched, FULFILLED};
use crate::transport::fetch::request::{Headers, Request};
use crate::transport::fetch::wait::{ABORTED, TIMED_OUT};
use crate::transport::seam::Arrived;

/// How `bridge.js` tells that an attempt ended without an answer, beside
/// a rejection (`fetch` threw or rejected), [`TIMED_OUT`] and [`ABORTED`].
const TOO_LARGE: u32 = 4;
const NO_FETCH: u32 = 5;
const BODY_FAILED: u32 = 6;
const NOT_A_RESPONSE: u32 = 7;

/// The numbers [`bridge::take`] writes: the status, then the envelope's
/// view.
pub const VIEW: usize = 8;

/// A response that arrived, with its whole body.
pub struct Answer {
    /// The HTTP status.
    pub http_status: u16,
    /// The attempt, which holds the body's text.
    pub handle: AttemptHandle,
    /// The parsed body (`undefined` where it is not JSON).
    pub body: JsValue,
    /// What [`bridge::take`] read of it.
    pub view: [f64; VIEW],
    /// `Retry-After`, read only where the status is one that is retried.
    pub retry_after: Option<String>,
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

/// Ends the attempt when dropped before it told its end: the request is
/// aborted, also when the caller drops the call's future.
struct Cancel<'a> {
    handle: &'a AttemptHandle,
    done: bool,
}

impl Drop for Cancel<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.handle.cancel();
        }
    }
}

/// Runs one attempt of `request` with `headers` through `fetch` (the
/// global one for `None`): the timeout of `bounds` (0: none) covers the
/// response and its body, of which no more than the limit is read;
/// `signal` is the caller's; `arrived`, where given, is told the HTTP
/// status as soon as the response headers are there, with a way to read
/// them.
pub async fn attempt(
    request: &Request,
    headers: &Headers,
    fetch: Option<&Function>,
    bounds: Bounds,
    signal: Option<&AbortSignal>,
    arrived: Option<Arrived<'_>>,
) -> Result<Answer, Failure> {
    let (first, handle) = Watched::started(|slot, settle| {
        let early = arrived.is_some();
        start(request, headers, fetch, bounds, signal, early, slot, settle)
    });
    let mut cancel = Cancel {
        handle: &handle,
        done: false,
    };
    let mut settled = first.await;
    if let Some(arrived) = arrived {
        // An attempt that told its end needs no cancel; one whose answer
        // is no response does.
        cancel.done = settled.outcome != FULFILLED;
        let http_status = head(settled, &handle, bounds, &request.url)?;
        arrived(http_status, &|| headers_of(&handle));
        settled = Watched::new(|slot, _| handle.read(slot)).await;
    }
    cancel.done = true;
    drop(cancel);
    answer(settled, handle, bounds, &request.url)
}

/// Starts one attempt of `request` with `headers` through `fetch` (the
/// global one for `None`), which tells `settle(slot, outcome, value)`
/// how it ended (and first, where `early`, that the response's headers
/// arrived: [`head`], then [`AttemptHandle::read`] for the body): the
/// timeout of `bounds` (0: none) covers the response and its body, of
/// which no more than the limit is read; `signal` is the caller's.
#[allow(clippy::too_many_arguments)]
pub fn start(
    request: &Request,
    headers: &Headers,
    fetch: Option<&Function>,
    bounds: Bounds,
    signal: Option<&AbortSignal>,
    early: bool,
    slot: u32,
    settle: &JsValue,
) -> AttemptHandle {
    // As a JS number: exact up to 2^53 bytes, far past any body.
    let cap = bounds.max_body_bytes as f64;
    bridge::attempt(
        fetch,
        &request.href,
        &headers.lines,
        &request.body,
        request.credentials,
        bounds.left_ms,
        signal,
        cap,
        early,
        slot,
        settle,
    )
}

/// What the first word of an attempt started `early` says: the HTTP
/// status of the response whose headers arrived, or why it has none.
pub fn head(
    settled: Settled,
    handle: &AttemptHandle,
    bounds: Bounds,
    url: &str,
) -> Result<u16, Failure> {
    if settled.outcome != FULFILLED {
        return Err(failure(settled, handle, bounds, url));
    }
    http_status(handle.status(), handle)
}

/// What the last word of an attempt says: the response with its whole
/// body, or why it has none.
pub fn answer(
    settled: Settled,
    handle: AttemptHandle,
    bounds: Bounds,
    url: &str,
) -> Result<Answer, Failure> {
    if settled.outcome != FULFILLED {
        return Err(failure(settled, &handle, bounds, url));
    }
    let mut view = [0.0; VIEW];
    let body = bridge::take(&handle, &mut view);
    let http_status = http_status(view[0], &handle)?;
    // An answer from a caller's `fetch` may have no usable headers.
    let retry_after = if reads_retry_after(http_status) {
        bridge::retry_after(&handle)
            .ok()
            .and_then(|value| value.as_string())
    } else {
        None
    };
    Ok(Answer {
        http_status,
        handle,
        body,
        view,
        retry_after,
    })
}

/// The HTTP status of what `fetch` resolved with, given as `status`: a
/// `Response`'s, where it is a whole number from 100 to 599.
fn http_status(status: f64, handle: &AttemptHandle) -> Result<u16, Failure> {
    match status {
        s if (100.0..=599.0).contains(&s) && s.fract() == 0.0 => Ok(s as u16),
        _ => Err(Failure::NotAResponse(handle.response())),
    }
}

/// Why an attempt that told `settled` has no answer.
fn failure(settled: Settled, handle: &AttemptHandle, bounds: Bounds, url: &str) -> Failure {
    match settled.outcome {
        TIMED_OUT => Failure::Bound(bounds.timed_out(url)),
        ABORTED => Failure::Aborted,
        // A body was read only from what had a status: a `Response`'s, if
        // it is one.
        TOO_LARGE | BODY_FAILED => match http_status(handle.status(), handle) {
            Ok(http_status) if settled.outcome == TOO_LARGE => {
                Failure::Bound(bounds.too_large(http_status, url))
            }
            Ok(_) => Failure::Body(settled.value),
            Err(failure) => failure,
        },
        NO_FETCH => Failure::NoFetch,
        NOT_A_RESPONSE => Failure::NotAResponse(settled.value),
        // REJECTED: `fetch` threw or rejected.
        _ => Failure::Fetch(settled.value),
    }
}

/// A response's headers, names in lower case, as the platform lists them
/// (one call into JS: `name\nvalue\n...`). A response without headers it
/// can list (a caller's `fetch` may answer with a `Response`-like object)
/// has none.
pub fn headers_of(handle: &AttemptHandle) -> HeaderList {
    let text = response_headers(handle);
    let mut lines = text.split('\n');
    let mut list = HeaderList::new();
    while let (Some(name), Some(value)) = (lines.next(), lines.next()) {
        list.push((name.to_string(), value.to_string()));
    }
    list
}
