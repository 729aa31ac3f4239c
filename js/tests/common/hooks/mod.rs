//! The contract's "Hooks": how often each hook is called, with what, in
//! which order; the `delayMs` the client then really waits (the pause's
//! timer is armed with it, and at least that much time passes); the exact
//! counts for each fault scenario of the reference server; no hook after a
//! validation failure or an abort; a hook that throws (or rejects) changes
//! nothing; no credential reaches a hook; bad `hooks` are `validation`
//! errors with `param` `"hooks"`. Through the JS API (hooks written in JS,
//! in `helpers.js`): `calls.rs`, `faults.rs`, `credentials.rs`; through the
//! Rust API (closures): `rust_api.rs`. What a hook's answer changes is
//! `hook_changes.rs`. Here: the helpers they share.

mod calls;
mod credentials;
mod faults;
mod rust_api;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use user_management_client::{
    AttemptInfo, CallOptions, ClientOptions, Error, ErrorKind, HeaderList, Hooks, ListParams,
    Operation, ResponseInfo, RetryInfo, UsersClient as RustClient,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use super::*;

#[wasm_bindgen(module = "/tests/common/helpers.js")]
extern "C" {
    #[wasm_bindgen(js_name = recordingHooks)]
    fn recording_hooks(mode: &JsValue, abort_on_retry: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = hookCount)]
    fn hook_count(rec: &JsValue, name: &str) -> u32;
    #[wasm_bindgen(js_name = hookSequence)]
    fn hook_sequence(rec: &JsValue) -> String;
    #[wasm_bindgen(js_name = hookInfo)]
    fn hook_info(rec: &JsValue, name: &str, i: u32) -> JsValue;
    #[wasm_bindgen(js_name = hookTime)]
    fn hook_time(rec: &JsValue, name: &str, i: u32) -> f64;
    #[wasm_bindgen(js_name = infoHeader)]
    fn info_header(info: &JsValue, name: &str) -> JsValue;
    #[wasm_bindgen(js_name = everythingHooksSaw)]
    fn everything_hooks_saw(rec: &JsValue) -> String;
    #[wasm_bindgen(js_name = badHooks)]
    fn bad_hooks() -> js_sys::Array;
    #[wasm_bindgen(js_name = abortingInPause)]
    fn aborting_in_pause(controller: &JsValue, abort_ms: u32) -> JsValue;
    #[wasm_bindgen(js_name = pauseOver)]
    fn pause_over(rec: &JsValue) -> bool;
    fn handled(promise: Promise) -> Promise;
}

const BR: &str = "beforeRequest";
const AR: &str = "afterResponse";
const RT: &str = "beforeRetry";

/// JS hooks that record what they see (`helpers.js`, `recordingHooks`).
struct Rec(JsValue);

impl Rec {
    fn new() -> Rec {
        Rec(recording_hooks(&JsValue::UNDEFINED, &JsValue::UNDEFINED))
    }

    /// Hooks that record, then fail as `mode` says ("throw", "reject",
    /// "async", "then-throws").
    fn failing(mode: &str) -> Rec {
        Rec(recording_hooks(&mode.into(), &JsValue::UNDEFINED))
    }

    /// Hooks whose `beforeRetry` aborts `controller`.
    fn aborting(controller: &JsValue) -> Rec {
        Rec(recording_hooks(&JsValue::UNDEFINED, controller))
    }

    /// Hooks whose `beforeRetry` aborts `controller` `abort_ms` later, so
    /// inside a longer pause whatever the machine's load; see
    /// [`Rec::pause_over`].
    fn aborting_in_pause(controller: &JsValue, abort_ms: u32) -> Rec {
        Rec(aborting_in_pause(controller, abort_ms))
    }

    /// Whether a timer armed in `beforeRetry` with its `delayMs`, before
    /// the client armed its pause, has fired: whether the pause is over.
    fn pause_over(&self) -> bool {
        pause_over(&self.0)
    }

    fn hooks(&self) -> JsValue {
        get(&self.0, "hooks")
    }

