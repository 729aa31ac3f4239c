//! The contract's "Hooks" that change an attempt, through the JS API (hooks
//! written in JS, in `helpers.js`) and the Rust API (closures), against the
//! scripted fake `fetch`: a token refreshed by an async `afterResponse`
//! that asks for the attempt again; `beforeRequest`'s headers on each
//! attempt; the response's headers as `afterResponse` sees them, a
//! `set-cookie` redacted; an async `beforeRequest` that never settles, ended
//! by the caller's signal with nothing sent; bad headers from a hook.

use std::cell::RefCell;
use std::rc::Rc;

use user_management_client::{
    ClientOptions, ErrorKind, Hooks, ResponseAction, UsersClient as RustClient,
};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

use super::*;

#[wasm_bindgen(module = "/tests/common/helpers.js")]
extern "C" {
    #[wasm_bindgen(js_name = refreshingOptions)]
    fn refreshing_options() -> JsValue;
    #[wasm_bindgen(js_name = requestIdHooks)]
    fn request_id_hooks() -> JsValue;
    #[wasm_bindgen(js_name = hangingHooks)]
    fn hanging_hooks() -> JsValue;
    #[wasm_bindgen(js_name = recordingHooks)]
    fn recording_hooks(mode: &JsValue, abort_on_retry: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = hookInfo)]
    fn hook_info(rec: &JsValue, name: &str, i: u32) -> JsValue;
}

const BUSY: &str =
    r#"{"status":503,"headers":{"retry-after":"0"},"body":"{\"status\":503,\"result\":{}}"}"#;

fn ok_fake() -> JsValue {
    scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(7)))
}

fn header(call: &JsValue, name: &str) -> Option<String> {
    get(&get(call, "headers"), name).as_string()
}

