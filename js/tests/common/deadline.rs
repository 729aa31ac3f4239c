//! An attempt's `timeoutMs` is one deadline, from its first header
//! function to its last `afterResponse`: a header function or a hook still
//! pending when it runs out ends the attempt as `timeout`, which the retry
//! rule retries like any timeout; `beforeRetry` has a `timeoutMs` of its
//! own, past which the call ends with the error it was to retry;
//! `timeoutMs: 0` leaves the caller's signal alone. Through the JS API,
//! against a fake `fetch`.

use js_sys::{Array, Object};
use wasm_bindgen_test::*;

use super::*;

/// A fake `fetch` answering a count of 7, after `delay_ms` where given.
fn counting(delay_ms: Option<u32>) -> JsValue {
    let body = JsValue::from_str(&count_body(7));
    let delay = delay_ms.map(JsValue::from);
    let step = match &delay {
        Some(delay) => obj(&[("body", &body), ("delayMs", delay)]),
        None => obj(&[("body", &body)]),
    };
    fake_fetch(&Array::of1(&step))
}

/// A client of `fake` with `timeoutMs`, `retries` and a header function or
/// hook (`where_`: "headers", or a hook's name) set to `function`.
fn client(
    fake: &JsValue,
    timeout_ms: u32,
    retries: u32,
    where_: &str,
    function: &JsValue,
) -> UsersClient {
    let (timeout, retries) = (JsValue::from(timeout_ms), JsValue::from(retries));
    let hooks = obj(&[(where_, function)]);
    let set = if where_ == "headers" {
        function
    } else {
        &hooks
    };
    let key = if where_ == "headers" {
        "headers"
    } else {
        "hooks"
    };
    let base = JsValue::from_str(FAKE);
    let options = with_fake(
        fake,
        &[
            ("baseUrl", &base),
            ("timeoutMs", &timeout),
            ("retries", &retries),
            (key, set),
        ],
    );
    UsersClient::new(options).unwrap()
}

#[wasm_bindgen_test]
async fn a_header_function_or_hook_that_never_settles_ends_the_attempt_as_a_timeout() {
    for where_ in ["headers", "beforeRequest", "afterResponse"] {
        let fake = counting(None);
        let never = counted_hanging();
        let client = client(&fake, 200, 0, where_, &never);
        let r = rejects(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
        assert_eq!(r.kind, "timeout", "{where_}: {}", r.message);
        assert!(
            r.message.contains("timeoutMs (200 ms)"),
            "{where_}: {}",
            r.message
        );
        assert_eq!(provider_count(&never), 1, "{where_}: called once");
        let sent = if where_ == "afterResponse" { 1 } else { 0 };
        assert_eq!(call_count(&fake), sent, "{where_}: requests sent");
    }
}

#[wasm_bindgen_test]
async fn with_one_retry_a_header_function_that_never_settles_is_asked_twice_then_times_out() {
    let fake = counting(None);
    let never = counted_hanging();
    let client = client(&fake, 200, 1, "headers", &never);
    let r = rejects(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(r.kind, "timeout", "{}", r.message);
    assert_eq!(provider_count(&never), 2, "one attempt, then its retry");
    assert_eq!(call_count(&fake), 0, "nothing sent");
}

#[wasm_bindgen_test]
async fn the_deadline_is_one_for_the_header_function_and_the_answer_together() {
    // 150 ms for the headers, then 100 ms for the answer: each within
    // 200 ms, both together not.
    let fake = counting(Some(100));
    let client = client(&fake, 200, 0, "headers", &slow_provider(150));
    let r = rejects(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(r.kind, "timeout", "{}", r.message);
    assert_eq!(call_count(&fake), 1, "the request went, and was cut short");
    assert!(call_signal_aborted(&fake, 0), "its request is aborted");
}

#[wasm_bindgen_test]
async fn with_no_timeout_only_the_signal_ends_a_hook_that_never_settles() {
    let fake = counting(None);
    let never = counted_hanging();
    let client = client(&fake, 0, 0, "beforeRequest", &never);
    let controller = abort_controller();
    let signal = get(&controller, "signal");
    let promise = client.count_users(JsValue::UNDEFINED, obj(&[("signal", &signal)]));
    abort_later(&controller, 250);
    let r = rejects(promise).await;
    assert_eq!(r.kind, "aborted", "{}", r.message);
    assert_eq!(call_count(&fake), 0);
}

#[wasm_bindgen_test]
async fn a_before_retry_that_never_settles_ends_the_call_with_the_error_it_was_to_retry() {
    let busy = obj(&[
        ("status", &JsValue::from(503)),
        ("body", &JsValue::from_str(r#"{"status":503,"result":{}}"#)),
    ]);
    let fake = fake_fetch(&Array::of1(&busy));
    let never = counted_hanging();
    let client = client(&fake, 200, 2, "beforeRetry", &never);
    let r = rejects(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(r.kind, "http", "{}", r.message);
    assert_eq!(r.http_status, Some(503.0));
    assert_eq!(provider_count(&never), 1, "beforeRetry called once");
    assert_eq!(call_count(&fake), 1, "no retry was made");
    assert!(
        Object::is(&r.raw, &seen_error(&never)),
        "the call rejects with the very error beforeRetry saw"
    );
}

/// The same deadline in the Rust API on wasm32 (its async driver over
/// `fetch`): a header provider that never settles times out each attempt,
/// and a `before_retry` that never settles ends the call with the 503.
#[wasm_bindgen_test]
async fn rust_a_provider_or_before_retry_that_never_settles_is_bounded_by_the_timeout() {
    use std::cell::Cell;
    use std::rc::Rc;
    use std::time::Duration;

    use user_management_client::{ErrorKind, HeaderList, Hooks};

    use super::rust_api::{failed, faked};

    let fake = counting(None);
    let asked = Rc::new(Cell::new(0));
    let counted = Rc::clone(&asked);
    let client = faked(&fake, |o| {
        o.timeout(Duration::from_millis(200))
            .retries(1)
            .header_provider(move || {
                counted.set(counted.get() + 1);
                std::future::pending::<HeaderList>()
            })
    });
    let error = failed(client.count_users().send().await);
    assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
    assert_eq!(asked.get(), 2, "one ask per attempt");
    assert_eq!(call_count(&fake), 0, "nothing sent");

    let busy = obj(&[
        ("status", &JsValue::from(503)),
        ("body", &JsValue::from_str(r#"{"status":503,"result":{}}"#)),
    ]);
    let fake = fake_fetch(&Array::of1(&busy));
    let retried = Rc::new(Cell::new(0));
    let counted = Rc::clone(&retried);
    let hooks = Hooks::default().before_retry(move |_| {
        counted.set(counted.get() + 1);
        async { std::future::pending::<()>().await }
    });
    let client = faked(&fake, |o| {
        o.timeout(Duration::from_millis(200))
            .retries(2)
            .hooks(hooks)
    });
    let error = failed(client.count_users().send().await);
    assert_eq!(error.kind(), ErrorKind::Http, "{error}");
    assert_eq!(error.http_status(), Some(503));
    assert_eq!(retried.get(), 1);
    assert_eq!(call_count(&fake), 1, "no retry was made");
}
