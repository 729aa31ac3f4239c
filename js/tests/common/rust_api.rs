//! The contract's "Rust API" section: `UsersClient` called from Rust, with
//! typed params and results, against the reference server (its fault
//! scenarios included) and the scripted fake `fetch`. Also the gloo-net
//! traps (a custom `fetch` that rejects with a non-`Error` or resolves with
//! a non-`Response`) through the JS API: each must be a `network` error, and
//! the module must keep working.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::time::Duration;

use serde::de::IgnoredAny;
use serde::Deserialize;
use user_management_client::{
    Active, CallOptions, ClientOptions, Count, CountParams, Envelope, Error, ErrorKind, HeaderList,
    ListParams, ParamsIn, UsersClient as RustClient,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use super::*;

#[wasm_bindgen(module = "/tests/common/helpers.js")]
extern "C" {
    #[wasm_bindgen(js_name = fetchRejectingWith)]
    fn fetch_rejecting_with(reason: &JsValue) -> js_sys::Function;
    #[wasm_bindgen(js_name = fetchThrowing)]
    fn fetch_throwing(value: &JsValue) -> js_sys::Function;
    #[wasm_bindgen(js_name = fetchResolvingWith)]
    fn fetch_resolving_with(value: &JsValue) -> js_sys::Function;
    #[wasm_bindgen(js_name = oddResponse)]
    fn odd_response(name: &str) -> JsValue;
    #[wasm_bindgen(js_name = timeoutSignal)]
    fn timeout_signal(ms: u32) -> JsValue;
}

/// One page of the reference server's list (its shape is not in the spec:
/// the caller names it).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Page {
    users: Vec<User>,
    total_users: u64,
    page: u64,
    page_size: u64,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct User {
    id: u64,
    username: String,
    active: bool,
}

/// The same list, typed loosely.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LoosePage {
    users: Vec<IgnoredAny>,
    total_users: u64,
}

pub(super) fn none() -> CallOptions {
    CallOptions::default()
}

fn client(options: ClientOptions) -> RustClient {
    match RustClient::new(options) {
        Ok(client) => client,
        Err(error) => panic!("the options were refused: {error}"),
    }
}

/// A client of the reference server with every default.
fn real() -> RustClient {
    client(ClientOptions::new(server()))
}

/// A client of the fake base URL that calls `fake`'s `fetch`.
pub(super) fn faked(
    fake: &JsValue,
    edit: impl FnOnce(ClientOptions) -> ClientOptions,
) -> RustClient {
    let mut options = ClientOptions::new(FAKE);
    options.fetch = Some(get(fake, "fetch").unchecked_into());
    client(edit(options))
}

fn count_params(active: Active) -> CountParams {
    CountParams {
        active: Some(active),
        ..Default::default()
    }
}

async fn truth(params: &str) -> u64 {
    JsFuture::from(raw_count(server(), &js(params)))
        .await
        .unwrap()
        .as_f64()
        .unwrap() as u64
}

/// The error of a call that must fail.
pub(super) fn failed<T: std::fmt::Debug>(outcome: Result<T, Error>) -> Error {
    match outcome {
        Ok(value) => panic!("expected an error, got {value:?}"),
        Err(error) => error,
    }
}

/// The outcome of `call`, and whether it settled before a timer of `ms`
/// armed with it fired (see [`settles_before`]).
async fn settled_before<T: 'static>(
    ms: u32,
    call: impl Future<Output = Result<T, Error>> + 'static,
) -> (bool, Result<T, Error>) {
    let slot = Rc::new(RefCell::new(None));
    let filled = Rc::clone(&slot);
    let promise = wasm_bindgen_futures::future_to_promise(async move {
        *filled.borrow_mut() = Some(call.await);
        Ok(JsValue::UNDEFINED)
    });
    let before = settles_before(&promise, ms).await;
    JsFuture::from(promise).await.unwrap();
    let outcome = slot.borrow_mut().take().unwrap();
    (before, outcome)
}

/// The result of a call that must succeed.
fn ok<T>(outcome: Result<T, Error>) -> T {
    match outcome {
        Ok(value) => value,
        Err(error) => panic!("expected success, got {:?}: {error}", error.kind()),
    }
}

