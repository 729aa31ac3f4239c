//! An app outside the repository's workspace, on today's reqwest, run
//! against the reference server (`USERS_API_URL`, started with `--faults`)
//! by `scripts/reqwest-app.sh`. Each check compares the client with what
//! the server says without it; any failure panics, and the process exits
//! non-zero.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use futures_util::StreamExt;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;
use user_management_client::{Active, ClientOptions, ErrorKind, UserPage, UsersClient};

mod depth;
#[path = "../../../common/private_ca.rs"]
mod private_ca;
mod recorder;
use private_ca::private_ca;

/// The request line of a list request, as it reaches the server.
const LIST_REQUEST: &[u8] = b"POST /api/users HTTP/1.1\r\n";

#[tokio::main]
async fn main() {
    // The child that `depth::http2_over_tls` starts.
    let args: Vec<String> = std::env::args().collect();
    if let [_, mode, url] = &args[..] {
        if mode == "own-client" {
            return depth::own_client(url).await;
        }
    }
    let recorder = recorder::Recorder::default();
    tracing::subscriber::set_global_default(tracing_subscriber::layer::SubscriberExt::with(
        tracing_subscriber::registry(),
        recorder.clone(),
    ))
    .expect("the app's subscriber");
    let base = std::env::var("USERS_API_URL").expect("USERS_API_URL: the reference server");
    let upstream: SocketAddr = base
        .strip_prefix("http://")
        .and_then(|address| address.parse().ok())
        .expect("USERS_API_URL is http://IP:PORT");
    // The app's own reqwest 0.13 client, with reqwest's defaults.
    let http = reqwest::Client::new();

    let active = server_count(&http, &base, r#"{"active":"true"}"#).await;
    let all = server_count(&http, &base, "{}").await;
    assert!(
        0 < active && active < all,
        "the filter must matter: {active} of {all}"
    );

    // A sent call is 'static and Send: it goes into tokio::spawn as it is.
    let client = UsersClient::new(ClientOptions::new(&base)).expect("a client");
    let spawned = tokio::spawn(client.count_users().active(Active::True).send());
    drop(client);
    let count = spawned.await.expect("the task ran").expect("the count");
    assert_eq!(count.result.total_users, active);
    println!("ok: count_users().active(Active::True).send() in tokio::spawn: {active}, as the server counts");

    // The pages of the active users, through a proxy that counts the list
    // requests reaching the server.
    let lists = Arc::new(AtomicU64::new(0));
    let counted = proxy(None, upstream, Arc::clone(&lists)).await;
    let client =
        UsersClient::new(ClientOptions::new(format!("http://{counted}"))).expect("a client");
    let mut pages = std::pin::pin!(client
        .list_users()
        .active(Active::True)
        .page_size(100)
        .pages::<UserPage>());
    let mut numbers = Vec::new();
    let mut ids = Vec::new();
    while let Some(page) = pages.next().await {
        let page = page.expect("a page").result;
        numbers.push(page.page);
        ids.extend(page.users.iter().map(|user| user.id));
    }
    let requests = lists.load(Ordering::SeqCst);
    assert_eq!(
        ids.len() as u64,
        active,
        "the pages' users add up to the count"
    );
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len() as u64, active, "no user twice");
    let expected_pages = active.div_ceil(100);
    assert_eq!(numbers, (1..=expected_pages).collect::<Vec<_>>());
    assert_eq!(requests, expected_pages, "one request per page");
    println!(
        "ok: pages::<UserPage>(): {expected_pages} pages, {active} users, {requests} list requests"
    );

    // A private CA: a TLS server in front of the reference server. The
    // client's own HTTP client (the platform's verifier) refuses it; the app's own
    // reqwest client, trusting the CA, passes to `http_client` and reaches it.
    let (ca, tls_config) = private_ca();
    let tls = proxy(
        Some(TlsAcceptor::from(Arc::new(tls_config))),
        upstream,
        Arc::new(AtomicU64::new(0)),
    )
    .await;
    let tls_url = format!("https://{tls}");
    let refused = depth::failed_count(
        ClientOptions::new(&tls_url).retries(0),
        "the private CA is not in the platform's store",
    )
    .await;
    assert_eq!(refused.kind(), ErrorKind::Network, "{refused}");
    let trusting = reqwest::Client::builder()
        .tls_certs_only([reqwest::Certificate::from_pem(ca.pem().as_bytes()).expect("PEM")])
        .build()
        .expect("the app's reqwest client");
    let options = ClientOptions::new(&tls_url)
        .retries(0)
        .http_client(the_crates_client(trusting));
    let count = UsersClient::new(options)
        .expect("a client")
        .count_users()
        .active(Active::True)
        .send()
        .await
        .expect("the count through the private CA");
    assert_eq!(count.result.total_users, active);
    println!(
        "ok: the app's reqwest::Client through http_client reached the private-CA server: {active}"
    );

    // A 503.
    let options = ClientOptions::new(format!("{base}/faults/busy/reqwest-app")).retries(0);
    let busy = depth::failed_count(options, "the busy route answers 503").await;
    assert_eq!(busy.http_status(), Some(503), "{busy}");
    assert!(busy.is_retryable(), "{busy}");
    println!("ok: a 503: http_status() == Some(503), is_retryable()");

    // A base URL the client refuses names the Rust option.
    let refused = UsersClient::new(ClientOptions::new("ftp://x")).expect_err("ftp: is refused");
    assert_eq!(refused.param(), Some("base_url"), "{refused}");
    println!("ok: base_url \"ftp://x\": param() == Some(\"base_url\")");

    depth::spans(&base, &recorder).await;
    depth::errors_print_each_cause_once().await;
    depth::outside_a_runtime(&base);
    depth::errors_built_in_tests(&base).await;
    depth::a_header_provider_fails_with_the_apps_error(&base).await;
    let (ca, tls_config) = private_ca();
    depth::http2_over_tls(&ca.pem(), tls_config).await;
}

