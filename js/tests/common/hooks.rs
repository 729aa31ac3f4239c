//! The contract's "Hooks (observers)": how often each hook is called, with
//! what, in which order; the `delayMs` the client then really waits (the
//! pause's timer is armed with it, and at least that much time passes); the exact counts for each fault scenario of the reference server;
//! no hook after a validation failure or an abort; a hook that throws (or
//! rejects) changes nothing; no credential reaches a hook; bad `hooks` are
//! `validation` errors with `param` `"hooks"`. Through the JS API (hooks
//! written in JS, in `helpers.js`) and through the Rust API (closures).

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

// ---------------------------------------------------------------- JS API

#[wasm_bindgen_test]
async fn a_call_that_succeeds_at_once_calls_before_request_and_after_response_once() {
    // One-shot count against the fake, answered after 40 ms.
    // The wall clock jumps back an hour while the answer is awaited: the
    // duration is on the monotonic clock, as is the span measured here.
    let fake = scripted(&format!(r#"[{{"body":{:?},"delayMs":40}}]"#, count_body(4)));
    let rec = Rec::new();
    let restore = wall_clock_jumps_back(20, 3_600_000.0);
    let started = monotonic_now();
    let got = resolves(fake_count(&fake, "{}", &[("hooks", &rec.hooks())])).await;
    let call_took = monotonic_now() - started;
    restore.call0(&JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&get(&got, "result"), "totalUsers"), JsValue::from(4));
    assert_eq!(rec.counts(), (1, 1, 0));
    assert_eq!(rec.sequence(), "beforeRequest,afterResponse");
    let sent = text(&call(&fake, 0), "url");
    assert_eq!(sent, format!("{FAKE}api/users/count"));
    let before = rec.info(BR, 0);
    check_attempt_info(&before, "count", &sent, 1.0);
    assert_eq!(
        header_of(&before, "content-type").as_deref(),
        Some("application/json")
    );
    assert!(
        get(&before, "httpStatus").is_undefined(),
        "{}",
        json(&before)
    );
    assert!(
        get(&before, "durationMs").is_undefined(),
        "{}",
        json(&before)
    );
    let after = rec.info(AR, 0);
    check_attempt_info(&after, "count", &sent, 1.0);
    assert_eq!(num(&after, "httpStatus"), 200.0);
    // At least the fake's 40 ms delay (its timer cannot fire early), and no
    // more than the whole call as this test saw it on the same clock
    // (`performance.now()`): the span it measures lies inside the call. In
    // whole milliseconds.
    let duration = num(&after, "durationMs");
    assert!(
        (35.0..=call_took).contains(&duration),
        "durationMs {duration} for an answer 40 ms late, in a call of {call_took} ms"
    );
    assert_eq!(duration, duration.floor(), "durationMs {duration}");
    assert_eq!(
        json(&get(&after, "headers")),
        json(&get(&before, "headers"))
    );

    // A UsersClient's list against the real server.
    let rec = Rec::new();
    let client = UsersClient::new(options(&[
        ("baseUrl", &server().into()),
        ("hooks", &rec.hooks()),
    ]))
    .unwrap();
    resolves(client.list_users(js(r#"{"pageSize":2}"#), JsValue::UNDEFINED)).await;
    assert_eq!(rec.counts(), (1, 1, 0));
    let url = format!("{}/api/users", server().trim_end_matches('/'));
    check_attempt_info(&rec.info(BR, 0), "list", &url, 1.0);
    check_attempt_info(&rec.info(AR, 0), "list", &url, 1.0);
    assert_eq!(num(&rec.info(AR, 0), "httpStatus"), 200.0);
    assert!(num(&rec.info(AR, 0), "durationMs") >= 0.0);

    // Each call starts again at attempt 1.
    resolves(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(rec.counts(), (2, 2, 0));
    check_attempt_info(&rec.info(BR, 1), "count", &count_url(server()), 1.0);
    check_attempt_info(&rec.info(AR, 1), "count", &count_url(server()), 1.0);
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
    armed_timers()
        .iter()
        .map(|pair| js_sys::Array::from(&pair))
        .filter(|pair| (from..=to).contains(&pair.get(1).as_f64().unwrap()))
        .map(|pair| pair.get(0).as_f64().unwrap())
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

#[wasm_bindgen_test]
async fn three_503s_with_two_retries_call_the_hooks_3_3_2_with_the_delay_really_waited() {
    // Two calls at once: three 503s without Retry-After (the backoff:
    // 150..300 ms, then 300..600 ms), and 503 (Retry-After: 1), 429
    // (Retry-After: 0), 200.
    armed_timers();
    let fake = scripted(&format!("[{}]", answer(503, None, &busy_body())));
    let rec = Rec::new();
    let two = JsValue::from(2);
    let backoff = handled(fake_count(
        &fake,
        "{}",
        &[("hooks", &rec.hooks()), ("retries", &two)],
    ));
    let fake_ra = scripted(&format!(
        "[{},{},{}]",
        answer(503, Some("1"), &busy_body()),
        answer(429, Some("0"), &busy_body()),
        ok_step(6)
    ));
    let rec_ra = Rec::new();
    let honoured = handled(fake_count(&fake_ra, "{}", &[("hooks", &rec_ra.hooks())]));

    let r = rejects(backoff).await;
    assert_eq!((r.kind.as_str(), r.http_status), ("http", Some(503.0)));
    assert_eq!(call_count(&fake), 3);
    assert_eq!(rec.counts(), (3, 3, 2));
    assert_eq!(
        rec.sequence(),
        "beforeRequest,afterResponse,beforeRetry,beforeRequest,afterResponse,beforeRetry,beforeRequest,afterResponse"
    );
    assert_eq!(rec.attempts(BR), [1.0, 2.0, 3.0]);
    assert_eq!(rec.attempts(AR), [1.0, 2.0, 3.0]);
    assert_eq!(rec.attempts(RT), [1.0, 2.0]);
    assert_eq!(rec.statuses(), [503.0, 503.0, 503.0]);
    let sent = text(&call(&fake, 0), "url");
    for i in 0..3 {
        check_attempt_info(&rec.info(BR, i), "count", &sent, f64::from(i + 1));
        check_attempt_info(&rec.info(AR, i), "count", &sent, f64::from(i + 1));
    }
    for (i, range) in [(0, 150.0..=300.0), (1, 300.0..=600.0)] {
        let info = rec.info(RT, i);
        assert_eq!(text(&info, "operation"), "count");
        let error = describe_error(&get(&info, "error"));
        assert_eq!(get(&error, "isError"), JsValue::TRUE);
        assert_eq!(text(&error, "className"), "UsersApiError");
        assert_eq!(text(&error, "kind"), "http");
        assert_eq!(num(&error, "httpStatus"), 503.0);
        let delay = num(&info, "delayMs");
        assert!(range.contains(&delay), "retry {i}: delayMs {delay}");
    }
    check_waits(&rec, "backoff");

    let got = resolves(honoured).await;
    assert_eq!(get(&get(&got, "result"), "totalUsers"), JsValue::from(6));
    assert_eq!(rec_ra.counts(), (3, 3, 2));
    assert_eq!(rec_ra.statuses(), [503.0, 429.0, 200.0]);
    for (i, delay, status) in [(0, 1_000.0, 503.0), (1, 0.0, 429.0)] {
        let info = rec_ra.info(RT, i);
        assert_eq!(num(&info, "delayMs"), delay, "retry {i}");
        assert_eq!(num(&get(&info, "error"), "httpStatus"), status);
    }
    check_waits(&rec_ra, "Retry-After");
}

/// What a fault scenario must do to the hooks with `retries: 2`.
struct Expected {
    scenario: &'static str,
    /// `timeoutMs` (0: the default).
    timeout_ms: u32,
    /// `None`: the call resolves; else the rejection's kind.
    kind: Option<&'static str>,
    /// (beforeRequest, afterResponse, beforeRetry).
    counts: (u32, u32, u32),
    /// `afterResponse`'s `httpStatus`, per call.
    statuses: &'static [f64],
    /// `beforeRetry`'s error kind.
    retry_kind: &'static str,
}

const fn row(
    scenario: &'static str,
    timeout_ms: u32,
    kind: Option<&'static str>,
    counts: (u32, u32, u32),
    statuses: &'static [f64],
    retry_kind: &'static str,
) -> Expected {
    Expected {
        scenario,
        timeout_ms,
        kind,
        counts,
        statuses,
        retry_kind,
    }
}

const DECODE: Option<&str> = Some("decode");
const ONE_200: &[f64] = &[200.0];
const NETWORK: Option<&str> = Some("network");
const TIMEOUT: Option<&str> = Some("timeout");
/// The `timeoutMs` against `slow` (which answers after 30 s) and `stalled`
/// (whose body never ends): far longer than a request takes to reach the
/// server and its headers to come back on a busy machine, far shorter than
/// the stall. Two values, so that each scenario's timers can be told apart.
const SLOW_TIMEOUT: u32 = 1_500;
const STALLED_TIMEOUT: u32 = 1_600;

/// The scenarios that take time (timeouts, pauses): run together first, at
/// most six at once (Chromium's connections per host), so that no request
/// waits for a connection and times out for that.
const SLOW_ONES: [Expected; 6] = [
    // No answer at all: no afterResponse.
    row("dropped", 0, NETWORK, (3, 0, 2), &[], "network"),
    // The headers come after 30 s, the timeout after SLOW_TIMEOUT.
    row("slow", SLOW_TIMEOUT, TIMEOUT, (3, 0, 2), &[], "timeout"),
    // The headers arrive, the body never ends: afterResponse, then a
    // timeout.
    row(
        "stalled",
        STALLED_TIMEOUT,
        TIMEOUT,
        (3, 3, 2),
        &[200.0; 3],
        "timeout",
    ),
    row(
        "retry-after-seconds",
        0,
        None,
        (2, 2, 1),
        &[503.0, 200.0],
        "http",
    ),
    row(
        "retry-after-date",
        0,
        None,
        (2, 2, 1),
        &[429.0, 200.0],
        "http",
    ),
    row("html-500", 0, Some("http"), (3, 3, 2), &[500.0; 3], "http"),
];

/// The scenarios whose answer arrives at once, retried or not.
const ANSWERS: [Expected; 19] = [
    row("ok", 0, None, (1, 1, 0), ONE_200, ""),
    row("envelope-400", 0, Some("http"), (1, 1, 0), &[400.0], ""),
    row("envelope-404", 0, Some("http"), (1, 1, 0), &[404.0], ""),
    row("echo-auth-401", 0, Some("http"), (1, 1, 0), &[401.0], ""),
    row("not-json", 0, DECODE, (1, 1, 0), ONE_200, ""),
    row("empty", 0, DECODE, (1, 1, 0), ONE_200, ""),
    row("not-envelope", 0, DECODE, (1, 1, 0), ONE_200, ""),
    row("status-string", 0, DECODE, (1, 1, 0), ONE_200, ""),
    row("total-string", 0, DECODE, (1, 1, 0), ONE_200, ""),
    row("total-float", 0, DECODE, (1, 1, 0), ONE_200, ""),
    row("total-negative", 0, DECODE, (1, 1, 0), ONE_200, ""),
    row("total-2p53", 0, DECODE, (1, 1, 0), ONE_200, ""),
    row("total-null", 0, DECODE, (1, 1, 0), ONE_200, ""),
    row("result-null", 0, DECODE, (1, 1, 0), ONE_200, ""),
    row("status-403", 0, Some("api"), (1, 1, 0), ONE_200, ""),
    row("big", 0, DECODE, (1, 1, 0), ONE_200, ""),
    row("echo", 0, None, (1, 1, 0), ONE_200, ""),
    // Retry-After: 0 on every answer.
    row("busy", 0, Some("http"), (3, 3, 2), &[503.0; 3], "http"),
    // The headers arrive, the connection breaks in the body.
    row("truncated", 0, NETWORK, (3, 3, 2), &[200.0; 3], "network"),
];

/// A scenario's call, started.
struct Running {
    e: &'static Expected,
    base: String,
    rec: Rec,
    promise: Promise,
}

/// Starts a one-shot count against `e.scenario` with `retries: 2`.
fn start(e: &'static Expected) -> Running {
    armed_timers();
    let base = fault(e.scenario);
    let rec = Rec::new();
    let (hooks, two) = (rec.hooks(), JsValue::from(2));
    let timeout = JsValue::from(e.timeout_ms);
    let mut pairs: Vec<(&str, &JsValue)> = vec![("hooks", &hooks), ("retries", &two)];
    if e.timeout_ms > 0 {
        pairs.push(("timeoutMs", &timeout));
    }
    let promise = handled(count_users(
        base.as_str().into(),
        JsValue::UNDEFINED,
        obj(&pairs),
    ));
    Running {
        e,
        base,
        rec,
        promise,
    }
}

/// Waits for a started scenario and checks its hooks against the table.
async fn finish(run: Running) -> Rec {
    let Running {
        e,
        base,
        rec,
        promise,
    } = run;
    let s = e.scenario;
    match e.kind {
        None => {
            resolves(promise).await;
        }
        Some(kind) => assert_eq!(rejects(promise).await.kind, kind, "{s}"),
    }
    assert_eq!(
        rec.counts(),
        e.counts,
        "{s}: (beforeRequest, afterResponse, beforeRetry); {}",
        rec.sequence()
    );
    let n = e.counts.0;
    let numbers: Vec<f64> = (1..=n).map(f64::from).collect();
    assert_eq!(rec.attempts(BR), numbers, "{s}");
    assert_eq!(rec.statuses(), e.statuses, "{s}");
    let url = count_url(&base);
    for i in 0..n {
        check_attempt_info(&rec.info(BR, i), "count", &url, f64::from(i + 1));
    }
    for i in 0..e.counts.1 {
        check_attempt_info(&rec.info(AR, i), "count", &url, f64::from(i + 1));
    }
    for i in 0..e.counts.2 {
        let info = rec.info(RT, i);
        assert_eq!(num(&info, "attempt"), f64::from(i + 1), "{s}");
        assert_eq!(text(&get(&info, "error"), "kind"), e.retry_kind, "{s}");
        assert!(num(&info, "delayMs") >= 0.0, "{s}");
    }
    check_waits(&rec, s);
    // The server saw as many requests as the hooks saw attempts (Chromium
    // replays requests on a dropped connection by itself, more often when
    // several run at once: the hooks see the client's attempts only).
    let received = attempts(&base).await;
    if s == "dropped" {
        assert!(
            received >= f64::from(n),
            "{s}: {received} requests received"
        );
    } else {
        assert_eq!(received, f64::from(n), "{s}: requests received");
    }
    rec
}

#[wasm_bindgen_test]
async fn each_fault_scenario_calls_the_hooks_an_exact_number_of_times() {
    let slow: Vec<Running> = SLOW_ONES.iter().map(start).collect();
    let mut recs = Vec::new();
    for run in slow {
        recs.push((run.e.scenario, finish(run).await));
    }
    let rec_of = |scenario: &str| &recs.iter().find(|(s, _)| *s == scenario).unwrap().1;
    assert_eq!(
        rec_of("dropped").sequence(),
        "beforeRequest,beforeRetry,beforeRequest,beforeRetry,beforeRequest"
    );
    let stalled = rec_of("stalled");
    assert_eq!(
        stalled.sequence(),
        "beforeRequest,afterResponse,beforeRetry,beforeRequest,afterResponse,beforeRetry,beforeRequest,afterResponse"
    );
    // Each stalled attempt ended by its timeout: a timer armed with
    // timeoutMs during the attempt, and at least that long after it began.
    let timeout = f64::from(STALLED_TIMEOUT);
    for i in 0..3 {
        let began = stalled.time(BR, i);
        let ended = if i < 2 { stalled.time(RT, i) } else { now() };
        let armed = timers_armed_between(began, ended);
        assert!(
            armed.contains(&timeout),
            "stalled attempt {i}: timers armed {armed:?}"
        );
        let took = ended - began;
        assert!(
            took >= timeout - 5.0,
            "stalled attempt {i} ended after {took} ms"
        );
    }
    // Retry-After: 1 is a delay of 1,000 ms; a date 2 s ahead, in whole
    // seconds: at most 2 s, and at least 1 s minus the time from sending the
    // request to deciding the delay (the server dated its answer in between).
    // (check_waits checked that the client waited that.)
    let info = rec_of("retry-after-seconds").info(RT, 0);
    assert_eq!(num(&info, "delayMs"), 1_000.0);
    assert_eq!(num(&get(&info, "error"), "httpStatus"), 503.0);
    let dated = rec_of("retry-after-date");
    let info = dated.info(RT, 0);
    let delay = num(&info, "delayMs");
    let deciding = dated.time(RT, 0) - dated.time(BR, 0);
    assert!(
        delay <= 2_000.0 && delay >= 1_000.0 - deciding - 1.0,
        "delayMs {delay}, {deciding} ms after the request"
    );
    assert_eq!(num(&get(&info, "error"), "httpStatus"), 429.0);

    let answers: Vec<Running> = ANSWERS.iter().map(start).collect();
    for run in answers {
        let busy = run.e.scenario == "busy";
        let rec = finish(run).await;
        if busy {
            for i in 0..2 {
                assert_eq!(num(&rec.info(RT, i), "delayMs"), 0.0);
            }
        }
    }
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn a_validation_failure_calls_no_hook() {
    let fake = scripted(&format!("[{}]", ok_step(1)));
    let rec = Rec::new();
    let hooks = rec.hooks();
    // Bad params, a bad option beside good hooks, on both one-shot calls.
    let bad_timeout = JsValue::from(-1);
    for (params, extra) in [
        (r#"{"active":"nope"}"#, None),
        (r#"{"query":5}"#, None),
        ("{}", Some(("timeoutMs", &bad_timeout))),
    ] {
        let mut pairs = vec![("hooks", &hooks)];
        pairs.extend(extra);
        let r = rejects(fake_count(&fake, params, &pairs)).await;
        assert_eq!(r.kind, "validation", "{params}");
        let r = rejects(list_users(
            FAKE.into(),
            js(params),
            with_fake(&fake, &pairs),
        ))
        .await;
        assert_eq!(r.kind, "validation", "{params}");
    }
    // An unknown count param (the list passes those through).
    let r = rejects(fake_count(
        &fake,
        r#"{"activ":"true"}"#,
        &[("hooks", &hooks)],
    ))
    .await;
    assert_eq!(
        (r.kind.as_str(), r.param.as_deref()),
        ("validation", Some("activ"))
    );
    // Bad call headers, and a provider's bad headers, on a client.
    let client = UsersClient::new(with_fake(
        &fake,
        &[("baseUrl", &FAKE.into()), ("hooks", &hooks)],
    ))
    .unwrap();
    let bad = js(r#"{"headers":{"x":"a\nb"}}"#);
    assert_eq!(
        rejects(client.count_users(JsValue::UNDEFINED, bad))
            .await
            .kind,
        "validation"
    );
    let provider = counting_provider(&js(r#"{"bad name":"x"}"#));
    let client = UsersClient::new(with_fake(
        &fake,
        &[
            ("baseUrl", &FAKE.into()),
            ("hooks", &hooks),
            ("headers", &provider),
        ],
    ))
    .unwrap();
    let r = rejects(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(
        (r.kind.as_str(), r.param.as_deref()),
        ("validation", Some("headers"))
    );
    // An already-aborted signal: nothing is attempted either.
    let signal = aborted_signal();
    let r = rejects(fake_count(
        &fake,
        "{}",
        &[("hooks", &hooks), ("signal", &signal)],
    ))
    .await;
    assert_eq!(r.kind, "aborted");
    assert_eq!(call_count(&fake), 0, "nothing sent");
    assert_eq!(rec.counts(), (0, 0, 0), "{}", rec.everything());
    // The same hooks do see a good call.
    resolves(fake_count(&fake, "{}", &[("hooks", &hooks)])).await;
    assert_eq!(rec.counts(), (1, 1, 0));
}

#[wasm_bindgen_test]
async fn an_abort_from_before_retry_calls_no_further_hook() {
    let fake = scripted(&format!("[{}]", answer(503, Some("0"), &busy_body())));
    let controller = abort_controller();
    let rec = Rec::aborting(&controller);
    let signal = get(&controller, "signal");
    let r = rejects(fake_count(
        &fake,
        "{}",
        &[("hooks", &rec.hooks()), ("signal", &signal)],
    ))
    .await;
    assert_eq!(r.kind, "aborted");
    assert_eq!(rec.counts(), (1, 1, 1), "{}", rec.sequence());
    JsFuture::from(sleep(100)).await.unwrap();
    assert_eq!(rec.counts(), (1, 1, 1), "{}", rec.sequence());
    assert_eq!(call_count(&fake), 1);
}

#[wasm_bindgen_test]
async fn an_abort_during_the_retry_pause_calls_no_further_hook() {
    // Both at once: the fake's Retry-After: 1 and the fault server's,
    // through a client, each aborted 100 ms into its pause of 1 s (timers
    // armed from beforeRetry, so the abort falls inside the pause whatever
    // the machine's load).
    let fake = scripted(&format!(
        "[{},{}]",
        answer(503, Some("1"), &busy_body()),
        ok_step(1)
    ));
    let controller = abort_controller();
    let rec = Rec::aborting_in_pause(&controller, 100);
    let signal = get(&controller, "signal");
    let promise = handled(fake_count(
        &fake,
        "{}",
        &[("hooks", &rec.hooks()), ("signal", &signal)],
    ));

    let base = fault("retry-after-seconds");
    let server_controller = abort_controller();
    let server_rec = Rec::aborting_in_pause(&server_controller, 100);
    let client = UsersClient::new(options(&[
        ("baseUrl", &base.as_str().into()),
        ("hooks", &server_rec.hooks()),
    ]))
    .unwrap();
    let server_promise = handled(client.count_users(
        JsValue::UNDEFINED,
        options(&[("signal", &get(&server_controller, "signal"))]),
    ));

    // At once: before the pause is over.
    assert_eq!(rejects(promise).await.kind, "aborted");
    assert!(!rec.pause_over(), "the pause was waited out");
    assert_eq!(rec.counts(), (1, 1, 1));
    assert_eq!(rejects(server_promise).await.kind, "aborted");
    assert!(!server_rec.pause_over(), "the pause was waited out");
    assert_eq!(server_rec.counts(), (1, 1, 1));
    // Past the end of the pause: still nothing.
    JsFuture::from(sleep(1_000)).await.unwrap();
    assert!(rec.pause_over() && server_rec.pause_over());
    assert_eq!(rec.counts(), (1, 1, 1), "{}", rec.sequence());
    assert_eq!(call_count(&fake), 1);
    assert_eq!(server_rec.counts(), (1, 1, 1), "{}", server_rec.sequence());
    assert_eq!(attempts(&base).await, 1.0);
}

#[wasm_bindgen_test]
async fn a_throwing_or_rejecting_hook_changes_nothing() {
    let script = format!("[{},{}]", answer(503, Some("0"), &busy_body()), ok_step(5));
    let failing = format!(
        "[{}]",
        answer(400, None, r#"{"status":400,"result":{"error":"bad"}}"#)
    );
    // Without hooks, for comparison.
    let plain = scripted(&script);
    let expected = json(&resolves(fake_count(&plain, "{}", &[])).await);
    let plain_failing = scripted(&failing);
    let expected_error = rejects(fake_count(&plain_failing, "{}", &[])).await;
    for mode in ["throw", "reject", "async", "then-throws"] {
        let rec = Rec::failing(mode);
        let fake = scripted(&script);
        let client = UsersClient::new(with_fake(
            &fake,
            &[("baseUrl", &FAKE.into()), ("hooks", &rec.hooks())],
        ))
        .unwrap();
        let got = resolves(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
        assert_eq!(json(&got), expected, "{mode}");
        assert_eq!(call_count(&fake), 2, "{mode}");
        // Every hook was called (and failed) once per event.
        assert_eq!(rec.counts(), (2, 2, 1), "{mode}");
        // Later calls on the same client work: the fake now answers 200.
        let again = resolves(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
        assert_eq!(json(&again), expected, "{mode}");
        assert_eq!(rec.counts(), (3, 3, 1), "{mode}");

        // A failing call fails the same way.
        let fake = scripted(&failing);
        let r = rejects(fake_count(&fake, "{}", &[("hooks", &rec.hooks())])).await;
        assert_eq!(
            (r.kind.as_str(), r.http_status, r.status, r.message.as_str()),
            (
                expected_error.kind.as_str(),
                expected_error.http_status,
                expected_error.status,
                expected_error.message.as_str()
            ),
            "{mode}"
        );
        assert_eq!(json(&r.body), json(&expected_error.body), "{mode}");
        assert_eq!(call_count(&fake), 1, "{mode}");

        // And on the real server.
        let truth = JsFuture::from(raw_count(server(), &js("{}")))
            .await
            .unwrap();
        let got = resolves(count_users(
            server().into(),
            JsValue::UNDEFINED,
            options(&[("hooks", &rec.hooks())]),
        ))
        .await;
        assert_eq!(get(&get(&got, "result"), "totalUsers"), truth, "{mode}");
    }
    // Rejections reported by the hooks settle later; the module still works.
    JsFuture::from(sleep(20)).await.unwrap();
    good_call_still_works().await;
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

#[wasm_bindgen_test]
async fn no_credential_reaches_a_hook() {
    // Retried once (the 503 echoes the token), then answered.
    let script = format!(
        "[{},{}]",
        answer(
            503,
            Some("0"),
            &format!(
                r#"{{"status":503,"result":{{"error":"busy for Bearer {TOKEN} with key {KEY}"}}}}"#
            )
        ),
        ok_step(3)
    );
    let only_id = js(r#"{"X-Request-Id":"visible"}"#);
    let credentials = js(&format!(
        r#"{{"Authorization":"Bearer {TOKEN}","X-Api-Key":"{KEY}"}}"#
    ));
    // (what, client headers, call headers)
    let provider = counting_provider(&secret_headers());
    let provider_of_id = counting_provider(&only_id);
    let ways: [(&str, &JsValue, JsValue); 4] = [
        ("client headers", &secret_headers(), JsValue::UNDEFINED),
        ("call headers", &only_id, credentials.clone()),
        ("a header provider", &provider, JsValue::UNDEFINED),
        ("a provider and call headers", &provider_of_id, credentials),
    ];
    for (what, client_headers, call_headers) in ways {
        let fake = scripted(&script);
        let rec = Rec::new();
        let client = UsersClient::new(with_fake(
            &fake,
            &[
                ("baseUrl", &FAKE.into()),
                ("hooks", &rec.hooks()),
                ("headers", client_headers),
            ],
        ))
        .unwrap();
        let call_options = options(&[("headers", &call_headers)]);
        resolves(client.count_users(JsValue::UNDEFINED, call_options.clone())).await;
        assert_eq!(rec.counts(), (2, 2, 1), "{what}");
        check_sent(&fake);
        check_no_secret(&rec, what);
        // beforeRetry's error: the echoed body, redacted.
        let error = get(&rec.info(RT, 0), "error");
        let body = json(&get(&error, "body"));
        assert!(body.contains("[REDACTED]"), "{what}: {body}");
        // The list too, and the one-shot calls.
        let fake = scripted(&script);
        let rec = Rec::new();
        let client = UsersClient::new(with_fake(
            &fake,
            &[
                ("baseUrl", &FAKE.into()),
                ("hooks", &rec.hooks()),
                ("headers", client_headers),
                ("paramsIn", &"query".into()),
            ],
        ))
        .unwrap();
        resolves(client.list_users(JsValue::UNDEFINED, call_options)).await;
        check_no_secret(&rec, what);
    }
    let fake = scripted(&script);
    let rec = Rec::new();
    resolves(fake_count(
        &fake,
        "{}",
        &[("hooks", &rec.hooks()), ("headers", &secret_headers())],
    ))
    .await;
    check_sent(&fake);
    check_no_secret(&rec, "one-shot");

    // A fetch that fails quoting the token: a network error, retried.
    let fake = scripted(&format!(
        r#"[{{"reject":true,"message":"refused while sending Bearer {TOKEN} and {KEY}"}},{}]"#,
        ok_step(3)
    ));
    let rec = Rec::new();
    resolves(fake_count(
        &fake,
        "{}",
        &[("hooks", &rec.hooks()), ("headers", &secret_headers())],
    ))
    .await;
    assert_eq!(rec.counts(), (2, 1, 1));
    assert_eq!(text(&get(&rec.info(RT, 0), "error"), "kind"), "network");
    check_no_secret(&rec, "a failing fetch");
}

#[wasm_bindgen_test]
async fn no_credential_reaches_a_hook_from_the_real_server() {
    // echo-auth-401 puts the Authorization header in its body; echo sends
    // back every header but the credentials, which it only names.
    for scenario in ["echo-auth-401", "echo"] {
        let base = fault(scenario);
        let rec = Rec::new();
        let promise = count_users(
            base.as_str().into(),
            JsValue::UNDEFINED,
            options(&[("hooks", &rec.hooks()), ("headers", &secret_headers())]),
        );
        if scenario == "echo" {
            let got = resolves(promise).await;
            // The server did get the key (it names it, without its value).
            let result = get(&got, "result");
            assert!(get(&get(&result, "headers"), "x-api-key").is_undefined());
            let named = js_sys::Array::from(&get(&result, "credentialHeaders"));
            assert!(named.includes(&"x-api-key".into(), 0), "{named:?}");
        } else {
            let r = rejects(promise).await;
            assert_eq!(r.http_status, Some(401.0));
            assert!(!r.everything.contains(TOKEN), "{}", r.everything);
        }
        assert_eq!(rec.counts(), (1, 1, 0), "{scenario}");
        check_no_secret(&rec, scenario);
    }
}

#[wasm_bindgen_test]
async fn bad_hooks_are_validation_errors_with_param_hooks() {
    for case in bad_hooks().iter() {
        let name = get(&case, "0").as_string().unwrap();
        let hooks = get(&case, "1");
        let fake = scripted(&format!("[{}]", ok_step(1)));
        // The constructor throws.
        let thrown = match UsersClient::new(with_fake(
            &fake,
            &[("baseUrl", &FAKE.into()), ("hooks", &hooks)],
        )) {
            Ok(_) => panic!("{name}: the constructor accepted it"),
            Err(e) => describe_error(&e),
        };
        assert_eq!(text(&thrown, "className"), "UsersApiError", "{name}");
        assert_eq!(
            (text(&thrown, "kind"), get(&thrown, "param").as_string()),
            ("validation".to_string(), Some("hooks".to_string())),
            "{name}: {}",
            text(&thrown, "message")
        );
        // The one-shot calls reject.
        for list in [false, true] {
            let options = with_fake(&fake, &[("hooks", &hooks)]);
            let promise = if list {
                list_users(FAKE.into(), JsValue::UNDEFINED, options)
            } else {
                count_users(FAKE.into(), JsValue::UNDEFINED, options)
            };
            let r = rejects(promise).await;
            assert_eq!(
                (r.kind.as_str(), r.param.as_deref()),
                ("validation", Some("hooks")),
                "{name} (list: {list}): {}",
                r.message
            );
        }
        assert_eq!(call_count(&fake), 0, "{name}: nothing sent");
    }
    // What is accepted: no hooks, an empty object, an undefined hook.
    let fake = scripted(&format!("[{}]", ok_step(1)));
    for hooks in [
        JsValue::UNDEFINED,
        js("{}"),
        obj(&[(BR, &JsValue::UNDEFINED)]),
    ] {
        resolves(fake_count(&fake, "{}", &[("hooks", &hooks)])).await;
        UsersClient::new(with_fake(
            &fake,
            &[("baseUrl", &FAKE.into()), ("hooks", &hooks)],
        ))
        .unwrap();
    }
    assert_eq!(call_count(&fake), 3);
}

#[wasm_bindgen_test]
async fn in_query_mode_the_hooks_url_carries_the_query_string() {
    let fake = scripted(&format!("[{}]", ok_step(2)));
    let rec = Rec::new();
    let query = JsValue::from("query");
    let params = r#"{"active":true,"query":"a b&c=d"}"#;
    resolves(fake_count(
        &fake,
        params,
        &[("hooks", &rec.hooks()), ("paramsIn", &query)],
    ))
    .await;
    let sent = text(&call(&fake, 0), "url");
    assert!(
        sent.starts_with(&format!("{FAKE}api/users/count?")),
        "{sent}"
    );
    for name in [BR, AR] {
        let url = text(&rec.info(name, 0), "url");
        assert_eq!(url, sent, "{name}");
        let q = query_of(&url.into());
        assert_eq!(get(&q, "query").as_string().as_deref(), Some("a b&c=d"));
        assert_eq!(get(&q, "active").as_string().as_deref(), Some("true"));
    }
    // Body and form modes: no query string.
    for mode in ["body", "form"] {
        let rec = Rec::new();
        let fake = scripted(&format!("[{}]", ok_step(2)));
        resolves(fake_count(
            &fake,
            params,
            &[("hooks", &rec.hooks()), ("paramsIn", &mode.into())],
        ))
        .await;
        assert_eq!(
            text(&rec.info(BR, 0), "url"),
            format!("{FAKE}api/users/count"),
            "{mode}"
        );
    }
    // The real server's echo, listing in query mode.
    let base = fault("echo");
    let rec = Rec::new();
    let got = resolves(list_users(
        base.as_str().into(),
        js(r#"{"query":"ü✓?","page":2}"#),
        options(&[("hooks", &rec.hooks()), ("paramsIn", &query)]),
    ))
    .await;
    let echoed = get(&get(&got, "result"), "params");
    assert_eq!(get(&echoed, "query").as_string().as_deref(), Some("ü✓?"));
    for name in [BR, AR] {
        let url = text(&rec.info(name, 0), "url");
        assert!(
            url.starts_with(&format!("{}/api/users?", base.trim_end_matches('/'))),
            "{name}: {url}"
        );
        let q = query_of(&url.into());
        assert_eq!(
            get(&q, "query").as_string().as_deref(),
            Some("ü✓?"),
            "{name}"
        );
        assert_eq!(get(&q, "page").as_string().as_deref(), Some("2"), "{name}");
    }
}

// -------------------------------------------------------------- Rust API

/// What the Rust hooks saw, in order, each with `Date.now()`.
enum Seen {
    Request(AttemptInfo),
    Response(ResponseInfo),
    Retry(RetryInfo),
}

type Log = Rc<RefCell<Vec<(Seen, f64)>>>;

/// Hooks that record into a log; `before_retry` also runs `on_retry`.
fn recording(on_retry: impl Fn() + 'static) -> (Hooks, Log) {
    let log: Log = Rc::default();
    let (a, b, c) = (Rc::clone(&log), Rc::clone(&log), Rc::clone(&log));
    let hooks = Hooks::default()
        .before_request(move |info: &AttemptInfo| {
            a.borrow_mut().push((Seen::Request(info.clone()), now()));
        })
        .after_response(move |info: &ResponseInfo| {
            b.borrow_mut().push((Seen::Response(info.clone()), now()));
        })
        .before_retry(move |info: &RetryInfo| {
            c.borrow_mut().push((Seen::Retry(info.clone()), now()));
            on_retry();
        });
    (hooks, log)
}

fn rust_counts(log: &Log) -> (u32, u32, u32) {
    let mut counts = (0, 0, 0);
    for (seen, _) in log.borrow().iter() {
        match seen {
            Seen::Request(_) => counts.0 += 1,
            Seen::Response(_) => counts.1 += 1,
            Seen::Retry(_) => counts.2 += 1,
        }
    }
    counts
}

fn requests(log: &Log) -> Vec<(AttemptInfo, f64)> {
    log.borrow()
        .iter()
        .filter_map(|(seen, t)| match seen {
            Seen::Request(info) => Some((info.clone(), *t)),
            _ => None,
        })
        .collect()
}

fn responses(log: &Log) -> Vec<ResponseInfo> {
    log.borrow()
        .iter()
        .filter_map(|(seen, _)| match seen {
            Seen::Response(info) => Some(info.clone()),
            _ => None,
        })
        .collect()
}

fn retries(log: &Log) -> Vec<(RetryInfo, f64)> {
    log.borrow()
        .iter()
        .filter_map(|(seen, t)| match seen {
            Seen::Retry(info) => Some((info.clone(), *t)),
            _ => None,
        })
        .collect()
}

fn rust_header<'a>(info: &'a AttemptInfo, name: &str) -> Option<&'a str> {
    let mut found = info
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name));
    let first = found.next().map(|(_, v)| v.as_str());
    assert!(found.next().is_none(), "two {name} headers");
    first
}

fn rust_client(fake: &JsValue, edit: impl FnOnce(ClientOptions) -> ClientOptions) -> RustClient {
    let mut options = ClientOptions::new(FAKE);
    options.fetch = Some(get(fake, "fetch").unchecked_into());
    match RustClient::new(edit(options)) {
        Ok(client) => client,
        Err(error) => panic!("the options were refused: {error}"),
    }
}

fn ok<T>(outcome: Result<T, Error>) -> T {
    match outcome {
        Ok(value) => value,
        Err(error) => panic!("expected success, got {:?}: {error}", error.kind()),
    }
}

fn failed<T: std::fmt::Debug>(outcome: Result<T, Error>) -> Error {
    match outcome {
        Ok(value) => panic!("expected an error, got {value:?}"),
        Err(error) => error,
    }
}

#[wasm_bindgen_test]
async fn rust_hooks_see_a_call_that_succeeds_at_once() {
    let fake = scripted(&format!(r#"[{{"body":{:?},"delayMs":40}}]"#, count_body(8)));
    let (hooks, log) = recording(|| {});
    let client = rust_client(&fake, |o| o.hooks(hooks));
    // The wall clock jumps back an hour while the answer is awaited.
    let restore = wall_clock_jumps_back(20, 3_600_000.0);
    let started = monotonic_now();
    let got = ok(client.count_users().send().await);
    let call_took = Duration::from_secs_f64((monotonic_now() - started) / 1e3);
    restore.call0(&JsValue::UNDEFINED).unwrap();
    assert_eq!(got.result.total_users, 8);
    assert_eq!(rust_counts(&log), (1, 1, 0));
    let sent = text(&call(&fake, 0), "url");
    let (request, _) = &requests(&log)[0];
    assert_eq!(request.operation, Operation::Count);
    assert_eq!(request.url, sent);
    assert_eq!(request.attempt, 1);
    assert_eq!(rust_header(request, "accept"), Some("application/json"));
    let response = &responses(&log)[0];
    assert_eq!(&response.request, request);
    assert_eq!(response.http_status, 200);
    // At least the fake's 40 ms delay, at most the call that contains it,
    // both on the monotonic clock (`performance.now()`).
    assert!(
        (Duration::from_millis(35)..=call_took).contains(&response.duration),
        "duration {:?} in a call of {call_took:?}",
        response.duration
    );
    // The list, in query mode, against the real server.
    let (hooks, log) = recording(|| {});
    let mut options = ClientOptions::new(server());
    options.params_in = user_management_client::ParamsIn::Query;
    options.hooks = hooks;
    let client = RustClient::new(options).unwrap();
    let params = ListParams {
        page_size: Some(3),
        ..Default::default()
    };
    ok(client
        .list_users()
        .params(params.clone())
        .send::<serde::de::IgnoredAny>()
        .await);
    assert_eq!(rust_counts(&log), (1, 1, 0));
    let (request, _) = &requests(&log)[0];
    assert_eq!(request.operation, Operation::List);
    assert_eq!(
        request.url,
        format!("{}/api/users?pageSize=3", server().trim_end_matches('/'))
    );
    assert_eq!(responses(&log)[0].http_status, 200);
}

#[wasm_bindgen_test]
async fn rust_hooks_see_three_503s_and_the_delay_really_waited() {
    let fake = scripted(&format!(
        "[{},{},{}]",
        answer(503, None, &busy_body()),
        answer(503, Some("0"), &busy_body()),
        answer(503, Some("0"), &busy_body())
    ));
    armed_timers();
    let (hooks, log) = recording(|| {});
    let client = rust_client(&fake, |o| o.hooks(hooks).retries(2));
    let error = failed(client.count_users().send().await);
    assert_eq!(
        (error.kind(), error.http_status()),
        (ErrorKind::Http, Some(503))
    );
    assert_eq!(rust_counts(&log), (3, 3, 2));
    let requests = requests(&log);
    let attempts: Vec<u32> = requests.iter().map(|(r, _)| r.attempt).collect();
    assert_eq!(attempts, [1, 2, 3]);
    let statuses: Vec<u16> = responses(&log).iter().map(|r| r.http_status).collect();
    assert_eq!(statuses, [503, 503, 503]);
    let retries = retries(&log);
    for (i, (info, at)) in retries.iter().enumerate() {
        assert_eq!(info.attempt, i as u32 + 1);
        assert_eq!(info.operation, Operation::Count);
        assert_eq!(info.error.kind(), ErrorKind::Http);
        assert_eq!(info.error.http_status(), Some(503));
        let delay_ms = info.delay.as_secs_f64() * 1e3;
        check_wait(delay_ms, *at, requests[i + 1].1, &format!("retry {i}"));
    }
    let backoff = retries[0].0.delay;
    assert!(
        (Duration::from_millis(150)..=Duration::from_millis(300)).contains(&backoff),
        "backoff {backoff:?}"
    );
    assert_eq!(retries[1].0.delay, Duration::ZERO, "Retry-After: 0");
}

#[wasm_bindgen_test]
async fn rust_hooks_never_see_a_credential() {
    let script = format!(
        "[{},{}]",
        answer(
            503,
            Some("0"),
            &format!(r#"{{"status":503,"result":{{"error":"Bearer {TOKEN} / {KEY}"}}}}"#)
        ),
        ok_step(2)
    );
    let fake = scripted(&script);
    let (hooks, log) = recording(|| {});
    let provided: HeaderList = vec![("X-Api-Key".into(), KEY.into())];
    let client = rust_client(&fake, |o| {
        o.hooks(hooks)
            .header("X-Request-Id", "visible")
            .header_provider(move || std::future::ready(provided.clone()))
    });
    let call_options = CallOptions::default().header("Authorization", format!("Bearer {TOKEN}"));
    ok(client
        .count_users()
        .options(call_options.clone())
        .send()
        .await);
    check_sent(&fake);
    assert_eq!(rust_counts(&log), (2, 2, 1));
    let mut seen = Vec::new();
    for (request, _) in requests(&log) {
        assert_eq!(rust_header(&request, "authorization"), Some("[REDACTED]"));
        assert_eq!(rust_header(&request, "x-api-key"), Some("[REDACTED]"));
        assert_eq!(rust_header(&request, "x-request-id"), Some("visible"));
        seen.push(format!("{request:?}"));
    }
    for response in responses(&log) {
        seen.push(format!("{response:?}"));
    }
    let (retry, _) = &retries(&log)[0];
    let body = retry.error.body().unwrap_or_default();
    assert!(body.contains("[REDACTED]"), "{body}");
    seen.push(format!(
        "{:?} {} {body}",
        retry.error,
        retry.error.message()
    ));
    let seen = seen.join("\n");
    for secret in [TOKEN, KEY] {
        assert!(!seen.contains(secret), "a Rust hook saw {secret}: {seen}");
    }
}

#[wasm_bindgen_test]
async fn rust_hooks_see_nothing_of_a_validation_failure_or_after_an_abort() {
    let fake = scripted(&format!("[{}]", answer(503, Some("0"), &busy_body())));
    let (hooks, log) = recording(|| {});
    let client = rust_client(&fake, |o| o.hooks(hooks));
    let bad = CallOptions::default().header("bad name", "x");
    let error = failed(client.count_users().options(bad.clone()).send().await);
    assert_eq!(error.kind(), ErrorKind::Validation);
    let too_big = ListParams {
        page: Some(1 << 60),
        ..Default::default()
    };
    let error = failed(
        client
            .list_users()
            .params(too_big.clone())
            .send::<serde::de::IgnoredAny>()
            .await,
    );
    assert_eq!(error.kind(), ErrorKind::Validation);
    assert_eq!(rust_counts(&log), (0, 0, 0));
    assert_eq!(call_count(&fake), 0);

    // before_retry aborts the call's signal: nothing after it.
    let controller = web_sys::AbortController::new().unwrap();
    let aborter = controller.clone();
    let (hooks, log) = recording(move || aborter.abort());
    let client = rust_client(&fake, |o| o.hooks(hooks));
    let call_options = CallOptions::default().signal(controller.signal());
    let error = failed(
        client
            .count_users()
            .options(call_options.clone())
            .send()
            .await,
    );
    assert_eq!(error.kind(), ErrorKind::Aborted);
    JsFuture::from(sleep(100)).await.unwrap();
    assert_eq!(rust_counts(&log), (1, 1, 1));
    assert_eq!(call_count(&fake), 1);
}

/// Two time rules of the Rust API through real calls, told by the timers
/// the client arms and by attempt counts, not by how long anything took:
/// a `Retry-After` above 60 s is a pause of 60 s, and with no timeout set
/// an attempt's timer is 10 s. Each call is aborted soon after (a timer of
/// 50 ms, due long before the client's own).
#[wasm_bindgen_test]
async fn rust_calls_cap_retry_after_at_60_s_and_time_out_at_10_s_by_default() {
    armed_timers();
    let fake = scripted(&format!("[{}]", answer(503, Some("3600"), &busy_body())));
    let controller = web_sys::AbortController::new().unwrap();
    let aborter: JsValue = controller.clone().into();
    let (hooks, log) = recording(move || abort_later(&aborter, 50));
    let client = rust_client(&fake, |o| o.hooks(hooks));
    let call_options = CallOptions::default().signal(controller.signal());
    let error = failed(
        client
            .count_users()
            .options(call_options.clone())
            .send()
            .await,
    );
    assert_eq!(error.kind(), ErrorKind::Aborted);
    let retries = retries(&log);
    assert_eq!(retries.len(), 1);
    assert_eq!(
        retries[0].0.delay,
        Duration::from_secs(60),
        "Retry-After: 3600"
    );
    let armed = timers_armed_between(retries[0].1, now());
    assert!(
        armed.contains(&60_000.0),
        "timers armed in the pause {armed:?}"
    );
    assert_eq!(
        call_count(&fake),
        1,
        "no second attempt before the pause ended"
    );

    let fake = scripted(r#"[{"hang":true}]"#);
    let controller = web_sys::AbortController::new().unwrap();
    let client = rust_client(&fake, |o| o.retries(0));
    let call_options = CallOptions::default().signal(controller.signal());
    let started = now();
    abort_later(&controller.clone().into(), 50);
    let error = failed(
        client
            .count_users()
            .options(call_options.clone())
            .send()
            .await,
    );
    assert_eq!(error.kind(), ErrorKind::Aborted);
    let armed = timers_armed_between(started, now());
    assert!(
        armed.contains(&10_000.0),
        "timers armed in the attempt {armed:?}"
    );
    assert!(call_signal_aborted(&fake, 0), "the request is cancelled");
}

#[wasm_bindgen_test]
async fn rust_hooks_on_the_fault_server() {
    // (scenario, timeout_ms, expected counts) with retries: 2, all at once.
    let runs = [
        ("dropped", 10_000, (3, 0, 2)),
        ("stalled", u64::from(STALLED_TIMEOUT), (3, 3, 2)),
        ("truncated", 10_000, (3, 3, 2)),
        ("envelope-400", 10_000, (1, 1, 0)),
        ("retry-after-seconds", 10_000, (2, 2, 1)),
    ]
    .map(|(scenario, timeout_ms, counts)| {
        let base = fault(scenario);
        let (hooks, log) = recording(|| {});
        let mut options = ClientOptions::new(base.as_str());
        options.hooks = hooks;
        options.retries = 2;
        options.timeout = Duration::from_millis(timeout_ms);
        let client = RustClient::new(options).unwrap();
        let done = wasm_bindgen_futures::future_to_promise(async move {
            let _ = client.count_users().send().await;
            Ok(JsValue::UNDEFINED)
        });
        (scenario, counts, base, log, done)
    });
    for (scenario, counts, base, log, done) in runs {
        JsFuture::from(done).await.unwrap();
        assert_eq!(rust_counts(&log), counts, "{scenario}");
        for (request, _) in requests(&log) {
            assert_eq!(request.url, count_url(&base), "{scenario}");
            assert_eq!(request.operation, Operation::Count);
        }
        let statuses: Vec<u16> = responses(&log).iter().map(|r| r.http_status).collect();
        let expected: &[u16] = match scenario {
            "dropped" => &[],
            "envelope-400" => &[400],
            "retry-after-seconds" => &[503, 200],
            _ => &[200, 200, 200],
        };
        assert_eq!(statuses, expected, "{scenario}");
    }
}
