//! The whole client natively, on tokio, against the reference server (its
//! binary from this workspace, built first: `cargo build -p
//! user-management-server`; `make unit` does): counts, a typed list page,
//! every error kind, `Retry-After`, overlapping calls, a call in
//! `tokio::spawn`, and redaction.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde::Deserialize;
use user_management_client::{
    Active, CallOptions, ClientOptions, Error, ErrorKind, HeaderList, Hooks, ListParams, Operation,
    ParamsIn, UserPage, UsersClient,
};

mod common;

use common::{refused_url, server};

fn client(base: &str) -> UsersClient {
    UsersClient::new(ClientOptions::new(base).timeout(Duration::from_secs(5))).expect("client")
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Page {
    users: Vec<User>,
    total_users: u64,
    page: u64,
    page_size: u64,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct User {
    id: i64,
    username: String,
    active: bool,
}

#[tokio::test]
async fn counts_and_a_typed_list_page() {
    let server = server();
    let client = client(&server.url);
    let count = client.count_users().send().await.expect("count");
    assert_eq!(count.status, 200);
    assert_eq!(count.result.total_users, 1000);
    let params = ListParams {
        page: Some(2),
        page_size: Some(5),
        ..Default::default()
    };
    let page = client
        .list_users()
        .params(params.clone())
        .send::<Page>()
        .await
        .expect("list");
    assert_eq!(page.status, 200);
    assert_eq!((page.result.page, page.result.page_size), (2, 5));
    assert_eq!(page.result.users.len(), 5);
    assert_eq!(page.result.total_users, 1000);
}

/// Whole numbers written as floats (`200.0`, `4.2e1`) are the integers
/// `JSON.parse` reads: in the envelope's status, the count and the
/// reference server's page.
#[tokio::test]
async fn whole_numbers_written_as_floats_are_whole_numbers() {
    let server = server();
    let client = client(&format!("{}/faults/whole-floats/native", server.url));
    let count = client.count_users().send().await.expect("count");
    assert_eq!((count.status, count.result.total_users), (200, 42));
    let page = client.list_users().send::<UserPage>().await.expect("list");
    assert_eq!(page.status, 200);
    let result = page.result;
    assert_eq!(
        (result.total_users, result.page, result.page_size),
        (42, 1, 10)
    );
    assert_eq!(
        result.users.iter().map(|user| user.id).collect::<Vec<_>>(),
        [7]
    );
}

/// Header values beyond visible ASCII, space and tab: a token with `ö`,
/// characters from U+0080 to U+00FF, a control character.
const BAD_HEADER_VALUES: [&str; 4] = [
    "Bearer tökén",
    "Bearer \u{80}x",
    "Bearer x\u{FF}",
    "a\u{1}b",
];

/// A header value beyond visible ASCII, space and tab, in every form a
/// header takes (the client's, the call's, a header provider's answer, a
/// `before_request` answer): `validation`, `param` `"headers"`, the value
/// nowhere in the message, never retried, nothing sent.
#[tokio::test]
async fn a_header_value_beyond_visible_ascii_is_a_validation_error_sent_nowhere() {
    let server = server();
    for (n, bad) in BAD_HEADER_VALUES.into_iter().enumerate() {
        let base = format!("{}/faults/busy/bad-value-{n}", server.url);
        let refused =
            UsersClient::new(ClientOptions::new(&base).header("X-Custom", bad)).unwrap_err();
        let call = client(&base).count_users().header("X-Custom", bad).send();
        let provided = UsersClient::new(ClientOptions::new(&base).retries(2).header_provider(
            move || async move { vec![("Authorization".to_string(), bad.to_string())] },
        ))
        .expect("client")
        .count_users()
        .send();
        let hooked = UsersClient::new(
            ClientOptions::new(&base).retries(2).hooks(
                Hooks::default()
                    .before_request(move |_| vec![("X-Custom".to_string(), bad.to_string())]),
            ),
        )
        .expect("client")
        .count_users()
        .send();
        let errors = [
            refused,
            call.await.unwrap_err(),
            provided.await.unwrap_err(),
            hooked.await.unwrap_err(),
        ];
        for error in errors {
            assert_eq!(error.kind(), ErrorKind::Validation, "{bad:?}: {error}");
            assert_eq!(error.param(), Some("headers"), "{bad:?}: {error}");
            assert!(!error.message().contains(bad), "{error}");
            assert!(!error.message().contains("Bearer"), "{error}");
            assert!(!error.is_retryable());
        }
        let key = format!("bad-value-{n}");
        assert_eq!(
            server.recorded("busy", &key, "attempts").await,
            0,
            "{bad:?}"
        );
    }
}

#[tokio::test]
async fn a_bad_base_url_is_a_validation_error() {
    let error = UsersClient::new(ClientOptions::new("ftp://example.com")).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Validation);
    assert_eq!(error.param(), Some("base_url"));
}

#[tokio::test]
async fn a_404_is_an_http_error() {
    let server = server();
    let client = client(&format!("{}/faults/envelope-404/native", server.url));
    let error = client.count_users().send().await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Http);
    assert_eq!(error.http_status(), Some(404));
    assert_eq!(error.api_status(), Some(404));
    assert!(!error.is_retryable());
}

