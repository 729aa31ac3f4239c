//! Options and errors as `fetch` users write them: a caller's deadline
//! (`AbortSignal.timeout`) is a `timeout`, headers come in every form `fetch`
//! takes, `retries` is per call too, and `isRetryable` is the client's own
//! retry rule.

use super::*;
use wasm_bindgen_test::*;

#[wasm_bindgen(module = "/tests/common/helpers.js")]
extern "C" {
    #[wasm_bindgen(js_name = timeoutSignal)]
    fn timeout_signal(ms: u32) -> JsValue;
    #[wasm_bindgen(js_name = anyTimeoutSignal)]
    fn any_timeout_signal(ms: u32) -> JsValue;
    #[wasm_bindgen(js_name = headersObject)]
    fn headers_object(init: &JsValue) -> JsValue;
    fn returning(value: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = resolvingTo)]
    fn resolving_to(value: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = countingRetries)]
    fn counting_retries() -> JsValue;
    #[wasm_bindgen(js_name = retriesCounted)]
    fn retries_counted(hooks: &JsValue) -> u32;
    #[wasm_bindgen(js_name = madeLike)]
    fn made_like(like: &JsValue, kind: &str, message: &str, fields: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = notUsersApiErrors)]
    fn not_users_api_errors() -> js_sys::Array;
    #[wasm_bindgen(js_name = echoedHeader)]
    fn echoed_header(envelope: &JsValue, name: &str) -> JsValue;
}

const HANG: &str = r#"[{"hang":true}]"#;

/// A caller's `AbortSignal.timeout(100)` against a fetch that holds: kind
/// `timeout`, naming the caller's deadline (not the client's `timeoutMs`),
/// at once, after exactly one request, and not retried (no `beforeRetry`)
/// although `retries: 2` would retry a timeout of the client's own.
#[wasm_bindgen_test]
async fn a_callers_deadline_is_a_timeout_and_ends_the_call() {
    let fake = scripted(HANG);
    let hooks = counting_retries();
    let signal = timeout_signal(100);
    let (two, long) = (JsValue::from(2), JsValue::from(10_000));
    let promise = fake_count(
        &fake,
        "{}",
        &[
            ("signal", &signal),
            ("retries", &two),
            ("timeoutMs", &long),
            ("hooks", &hooks),
        ],
    );
    // Against the client's own timer of 10 s: the deadline ends it first.
    assert!(settles_before(&promise, 5_000).await);
    let r = rejects(promise).await;
    assert_eq!(r.kind, "timeout", "{}", r.message);
    assert_eq!(
        r.message,
        "the caller's deadline passed: the call's signal timed out"
    );
    assert!(!r.message.contains("timeoutMs"), "{}", r.message);
    assert_eq!(get(&get(&r.raw, "cause"), "name"), "TimeoutError");
    assert_eq!(
        call_count(&fake),
        1,
        "the caller's deadline is never retried"
    );
    assert_eq!(retries_counted(&hooks), 0, "no retry was even planned");
    assert!(call_signal_aborted(&fake, 0), "the request was cancelled");
    assert!(!is_retryable(&r.raw), "isRetryable agrees: not retried");
}

/// `AbortSignal.any` of a timeout is the caller's deadline too; a plain
/// `abort()` stays `aborted`, as does an abort with a reason of the
/// caller's own.
#[wasm_bindgen_test]
async fn only_a_timeout_reason_is_a_timeout() {
    let any = any_timeout_signal(100);
    if !any.is_null() {
        let fake = scripted(HANG);
        let r = rejects(fake_count(&fake, "{}", &[("signal", &any)])).await;
        assert_eq!(r.kind, "timeout", "{}", r.message);
        assert!(r.message.contains("deadline"), "{}", r.message);
        assert_eq!(call_count(&fake), 1);
    }
    let fake = scripted(HANG);
    let controller = abort_controller();
    let signal = get(&controller, "signal");
    let promise = fake_count(&fake, "{}", &[("signal", &signal)]);
    abort_later(&controller, 50);
    let r = rejects(promise).await;
    assert_eq!(r.kind, "aborted");
    assert_eq!(r.message, "the call was aborted by its signal");
    assert_eq!(call_count(&fake), 1);
    assert!(!is_retryable(&r.raw));
    let fake = scripted(HANG);
    let controller = abort_controller();
    let signal = get(&controller, "signal");
    let abort: js_sys::Function = get(&controller, "abort").unchecked_into();
    let promise = fake_count(&fake, "{}", &[("signal", &signal)]);
    let reason = js_sys::Error::new("the user went away");
    abort.call1(&controller, &reason).unwrap();
    assert_eq!(rejects(promise).await.kind, "aborted");
}

