//! The one wasm test suite, run twice: by `tests/node.rs` in Node and by
//! `tests/browser.rs` in headless Chromium (the serde-wasm-bindgen layout).
//! One file per part of the contract; shared helpers here.
//!
//! Tests that need the reference server read its URL from `USERS_API_URL`
//! at compile time (`make test` starts the server and sets it); the others
//! use a scripted fake `fetch` from `helpers.js`, which also records what
//! was sent, so validation tests can prove nothing was.

#![allow(dead_code)]

use js_sys::{Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

pub use user_management_client_js::{
    count_users, is_retryable, list_users, JsUsersClient as UsersClient,
};

mod deadline;
mod faults;
mod hook_changes;
mod hooks;
mod hostile;
mod idioms;
mod never_settles;
mod pages;
mod requests;
mod responses;
mod retries;
mod retry_policy;
mod rust_api;
mod secrets;
mod traps;
mod validation;

#[wasm_bindgen(module = "/tests/common/helpers.js")]
extern "C" {
    #[wasm_bindgen(js_name = fakeFetch)]
    pub fn fake_fetch(script: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = capturingReports)]
    pub fn capturing_reports() -> JsValue;
    #[wasm_bindgen(js_name = reportedMessages)]
    pub fn reported_messages(capture: &JsValue) -> String;
    #[wasm_bindgen(js_name = restoreReports)]
    pub fn restore_reports(capture: &JsValue);
    #[wasm_bindgen(js_name = fetchQuotingTheUrl)]
    pub fn fetch_quoting_the_url() -> JsValue;
    #[wasm_bindgen(js_name = classInstance)]
    pub fn class_instance() -> JsValue;
    #[wasm_bindgen(js_name = nullPrototypeParams)]
    pub fn null_prototype_params() -> JsValue;
    /// A function that returns `value` (a hook's answer).
    pub fn returning(value: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = callCount)]
    pub fn call_count(fake: &JsValue) -> u32;
    pub fn call(fake: &JsValue, i: u32) -> JsValue;
    #[wasm_bindgen(js_name = callSignalAborted)]
    pub fn call_signal_aborted(fake: &JsValue, i: u32) -> bool;
    #[wasm_bindgen(js_name = bigText)]
    pub fn big_text(n: u32) -> JsValue;
    pub fn json(v: &JsValue) -> String;
    pub fn parse(text: &str) -> JsValue;
    #[wasm_bindgen(js_name = describeError)]
    pub fn describe_error(err: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = queryOf)]
    pub fn query_of(url: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = formOf)]
    pub fn form_of(body: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = rawCount)]
    pub fn raw_count(base_url: &str, params: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = abortController)]
    pub fn abort_controller() -> JsValue;
    #[wasm_bindgen(js_name = abortedSignal)]
    pub fn aborted_signal() -> JsValue;
    #[wasm_bindgen(js_name = abortLater)]
    pub fn abort_later(controller: &JsValue, ms: u32);
    pub fn sleep(ms: u32) -> Promise;
    pub fn now() -> f64;
    #[wasm_bindgen(js_name = monotonicNow)]
    pub fn monotonic_now() -> f64;
    #[wasm_bindgen(js_name = wallClockJumpsBack)]
    pub fn wall_clock_jumps_back(after_ms: u32, by_ms: f64) -> js_sys::Function;
    #[wasm_bindgen(js_name = settlesBefore)]
    fn settles_before_timer(promise: &Promise, ms: u32) -> Promise;
    #[wasm_bindgen(js_name = countingProvider)]
    pub fn counting_provider(headers: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = providerCount)]
    pub fn provider_count(p: &JsValue) -> u32;
    #[wasm_bindgen(js_name = hangingProvider)]
    pub fn hanging_provider() -> JsValue;
    #[wasm_bindgen(js_name = countedHanging)]
    pub fn counted_hanging() -> JsValue;
    #[wasm_bindgen(js_name = seenError)]
    pub fn seen_error(hook: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = slowProvider)]
    pub fn slow_provider(ms: u32) -> JsValue;
    #[wasm_bindgen(js_name = neverSettling)]
    pub fn never_settling(never: &str) -> JsValue;
    #[wasm_bindgen(js_name = hostileParams)]
    pub fn hostile_params() -> JsValue;
    #[wasm_bindgen(js_name = protoKeyObject)]
    pub fn proto_key_object() -> JsValue;
    #[wasm_bindgen(js_name = loneSurrogate)]
    pub fn lone_surrogate() -> JsValue;
    #[wasm_bindgen(js_name = httpDate)]
    pub fn http_date(ms_from_now: f64) -> String;
    #[wasm_bindgen(js_name = hostileCases)]
    pub fn hostile_cases() -> js_sys::Array;
    #[wasm_bindgen(js_name = attemptsOf)]
    pub fn attempts_of(base: &str) -> Promise;
    #[wasm_bindgen(js_name = uniqueKey)]
    pub fn unique_key() -> String;
}