/// The error's predicates, as reqwest names them: a 503 has its HTTP
/// status and is retryable (the client's own rule); a refused port is a
/// connect error, retryable, and a body cut after connecting is a network
/// error that is not; a timeout says so; a non-200 envelope has its
/// `api_status` and is not retried; a page size the walk refuses names
/// `page_size`.
#[tokio::test]
async fn errors_say_what_they_are_as_rust_users_expect() {
    let server = server();
    let at = |scenario: &str| {
        let base = format!("{}/faults/{scenario}/native-errors", server.url);
        UsersClient::new(ClientOptions::new(base).retries(0)).expect("client")
    };
    let busy = at("busy").count_users().send().await.unwrap_err();
    assert_eq!(
        (busy.kind(), busy.http_status()),
        (ErrorKind::Http, Some(503))
    );
    assert!(busy.is_retryable() && !busy.is_timeout() && !busy.is_connect());
    assert_eq!(busy.api_status(), Some(503), "its body is an envelope");
    let api = at("status-403").count_users().send().await.unwrap_err();
    assert_eq!(
        (api.kind(), api.api_status(), api.http_status()),
        (ErrorKind::Api, Some(403), Some(200))
    );
    assert!(!api.is_retryable());
    let refused = UsersClient::new(ClientOptions::new(refused_url()).retries(0))
        .expect("client")
        .count_users()
        .send()
        .await
        .unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::Network);
    assert!(refused.is_connect() && refused.is_retryable(), "{refused}");
    let cut = at("truncated").count_users().send().await.unwrap_err();
    assert_eq!(cut.kind(), ErrorKind::Network, "{cut}");
    assert!(!cut.is_connect(), "connected, then the body was cut: {cut}");
    let slow = UsersClient::new(
        ClientOptions::new(format!("{}/faults/slow/native-errors", server.url))
            .timeout(Duration::from_millis(200))
            .retries(0),
    )
    .expect("client")
    .count_users()
    .send()
    .await
    .unwrap_err();
    assert!(
        slow.is_timeout() && slow.is_retryable() && !slow.is_connect(),
        "{slow}"
    );
    let huge = at("ok")
        .list_users()
        .page_size(1 << 60)
        .send::<serde_json::Value>()
        .await
        .unwrap_err();
    assert_eq!(huge.param(), Some("page_size"));
    assert!(huge.message().starts_with("page_size "), "{huge}");
}

#[tokio::test]
async fn a_refused_port_is_a_network_error() {
    let options = ClientOptions::new(refused_url()).retries(0);
    let error = UsersClient::new(options)
        .expect("client")
        .count_users()
        .send()
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Network, "{error}");
}

#[tokio::test]
async fn a_server_that_never_answers_is_a_timeout() {
    let server = server();
    let options = ClientOptions::new(format!("{}/faults/slow/native", server.url))
        .timeout(Duration::from_millis(300))
        .retries(0);
    let started = Instant::now();
    let error = UsersClient::new(options)
        .expect("client")
        .count_users()
        .send()
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
    // The bound is the promise (the timeout ends the call, not the answer
    // /faults/slow gives after 30 s); 10 s leaves a busy machine room.
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// One call to the fault `scenario` with `retries(1)`, which must answer on
/// its retry: the count, and the pauses `beforeRetry` was told.
async fn retried_once(scenario: &str) -> (u64, Vec<Duration>) {
    let server = server();
    let delays = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&delays);
    let options = ClientOptions::new(format!("{}/faults/{scenario}/native", server.url))
        .retries(1)
        .hooks(Hooks::default().before_retry(move |info| seen.lock().unwrap().push(info.delay)));
    let count = UsersClient::new(options)
        .expect("client")
        .count_users()
        .send()
        .await
        .expect("the retry answers");
    let delays = delays.lock().unwrap().clone();
    (count.result.total_users, delays)
}

