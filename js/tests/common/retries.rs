//! The contract's "Retries" section: what is retried, how often, how long
//! it waits, and which error is the one rejected.

use super::*;
use wasm_bindgen_test::*;

fn answer(status: u16, retry_after: &str) -> String {
    format!(
        r#"{{"status":{status},"headers":{{"retry-after":"{retry_after}"}},"body":"{{\"status\":{status},\"result\":{{}}}}"}}"#
    )
}

#[wasm_bindgen_test]
async fn retryable_statuses_get_exactly_retries_more_attempts() {
    for status in [408, 429, 500, 502, 503, 504] {
        let fake = scripted(&format!("[{}]", answer(status, "0")));
        let r = rejects(fake_count(&fake, "{}", &[])).await;
        assert_eq!(
            (r.kind.as_str(), r.http_status),
            ("http", Some(f64::from(status)))
        );
        assert_eq!(call_count(&fake), 3, "default retries is 2 ({status})");
    }
    let fake = scripted(&format!("[{}]", answer(503, "0")));
    let zero = JsValue::from(0);
    rejects(fake_count(&fake, "{}", &[("retries", &zero)])).await;
    assert_eq!(call_count(&fake), 1, "retries: 0");
    let fake = scripted(&format!("[{}]", answer(503, "0")));
    let five = JsValue::from(5);
    rejects(fake_count(&fake, "{}", &[("retries", &five)])).await;
    assert_eq!(call_count(&fake), 6, "retries: 5");
}

#[wasm_bindgen_test]
async fn other_failures_are_not_retried() {
    for step in [
        answer(400, "0"),
        answer(404, "0"),
        answer(501, "0"),
        r#"{"body":"{\"status\":500,\"result\":{}}"}"#.to_string(),
        r#"{"body":"not json"}"#.to_string(),
    ] {
        let fake = scripted(&format!("[{step}]"));
        rejects(fake_count(&fake, "{}", &[])).await;
        assert_eq!(call_count(&fake), 1, "{step}");
    }
}

#[wasm_bindgen_test]
async fn network_errors_and_timeouts_are_retried_then_succeed() {
    let fake = scripted(&format!(
        r#"[{{"reject":true}},{{"hang":true}},{{"body":{:?}}}]"#,
        count_body(9)
    ));
    let timeout = JsValue::from(250);
    let got = resolves(fake_count(&fake, "{}", &[("timeoutMs", &timeout)])).await;
    assert_eq!(get(&get(&got, "result"), "totalUsers"), JsValue::from(9));
    assert_eq!(call_count(&fake), 3);
}

#[wasm_bindgen_test]
async fn the_last_attempts_error_is_the_one_rejected() {
    let fake = scripted(&format!(
        "[{},{},{}]",
        answer(503, "0"),
        answer(500, "0"),
        answer(502, "0")
    ));
    let r = rejects(fake_count(&fake, "{}", &[])).await;
    assert_eq!(r.http_status, Some(502.0));
}

#[wasm_bindgen_test]
async fn retry_after_in_seconds_is_honoured() {
    let fake = scripted(&format!(
        r#"[{},{{"body":{:?}}}]"#,
        answer(429, "1"),
        count_body(1)
    ));
    let started = now();
    resolves(fake_count(&fake, "{}", &[])).await;
    let waited = now() - started;
    assert!(waited >= 950.0, "waited only {waited} ms");
}

#[wasm_bindgen_test]
async fn retry_after_as_an_http_date_is_honoured() {
    let date = http_date(1_500.0);
    let fake = scripted(&format!(
        r#"[{},{{"body":{:?}}}]"#,
        answer(503, &date),
        count_body(1)
    ));
    let started = now();
    resolves(fake_count(&fake, "{}", &[])).await;
    // HTTP dates have whole seconds, so the wait is between 0.5 and 1.5 s.
    let waited = now() - started;
    assert!(waited >= 400.0, "waited only {waited} ms");
}

#[wasm_bindgen(module = "/tests/common/helpers.js")]
extern "C" {
    #[wasm_bindgen(js_name = fetchAnswering)]
    fn fetch_answering(value: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = withoutGlobalFetch)]
    fn without_global_fetch(start: &js_sys::Function) -> JsValue;
}

/// A setup error (a `fetch` that answers something that is not a
/// `Response`, a host without `fetch`) fails at the first attempt, with
/// the default retries and with `retries: 2`, as a `validation` error
/// naming `fetch` (never `network`, which says "try again"), and says what
/// is wrong.
#[wasm_bindgen_test]
async fn setup_errors_fail_at_once_and_say_why() {
    let two = JsValue::from(2);
    for extra in [vec![], vec![("retries", &two)]] {
        let fake = fetch_answering(&JsValue::from(42));
        let r = rejects(fake_count(&fake, "{}", &extra)).await;
        assert_eq!(r.kind, "validation");
        assert_eq!(r.param.as_deref(), Some("fetch"));
        assert_eq!(r.message, "fetch resolved with 42, which is not a Response");
        assert_eq!(call_count(&fake), 1, "a setup error is never retried");
        assert!(!is_retryable(&r.raw), "isRetryable agrees");
    }
    let start = Closure::once_into_js(|hooks: JsValue| {
        count_users(FAKE.into(), JsValue::UNDEFINED, obj(&[("hooks", &hooks)]))
    });
    let started = without_global_fetch(start.unchecked_ref());
    let r = rejects(get(&started, "promise").unchecked_into()).await;
    assert_eq!(r.kind, "validation");
    assert_eq!(r.param.as_deref(), Some("fetch"));
    assert_eq!(
        r.message,
        "this host has no global fetch: pass one as the fetch option"
    );
    assert_eq!(get(&get(&started, "attempts"), "count"), JsValue::from(1));
    assert!(!is_retryable(&r.raw), "isRetryable agrees");
    good_call_still_works().await;
}
