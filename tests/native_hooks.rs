//! Hooks that change an attempt, natively on tokio against the reference
//! server's fault routes (its binary from this workspace, built first):
//! a token refreshed by `after_response` and the attempt made again,
//! headers `before_request` gives each attempt (returned at once or by a
//! future), a hook's retry counted apart from the retries, the response's
//! headers as hooks see them (credentials cut out), and headers from a
//! hook checked as any header.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use user_management_client::{
    ClientOptions, ErrorKind, HeaderList, Hooks, ResponseAction, UsersClient,
};

mod common;

use common::server;

fn pair(name: &str, value: &str) -> (String, String) {
    (name.to_string(), value.to_string())
}

#[tokio::test]
async fn after_response_refreshes_the_token_and_the_attempt_is_made_again() {
    let server = server();
    let token = Arc::new(Mutex::new("stale".to_string()));
    let asked = Arc::new(Mutex::new(0));
    let (read, refresh, counted) = (Arc::clone(&token), Arc::clone(&token), Arc::clone(&asked));
    let sent = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&sent);
    let options = ClientOptions::new(format!(
        "{}/faults/token-expired/native-refresh",
        server.url
    ))
    .retries(2)
    .header_provider(move || {
        *counted.lock().unwrap() += 1;
        let value = format!("Bearer {}", read.lock().unwrap());
        async move { vec![("Authorization".to_string(), value)] }
    })
    .hooks(
        Hooks::default()
            .before_request(move |info| {
                let auth = info.headers.iter().find(|(n, _)| n == "Authorization");
                seen.lock().unwrap().push(auth.map(|(_, v)| v.clone()));
            })
            .after_response(move |info| {
                let refresh = Arc::clone(&refresh);
                let refused = info.http_status == 401;
                async move {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    if refused {
                        *refresh.lock().unwrap() = "fresh".to_string();
                        ResponseAction::Retry
                    } else {
                        ResponseAction::Keep
                    }
                }
            }),
    );
    let count = UsersClient::new(options)
        .expect("client")
        .count_users()
        .send()
        .await
        .expect("the second attempt, with the fresh token, is answered");
    // Only `Bearer fresh` is answered 200 by this route.
    assert_eq!((count.status, count.result.total_users), (200, 7));
    let attempts = server
        .recorded("token-expired", "native-refresh", "attempts")
        .await;
    assert_eq!(attempts, 2);
    // The provider is asked before every attempt.
    assert_eq!(*asked.lock().unwrap(), 2);
    // The hooks saw the credential redacted both times.
    let redacted = Some("[REDACTED]".to_string());
    assert_eq!(*sent.lock().unwrap(), [redacted.clone(), redacted]);
}

#[tokio::test]
async fn a_hooks_retry_is_counted_apart_from_the_retries() {
    let server = server();
    let options = ClientOptions::new(format!("{}/faults/token-expired/native-spent", server.url))
        .retries(1)
        .header("Authorization", "Bearer stale")
        .hooks(Hooks::default().after_response(|_| ResponseAction::Retry));
    let error = UsersClient::new(options)
        .expect("client")
        .count_users()
        .send()
        .await
        .expect_err("every attempt is refused");
    assert_eq!(
        (error.kind(), error.http_status()),
        (ErrorKind::Http, Some(401))
    );
    let attempts = server
        .recorded("token-expired", "native-spent", "attempts")
        .await;
    assert_eq!(attempts, 2);
}

