//! The native transport's limits and the runtime it needs, against the
//! reference server: the body limit (an endless body, a `Content-Length`
//! over it), a cancelled call's request gone (the server's own record), a
//! tokio runtime without a driver, one client on two runtimes in turn, and
//! errors a Rust caller can read (`source()` a `reqwest::Error`, messages
//! naming the Rust options).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::time::Duration;

use futures_util::StreamExt;

use common::{answer_42, in_own_process, keep_alive_server, refused_url, server};
use user_management_client::{ClientOptions, CountParams, ErrorKind, Hooks, ParamsIn, UsersClient};

async fn count(client: &UsersClient) -> Result<u64, user_management_client::Error> {
    let envelope = client.count_users().send().await?;
    Ok(envelope.result.total_users)
}

#[tokio::test]
async fn an_endless_body_ends_at_the_default_limit_and_the_client_goes_on() {
    let server = server();
    let options = ClientOptions::new(format!("{}/faults/endless/native", server.url));
    let endless = UsersClient::new(options).expect("client");
    let error = count(&endless).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Decode, "{error}");
    assert_eq!(error.http_status(), Some(200));
    assert_eq!(error.body(), None);
    assert!(
        error
            .message()
            .contains("larger than 67108864 bytes, the max_body_bytes option"),
        "{error}"
    );
    // Never retried: one request.
    assert_eq!(server.recorded("endless", "native", "attempts").await, 1);
    // The next call of the same process answers.
    let ok = UsersClient::new(ClientOptions::new(&server.url)).expect("client");
    assert_eq!(count(&ok).await.expect("count"), 1000);
}

#[tokio::test]
async fn a_body_limit_of_its_own_and_zero_for_none() {
    let server = server();
    let small = |scenario: &str, limit: u64| {
        let base = format!("{}/faults/{scenario}/native-limit", server.url);
        UsersClient::new(ClientOptions::new(base).max_body_bytes(limit).retries(0)).expect("client")
    };
    // `endless` has no Content-Length: cut while reading.
    let error = count(&small("endless", 100_000)).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Decode);
    assert!(
        error.message().contains("larger than 100000 bytes"),
        "{error}"
    );
    // `big` says 10 MiB in its Content-Length: refused before reading.
    let error = count(&small("big", 1_000_000)).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Decode);
    assert!(
        error.message().contains("larger than 1000000 bytes"),
        "{error}"
    );
    // A limit the body fits: the usual verdict on it (not JSON).
    let error = count(&small("big", 10 * 1024 * 1024)).await.unwrap_err();
    assert!(!error.message().contains("larger than"), "{error}");
    // A body exactly at the limit is read.
    let ok = r#"{"status":200,"result":{"totalUsers":7}}"#.len() as u64;
    assert_eq!(count(&small("ok", ok)).await.expect("at the limit"), 7);
    let error = count(&small("ok", ok - 1)).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Decode);
    // 0: no limit.
    let error = count(&small("big", 0)).await.unwrap_err();
    assert!(!error.message().contains("larger than"), "{error}");
}

#[tokio::test]
async fn a_dropped_call_closes_its_connection_before_the_answer() {
    let server = server();
    // No timeout: only the drop can end the request before the 30 s answer.
    let options = ClientOptions::new(format!("{}/faults/held/native-drop", server.url))
        .timeout(Duration::ZERO)
        .retries(0);
    let client = UsersClient::new(options).expect("client");
    let params = CountParams::default();
    // Boxed, so that `drop` drops the call itself.
    let mut call = Box::pin(client.count_users().params(params.clone()).send());
    // Poll the call until the server has its request, then drop it.
    while server.recorded("held", "native-drop", "attempts").await == 0 {
        tokio::select! {
            _ = &mut call => panic!("the held call answered"),
            _ = tokio::time::sleep(Duration::from_millis(20)) => {}
        }
    }
    drop(call);
    assert_eq!(closed_connections(&server, "native-drop").await, 1);
}

