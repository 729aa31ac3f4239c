//! The Rust API's hook closures: the same calls, counts, waits and
//! redaction as the JS hooks, and the Rust API's own time rules.

use super::*;

/// What the Rust hooks saw, in order, each with `Date.now()`.
enum Seen {
    Request(AttemptInfo),
    Response(ResponseInfo),
    Retry(RetryInfo),
}

type Log = Rc<RefCell<Vec<(Seen, f64)>>>;

/// Hooks that record into a log; `before_retry` also runs `on_retry`.
fn recording(on_retry: impl Fn() + 'static) -> (Hooks, Log) {
    let log: Log = Rc::default();
    let (a, b, c) = (Rc::clone(&log), Rc::clone(&log), Rc::clone(&log));
    let hooks = Hooks::default()
        .before_request(move |info: &AttemptInfo| {
            a.borrow_mut().push((Seen::Request(info.clone()), now()));
        })
        .after_response(move |info: &ResponseInfo| {
            b.borrow_mut().push((Seen::Response(info.clone()), now()));
        })
        .before_retry(move |info: &RetryInfo| {
            c.borrow_mut().push((Seen::Retry(info.clone()), now()));
            on_retry();
        });
    (hooks, log)
}

fn rust_counts(log: &Log) -> (u32, u32, u32) {
    let mut counts = (0, 0, 0);
    for (seen, _) in log.borrow().iter() {
        match seen {
            Seen::Request(_) => counts.0 += 1,
            Seen::Response(_) => counts.1 += 1,
            Seen::Retry(_) => counts.2 += 1,
        }
    }
    counts
}

fn requests(log: &Log) -> Vec<(AttemptInfo, f64)> {
    log.borrow()
        .iter()
        .filter_map(|(seen, t)| match seen {
            Seen::Request(info) => Some((info.clone(), *t)),
            _ => None,
        })
        .collect()
}

fn responses(log: &Log) -> Vec<ResponseInfo> {
    log.borrow()
        .iter()
        .filter_map(|(seen, _)| match seen {
            Seen::Response(info) => Some(info.clone()),
            _ => None,
        })
        .collect()
}

fn retries(log: &Log) -> Vec<(RetryInfo, f64)> {
    log.borrow()
        .iter()
        .filter_map(|(seen, t)| match seen {
            Seen::Retry(info) => Some((info.clone(), *t)),
            _ => None,
        })
        .collect()
}

fn rust_header<'a>(info: &'a AttemptInfo, name: &str) -> Option<&'a str> {
    let mut found = info
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name));
    let first = found.next().map(|(_, v)| v.as_str());
    assert!(found.next().is_none(), "two {name} headers");
    first
}

fn rust_client(fake: &JsValue, edit: impl FnOnce(ClientOptions) -> ClientOptions) -> RustClient {
    let mut options = ClientOptions::new(FAKE);
    options.fetch = Some(get(fake, "fetch").unchecked_into());
    match RustClient::new(edit(options)) {
        Ok(client) => client,
        Err(error) => panic!("the options were refused: {error}"),
    }
}

fn ok<T>(outcome: Result<T, Error>) -> T {
    match outcome {
        Ok(value) => value,
        Err(error) => panic!("expected success, got {:?}: {error}", error.kind()),
    }
}

fn failed<T: std::fmt::Debug>(outcome: Result<T, Error>) -> Error {
    match outcome {
        Ok(value) => panic!("expected an error, got {value:?}"),
        Err(error) => error,
    }
}

