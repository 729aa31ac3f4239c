//! JS hooks: what each is called with, how often and in which order, and
//! what never calls them (a validation failure, an abort), a hook that
//! fails, bad `hooks`, and the URL hooks see in query mode.

use super::*;

#[wasm_bindgen_test]
async fn a_call_that_succeeds_at_once_calls_before_request_and_after_response_once() {
    // One-shot count against the fake, answered after 40 ms.
    // The wall clock jumps back an hour while the answer is awaited: the
    // duration is on the monotonic clock, as is the span measured here.
    let fake = scripted(&format!(r#"[{{"body":{:?},"delayMs":40}}]"#, count_body(4)));
    let rec = Rec::new();
    let restore = wall_clock_jumps_back(20, 3_600_000.0);
    let started = monotonic_now();
    let got = resolves(fake_count(&fake, "{}", &[("hooks", &rec.hooks())])).await;
    let call_took = monotonic_now() - started;
    restore.call0(&JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&get(&got, "result"), "totalUsers"), JsValue::from(4));
    assert_eq!(rec.counts(), (1, 1, 0));
    assert_eq!(rec.sequence(), "beforeRequest,afterResponse");
    let sent = text(&call(&fake, 0), "url");
    assert_eq!(sent, format!("{FAKE}api/users/count"));
    let before = rec.info(BR, 0);
    check_attempt_info(&before, "count", &sent, 1.0);
    assert_eq!(
        header_of(&before, "content-type").as_deref(),
        Some("application/json")
    );
    assert!(
        get(&before, "httpStatus").is_undefined(),
        "{}",
        json(&before)
    );
    assert!(
        get(&before, "durationMs").is_undefined(),
        "{}",
        json(&before)
    );
    let after = rec.info(AR, 0);
    check_attempt_info(&after, "count", &sent, 1.0);
    assert_eq!(num(&after, "httpStatus"), 200.0);
    // At least the fake's 40 ms delay (its timer cannot fire early), and no
    // more than the whole call as this test saw it on the same clock
    // (`performance.now()`): the span it measures lies inside the call. In
    // whole milliseconds.
    let duration = num(&after, "durationMs");
    assert!(
        (35.0..=call_took).contains(&duration),
        "durationMs {duration} for an answer 40 ms late, in a call of {call_took} ms"
    );
    assert_eq!(duration, duration.floor(), "durationMs {duration}");
    assert_eq!(
        json(&get(&after, "headers")),
        json(&get(&before, "headers"))
    );

    // A UsersClient's list against the real server.
    let rec = Rec::new();
    let client = UsersClient::new(options(&[
        ("baseUrl", &server().into()),
        ("hooks", &rec.hooks()),
    ]))
    .unwrap();
    resolves(client.list_users(js(r#"{"pageSize":2}"#), JsValue::UNDEFINED)).await;
    assert_eq!(rec.counts(), (1, 1, 0));
    let url = format!("{}/api/users", server().trim_end_matches('/'));
    check_attempt_info(&rec.info(BR, 0), "list", &url, 1.0);
    check_attempt_info(&rec.info(AR, 0), "list", &url, 1.0);
    assert_eq!(num(&rec.info(AR, 0), "httpStatus"), 200.0);
    assert!(num(&rec.info(AR, 0), "durationMs") >= 0.0);

    // Each call starts again at attempt 1.
    resolves(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(rec.counts(), (2, 2, 0));
    check_attempt_info(&rec.info(BR, 1), "count", &count_url(server()), 1.0);
    check_attempt_info(&rec.info(AR, 1), "count", &count_url(server()), 1.0);
}

#[wasm_bindgen_test]
async fn three_503s_with_two_retries_call_the_hooks_3_3_2_with_the_delay_really_waited() {
    // Two calls at once: three 503s without Retry-After (the backoff:
    // 150..300 ms, then 300..600 ms), and 503 (Retry-After: 1), 429
    // (Retry-After: 0), 200.
    armed_timers();
    let fake = scripted(&format!("[{}]", answer(503, None, &busy_body())));
    let rec = Rec::new();
    let two = JsValue::from(2);
    let backoff = handled(fake_count(
        &fake,
        "{}",
        &[("hooks", &rec.hooks()), ("retries", &two)],
    ));
    let fake_ra = scripted(&format!(
        "[{},{},{}]",
        answer(503, Some("1"), &busy_body()),
        answer(429, Some("0"), &busy_body()),
        ok_step(6)
    ));
    let rec_ra = Rec::new();
    let honoured = handled(fake_count(&fake_ra, "{}", &[("hooks", &rec_ra.hooks())]));

    let r = rejects(backoff).await;
    assert_eq!((r.kind.as_str(), r.http_status), ("http", Some(503.0)));
    assert_eq!(call_count(&fake), 3);
    assert_eq!(rec.counts(), (3, 3, 2));
    assert_eq!(
        rec.sequence(),
        "beforeRequest,afterResponse,beforeRetry,beforeRequest,afterResponse,beforeRetry,beforeRequest,afterResponse"
    );
    assert_eq!(rec.attempts(BR), [1.0, 2.0, 3.0]);
    assert_eq!(rec.attempts(AR), [1.0, 2.0, 3.0]);
    assert_eq!(rec.attempts(RT), [1.0, 2.0]);
    assert_eq!(rec.statuses(), [503.0, 503.0, 503.0]);
    let sent = text(&call(&fake, 0), "url");
    for i in 0..3 {
        check_attempt_info(&rec.info(BR, i), "count", &sent, f64::from(i + 1));
        check_attempt_info(&rec.info(AR, i), "count", &sent, f64::from(i + 1));
    }
    for (i, range) in [(0, 150.0..=300.0), (1, 300.0..=600.0)] {
        let info = rec.info(RT, i);
        assert_eq!(text(&info, "operation"), "count");
        let error = describe_error(&get(&info, "error"));
        assert_eq!(get(&error, "isError"), JsValue::TRUE);
        assert_eq!(text(&error, "className"), "UsersApiError");
        assert_eq!(text(&error, "kind"), "http");
        assert_eq!(num(&error, "httpStatus"), 503.0);
        let delay = num(&info, "delayMs");
        assert!(range.contains(&delay), "retry {i}: delayMs {delay}");
    }
    check_waits(&rec, "backoff");

    let got = resolves(honoured).await;
    assert_eq!(get(&get(&got, "result"), "totalUsers"), JsValue::from(6));
    assert_eq!(rec_ra.counts(), (3, 3, 2));
    assert_eq!(rec_ra.statuses(), [503.0, 429.0, 200.0]);
    for (i, delay, status) in [(0, 1_000.0, 503.0), (1, 0.0, 429.0)] {
        let info = rec_ra.info(RT, i);
        assert_eq!(num(&info, "delayMs"), delay, "retry {i}");
        assert_eq!(num(&get(&info, "error"), "httpStatus"), status);
    }
    check_waits(&rec_ra, "Retry-After");
}

#[wasm_bindgen_test]
async fn a_validation_failure_calls_no_hook() {
    let fake = scripted(&format!("[{}]", ok_step(1)));
    let rec = Rec::new();
    let hooks = rec.hooks();
    // Bad params, a bad option beside good hooks, on both one-shot calls.
    let bad_timeout = JsValue::from(-1);
    for (params, extra) in [
        (r#"{"active":"nope"}"#, None),
        (r#"{"query":5}"#, None),
        ("{}", Some(("timeoutMs", &bad_timeout))),
    ] {
        let mut pairs = vec![("hooks", &hooks)];
        pairs.extend(extra);
        let r = rejects(fake_count(&fake, params, &pairs)).await;
        assert_eq!(r.kind, "validation", "{params}");
        let r = rejects(list_users(
            FAKE.into(),
            js(params),
            with_fake(&fake, &pairs),
        ))
        .await;
        assert_eq!(r.kind, "validation", "{params}");
    }
    // An unknown count param (the list passes those through).
    let r = rejects(fake_count(
        &fake,
        r#"{"activ":"true"}"#,
        &[("hooks", &hooks)],
    ))
    .await;
    assert_eq!(
        (r.kind.as_str(), r.param.as_deref()),
        ("validation", Some("activ"))
    );
    // Bad call headers, and a provider's bad headers, on a client.
    let client = UsersClient::new(with_fake(
        &fake,
        &[("baseUrl", &FAKE.into()), ("hooks", &hooks)],
    ))
    .unwrap();
    let bad = js(r#"{"headers":{"x":"a\nb"}}"#);
    assert_eq!(
        rejects(client.count_users(JsValue::UNDEFINED, bad))
            .await
            .kind,
        "validation"
    );
    let provider = counting_provider(&js(r#"{"bad name":"x"}"#));
    let client = UsersClient::new(with_fake(
        &fake,
        &[
            ("baseUrl", &FAKE.into()),
            ("hooks", &hooks),
            ("headers", &provider),
        ],
    ))
    .unwrap();
    let r = rejects(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(
        (r.kind.as_str(), r.param.as_deref()),
        ("validation", Some("headers"))
    );
    // An already-aborted signal: nothing is attempted either.
    let signal = aborted_signal();
    let r = rejects(fake_count(
        &fake,
        "{}",
        &[("hooks", &hooks), ("signal", &signal)],
    ))
    .await;
    assert_eq!(r.kind, "aborted");
    assert_eq!(call_count(&fake), 0, "nothing sent");
    assert_eq!(rec.counts(), (0, 0, 0), "{}", rec.everything());
    // The same hooks do see a good call.
    resolves(fake_count(&fake, "{}", &[("hooks", &hooks)])).await;
    assert_eq!(rec.counts(), (1, 1, 0));
}

#[wasm_bindgen_test]
async fn an_abort_from_before_retry_calls_no_further_hook() {
    let fake = scripted(&format!("[{}]", answer(503, Some("0"), &busy_body())));
    let controller = abort_controller();
    let rec = Rec::aborting(&controller);
    let signal = get(&controller, "signal");
    let r = rejects(fake_count(
        &fake,
        "{}",
        &[("hooks", &rec.hooks()), ("signal", &signal)],
    ))
    .await;
    assert_eq!(r.kind, "aborted");
    assert_eq!(rec.counts(), (1, 1, 1), "{}", rec.sequence());
    JsFuture::from(sleep(100)).await.unwrap();
    assert_eq!(rec.counts(), (1, 1, 1), "{}", rec.sequence());
    assert_eq!(call_count(&fake), 1);
}

#[wasm_bindgen_test]
async fn an_abort_during_the_retry_pause_calls_no_further_hook() {
    // Both at once: the fake's Retry-After: 1 and the fault server's,
    // through a client, each aborted 100 ms into its pause of 1 s (timers
    // armed from beforeRetry, so the abort falls inside the pause whatever
    // the machine's load).
    let fake = scripted(&format!(
        "[{},{}]",
        answer(503, Some("1"), &busy_body()),
        ok_step(1)
    ));
    let controller = abort_controller();
    let rec = Rec::aborting_in_pause(&controller, 100);
    let signal = get(&controller, "signal");
    let promise = handled(fake_count(
        &fake,
        "{}",
        &[("hooks", &rec.hooks()), ("signal", &signal)],
    ));

    let base = fault("retry-after-seconds");
    let server_controller = abort_controller();
    let server_rec = Rec::aborting_in_pause(&server_controller, 100);
    let client = UsersClient::new(options(&[
        ("baseUrl", &base.as_str().into()),
        ("hooks", &server_rec.hooks()),
    ]))
    .unwrap();
    let server_promise = handled(client.count_users(
        JsValue::UNDEFINED,
        options(&[("signal", &get(&server_controller, "signal"))]),
    ));

    // At once: before the pause is over.
    assert_eq!(rejects(promise).await.kind, "aborted");
    assert!(!rec.pause_over(), "the pause was waited out");
    assert_eq!(rec.counts(), (1, 1, 1));
    assert_eq!(rejects(server_promise).await.kind, "aborted");
    assert!(!server_rec.pause_over(), "the pause was waited out");
    assert_eq!(server_rec.counts(), (1, 1, 1));
    // Past the end of the pause: still nothing.
    JsFuture::from(sleep(1_000)).await.unwrap();
    assert!(rec.pause_over() && server_rec.pause_over());
    assert_eq!(rec.counts(), (1, 1, 1), "{}", rec.sequence());
    assert_eq!(call_count(&fake), 1);
    assert_eq!(server_rec.counts(), (1, 1, 1), "{}", server_rec.sequence());
    assert_eq!(attempts(&base).await, 1.0);
}

#[wasm_bindgen_test]
async fn a_throwing_or_rejecting_hook_changes_nothing() {
    let script = format!("[{},{}]", answer(503, Some("0"), &busy_body()), ok_step(5));
    let failing = format!(
        "[{}]",
        answer(400, None, r#"{"status":400,"result":{"error":"bad"}}"#)
    );
    // Without hooks, for comparison.
    let plain = scripted(&script);
    let expected = json(&resolves(fake_count(&plain, "{}", &[])).await);
    let plain_failing = scripted(&failing);
    let expected_error = rejects(fake_count(&plain_failing, "{}", &[])).await;
    for mode in ["throw", "reject", "async", "then-throws"] {
        let rec = Rec::failing(mode);
        let fake = scripted(&script);
        let client = UsersClient::new(with_fake(
            &fake,
            &[("baseUrl", &FAKE.into()), ("hooks", &rec.hooks())],
        ))
        .unwrap();
        let capture = capturing_reports();
        let got = resolves(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
        restore_reports(&capture);
        assert_eq!(json(&got), expected, "{mode}");
        assert_eq!(call_count(&fake), 2, "{mode}");
        // Every hook was called (and failed) once per event, and each
        // failure was reported with what the hook threw.
        assert_eq!(rec.counts(), (2, 2, 1), "{mode}");
        let reported = reported_messages(&capture);
        assert_eq!(reported.lines().count(), 5, "{mode}: {reported}");
        let on_purpose = |line: &str| line.contains("on purpose");
        assert!(reported.lines().all(on_purpose), "{mode}: {reported}");
        // Later calls on the same client work: the fake now answers 200.
        let again = resolves(client.count_users(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
        assert_eq!(json(&again), expected, "{mode}");
        assert_eq!(rec.counts(), (3, 3, 1), "{mode}");

        // A failing call fails the same way.
        let fake = scripted(&failing);
        let r = rejects(fake_count(&fake, "{}", &[("hooks", &rec.hooks())])).await;
        assert_eq!(
            (r.kind.as_str(), r.http_status, r.status, r.message.as_str()),
            (
                expected_error.kind.as_str(),
                expected_error.http_status,
                expected_error.status,
                expected_error.message.as_str()
            ),
            "{mode}"
        );
        assert_eq!(json(&r.body), json(&expected_error.body), "{mode}");
        assert_eq!(call_count(&fake), 1, "{mode}");

        // And on the real server.
        let truth = JsFuture::from(raw_count(server(), &js("{}")))
            .await
            .unwrap();
        let got = resolves(count_users(
            server().into(),
            JsValue::UNDEFINED,
            options(&[("hooks", &rec.hooks())]),
        ))
        .await;
        assert_eq!(get(&get(&got, "result"), "totalUsers"), truth, "{mode}");
    }
    // Rejections reported by the hooks settle later; the module still works.
    JsFuture::from(sleep(20)).await.unwrap();
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn bad_hooks_are_validation_errors_with_param_hooks() {
    for case in bad_hooks().iter() {
        let name = get(&case, "0").as_string().unwrap();
        let hooks = get(&case, "1");
        let fake = scripted(&format!("[{}]", ok_step(1)));
        // The constructor throws.
        let thrown = match UsersClient::new(with_fake(
            &fake,
            &[("baseUrl", &FAKE.into()), ("hooks", &hooks)],
        )) {
            Ok(_) => panic!("{name}: the constructor accepted it"),
            Err(e) => describe_error(&e),
        };
        assert_eq!(text(&thrown, "className"), "UsersApiError", "{name}");
        assert_eq!(
            (text(&thrown, "kind"), get(&thrown, "param").as_string()),
            ("validation".to_string(), Some("hooks".to_string())),
            "{name}: {}",
            text(&thrown, "message")
        );
        // The one-shot calls reject.
        for list in [false, true] {
            let options = with_fake(&fake, &[("hooks", &hooks)]);
            let promise = if list {
                list_users(FAKE.into(), JsValue::UNDEFINED, options)
            } else {
                count_users(FAKE.into(), JsValue::UNDEFINED, options)
            };
            let r = rejects(promise).await;
            assert_eq!(
                (r.kind.as_str(), r.param.as_deref()),
                ("validation", Some("hooks")),
                "{name} (list: {list}): {}",
                r.message
            );
        }
        assert_eq!(call_count(&fake), 0, "{name}: nothing sent");
    }
    // What is accepted: no hooks, an empty object, an undefined hook.
    let fake = scripted(&format!("[{}]", ok_step(1)));
    for hooks in [
        JsValue::UNDEFINED,
        js("{}"),
        obj(&[(BR, &JsValue::UNDEFINED)]),
    ] {
        resolves(fake_count(&fake, "{}", &[("hooks", &hooks)])).await;
        UsersClient::new(with_fake(
            &fake,
            &[("baseUrl", &FAKE.into()), ("hooks", &hooks)],
        ))
        .unwrap();
    }
    assert_eq!(call_count(&fake), 3);
}

#[wasm_bindgen_test]
async fn in_query_mode_the_hooks_url_carries_the_query_string() {
    let fake = scripted(&format!("[{}]", ok_step(2)));
    let rec = Rec::new();
    let query = JsValue::from("query");
    let params = r#"{"active":true,"query":"a b&c=d"}"#;
    resolves(fake_count(
        &fake,
        params,
        &[("hooks", &rec.hooks()), ("paramsIn", &query)],
    ))
    .await;
    let sent = text(&call(&fake, 0), "url");
    assert!(
        sent.starts_with(&format!("{FAKE}api/users/count?")),
        "{sent}"
    );
    for name in [BR, AR] {
        let url = text(&rec.info(name, 0), "url");
        assert_eq!(url, sent, "{name}");
        let q = query_of(&url.into());
        assert_eq!(get(&q, "query").as_string().as_deref(), Some("a b&c=d"));
        assert_eq!(get(&q, "active").as_string().as_deref(), Some("true"));
    }
    // Body and form modes: no query string.
    for mode in ["body", "form"] {
        let rec = Rec::new();
        let fake = scripted(&format!("[{}]", ok_step(2)));
        resolves(fake_count(
            &fake,
            params,
            &[("hooks", &rec.hooks()), ("paramsIn", &mode.into())],
        ))
        .await;
        assert_eq!(
            text(&rec.info(BR, 0), "url"),
            format!("{FAKE}api/users/count"),
            "{mode}"
        );
    }
    // The real server's echo, listing in query mode.
    let base = fault("echo");
    let rec = Rec::new();
    let got = resolves(list_users(
        base.as_str().into(),
        js(r#"{"query":"ü✓?","page":2}"#),
        options(&[("hooks", &rec.hooks()), ("paramsIn", &query)]),
    ))
    .await;
    let echoed = get(&get(&got, "result"), "params");
    assert_eq!(get(&echoed, "query").as_string().as_deref(), Some("ü✓?"));
    for name in [BR, AR] {
        let url = text(&rec.info(name, 0), "url");
        assert!(
            url.starts_with(&format!("{}/api/users?", base.trim_end_matches('/'))),
            "{name}: {url}"
        );
        let q = query_of(&url.into());
        assert_eq!(
            get(&q, "query").as_string().as_deref(),
            Some("ü✓?"),
            "{name}"
        );
        assert_eq!(get(&q, "page").as_string().as_deref(), Some("2"), "{name}");
    }
}