/// The server's own record of `held` requests under `key` whose connection
/// closed. Asked up to 250 times, 20 ms apart: a request still open answers
/// only after 30 s, as "answered", never as "closed".
async fn closed_connections(server: &common::Server, key: &str) -> u64 {
    let mut closed = 0;
    for _ in 0..250 {
        closed = server.recorded("held", key, "closed").await;
        if closed > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    closed
}

/// Dropping a stream of pages while its page is in flight closes that
/// request's connection, as dropping a call does.
#[tokio::test]
async fn a_dropped_stream_of_pages_closes_the_request_in_flight() {
    let server = server();
    let options = ClientOptions::new(format!("{}/faults/held/native-pages-drop", server.url))
        .timeout(Duration::ZERO)
        .retries(0);
    let client = UsersClient::new(options).expect("client");
    let mut pages = client
        .list_users()
        .page_size(10)
        .pages::<serde_json::Value>();
    while server
        .recorded("held", "native-pages-drop", "attempts")
        .await
        == 0
    {
        tokio::select! {
            _ = pages.next() => panic!("the held page answered"),
            _ = tokio::time::sleep(Duration::from_millis(20)) => {}
        }
    }
    drop(pages);
    assert_eq!(closed_connections(&server, "native-pages-drop").await, 1);
}

#[test]
fn a_runtime_without_timers_or_io_gets_an_error_that_says_what_to_enable() {
    let server = server();
    for (runtime, enable) in [
        (
            tokio::runtime::Builder::new_current_thread()
                .enable_io()
                .build()
                .expect("runtime"),
            "enable_time",
        ),
        (
            tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .expect("runtime"),
            "enable_io",
        ),
    ] {
        let client = UsersClient::new(ClientOptions::new(&server.url)).expect("client");
        let error = runtime.block_on(count(&client)).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Validation, "{error}");
        assert_eq!(error.param(), Some("runtime"), "{error}");
        assert!(error.message().contains(enable), "{error}");
    }
    // Outside any runtime: the same kind, saying to use one.
    let client = UsersClient::new(ClientOptions::new(&server.url)).expect("client");
    let error = futures_lite_block_on(count(&client)).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Validation);
    assert_eq!(error.param(), Some("runtime"));
    assert!(error.message().contains("tokio runtime"), "{error}");
}

/// Polls a future to its end on this thread, outside any tokio runtime.
fn futures_lite_block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::task::{Context, Poll, Wake, Waker};
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: std::sync::Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(std::sync::Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        std::thread::park();
    }
}

#[test]
fn one_client_on_two_runtimes_in_turn() {
    // A server that keeps its connections open: the client's pool holds
    // one from the first runtime when the second asks.
    let server = keep_alive_server();
    let client = UsersClient::new(ClientOptions::new(&server.url)).expect("client");
    for _ in 0..2 {
        let runtime = tokio::runtime::Runtime::new().expect("runtime");
        assert_eq!(runtime.block_on(count(&client)).expect("count"), 1000);
        drop(runtime);
    }
}

#[tokio::test]
async fn a_refused_connection_s_source_is_the_reqwest_error() {
    let options = ClientOptions::new(refused_url()).retries(0);
    let client = UsersClient::new(options).expect("client");
    let error = count(&client).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Network);
    let source = std::error::Error::source(&error).expect("a source");
    let reqwest = source
        .downcast_ref::<reqwest::Error>()
        .expect("the reqwest::Error");
    assert!(reqwest.is_connect(), "{reqwest:?}");
    // Display is the client's line alone: the reasons are the source's,
    // written once by a reporter that walks the chain (C-GOOD-ERR).
    let display = error.to_string();
    assert!(
        display.starts_with("the request failed for POST "),
        "{display}"
    );
    assert!(!display.contains(&reqwest.to_string()), "{display}");
    assert!(!display.contains("refused"), "{display}");
    assert!(!display.contains("error sending request"), "{display}");
}

