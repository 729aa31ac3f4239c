//! Promises that never settle: a custom `fetch`, or a body's
//! `text()`, that ignores the request's signal and never settles, and a
//! header provider that never settles. The attempt's timeout or the
//! caller's signal still ends the call with the contract's kind, every
//! attempt's request is cancelled, and the next call works, from the JS API
//! and from the Rust API. (`tests/load/never-settles.test.mjs` proves that
//! such calls leave nothing behind in the wasm memory.)

use std::future::Future;
use std::sync::Arc;
use std::task::{Context, Wake, Waker};
use std::time::Duration;

use user_management_client::{CallOptions, CountParams, ErrorKind};
use wasm_bindgen_test::*;

use super::rust_api::{failed, faked, none};
use super::*;

/// What never settles: the `fetch` itself, or the body it answers with.
const NEVER: [&str; 2] = ["fetch", "body"];

/// Whether every one of the fake's `n` requests was cancelled.
fn all_cancelled(fake: &JsValue, n: u32) -> bool {
    (0..n).all(|i| call_signal_aborted(fake, i))
}

#[wasm_bindgen_test]
async fn a_fetch_or_body_that_never_settles_times_out_on_each_attempt() {
    for never in NEVER {
        let fake = never_settling(never);
        let (timeout, retries) = (JsValue::from(30), JsValue::from(2));
        let promise = fake_count(
            &fake,
            "{}",
            &[("timeoutMs", &timeout), ("retries", &retries)],
        );
        // Once the last attempt is under way (or the call is over), the
        // call settles before a timer of 5 s armed then: its own timer of
        // 30 ms is due long before, however busy the machine.
        while call_count(&fake) < 3 && !settles_before(&promise, 10).await {}
        assert!(
            settles_before(&promise, 5_000).await,
            "{never}: settles promptly"
        );
        let r = rejects(promise).await;
        assert_eq!(r.kind, "timeout", "{never}: {}", r.message);
        assert_eq!(call_count(&fake), 3, "{never}: a timeout per attempt");
        assert!(all_cancelled(&fake, 3), "{never}: every attempt cancelled");
    }
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn a_fetch_body_or_header_provider_that_never_settles_is_aborted_at_once() {
    // No timeout: only the signal can end these calls.
    let zero = JsValue::from(0);
    for never in NEVER {
        let fake = never_settling(never);
        let controller = abort_controller();
        let signal = get(&controller, "signal");
        let client = UsersClient::new(with_fake(
            &fake,
            &[("baseUrl", &FAKE.into()), ("timeoutMs", &zero)],
        ))
        .unwrap();
        let promise = client.count_users(JsValue::UNDEFINED, obj(&[("signal", &signal)]));
        abort_later(&controller, 30);
        let r = rejects(promise).await;
        assert_eq!(r.kind, "aborted", "{never}: {}", r.message);
        assert_eq!(call_count(&fake), 1, "{never}: not retried");
        assert!(all_cancelled(&fake, 1), "{never}: the request is cancelled");
    }
    let fake = never_settling("fetch");
    let controller = abort_controller();
    let signal = get(&controller, "signal");
    let provider = hanging_provider();
    let promise = fake_count(
        &fake,
        "{}",
        &[
            ("signal", &signal),
            ("headers", &provider),
            ("timeoutMs", &zero),
        ],
    );
    abort_later(&controller, 30);
    assert_eq!(rejects(promise).await.kind, "aborted", "headers");
    assert_eq!(call_count(&fake), 0, "headers: nothing sent");
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn rust_a_fetch_or_body_that_never_settles_times_out_on_each_attempt() {
    for never in NEVER {
        let fake = never_settling(never);
        let client = faked(&fake, |o| o.timeout(Duration::from_millis(30)).retries(1));
        let error = failed(client.count_users().send().await);
        assert_eq!(error.kind(), ErrorKind::Timeout, "{never}: {error}");
        assert_eq!(call_count(&fake), 2, "{never}: a timeout per attempt");
        assert!(all_cancelled(&fake, 2), "{never}: every attempt cancelled");
    }
}

#[wasm_bindgen_test]
async fn rust_a_fetch_or_body_that_never_settles_is_aborted_at_once() {
    for never in NEVER {
        let fake = never_settling(never);
        let controller = web_sys::AbortController::new().unwrap();
        let options = CallOptions::default()
            .signal(controller.signal())
            .timeout(Duration::ZERO);
        abort_later(&controller, 20);
        let error = failed(
            faked(&fake, |o| o)
                .count_users()
                .options(options.clone())
                .send()
                .await,
        );
        assert_eq!(error.kind(), ErrorKind::Aborted, "{never}: {error}");
        assert_eq!(call_count(&fake), 1, "{never}: not retried");
        assert!(all_cancelled(&fake, 1), "{never}: the request is cancelled");
    }
}

/// Where a test's stuck function goes: the headers option, or a hook.
const STUCK: [&str; 3] = ["headers", "beforeRequest", "afterResponse"];

/// A count whose `place` is a function that never settles, with
/// `timeoutMs` 200 and `retries`: the rejection, the stuck function's
/// calls and the requests sent.
async fn stuck_count(place: &str, retries: u32) -> (Rejection, u32, u32) {
    let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(1)));
    let stuck = stuck_function();
    let (timeout, retries) = (JsValue::from(200), JsValue::from(retries));
    let hooks = obj(&[(place, &stuck)]);
    let (key, value) = match place {
        "headers" => ("headers", &stuck),
        _ => ("hooks", &hooks),
    };
    let extra = [(key, value), ("timeoutMs", &timeout), ("retries", &retries)];
    let r = rejects(fake_count(&fake, "{}", &extra)).await;
    (r, provider_count(&stuck), call_count(&fake))
}

