//! The contract's "Validation" section: a rejected call sends nothing.

use super::*;
use wasm_bindgen_test::*;

/// Runs a count with `params` against a fake and expects a validation error
/// about `param`, with no request sent.
async fn refused_count(params: JsValue, param: &str) -> Rejection {
    let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(1)));
    let r = rejects(count_users(FAKE.into(), params, with_fake(&fake, &[]))).await;
    assert_eq!(r.kind, "validation", "{}", r.message);
    assert_eq!(r.param.as_deref(), Some(param), "{}", r.message);
    assert_eq!(call_count(&fake), 0, "a rejected call must send nothing");
    r
}

#[wasm_bindgen_test]
async fn active_rejects_anything_but_the_three_strings_and_booleans() {
    for (bad, shown) in [
        (r#"{"active":"TRUE"}"#, "\"TRUE\""),
        (r#"{"active":"yes"}"#, "\"yes\""),
        (r#"{"active":""}"#, "\"\""),
        (r#"{"active":1}"#, "1"),
        (r#"{"active":{}}"#, "an object"),
        (r#"{"active":[]}"#, "an array"),
    ] {
        let r = refused_count(js(bad), "active").await;
        assert!(r.message.contains(shown), "{} lacks {shown}", r.message);
        for allowed in ["\"all\"", "\"true\"", "\"false\"", "boolean"] {
            assert!(r.message.contains(allowed), "{} lacks {allowed}", r.message);
        }
    }
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn params_must_be_a_plain_object() {
    for bad in [js("[]"), "active=true".into(), JsValue::from(7)] {
        refused_count(bad, "params").await;
    }
    // A class instance, though its tag is "[object Object]" and its key
    // is a good one; a null-prototype object is plain.
    let r = refused_count(class_instance(), "params").await;
    assert!(r.message.contains("got a class instance"), "{}", r.message);
    let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(3)));
    let ok = resolves(count_users(
        FAKE.into(),
        null_prototype_params(),
        with_fake(&fake, &[]),
    ))
    .await;
    assert_eq!(json(&get(&ok, "result")), r#"{"totalUsers":3}"#);
    assert_eq!(call_count(&fake), 1);
    let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(1)));
    let r = rejects(list_users(FAKE.into(), js("[1]"), with_fake(&fake, &[]))).await;
    assert_eq!(r.param.as_deref(), Some("params"));
    assert_eq!(call_count(&fake), 0);
}

#[wasm_bindgen_test]
async fn query_must_be_a_string() {
    let r = refused_count(js(r#"{"query":42}"#), "query").await;
    assert!(r.message.contains("42"));
    refused_count(js(r#"{"query":["a"]}"#), "query").await;
    refused_count(js(r#"{"query":true}"#), "query").await;
}

#[wasm_bindgen_test]
async fn count_names_an_unknown_key() {
    let r = refused_count(js(r#"{"activ":"true"}"#), "activ").await;
    assert!(r.message.contains("\"activ\""));
    refused_count(proto_key_object(), "__proto__").await;
}

#[wasm_bindgen_test]
async fn a_throwing_getter_is_a_validation_error() {
    refused_count(hostile_params(), "params").await;
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn lone_surrogates_are_refused() {
    let params = obj(&[("query", &lone_surrogate())]);
    refused_count(params, "query").await;
}

#[wasm_bindgen_test]
async fn list_checks_extra_values_only_where_they_cannot_be_encoded() {
    let fake = scripted(r#"[{"body":"{\"status\":200,\"result\":[]}"}]"#);
    let query = JsValue::from("query");
    let options = with_fake(&fake, &[("paramsIn", &query)]);
    let r = rejects(list_users(
        FAKE.into(),
        js(r#"{"filter":{"a":1}}"#),
        options,
    ))
    .await;
    assert_eq!(
        (r.kind.as_str(), r.param.as_deref()),
        ("validation", Some("filter"))
    );
    assert_eq!(call_count(&fake), 0);
    // In a JSON body the same value passes through unchanged.
    resolves(list_users(
        FAKE.into(),
        js(r#"{"filter":{"a":1}}"#),
        with_fake(&fake, &[]),
    ))
    .await;
    assert_eq!(call_count(&fake), 1);
}

#[wasm_bindgen_test]
async fn base_url_must_be_absolute_http_without_query_or_fragment() {
    for bad in [
        "ftp://x/",
        "/relative",
        "localhost:8080",
        "http://x/?a=1",
        "http://x/#f",
        "http://user:pw@x/",
        "http://[bad/",
    ] {
        let fake = scripted(r#"[{"body":"{}"}]"#);
        let r = rejects(count_users(
            bad.into(),
            JsValue::UNDEFINED,
            with_fake(&fake, &[]),
        ))
        .await;
        assert_eq!(
            (r.kind.as_str(), r.param.as_deref()),
            ("validation", Some("baseUrl")),
            "{bad}"
        );
        assert!(
            !r.everything.contains("pw@"),
            "credentials shown: {}",
            r.message
        );
        assert_eq!(call_count(&fake), 0);
        // The class throws at once instead.
        let thrown = UsersClient::new(bad.into())
            .err()
            .expect("constructor must throw");
        assert_eq!(get(&thrown, "kind"), JsValue::from("validation"));
    }
    let r = rejects(count_users(
        JsValue::from(5),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ))
    .await;
    assert_eq!(r.param.as_deref(), Some("baseUrl"));
}

#[wasm_bindgen_test]
async fn headers_must_be_tokens_and_visible_ascii_values() {
    for (headers, shown) in [
        (r#"{"bad name":"x"}"#, "bad name"),
        (r#"{"x-a":"line\r\nInjected: 1"}"#, "x-a"),
        (r#"{"x-a":"nul\u0000"}"#, "x-a"),
        (r#"{"x-a":"snow ☃"}"#, "x-a"),
        (r#"{"x-a":5}"#, "x-a"),
    ] {
        let fake = scripted(r#"[{"body":"{}"}]"#);
        let h = js(headers);
        let r = rejects(count_users(
            FAKE.into(),
            JsValue::UNDEFINED,
            with_fake(&fake, &[("headers", &h)]),
        ))
        .await;
        assert_eq!(
            (r.kind.as_str(), r.param.as_deref()),
            ("validation", Some("headers"))
        );
        assert!(r.message.contains(shown), "{}", r.message);
        assert_eq!(call_count(&fake), 0);
        // Per-call headers are checked the same way.
        let client = UsersClient::new(with_fake(&fake, &[("baseUrl", &FAKE.into())])).unwrap();
        let r = rejects(client.count_users(JsValue::UNDEFINED, obj(&[("headers", &h)]))).await;
        assert_eq!(r.param.as_deref(), Some("headers"));
        assert_eq!(call_count(&fake), 0);
    }
}

/// A value beyond visible ASCII, space and tab (a token with `ö`, U+0080
/// to U+00FF, a control character), as every form gives headers: the
/// client's, the call's, a header function's answer and a `beforeRequest`
/// answer. Each is `validation`, `param` `"headers"`, never retried, the
/// value in no message, and nothing sent.
#[wasm_bindgen_test]
async fn header_values_beyond_visible_ascii_are_refused_in_every_form() {
    for bad in [
        "Bearer tökén",
        "Bearer \u{80}x",
        "Bearer x\u{FF}",
        "a\u{1}b",
    ] {
        let headers = obj(&[("Authorization", &bad.into())]);
        let answer = obj(&[("headers", &headers)]);
        let hooks = obj(&[("beforeRequest", &returning(&answer))]);
        let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(1)));
        let two = JsValue::from(2);
        let client_headers = with_fake(&fake, &[("headers", &headers)]);
        let provider = with_fake(
            &fake,
            &[("headers", &counting_provider(&headers)), ("retries", &two)],
        );
        let hooked = with_fake(&fake, &[("hooks", &hooks), ("retries", &two)]);
        let client = UsersClient::new(with_fake(&fake, &[("baseUrl", &FAKE.into())])).unwrap();
        let refused = [
            count_users(FAKE.into(), JsValue::UNDEFINED, client_headers),
            client.count_users(JsValue::UNDEFINED, obj(&[("headers", &headers)])),
            count_users(FAKE.into(), JsValue::UNDEFINED, provider),
            count_users(FAKE.into(), JsValue::UNDEFINED, hooked),
        ];
        for promise in refused {
            let r = rejects(promise).await;
            assert_eq!(
                (r.kind.as_str(), r.param.as_deref()),
                ("validation", Some("headers")),
                "{bad:?}: {}",
                r.message
            );
            assert!(r.message.contains("\"Authorization\""), "{}", r.message);
            assert!(
                !r.message.contains(bad) && !r.message.contains("Bearer"),
                "{}",
                r.message
            );
        }
        assert_eq!(call_count(&fake), 0, "{bad:?}");
    }
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn options_have_their_types() {
    for (key, value, param) in [
        ("timeoutMs", JsValue::from("5"), "timeoutMs"),
        ("timeoutMs", JsValue::from(-1), "timeoutMs"),
        ("timeoutMs", JsValue::from(f64::NAN), "timeoutMs"),
        ("timeoutMs", JsValue::from(f64::INFINITY), "timeoutMs"),
        ("retries", JsValue::from(1.5), "retries"),
        ("retries", JsValue::from(-1), "retries"),
        ("maxBodyBytes", JsValue::from(-1), "maxBodyBytes"),
        ("maxBodyBytes", JsValue::from(1.5), "maxBodyBytes"),
        ("maxBodyBytes", JsValue::from("1024"), "maxBodyBytes"),
        ("maxBodyBytes", JsValue::from(f64::INFINITY), "maxBodyBytes"),
        ("maxBodyBytes", JsValue::NULL, "maxBodyBytes"),
        ("paramsIn", JsValue::from("json"), "paramsIn"),
        ("credentials", JsValue::from("always"), "credentials"),
        ("fetch", JsValue::from("fetch"), "fetch"),
        ("signal", JsValue::from(true), "signal"),
        ("timeout", JsValue::from(5), "timeout"),
    ] {
        let fake = scripted(r#"[{"body":"{}"}]"#);
        let options = with_fake(&fake, &[(key, &value)]);
        let r = rejects(count_users(FAKE.into(), JsValue::UNDEFINED, options)).await;
        assert_eq!(
            (r.kind.as_str(), r.param.as_deref()),
            ("validation", Some(param)),
            "{key}"
        );
        assert_eq!(call_count(&fake), 0);
    }
    let thrown = UsersClient::new(obj(&[("baseUrl", &FAKE.into()), ("retries", &"2".into())]))
        .err()
        .expect("constructor must throw");
    assert_eq!(get(&thrown, "param"), JsValue::from("retries"));
    let thrown = UsersClient::new(obj(&[
        ("baseUrl", &FAKE.into()),
        ("maxBodyBytes", &JsValue::from(-1)),
    ]))
    .err()
    .expect("constructor must throw");
    assert_eq!(get(&thrown, "param"), JsValue::from("maxBodyBytes"));
    let message = get(&thrown, "message").as_string().unwrap_or_default();
    assert!(message.contains("0 means no limit"), "{message}");
}

#[wasm_bindgen_test]
async fn undefined_and_null_params_are_not_sent() {
    let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(3)));
    let params = obj(&[("query", &JsValue::UNDEFINED), ("active", &JsValue::NULL)]);
    resolves(fake_count(&fake, "null", &[])).await;
    resolves(count_users(FAKE.into(), params, with_fake(&fake, &[]))).await;
    for i in 0..2 {
        assert_eq!(get(&call(&fake, i), "body"), JsValue::from("{}"));
    }
    // In query and form mode too, for count's params and a list's own.
    for mode in ["query", "form"] {
        let m = JsValue::from(mode);
        let fake = scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(3)));
        let params = obj(&[("query", &JsValue::UNDEFINED), ("active", &JsValue::NULL)]);
        resolves(count_users(
            FAKE.into(),
            params,
            with_fake(&fake, &[("paramsIn", &m)]),
        ))
        .await;
        let params = obj(&[
            ("query", &JsValue::NULL),
            ("active", &JsValue::UNDEFINED),
            ("page", &JsValue::NULL),
            ("pageSize", &JsValue::UNDEFINED),
            ("sort", &"name".into()),
        ]);
        resolves(list_users(
            FAKE.into(),
            params,
            with_fake(&fake, &[("paramsIn", &m)]),
        ))
        .await;
        for (i, expected) in [(0, "{}"), (1, r#"{"sort":"name"}"#)] {
            let sent = call(&fake, i);
            let decoded = if mode == "query" {
                query_of(&get(&sent, "url"))
            } else {
                form_of(&get(&sent, "body"))
            };
            assert_eq!(json(&decoded), expected, "{mode}, call {i}");
        }
        // Nothing at all where nothing is sent: no "?" and an empty form.
        let first = call(&fake, 0);
        if mode == "query" {
            assert!(
                !get(&first, "url").as_string().unwrap().contains('?'),
                "{}",
                json(&first)
            );
        } else {
            assert_eq!(get(&first, "body"), JsValue::from(""), "{mode}");
        }
    }
}