#[tokio::test]
async fn before_request_gives_each_attempt_its_headers() {
    let server = server();
    for key in ["native-ids-now", "native-ids-later"] {
        let retried = Arc::new(Mutex::new(Vec::new()));
        let answered = Arc::new(Mutex::new(Vec::new()));
        let (retries, responses) = (Arc::clone(&retried), Arc::clone(&answered));
        let mut hooks = Hooks::default()
            .after_response(move |info| {
                let id = info
                    .request
                    .headers
                    .iter()
                    .find(|(n, _)| n == "x-request-id");
                responses.lock().unwrap().push(id.map(|(_, v)| v.clone()));
            })
            .before_retry(move |info| {
                let body: serde_json::Value =
                    serde_json::from_str(info.error.body().unwrap_or("null")).unwrap();
                retries
                    .lock()
                    .unwrap()
                    .push(body["result"]["requestId"].clone());
            });
        hooks = if key.ends_with("now") {
            hooks.before_request(|info| vec![pair("x-request-id", &format!("r-{}", info.attempt))])
        } else {
            hooks.before_request(|info| {
                let id = format!("r-{}", info.attempt);
                async move {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    Some(vec![pair("x-request-id", &id)])
                }
            })
        };
        let options = ClientOptions::new(format!("{}/faults/request-ids/{key}", server.url))
            .retries(2)
            .hooks(hooks);
        let page = UsersClient::new(options)
            .expect("client")
            .list_users()
            .send::<serde_json::Value>()
            .await
            .expect("the third attempt is answered");
        assert_eq!(page.result["requestId"], "r-3", "{key}");
        assert_eq!(*retried.lock().unwrap(), ["r-1", "r-2"], "{key}");
        let sent = answered.lock().unwrap().clone();
        let shown: Vec<Option<String>> = ["r-1", "r-2", "r-3"].map(|id| Some(id.into())).into();
        assert_eq!(sent, shown, "{key}: afterResponse sees the headers as sent");
    }
}

#[tokio::test]
async fn after_response_sees_the_responses_headers_with_credentials_cut_out() {
    let server = server();
    // Longer than 64 characters, with + / and =.
    let token = "t0k+en/with=signs-and-more-than-sixty-four-characters-0123456789-abcdefgh";
    let seen: Arc<Mutex<Vec<HeaderList>>> = Arc::default();
    let kept = Arc::clone(&seen);
    let options = ClientOptions::new(format!("{}/faults/response-headers/native", server.url))
        .header("Authorization", format!("Bearer {token}"))
        .hooks(Hooks::default().after_response(move |info| {
            kept.lock().unwrap().push(info.response_headers.clone());
        }));
    let count = UsersClient::new(options)
        .expect("client")
        .count_users()
        .send()
        .await
        .expect("count");
    assert_eq!(count.result.total_users, 7);
    let seen = seen.lock().unwrap();
    let headers = &seen[0];
    let value = |name: &str| {
        let found = headers.iter().find(|(n, _)| n == name);
        found.map(|(_, v)| v.as_str())
    };
    assert_eq!(value("x-ratelimit-remaining"), Some("41"));
    assert_eq!(value("content-type"), Some("application/json"));
    assert_eq!(value("set-cookie"), Some("[REDACTED]"));
    assert_eq!(value("x-echo"), Some("[REDACTED]"));
    let everything = format!("{headers:?}");
    for piece in [&token[..8], "s3ss10n", "sixty-four"] {
        assert!(!everything.contains(piece), "{piece} in {everything}");
    }
    assert!(headers.iter().all(|(n, _)| *n == n.to_ascii_lowercase()));
}

#[tokio::test]
async fn headers_from_before_request_are_checked_and_a_bad_one_sends_nothing() {
    let server = server();
    for (key, given) in [
        ("native-bad-name", pair("bad name", "v")),
        ("native-bad-value", pair("x-a", "line\nbreak")),
    ] {
        let options = ClientOptions::new(format!("{}/faults/ok/{key}", server.url))
            .hooks(Hooks::default().before_request(move |_| vec![given.clone()]));
        let error = UsersClient::new(options)
            .expect("client")
            .count_users()
            .send()
            .await
            .expect_err("a bad header");
        assert_eq!(error.kind(), ErrorKind::Validation, "{key}");
        assert_eq!(error.param(), Some("headers"), "{key}");
        assert_eq!(server.recorded("ok", key, "attempts").await, 0, "{key}");
    }
}

#[tokio::test]
async fn an_answer_over_the_body_limit_is_never_made_again_even_when_a_hook_asks() {
    let server = server();
    let options = ClientOptions::new(format!("{}/faults/endless/native-limit", server.url))
        .max_body_bytes(1024)
        .retries(3)
        .hooks(Hooks::default().after_response(|_| ResponseAction::Retry));
    let error = UsersClient::new(options)
        .expect("client")
        .count_users()
        .send()
        .await
        .expect_err("over the limit");
    assert_eq!(error.kind(), ErrorKind::Decode, "{error}");
    assert_eq!(
        server.recorded("endless", "native-limit", "attempts").await,
        1
    );
}