/// The deadline passing while the client waits to retry ends the call
/// then, as `timeout`, with no further attempt.
#[wasm_bindgen_test]
async fn a_callers_deadline_during_a_retry_pause() {
    let fake = scripted(
        r#"[{"status":503,"headers":{"retry-after":"5"},"body":"{\"status\":503,\"result\":{}}"}]"#,
    );
    let hooks = counting_retries();
    let signal = timeout_signal(200);
    let promise = fake_count(&fake, "{}", &[("signal", &signal), ("hooks", &hooks)]);
    // The pause asked for is 5 s: the deadline ends the call first.
    assert!(settles_before(&promise, 3_000).await);
    let r = rejects(promise).await;
    assert_eq!(r.kind, "timeout", "{}", r.message);
    assert_eq!(call_count(&fake), 1);
    assert_eq!(
        retries_counted(&hooks),
        1,
        "the 503 was going to be retried"
    );
}

/// Against the reference server's `held` route (it answers after 30 s):
/// the caller's deadline ends the call as `timeout` after one request.
#[wasm_bindgen_test]
async fn a_callers_deadline_against_a_server_that_holds() {
    let base = fault("held");
    let signal = timeout_signal(100);
    let two = JsValue::from(2);
    let r = rejects(count_users(
        base.as_str().into(),
        JsValue::UNDEFINED,
        obj(&[("signal", &signal), ("retries", &two)]),
    ))
    .await;
    assert_eq!(r.kind, "timeout", "{}", r.message);
    assert!(r.message.contains("the caller's deadline"), "{}", r.message);
    assert_eq!(attempts(&base).await, 1.0);
    good_call_still_works().await;
}

/// The headers the fake's request `i` carried (names lower-cased).
fn sent(fake: &JsValue, i: u32, name: &str) -> JsValue {
    get(&get(&call(fake, i), "headers"), name)
}

