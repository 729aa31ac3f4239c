//! JS hooks against every fault scenario of the reference server: the
//! exact number of calls of each hook, the statuses `afterResponse` saw and
//! how the call ended, from one table.

use super::*;

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
    // Each stalled attempt ended by its timeout, one deadline from its
    // beforeRequest: a timer armed when it was sent with what was left of
    // timeoutMs then (to the millisecond, as `Date.now()` tells), and at
    // least timeoutMs after the attempt began.
    let timeout = f64::from(STALLED_TIMEOUT);
    for i in 0..3 {
        let began = stalled.time(BR, i);
        let ended = if i < 2 { stalled.time(RT, i) } else { now() };
        let armed = timers_armed_at(began, ended);
        assert!(
            armed
                .iter()
                .any(|&(ms, at)| ms <= timeout && (ms - (timeout - (at - began))).abs() <= 2.0),
            "stalled attempt {i} (began at {began}): timers armed {armed:?}"
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
