//! The contract's `listPages`, through the JS layer's `listPage`, which the
//! gate's async generator calls once per page with where the walk stands:
//! every page of the reference server once, and no request more; where the
//! walk stops (an empty page, a short page, `totalUsers` reached); a result
//! that is not a page is `decode`; bad params are `validation` with nothing
//! sent; the call's options and rules apply to each page.

use wasm_bindgen_test::*;

use super::*;

#[wasm_bindgen(module = "/tests/common/helpers.js")]
extern "C" {
    #[wasm_bindgen(js_name = countingFetch)]
    fn counting_fetch() -> JsValue;
}

/// A page's call as the gate makes it: `page` 0 for the first.
fn page_call(
    client: &UsersClient,
    params: &JsValue,
    options: &JsValue,
    page: f64,
    seen: f64,
) -> Promise {
    client.list_page(params.clone(), options.clone(), page, seen)
}

/// Every envelope of a walk, as the gate asks for them: one `listPage`
/// after the other, each with where the one before said the walk goes
/// (`[envelope, page, seen]`), until its `page` is 0; fails if the walk goes
/// past `most` pages.
async fn walk(
    client: &UsersClient,
    params: &JsValue,
    options: &JsValue,
    most: usize,
) -> Vec<JsValue> {
    let (mut page, mut seen) = (0.0, 0.0);
    let mut got = Vec::new();
    loop {
        let at =
            js_sys::Array::from(&resolves(page_call(client, params, options, page, seen)).await);
        assert_eq!(at.length(), 3);
        got.push(at.get(0));
        (page, seen) = (at.get(1).as_f64().unwrap(), at.get(2).as_f64().unwrap());
        if page == 0.0 {
            return got;
        }
        assert!(got.len() < most, "the walk went past {most} pages");
    }
}

fn users_in(envelope: &JsValue) -> u32 {
    js_sys::Array::from(&get(&get(envelope, "result"), "users")).length()
}

