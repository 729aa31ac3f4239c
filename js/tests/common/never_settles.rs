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
