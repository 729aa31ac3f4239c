//! The fetch transport's JS side, `bridge.js`. Each of its steps is one
//! call into JS where the same through js-sys and web-sys would cross many
//! times: telling what a JS value is (a type check per kind), arming a
//! timer and a signal's listener and racing a promise against them (a bound
//! function, a registration and a `Promise.race` per stop), parsing a body
//! with the envelope's fields the rules read (a read and a check per
//! field), reading a response's status and `Retry-After`, building a
//! request's init (a setter per field) and reading a body under its limit
//! (a read per chunk). What
//! is sent, how long an attempt lasts and what a body may be stay rules in
//! Rust; this only builds, waits and reads.

use js_sys::{JsString, Promise};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use web_sys::{AbortController, AbortSignal, RequestInit, Response};

// wasm-bindgen reads the file when this crate compiles; naming it here too
// makes cargo compile again when it changes.
const _: &str = include_str!("bridge.js");

#[wasm_bindgen(module = "/src/transport/fetch/bridge.js")]
extern "C" {
    /// What a JS value is, as a number: 0 `undefined`, 1 `null`, 2 a
    /// boolean, 3 a number, 4 a string, 5 a function, 6 a symbol, 7 a
    /// bigint, 8 an array, 9 a plain object, 10 any other object; an
    /// error for a revoked proxy.
    #[wasm_bindgen(catch)]
    pub fn kind(value: &JsValue) -> Result<u8, JsValue>;

    /// `JSON.parse` of a body, which stays a JS string (js-sys's takes a
    /// `&str`, which would copy a body of many megabytes into Rust and
    /// back), with what the envelope rules read of it written to `view`
    /// in the same call: the body's kind (as [`kind`] numbers it), whether
    /// it has `result` (1 or 0), `status`'s kind and value, `result`'s
    /// kind, and `result.totalUsers`'s kind and value. A kind is -1 where
    /// it was not read; a value is NaN unless its kind is a boolean or a
    /// number.
    #[wasm_bindgen(js_name = parseEnvelope, catch)]
    pub fn parse_envelope(text: &JsString, view: &mut [f64]) -> Result<JsValue, JsValue>;

    /// The status of what `fetch` resolved with, if it is a `Response` (an
    /// object with a `text()` method and a number `status`), else NaN.
    #[wasm_bindgen(catch)]
    pub fn status(response: &JsValue) -> Result<f64, JsValue>;

    /// A response's headers as `name\nvalue\n...`, names in lower case
    /// (empty where it has none it can list).
    #[wasm_bindgen(js_name = responseHeaders)]
    pub fn response_headers(response: &Response) -> String;

    /// A response's `Retry-After`, if it has one it can tell.
    #[wasm_bindgen(js_name = retryAfter, catch)]
    pub fn retry_after(response: &Response) -> Result<JsValue, JsValue>;

    /// A stop: a promise that rejects with `timed_out` after `ms` (`None`:
    /// no timer) or with `aborted` when `signal` aborts (at once if it
    /// has). It must be waited on at once.
    pub fn stop(
        ms: Option<u32>,
        signal: Option<&AbortSignal>,
        timed_out: &JsValue,
        aborted: &JsValue,
    ) -> StopPromise;

    /// What [`stop`] makes: a promise with three methods.
    #[wasm_bindgen(extends = Promise)]
    pub type StopPromise;

    /// Races `work` against the stop, then calls `settle(slot, fulfilled,
    /// value)` with the outcome.
    #[wasm_bindgen(method)]
    pub fn race(this: &StopPromise, work: &JsValue, slot: u32, settle: &JsValue);

    /// Waits for the stop, then calls `settle(slot, fulfilled, value)`
    /// with the outcome.
    #[wasm_bindgen(method)]
    pub fn watch(this: &StopPromise, slot: u32, settle: &JsValue);

    /// Resolves the stop with `undefined`, and clears its timer and its
    /// listener.
    #[wasm_bindgen(method)]
    pub fn end(this: &StopPromise);

    /// A POST's init: `headers` (`name\nvalue\nname\nvalue...`) as an
    /// array of pairs, and `body` and `credentials` unless `undefined`.
    #[wasm_bindgen(js_name = requestInit)]
    pub fn request_init(headers: &str, body: &JsValue, credentials: Option<&str>) -> RequestInit;

    /// A new `AbortController`, whose signal `init` now carries.
    #[wasm_bindgen(catch)]
    pub fn controlled(init: &RequestInit) -> Result<AbortController, JsValue>;

    /// The body's text, holding no more than `cap` bytes and one chunk (0:
    /// no cap); it rejects with `too_large` once its `Content-Length` or
    /// the bytes that arrive pass the cap.
    #[wasm_bindgen(js_name = readCapped)]
    pub fn read_capped(response: &Response, cap: f64, too_large: &JsValue) -> Promise;
}
