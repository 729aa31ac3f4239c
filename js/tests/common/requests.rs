//! The contract's "Requests" section.

use super::*;
use wasm_bindgen_test::*;

fn ok_fake() -> JsValue {
    scripted(&format!(r#"[{{"body":{:?}}}]"#, count_body(7)))
}

fn header(call: &JsValue, name: &str) -> Option<String> {
    get(&get(call, "headers"), name).as_string()
}

#[wasm_bindgen_test]
async fn both_calls_post_to_their_paths_joined_with_one_slash() {
    for base in [
        "http://h.invalid/p",
        "http://h.invalid/p/",
        "http://h.invalid/p//",
    ] {
        let fake = scripted(r#"[{"body":"{\"status\":200,\"result\":{\"totalUsers\":1}}"}]"#);
        resolves(count_users(
            base.into(),
            JsValue::UNDEFINED,
            with_fake(&fake, &[]),
        ))
        .await;
        resolves(list_users(
            base.into(),
            JsValue::UNDEFINED,
            with_fake(&fake, &[]),
        ))
        .await;
        let (count, list) = (call(&fake, 0), call(&fake, 1));
        assert_eq!(
            get(&count, "url"),
            JsValue::from("http://h.invalid/p/api/users/count")
        );
        assert_eq!(
            get(&list, "url"),
            JsValue::from("http://h.invalid/p/api/users")
        );
        assert_eq!(get(&count, "method"), JsValue::from("POST"));
        assert_eq!(get(&list, "method"), JsValue::from("POST"));
    }
}

#[wasm_bindgen_test]
async fn body_mode_sends_a_json_object() {
    let fake = ok_fake();
    resolves(fake_count(&fake, r#"{"query":"ann","active":true}"#, &[])).await;
    resolves(fake_count(&fake, "{}", &[])).await;
    let first = call(&fake, 0);
    assert_eq!(
        header(&first, "content-type").as_deref(),
        Some("application/json")
    );
    assert_eq!(
        header(&first, "accept").as_deref(),
        Some("application/json")
    );
    let sent = parse(&get(&first, "body").as_string().unwrap());
    assert_eq!(json(&sent), r#"{"query":"ann","active":"true"}"#);
    assert_eq!(get(&call(&fake, 1), "body"), JsValue::from("{}"));
}

const AWKWARD: &str = "a&b=c#d+e%f g/ü✓?";

#[wasm_bindgen_test]
async fn query_mode_puts_params_in_the_url_and_sends_no_body() {
    let fake = ok_fake();
    let mode = JsValue::from("query");
    let params = obj(&[("query", &AWKWARD.into()), ("active", &JsValue::FALSE)]);
    resolves(count_users(
        FAKE.into(),
        params,
        with_fake(&fake, &[("paramsIn", &mode)]),
    ))
    .await;
    let sent = call(&fake, 0);
    assert!(get(&sent, "body").is_undefined());
    assert_eq!(header(&sent, "content-type"), None);
    assert_eq!(header(&sent, "accept").as_deref(), Some("application/json"));
    let decoded = query_of(&get(&sent, "url"));
    assert_eq!(get(&decoded, "query"), JsValue::from(AWKWARD));
    assert_eq!(get(&decoded, "active"), JsValue::from("false"));
    let url = get(&sent, "url").as_string().unwrap();
    assert!(
        url.starts_with("http://fake.invalid:8080/prefix/api/users/count?"),
        "{url}"
    );
}

#[wasm_bindgen_test]
async fn form_mode_sends_a_urlencoded_body() {
    let fake = ok_fake();
    let mode = JsValue::from("form");
    let params = obj(&[("query", &AWKWARD.into()), ("active", &"all".into())]);
    resolves(count_users(
        FAKE.into(),
        params,
        with_fake(&fake, &[("paramsIn", &mode)]),
    ))
    .await;
    let sent = call(&fake, 0);
    let content_type = header(&sent, "content-type").unwrap();
    assert!(
        content_type.starts_with("application/x-www-form-urlencoded"),
        "{content_type}"
    );
    let decoded = form_of(&get(&sent, "body"));
    assert_eq!(get(&decoded, "query"), JsValue::from(AWKWARD));
    assert_eq!(get(&decoded, "active"), JsValue::from("all"));
}

#[wasm_bindgen_test]
async fn list_passes_extra_params_through_in_every_mode() {
    for mode in ["body", "query", "form"] {
        let fake = scripted(r#"[{"body":"{\"status\":200,\"result\":{\"users\":[]}}"}]"#);
        let m = JsValue::from(mode);
        let params = js(r#"{"page":2,"pageSize":50,"sort":"name"}"#);
        resolves(list_users(
            FAKE.into(),
            params,
            with_fake(&fake, &[("paramsIn", &m)]),
        ))
        .await;
        let sent = call(&fake, 0);
        let decoded = match mode {
            "body" => parse(&get(&sent, "body").as_string().unwrap()),
            "query" => query_of(&get(&sent, "url")),
            _ => form_of(&get(&sent, "body")),
        };
        // Unchanged: the number 2 in a JSON body; in a query string or a
        // form every value is text, "2".
        let page = get(&decoded, "page");
        let expected = if mode == "body" {
            JsValue::from(2)
        } else {
            JsValue::from("2")
        };
        assert_eq!(page, expected, "{mode}");
        assert_eq!(
            get(&decoded, "sort").as_string().as_deref(),
            Some("name"),
            "{mode}"
        );
    }
}

#[wasm_bindgen_test]
async fn headers_merge_call_over_client_and_accept_is_ours() {
    let fake = ok_fake();
    let client_headers =
        js(r#"{"Authorization":"Bearer one","X-Client":"c","Accept":"text/html"}"#);
    let client = UsersClient::new(with_fake(
        &fake,
        &[("baseUrl", &FAKE.into()), ("headers", &client_headers)],
    ))
    .unwrap();
    let call_headers = js(r#"{"authorization":"Bearer two","X-Call":"k"}"#);
    resolves(client.count_users(JsValue::UNDEFINED, obj(&[("headers", &call_headers)]))).await;
    let sent = call(&fake, 0);
    assert_eq!(
        header(&sent, "authorization").as_deref(),
        Some("Bearer two")
    );
    assert_eq!(header(&sent, "x-client").as_deref(), Some("c"));
    assert_eq!(header(&sent, "x-call").as_deref(), Some("k"));
    assert_eq!(header(&sent, "accept").as_deref(), Some("application/json"));
}

#[wasm_bindgen_test]
async fn a_header_provider_is_called_before_every_attempt() {
    let fake = scripted(&format!(
        r#"[{{"status":503,"headers":{{"retry-after":"0"}}}},{{"body":{:?}}}]"#,
        count_body(1)
    ));
    let provider = counting_provider(&js(r#"{"Authorization":"Bearer fresh-{n}"}"#));
    let client = UsersClient::new(with_fake(
        &fake,
        &[("baseUrl", &FAKE.into()), ("headers", &provider)],
    ))
    .unwrap();
    resolves(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(call_count(&fake), 2, "one retry");
    assert_eq!(provider_count(&provider), 2, "provider called per attempt");
    // Each attempt carries what the provider returned for it.
    for (i, token) in ["Bearer fresh-1", "Bearer fresh-2"].into_iter().enumerate() {
        let sent = header(&call(&fake, i as u32), "authorization");
        assert_eq!(sent.as_deref(), Some(token));
    }
    resolves(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(provider_count(&provider), 3);
}

#[wasm_bindgen_test]
async fn custom_fetch_is_called_unbound_and_credentials_pass_through() {
    let fake = ok_fake();
    let include = JsValue::from("include");
    resolves(fake_count(&fake, "{}", &[("credentials", &include)])).await;
    resolves(fake_count(&fake, "{}", &[])).await;
    assert_eq!(get(&call(&fake, 0), "thisIsUndefined"), JsValue::TRUE);
    assert_eq!(
        get(&call(&fake, 0), "credentials"),
        JsValue::from("include")
    );
    // Left to the platform's default ("same-origin") when not given.
    assert!(get(&call(&fake, 1), "credentials").is_undefined());
}

#[wasm_bindgen_test]
async fn the_three_transports_agree_on_the_real_server() {
    let truth = JsFuture::from(raw_count(server(), &js(r#"{"active":"true"}"#)))
        .await
        .unwrap();
    assert!(truth.as_f64().unwrap() > 0.0);
    for mode in ["body", "query", "form"] {
        let options = obj(&[("paramsIn", &mode.into())]);
        let got = resolves(count_users(
            server().into(),
            js(r#"{"active":true}"#),
            options,
        ))
        .await;
        assert_eq!(get(&get(&got, "result"), "totalUsers"), truth, "{mode}");
        assert_eq!(get(&got, "status"), JsValue::from(200));
    }
}

#[wasm_bindgen_test]
async fn active_true_plus_false_is_all_on_the_real_server() {
    let client = UsersClient::new(server().into()).unwrap();
    let mut totals = Vec::new();
    for active in [r#""true""#, r#""false""#, r#""all""#, "true", "false"] {
        let got = resolves(
            client.count_users(js(&format!(r#"{{"active":{active}}}"#)), JsValue::UNDEFINED),
        )
        .await;
        totals.push(get(&get(&got, "result"), "totalUsers").as_f64().unwrap());
    }
    assert_eq!(totals[0] + totals[1], totals[2]);
    assert_eq!(
        (totals[3], totals[4]),
        (totals[0], totals[1]),
        "booleans = strings"
    );
    let all = resolves(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(
        get(&get(&all, "result"), "totalUsers").as_f64(),
        Some(totals[2])
    );
}

#[wasm_bindgen_test]
async fn list_users_hands_over_the_servers_result() {
    let client = UsersClient::new(server().into()).unwrap();
    let got = resolves(client.list_users(
        js(r#"{"active":"true","page":1,"pageSize":5}"#),
        JsValue::UNDEFINED,
    ))
    .await;
    let result = get(&got, "result");
    let users = js_sys::Array::from(&get(&result, "users"));
    assert_eq!(users.length(), 5);
    let truth = JsFuture::from(raw_count(server(), &js(r#"{"active":"true"}"#)))
        .await
        .unwrap();
    assert_eq!(get(&result, "totalUsers"), truth);
    for user in users.iter() {
        assert_eq!(get(&user, "active"), JsValue::TRUE);
    }
}
