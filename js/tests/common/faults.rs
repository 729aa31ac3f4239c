//! Real network failures, from the reference server's fault mode
//! (`--faults`): each scenario over a real socket, with the contract's kind,
//! `status`, `httpStatus` and `body`, the exact number of attempts the
//! server received, and a good call right after.

use super::*;
use wasm_bindgen_test::*;

fn retries(n: u32) -> JsValue {
    obj(&[("retries", &JsValue::from(n))])
}

/// A count against `scenario` with `retries`; the rejection and the attempts.
async fn count_fault(scenario: &str, n: u32) -> (Rejection, f64) {
    count_with(scenario, retries(n)).await
}

/// A count against `scenario` with `options`; the rejection and the attempts.
async fn count_with(scenario: &str, options: JsValue) -> (Rejection, f64) {
    let base = fault(scenario);
    let r = rejects(count_users(
        base.as_str().into(),
        JsValue::UNDEFINED,
        options,
    ))
    .await;
    (r, attempts(&base).await)
}

#[wasm_bindgen_test]
async fn http_errors_from_a_real_server() {
    let (r, n) = count_fault("html-500", 0).await;
    assert_eq!(
        (r.kind.as_str(), r.http_status, r.status),
        ("http", Some(500.0), None)
    );
    assert!(r.body.as_string().unwrap().contains("<h1>500"));
    assert_eq!(n, 1.0);
    for (scenario, status) in [("envelope-400", 400.0), ("envelope-404", 404.0)] {
        let (r, n) = count_fault(scenario, 2).await;
        assert_eq!(
            (r.kind.as_str(), r.http_status, r.status),
            ("http", Some(status), Some(status))
        );
        assert_eq!(get(&r.body, "status"), JsValue::from(status));
        assert_eq!(n, 1.0, "{scenario} is not retried");
    }
    let (r, n) = count_fault("html-500", 2).await;
    assert_eq!(r.http_status, Some(500.0));
    assert_eq!(n, 3.0, "500 is retried twice by default");
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn bodies_that_are_not_good_envelopes() {
    for (scenario, body) in [
        ("not-json", Some("this is not JSON")),
        ("empty", Some("")),
        ("not-envelope", None),
        ("status-string", None),
    ] {
        let (r, n) = count_fault(scenario, 2).await;
        assert_eq!(
            (r.kind.as_str(), r.http_status, r.status),
            ("decode", Some(200.0), None),
            "{scenario}"
        );
        if let Some(body) = body {
            assert_eq!(r.body, JsValue::from(body), "{scenario}");
        }
        assert_eq!(n, 1.0, "{scenario}: decode errors are not retried");
    }
    for scenario in [
        "total-string",
        "total-float",
        "total-negative",
        "total-2p53",
        "total-null",
        "result-null",
    ] {
        let (r, n) = count_fault(scenario, 2).await;
        assert_eq!(
            (r.kind.as_str(), r.status, r.http_status),
            ("decode", Some(200.0), Some(200.0)),
            "{scenario}"
        );
        assert_eq!(n, 1.0);
    }
    let (r, n) = count_fault("status-403", 2).await;
    assert_eq!(
        (r.kind.as_str(), r.status, r.http_status),
        ("api", Some(403.0), Some(200.0))
    );
    assert_eq!(
        get(&get(&r.body, "result"), "error"),
        JsValue::from("forbidden")
    );
    assert_eq!(n, 1.0);
    // For list, a null result is handed over as sent.
    let got = resolves(list_users(
        fault("result-null").as_str().into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ))
    .await;
    assert!(get(&got, "result").is_null());
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn a_10_mb_body_is_cut_to_its_first_65536_utf16_units_never_inside_a_pair() {
    // The server's text is the numbers "0 1 2 …", each followed by a space
    // (different at every position), with U+1F600 (two UTF-16 units) put in
    // after its first 65,534 characters (`big`: the pair ends at the cut and
    // stays) or 65,535 (`big-straddling`: the pair crosses the cut and goes).
    let numbers: String = (0..20_000).map(|n| format!("{n} ")).collect();
    let pair = '\u{1F600}';
    for (scenario, kept) in [
        ("big", format!("{}{pair}", &numbers[..65_534])),
        ("big-straddling", numbers[..65_535].to_owned()),
    ] {
        let (r, n) = count_fault(scenario, 0).await;
        assert_eq!((r.kind.as_str(), n), ("decode", 1.0), "{scenario}");
        // Read in UTF-16 units, as JavaScript holds it: a lone surrogate
        // shows here, where a Rust string would have replaced it.
        let body: js_sys::JsString = r.body.clone().dyn_into().expect("a string body");
        let units = kept.encode_utf16().count() as u32;
        assert_eq!(
            body.length(),
            units,
            "{scenario}: the length in UTF-16 units"
        );
        let last = body.char_code_at(units - 1) as u32;
        assert!(
            !(0xD800..0xDC00).contains(&last),
            "{scenario}: ends with half a pair"
        );
        assert!(
            r.body == kept.as_str(),
            "{scenario}: not the text's first units"
        );
    }
    good_call_still_works().await;
}

/// A count against `scenario` with `maxBodyBytes: limit` and no retries;
/// the rejection.
async fn count_limited(scenario: &str, limit: f64) -> Rejection {
    let options = obj(&[
        ("retries", &JsValue::from(0)),
        ("maxBodyBytes", &JsValue::from(limit)),
    ]);
    count_with(scenario, options).await.0
}

#[wasm_bindgen_test]
async fn an_endless_body_ends_at_the_default_limit_never_retried() {
    // With the default retries: a body over the limit is never retried.
    let (r, n) = count_fault("endless", 2).await;
    assert_eq!(
        (r.kind.as_str(), r.http_status, r.status),
        ("decode", Some(200.0), None),
        "{}",
        r.message
    );
    assert!(r.body.is_undefined(), "no body is kept");
    assert!(
        r.message
            .contains("larger than 67108864 bytes, the maxBodyBytes option"),
        "{}",
        r.message
    );
    assert_eq!(n, 1.0, "never retried");
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn a_body_limit_of_its_own_and_zero_for_none() {
    // No Content-Length: cut while reading.
    let r = count_limited("endless", 100_000.0).await;
    assert_eq!(r.kind, "decode", "{}", r.message);
    assert!(
        r.message.contains("larger than 100000 bytes"),
        "{}",
        r.message
    );
    // `big` says 10 MiB in its Content-Length: refused before reading.
    let r = count_limited("big", 1_000_000.0).await;
    assert_eq!(
        (r.kind.as_str(), r.http_status),
        ("decode", Some(200.0)),
        "{}",
        r.message
    );
    assert!(
        r.message.contains("larger than 1000000 bytes"),
        "{}",
        r.message
    );
    // A limit the body fits (its 10 MiB exactly), and 0 (none): the usual
    // verdict (not JSON), with the body's first 65,536 units.
    for limit in [10.0 * 1024.0 * 1024.0, 0.0] {
        let r = count_limited("big", limit).await;
        assert!(!r.message.contains("larger than"), "{limit}: {}", r.message);
        let units = r.body.dyn_ref::<js_sys::JsString>().map(|b| b.length());
        assert_eq!(units, Some(65_536), "{limit}");
    }
    // A body exactly at the limit is read; one byte less is refused.
    let ok = r#"{"status":200,"result":{"totalUsers":7}}"#.len() as f64;
    let base = fault("ok");
    let options = obj(&[("maxBodyBytes", &JsValue::from(ok))]);
    let got = resolves(count_users(
        base.as_str().into(),
        JsValue::UNDEFINED,
        options,
    ))
    .await;
    assert_eq!(get(&get(&got, "result"), "totalUsers"), JsValue::from(7));
    let r = count_limited("ok", ok - 1.0).await;
    assert_eq!(r.kind, "decode", "{}", r.message);
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn broken_connections_are_network_errors_and_retried() {
    let (r, n) = count_fault("truncated", 0).await;
    assert_eq!(
        (r.kind.as_str(), r.http_status),
        ("network", None),
        "{}",
        r.message
    );
    assert_eq!(n, 1.0, "truncated with retries: 0");
    let (_, n) = count_fault("truncated", 2).await;
    assert_eq!(n, 3.0, "truncated with the default retries");
    // A connection that closes without any answer. (The server in fault
    // mode reuses no connection, so no browser replays the request.)
    let (r, n) = count_fault("dropped", 0).await;
    assert_eq!(
        (r.kind.as_str(), r.http_status),
        ("network", None),
        "{}",
        r.message
    );
    assert_eq!(n, 1.0, "dropped with retries: 0");
    let (_, n) = count_fault("dropped", 2).await;
    assert_eq!(n, 3.0, "dropped with the default retries");
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn a_slow_or_stalled_answer_times_out_promptly() {
    // A timeout far longer than a request takes to reach the server on a
    // busy machine, far shorter than `slow`'s 30 s (`stalled` never ends).
    let timeout = JsValue::from(1_500);
    for scenario in ["slow", "stalled"] {
        let base = fault(scenario);
        let options = obj(&[("retries", &JsValue::from(0)), ("timeoutMs", &timeout)]);
        let promise = count_users(base.as_str().into(), JsValue::UNDEFINED, options);
        // Promptly: before a timer of twice the timeout armed with the call.
        assert!(
            settles_before(&promise, 3_000).await,
            "{scenario} waited for the server"
        );
        let r = rejects(promise).await;
        assert_eq!(r.kind, "timeout", "{scenario}");
        assert_eq!(attempts(&base).await, 1.0);
    }
    // Timeouts are retried: three attempts.
    let base = fault("stalled");
    let options = obj(&[("timeoutMs", &timeout)]);
    rejects(count_users(
        base.as_str().into(),
        JsValue::UNDEFINED,
        options,
    ))
    .await;
    assert_eq!(attempts(&base).await, 3.0);
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn an_abort_settles_at_once_while_the_server_is_slow() {
    let base = fault("slow");
    let controller = abort_controller();
    let signal = get(&controller, "signal");
    let promise = count_users(
        base.as_str().into(),
        JsValue::UNDEFINED,
        obj(&[("signal", &signal)]),
    );
    // Aborted once the server has the request (it answers after 30 s).
    received(&base, 1.0).await;
    abort_later(&controller, 0);
    assert!(
        settles_before(&promise, 1_000).await,
        "waited for the server"
    );
    assert_eq!(rejects(promise).await.kind, "aborted");
    assert_eq!(attempts(&base).await, 1.0);
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn retry_after_from_a_real_server_is_honoured() {
    for (scenario, at_least) in [("retry-after-seconds", 950.0), ("retry-after-date", 900.0)] {
        let base = fault(scenario);
        let started = now();
        let got = resolves(count_users(
            base.as_str().into(),
            JsValue::UNDEFINED,
            JsValue::UNDEFINED,
        ))
        .await;
        let waited = now() - started;
        assert_eq!(get(&get(&got, "result"), "totalUsers"), JsValue::from(7));
        assert!(waited >= at_least, "{scenario}: waited only {waited} ms");
        assert_eq!(attempts(&base).await, 2.0, "{scenario}");
    }
    for (n, expected) in [(0, 1.0), (2, 3.0), (5, 6.0)] {
        let (r, got) = count_fault("busy", n).await;
        assert_eq!((r.kind.as_str(), r.http_status), ("http", Some(503.0)));
        assert_eq!(got, expected, "busy with retries: {n}");
    }
}

const AWKWARD: &str = "a&b=c#d+e%f g/ü✓?'\"";

#[wasm_bindgen_test]
async fn every_transport_round_trips_awkward_characters() {
    for mode in ["body", "query", "form"] {
        let base = fault("echo");
        let options = obj(&[
            ("paramsIn", &mode.into()),
            ("headers", &js(r#"{"X-Request-Id":"r-42"}"#)),
        ]);
        let params = obj(&[
            ("query", &AWKWARD.into()),
            ("active", &JsValue::FALSE),
            ("sort", &"name asc&x=1".into()),
        ]);
        let got = resolves(list_users(base.as_str().into(), params, options)).await;
        let decoded = get(&get(&got, "result"), "params");
        assert_eq!(get(&decoded, "query"), JsValue::from(AWKWARD), "{mode}");
        assert_eq!(get(&decoded, "active"), JsValue::from("false"), "{mode}");
        assert_eq!(
            get(&decoded, "sort"),
            JsValue::from("name asc&x=1"),
            "{mode}"
        );
        let headers = get(&get(&got, "result"), "headers");
        assert_eq!(get(&headers, "x-request-id"), JsValue::from("r-42"));
        assert_eq!(get(&headers, "accept"), JsValue::from("application/json"));
    }
}

#[wasm_bindgen_test]
async fn a_token_echoed_by_the_server_is_redacted() {
    const TOKEN: &str = "tok_real_server_5d1e";
    let fixed = js(&format!(r#"{{"Authorization":"Bearer {TOKEN}"}}"#));
    let provider = counting_provider(&fixed);
    for headers in [&fixed, &provider] {
        let base = fault("echo-auth-401");
        let options = obj(&[("headers", headers)]);
        let r = rejects(count_users(
            base.as_str().into(),
            JsValue::UNDEFINED,
            options,
        ))
        .await;
        assert_eq!((r.kind.as_str(), r.http_status), ("http", Some(401.0)));
        let error = get(&get(&r.body, "result"), "error").as_string().unwrap();
        assert!(
            error.contains("[REDACTED]"),
            "the server did echo it: {error}"
        );
        assert!(!r.everything.contains(TOKEN), "leaked: {}", r.everything);
    }
}

/// In `query` mode the URL carries the params: no message (nor the error
/// as `String`, its stack or JSON) quotes the query string, for a dropped
/// connection, a server that never answers, a 503 and a body that is not
/// JSON; and a `fetch` whose message quotes the URL (as Deno's does) has it
/// shown without its query string, the path kept.
#[wasm_bindgen_test]
async fn no_param_value_in_what_a_call_reports() {
    let secret = "ann-secret-name";
    let params = obj(&[("query", &secret.into())]);
    let query = JsValue::from("query");
    let (zero, timeout) = (JsValue::from(0), JsValue::from(200));
    for (scenario, kind) in [
        ("dropped", "network"),
        ("held", "timeout"),
        ("busy", "http"),
        ("not-json", "decode"),
    ] {
        let base = fault(scenario);
        let options = obj(&[
            ("paramsIn", &query),
            ("retries", &zero),
            ("timeoutMs", &timeout),
        ]);
        let r = rejects(count_users(base.as_str().into(), params.clone(), options)).await;
        assert_eq!(r.kind, kind, "{scenario}: {}", r.message);
        assert!(
            !r.everything.contains(secret),
            "{scenario}: {}",
            r.everything
        );
        assert_eq!(attempts(&base).await, 1.0, "{scenario}");
    }
    let fetch = fetch_quoting_the_url();
    let options = obj(&[("paramsIn", &query), ("retries", &zero), ("fetch", &fetch)]);
    let r = rejects(count_users(FAKE.into(), params, options)).await;
    assert_eq!(r.kind, "network", "{}", r.message);
    assert!(
        !r.message.contains(secret) && !r.message.contains('?'),
        "{}",
        r.message
    );
    let path = format!("{}/api/users/count", FAKE.trim_end_matches('/'));
    assert!(
        r.message.contains(&format!("POST {path}:")),
        "{}",
        r.message
    );
    assert!(
        r.message.contains(&format!("url ({path}):")),
        "{}",
        r.message
    );
    good_call_still_works().await;
}