/// A `Retry-After` HTTP date two seconds ahead (the server's clock, cut to
/// the second) is waited for until then: from the system clock, more than
/// 0 and at most 2 s.
#[tokio::test]
async fn a_429_with_a_retry_after_date_is_waited_for_until_then() {
    let (count, delays) = retried_once("retry-after-date").await;
    assert_eq!(count, 7);
    assert_eq!(delays.len(), 1, "{delays:?}");
    assert!(
        Duration::ZERO < delays[0] && delays[0] <= Duration::from_secs(2),
        "{delays:?}"
    );
}

#[tokio::test]
async fn a_503_with_retry_after_is_waited_for_and_retried() {
    let started = Instant::now();
    let (count, delays) = retried_once("retry-after-seconds").await;
    assert_eq!(count, 7);
    assert_eq!(delays, [Duration::from_secs(1)]);
    assert!(started.elapsed() >= Duration::from_millis(1000));
}

#[tokio::test]
async fn eight_joined_calls_overlap() {
    let server = server();
    let events = Arc::new(Mutex::new(Vec::new()));
    let (sent, answered) = (Arc::clone(&events), Arc::clone(&events));
    let options = ClientOptions::new(format!("{}/faults/slow/native", server.url))
        .params_in(ParamsIn::Query)
        .hooks(
            Hooks::default()
                .before_request(move |_| sent.lock().unwrap().push("sent"))
                .after_response(move |_| answered.lock().unwrap().push("answered")),
        );
    let client = UsersClient::new(options).expect("client");
    let mut params = ListParams::default();
    params.extra.insert("ms".into(), "1000".into());
    let call = || {
        client
            .list_users()
            .params(params.clone())
            .send::<serde_json::Value>()
    };
    let started = Instant::now();
    let outcomes = tokio::join!(
        call(),
        call(),
        call(),
        call(),
        call(),
        call(),
        call(),
        call()
    );
    let elapsed = started.elapsed();
    for outcome in [
        outcomes.0, outcomes.1, outcomes.2, outcomes.3, outcomes.4, outcomes.5, outcomes.6,
        outcomes.7,
    ] {
        assert_eq!(outcome.expect("a slow answer").status, 200);
    }
    // Every request was out before the first answer came back.
    let events = events.lock().unwrap();
    assert_eq!(events.len(), 16);
    assert!(events[..8].iter().all(|e| *e == "sent"), "{events:?}");
    // The order above is the verdict; this bound is the promise in time:
    // 8 calls of 1 s, overlapping, end well before the 8 s they would take
    // one after another (6 s leaves a busy machine room).
    assert!(elapsed < Duration::from_secs(6), "{elapsed:?}");
}

#[tokio::test]
async fn a_server_echoing_the_token_gets_no_piece_back() {
    let server = server();
    let token: String = "Tk+/=".repeat(16) + "zZ";
    assert_eq!(token.len(), 82);
    for scenario in [
        "echo-auth-401",
        "echo-auth-escaped",
        "echo-auth-every-char",
        "echo-auth-percent",
        "echo-auth-count",
        "echo-auth-result",
        "echo-auth-cut",
    ] {
        let options = ClientOptions::new(format!("{}/faults/{scenario}/native", server.url))
            .header("Authorization", format!("Bearer {token}"))
            .retries(0);
        let error = UsersClient::new(options)
            .expect("client")
            .count_users()
            .send()
            .await
            .unwrap_err();
        let shown = format!("{error} {error:?} {}", error.body().unwrap_or_default());
        for start in 0..=token.len() - 12 {
            let piece = &token[start..start + 12];
            assert!(!shown.contains(piece), "{scenario}: {piece:?} in {shown}");
        }
    }
    // The caller's type refusing the echoed token (a list whose result is
    // read as a `Count`): serde's message quotes the value it refused, and
    // only the call's own redaction, after the envelope rules, cuts it.
    let options = ClientOptions::new(format!("{}/faults/echo-auth-count/native", server.url))
        .header("Authorization", format!("Bearer {token}"))
        .retries(0);
    let error = UsersClient::new(options)
        .expect("client")
        .list_users()
        .send::<user_management_client::Count>()
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Decode);
    assert!(error.message().contains("[REDACTED]"), "{error}");
    let shown = format!("{error} {error:?} {error:#?}");
    for start in 0..=token.len() - 12 {
        let piece = &token[start..start + 12];
        assert!(!shown.contains(piece), "decode: {piece:?} in {shown}");
    }
}