fn ok_step(n: u64) -> String {
    format!(r#"{{"body":{:?}}}"#, count_body(n))
}

#[wasm_bindgen_test]
async fn an_async_after_response_refreshes_the_token_and_asks_for_the_attempt_again() {
    // Answers 401 unless `Authorization: Bearer new`, then a count of 7.
    let fake = scripted(&format!(
        r#"[{{"authorize":"Bearer new","body":{:?}}}]"#,
        count_body(7)
    ));
    let refreshing = refreshing_options();
    let options = get(&refreshing, "options");
    let client = UsersClient::new(with_fake(
        &fake,
        &[
            ("baseUrl", &FAKE.into()),
            ("headers", &get(&options, "headers")),
            ("hooks", &get(&options, "hooks")),
        ],
    ))
    .unwrap();
    let got = resolves(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(get(&get(&got, "result"), "totalUsers"), JsValue::from(7));
    assert_eq!(call_count(&fake), 2);
    let sent = |i| header(&call(&fake, i), "authorization");
    assert_eq!(sent(0).as_deref(), Some("Bearer old"));
    assert_eq!(sent(1).as_deref(), Some("Bearer new"));
    // The hook saw both answers, and the token only as "[REDACTED]".
    assert_eq!(
        json(&get(&refreshing, "seen")),
        r#"[[401,"[REDACTED]"],[200,"[REDACTED]"]]"#
    );
}

#[wasm_bindgen_test]
async fn a_hooks_retry_is_counted_apart_from_the_retries() {
    // Every answer is a 401 that afterResponse asks to try again: with
    // retries 1, one retry for the hook (max(1, limit)) makes 2 requests,
    // and the last answer stands.
    let fake = scripted(r#"[{"authorize":"Bearer never"}]"#);
    let hooks = js_hooks("afterResponse", "() => ({ retry: true })");
    let options = [("retries", &JsValue::from(1)), ("hooks", &hooks)];
    let r = rejects(fake_count(&fake, "{}", &options)).await;
    assert_eq!((r.kind.as_str(), r.http_status), ("http", Some(401.0)));
    assert_eq!(call_count(&fake), 2);
}

/// A hooks object with one hook, `source` a JS function expression.
fn js_hooks(name: &str, source: &str) -> JsValue {
    let function = js_sys::Function::new_no_args(&format!("return {source};"))
        .call0(&JsValue::UNDEFINED)
        .unwrap();
    obj(&[(name, &function)])
}

#[wasm_bindgen_test]
async fn before_request_gives_each_attempt_its_headers() {
    let fake = scripted(&format!("[{BUSY},{BUSY},{}]", ok_step(3)));
    let hooks = request_id_hooks();
    let got = resolves(fake_count(&fake, "{}", &[("hooks", &hooks)])).await;
    assert_eq!(get(&get(&got, "result"), "totalUsers"), JsValue::from(3));
    assert_eq!(call_count(&fake), 3);
    for (i, id) in ["r-1", "r-2", "r-3"].into_iter().enumerate() {
        assert_eq!(
            header(&call(&fake, i as u32), "x-request-id").as_deref(),
            Some(id)
        );
    }
}

#[wasm_bindgen_test]
async fn after_response_sees_the_responses_headers_with_set_cookie_redacted() {
    let fake = scripted(&format!(
        r#"[{{"like":true,"headers":{{"X-RateLimit-Remaining":"41","set-cookie":"sid=s3ss10n-c00k1e","content-type":"application/json"}},"body":{:?}}}]"#,
        count_body(1)
    ));
    let rec = recording_hooks(&JsValue::UNDEFINED, &JsValue::UNDEFINED);
    resolves(fake_count(&fake, "{}", &[("hooks", &get(&rec, "hooks"))])).await;
    let info = hook_info(&rec, "afterResponse", 0);
    let headers = get(&info, "responseHeaders");
    assert_eq!(get(&headers, "x-ratelimit-remaining"), JsValue::from("41"));
    assert_eq!(get(&headers, "set-cookie"), JsValue::from("[REDACTED]"));
    assert_eq!(
        get(&headers, "content-type"),
        JsValue::from("application/json")
    );
    assert!(!json(&info).contains("s3ss10n"), "{}", json(&info));
}

#[wasm_bindgen_test]
async fn a_before_request_that_never_settles_ends_with_the_callers_signal_and_sends_nothing() {
    let fake = ok_fake();
    let hanging = hanging_hooks();
    let controller = abort_controller();
    let signal = get(&controller, "signal");
    let options = [("hooks", &get(&hanging, "hooks")), ("signal", &signal)];
    let pending = fake_count(&fake, "{}", &options);
    abort_later(&controller, 20);
    let r = rejects(pending).await;
    assert_eq!(r.kind, "aborted");
    assert_eq!(get(&hanging, "calls"), JsValue::from(1));
    assert_eq!(call_count(&fake), 0);
}

#[wasm_bindgen_test]
async fn bad_headers_from_before_request_are_a_validation_error_and_send_nothing() {
    for source in [
        r#"() => ({ headers: { "bad name": "v" } })"#,
        r#"async () => ({ headers: { "x-a": "line\nbreak" } })"#,
        r#"() => ({ headers: { "x-a": 1 } })"#,
    ] {
        let fake = ok_fake();
        let hooks = js_hooks("beforeRequest", source);
        let r = rejects(fake_count(&fake, "{}", &[("hooks", &hooks)])).await;
        assert_eq!(
            (r.kind.as_str(), r.param.as_deref()),
            ("validation", Some("headers")),
            "{source}"
        );
        assert_eq!(call_count(&fake), 0, "{source}");
    }
}

#[wasm_bindgen_test]
async fn rust_hooks_give_headers_and_ask_for_the_attempt_again() {
    let fake = scripted(&format!(
        r#"[{{"authorize":"Bearer new","body":{:?}}}]"#,
        count_body(9)
    ));
    let token = Rc::new(RefCell::new("old".to_string()));
    let (read, refresh) = (Rc::clone(&token), Rc::clone(&token));
    let options = ClientOptions::new(FAKE).hooks(
        Hooks::default()
            .before_request(move |info| {
                vec![
                    (
                        "Authorization".to_string(),
                        format!("Bearer {}", read.borrow()),
                    ),
                    ("x-request-id".to_string(), format!("r-{}", info.attempt)),
                ]
            })
            .after_response(move |info| {
                let refresh = Rc::clone(&refresh);
                let refused = info.http_status == 401;
                async move {
                    JsFuture::from(sleep(5)).await.unwrap();
                    if refused {
                        *refresh.borrow_mut() = "new".to_string();
                        return ResponseAction::Retry;
                    }
                    ResponseAction::Keep
                }
            }),
    );
    let mut options = options;
    options.fetch = Some(get(&fake, "fetch").into());
    let client = RustClient::new(options).unwrap();
    let got = client.count_users().send().await.unwrap();
    assert_eq!(got.result.total_users, 9);
    assert_eq!(call_count(&fake), 2);
    let sent = |i, name| header(&call(&fake, i), name);
    assert_eq!(sent(0, "authorization").as_deref(), Some("Bearer old"));
    assert_eq!(sent(1, "authorization").as_deref(), Some("Bearer new"));
    assert_eq!(sent(1, "x-request-id").as_deref(), Some("r-2"));
    let bad = ClientOptions::new(FAKE)
        .hooks(Hooks::default().before_request(|_| vec![("bad name".into(), "v".into())]));
    let mut bad = bad;
    bad.fetch = Some(get(&fake, "fetch").into());
    let error = RustClient::new(bad)
        .unwrap()
        .count_users()
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        (error.kind(), error.param()),
        (ErrorKind::Validation, Some("headers"))
    );
    assert_eq!(call_count(&fake), 2);
}

#[wasm_bindgen_test]
async fn a_calls_headers_function_is_called_before_every_attempt() {
    let fake = scripted(&format!("[{BUSY},{}]", ok_step(2)));
    let provider = counting_provider(&js(r#"{"x-call":"c-{n}"}"#));
    let client = UsersClient::new(with_fake(
        &fake,
        &[
            ("baseUrl", &FAKE.into()),
            ("headers", &js(r#"{"x-call":"client","x-client":"k"}"#)),
        ],
    ))
    .unwrap();
    let options = obj(&[("headers", &provider)]);
    resolves(client.count_users(JsValue::UNDEFINED, options)).await;
    assert_eq!(call_count(&fake), 2);
    for (i, id) in ["c-1", "c-2"].into_iter().enumerate() {
        let sent = call(&fake, i as u32);
        assert_eq!(header(&sent, "x-call").as_deref(), Some(id));
        assert_eq!(header(&sent, "x-client").as_deref(), Some("k"));
    }
}

#[wasm_bindgen_test]
async fn an_answer_over_the_body_limit_is_never_made_again_even_when_a_hook_asks() {
    let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, "x".repeat(2_000)));
    let hooks = js_hooks("afterResponse", "() => ({ retry: true })");
    let options = [
        ("maxBodyBytes", &JsValue::from(100)),
        ("retries", &JsValue::from(3)),
        ("hooks", &hooks),
    ];
    let r = rejects(fake_count(&fake, "{}", &options)).await;
    assert_eq!(r.kind, "decode", "{}", r.message);
    assert_eq!(call_count(&fake), 1);
}