/// `user_management_client::reqwest::Client` is the app's `reqwest::Client`:
/// this compiles only if the two paths name one type.
fn the_crates_client(client: reqwest::Client) -> user_management_client::reqwest::Client {
    client
}

/// What the server counts for `body`, asked with the app's own client.
async fn server_count(http: &reqwest::Client, base: &str, body: &'static str) -> u64 {
    let text = http
        .post(format!("{base}/api/users/count"))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .and_then(|response| response.error_for_status())
        .expect("the server counts")
        .text()
        .await
        .expect("a body");
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    json["result"]["totalUsers"].as_u64().expect("a count")
}

/// Listens on a loopback port and relays each connection to `upstream`,
/// through TLS first when `tls` is given, counting in `lists` the list
/// requests that pass. Returns the port's address.
async fn proxy(
    tls: Option<TlsAcceptor>,
    upstream: SocketAddr,
    lists: Arc<AtomicU64>,
) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("an address");
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let tls = tls.clone();
            let lists = Arc::clone(&lists);
            tokio::spawn(async move {
                match tls {
                    Some(acceptor) => {
                        if let Ok(stream) = acceptor.accept(tcp).await {
                            relay(stream, upstream, lists).await;
                        }
                    }
                    None => relay(tcp, upstream, lists).await,
                }
            });
        }
    });
    address
}

/// Copies `client` to a new connection to `upstream` and back, counting
/// each list request line the client sends (one may straddle two reads).
async fn relay<S: AsyncRead + AsyncWrite>(client: S, upstream: SocketAddr, lists: Arc<AtomicU64>) {
    let Ok(server) = TcpStream::connect(upstream).await else {
        return;
    };
    let (mut from_client, mut to_client) = tokio::io::split(client);
    let (mut from_server, mut to_server) = server.into_split();
    let up = async {
        let mut buffer = [0u8; 8192];
        let mut seen: Vec<u8> = Vec::new();
        loop {
            let n = match from_client.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            seen.extend_from_slice(&buffer[..n]);
            let found = seen
                .windows(LIST_REQUEST.len())
                .filter(|w| *w == LIST_REQUEST)
                .count();
            lists.fetch_add(found as u64, Ordering::SeqCst);
            let keep = seen.len().min(LIST_REQUEST.len() - 1);
            seen.drain(..seen.len() - keep);
            if to_server.write_all(&buffer[..n]).await.is_err() {
                break;
            }
        }
        let _ = to_server.shutdown().await;
    };
    let down = async {
        let _ = tokio::io::copy(&mut from_server, &mut to_client).await;
        let _ = to_client.shutdown().await;
    };
    tokio::join!(up, down);
}
