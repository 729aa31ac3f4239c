//! No credential reaches a JS hook: not in the request's headers, not in
//! what a server echoes, from a fake `fetch` and from the reference server.

use super::*;

#[wasm_bindgen_test]
async fn no_credential_reaches_a_hook() {
    // Retried once (the 503 echoes the token), then answered.
    let script = format!(
        "[{},{}]",
        answer(
            503,
            Some("0"),
            &format!(
                r#"{{"status":503,"result":{{"error":"busy for Bearer {TOKEN} with key {KEY}"}}}}"#
            )
        ),
        ok_step(3)
    );
    let only_id = js(r#"{"X-Request-Id":"visible"}"#);
    let credentials = js(&format!(
        r#"{{"Authorization":"Bearer {TOKEN}","X-Api-Key":"{KEY}"}}"#
    ));
    // (what, client headers, call headers)
    let provider = counting_provider(&secret_headers());
    let provider_of_id = counting_provider(&only_id);
    let ways: [(&str, &JsValue, JsValue); 4] = [
        ("client headers", &secret_headers(), JsValue::UNDEFINED),
        ("call headers", &only_id, credentials.clone()),
        ("a header provider", &provider, JsValue::UNDEFINED),
        ("a provider and call headers", &provider_of_id, credentials),
    ];
    for (what, client_headers, call_headers) in ways {
        let fake = scripted(&script);
        let rec = Rec::new();
        let client = UsersClient::new(with_fake(
            &fake,
            &[
                ("baseUrl", &FAKE.into()),
                ("hooks", &rec.hooks()),
                ("headers", client_headers),
            ],
        ))
        .unwrap();
        let call_options = options(&[("headers", &call_headers)]);
        resolves(client.count_users(JsValue::UNDEFINED, call_options.clone())).await;
        assert_eq!(rec.counts(), (2, 2, 1), "{what}");
        check_sent(&fake);
        check_no_secret(&rec, what);
        // beforeRetry's error: the echoed body, redacted.
        let error = get(&rec.info(RT, 0), "error");
        let body = json(&get(&error, "body"));
        assert!(body.contains("[REDACTED]"), "{what}: {body}");
        // The list too, and the one-shot calls.
        let fake = scripted(&script);
        let rec = Rec::new();
        let client = UsersClient::new(with_fake(
            &fake,
            &[
                ("baseUrl", &FAKE.into()),
                ("hooks", &rec.hooks()),
                ("headers", client_headers),
                ("paramsIn", &"query".into()),
            ],
        ))
        .unwrap();
        resolves(client.list_users(JsValue::UNDEFINED, call_options)).await;
        check_no_secret(&rec, what);
    }
    let fake = scripted(&script);
    let rec = Rec::new();
    resolves(fake_count(
        &fake,
        "{}",
        &[("hooks", &rec.hooks()), ("headers", &secret_headers())],
    ))
    .await;
    check_sent(&fake);
    check_no_secret(&rec, "one-shot");

    // A fetch that fails quoting the token: a network error, retried.
    let fake = scripted(&format!(
        r#"[{{"reject":true,"message":"refused while sending Bearer {TOKEN} and {KEY}"}},{}]"#,
        ok_step(3)
    ));
    let rec = Rec::new();
    resolves(fake_count(
        &fake,
        "{}",
        &[("hooks", &rec.hooks()), ("headers", &secret_headers())],
    ))
    .await;
    assert_eq!(rec.counts(), (2, 1, 1));
    assert_eq!(text(&get(&rec.info(RT, 0), "error"), "kind"), "network");
    check_no_secret(&rec, "a failing fetch");
}

#[wasm_bindgen_test]
async fn no_credential_reaches_a_hook_from_the_real_server() {
    // echo-auth-401 puts the Authorization header in its body; echo sends
    // back every header but the credentials, which it only names.
    for scenario in ["echo-auth-401", "echo"] {
        let base = fault(scenario);
        let rec = Rec::new();
        let promise = count_users(
            base.as_str().into(),
            JsValue::UNDEFINED,
            options(&[("hooks", &rec.hooks()), ("headers", &secret_headers())]),
        );
        if scenario == "echo" {
            let got = resolves(promise).await;
            // The server did get the key (it names it, without its value).
            let result = get(&got, "result");
            assert!(get(&get(&result, "headers"), "x-api-key").is_undefined());
            let named = js_sys::Array::from(&get(&result, "credentialHeaders"));
            assert!(named.includes(&"x-api-key".into(), 0), "{named:?}");
        } else {
            let r = rejects(promise).await;
            assert_eq!(r.http_status, Some(401.0));
            assert!(!r.everything.contains(TOKEN), "{}", r.everything);
        }
        assert_eq!(rec.counts(), (1, 1, 0), "{scenario}");
        check_no_secret(&rec, scenario);
    }
}
