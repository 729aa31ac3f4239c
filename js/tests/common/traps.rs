//! Ways a host could trap the module or leak a credential through the fetch
//! transport: a replaced global `fetch`, a revoked proxy, a credential deep in
//! a cause, a signal aborted by a hook in front of a custom `fetch`.

use super::*;
use wasm_bindgen_test::*;

#[wasm_bindgen(module = "/tests/common/helpers.js")]
extern "C" {
    #[wasm_bindgen(js_name = stubGlobalFetch)]
    fn stub_global_fetch(kind: &str) -> JsValue;
    fn restore(undo: &JsValue);
    #[wasm_bindgen(js_name = revokedProxy)]
    fn revoked_proxy() -> JsValue;
    #[wasm_bindgen(js_name = fetchLeakingDeepInCause)]
    fn fetch_leaking_deep_in_cause() -> JsValue;
    #[wasm_bindgen(js_name = abortingHooks)]
    fn aborting_hooks(controller: &JsValue) -> JsValue;
}

/// gloo-net's `send` panics on these; the client calls the global `fetch`
/// itself and checks what it does.
#[wasm_bindgen_test]
async fn a_replaced_global_fetch_cannot_trap_the_module() {
    // A global `fetch` resolving with what is not a `Response` is the setup
    // error naming `fetch`; one that throws or rejects, `network`.
    for (kind, expected) in [
        ("empty-object", "validation"),
        ("string", "network"),
        ("throws", "network"),
    ] {
        let undo = stub_global_fetch(kind);
        let retries = JsValue::from(0);
        let outcome = JsFuture::from(count_users(
            FAKE.into(),
            JsValue::UNDEFINED,
            obj(&[("retries", &retries)]),
        ))
        .await;
        restore(&undo);
        let err = outcome.expect_err(kind);
        assert_eq!(get(&err, "kind"), JsValue::from(expected), "{kind}");
        good_call_still_works().await;
    }
}

#[wasm_bindgen_test]
async fn a_revoked_proxy_is_a_validation_error_not_an_exception() {
    let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(1)));
    let r = rejects(count_users(
        FAKE.into(),
        revoked_proxy(),
        with_fake(&fake, &[]),
    ))
    .await;
    assert_eq!(
        (r.kind.as_str(), r.param.as_deref()),
        ("validation", Some("params"))
    );
    let headers = revoked_proxy();
    let r = rejects(count_users(
        FAKE.into(),
        JsValue::UNDEFINED,
        with_fake(&fake, &[("headers", &headers)]),
    ))
    .await;
    assert_eq!(r.param.as_deref(), Some("headers"));
    assert_eq!(call_count(&fake), 0);
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn a_credential_deep_in_a_cause_is_cut_out() {
    const TOKEN: &str = "s3cr3t-deep-token-789";
    let headers = js(&format!(r#"{{"Authorization":"Bearer {TOKEN}"}}"#));
    let retries = JsValue::from(0);
    let r = rejects(count_users(
        FAKE.into(),
        JsValue::UNDEFINED,
        obj(&[
            ("fetch", &fetch_leaking_deep_in_cause()),
            ("headers", &headers),
            ("retries", &retries),
        ]),
    ))
    .await;
    assert_eq!(r.kind, "network");
    let cause = get(&r.raw, "cause");
    let chain = format!(
        "{} {}",
        json(&describe_error(&cause)),
        json(&describe_error(&get(&cause, "cause")))
    );
    assert!(!chain.contains(TOKEN), "leaked: {chain}");
    assert!(!r.everything.contains(TOKEN));
}

#[wasm_bindgen_test]
async fn a_signal_aborted_by_a_hook_sends_nothing_through_a_custom_fetch() {
    let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(1)));
    let controller = abort_controller();
    let hooks = aborting_hooks(&controller);
    let signal = get(&controller, "signal");
    let r = rejects(count_users(
        FAKE.into(),
        JsValue::UNDEFINED,
        with_fake(&fake, &[("hooks", &hooks), ("signal", &signal)]),
    ))
    .await;
    assert_eq!(r.kind, "aborted");
    assert_eq!(call_count(&fake), 0, "nothing sent after the abort");
}
