//! The retry policy, natively on tokio against the reference server's
//! fault routes: the statuses it retries and how many times, a
//! `Retry-After` cut to its longest, a call's policy over its client's
//! field by field, `before_retry` stopping the retry, and a hook's
//! retries counted apart from the policy's (at most `max(1, limit)`), so
//! that a token refresh works with `retries(0)`.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use user_management_client::{
    ClientOptions, ErrorKind, Hooks, ResponseAction, RetryPolicy, UsersClient,
};

mod common;

use common::{server, Server};

/// A client of the fault `scenario` under `key`.
fn client(server: &Server, scenario: &str, key: &str, options: ClientOptions) -> UsersClient {
    let mut options = options;
    options.base_url = format!("{}/faults/{scenario}/{key}", server.url);
    UsersClient::new(options).expect("client")
}

fn options() -> ClientOptions {
    ClientOptions::new("http://unused.test")
}

#[tokio::test]
async fn a_policys_status_codes_and_limit_decide_the_attempts() {
    let server = server();
    let policy = RetryPolicy::default().limit(3).status_codes([503]);
    let busy = client(
        &server,
        "busy",
        "native-policy",
        options().retry_policy(policy.clone()),
    );
    let error = busy.count_users().send().await.unwrap_err();
    assert_eq!(error.http_status(), Some(503), "{error}");
    assert_eq!(
        server.recorded("busy", "native-policy", "attempts").await,
        4
    );
    let failing = client(
        &server,
        "html-500",
        "native-policy",
        options().retry_policy(policy),
    );
    let error = failing.count_users().send().await.unwrap_err();
    assert_eq!(error.http_status(), Some(500), "{error}");
    assert_eq!(
        server
            .recorded("html-500", "native-policy", "attempts")
            .await,
        1
    );
}

#[tokio::test]
async fn a_calls_policy_overrides_its_clients_field_by_field() {
    let server = server();
    let client_policy = RetryPolicy::default().limit(3).status_codes([500]);
    let options = || options().retry_policy(client_policy.clone());
    // The call's status codes, the client's limit.
    let busy = client(&server, "busy", "native-over", options());
    let call = RetryPolicy::default().status_codes([503]);
    let error = busy
        .count_users()
        .retry_policy(call)
        .send()
        .await
        .unwrap_err();
    assert_eq!(error.http_status(), Some(503), "{error}");
    assert_eq!(server.recorded("busy", "native-over", "attempts").await, 4);
    // A call's number sets the limit alone: the client's statuses stay.
    let failing = client(&server, "html-500", "native-over", options());
    let error = failing.count_users().retries(1).send().await.unwrap_err();
    assert_eq!(error.http_status(), Some(500), "{error}");
    assert_eq!(
        server.recorded("html-500", "native-over", "attempts").await,
        2
    );
}

#[tokio::test]
async fn a_retry_after_longer_than_the_policys_longest_is_cut_to_it() {
    let server = server();
    let delays = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&delays);
    let hooks = Hooks::default().before_retry(move |info| seen.lock().unwrap().push(info.delay));
    let policy = RetryPolicy::default().max_retry_after(Duration::from_secs(1));
    let options = options().retry_policy(policy).hooks(hooks);
    let count = client(&server, "retry-after-long", "native", options)
        .count_users()
        .send()
        .await
        .expect("the retry is answered");
    assert_eq!(count.result.total_users, 7);
    // The server asked for 5 s.
    assert_eq!(*delays.lock().unwrap(), [Duration::from_secs(1)]);
}

#[tokio::test]
async fn before_retry_returning_false_stops_the_retries() {
    let server = server();
    let asked = Arc::new(Mutex::new(0));
    let counted = Arc::clone(&asked);
    let hooks = Hooks::default().before_retry(move |_| {
        *counted.lock().unwrap() += 1;
        false
    });
    let error = client(&server, "busy", "native-stop", options().hooks(hooks))
        .count_users()
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        (error.kind(), error.http_status()),
        (ErrorKind::Http, Some(503))
    );
    assert_eq!(server.recorded("busy", "native-stop", "attempts").await, 1);
    assert_eq!(*asked.lock().unwrap(), 1);
    // A future of `false` stops them too.
    let hooks = Hooks::default().before_retry(|_| async { false });
    let error = client(&server, "busy", "native-stop-later", options().hooks(hooks))
        .count_users()
        .send()
        .await
        .unwrap_err();
    assert_eq!(error.http_status(), Some(503));
    assert_eq!(
        server
            .recorded("busy", "native-stop-later", "attempts")
            .await,
        1
    );
}

#[tokio::test]
async fn a_token_refresh_works_with_no_retries() {
    let server = server();
    let token = Arc::new(Mutex::new("stale".to_string()));
    let (read, refresh) = (Arc::clone(&token), Arc::clone(&token));
    let hooks = Hooks::default().after_response(move |info| {
        if info.http_status != 401 {
            return ResponseAction::Keep;
        }
        *refresh.lock().unwrap() = "fresh".to_string();
        ResponseAction::Retry
    });
    let options = options()
        .retries(0)
        .header_provider(move || {
            let value = format!("Bearer {}", read.lock().unwrap());
            async move { vec![("Authorization".to_string(), value)] }
        })
        .hooks(hooks);
    let count = client(&server, "token-expired", "native-no-retries", options)
        .count_users()
        .send()
        .await
        .expect("the refreshed attempt is answered");
    assert_eq!(count.result.total_users, 7);
    let attempts = server.recorded("token-expired", "native-no-retries", "attempts");
    assert_eq!(attempts.await, 2);
}

#[tokio::test]
async fn a_hooks_retries_are_counted_apart_at_most_max_1_limit() {
    let server = server();
    for limit in [0, 1, 2] {
        let key = format!("native-apart-{limit}");
        let options = options()
            .retries(limit)
            .header("Authorization", "Bearer stale")
            .hooks(Hooks::default().after_response(|_| ResponseAction::Retry));
        let error = client(&server, "token-expired", &key, options)
            .count_users()
            .send()
            .await
            .expect_err("every attempt is refused");
        assert_eq!(
            (error.kind(), error.http_status()),
            (ErrorKind::Http, Some(401))
        );
        let attempts = server.recorded("token-expired", &key, "attempts").await;
        assert_eq!(attempts, u64::from(limit.max(1)) + 1, "limit {limit}");
    }
}

#[test]
fn a_status_code_out_of_range_is_refused_when_the_client_is_made_and_at_a_call() {
    let policy = RetryPolicy::default().status_codes([503, 99]);
    let error = UsersClient::new(options().retry_policy(policy.clone())).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Validation);
    assert_eq!(error.param(), Some("retry_policy"));
    assert_eq!(
        error.to_string(),
        "retry_policy.status_codes must be an array of whole numbers from 100 to 599; got 99"
    );
    let client = UsersClient::new(options()).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let error = runtime
        .block_on(client.count_users().retry_policy(policy).send())
        .unwrap_err();
    assert_eq!(error.param(), Some("retry_policy"));
}
