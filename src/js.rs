//! Bindings to the JS the client uses, declared by hand rather than through
//! `web-sys`, so that only what is used is generated and every call that
//! touches a caller's value can `catch` (a JS exception unwinding through
//! wasm would abandon Rust state mid-way).
//!
//! Globals are looked up when called (`URL`, `JSON`, ...), so the same
//! module works in browsers, Node >= 18, Deno and workerd, none of which need
//! a `window`.

use crate::prelude::*;
use js_sys::{Array, JsString, Promise};
use wasm_bindgen::prelude::*;

use crate::value::Value;

#[wasm_bindgen(module = "/js/snippet.js")]
extern "C" {
    /// `new UsersApiError(...)`; see `error.rs`.
    #[wasm_bindgen(js_name = newUsersApiError)]
    pub fn new_users_api_error(
        kind: &str,
        message: &str,
        param: &JsValue,
        status: &JsValue,
        http_status: &JsValue,
        body: &JsValue,
        cause: &JsValue,
        secrets: &str,
    ) -> JsValue;

    /// The first 65,536 UTF-16 units of a body's text, not splitting a
    /// surrogate pair.
    #[wasm_bindgen(js_name = cutBody)]
    pub fn cut_body(text: &JsString) -> JsString;

    #[wasm_bindgen(js_name = typeCode)]
    fn type_code(value: &JsValue) -> u8;

    /// Whether a string has no lone surrogate.
    #[wasm_bindgen(js_name = isWellFormed)]
    pub fn is_well_formed(value: &JsValue) -> bool;

    /// Why `fetch` failed, in a few words (its message and its cause's code).
    #[wasm_bindgen(js_name = failureDetail)]
    pub fn failure_detail(error: &JsValue) -> String;

    /// Whether a value looks like an `AbortSignal`.
    #[wasm_bindgen(js_name = isAbortSignal, catch)]
    pub fn is_abort_signal(value: &JsValue) -> Result<bool, JsValue>;

    /// `JSON.parse`, or `undefined` for what is not JSON.
    #[wasm_bindgen(js_name = parseJson)]
    pub fn parse_json(text: &JsValue) -> JsValue;

    /// `[status, "result" in body, result, result.totalUsers]` of a parsed
    /// object.
    #[wasm_bindgen(js_name = envelopeFields)]
    pub fn envelope_fields(body: &JsValue) -> Array;

    /// `[a, b]` (cheaper than `Array.of`).
    pub fn pair(a: &JsValue, b: &JsValue) -> JsValue;

    /// `[[name, value], ...]` from `"name\nvalue\nname\nvalue"` (header
    /// names and values cannot hold a line feed): one crossing for all.
    #[wasm_bindgen(js_name = headerList)]
    pub fn header_list(lines: &str) -> JsValue;

    /// The `RequestInit` of a POST; `undefined` members count as absent.
    #[wasm_bindgen(js_name = requestInit)]
    pub fn request_init(headers: &JsValue, body: &JsValue, credentials: &JsValue) -> JsValue;

    /// Runs a checked call to the end: fetch, timeout, abort, retries
    /// (see `js/snippet.js`). Never throws: the promise settles.
    pub fn drive(
        call: crate::call::Call,
        signal: &JsValue,
        provider: &JsValue,
        fetch: &JsValue,
        timeout_ms: JsValue,
    ) -> Promise;
}

#[wasm_bindgen]
extern "C" {
    /// `Object.keys`.
    #[wasm_bindgen(js_namespace = Object, js_name = keys, catch)]
    pub fn object_keys(value: &JsValue) -> Result<Array, JsValue>;

    /// `Reflect.set` on an object this module made: cannot throw, so no
    /// `catch` (which costs a wrapper per call).
    #[wasm_bindgen(js_namespace = Reflect, js_name = set)]
    pub fn set(target: &js_sys::Object, key: &JsValue, value: &JsValue) -> bool;

    /// `Date.now()`.
    #[wasm_bindgen(js_namespace = Date, js_name = now)]
    pub fn now() -> f64;

    /// `Math.random()`.
    #[wasm_bindgen(js_namespace = Math, js_name = random)]
    pub fn random() -> f64;

    /// `JSON.stringify`, which throws on a bigint or a cycle.
    #[wasm_bindgen(js_namespace = JSON, js_name = stringify, catch)]
    pub fn json_stringify(value: &JsValue) -> Result<JsValue, JsValue>;

    /// The platform's `URL`.
    #[wasm_bindgen(js_name = URL)]
    pub type Url;
    /// `new URL(text)`; throws on what is not a URL.
    #[wasm_bindgen(constructor, js_class = URL, catch)]
    pub fn new(text: &str) -> Result<Url, JsValue>;
    /// The normalised URL.
    #[wasm_bindgen(method, getter)]
    pub fn href(this: &Url) -> String;
    /// Its query parameters, live.
    #[wasm_bindgen(method, getter, js_name = searchParams)]
    pub fn search_params(this: &Url) -> UrlSearchParams;

    /// The platform's `URLSearchParams`.
    #[wasm_bindgen(js_name = URLSearchParams)]
    pub type UrlSearchParams;
    /// An empty one.
    #[wasm_bindgen(constructor, js_class = URLSearchParams)]
    pub fn new() -> UrlSearchParams;
    /// `append(name, value)`; the value is converted with `String()`.
    #[wasm_bindgen(method)]
    pub fn append(this: &UrlSearchParams, name: &JsValue, value: &JsValue);
    /// The `application/x-www-form-urlencoded` serialisation.
    #[wasm_bindgen(method, js_name = toString)]
    pub fn serialize(this: &UrlSearchParams) -> String;

    /// The caller's signal.
    pub type SignalLike;
    /// `signal.aborted`.
    #[wasm_bindgen(method, getter, catch)]
    pub fn aborted(this: &SignalLike) -> Result<bool, JsValue>;
    /// `signal.reason`.
    #[wasm_bindgen(method, getter)]
    pub fn reason(this: &SignalLike) -> JsValue;
}

/// The Rust picture of a JS value. Reading a string copies it.
pub fn value_of(value: &JsValue) -> Value {
    match type_code(value) {
        0 => Value::Undefined,
        1 => Value::Null,
        2 => Value::Bool(value.as_bool().unwrap_or(false)),
        3 => Value::Number(value.as_f64().unwrap_or(f64::NAN)),
        4 => Value::Str(value.as_string().unwrap_or_default()),
        5 => Value::Array,
        6 => Value::Function,
        7 => Value::Object,
        8 => Value::Other("symbol"),
        9 => Value::Other("bigint"),
        _ => Value::Other("non-plain object"),
    }
}

/// The own enumerable keys of an object and their values, in order.
pub fn entries(object: &JsValue) -> Result<Vec<(String, JsValue)>, JsValue> {
    Ok(keyed_entries(object)?
        .into_iter()
        .map(|(_, key, value)| (key, value))
        .collect())
}

/// Like [`entries`], keeping each key as the JS string too (sending a
/// Rust string back to JS decodes it again).
pub fn keyed_entries(object: &JsValue) -> Result<Vec<(JsValue, String, JsValue)>, JsValue> {
    let keys = object_keys(object)?;
    let mut entries = Vec::with_capacity(keys.length() as usize);
    for key in keys.iter() {
        let value = js_sys::Reflect::get(object, &key)?;
        let text = key.as_string().unwrap_or_default();
        entries.push((key, text, value));
    }
    Ok(entries)
}