#[tokio::test]
async fn a_timeout_s_message_names_the_rust_option() {
    let server = server();
    let options = ClientOptions::new(format!("{}/faults/held/native-timeout", server.url))
        .timeout(Duration::from_millis(100))
        .retries(0);
    let error = count(&UsersClient::new(options).expect("client"))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Timeout);
    assert!(
        error.message().contains("within timeout (100 ms)"),
        "{error}"
    );
    assert!(!error.message().contains("timeoutMs"), "{error}");
}

#[tokio::test]
async fn the_callers_http_client_is_the_one_used() {
    let server = server();
    // A client whose default headers the server echoes back.
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert("x-from-http-client", "yes".parse().expect("a value"));
    let http = common::http_builder(tokio_rustls::rustls::RootCertStore::empty())
        .default_headers(headers)
        .build()
        .expect("a reqwest client");
    let options =
        ClientOptions::new(format!("{}/faults/echo/native-http", server.url)).http_client(http);
    let client = UsersClient::new(options).expect("client");
    let envelope: user_management_client::Envelope<serde_json::Value> = client
        .list_users()
        .params(Default::default())
        .send()
        .await
        .expect("echo");
    assert_eq!(envelope.result["headers"]["x-from-http-client"], "yes");
}

/// One call to an endless body in a process of its own, which then prints
/// its peak resident memory (`VmHWM`). Run by
/// `one_endless_call_peaks_under_200_mb`; on its own it does nothing.
#[test]
#[ignore = "run by one_endless_call_peaks_under_200_mb, in a process of its own"]
fn one_endless_call_in_this_process() {
    let Ok(base) = std::env::var("ENDLESS_URL") else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let client = UsersClient::new(ClientOptions::new(base)).expect("client");
    let error = runtime.block_on(count(&client)).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Decode, "{error}");
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let peak = status
        .lines()
        .find(|line| line.starts_with("VmHWM:"))
        .expect("VmHWM");
    println!("peak {peak}");
}

#[cfg(target_os = "linux")]
#[test]
fn one_endless_call_peaks_under_200_mb() {
    let server = server();
    let url = format!("{}/faults/endless/native-peak", server.url);
    let output = in_own_process("one_endless_call_in_this_process", &[("ENDLESS_URL", &url)]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    let kb: u64 = stdout
        .lines()
        .find_map(|line| line.split_once("peak VmHWM:").map(|(_, rest)| rest))
        .and_then(|rest| rest.trim().strip_suffix("kB"))
        .and_then(|kb| kb.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak in {stdout}"));
    println!("one call to an endless body peaked at {kb} kB");
    assert!(kb < 200 * 1024, "{kb} kB");
}

/// A server in this process, on loopback, that answers every request with a
/// count of 42 after `delay` on tokio's clock (paused in the tests that use
/// it, so the delay passes as soon as nothing else is waiting).
async fn answering_after(delay: Duration) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            // The head of a bodiless request (`params_in: Query`).
            tokio::spawn(answer_42(tcp, delay));
        }
    });
    url
}

/// A client of `url` with `timeout` (none set: the default), no retry, and
/// an HTTP client with no connect timeout of its own: on the paused clock
/// only the call's timeout can end it.
fn paused_client(url: &str, timeout: Option<Duration>) -> UsersClient {
    let mut options = ClientOptions::new(url)
        .params_in(ParamsIn::Query)
        .retries(0)
        .http_client(common::http());
    if let Some(timeout) = timeout {
        options = options.timeout(timeout);
    }
    UsersClient::new(options).expect("client")
}