/// A `Headers` object and `[name, value]` pairs, as client headers (also
/// returned by the client's function) and as call headers, reach the
/// request; the call's go over the client's, names case-insensitively.
#[wasm_bindgen_test]
async fn headers_in_every_form_fetch_takes() {
    let body = count_body(1);
    let script = format!(r#"[{{"body":{body:?}}}]"#);
    let record = js(r#"{"x-a":"1"}"#);
    let pairs = js(r#"[["x-a","1"]]"#);
    let object = headers_object(&record);
    let forms = [
        record.clone(),
        pairs.clone(),
        object.clone(),
        returning(&object),
        resolving_to(&pairs),
        returning(&record),
    ];
    for (n, client_headers) in forms.iter().enumerate() {
        let fake = scripted(&script);
        let client = UsersClient::new(with_fake(
            &fake,
            &[("baseUrl", &FAKE.into()), ("headers", client_headers)],
        ))
        .unwrap();
        resolves(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
        assert_eq!(sent(&fake, 0, "x-a"), "1", "client headers, form {n}");
        for call_headers in [
            headers_object(&js(r#"{"X-B":"2","x-a":"3"}"#)),
            js(r#"[["X-B","2"],["X-A","3"]]"#),
            js(r#"{"X-B":"2","X-a":"3"}"#),
        ] {
            let options = obj(&[("headers", &call_headers)]);
            resolves(client.count_users(JsValue::UNDEFINED, options)).await;
            let i = call_count(&fake) - 1;
            assert_eq!(sent(&fake, i, "x-b"), "2", "call headers over form {n}");
            assert_eq!(sent(&fake, i, "x-a"), "3", "call headers over form {n}");
        }
    }
}

/// The reference server sees headers given as a `Headers` object and as
/// pairs (its `echo` route answers with what it received).
#[wasm_bindgen_test]
async fn headers_as_a_headers_object_and_pairs_reach_the_server() {
    let base = fault("echo");
    let client_headers = headers_object(&js(r#"{"x-a":"1"}"#));
    let client = UsersClient::new(obj(&[
        ("baseUrl", &base.as_str().into()),
        ("headers", &client_headers),
    ]))
    .unwrap();
    let call_headers = js(r#"[["x-b","2"]]"#);
    let got =
        resolves(client.count_users(JsValue::UNDEFINED, obj(&[("headers", &call_headers)]))).await;
    assert_eq!(echoed_header(&got, "x-a"), "1");
    assert_eq!(echoed_header(&got, "x-b"), "2");
}

/// `{ "bad name": "v" }` as a record, as pairs, and returned by the
/// client's function (either form), as client and as call headers; a bad
/// value; and entries that are not pairs: each a `validation` error naming
/// `headers`, and nothing sent.
#[wasm_bindgen_test]
async fn a_bad_header_in_any_form_is_refused_and_nothing_is_sent() {
    let bad_record = js(r#"{"bad name":"v"}"#);
    let bad_pairs = js(r#"[["bad name","v"]]"#);
    let bad_value = js(r#"[["x-a","a\nb"]]"#);
    let mut given = vec![bad_record.clone(), bad_pairs.clone(), bad_value.clone()];
    for not_pairs in [
        r#"[["x-a"]]"#,
        r#"[["x-a","1","2"]]"#,
        r#"["x-a"]"#,
        r#"[["x-a",1]]"#,
        r#"[[1,"x"]]"#,
        r#"[{"0":"x-a","1":"1","length":2}]"#,
    ] {
        given.push(js(not_pairs));
    }
    for value in &given {
        // As a call's headers.
        let fake = scripted(r#"[{"status":200}]"#);
        let client = UsersClient::new(with_fake(&fake, &[("baseUrl", &FAKE.into())])).unwrap();
        let r = rejects(client.count_users(JsValue::UNDEFINED, obj(&[("headers", value)]))).await;
        assert_eq!(
            (r.kind.as_str(), r.param.as_deref()),
            ("validation", Some("headers")),
            "{}",
            json(value)
        );
        // As a client's: construction refuses them, and so does a one-shot call.
        let thrown = UsersClient::new(with_fake(
            &fake,
            &[("baseUrl", &FAKE.into()), ("headers", value)],
        ))
        .err()
        .expect("construction refuses them");
        assert_eq!(get(&thrown, "param"), "headers");
        let r = rejects(fake_count(&fake, "{}", &[("headers", value)])).await;
        assert_eq!(
            (r.kind.as_str(), r.param.as_deref()),
            ("validation", Some("headers"))
        );
        // Returned by the client's function, at once or by a promise.
        for function in [returning(value), resolving_to(value)] {
            let client = UsersClient::new(with_fake(
                &fake,
                &[("baseUrl", &FAKE.into()), ("headers", &function)],
            ))
            .unwrap();
            let r = rejects(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
            assert_eq!(
                (r.kind.as_str(), r.param.as_deref()),
                ("validation", Some("headers")),
                "{}",
                r.message
            );
        }
        assert_eq!(call_count(&fake), 0, "nothing sent for {}", json(value));
    }
    let fake = scripted(r#"[{"status":200}]"#);
    let r = rejects(fake_count(&fake, "{}", &[("headers", &bad_record)])).await;
    assert_eq!(r.message, "header name \"bad name\" is not an HTTP token");
    let r = rejects(fake_count(&fake, "{}", &[("headers", &js(r#"[["x-a"]]"#))])).await;
    assert_eq!(
        r.message,
        "each entry of the headers must be a [name, value] pair of strings"
    );
    for other in [js("5"), js(r#""x-a: 1""#)] {
        let r = rejects(fake_count(&fake, "{}", &[("headers", &other)])).await;
        assert_eq!(r.param.as_deref(), Some("headers"));
        assert!(
            r.message.starts_with(
                "headers must be a record of strings, a Headers object or [name, value] pairs"
            ),
            "{}",
            r.message
        );
    }
    assert_eq!(call_count(&fake), 0);
}

const BUSY: &str =
    r#"[{"status":503,"headers":{"retry-after":"0"},"body":"{\"status\":503,\"result\":{}}"}]"#;

/// `retries` per call overrides the client's: against 503s (`Retry-After:
/// 0`), `retries: 0` makes exactly 1 request and `retries: 4` exactly 5,
/// whatever the client's; a bad value is refused before anything is sent.
#[wasm_bindgen_test]
async fn retries_per_call() {
    for (client_retries, call_retries, requests) in [(2, 0, 1), (0, 4, 5), (2, 4, 5), (4, 1, 2)] {
        let fake = scripted(BUSY);
        let client = UsersClient::new(with_fake(
            &fake,
            &[
                ("baseUrl", &FAKE.into()),
                ("retries", &client_retries.into()),
            ],
        ))
        .unwrap();
        let options = obj(&[("retries", &JsValue::from(call_retries))]);
        let r = rejects(client.count_users(JsValue::UNDEFINED, options)).await;
        assert_eq!(r.http_status, Some(503.0));
        assert_eq!(
            call_count(&fake),
            requests,
            "client {client_retries}, call {call_retries}"
        );
        // The next call without it has the client's again.
        rejects(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
        assert_eq!(call_count(&fake), requests + client_retries + 1);
    }
    let fake = scripted(BUSY);
    let client = UsersClient::new(with_fake(&fake, &[("baseUrl", &FAKE.into())])).unwrap();
    for bad in [js("-1"), js("1.5"), js(r#""2""#)] {
        let r = rejects(client.count_users(JsValue::UNDEFINED, obj(&[("retries", &bad)]))).await;
        assert_eq!(
            (r.kind.as_str(), r.param.as_deref()),
            ("validation", Some("retries"))
        );
    }
    assert_eq!(call_count(&fake), 0);
}

/// The same against the reference server's `busy` route (503 with
/// `Retry-After: 0`).
#[wasm_bindgen_test]
async fn retries_per_call_against_the_server() {
    for (retries, requests) in [(0u32, 1.0), (4, 5.0)] {
        let base = fault("busy");
        let client = UsersClient::new(base.as_str().into()).unwrap();
        let options = obj(&[("retries", &JsValue::from(retries))]);
        let r = rejects(client.count_users(JsValue::UNDEFINED, options)).await;
        assert_eq!(r.http_status, Some(503.0));
        assert_eq!(attempts(&base).await, requests, "retries: {retries}");
    }
}

/// `isRetryable` agrees with the client's own retries: for each kind and
/// each status, one call with `retries: 1` is retried exactly when
/// `isRetryable` says so of the error it rejects with.
#[wasm_bindgen_test]
async fn is_retryable_agrees_with_the_clients_own_retries() {
    let retried = [408, 429, 500, 502, 503, 504];
    let not_retried = [400, 401, 403, 404, 405, 409, 422, 501, 505];
    let one = JsValue::from(1);
    for status in retried.iter().chain(&not_retried) {
        let fake = scripted(&format!(
            r#"[{{"status":{status},"headers":{{"retry-after":"0"}},"body":"{{}}"}}]"#
        ));
        let r = rejects(fake_count(&fake, "{}", &[("retries", &one)])).await;
        assert_eq!(r.http_status, Some(f64::from(*status)));
        let was_retried = call_count(&fake) == 2;
        assert_eq!(was_retried, retried.contains(status), "{status}");
        assert_eq!(is_retryable(&r.raw), was_retried, "{status}");
    }
    let short = JsValue::from(50);
    let body = |text: &str| format!(r#"[{{"body":{text:?}}}]"#);
    let aborted = aborted_signal();
    for (kind, script, params, extra, expected) in [
        (
            "network",
            r#"[{"reject":true}]"#.to_string(),
            "{}",
            ("timeoutMs", &short),
            true,
        ),
        (
            "timeout",
            HANG.to_string(),
            "{}",
            ("timeoutMs", &short),
            true,
        ),
        (
            "api",
            body(r#"{"status":500,"result":{}}"#),
            "{}",
            ("timeoutMs", &short),
            false,
        ),
        (
            "decode",
            body("not json"),
            "{}",
            ("timeoutMs", &short),
            false,
        ),
        (
            "validation",
            body("{}"),
            r#"{"active":"yes"}"#,
            ("timeoutMs", &short),
            false,
        ),
        (
            "aborted",
            HANG.to_string(),
            "{}",
            ("signal", &aborted),
            false,
        ),
    ] {
        let fake = scripted(&script);
        let r = rejects(fake_count(&fake, params, &[("retries", &one), extra])).await;
        assert_eq!(r.kind, kind);
        let was_retried = call_count(&fake) == 2;
        assert_eq!(was_retried, expected, "{kind}");
        assert_eq!(is_retryable(&r.raw), was_retried, "{kind}");
    }
}

/// `isRetryable` of errors made by hand (tests, mocks) follows the same
/// rule; anything that is not a `UsersApiError` is `false`, whatever it
/// looks like.
#[wasm_bindgen_test]
async fn is_retryable_of_made_errors_and_of_other_values() {
    let fake = scripted(r#"[{"reject":true}]"#);
    let zero = JsValue::from(0);
    let like = rejects(fake_count(&fake, "{}", &[("retries", &zero)]))
        .await
        .raw;
    let made = |kind: &str, fields: &str| made_like(&like, kind, "made by hand", &js(fields));
    assert!(is_retryable(&made("http", r#"{"httpStatus":503}"#)));
    assert!(is_retryable(&made("http", r#"{"httpStatus":429}"#)));
    assert!(!is_retryable(&made("http", r#"{"httpStatus":404}"#)));
    assert!(
        !is_retryable(&made("http", "{}")),
        "an http error without its status"
    );
    assert!(is_retryable(&made("network", "{}")));
    assert!(is_retryable(&made("timeout", "{}")));
    for kind in ["validation", "aborted", "api", "decode"] {
        assert!(
            !is_retryable(&made(kind, r#"{"httpStatus":503}"#)),
            "{kind}"
        );
    }
    for (i, value) in not_users_api_errors().iter().enumerate() {
        assert!(!is_retryable(&value), "value {i}");
    }
}