/// `send()`'s future owns what it needs (`'static`) and is `Send`: it
/// goes into `tokio::spawn` as it is, outlives the client it came from,
/// and resolves to the server's count.
#[tokio::test]
async fn a_sent_call_goes_into_tokio_spawn_as_it_is() {
    fn send_sync<T: Send + Sync + 'static>(_: &T) {}
    let server = server();
    let client = client(&server.url);
    send_sync(&client);
    let expected = active_count(&server.url).await;
    let task = tokio::spawn(client.count_users().active(Active::True).send());
    let list = tokio::spawn(client.list_users().page(2).page_size(5).send::<UserPage>());
    drop(client);
    let count = task.await.expect("the task ran").expect("count");
    assert_eq!(count.result.total_users, expected);
    let page = list.await.expect("the task ran").expect("list");
    assert_eq!((page.result.page, page.result.users.len()), (2, 5));
}

/// The active users as the server counts them, asked without the client.
async fn active_count(base: &str) -> u64 {
    let text = common::http()
        .post(format!("{base}/api/users/count"))
        .header("content-type", "application/json")
        .body(r#"{"active":"true"}"#)
        .send()
        .await
        .and_then(|response| response.error_for_status())
        .expect("the server counts")
        .text()
        .await
        .expect("a body");
    let body: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    body["result"]["totalUsers"].as_u64().expect("a count")
}

/// A client that records the attempt number of each list request (one
/// entry per request: a page fetched once is a `1`).
fn recording(base: &str) -> (UsersClient, Arc<Mutex<Vec<u32>>>) {
    let attempts = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&attempts);
    let hooks = Hooks::default().before_request(move |info| {
        if info.operation == Operation::List {
            seen.lock().unwrap().push(info.attempt);
        }
    });
    let options = ClientOptions::new(base)
        .timeout(Duration::from_secs(5))
        .hooks(hooks);
    (UsersClient::new(options).expect("client"), attempts)
}

/// `pages()` walks every page once: the users of its pages add up to the
/// count, with one request per page (no retry, nothing fetched after the
/// last page), and distinct users on each.
#[tokio::test]
async fn pages_add_up_to_the_count_with_one_request_per_page() {
    let server = server();
    let expected = active_count(&server.url).await;
    let (client, requests) = recording(&server.url);
    let pages: Vec<_> = client
        .list_users()
        .active(Active::True)
        .page_size(100)
        .pages::<UserPage>()
        .collect()
        .await;
    let pages: Vec<UserPage> = pages
        .into_iter()
        .map(|page| page.expect("a page").result)
        .collect();
    let users: u64 = pages.iter().map(|page| page.users.len() as u64).sum();
    assert_eq!(users, expected);
    assert_eq!(pages.len() as u64, expected.div_ceil(100).max(1));
    let numbers: Vec<u64> = pages.iter().map(|page| page.page).collect();
    assert_eq!(numbers, (1..=pages.len() as u64).collect::<Vec<_>>());
    assert_eq!(*requests.lock().unwrap(), vec![1; pages.len()]);
    let mut ids: Vec<u64> = pages
        .iter()
        .flat_map(|p| p.users.iter().map(|u| u.id))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len() as u64, expected);
}