/// The reference server's URL, compiled in by `make test`.
pub fn server() -> &'static str {
    match option_env!("USERS_API_URL") {
        Some(url) => url,
        None => panic!("USERS_API_URL is not set: run the suite through `make test`"),
    }
}

/// A base URL for the fake fetch; nothing listens there.
pub const FAKE: &str = "http://fake.invalid:8080/prefix/";

/// JS from JSON text.
pub fn js(json_text: &str) -> JsValue {
    parse(json_text)
}

/// A JS object from pairs (for values JSON cannot write: functions, signals).
pub fn obj(pairs: &[(&str, &JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &JsValue::from_str(k), v).unwrap();
    }
    o.into()
}

pub fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap()
}

/// A fake fetch scripted by JSON steps (see helpers.js).
pub fn scripted(script: &str) -> JsValue {
    fake_fetch(&js(script))
}

/// The fake's `fetch` function, as an options object (plus `extra`).
pub fn with_fake(fake: &JsValue, extra: &[(&str, &JsValue)]) -> JsValue {
    let fetch = get(fake, "fetch");
    let mut pairs = vec![("fetch", &fetch)];
    pairs.extend_from_slice(extra);
    obj(&pairs)
}

/// A good count envelope body.
pub fn count_body(n: u64) -> String {
    format!(r#"{{"status":200,"result":{{"totalUsers":{n}}}}}"#)
}

pub async fn resolves(promise: Promise) -> JsValue {
    match JsFuture::from(promise).await {
        Ok(v) => v,
        Err(e) => panic!("expected success, got {}", json(&describe_error(&e))),
    }
}

/// What a rejected call's `UsersApiError` says.
pub struct Rejection {
    pub kind: String,
    pub param: Option<String>,
    pub status: Option<f64>,
    pub http_status: Option<f64>,
    pub body: JsValue,
    pub message: String,
    pub everything: String,
    pub raw: JsValue,
}

pub async fn rejects(promise: Promise) -> Rejection {
    let err = match JsFuture::from(promise).await {
        Ok(v) => panic!("expected a rejection, got {}", json(&v)),
        Err(e) => e,
    };
    let d = describe_error(&err);
    assert_eq!(get(&d, "isError"), JsValue::TRUE, "not an Error");
    assert_eq!(
        get(&d, "className").as_string().as_deref(),
        Some("UsersApiError")
    );
    assert_eq!(
        get(&d, "name").as_string().as_deref(),
        Some("UsersApiError")
    );
    Rejection {
        kind: get(&d, "kind").as_string().unwrap_or_default(),
        param: get(&d, "param").as_string(),
        status: get(&d, "status").as_f64(),
        http_status: get(&d, "httpStatus").as_f64(),
        body: get(&d, "body"),
        message: get(&d, "message").as_string().unwrap_or_default(),
        everything: get(&d, "everything").as_string().unwrap_or_default(),
        raw: err,
    }
}

/// A base URL for the fault `scenario` of the reference server (`--faults`),
/// with a key of its own for counting attempts.
pub fn fault(scenario: &str) -> String {
    format!("{}/faults/{scenario}/{}", server(), unique_key())
}

/// Whether `promise` settles before a timer of `ms` armed now fires (not
/// a wall-clock bound: timers fire in deadline order, so a client whose own
/// timer is due much earlier always wins, however busy the machine).
pub async fn settles_before(promise: &Promise, ms: u32) -> bool {
    JsFuture::from(settles_before_timer(promise, ms))
        .await
        .unwrap()
        .as_bool()
        .unwrap()
}

/// Waits until the fault server has received `n` requests for `base`.
pub async fn received(base: &str, n: f64) {
    while attempts(base).await < n {
        JsFuture::from(sleep(10)).await.unwrap();
    }
}

/// How many requests the fault server received for `base`.
pub async fn attempts(base: &str) -> f64 {
    JsFuture::from(attempts_of(base))
        .await
        .unwrap()
        .as_f64()
        .unwrap()
}

/// After any failure the module must still work: a good call against the
/// real server.
pub async fn good_call_still_works() {
    let truth = JsFuture::from(raw_count(server(), &js("{}")))
        .await
        .unwrap();
    let got = resolves(count_users(
        server().into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ))
    .await;
    assert_eq!(get(&get(&got, "result"), "totalUsers"), truth);
}

/// A count against the fake with `params` and `options` (fetch added).
pub fn fake_count(fake: &JsValue, params: &str, extra: &[(&str, &JsValue)]) -> Promise {
    count_users(FAKE.into(), js(params), with_fake(fake, extra))
}