#[tokio::test(start_paused = true)]
async fn timeout_zero_means_none_an_answer_after_an_hour_still_comes() {
    let url = answering_after(Duration::from_secs(3600)).await;
    let started = tokio::time::Instant::now();
    let count = count(&paused_client(&url, Some(Duration::ZERO)))
        .await
        .expect("the answer after an hour");
    assert_eq!(count, 42);
    assert!(started.elapsed() >= Duration::from_secs(3600));
    // A call's own 0 over the client's default, too.
    let client = paused_client(&url, None);
    let envelope = client
        .count_users()
        .timeout(Duration::ZERO)
        .send()
        .await
        .expect("the answer after an hour");
    assert_eq!(envelope.result.total_users, 42);
}

#[tokio::test(start_paused = true)]
async fn on_the_same_paused_clock_the_default_timeout_ends_the_call_at_10_s() {
    let url = answering_after(Duration::from_secs(3600)).await;
    let started = tokio::time::Instant::now();
    let error = count(&paused_client(&url, None)).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
    assert_eq!(started.elapsed(), Duration::from_secs(10));
}

/// A listener on loopback that never accepts, its queue of connections
/// made but not accepted full: the kernel drops each new connection's
/// handshake, so a connection to it waits until a timer ends it. The
/// connections that filled the queue are held, with the listener, for as
/// long as the caller keeps them.
fn never_accepting() -> (String, tokio::net::TcpListener, Vec<std::net::TcpStream>) {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.bind(([127, 0, 0, 1], 0).into()).expect("bind");
    let listener = socket.listen(1).expect("listen");
    let address = listener.local_addr().expect("address");
    let mut held = Vec::new();
    while let Ok(tcp) = std::net::TcpStream::connect_timeout(&address, Duration::from_millis(300)) {
        held.push(tcp);
        assert!(held.len() < 64, "the listener's queue never filled");
    }
    (format!("http://{address}"), listener, held)
}

/// The HTTP client a client builds for itself gives up connecting after
/// 10 s (on tokio's paused clock, without waiting for it), before the
/// call's own timeout of 60 s: the error is the connection's.
#[tokio::test(start_paused = true)]
async fn a_connection_that_never_completes_ends_at_the_connect_timeout_of_10_s() {
    let (url, _listener, _held) = never_accepting();
    let client = UsersClient::new(
        ClientOptions::new(&url)
            .retries(0)
            .timeout(Duration::from_secs(60)),
    )
    .expect("client");
    let started = tokio::time::Instant::now();
    let error = count(&client).await.unwrap_err();
    assert_eq!(started.elapsed(), Duration::from_secs(10), "{error}");
    assert_eq!(error.kind(), ErrorKind::Network, "{error}");
    assert!(error.is_connect(), "{error}");
}

/// Backoff grows attempt by attempt, with jitter: on tokio's paused clock,
/// ten calls to a refused port with `retries(2)` each tell `beforeRetry`
/// their two pauses; retry n waits from half to all of 300 · 2^(n−1) ms
/// (the upper end excluded), and the pauses are not all the same.
#[tokio::test(start_paused = true)]
async fn backoff_doubles_per_retry_with_jitter_in_every_pause() {
    let pauses = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = std::sync::Arc::clone(&pauses);
    let hooks = Hooks::default().before_retry(move |info| {
        seen.lock().unwrap().push((info.attempt, info.delay));
    });
    let options = ClientOptions::new(refused_url()).retries(2).hooks(hooks);
    let client = UsersClient::new(options).expect("client");
    for _ in 0..10 {
        let error = count(&client).await.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Network, "{error}");
    }
    let pauses = pauses.lock().unwrap().clone();
    assert_eq!(pauses.len(), 20, "{pauses:?}");
    for (at, &(attempt, delay)) in pauses.iter().enumerate() {
        assert_eq!(attempt as usize, at % 2 + 1, "{pauses:?}");
        let full = Duration::from_millis(300 << (attempt - 1));
        assert!(full / 2 <= delay && delay < full, "{pauses:?}");
    }
    let firsts: std::collections::BTreeSet<_> = pauses.iter().step_by(2).map(|p| p.1).collect();
    assert!(firsts.len() > 1, "{pauses:?}");
}