/// The attempt's `timeoutMs` bounds the caller's code it waits for: a
/// headers function, `beforeRequest` or `afterResponse` that never
/// settles ends the attempt as `timeout`, retried by the rule like any.
#[wasm_bindgen_test]
async fn a_header_function_or_hook_that_never_settles_ends_its_attempt_as_a_timeout() {
    for place in STUCK {
        let sent = |n: u32| if place == "afterResponse" { n } else { 0 };
        let (r, calls, requests) = stuck_count(place, 0).await;
        assert_eq!(r.kind, "timeout", "{place}: {}", r.message);
        assert!(r.message.contains("timeoutMs (200 ms)"), "{}", r.message);
        let waited_for = if place == "headers" {
            "the headers function".to_string()
        } else {
            format!("the {place} hook")
        };
        assert!(r.message.contains(&waited_for), "{}", r.message);
        assert_eq!((calls, requests), (1, sent(1)), "{place}");
        let (r, calls, requests) = stuck_count(place, 1).await;
        assert_eq!(r.kind, "timeout", "{place}: {}", r.message);
        assert_eq!((calls, requests), (2, sent(2)), "{place}: two attempts");
    }
    // With no timeout, only the caller's signal ends the wait.
    let zero = JsValue::from(0);
    for place in STUCK {
        let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(1)));
        let stuck = stuck_function();
        let hooks = obj(&[(place, &stuck)]);
        let (key, value) = match place {
            "headers" => ("headers", &stuck),
            _ => ("hooks", &hooks),
        };
        let controller = abort_controller();
        let signal = get(&controller, "signal");
        let extra = [(key, value), ("timeoutMs", &zero), ("signal", &signal)];
        let promise = fake_count(&fake, "{}", &extra);
        abort_later(&controller, 250);
        let r = rejects(promise).await;
        assert_eq!(r.kind, "aborted", "{place}: {}", r.message);
        assert_eq!(provider_count(&stuck), 1, "{place}");
    }
    good_call_still_works().await;
}

/// A `beforeRetry` still pending after a whole `timeoutMs` ends the call
/// with the error it was to retry.
#[wasm_bindgen_test]
async fn a_before_retry_that_never_settles_ends_the_call_with_the_error_it_was_to_retry() {
    let fake = scripted(r#"[{"status":503,"body":"busy"}]"#);
    let stuck = stuck_function();
    let hooks = obj(&[("beforeRetry", &stuck)]);
    let (timeout, retries) = (JsValue::from(200), JsValue::from(2));
    let extra = [
        ("hooks", &hooks),
        ("timeoutMs", &timeout),
        ("retries", &retries),
    ];
    let r = rejects(fake_count(&fake, "{}", &extra)).await;
    assert_eq!(
        (r.kind.as_str(), r.http_status),
        ("http", Some(503.0)),
        "{}",
        r.message
    );
    assert_eq!((provider_count(&stuck), call_count(&fake)), (1, 1));
}

struct NoWake;

impl Wake for NoWake {
    fn wake(self: Arc<Self>) {}
}

#[wasm_bindgen_test]
async fn rust_dropping_the_future_cancels_a_fetch_that_never_settles() {
    let fake = never_settling("fetch");
    let client = faked(&fake, |o| o.timeout(Duration::ZERO));
    let params = CountParams::default();
    let options = none();
    let mut future = Box::pin(
        client
            .count_users()
            .params(params.clone())
            .options(options.clone())
            .send(),
    );
    let waker = Waker::from(Arc::new(NoWake));
    let polled = future.as_mut().poll(&mut Context::from_waker(&waker));
    assert!(polled.is_pending());
    assert_eq!(call_count(&fake), 1, "the first poll sends the request");
    drop(future);
    assert!(all_cancelled(&fake, 1), "dropping cancels the fetch");
    good_call_still_works().await;
}