fn header(call: &JsValue, name: &str) -> Option<String> {
    get(&get(call, "headers"), name).as_string()
}

const BUSY: &str = r#"{"status":503,"headers":{"retry-after":"0"},"body":"busy, try later"}"#;

#[wasm_bindgen_test]
async fn count_users_matches_a_raw_count_on_the_real_server() {
    let client = real();
    for (active, wire) in [
        (Active::True, r#"{"active":"true"}"#),
        (Active::False, r#"{"active":"false"}"#),
        (Active::All, r#"{"active":"all"}"#),
    ] {
        let got: Envelope<Count> = ok(client
            .count_users()
            .params(count_params(active))
            .send()
            .await);
        assert_eq!(got.status, 200);
        assert_eq!(got.result.total_users, truth(wire).await, "{wire}");
    }
    let all = ok(client.count_users().send().await);
    assert_eq!(all.result.total_users, truth("{}").await);
    assert!(all.result.total_users > 0);
    let t = ok(client
        .count_users()
        .params(count_params(true.into()))
        .send()
        .await);
    let f = ok(client
        .count_users()
        .params(count_params(false.into()))
        .send()
        .await);
    assert_eq!(
        t.result.total_users + f.result.total_users,
        all.result.total_users
    );
}

#[wasm_bindgen_test]
async fn the_three_transports_agree_in_rust() {
    let expected = truth(r#"{"active":"true"}"#).await;
    for params_in in [ParamsIn::Body, ParamsIn::Query, ParamsIn::Form] {
        let mut options = ClientOptions::new(server());
        options.params_in = params_in;
        let got = ok(client(options)
            .count_users()
            .params(count_params(Active::True))
            .send()
            .await);
        assert_eq!(got.result.total_users, expected, "{params_in:?}");
    }
}

#[wasm_bindgen_test]
async fn list_users_into_a_callers_serde_type() {
    let client = real();
    let params = |page, page_size| ListParams {
        active: Some(Active::True),
        page: Some(page),
        page_size: Some(page_size),
        ..Default::default()
    };
    let active = truth(r#"{"active":"true"}"#).await;
    let six: Envelope<Page> = ok(client.list_users().params(params(1, 6)).send().await);
    assert_eq!(six.status, 200);
    assert_eq!(
        (
            six.result.page,
            six.result.page_size,
            six.result.users.len()
        ),
        (1, 6, 6)
    );
    assert_eq!(six.result.total_users, active);
    assert!(six.result.users.iter().all(|u| u.active));
    assert!(six.result.users.iter().all(|u| !u.username.is_empty()));
    let second: Envelope<Page> = ok(client.list_users().params(params(2, 3)).send().await);
    assert_eq!((second.result.page, second.result.page_size), (2, 3));
    let ids = |page: &Page| page.users.iter().map(|u| u.id).collect::<Vec<_>>();
    assert_eq!(ids(&second.result), ids(&six.result)[3..].to_vec());
    let loose: Envelope<LoosePage> = ok(client
        .list_users()
        .params(ListParams {
            page_size: Some(4),
            ..Default::default()
        })
        .send()
        .await);
    assert_eq!(loose.result.users.len(), 4);
    assert_eq!(loose.result.total_users, truth("{}").await);
    // Any serde type names the result, down to one that ignores it.
    let ignored: Envelope<IgnoredAny> = ok(client.list_users().params(params(1, 1)).send().await);
    assert_eq!(ignored.status, 200);
}

#[wasm_bindgen_test]
async fn list_params_go_out_with_their_wire_names() {
    let fake = scripted(r#"[{"body":"{\"status\":200,\"result\":[1,2]}"}]"#);
    let mut params = ListParams {
        query: Some("ann".into()),
        active: Some(Active::False),
        page: Some(2),
        page_size: Some(50),
        ..Default::default()
    };
    params.extra.insert("sort".into(), "name".into());
    // Any JSON value in a body, as from JS; a null is not sent.
    let filter = serde_json::json!({ "role": ["admin", "owner"], "since": 2020 });
    params.extra.insert("filter".into(), filter.clone());
    params
        .extra
        .insert("unsent".into(), serde_json::Value::Null);
    let got: Envelope<Vec<u32>> = ok(faked(&fake, |o| o)
        .list_users()
        .params(params.clone())
        .send()
        .await);
    assert_eq!(got.result, vec![1, 2]);
    let sent = call(&fake, 0);
    assert_eq!(
        get(&sent, "url").as_string().as_deref(),
        Some("http://fake.invalid:8080/prefix/api/users")
    );
    let body = parse(&get(&sent, "body").as_string().unwrap());
    assert_eq!(
        json(&body),
        r#"{"query":"ann","active":"false","page":2,"pageSize":50,"filter":{"role":["admin","owner"],"since":2020},"sort":"name"}"#
    );
    // In query mode, as from JS: scalars go out as `String(value)` writes
    // them; an object is a validation error naming its key, and nothing is
    // sent.
    let fake = scripted(r#"[{"body":"{\"status\":200,\"result\":[]}"}]"#);
    let client = faked(&fake, |o| o.params_in(ParamsIn::Query));
    let mut params = ListParams::default();
    params.extra.insert("n".into(), serde_json::json!(1.5));
    params.extra.insert("b".into(), serde_json::json!(true));
    let _: Envelope<Vec<u32>> = ok(client.list_users().params(params.clone()).send().await);
    assert_eq!(
        get(&call(&fake, 0), "url").as_string().as_deref(),
        Some("http://fake.invalid:8080/prefix/api/users?b=true&n=1.5")
    );
    params.extra.insert("filter".into(), filter);
    let error = failed(
        client
            .list_users()
            .params(params.clone())
            .send::<Vec<u32>>()
            .await,
    );
    assert_eq!(
        (error.kind(), error.param()),
        (ErrorKind::Validation, Some("filter"))
    );
    assert_eq!(call_count(&fake), 1, "nothing more was sent");
    // Unset params are not sent: `{}` for none.
    let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(3)));
    ok(faked(&fake, |o| o).count_users().send().await);
    assert_eq!(get(&call(&fake, 0), "body"), JsValue::from("{}"));
}

#[wasm_bindgen_test]
async fn a_result_that_does_not_fit_the_type_is_a_decode_error() {
    let fake = scripted(r#"[{"body":"{\"status\":200,\"result\":{\"users\":\"nope\"}}"}]"#);
    let error = failed(faked(&fake, |o| o).list_users().send::<LoosePage>().await);
    assert_eq!(error.kind(), ErrorKind::Decode, "{error}");
    assert_eq!(call_count(&fake), 1);
}

#[wasm_bindgen_test]
fn bad_options_are_validation_errors_at_once() {
    for bad in [
        "",
        "not a url",
        "ftp://x",
        "http://x/?q",
        "http://x/#f",
        "//x",
    ] {
        let error = failed(RustClient::new(ClientOptions::new(bad)).map(|_| ()));
        assert_eq!(error.kind(), ErrorKind::Validation, "{bad:?}");
        assert_eq!(error.param(), Some("base_url"), "{bad:?}");
        assert_eq!(error.to_string(), error.message());
    }
    for (name, value) in [
        ("bad name", "x"),
        ("", "x"),
        ("x:y", "z"),
        ("é", "x"),
        ("x", "a\r\nInjected: 1"),
        ("x", "a\0b"),
        ("x", "☃"),
    ] {
        let mut options = ClientOptions::new(server());
        options.headers.push((name.into(), value.into()));
        let error = failed(RustClient::new(options).map(|_| ()));
        assert_eq!(error.kind(), ErrorKind::Validation, "{name:?}: {value:?}");
        assert_eq!(error.param(), Some("headers"), "{name:?}: {value:?}");
    }
    let mut options = ClientOptions::new("https://api.example.com/v1/");
    options
        .headers
        .push(("Authorization".into(), "Bearer x".into()));
    assert!(RustClient::new(options).is_ok());
}

#[wasm_bindgen_test]
async fn bad_call_headers_are_refused_before_anything_is_sent() {
    let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(1)));
    let options = CallOptions::default().header("bad name", "x");
    let error = failed(
        faked(&fake, |o| o)
            .count_users()
            .options(options.clone())
            .send()
            .await,
    );
    assert_eq!(
        (error.kind(), error.param()),
        (ErrorKind::Validation, Some("headers"))
    );
    assert_eq!(call_count(&fake), 0);
}

#[wasm_bindgen_test]
async fn http_503_with_two_retries_is_three_attempts_then_http() {
    let fake = scripted(&format!("[{BUSY}]"));
    let error = failed(faked(&fake, |o| o.retries(2)).count_users().send().await);
    assert_eq!(call_count(&fake), 3);
    assert_eq!(error.kind(), ErrorKind::Http);
    assert_eq!(error.http_status(), Some(503));
    assert_eq!(error.api_status(), None, "the body is not an envelope");
    assert_eq!(error.body(), Some("busy, try later"));
    assert_eq!(error.to_string(), error.message());
    assert!(!error.message().is_empty());
    // std::error::Error, Debug.
    let boxed: Box<dyn std::error::Error> = Box::new(error.clone());
    assert_eq!(boxed.to_string(), error.message());
    assert!(format!("{error:?}").contains("Http"));

    let fake = scripted(&format!("[{BUSY}]"));
    failed(faked(&fake, |o| o.retries(0)).count_users().send().await);
    assert_eq!(call_count(&fake), 1, "retries: 0");
}

#[wasm_bindgen_test]
async fn retries_on_the_real_server() {
    let base = fault("busy");
    let mut options = ClientOptions::new(base.as_str());
    options.retry_policy.limit = Some(2);
    let error = failed(client(options).count_users().send().await);
    assert_eq!(
        (error.kind(), error.http_status()),
        (ErrorKind::Http, Some(503))
    );
    assert_eq!(attempts(&base).await, 3.0);
    // A 503 then a good answer: resolves on the second attempt.
    let base = fault("retry-after-seconds");
    let got = ok(client(ClientOptions::new(base.as_str()))
        .count_users()
        .send()
        .await);
    assert_eq!(got.result.total_users, 7);
    assert_eq!(attempts(&base).await, 2.0);
}

#[wasm_bindgen_test]
async fn a_non_200_envelope_is_an_api_error() {
    let fake = scripted(r#"[{"body":"{\"status\":403,\"result\":{\"error\":\"forbidden\"}}"}]"#);
    let error = failed(faked(&fake, |o| o).count_users().send().await);
    assert_eq!(error.kind(), ErrorKind::Api);
    assert_eq!(error.api_status(), Some(403));
    assert_eq!(error.http_status(), Some(200));
    assert!(error.body().unwrap().contains("forbidden"));
    assert_eq!(call_count(&fake), 1, "api errors are not retried");

    let base = fault("status-403");
    let error = failed(
        client(ClientOptions::new(base.as_str()))
            .list_users()
            .send::<IgnoredAny>()
            .await,
    );
    assert_eq!(
        (error.kind(), error.api_status(), error.http_status()),
        (ErrorKind::Api, Some(403), Some(200))
    );
    assert_eq!(attempts(&base).await, 1.0);
}

#[wasm_bindgen_test]
async fn decode_and_http_errors_from_the_real_server() {
    for (scenario, kind, http_status, status) in [
        ("not-json", ErrorKind::Decode, Some(200), None),
        ("total-float", ErrorKind::Decode, Some(200), Some(200)),
        ("envelope-404", ErrorKind::Http, Some(404), Some(404)),
        ("html-500", ErrorKind::Http, Some(500), None),
    ] {
        let mut options = ClientOptions::new(fault(scenario));
        options.retry_policy.limit = Some(0);
        let error = failed(client(options).count_users().send().await);
        assert_eq!(
            (error.kind(), error.http_status(), error.api_status()),
            (kind, http_status, status),
            "{scenario}: {error}"
        );
    }
}

#[wasm_bindgen_test]
async fn no_answer_within_timeout_ms_is_a_timeout() {
    let fake = scripted(r#"[{"hang":true}]"#);
    let client = faked(&fake, |o| o.timeout(Duration::from_millis(50)).retries(0));
    let call = async move { client.count_users().send().await };
    let (before, outcome) = settled_before(2_000, call).await;
    let error = failed(outcome);
    assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
    // The message names the Rust option, not the JS one.
    assert!(
        error
            .message()
            .starts_with("no answer within timeout (50 ms) from POST "),
        "{error}"
    );
    assert!(before, "settles promptly");
    assert_eq!(call_count(&fake), 1);
    assert!(call_signal_aborted(&fake, 0), "the request is cancelled");
    // The call's timeout overrides the client's.
    let fake = scripted(r#"[{"hang":true}]"#);
    let options = CallOptions::default().timeout(Duration::from_millis(30));
    let error = failed(
        faked(&fake, |o| o.retries(0))
            .count_users()
            .options(options.clone())
            .send()
            .await,
    );
    assert_eq!(error.kind(), ErrorKind::Timeout);
}

/// The error's predicates in a JS host: the client's own timeout
/// `is_timeout` and is retryable; the caller's deadline (a signal's
/// `TimeoutError`, given through the builder's `.signal`) `is_timeout`
/// and is not (the call is over); `fetch` failing is a `network` error
/// that `is_connect` cannot tell apart (`false`), retryable.
#[wasm_bindgen_test]
async fn an_errors_predicates_in_a_js_host() {
    let fake = scripted(r#"[{"hang":true}]"#);
    let own = failed(
        faked(&fake, |o| o.timeout(Duration::from_millis(30)).retries(0))
            .count_users()
            .send()
            .await,
    );
    assert!(own.is_timeout() && own.is_retryable(), "{own}");
    let fake = scripted(r#"[{"hang":true}]"#);
    let deadline = failed(
        faked(&fake, |o| o.retries(2))
            .count_users()
            .signal(timeout_signal(50).unchecked_into())
            .send()
            .await,
    );
    assert!(deadline.is_timeout(), "{deadline}");
    assert!(
        !deadline.is_retryable(),
        "the caller's deadline ends the call"
    );
    assert_eq!(call_count(&fake), 1);
    let refused = failed(
        client(ClientOptions::new("http://127.0.0.1:9/").retries(0))
            .count_users()
            .send()
            .await,
    );
    assert_eq!(refused.kind(), ErrorKind::Network, "{refused}");
    assert!(refused.is_retryable() && !refused.is_connect());
}

#[wasm_bindgen_test]
async fn a_body_over_max_body_bytes_is_a_decode_error_naming_the_rust_option() {
    let base = fault("endless");
    let options = ClientOptions::new(base.as_str())
        .max_body_bytes(100_000)
        .retries(2);
    let error = failed(client(options).count_users().send().await);
    assert_eq!(error.kind(), ErrorKind::Decode, "{error}");
    assert_eq!(error.http_status(), Some(200));
    assert!(
        error
            .message()
            .contains("larger than 100000 bytes, the max_body_bytes option"),
        "{error}"
    );
    assert_eq!(attempts(&base).await, 1.0, "never retried");
}

#[wasm_bindgen_test]
async fn an_already_aborted_signal_sends_nothing() {
    let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(1)));
    let options = CallOptions::default().signal(aborted_signal().unchecked_into());
    let client = faked(&fake, |o| o);
    let error = failed(client.count_users().options(options.clone()).send().await);
    assert_eq!(error.kind(), ErrorKind::Aborted);
    let error = failed(
        client
            .list_users()
            .options(options.clone())
            .send::<IgnoredAny>()
            .await,
    );
    assert_eq!(error.kind(), ErrorKind::Aborted);
    assert_eq!(call_count(&fake), 0);
}

#[wasm_bindgen_test]
async fn aborting_in_flight_is_aborted_at_once() {
    let fake = scripted(r#"[{"hang":true}]"#);
    let controller = web_sys::AbortController::new().unwrap();
    let options = CallOptions::default().signal(controller.signal());
    abort_later(&controller, 20);
    let client = faked(&fake, |o| o);
    let call = async move { client.count_users().options(options.clone()).send().await };
    let (before, outcome) = settled_before(2_000, call).await;
    let error = failed(outcome);
    assert_eq!(error.kind(), ErrorKind::Aborted);
    assert!(before, "not at once");
    assert_eq!(call_count(&fake), 1, "not retried");
    assert!(call_signal_aborted(&fake, 0));
}

#[wasm_bindgen_test]
async fn aborting_while_waiting_to_retry_or_for_the_provider_is_aborted_at_once() {
    let fake = scripted(r#"[{"status":503,"headers":{"retry-after":"30"}}]"#);
    let controller = web_sys::AbortController::new().unwrap();
    let options = CallOptions::default().signal(controller.signal());
    abort_later(&controller, 50);
    let client = faked(&fake, |o| o);
    let call = async move { client.count_users().options(options.clone()).send().await };
    let (before, outcome) = settled_before(5_000, call).await;
    let error = failed(outcome);
    assert_eq!(error.kind(), ErrorKind::Aborted);
    assert!(before, "not after Retry-After: 30");
    assert_eq!(call_count(&fake), 1);

    let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(1)));
    let hanging = || std::future::pending::<HeaderList>();
    let controller = web_sys::AbortController::new().unwrap();
    let options = CallOptions::default().signal(controller.signal());
    abort_later(&controller, 20);
    let error = failed(
        faked(&fake, |o| o.header_provider(hanging))
            .count_users()
            .options(options.clone())
            .send()
            .await,
    );
    assert_eq!(error.kind(), ErrorKind::Aborted);
    assert_eq!(call_count(&fake), 0, "nothing sent");
}

struct NoWake;

impl Wake for NoWake {
    fn wake(self: Arc<Self>) {}
}

#[wasm_bindgen_test]
async fn dropping_the_future_cancels_the_request() {
    let fake = scripted(r#"[{"hang":true}]"#);
    let client = faked(&fake, |o| o);
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
    assert!(matches!(polled, Poll::Pending));
    assert_eq!(call_count(&fake), 1, "the first poll sends the request");
    assert!(!call_signal_aborted(&fake, 0));
    drop(future);
    JsFuture::from(sleep(20)).await.unwrap();
    assert!(call_signal_aborted(&fake, 0), "dropping cancels the fetch");
    // The client is fine afterwards.
    let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(4)));
    let got = ok(faked(&fake, |o| o)
        .count_users()
        .params(params.clone())
        .options(options.clone())
        .send()
        .await);
    assert_eq!(got.result.total_users, 4);
}

#[wasm_bindgen_test]
async fn dropping_the_future_while_it_waits_to_retry_sends_no_more() {
    let fake = scripted(r#"[{"status":503,"headers":{"retry-after":"1"}}]"#);
    let client = faked(&fake, |o| o);
    let params = CountParams::default();
    let options = none();
    let future = client
        .count_users()
        .params(params.clone())
        .options(options.clone())
        .send();
    // A select of the call against a 100 ms sleep: the sleep wins.
    let mut future = Box::pin(future);
    let mut timer = JsFuture::from(sleep(100));
    std::future::poll_fn(|cx| {
        if let Poll::Ready(outcome) = future.as_mut().poll(cx) {
            panic!("the call settled: {:?}", outcome.map(|c| c.result));
        }
        std::pin::Pin::new(&mut timer).poll(cx).map(|_| ())
    })
    .await;
    assert_eq!(call_count(&fake), 1, "waiting out Retry-After: 1");
    drop(future);
    JsFuture::from(sleep(1_200)).await.unwrap();
    assert_eq!(call_count(&fake), 1, "no retry after the drop");
}

fn counting(
    calls: &Rc<Cell<u32>>,
    headers: &[(&str, &str)],
) -> impl Fn() -> std::future::Ready<HeaderList> + 'static {
    let calls = Rc::clone(calls);
    let headers: Vec<(String, String)> = headers
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    move || {
        calls.set(calls.get() + 1);
        std::future::ready(headers.clone())
    }
}

#[wasm_bindgen_test]
async fn a_header_provider_is_called_before_every_attempt() {
    let fake = scripted(&format!(
        r#"[{BUSY},{BUSY},{{"body":{:?}}}]"#,
        count_body(5)
    ));
    let calls = Rc::new(Cell::new(0));
    let provider = counting(&calls, &[("Authorization", "Bearer fresh")]);
    let client = faked(&fake, |o| {
        o.header_provider(provider)
            .header("X-Client", "c")
            .header("Authorization", "Bearer stale")
    });
    let got = ok(client.count_users().send().await);
    assert_eq!(got.result.total_users, 5);
    assert_eq!(call_count(&fake), 3);
    assert_eq!(calls.get(), 3, "before every attempt");
    for i in 0..3 {
        let sent = call(&fake, i);
        assert_eq!(
            header(&sent, "authorization").as_deref(),
            Some("Bearer fresh")
        );
        assert_eq!(header(&sent, "x-client").as_deref(), Some("c"));
        assert_eq!(header(&sent, "accept").as_deref(), Some("application/json"));
    }
    ok(client.list_users().send::<IgnoredAny>().await);
    assert_eq!(calls.get(), 4);
}

#[wasm_bindgen_test]
async fn a_failing_or_bad_header_provider_fails_the_call_unsent() {
    let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(1)));
    let refusing = || async {
        Err::<HeaderList, Error>(Error::new(ErrorKind::Network, "token refresh failed"))
    };
    let error = failed(
        faked(&fake, |o| o.header_provider(refusing))
            .count_users()
            .send()
            .await,
    );
    assert_eq!(error.kind(), ErrorKind::Network);
    assert_eq!(error.message(), "token refresh failed");
    let calls = Rc::new(Cell::new(0));
    let bad = counting(&calls, &[("x", "a\r\nInjected: 1")]);
    let error = failed(
        faked(&fake, |o| o.header_provider(bad))
            .count_users()
            .send()
            .await,
    );
    assert_eq!(
        (error.kind(), error.param()),
        (ErrorKind::Validation, Some("headers"))
    );
    assert_eq!(call_count(&fake), 0);
}

#[wasm_bindgen_test]
async fn credentials_never_reach_an_errors_text() {
    let base = fault("echo-auth-401");
    let mut options = ClientOptions::new(base.as_str());
    options
        .headers
        .push(("Authorization".into(), "Bearer s3cret-token".into()));
    let error = failed(client(options).count_users().send().await);
    assert_eq!(error.http_status(), Some(401));
    let everything = format!("{error}\n{error:?}\n{}", error.body().unwrap_or_default());
    assert!(!everything.contains("s3cret-token"), "{everything}");
}

#[wasm_bindgen_test]
async fn a_custom_fetch_that_rejects_oddly_is_a_network_error_in_rust() {
    for reason in [
        JsValue::from("nope"),
        JsValue::UNDEFINED,
        JsValue::NULL,
        JsValue::from(42),
    ] {
        let mut options = ClientOptions::new(FAKE);
        options.fetch = Some(fetch_rejecting_with(&reason));
        options.retry_policy.limit = Some(0);
        let error = failed(client(options).count_users().send().await);
        assert_eq!(error.kind(), ErrorKind::Network, "{reason:?}");
    }
    // What is not a `Response` (no whole status from 100 to 599) is a
    // setup error naming `fetch`; a `Response` whose body fails is `network`.
    for (name, param) in [
        ("empty", Some("fetch")),
        ("number", Some("fetch")),
        ("no-status", Some("fetch")),
        ("bad-status", Some("fetch")),
        ("text-throws", None),
    ] {
        let mut options = ClientOptions::new(FAKE);
        options.fetch = Some(fetch_resolving_with(&odd_response(name)));
        options.retry_policy.limit = Some(0);
        let error = failed(client(options).count_users().send().await);
        let kind = match param {
            Some(_) => ErrorKind::Validation,
            None => ErrorKind::Network,
        };
        assert_eq!(error.kind(), kind, "{name}: {error}");
        assert_eq!(error.param(), param, "{name}: {error}");
    }
    good_call_still_works().await;
}

/// Via the JS API: gloo-net 0.7 panics on these, and a panic would trap
/// the module for every later call.
#[wasm_bindgen_test]
async fn gloo_net_traps_through_the_js_api() {
    // Kind `network`, or, for what is not a `Response`, the setup error
    // naming `fetch`.
    let fetches = [
        (
            "rejects with a string",
            fetch_rejecting_with(&"nope".into()),
            "network",
        ),
        (
            "rejects with undefined",
            fetch_rejecting_with(&JsValue::UNDEFINED),
            "network",
        ),
        ("throws a string", fetch_throwing(&"boom".into()), "network"),
        (
            "resolves to {}",
            fetch_resolving_with(&odd_response("empty")),
            "validation",
        ),
        (
            "resolves to undefined",
            fetch_resolving_with(&JsValue::UNDEFINED),
            "validation",
        ),
        (
            "resolves without a status",
            fetch_resolving_with(&odd_response("no-status")),
            "validation",
        ),
    ];
    for (what, fetch, kind) in fetches {
        for list in [false, true] {
            let options = obj(&[("fetch", &fetch), ("retries", &JsValue::from(0))]);
            let promise = if list {
                list_users(FAKE.into(), JsValue::UNDEFINED, options)
            } else {
                count_users(FAKE.into(), JsValue::UNDEFINED, options)
            };
            let r = rejects(promise).await;
            assert_eq!(r.kind, kind, "{what}: {}", r.message);
            let param = (kind == "validation").then_some("fetch");
            assert_eq!(r.param.as_deref(), param, "{what}");
            assert_eq!(r.http_status, None, "{what}");
        }
        good_call_still_works().await;
    }
}

#[wasm_bindgen_test]
async fn the_rust_client_is_cheap_to_clone_and_keeps_no_state() {
    let fake = scripted(&format!(
        r#"[{BUSY},{{"body":{:?}}},{{"body":{:?}}}]"#,
        count_body(1),
        count_body(2)
    ));
    let a = faked(&fake, |o| o.retries(0));
    let b = a.clone();
    let error = failed(a.count_users().send().await);
    assert_eq!(error.kind(), ErrorKind::Http);
    let got = ok(b.count_users().send().await);
    assert_eq!(got.result.total_users, 1);
    let got = ok(a.count_users().send().await);
    assert_eq!(got.result.total_users, 2);
}

/// Errors as C-GOOD-ERR asks, in a JS host: `Display` is one line of its
/// own and never repeats `source()` (a `network` error's message gives the
/// platform's words, and has no source; a header function's throw is the
/// source of a message that does not quote it). In `query` mode, with a
/// `fetch` whose message quotes the URL (as Deno's does), no param's value
/// is in `Display`, `Debug` or the source.
#[wasm_bindgen_test]
async fn rust_errors_print_each_cause_once_and_no_param_value() {
    let fetch = fetch_quoting_the_url();
    let mut options = ClientOptions::new(FAKE)
        .params_in(ParamsIn::Query)
        .retries(0);
    options.fetch = Some(fetch.unchecked_into());
    let refused = failed(
        client(options)
            .count_users()
            .query("ann-secret-name")
            .send()
            .await,
    );
    assert_eq!(refused.kind(), ErrorKind::Network, "{refused}");
    let source = std::error::Error::source(&refused).map(ToString::to_string);
    let everything = format!("{refused}\n{refused:?}\n{source:?}");
    assert!(!everything.contains("ann-secret-name"), "{everything}");
    assert!(!everything.contains('?'), "{everything}");
    assert_eq!(source, None, "{refused:?}");
    assert_eq!(refused.to_string().lines().count(), 1, "{refused}");

    let fake = scripted("[]");
    let mut options = ClientOptions::new(FAKE).retries(0);
    options.fetch = Some(get(&fake, "fetch").unchecked_into());
    let throwing = failed(
        client(options.header_provider(|| async {
            Err::<Vec<(String, String)>, _>(std::io::Error::other("the token store is locked"))
        }))
        .count_users()
        .send()
        .await,
    );
    assert_eq!(throwing.kind(), ErrorKind::Validation, "{throwing}");
    assert_eq!(throwing.param(), Some("headers"));
    let source = std::error::Error::source(&throwing).map(ToString::to_string);
    assert_eq!(source.as_deref(), Some("the token store is locked"));
    assert!(!throwing.to_string().contains("locked"), "{throwing}");
    assert_eq!(call_count(&fake), 0, "nothing sent");
}