/// The envelope of a page of `users` users (ids from 1), as the reference
/// server writes it, as a `fakeFetch` step's body.
fn page_step(users: u32, total: u32, page: u32, page_size: u32) -> String {
    step_of(
        users,
        &format!(r#","totalUsers":{total},"page":{page},"pageSize":{page_size}"#),
    )
}

/// The envelope of a page of `users` users and then the fields `rest`.
fn step_of(users: u32, rest: &str) -> String {
    let users: Vec<String> = (1..=users).map(|id| format!(r#"{{"id":{id}}}"#)).collect();
    let body = format!(
        r#"{{"status":200,"result":{{"users":[{}]{rest}}}}}"#,
        users.join(",")
    );
    format!(r#"{{"body":{body:?}}}"#)
}

fn fake_client(fake: &JsValue, extra: &[(&str, &JsValue)]) -> UsersClient {
    let base = JsValue::from(FAKE);
    let mut pairs = vec![("baseUrl", &base)];
    pairs.extend_from_slice(extra);
    UsersClient::new(with_fake(fake, &pairs)).unwrap()
}

/// The `page` each recorded request sent in its JSON body.
fn pages_sent(fake: &JsValue) -> Vec<f64> {
    (0..call_count(fake))
        .map(|i| {
            let body = parse(&get(&call(fake, i), "body").as_string().unwrap());
            get(&body, "page").as_f64().unwrap()
        })
        .collect()
}

/// The Rust API's `pages()` in a JS host: its pages, read through the
/// platform's JSON, hold every active user of the reference server once,
/// one request per page, pages 1, 2, ... in order, and no more.
#[wasm_bindgen_test]
async fn rust_pages_walk_every_page_once_in_a_js_host() {
    use futures_util::StreamExt;
    use user_management_client::{Active, ClientOptions, UserPage, UsersClient as RustClient};
    let truth = JsFuture::from(raw_count(server(), &js(r#"{"active":true}"#)))
        .await
        .unwrap()
        .as_f64()
        .unwrap() as u64;
    let counting = counting_fetch();
    let mut options = ClientOptions::new(server());
    options.fetch = Some(get(&counting, "fetch").unchecked_into());
    let client = RustClient::new(options).unwrap();
    let pages: Vec<_> = client
        .list_users()
        .active(Active::True)
        .page_size(100)
        .pages::<UserPage>()
        .collect()
        .await;
    let mut ids = Vec::new();
    for (i, page) in pages.iter().enumerate() {
        let page = &page.as_ref().unwrap().result;
        assert_eq!((page.page, page.total_users), (i as u64 + 1, truth));
        ids.extend(page.users.iter().map(|user| user.id));
    }
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len() as u64, truth);
    assert_eq!(pages.len() as u64, truth.div_ceil(100));
    let expected: Vec<f64> = (1..=pages.len()).map(|n| n as f64).collect();
    assert_eq!(pages_sent(&counting), expected);
}

#[wasm_bindgen_test]
async fn every_page_of_the_reference_server_once_and_no_request_more() {
    let truth = JsFuture::from(raw_count(server(), &js(r#"{"active":true}"#)))
        .await
        .unwrap()
        .as_f64()
        .unwrap() as u32;
    assert!(truth > 100, "the seeded server has {truth} active users");
    let counting = counting_fetch();
    let client = UsersClient::new(with_fake(&counting, &[("baseUrl", &server().into())])).unwrap();
    let params = js(r#"{"active":true,"pageSize":100}"#);
    let got = walk(&client, &params, &JsValue::UNDEFINED, 100).await;
    let users: u32 = got.iter().map(users_in).sum();
    assert_eq!(users, truth);
    assert_eq!(got.len() as u32, truth.div_ceil(100));
    for (i, envelope) in got.iter().enumerate() {
        assert_eq!(get(envelope, "status"), JsValue::from(200));
        let result = get(envelope, "result");
        assert_eq!(get(&result, "page"), JsValue::from(i as u32 + 1));
        assert_eq!(get(&result, "totalUsers"), JsValue::from(truth));
    }
    // One request per page, pages 1, 2, ... in order, and no more.
    let expected: Vec<f64> = (1..=got.len()).map(|n| n as f64).collect();
    assert_eq!(pages_sent(&counting), expected);
}

#[wasm_bindgen_test]
async fn a_page_is_one_request_and_no_more() {
    let counting = counting_fetch();
    let client = UsersClient::new(with_fake(&counting, &[("baseUrl", &server().into())])).unwrap();
    let params = js(r#"{"active":true,"pageSize":100}"#);
    let at = resolves(page_call(&client, &params, &JsValue::UNDEFINED, 0.0, 0.0)).await;
    let at = js_sys::Array::from(&at);
    assert_eq!(users_in(&at.get(0)), 100);
    // Where the walk goes next: page 2, 100 users seen.
    assert_eq!(
        (at.get(1), at.get(2)),
        (JsValue::from(2), JsValue::from(100))
    );
    // A call made after it is the second request the fetch sees, and the last.
    resolves(client.list_users(js(r#"{"pageSize":1}"#), JsValue::UNDEFINED)).await;
    JsFuture::from(sleep(50)).await.unwrap();
    assert_eq!(call_count(&counting), 2);
    let bodies: Vec<JsValue> = (0..2).map(|i| get(&call(&counting, i), "body")).collect();
    assert_eq!(
        bodies[0],
        JsValue::from(r#"{"active":"true","pageSize":100,"page":1}"#)
    );
    assert_eq!(bodies[1], JsValue::from(r#"{"pageSize":1}"#));
}

#[wasm_bindgen_test]
async fn an_empty_page_ends_the_walk() {
    // No page size, asked for or reported, and totalUsers says 10: the
    // empty page 2 ends the walk.
    let fake = scripted(&format!(
        "[{},{}]",
        step_of(2, r#","totalUsers":10"#),
        step_of(0, r#","totalUsers":10"#)
    ));
    let client = fake_client(&fake, &[]);
    let none = JsValue::UNDEFINED;
    let got = walk(&client, &none, &none, 5).await;
    assert_eq!(got.iter().map(users_in).collect::<Vec<_>>(), [2, 0]);
    assert_eq!(pages_sent(&fake), [1.0, 2.0]);
}

#[wasm_bindgen_test]
async fn a_short_page_ends_the_walk() {
    // By the pageSize asked for, though totalUsers says more.
    let fake = scripted(&format!(
        "[{},{}]",
        page_step(3, 100, 1, 3),
        page_step(2, 100, 2, 3)
    ));
    let client = fake_client(&fake, &[]);
    let params = js(r#"{"pageSize":3}"#);
    assert_eq!(
        walk(&client, &params, &JsValue::UNDEFINED, 5).await.len(),
        2
    );
    assert_eq!(pages_sent(&fake), [1.0, 2.0]);
    // Without one asked for, by the page's own pageSize, as the reference
    // server reports it.
    let fake = scripted(&format!(
        "[{},{}]",
        page_step(3, 100, 1, 3),
        page_step(2, 100, 2, 3)
    ));
    let client = fake_client(&fake, &[]);
    let none = JsValue::UNDEFINED;
    assert_eq!(walk(&client, &none, &none, 5).await.len(), 2);
    assert_eq!(call_count(&fake), 2);
}

#[wasm_bindgen_test]
async fn the_walk_ends_when_total_users_is_reached() {
    // Full pages from page 3 on, of 8 users: 4 before it, 2 on it, the
    // last 2 on page 4.
    let fake = scripted(&format!(
        "[{},{}]",
        page_step(2, 8, 3, 2),
        page_step(2, 8, 4, 2)
    ));
    let client = fake_client(&fake, &[]);
    let params = js(r#"{"page":3,"pageSize":2}"#);
    assert_eq!(
        walk(&client, &params, &JsValue::UNDEFINED, 5).await.len(),
        2
    );
    assert_eq!(pages_sent(&fake), [3.0, 4.0]);
}

#[wasm_bindgen_test]
async fn without_a_page_size_the_users_seen_reach_total_users() {
    // Neither asked for nor reported: 2 users a page, 6 in all, so the
    // third page is the last, by the users counted across the calls.
    let fake = scripted(&format!("[{}]", step_of(2, r#","totalUsers":6"#)));
    let client = fake_client(&fake, &[]);
    let none = JsValue::UNDEFINED;
    assert_eq!(walk(&client, &none, &none, 5).await.len(), 3);
    assert_eq!(pages_sent(&fake), [1.0, 2.0, 3.0]);
}

#[wasm_bindgen_test]
async fn a_result_that_is_not_a_page_is_a_decode_error() {
    for result in [
        r#"{"items":[]}"#,
        r#"[]"#,
        r#"{"users":[],"totalUsers":"7"}"#,
        r#"{"users":{},"totalUsers":7}"#,
        r#"{"users":[],"totalUsers":1.5}"#,
    ] {
        let body = format!(r#"{{"status":200,"result":{result}}}"#);
        let fake = scripted(&format!(r#"[{{"body":{body:?}}}]"#));
        let client = fake_client(&fake, &[]);
        let none = JsValue::UNDEFINED;
        let err = rejects(page_call(&client, &none, &none, 0.0, 0.0)).await;
        assert_eq!(err.kind, "decode", "{result}");
        assert_eq!(err.status, Some(200.0));
        assert_eq!(
            err.message,
            "listPages needs each result to be a page: an object with a users array \
             and a whole totalUsers from 0 to 2^53 - 1"
        );
        assert_eq!(call_count(&fake), 1);
    }
}

#[wasm_bindgen_test]
async fn bad_params_are_the_first_page_s_validation_error_with_nothing_sent() {
    let fake = scripted(&format!("[{}]", page_step(1, 1, 1, 20)));
    let client = fake_client(&fake, &[]);
    for (params, param) in [
        (r#"{"active":"yes"}"#, "active"),
        (r#"{"active":1}"#, "active"),
        (r#"{"query":5}"#, "query"),
        (r#"{"page":0}"#, "page"),
        (r#"{"page":1.5}"#, "page"),
        (r#"{"page":"2"}"#, "page"),
        (r#"{"pageSize":0}"#, "pageSize"),
        (r#"{"pageSize":"20"}"#, "pageSize"),
        ("[]", "params"),
    ] {
        let none = JsValue::UNDEFINED;
        let err = rejects(page_call(&client, &js(params), &none, 0.0, 0.0)).await;
        assert_eq!(err.kind, "validation", "{params}");
        assert_eq!(err.param.as_deref(), Some(param), "{params}");
    }
    let options = js(r#"{"timeoutMs":-1}"#);
    let err = rejects(page_call(&client, &JsValue::UNDEFINED, &options, 0.0, 0.0)).await;
    assert_eq!(err.param.as_deref(), Some("timeoutMs"));
    assert_eq!(call_count(&fake), 0);
}

#[wasm_bindgen_test]
async fn each_page_s_call_has_the_call_s_options_and_rules() {
    // Page 1 after a 503 (retried), page 2 short.
    let fake = scripted(&format!(
        r#"[{{"status":503,"body":"busy"}},{},{}]"#,
        page_step(2, 3, 1, 2),
        page_step(1, 3, 2, 2)
    ));
    let client = fake_client(&fake, &[]);
    let options = js(r#"{"headers":{"x-request-id":"walk"},"timeoutMs":5000}"#);
    let params = js(r#"{"pageSize":2,"sort":"name"}"#);
    assert_eq!(walk(&client, &params, &options, 5).await.len(), 2);
    assert_eq!(pages_sent(&fake), [1.0, 1.0, 2.0]);
    for i in 0..3 {
        let sent = call(&fake, i);
        let header = get(&get(&sent, "headers"), "x-request-id");
        assert_eq!(header, JsValue::from("walk"));
        let body = parse(&get(&sent, "body").as_string().unwrap());
        assert_eq!(get(&body, "sort"), JsValue::from("name"));
    }
    // An aborted signal: the page's call ends as any call does, and the walk with it.
    let fake = scripted(&format!("[{}]", page_step(2, 10, 1, 2)));
    let client = fake_client(&fake, &[]);
    let options = obj(&[("signal", &aborted_signal())]);
    let page = page_call(&client, &JsValue::UNDEFINED, &options, 0.0, 0.0);
    assert_eq!(rejects(page).await.kind, "aborted");
    assert_eq!(call_count(&fake), 0);
}

#[wasm_bindgen_test]
async fn a_page_s_call_reads_the_params_when_it_is_made() {
    let fake = scripted(&format!("[{}]", page_step(1, 1, 1, 20)));
    let client = fake_client(&fake, &[]);
    let params = js(r#"{"query":"ann"}"#);
    let page = page_call(&client, &params, &JsValue::UNDEFINED, 0.0, 0.0);
    js_sys::Reflect::set(&params, &"query".into(), &"bob".into()).unwrap();
    resolves(page).await;
    let body = parse(&get(&call(&fake, 0), "body").as_string().unwrap());
    assert_eq!(get(&body, "query"), JsValue::from("ann"));
}
