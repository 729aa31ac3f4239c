//! The retry policy (`retries: number | RetryPolicy`), through the JS API
//! and the Rust API, against the scripted fake `fetch`: the statuses it
//! retries and how many times, a `Retry-After` cut to `maxRetryAfterMs`, a
//! call's policy over its client's field by field, `beforeRetry`
//! returning `false`, a hook's retries counted apart (at most
//! `max(1, limit)`, so that a token refresh works with `retries: 0`), and
//! a bad policy refused with nothing sent.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Function, Object};
use user_management_client::{ErrorKind, Hooks, RetryPolicy};
use wasm_bindgen_test::*;

use super::rust_api::{failed, faked};
use super::*;

/// A 503 (or `status`) with `Retry-After: retry_after`.
fn answer(status: u16, retry_after: &str) -> String {
    format!(
        r#"[{{"status":{status},"headers":{{"retry-after":"{retry_after}"}},"body":"{{\"status\":{status},\"result\":{{}}}}"}}]"#
    )
}

/// A JS function from its source, an expression.
fn function(source: &str) -> JsValue {
    Function::new_no_args(&format!("return {source};"))
        .call0(&JsValue::UNDEFINED)
        .unwrap()
}

#[wasm_bindgen_test]
async fn a_policys_status_codes_and_limit_decide_the_attempts() {
    let policy = js(r#"{"limit":3,"statusCodes":[503]}"#);
    let fake = scripted(&answer(503, "0"));
    let r = rejects(fake_count(&fake, "{}", &[("retries", &policy)])).await;
    assert_eq!(r.http_status, Some(503.0));
    assert_eq!(call_count(&fake), 4);
    let fake = scripted(&answer(500, "0"));
    let r = rejects(fake_count(&fake, "{}", &[("retries", &policy)])).await;
    assert_eq!(r.http_status, Some(500.0));
    assert_eq!(call_count(&fake), 1);
    // A status no default retries, named by the policy.
    let fake = scripted(&answer(418, "0"));
    let policy = js(r#"{"statusCodes":[418]}"#);
    rejects(fake_count(&fake, "{}", &[("retries", &policy)])).await;
    assert_eq!(call_count(&fake), 3, "the default limit, 2");
}

#[wasm_bindgen_test]
async fn a_calls_policy_overrides_its_clients_field_by_field() {
    let client_policy = js(r#"{"limit":3,"statusCodes":[500]}"#);
    let client = |fake: &JsValue| {
        let base = JsValue::from_str(FAKE);
        UsersClient::new(with_fake(
            fake,
            &[("baseUrl", &base), ("retries", &client_policy)],
        ))
        .unwrap()
    };
    let fake = scripted(&answer(503, "0"));
    let call = obj(&[("retries", &js(r#"{"statusCodes":[503]}"#))]);
    rejects(client(&fake).count_users(JsValue::UNDEFINED, call)).await;
    assert_eq!(
        call_count(&fake),
        4,
        "the call's statuses, the client's limit"
    );
    let fake = scripted(&answer(500, "0"));
    let call = obj(&[("retries", &JsValue::from(1))]);
    rejects(client(&fake).count_users(JsValue::UNDEFINED, call)).await;
    assert_eq!(call_count(&fake), 2, "a number sets the limit alone");
}

#[wasm_bindgen_test]
async fn a_retry_after_longer_than_max_retry_after_ms_is_cut_to_it() {
    let fake = scripted(&format!(
        r#"[{},{{"body":{:?}}}]"#,
        answer(503, "5").trim_matches(['[', ']']),
        count_body(7)
    ));
    let seen = function("(() => { const f = (info) => { f.delays.push(info.delayMs); }; f.delays = []; return f; })()");
    let hooks = obj(&[("beforeRetry", &seen)]);
    let policy = js(r#"{"maxRetryAfterMs":1000}"#);
    let got = resolves(fake_count(
        &fake,
        "{}",
        &[("retries", &policy), ("hooks", &hooks)],
    ))
    .await;
    assert_eq!(get(&get(&got, "result"), "totalUsers"), JsValue::from(7));
    assert_eq!(
        json(&get(&seen, "delays")),
        "[1000]",
        "the server asked for 5 s"
    );
}

#[wasm_bindgen_test]
async fn before_retry_returning_false_stops_the_retries() {
    for source in [
        "(() => { const f = (info) => { f.seen = info.error; f.calls = (f.calls ?? 0) + 1; return false; }; return f; })()",
        "(() => { const f = async (info) => { f.seen = info.error; f.calls = (f.calls ?? 0) + 1; return false; }; return f; })()",
    ] {
        let stop = function(source);
        let fake = scripted(&answer(503, "0"));
        let hooks = obj(&[("beforeRetry", &stop)]);
        let r = rejects(fake_count(&fake, "{}", &[("hooks", &hooks)])).await;
        assert_eq!((r.kind.as_str(), r.http_status), ("http", Some(503.0)));
        assert_eq!(call_count(&fake), 1, "{source}");
        assert_eq!(get(&stop, "calls"), JsValue::from(1));
        assert!(
            Object::is(&r.raw, &get(&stop, "seen")),
            "the call rejects with the very info.error"
        );
    }
    // Anything but `false` goes on.
    let fake = scripted(&answer(503, "0"));
    let hooks = obj(&[("beforeRetry", &function("() => 0"))]);
    rejects(fake_count(&fake, "{}", &[("hooks", &hooks)])).await;
    assert_eq!(call_count(&fake), 3);
}

#[wasm_bindgen_test]
async fn a_token_refresh_works_with_no_retries() {
    // 401 until `Authorization: Bearer new`; `afterResponse` refreshes.
    let fake = scripted(&format!(
        r#"[{{"authorize":"Bearer new","body":{:?}}}]"#,
        count_body(7)
    ));
    let refreshing = function(
        r#"(() => { let token = "old"; return { headers: () => ({ Authorization: `Bearer ${token}` }),
            hooks: { afterResponse: (info) => { if (info.httpStatus !== 401) return; token = "new"; return { retry: true }; } } }; })()"#,
    );
    let got = resolves(fake_count(
        &fake,
        "{}",
        &[
            ("retries", &JsValue::from(0)),
            ("headers", &get(&refreshing, "headers")),
            ("hooks", &get(&refreshing, "hooks")),
        ],
    ))
    .await;
    assert_eq!(get(&get(&got, "result"), "totalUsers"), JsValue::from(7));
    assert_eq!(call_count(&fake), 2);
}

#[wasm_bindgen_test]
async fn a_hooks_retries_are_counted_apart_at_most_max_1_limit() {
    let hooks = obj(&[("afterResponse", &function("() => ({ retry: true })"))]);
    for (limit, requests) in [(0, 2), (1, 2), (2, 3)] {
        let fake = scripted(r#"[{"authorize":"Bearer never"}]"#);
        let options = [("retries", &JsValue::from(limit)), ("hooks", &hooks)];
        let r = rejects(fake_count(&fake, "{}", &options)).await;
        assert_eq!((r.kind.as_str(), r.http_status), ("http", Some(401.0)));
        assert_eq!(call_count(&fake), requests, "limit {limit}");
    }
}

#[wasm_bindgen_test]
async fn a_bad_policy_is_refused_and_sends_nothing() {
    for (policy, message) in [
        (
            r#""2""#,
            r#"retries must be a whole number >= 0 or a RetryPolicy object; got "2""#,
        ),
        (
            r#"{"limit":-1}"#,
            "retries.limit must be a whole number >= 0; got -1",
        ),
        (
            r#"{"statusCodes":[503,600]}"#,
            "retries.statusCodes must be an array of whole numbers from 100 to 599; got 600",
        ),
        (
            r#"{"statusCodes":["503"]}"#,
            r#"retries.statusCodes must be an array of whole numbers from 100 to 599; got "503""#,
        ),
        (
            r#"{"statusCodes":503}"#,
            "retries.statusCodes must be an array of whole numbers from 100 to 599; got 503",
        ),
        (
            r#"{"maxRetryAfterMs":-1}"#,
            "retries.maxRetryAfterMs must be a finite number >= 0; got -1",
        ),
        (
            r#"{"retryOn":[503]}"#,
            r#"unknown field "retryOn" of retries; a RetryPolicy has "limit", "statusCodes", "maxRetryAfterMs" or "backoffLimitMs""#,
        ),
    ] {
        let fake = scripted(&answer(503, "0"));
        let r = rejects(fake_count(&fake, "{}", &[("retries", &js(policy))])).await;
        assert_eq!(r.kind, "validation", "{policy}");
        assert_eq!(r.param.as_deref(), Some("retries"), "{policy}");
        assert_eq!(r.message, message);
        assert_eq!(call_count(&fake), 0, "{policy}");
    }
    let thrown = UsersClient::new(obj(&[
        ("baseUrl", &FAKE.into()),
        ("retries", &js(r#"{"limit":1.5}"#)),
    ]))
    .err()
    .expect("the constructor throws");
    assert_eq!(get(&thrown, "param"), JsValue::from("retries"));
}

/// The same policy in the Rust API on wasm32 (its async driver over
/// `fetch`): its status codes and limit, and `before_retry` returning
/// `false`.
#[wasm_bindgen_test]
async fn rust_a_policy_and_a_before_retry_that_stops() {
    let fake = scripted(&answer(503, "0"));
    let policy = RetryPolicy::default().limit(3).status_codes([503]);
    let client = faked(&fake, |o| o.retry_policy(policy));
    let error = failed(client.count_users().send().await);
    assert_eq!(error.http_status(), Some(503));
    assert_eq!(call_count(&fake), 4);
    let fake = scripted(&answer(500, "0"));
    let client_policy = RetryPolicy::default().limit(3).status_codes([500]);
    let client = faked(&fake, |o| o.retry_policy(client_policy));
    let call_policy = RetryPolicy::default().status_codes([503]);
    let error = failed(client.count_users().retry_policy(call_policy).send().await);
    assert_eq!(error.http_status(), Some(500));
    assert_eq!(
        call_count(&fake),
        1,
        "the call's statuses over the client's"
    );

    let fake_busy = scripted(&answer(503, "0"));
    let asked = Rc::new(Cell::new(0));
    let counted = Rc::clone(&asked);
    let hooks = Hooks::default().before_retry(move |_| {
        counted.set(counted.get() + 1);
        false
    });
    let client = faked(&fake_busy, |o| o.hooks(hooks));
    let error = failed(client.count_users().send().await);
    assert_eq!(error.kind(), ErrorKind::Http, "{error}");
    assert_eq!(error.http_status(), Some(503));
    assert_eq!(asked.get(), 1);
    assert_eq!(call_count(&fake_busy), 1, "no retry was made");
}