#[wasm_bindgen_test]
async fn rust_hooks_see_a_call_that_succeeds_at_once() {
    let fake = scripted(&format!(r#"[{{"body":{:?},"delayMs":40}}]"#, count_body(8)));
    let (hooks, log) = recording(|| {});
    let client = rust_client(&fake, |o| o.hooks(hooks));
    // The wall clock jumps back an hour while the answer is awaited.
    let restore = wall_clock_jumps_back(20, 3_600_000.0);
    let started = monotonic_now();
    let got = ok(client.count_users().send().await);
    let call_took = Duration::from_secs_f64((monotonic_now() - started) / 1e3);
    restore.call0(&JsValue::UNDEFINED).unwrap();
    assert_eq!(got.result.total_users, 8);
    assert_eq!(rust_counts(&log), (1, 1, 0));
    let sent = text(&call(&fake, 0), "url");
    let (request, _) = &requests(&log)[0];
    assert_eq!(request.operation, Operation::Count);
    assert_eq!(request.url, sent);
    assert_eq!(request.attempt, 1);
    assert_eq!(rust_header(request, "accept"), Some("application/json"));
    let response = &responses(&log)[0];
    assert_eq!(&response.request, request);
    assert_eq!(response.http_status, 200);
    // At least the fake's 40 ms delay, at most the call that contains it,
    // both on the monotonic clock (`performance.now()`).
    assert!(
        (Duration::from_millis(35)..=call_took).contains(&response.duration),
        "duration {:?} in a call of {call_took:?}",
        response.duration
    );
    // The list, in query mode, against the real server.
    let (hooks, log) = recording(|| {});
    let mut options = ClientOptions::new(server());
    options.params_in = user_management_client::ParamsIn::Query;
    options.hooks = hooks;
    let client = RustClient::new(options).unwrap();
    let params = ListParams {
        page_size: Some(3),
        ..Default::default()
    };
    ok(client
        .list_users()
        .params(params.clone())
        .send::<serde::de::IgnoredAny>()
        .await);
    assert_eq!(rust_counts(&log), (1, 1, 0));
    let (request, _) = &requests(&log)[0];
    assert_eq!(request.operation, Operation::List);
    assert_eq!(
        request.url,
        format!("{}/api/users?pageSize=3", server().trim_end_matches('/'))
    );
    assert_eq!(responses(&log)[0].http_status, 200);
}

#[wasm_bindgen_test]
async fn rust_hooks_see_three_503s_and_the_delay_really_waited() {
    let fake = scripted(&format!(
        "[{},{},{}]",
        answer(503, None, &busy_body()),
        answer(503, Some("0"), &busy_body()),
        answer(503, Some("0"), &busy_body())
    ));
    armed_timers();
    let (hooks, log) = recording(|| {});
    let client = rust_client(&fake, |o| o.hooks(hooks).retries(2));
    let error = failed(client.count_users().send().await);
    assert_eq!(
        (error.kind(), error.http_status()),
        (ErrorKind::Http, Some(503))
    );
    assert_eq!(rust_counts(&log), (3, 3, 2));
    let requests = requests(&log);
    let attempts: Vec<u32> = requests.iter().map(|(r, _)| r.attempt).collect();
    assert_eq!(attempts, [1, 2, 3]);
    let statuses: Vec<u16> = responses(&log).iter().map(|r| r.http_status).collect();
    assert_eq!(statuses, [503, 503, 503]);
    let retries = retries(&log);
    for (i, (info, at)) in retries.iter().enumerate() {
        assert_eq!(info.attempt, i as u32 + 1);
        assert_eq!(info.operation, Operation::Count);
        assert_eq!(info.error.kind(), ErrorKind::Http);
        assert_eq!(info.error.http_status(), Some(503));
        let delay_ms = info.delay.as_secs_f64() * 1e3;
        check_wait(delay_ms, *at, requests[i + 1].1, &format!("retry {i}"));
    }
    let backoff = retries[0].0.delay;
    assert!(
        (Duration::from_millis(150)..=Duration::from_millis(300)).contains(&backoff),
        "backoff {backoff:?}"
    );
    assert_eq!(retries[1].0.delay, Duration::ZERO, "Retry-After: 0");
}

#[wasm_bindgen_test]
async fn rust_hooks_never_see_a_credential() {
    let script = format!(
        "[{},{}]",
        answer(
            503,
            Some("0"),
            &format!(r#"{{"status":503,"result":{{"error":"Bearer {TOKEN} / {KEY}"}}}}"#)
        ),
        ok_step(2)
    );
    let fake = scripted(&script);
    let (hooks, log) = recording(|| {});
    let provided: HeaderList = vec![("X-Api-Key".into(), KEY.into())];
    let client = rust_client(&fake, |o| {
        o.hooks(hooks)
            .header("X-Request-Id", "visible")
            .header_provider(move || std::future::ready(provided.clone()))
    });
    let call_options = CallOptions::default().header("Authorization", format!("Bearer {TOKEN}"));
    ok(client
        .count_users()
        .options(call_options.clone())
        .send()
        .await);
    check_sent(&fake);
    assert_eq!(rust_counts(&log), (2, 2, 1));
    let mut seen = Vec::new();
    for (request, _) in requests(&log) {
        assert_eq!(rust_header(&request, "authorization"), Some("[REDACTED]"));
        assert_eq!(rust_header(&request, "x-api-key"), Some("[REDACTED]"));
        assert_eq!(rust_header(&request, "x-request-id"), Some("visible"));
        seen.push(format!("{request:?}"));
    }
    for response in responses(&log) {
        seen.push(format!("{response:?}"));
    }
    let (retry, _) = &retries(&log)[0];
    let body = retry.error.body().unwrap_or_default();
    assert!(body.contains("[REDACTED]"), "{body}");
    seen.push(format!(
        "{:?} {} {body}",
        retry.error,
        retry.error.message()
    ));
    let seen = seen.join("\n");
    for secret in [TOKEN, KEY] {
        assert!(!seen.contains(secret), "a Rust hook saw {secret}: {seen}");
    }
}

#[wasm_bindgen_test]
async fn rust_hooks_see_nothing_of_a_validation_failure_or_after_an_abort() {
    let fake = scripted(&format!("[{}]", answer(503, Some("0"), &busy_body())));
    let (hooks, log) = recording(|| {});
    let client = rust_client(&fake, |o| o.hooks(hooks));
    let bad = CallOptions::default().header("bad name", "x");
    let error = failed(client.count_users().options(bad.clone()).send().await);
    assert_eq!(error.kind(), ErrorKind::Validation);
    let too_big = ListParams {
        page: Some(1 << 60),
        ..Default::default()
    };
    let error = failed(
        client
            .list_users()
            .params(too_big.clone())
            .send::<serde::de::IgnoredAny>()
            .await,
    );
    assert_eq!(error.kind(), ErrorKind::Validation);
    assert_eq!(rust_counts(&log), (0, 0, 0));
    assert_eq!(call_count(&fake), 0);

    // before_retry aborts the call's signal: nothing after it.
    let controller = web_sys::AbortController::new().unwrap();
    let aborter = controller.clone();
    let (hooks, log) = recording(move || aborter.abort());
    let client = rust_client(&fake, |o| o.hooks(hooks));
    let call_options = CallOptions::default().signal(controller.signal());
    let error = failed(
        client
            .count_users()
            .options(call_options.clone())
            .send()
            .await,
    );
    assert_eq!(error.kind(), ErrorKind::Aborted);
    JsFuture::from(sleep(100)).await.unwrap();
    assert_eq!(rust_counts(&log), (1, 1, 1));
    assert_eq!(call_count(&fake), 1);
}

/// Two time rules of the Rust API through real calls, told by the timers
/// the client arms and by attempt counts, not by how long anything took:
/// a `Retry-After` above 60 s is a pause of 60 s, and with no timeout set
/// an attempt's timer is 10 s. Each call is aborted soon after (a timer of
/// 50 ms, due long before the client's own).
#[wasm_bindgen_test]
async fn rust_calls_cap_retry_after_at_60_s_and_time_out_at_10_s_by_default() {
    armed_timers();
    let fake = scripted(&format!("[{}]", answer(503, Some("3600"), &busy_body())));
    let controller = web_sys::AbortController::new().unwrap();
    let aborter: JsValue = controller.clone().into();
    let (hooks, log) = recording(move || abort_later(&aborter, 50));
    let client = rust_client(&fake, |o| o.hooks(hooks));
    let call_options = CallOptions::default().signal(controller.signal());
    let error = failed(
        client
            .count_users()
            .options(call_options.clone())
            .send()
            .await,
    );
    assert_eq!(error.kind(), ErrorKind::Aborted);
    let retries = retries(&log);
    assert_eq!(retries.len(), 1);
    assert_eq!(
        retries[0].0.delay,
        Duration::from_secs(60),
        "Retry-After: 3600"
    );
    let armed = timers_armed_between(retries[0].1, now());
    assert!(
        armed.contains(&60_000.0),
        "timers armed in the pause {armed:?}"
    );
    assert_eq!(
        call_count(&fake),
        1,
        "no second attempt before the pause ended"
    );

    let fake = scripted(r#"[{"hang":true}]"#);
    let controller = web_sys::AbortController::new().unwrap();
    let client = rust_client(&fake, |o| o.retries(0));
    let call_options = CallOptions::default().signal(controller.signal());
    let started = now();
    abort_later(&controller.clone().into(), 50);
    let error = failed(
        client
            .count_users()
            .options(call_options.clone())
            .send()
            .await,
    );
    assert_eq!(error.kind(), ErrorKind::Aborted);
    let armed = timers_armed_between(started, now());
    assert!(
        armed.contains(&10_000.0),
        "timers armed in the attempt {armed:?}"
    );
    assert!(call_signal_aborted(&fake, 0), "the request is cancelled");
}

#[wasm_bindgen_test]
async fn rust_hooks_on_the_fault_server() {
    // (scenario, timeout_ms, expected counts) with retries: 2, all at once.
    let runs = [
        ("dropped", 10_000, (3, 0, 2)),
        ("stalled", u64::from(STALLED_TIMEOUT), (3, 3, 2)),
        ("truncated", 10_000, (3, 3, 2)),
        ("envelope-400", 10_000, (1, 1, 0)),
        ("retry-after-seconds", 10_000, (2, 2, 1)),
    ]
    .map(|(scenario, timeout_ms, counts)| {
        let base = fault(scenario);
        let (hooks, log) = recording(|| {});
        let mut options = ClientOptions::new(base.as_str());
        options.hooks = hooks;
        options.retry_policy.limit = Some(2);
        options.timeout = Duration::from_millis(timeout_ms);
        let client = RustClient::new(options).unwrap();
        let done = wasm_bindgen_futures::future_to_promise(async move {
            let _ = client.count_users().send().await;
            Ok(JsValue::UNDEFINED)
        });
        (scenario, counts, base, log, done)
    });
    for (scenario, counts, base, log, done) in runs {
        JsFuture::from(done).await.unwrap();
        assert_eq!(rust_counts(&log), counts, "{scenario}");
        for (request, _) in requests(&log) {
            assert_eq!(request.url, count_url(&base), "{scenario}");
            assert_eq!(request.operation, Operation::Count);
        }
        let statuses: Vec<u16> = responses(&log).iter().map(|r| r.http_status).collect();
        let expected: &[u16] = match scenario {
            "dropped" => &[],
            "envelope-400" => &[400],
            "retry-after-seconds" => &[503, 200],
            _ => &[200, 200, 200],
        };
        assert_eq!(statuses, expected, "{scenario}");
    }
}