/// A page is fetched only when the stream is polled for it: after the
/// first page, dropping the stream stops the walk at one request; a walk
/// from page 9 of 100 users a page fetches 9 and 10 and ends there, the
/// 1000 users' total reached.
#[tokio::test]
async fn a_dropped_stream_stops_fetching_and_a_walk_starts_where_asked() {
    let server = server();
    let (client, requests) = recording(&server.url);
    let mut pages = client.list_users().page_size(10).pages::<UserPage>();
    let first = pages.next().await.expect("a page").expect("the first page");
    assert_eq!((first.result.page, first.result.users.len()), (1, 10));
    tokio::time::sleep(Duration::from_millis(50)).await;
    drop(pages);
    assert_eq!(requests.lock().unwrap().len(), 1);
    let from_nine: Vec<u64> = client
        .list_users()
        .page(9)
        .page_size(100)
        .pages::<UserPage>()
        .map(|page| page.expect("a page").result.page)
        .collect()
        .await;
    assert_eq!(from_nine, [9, 10]);
    assert_eq!(requests.lock().unwrap().len(), 3);
}

/// A bad `page_size` is one validation error, under its Rust name, with
/// nothing sent, and the stream ends after it.
#[tokio::test]
async fn pages_with_a_bad_page_size_yield_one_validation_error() {
    let server = server();
    let (client, requests) = recording(&server.url);
    let mut pages = client.list_users().page_size(0).pages::<UserPage>();
    let error = pages.next().await.expect("an item").unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Validation);
    assert_eq!(error.param(), Some("page_size"));
    assert!(pages.next().await.is_none());
    assert!(requests.lock().unwrap().is_empty());
}

/// A result that is not a page ends the walk with a decode error.
#[tokio::test]
async fn pages_of_something_else_are_a_decode_error() {
    let server = server();
    let client = client(&format!("{}/faults/ok/native-pages", server.url));
    let mut pages = client.list_users().pages::<serde_json::Value>();
    let error = pages.next().await.expect("an item").unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Decode, "{error}");
    assert!(error
        .message()
        .contains("pages needs each result to be a page"));
    assert!(pages.next().await.is_none());
}

/// A page the walk can read but whose result does not fit `T` fails as the
/// same list call sent with `send::<T>()` does: one decode, one message.
#[tokio::test]
async fn a_page_that_does_not_fit_t_fails_as_send_does() {
    #[derive(Debug, Deserialize)]
    struct Needs {
        #[allow(dead_code)]
        nowhere_in_a_page: u64,
    }
    let server = server();
    let client = client(&server.url);
    let sent = client.list_users().send::<Needs>().await.unwrap_err();
    let walked = client
        .list_users()
        .pages::<Needs>()
        .next()
        .await
        .expect("an item")
        .unwrap_err();
    assert_eq!(walked.kind(), ErrorKind::Decode, "{walked}");
    assert_eq!(walked.message(), sent.message());
}

#[tokio::test]
async fn hooks_and_a_header_provider_natively() {
    let server = server();
    let events = Arc::new(Mutex::new(Vec::new()));
    let (sent, answered, retried) = (
        Arc::clone(&events),
        Arc::clone(&events),
        Arc::clone(&events),
    );
    let asked = Arc::new(Mutex::new(0));
    let counted = Arc::clone(&asked);
    let base = format!("{}/faults/busy/native-hooks", server.url);
    let url = format!("{base}/api/users/count");
    let options = ClientOptions::new(base)
        .retries(2)
        .header_provider(move || {
            *counted.lock().unwrap() += 1;
            async { vec![("Authorization".to_string(), "Bearer hook-t0ken".to_string())] }
        })
        .hooks(
            Hooks::default()
                .before_request(move |info| {
                    assert_eq!(info.url, url);
                    let auth = info
                        .headers
                        .iter()
                        .find(|(name, _)| name.eq_ignore_ascii_case("authorization"));
                    assert_eq!(auth.map(|(_, value)| value.as_str()), Some("[REDACTED]"));
                    sent.lock()
                        .unwrap()
                        .push(format!("request {}", info.attempt));
                })
                .after_response(move |info| {
                    answered
                        .lock()
                        .unwrap()
                        .push(format!("response {}", info.http_status));
                })
                .before_retry(move |info| {
                    retried
                        .lock()
                        .unwrap()
                        .push(format!("retry {}", info.attempt));
                }),
        );
    let error = UsersClient::new(options)
        .expect("client")
        .count_users()
        .send()
        .await
        .unwrap_err();
    assert_eq!(error.http_status(), Some(503));
    // The provider is asked before every attempt.
    assert_eq!(*asked.lock().unwrap(), 3);
    assert_eq!(
        *events.lock().unwrap(),
        [
            "request 1",
            "response 503",
            "retry 1",
            "request 2",
            "response 503",
            "retry 2",
            "request 3",
            "response 503",
        ]
    );
}