    /// (beforeRequest, afterResponse, beforeRetry) call counts.
    fn counts(&self) -> (u32, u32, u32) {
        (
            hook_count(&self.0, BR),
            hook_count(&self.0, AR),
            hook_count(&self.0, RT),
        )
    }

    fn info(&self, name: &str, i: u32) -> JsValue {
        hook_info(&self.0, name, i)
    }

    fn time(&self, name: &str, i: u32) -> f64 {
        hook_time(&self.0, name, i)
    }

    /// `info.attempt` of every call of hook `name`, in order.
    fn attempts(&self, name: &str) -> Vec<f64> {
        (0..hook_count(&self.0, name))
            .map(|i| num(&self.info(name, i), "attempt"))
            .collect()
    }

    /// `httpStatus` of every `afterResponse`, in order.
    fn statuses(&self) -> Vec<f64> {
        (0..hook_count(&self.0, AR))
            .map(|i| num(&self.info(AR, i), "httpStatus"))
            .collect()
    }

    fn sequence(&self) -> String {
        hook_sequence(&self.0)
    }

    fn everything(&self) -> String {
        everything_hooks_saw(&self.0)
    }
}

fn num(v: &JsValue, key: &str) -> f64 {
    match get(v, key).as_f64() {
        Some(n) => n,
        None => panic!("{key} is not a number in {}", json(v)),
    }
}

fn text(v: &JsValue, key: &str) -> String {
    match get(v, key).as_string() {
        Some(s) => s,
        None => panic!("{key} is not a string in {}", json(v)),
    }
}

fn header_of(info: &JsValue, name: &str) -> Option<String> {
    info_header(info, name).as_string()
}

fn options(pairs: &[(&str, &JsValue)]) -> JsValue {
    obj(pairs)
}

