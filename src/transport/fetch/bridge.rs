//! The fetch transport's JS side, `bridge.js`. Each of its steps is one
//! call into JS where the same through js-sys and web-sys would cross many
//! times: an attempt from its request to its body (building the request's
//! init, arming its timer and the caller's signal, calling `fetch`, reading
//! the body under its limit: one call, and one outcome told back), the
//! envelope's fields the rules read (a read and a check per field), what a
//! JS value is (a type check per kind), and a stop for the waits between
//! attempts (a timer and a signal's listener, and a `Promise.race`). What
//! is sent, how long an attempt lasts, what a body may be and what an
//! answer means stay rules in Rust; this only builds, waits and reads.

use js_sys::{Function, JsString, Promise};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

// wasm-bindgen reads the file when this crate compiles; naming it here too
// makes cargo compile again when it changes.
const _: &str = include_str!("bridge.js");

#[wasm_bindgen(module = "/src/transport/fetch/bridge.js")]
extern "C" {
    /// What a JS value is, as a number: 0 `undefined`, 1 `null`, 2 a
    /// boolean, 3 a number, 4 a string, 5 a function, 6 a symbol, 7 a
    /// bigint, 8 an array, 9 a plain object, 10 any other object, 11 an
    /// instance of a class; an error for a revoked proxy.
    #[wasm_bindgen(catch)]
    pub fn kind(value: &JsValue) -> Result<u8, JsValue>;

    /// The own enumerable entries of `value` as one flat array (key,
    /// value, ...), each getter run once, where it is a plain object or
    /// of the kind `also` (a class's instance, an array); else `undefined`. `view`
    /// gets the value's kind, the number of entries, then for each entry
    /// that fits the index of
    /// its key among `known` (`\n`-separated; -1 for another), its value's
    /// kind, and the value where it is a boolean or a number (NaN where
    /// not read). An error where `Object.keys` or a getter threw.
    #[wasm_bindgen(catch)]
    pub fn entries(
        value: &JsValue,
        known: &str,
        also: u8,
        view: &mut [f64],
    ) -> Result<JsValue, JsValue>;

    /// A stop: a promise that rejects after `ms` (`None`: no timer) or
    /// when `signal` aborts (at once if it has). It must be waited on at
    /// once.
    pub fn stop(ms: Option<u32>, signal: Option<&AbortSignal>) -> StopPromise;

    /// What [`stop`] makes: a promise with three methods.
    #[wasm_bindgen(extends = Promise)]
    pub type StopPromise;

    /// Races `work` against the stop, then calls `settle(slot, outcome,
    /// value)`: fulfilled or rejected with what `work` came to, else
    /// `TIMED_OUT` or `ABORTED`.
    #[wasm_bindgen(method)]
    pub fn race(this: &StopPromise, work: &JsValue, slot: u32, settle: &JsValue);

    /// Waits for the stop, then calls `settle(slot, outcome, value)`.
    #[wasm_bindgen(method)]
    pub fn watch(this: &StopPromise, slot: u32, settle: &JsValue);

    /// Resolves the stop with `undefined`, and clears its timer and its
    /// listener.
    #[wasm_bindgen(method)]
    pub fn end(this: &StopPromise);

    /// One attempt: `fetch(url, init)` (the global `fetch` for `None`), the
    /// init a POST with `headers` (`name\nvalue\n...`), `body` and
    /// `credentials` unless `undefined`, and a signal of its own; it ends
    /// after `ms` (0: no timer) or when `signal` aborts, and reads no more
    /// of the body than `cap` bytes (0: no cap). It calls `settle(slot,
    /// outcome, value)` once the body is there or the attempt failed, and
    /// first with the handle when the headers arrive if `early` (then
    /// [`AttemptHandle::read`] goes on to the body).
    #[allow(clippy::too_many_arguments)]
    pub fn attempt(
        fetch: Option<&Function>,
        url: &JsString,
        headers: &str,
        body: &JsValue,
        credentials: Option<&str>,
        ms: u32,
        signal: Option<&AbortSignal>,
        cap: f64,
        early: bool,
        slot: u32,
        settle: &JsValue,
    ) -> AttemptHandle;

    /// What `attempt` returns: the attempt, while it runs and after.
    pub type AttemptHandle;

    /// The response's status, once it arrived (NaN where what `fetch`
    /// resolved with has no number status).
    #[wasm_bindgen(method, getter)]
    pub fn status(this: &AttemptHandle) -> f64;

    /// The body's text, once it was read.
    #[wasm_bindgen(method, getter)]
    pub fn text(this: &AttemptHandle) -> JsString;

    /// What `fetch` resolved with.
    #[wasm_bindgen(method, getter)]
    pub fn response(this: &AttemptHandle) -> JsValue;

    /// Goes on to the body of an attempt made `early`, telling `slot`.
    #[wasm_bindgen(method)]
    pub fn read(this: &AttemptHandle, slot: u32);

    /// Ends an attempt no one waits for any more: the request is aborted.
    #[wasm_bindgen(method)]
    pub fn cancel(this: &AttemptHandle);

    /// The parsed body of an attempt that read one (`undefined` where it is
    /// not JSON), with `view` filled: the status, then what the envelope
    /// rules read of the body: its kind (as [`kind`] numbers it; -1 when
    /// not JSON), whether it has `result` (1 or 0), `status`'s kind and
    /// value, `result`'s kind, and `result.totalUsers`'s kind and value. A
    /// kind is -1 where it was not read; a value is NaN unless its kind is
    /// a boolean or a number.
    pub fn take(handle: &AttemptHandle, view: &mut [f64]) -> JsValue;

    /// The response's headers as `name\nvalue\n...`, names in lower case
    /// (empty where it has none it can list).
    #[wasm_bindgen(js_name = responseHeaders)]
    pub fn response_headers(handle: &AttemptHandle) -> String;

    /// The response's `Retry-After`, if it has one it can tell.
    #[wasm_bindgen(js_name = retryAfter, catch)]
    pub fn retry_after(handle: &AttemptHandle) -> Result<JsValue, JsValue>;
}