#[tokio::test]
async fn a_lone_after_response_hook_sees_the_answer_and_its_duration() {
    let server = server();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let answered = Arc::clone(&seen);
    let options = ClientOptions::new(format!("{}/faults/slow/native-duration", server.url))
        .params_in(ParamsIn::Query)
        .hooks(Hooks::default().after_response(move |info| {
            let json = serde_json::to_value(info).expect("serializes");
            let seen = (info.http_status, info.request.attempt, info.duration, json);
            answered.lock().unwrap().push(seen);
        }));
    let client = UsersClient::new(options).expect("client");
    let mut params = ListParams::default();
    params.extra.insert("ms".into(), "1100".into());
    let started = Instant::now();
    let page = client
        .list_users()
        .params(params.clone())
        .send::<serde_json::Value>()
        .await
        .expect("a slow answer");
    let call = started.elapsed();
    assert_eq!(page.status, 200);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1, "{seen:?}");
    let (http_status, attempt, duration, ref json) = seen[0];
    // What a JS hook gets: the status, and the duration in whole milliseconds.
    let whole_ms = duration.as_millis() as f64;
    let headers: serde_json::Map<String, serde_json::Value> = info_headers(json);
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(
        *json,
        serde_json::json!({ "httpStatus": 200, "durationMs": whole_ms, "responseHeaders": headers })
    );
    assert_eq!((http_status, attempt), (200, 1));
    // The server held its answer 1,100 ms (over a second, so that whole
    // seconds count too), and the attempt lies within the call: both
    // bounds come from the run itself, none from a budget.
    assert!(
        (Duration::from_millis(1_100)..=call).contains(&duration),
        "{duration:?} of a {call:?} call"
    );
}

#[tokio::test]
async fn a_call_s_own_headers_are_sent_without_a_header_provider() {
    let server = server();
    let client = client(&format!("{}/faults/echo/native-call-headers", server.url));
    let params = ListParams::default();
    let call = CallOptions::default().header("X-Request-Id", "call-42");
    let echoed = client
        .list_users()
        .params(params.clone())
        .options(call.clone())
        .send::<serde_json::Value>()
        .await
        .expect("the echo");
    assert_eq!(echoed.result["headers"]["x-request-id"], "call-42");
    // The next call, without headers of its own, sends none of them.
    let echoed = client
        .list_users()
        .params(params.clone())
        .send::<serde_json::Value>()
        .await
        .expect("the echo");
    assert_eq!(echoed.result["headers"].get("x-request-id"), None);
}

#[test]
fn hooks_any_says_whether_one_is_set() {
    assert!(!Hooks::default().any());
    assert!(Hooks::default().before_request(|_| {}).any());
    assert!(Hooks::default().after_response(|_| {}).any());
    assert!(Hooks::default().before_retry(|_| {}).any());
}

#[test]
fn hooks_debug_names_the_hooks_set() {
    let hooks = Hooks::default().before_retry(|_| {});
    assert_eq!(
        format!("{hooks:?}"),
        "Hooks { before_request: false, after_response: false, before_retry: true }"
    );
}

/// A header provider's `Err` fails the call with that error, before any
/// request (the base URL is a port nothing listens on: a request would be
/// a `network` error).
#[tokio::test]
async fn a_header_provider_s_error_fails_the_call_with_it() {
    let options = ClientOptions::new(refused_url()).header_provider(|| async {
        Err::<HeaderList, Error>(Error::new(ErrorKind::Validation, "no token yet"))
    });
    let error = UsersClient::new(options)
        .expect("client")
        .count_users()
        .send()
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Validation);
    assert_eq!(error.message(), "no token yet");
}

/// The `responseHeaders` record of a serialized `ResponseInfo`.
fn info_headers(json: &serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    json["responseHeaders"]
        .as_object()
        .expect("responseHeaders is a record")
        .clone()
}