/// A scripted answer with a status, a `Retry-After` (if any) and a body.
fn answer(status: u16, retry_after: Option<&str>, body: &str) -> String {
    let mut headers = r#""content-type":"application/json""#.to_string();
    if let Some(value) = retry_after {
        headers.push_str(&format!(r#","retry-after":"{value}""#));
    }
    format!(r#"{{"status":{status},"headers":{{{headers}}},"body":{body:?}}}"#)
}

fn ok_step(n: u64) -> String {
    format!(r#"{{"body":{:?}}}"#, count_body(n))
}

fn busy_body() -> String {
    r#"{"status":503,"result":{"error":"busy"}}"#.to_string()
}

/// `{base}/api/users/count` as the client writes it (one slash).
fn count_url(base: &str) -> String {
    format!("{}/api/users/count", base.trim_end_matches('/'))
}

/// Checks an `AttemptInfo` (or `ResponseInfo`) seen by a JS hook.
fn check_attempt_info(info: &JsValue, operation: &str, url: &str, attempt: f64) {
    assert_eq!(text(info, "operation"), operation, "{}", json(info));
    assert_eq!(text(info, "url"), url, "{}", json(info));
    assert_eq!(num(info, "attempt"), attempt, "{}", json(info));
    assert_eq!(
        header_of(info, "accept").as_deref(),
        Some("application/json"),
        "{}",
        json(info)
    );
}

/// Every timer armed through the global `setTimeout` from the first call
/// of [`armed_timers`] on: `[ms, Date.now()]` pairs, in order. The client
/// arms its pause before a retry this way, so a pause shows here with the
/// milliseconds it was armed with, whatever the machine's load.
fn armed_timers() -> js_sys::Array {
    thread_local! {
        static ARMED: js_sys::Array = {
            let armed = js_sys::Array::new();
            let install = js_sys::Function::new_with_args(
                "armed",
                "const original = globalThis.setTimeout;\n\
                 globalThis.setTimeout = function (handler, ms, ...rest) {\n\
                   armed.push([Number(ms), Date.now()]);\n\
                   return original.call(globalThis, handler, ms, ...rest);\n\
                 };",
            );
            install.call1(&JsValue::UNDEFINED, &armed).unwrap();
            armed
        };
    }
    ARMED.with(Clone::clone)
}

/// The milliseconds of the timers armed from `from` to `to` (`Date.now()`
/// values, both included), in order; see [`armed_timers`].
fn timers_armed_between(from: f64, to: f64) -> Vec<f64> {
    timers_armed_at(from, to)
        .into_iter()
        .map(|(ms, _)| ms)
        .collect()
}

/// The timers armed from `from` to `to` (`Date.now()` values, both
/// included), in order: each one's milliseconds and when it was armed.
fn timers_armed_at(from: f64, to: f64) -> Vec<(f64, f64)> {
    armed_timers()
        .iter()
        .map(|pair| js_sys::Array::from(&pair))
        .map(|pair| (pair.get(0).as_f64().unwrap(), pair.get(1).as_f64().unwrap()))
        .filter(|(_, at)| (from..=to).contains(at))
        .collect()
}

/// Checks that a pause of `delay` ms came between `retried_at` (a
/// `beforeRetry`) and `next_at` (the next `beforeRequest`): a timer armed
/// with it in between, and at least that much time passed (a busy machine
/// only makes it more).
fn check_wait(delay: f64, retried_at: f64, next_at: f64, what: &str) {
    let armed = timers_armed_between(retried_at, next_at);
    assert!(
        armed.contains(&delay.floor()),
        "{what}: delayMs {delay}, timers armed in the pause {armed:?}"
    );
    let waited = next_at - retried_at;
    assert!(
        waited >= delay - 5.0,
        "{what}: delayMs {delay}, waited {waited}"
    );
}

/// Checks the delays of a call's `beforeRetry`s against what the client
/// then really waited: from each `beforeRetry` to the next `beforeRequest`.
/// (The timers must be recorded from before the call: [`armed_timers`].)
fn check_waits(rec: &Rec, what: &str) {
    for i in 0..hook_count(&rec.0, RT) {
        let delay = num(&rec.info(RT, i), "delayMs");
        let what = format!("{what}, retry {i}");
        check_wait(delay, rec.time(RT, i), rec.time(BR, i + 1), &what);
    }
}

const TOKEN: &str = "s3cr3t-token-123";
const KEY: &str = "k3y-value-456";

fn secret_headers() -> JsValue {
    js(&format!(
        r#"{{"Authorization":"Bearer {TOKEN}","X-Api-Key":"{KEY}","X-Request-Id":"visible"}}"#
    ))
}

/// Every info `rec` holds: no secret, credentials shown as "[REDACTED]",
/// X-Request-Id as sent.
fn check_no_secret(rec: &Rec, what: &str) {
    let seen = rec.everything();
    assert!(!seen.is_empty(), "{what}: no hook was called");
    for secret in [TOKEN, KEY, "s3cr3t", "k3y-value"] {
        assert!(
            !seen.contains(secret),
            "{what}: a hook saw {secret}: {seen}"
        );
    }
    let (requests, responses, _) = rec.counts();
    for (name, n) in [(BR, requests), (AR, responses)] {
        for i in 0..n {
            let info = rec.info(name, i);
            for (header, shown) in [
                ("authorization", "[REDACTED]"),
                ("x-api-key", "[REDACTED]"),
                ("x-request-id", "visible"),
            ] {
                assert_eq!(
                    header_of(&info, header).as_deref(),
                    Some(shown),
                    "{what}: {name} {i}: {}",
                    json(&info)
                );
            }
        }
    }
}

/// The secrets did go out (so the test means something).
fn check_sent(fake: &JsValue) {
    let headers = get(&call(fake, 0), "headers");
    assert_eq!(
        get(&headers, "authorization").as_string(),
        Some(format!("Bearer {TOKEN}"))
    );
    assert_eq!(get(&headers, "x-api-key").as_string().as_deref(), Some(KEY));
}

/// The `timeoutMs` against `slow` (which answers after 30 s) and `stalled`
/// (whose body never ends): far longer than a request takes to reach the
/// server and its headers to come back on a busy machine, far shorter than
/// the stall. Two values, so that each scenario's timers can be told apart.
const SLOW_TIMEOUT: u32 = 1_500;
const STALLED_TIMEOUT: u32 = 1_600;
