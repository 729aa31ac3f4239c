//! The contract's "Responses" section: every error kind, with what it carries.

use super::*;
use wasm_bindgen_test::*;

fn no_retries() -> JsValue {
    JsValue::from(0)
}

/// One answer from the fake, as a count with no retries.
async fn count_answer(step: &str) -> Result<JsValue, Rejection> {
    let fake = scripted(&format!("[{step}]"));
    let retries = no_retries();
    let promise = fake_count(&fake, "{}", &[("retries", &retries)]);
    match JsFuture::from(promise.clone()).await {
        Ok(v) => Ok(v),
        Err(_) => Err(rejects(promise).await),
    }
}

#[wasm_bindgen_test]
async fn success_is_the_envelope_as_a_plain_object() {
    let got = count_answer(&format!(r#"{{"body":{:?}}}"#, count_body(42)))
        .await
        .ok()
        .unwrap();
    assert_eq!(json(&got), r#"{"status":200,"result":{"totalUsers":42}}"#);
    assert_eq!(
        js_sys::Object::get_prototype_of(&got),
        js_sys::Object::get_prototype_of(&js("{}"))
    );
    // 42.0 is 42, as the platform's parser reads it.
    let got = count_answer(r#"{"body":"{\"status\":200,\"result\":{\"totalUsers\":42.0}}"}"#)
        .await
        .ok()
        .unwrap();
    assert_eq!(get(&get(&got, "result"), "totalUsers"), JsValue::from(42));
    // 2^53 - 1, the largest, handed over as that number.
    let max =
        count_answer(r#"{"body":"{\"status\":200,\"result\":{\"totalUsers\":9007199254740991}}"}"#)
            .await
            .ok()
            .unwrap();
    assert_eq!(
        get(&get(&max, "result"), "totalUsers"),
        JsValue::from(9_007_199_254_740_991_f64)
    );
}

#[wasm_bindgen_test]
async fn a_bad_total_is_a_decode_error_keeping_the_status() {
    // Each message quotes the value as the body has it.
    for (total, got) in [
        (r#"\"42\""#, r#""42""#),
        ("-1", "-1"),
        ("1.5", "1.5"),
        ("9007199254740992", "9007199254740992"),
        ("null", "null"),
        ("1e300", "1e+300"),
        ("true", "true"),
        ("{}", "an object"),
    ] {
        let step =
            format!(r#"{{"body":"{{\"status\":200,\"result\":{{\"totalUsers\":{total}}}}}"}}"#);
        let r = count_answer(&step).await.err().unwrap();
        assert_eq!(r.kind, "decode", "{total}");
        assert_eq!(r.status, Some(200.0));
        assert_eq!(r.http_status, Some(200.0));
        assert!(
            r.message.ends_with(&format!("; got {got}")),
            "{total}: {}",
            r.message
        );
    }
    for (result, got) in [
        ("null", "null"),
        ("[]", "an array"),
        ("5", "5"),
        ("false", "false"),
        (r#"\"none\""#, r#""none""#),
    ] {
        let step = format!(r#"{{"body":"{{\"status\":200,\"result\":{result}}}"}}"#);
        let r = count_answer(&step).await.err().unwrap();
        assert_eq!(r.kind, "decode", "{result}");
        assert_eq!(
            r.message,
            format!("count's result must be an object; got {got}"),
            "{result}"
        );
    }
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn list_result_is_handed_over_as_sent() {
    // Each result as the server wrote it, and the JSON text of what the
    // call resolved with: the same value, whatever its shape.
    for result in [
        "null",
        "[1,2]",
        r#""text""#,
        r#"{"users":[]}"#,
        "0",
        "false",
        r#"{"users":[{"id":1,"name":"Ann","tags":["a",null],"score":1.5}],"next":null}"#,
    ] {
        let body = format!(r#"{{"status":200,"result":{result}}}"#);
        let fake = fake_fetch(&js_sys::Array::of1(&obj(&[("body", &body.into())])));
        let got = resolves(list_users(
            FAKE.into(),
            JsValue::UNDEFINED,
            with_fake(&fake, &[]),
        ))
        .await;
        assert_eq!(json(&get(&got, "result")), result);
        assert_eq!(get(&got, "status"), JsValue::from(200));
    }
}

#[wasm_bindgen_test]
async fn a_non_200_envelope_is_an_api_error() {
    let r = count_answer(r#"{"body":"{\"status\":403,\"result\":{\"error\":\"no\"}}"}"#)
        .await
        .err()
        .unwrap();
    assert_eq!(r.kind, "api");
    assert_eq!(r.message, "the API answered with status 403");
    assert_eq!(r.status, Some(403.0));
    assert_eq!(r.http_status, Some(200.0));
    assert_eq!(json(&r.body), r#"{"status":403,"result":{"error":"no"}}"#);
}

#[wasm_bindgen_test]
async fn http_errors_carry_status_body_and_envelope_status() {
    let r = count_answer(
        r#"{"status":400,"body":"{\"status\":400,\"result\":{\"error\":\"bad active\"}}"}"#,
    )
    .await
    .err()
    .unwrap();
    assert_eq!(
        (r.kind.as_str(), r.http_status, r.status),
        ("http", Some(400.0), Some(400.0))
    );
    assert_eq!(
        get(&get(&r.body, "result"), "error"),
        JsValue::from("bad active")
    );
    let r = count_answer(
        r#"{"status":500,"body":"<html>oops</html>","headers":{"content-type":"text/html"}}"#,
    )
    .await
    .err()
    .unwrap();
    assert_eq!(
        (r.kind.as_str(), r.http_status, r.status),
        ("http", Some(500.0), None)
    );
    assert_eq!(r.body, JsValue::from("<html>oops</html>"));
    // The real server's 400 for an unknown route, through a prefix.
    let base = format!("{}/nothing-here", server());
    let r = rejects(count_users(
        base.into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ))
    .await;
    assert_eq!(
        (r.kind.as_str(), r.http_status, r.status),
        ("http", Some(404.0), Some(404.0))
    );
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn what_is_not_json_or_not_an_envelope_is_a_decode_error() {
    for (step, body) in [
        (r#"{"body":"not json"}"#, Some("not json")),
        (r#"{"body":""}"#, Some("")),
        (
            r#"{"body":"{\"status\":200,\"res"}"#,
            Some(r#"{"status":200,"res"#),
        ),
        (r#"{"body":"[1,2]"}"#, None),
        (r#"{"body":"{\"status\":\"200\",\"result\":{}}"}"#, None),
        (r#"{"body":"{\"status\":200}"}"#, None),
    ] {
        let r = count_answer(step).await.err().unwrap();
        assert_eq!(r.kind, "decode", "{step}");
        assert_eq!(r.http_status, Some(200.0));
        assert_eq!(r.status, None, "{step}");
        if let Some(body) = body {
            assert_eq!(r.body, JsValue::from(body));
        }
    }
}

/// The `body` of the decode error for a count answered with `text`.
async fn cut_body_of(text: &str) -> JsValue {
    let fake = fake_fetch(&js_sys::Array::of1(&obj(&[("body", &text.into())])));
    let retries = JsValue::from(0);
    let r = rejects(fake_count(&fake, "{}", &[("retries", &retries)])).await;
    assert_eq!(r.kind, "decode");
    r.body
}

#[wasm_bindgen_test]
async fn a_huge_text_body_is_cut_to_its_first_65536_characters() {
    // Marked at both ends, so that a cut keeping any other 65,536
    // characters shows.
    let text = format!("<{}>", "x".repeat(199_998));
    let body = cut_body_of(&text).await;
    assert_eq!(body, JsValue::from(&text[..65_536]));
}

#[wasm_bindgen_test]
async fn the_cut_never_splits_a_surrogate_pair() {
    // U+1F600 is two UTF-16 units. Where its first unit is the
    // 65,536th, the pair goes; where its second is, the pair stays.
    let pair = '\u{1F600}';
    let straddling = format!("{}{pair}{}", "x".repeat(65_535), "y".repeat(1_000));
    let body = cut_body_of(&straddling).await;
    assert_eq!(body, JsValue::from("x".repeat(65_535)));
    let fitting = format!("{}{pair}{}", "x".repeat(65_534), "y".repeat(1_000));
    let body = cut_body_of(&fitting).await;
    assert_eq!(body, JsValue::from(format!("{}{pair}", "x".repeat(65_534))));
}

#[wasm_bindgen_test]
async fn a_failing_fetch_is_a_network_error() {
    let r = count_answer(r#"{"reject":true}"#).await.err().unwrap();
    assert_eq!(r.kind, "network");
    assert_eq!(r.http_status, None);
    // A real refused connection.
    let options = obj(&[("retries", &JsValue::from(0))]);
    let r = rejects(count_users(
        "http://127.0.0.1:9".into(),
        JsValue::UNDEFINED,
        options,
    ))
    .await;
    assert_eq!(r.kind, "network");
    assert!(
        r.message
            .starts_with("fetch failed for POST http://127.0.0.1:9/api/users/count: "),
        "the message says what failed where: {}",
        r.message
    );
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn no_answer_within_timeout_ms_is_a_timeout_that_cancels_the_request() {
    let fake = scripted(r#"[{"hang":true}]"#);
    let (timeout, retries) = (JsValue::from(50), JsValue::from(0));
    let promise = fake_count(
        &fake,
        "{}",
        &[("timeoutMs", &timeout), ("retries", &retries)],
    );
    // Promptly: before a timer of 5 s armed with the call.
    assert!(settles_before(&promise, 5_000).await, "settles promptly");
    let r = rejects(promise).await;
    assert_eq!(r.kind, "timeout");
    // The message names the JS option and its value.
    assert!(
        r.message
            .starts_with("no answer within timeoutMs (50 ms) from POST "),
        "{}",
        r.message
    );
    assert!(
        call_signal_aborted(&fake, 0),
        "the request in flight is cancelled"
    );
    // A per-call timeoutMs wins over the client's.
    let client = UsersClient::new(with_fake(
        &fake,
        &[("baseUrl", &FAKE.into()), ("retries", &retries)],
    ))
    .unwrap();
    let r = rejects(client.count_users(JsValue::UNDEFINED, obj(&[("timeoutMs", &timeout)]))).await;
    assert_eq!(r.kind, "timeout");
    // A stalled body counts too: headers arrive, the body never finishes.
    let fake = scripted(r#"[{"stall":true}]"#);
    let r = rejects(fake_count(
        &fake,
        "{}",
        &[("timeoutMs", &timeout), ("retries", &retries)],
    ))
    .await;
    assert_eq!(r.kind, "timeout");
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn an_abort_rejects_at_once_and_cancels_the_request() {
    let fake = scripted(r#"[{"hang":true}]"#);
    let controller = abort_controller();
    let signal = get(&controller, "signal");
    let zero = JsValue::from(0);
    let promise = fake_count(&fake, "{}", &[("signal", &signal), ("timeoutMs", &zero)]);
    abort_later(&controller, 30);
    assert!(settles_before(&promise, 5_000).await, "not at once");
    let r = rejects(promise).await;
    assert_eq!(r.kind, "aborted");
    assert!(call_signal_aborted(&fake, 0));
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn an_already_aborted_signal_sends_nothing() {
    let fake = scripted(r#"[{"body":"{}"}]"#);
    let signal = aborted_signal();
    let r = rejects(fake_count(&fake, "{}", &[("signal", &signal)])).await;
    assert_eq!(r.kind, "aborted");
    assert_eq!(call_count(&fake), 0);
}

#[wasm_bindgen_test]
async fn an_abort_while_waiting_for_the_header_provider_or_a_retry() {
    let fake = scripted(r#"[{"status":503,"headers":{"retry-after":"30"}}]"#);
    let controller = abort_controller();
    let signal = get(&controller, "signal");
    let provider = hanging_provider();
    let promise = fake_count(&fake, "{}", &[("signal", &signal), ("headers", &provider)]);
    abort_later(&controller, 30);
    assert_eq!(rejects(promise).await.kind, "aborted");
    assert_eq!(call_count(&fake), 0);

    let controller = abort_controller();
    let signal = get(&controller, "signal");
    let promise = fake_count(&fake, "{}", &[("signal", &signal)]);
    abort_later(&controller, 100);
    assert!(
        settles_before(&promise, 5_000).await,
        "did not wait out Retry-After"
    );
    assert_eq!(rejects(promise).await.kind, "aborted");
    assert_eq!(call_count(&fake), 1);
}