/// `CallOptions::retries` overrides the client's for one call: against
/// 503s with `Retry-After: 0` (`/faults/busy`), on a client whose own
/// `retries` is 2, `retries(0)` makes exactly 1 request, `retries(4)`
/// exactly 5, and a call without it 3.
#[tokio::test]
async fn retries_per_call_override_the_clients() {
    let server = server();
    for (key, call, requests) in [
        ("call-0", CallOptions::default().retries(0), 1),
        ("call-4", CallOptions::default().retries(4), 5),
        ("client", CallOptions::default(), 3),
    ] {
        let base = format!("{}/faults/busy/{key}", server.url);
        let client = UsersClient::new(ClientOptions::new(base).retries(2)).expect("client");
        let error = client
            .count_users()
            .options(call.clone())
            .send()
            .await
            .unwrap_err();
        assert_eq!(error.http_status(), Some(503), "{error}");
        assert_eq!(
            server.recorded("busy", key, "attempts").await,
            requests,
            "{key}"
        );
    }
}

/// In `query` mode the URL carries the params: no message, `Display` or
/// `Debug` of an error quotes the query string (a refused connection, a
/// timeout, a 503 and a body that is not JSON), and where a message quotes
/// the URL, its path is there.
#[tokio::test]
async fn no_param_value_in_what_a_call_reports() {
    let server = server();
    let secret = "ann-secret-name";
    let refused = refused_url();
    for (base, kind, quotes_url) in [
        (refused.clone(), ErrorKind::Network, true),
        (
            format!("{}/faults/held/query-mode", server.url),
            ErrorKind::Timeout,
            true,
        ),
        (
            format!("{}/faults/busy/query-mode", server.url),
            ErrorKind::Http,
            false,
        ),
        (
            format!("{}/faults/not-json/query-mode", server.url),
            ErrorKind::Decode,
            false,
        ),
    ] {
        let options = ClientOptions::new(&base)
            .params_in(ParamsIn::Query)
            .timeout(Duration::from_millis(200))
            .retries(0);
        let error = UsersClient::new(options)
            .expect("client")
            .count_users()
            .query(secret)
            .send()
            .await
            .unwrap_err();
        assert_eq!(error.kind(), kind, "{error}");
        let reported = [
            error.to_string(),
            format!("{error:?}"),
            format!("{:#}", error),
            std::error::Error::source(&error)
                .map(|s| format!("{s} {s:?}"))
                .unwrap_or_default(),
        ];
        for text in reported {
            assert!(!text.contains(secret), "{text}");
            assert!(
                !text.contains("?query") && !text.contains("query="),
                "{text}"
            );
        }
        if quotes_url {
            let path = format!("POST {base}/api/users/count");
            assert!(error.message().contains(&path), "{error}");
        }
    }
}

/// A typed list whose result does not fit the caller's type: `decode`,
/// with the HTTP status, the envelope's status and the body, as in JS.
#[tokio::test]
async fn a_typed_decode_failure_carries_the_statuses_and_the_body() {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Strict {
        not_in_a_page: String,
    }
    let server = server();
    let error = client(&server.url)
        .list_users()
        .page_size(2)
        .send::<Strict>()
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Decode, "{error}");
    assert!(error.message().contains("not_in_a_page"), "{error}");
    assert_eq!(error.http_status(), Some(200));
    assert_eq!(error.api_status(), Some(200));
    let body: serde_json::Value =
        serde_json::from_str(error.body().expect("the body")).expect("JSON");
    assert_eq!(body["status"], 200);
    assert_eq!(body["result"]["pageSize"], 2);
    assert_eq!(body["result"]["users"].as_array().map(Vec::len), Some(2));
}

/// A call's own header provider (`CallOptions::header_provider`) is asked
/// for that call, and what it gives goes out over the client's headers.
#[tokio::test]
async fn a_calls_header_provider_gives_that_call_its_headers() {
    let server = server();
    let base = format!("{}/faults/echo/call-provider", server.url);
    let client = UsersClient::new(ClientOptions::new(&base).header("X-Tenant", "from-client"))
        .expect("client");
    let options = CallOptions::default()
        .header_provider(|| async { vec![("X-Tenant".to_string(), "from-call".to_string())] });
    let echo = client
        .list_users()
        .options(options)
        .send::<serde_json::Value>()
        .await
        .expect("the echo");
    assert_eq!(
        echo.result["headers"]["x-tenant"], "from-call",
        "{}",
        echo.result
    );
}
