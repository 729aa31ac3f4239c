//! An attempt's timeout is one deadline, from its first header provider
//! to its last `after_response`, natively on tokio: a provider or a hook
//! still pending when it runs out ends the attempt as `Timeout`, retried by
//! the rule like any timeout; a provider and an answer that each fit but
//! together do not time out too; `before_retry` has the timeout of its
//! own, past which the call ends with the error it was to retry. Where
//! nothing is sent, on tokio's paused clock (no wall-clock time passes);
//! against the reference server's fault routes otherwise.
#![cfg(not(target_arch = "wasm32"))]

use std::future::pending;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use user_management_client::{
    ClientOptions, ErrorKind, HeaderList, Hooks, ListParams, ParamsIn, UsersClient,
};

mod common;

use common::server;

const TIMEOUT: Duration = Duration::from_millis(200);

/// What `call` came to, where it ends at all: a call that waits forever
/// (a build without the deadline) fails here instead of holding the suite
/// (on the paused clock, at once).
async fn ended<T>(call: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(60), call)
        .await
        .expect("the call never ended: no deadline bounded the wait")
}

/// A counter shared with a closure, and the closure's own handle on it.
fn counter() -> (Arc<AtomicU32>, Arc<AtomicU32>) {
    let count = Arc::new(AtomicU32::new(0));
    (Arc::clone(&count), count)
}

#[tokio::test(start_paused = true)]
async fn a_provider_that_never_settles_times_out_each_attempt() {
    for retries in [0, 1] {
        let (calls, counted) = counter();
        let options = ClientOptions::new("http://127.0.0.1:9")
            .timeout(TIMEOUT)
            .retries(retries)
            .header_provider(move || {
                counted.fetch_add(1, Ordering::SeqCst);
                pending::<HeaderList>()
            });
        let client = UsersClient::new(options).unwrap();
        let error = ended(client.count_users().send()).await.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
        assert_eq!(
            calls.load(Ordering::SeqCst),
            retries + 1,
            "one ask per attempt"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_before_request_that_never_settles_times_out() {
    let (calls, counted) = counter();
    let hooks = Hooks::default().before_request(move |_| {
        counted.fetch_add(1, Ordering::SeqCst);
        async { pending::<HeaderList>().await }
    });
    let options = ClientOptions::new("http://127.0.0.1:9")
        .timeout(TIMEOUT)
        .retries(0)
        .hooks(hooks);
    let client = UsersClient::new(options).unwrap();
    let error = ended(client.count_users().send()).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
    assert!(error.to_string().contains("(200 ms)"), "{error}");
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn an_after_response_that_never_settles_times_out() {
    let server = server();
    let (calls, counted) = counter();
    let hooks = Hooks::default().after_response(move |_| {
        counted.fetch_add(1, Ordering::SeqCst);
        async { pending::<user_management_client::ResponseAction>().await }
    });
    let options = ClientOptions::new(&server.url)
        .timeout(TIMEOUT)
        .retries(0)
        .hooks(hooks);
    let client = UsersClient::new(options).unwrap();
    let error = ended(client.count_users().send()).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
    assert_eq!(calls.load(Ordering::SeqCst), 1, "the answer arrived");
}

#[tokio::test]
async fn a_provider_and_an_answer_that_each_fit_share_one_deadline() {
    let server = server();
    // 150 ms for the headers, then an answer after 100 ms: each within
    // 200 ms, both together not.
    let options = ClientOptions::new(format!("{}/faults/slow/native-deadline", server.url))
        .params_in(ParamsIn::Query)
        .timeout(TIMEOUT)
        .retries(0)
        .header_provider(|| async {
            tokio::time::sleep(Duration::from_millis(150)).await;
            HeaderList::new()
        });
    let client = UsersClient::new(options).unwrap();
    let mut params = ListParams::default();
    params.extra.insert("ms".into(), "100".into());
    let error = ended(
        client
            .list_users()
            .params(params)
            .send::<serde_json::Value>(),
    )
    .await
    .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
}

#[tokio::test]
async fn a_before_retry_that_never_settles_ends_the_call_with_the_503() {
    let server = server();
    let (calls, counted) = counter();
    let hooks = Hooks::default().before_retry(move |_| {
        counted.fetch_add(1, Ordering::SeqCst);
        async { pending::<()>().await }
    });
    let options = ClientOptions::new(format!("{}/faults/busy/native-deadline", server.url))
        .timeout(TIMEOUT)
        .retries(2)
        .hooks(hooks);
    let client = UsersClient::new(options).unwrap();
    let error = ended(client.count_users().send()).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Http, "{error}");
    assert_eq!(error.http_status(), Some(503));
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}
