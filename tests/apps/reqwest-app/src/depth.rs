//! What a Rust service reaches for beyond the calls: the spans it
//! observes, errors that print each cause once and that its tests can
//! build, setup errors that do not say "try again", a header provider
//! failing with the app's own error, HTTP/2 over TLS and the TLS trust
//! reqwest gives. Each check panics on failure.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use http_body_util::Full;
use hyper::body::Bytes;
use tokio::net::TcpListener;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::TlsAcceptor;
use user_management_client::{Active, ClientOptions, Error, ErrorKind, ParamsIn, UsersClient};

use crate::recorder::Recorder;

const TOKEN: &str = "Bearer s3cret-token-of-the-app";
const QUERY: &str = "ann-secret-name";

/// A count retried once after a 503 (`Retry-After: 1`) yields one
/// `users.count` span with two attempt spans inside it, 503 then 200, and
/// one DEBUG retry event; nothing recorded holds the token, the `query`
/// value or a `?`.
pub async fn spans(base: &str, recorder: &Recorder) {
    let options = ClientOptions::new(format!(
        "{base}/faults/retry-after-seconds/reqwest-app-spans"
    ))
    .params_in(ParamsIn::Query)
    .header("authorization", TOKEN)
    .retries(1);
    let client = UsersClient::new(options).expect("a client");
    recorder.clear();
    let count = client
        .count_users()
        .query(QUERY)
        .send()
        .await
        .expect("the count after one retry");
    assert_eq!(count.result.total_users, 7);
    let (spans, events) = recorder.taken();
    let ours = |target: &str| target.starts_with("user_management_client");
    let calls: Vec<_> = spans.iter().filter(|s| s.name == "users.count").collect();
    assert_eq!(calls.len(), 1, "{spans:#?}");
    let call = calls[0];
    let attempts: Vec<_> = spans
        .iter()
        .filter(|s| s.parent == Some(call.id) && ours(&s.target))
        .collect();
    assert_eq!(attempts.len(), 2, "{spans:#?}");
    let statuses: Vec<_> = attempts
        .iter()
        .map(|a| a.field("http.response.status_code"))
        .collect();
    assert_eq!(statuses, [Some("503"), Some("200")], "{attempts:#?}");
    for (resend, attempt) in attempts.iter().enumerate() {
        assert_eq!(attempt.name, "POST");
        assert_eq!(attempt.field("http.request.method"), Some("POST"));
        assert_eq!(attempt.field("server.address"), Some("127.0.0.1"));
        let port = base.rsplit(':').next().expect("a port");
        assert_eq!(attempt.field("server.port"), Some(port));
        assert_eq!(
            attempt.field("url.path"),
            Some("/faults/retry-after-seconds/reqwest-app-spans/api/users/count")
        );
        let resend = resend.to_string();
        assert_eq!(
            attempt.field("http.request.resend_count"),
            Some(resend.as_str())
        );
    }
    assert_eq!(attempts[0].field("error.type"), Some("http"));
    assert_eq!(attempts[1].field("error.type"), None);
    assert_eq!(call.field("error.type"), None);
    let retries: Vec<_> = events
        .iter()
        .filter(|e| ours(&e.target) && e.span == Some(call.id))
        .collect();
    assert_eq!(retries.len(), 1, "{events:#?}");
    let retry = retries[0];
    assert_eq!(retry.level, tracing::Level::DEBUG);
    assert_eq!(retry.field("delay_ms"), Some("1000"), "{retry:#?}");
    assert_eq!(retry.field("error.type"), Some("http"));
    assert_eq!(retry.field("http.response.status_code"), Some("503"));
    assert_eq!(retry.field("http.request.resend_count"), Some("1"));
    let recorded = format!("{spans:?}{events:?}");
    for secret in [TOKEN, "s3cret", QUERY, "?"] {
        let found = spans
            .iter()
            .filter(|s| ours(&s.target))
            .flat_map(|s| &s.fields)
            .chain(
                events
                    .iter()
                    .filter(|e| ours(&e.target))
                    .flat_map(|e| &e.fields),
            )
            .find(|(_, value)| value.contains(secret));
        assert_eq!(found, None, "{secret:?} recorded: {recorded}");
    }
    println!(
        "ok: one users.count span, attempt spans 503 then 200 (resend_count 0, 1), one DEBUG retry event of 1000 ms; no token, query value or '?' recorded"
    );
}

/// The error a count through a client of `options` fails with; `why` says
/// why it must fail.
pub async fn failed_count(options: ClientOptions, why: &str) -> Error {
    let client = UsersClient::new(options).expect("a client");
    client.count_users().send().await.expect_err(why)
}

/// anyhow's `{:#}` for a refused connection names reqwest's cause once:
/// the client's `Display` is its own line, the reasons its source's.
pub async fn errors_print_each_cause_once() {
    let options = ClientOptions::new("http://127.0.0.1:1").retries(0);
    let error = failed_count(options, "port 1 refuses").await;
    assert_eq!(error.kind(), ErrorKind::Network, "{error}");
    let reqwest_words = std::error::Error::source(&error)
        .and_then(|source| source.downcast_ref::<reqwest::Error>())
        .expect("the reqwest::Error")
        .to_string();
    let report = format!("{:#}", anyhow::Error::from(error));
    assert_eq!(report.matches(&reqwest_words).count(), 1, "{report}");
    assert_eq!(report.matches("refused").count(), 1, "{report}");
    println!("ok: {{:#}} of a refused connection names reqwest's cause once: {report}");
}

/// A call outside any tokio runtime is a setup error, not "try again".
pub fn outside_a_runtime(base: &str) {
    let base = base.to_string();
    let error = std::thread::spawn(move || {
        let client = UsersClient::new(ClientOptions::new(base)).expect("a client");
        let mut call = std::pin::pin!(client.count_users().send());
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match call.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(outcome) => outcome.expect_err("no runtime"),
            std::task::Poll::Pending => panic!("a call outside tokio waited"),
        }
    })
    .join()
    .expect("the thread ran");
    assert_eq!(error.kind(), ErrorKind::Validation, "{error}");
    assert_eq!(error.param(), Some("runtime"), "{error}");
    assert!(!error.is_retryable(), "{error}");
    println!(
        "ok: outside a tokio runtime: Validation, param() == Some(\"runtime\"), not retryable"
    );
}

/// The app's own branch on a failed call.
fn next_step(error: &Error) -> &'static str {
    match error.http_status() {
        Some(401) => "sign in again",
        _ if error.is_retryable() => "try again later",
        _ => "show the error",
    }
}

/// An `Error` built in a test drives the app's 401 branch as the
/// server's own 401 does.
pub async fn errors_built_in_tests(base: &str) {
    let built = Error::new(ErrorKind::Http, "the server answered 401").with_http_status(401);
    assert_eq!(next_step(&built), "sign in again");
    let options = ClientOptions::new(format!("{base}/faults/echo-auth-401/reqwest-app")).retries(0);
    let real = failed_count(options, "the route answers 401").await;
    assert_eq!(real.http_status(), Some(401), "{real}");
    assert_eq!(next_step(&real), next_step(&built));
    let busy = Error::new(ErrorKind::Http, "busy").with_http_status(503);
    assert_eq!(next_step(&busy), "try again later");
    println!("ok: an Error built with with_http_status(401) takes the app's 401 branch, as the server's 401 does");
}

/// The app's own error.
#[derive(Debug)]
struct TokenStoreLocked;

impl std::fmt::Display for TokenStoreLocked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the token store is locked")
    }
}

impl std::error::Error for TokenStoreLocked {}

/// A header provider failing with the app's own error: the call fails
/// before sending, and `source()` downcasts to that error.
pub async fn a_header_provider_fails_with_the_apps_error(base: &str) {
    let options = ClientOptions::new(format!("{base}/faults/ok/reqwest-app-provider"))
        .header_provider(|| async { Err::<Vec<(String, String)>, _>(TokenStoreLocked) });
    let error = failed_count(options, "the provider fails").await;
    assert_eq!(error.kind(), ErrorKind::Validation, "{error}");
    assert_eq!(error.param(), Some("headers"), "{error}");
    let source = std::error::Error::source(&error).expect("a source");
    assert!(
        source.downcast_ref::<TokenStoreLocked>().is_some(),
        "{source:?}"
    );
    let attempts = reqwest::get(format!("{base}/faults/ok/reqwest-app-provider/attempts"))
        .await
        .expect("the server")
        .text()
        .await
        .expect("a body");
    assert_eq!(attempts.trim(), r#"{"attempts":0}"#, "nothing sent");
    println!("ok: a header provider's Err(TokenStoreLocked): Validation naming headers, source() downcasts to it, nothing sent");
}

const COUNT_42: &str = r#"{"status":200,"result":{"totalUsers":42}}"#;

/// Serves `https://127.0.0.1:PORT` with `config`, offering `h2` and
/// `http/1.1`: a connection that chooses `h2` gets a count of 42 in
/// HTTP/2; what each connection spoke joins `seen` (`HTTP/2.0`, or the
/// protocol it chose instead).
pub async fn h2_server(mut config: ServerConfig, seen: Arc<Mutex<Vec<String>>>) -> SocketAddr {
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    let acceptor = TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("an address");
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let (acceptor, seen) = (acceptor.clone(), Arc::clone(&seen));
            tokio::spawn(async move {
                let Ok(tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let alpn = tls.get_ref().1.alpn_protocol().map(<[u8]>::to_vec);
                if alpn.as_deref() != Some(b"h2") {
                    let chose = alpn.map(|p| String::from_utf8_lossy(&p).into_owned());
                    seen.lock().unwrap().push(format!("ALPN {chose:?}"));
                    return;
                }
                let service = hyper::service::service_fn(move |request| {
                    let seen = Arc::clone(&seen);
                    async move {
                        seen.lock()
                            .unwrap()
                            .push(format!("{:?}", hyper::Request::version(&request)));
                        let mut response = hyper::Response::new(Full::new(Bytes::from(COUNT_42)));
                        response.headers_mut().insert(
                            "content-type",
                            hyper::header::HeaderValue::from_static("application/json"),
                        );
                        Ok::<_, Infallible>(response)
                    }
                });
                let executor = hyper_util::rt::TokioExecutor::new();
                let _ = hyper::server::conn::http2::Builder::new(executor)
                    .serve_connection(hyper_util::rt::TokioIo::new(tls), service)
                    .await;
            });
        }
    });
    address
}

/// The count through `client` from the h2 server, and what the server saw.
async fn count_over(client: &UsersClient, seen: &Arc<Mutex<Vec<String>>>) -> (u64, Vec<String>) {
    seen.lock().unwrap().clear();
    let count = client
        .count_users()
        .active(Active::True)
        .send()
        .await
        .expect("the count from the h2 server");
    (count.result.total_users, seen.lock().unwrap().clone())
}

/// HTTP/2 against a TLS server that offers it: through the app's own
/// reqwest client (`http_client`) trusting the private CA, through a
/// client built from the re-export alone, and through the crate's own
/// client with the CA trusted the documented way (`SSL_CERT_FILE`, which
/// the platform's verifier reads), in a process of its own.
pub async fn http2_over_tls(ca_pem: &str, config: ServerConfig) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let address = h2_server(config, Arc::clone(&seen)).await;
    let url = format!("https://{address}");
    let ca = || reqwest::Certificate::from_pem(ca_pem.as_bytes()).expect("PEM");

    let apps = reqwest::Client::builder()
        .tls_certs_only([ca()])
        .build()
        .expect("the app's reqwest client");
    let client =
        UsersClient::new(ClientOptions::new(&url).retries(0).http_client(apps)).expect("a client");
    assert_eq!(
        count_over(&client, &seen).await,
        (42, vec!["HTTP/2.0".into()])
    );
    println!(
        "ok: http_client (the app's reqwest, private CA) spoke HTTP/2 to a TLS server offering it"
    );

    let certificate =
        user_management_client::reqwest::Certificate::from_pem(ca_pem.as_bytes()).expect("PEM");
    let re_exported = user_management_client::reqwest::Client::builder()
        .tls_certs_only([certificate])
        .build()
        .expect("a client from the re-export");
    let client = UsersClient::new(ClientOptions::new(&url).retries(0).http_client(re_exported))
        .expect("a client");
    assert_eq!(
        count_over(&client, &seen).await,
        (42, vec!["HTTP/2.0".into()])
    );
    println!("ok: a reqwest::Client built from the re-export alone reached the private-CA server, no panic");

    let file = std::env::temp_dir().join(format!("reqwest-app-ca-{}.pem", std::process::id()));
    std::fs::write(&file, ca_pem).expect("the CA file");
    seen.lock().unwrap().clear();
    let url_for_child = url.clone();
    let file_for_child = file.clone();
    let output = tokio::task::spawn_blocking(move || {
        std::process::Command::new(std::env::current_exe().expect("this program"))
            .args(["own-client", &url_for_child])
            .env("SSL_CERT_FILE", &file_for_child)
            .output()
            .expect("the child ran")
    })
    .await
    .expect("the child's thread");
    let _ = std::fs::remove_file(&file);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(stdout.trim(), "count 42", "{stdout}");
    assert_eq!(*seen.lock().unwrap(), ["HTTP/2.0"]);
    println!("ok: the crate's own client, the CA in SSL_CERT_FILE (the platform's verifier), spoke HTTP/2");
}

/// The child of `http2_over_tls`: the count from `url` through the
/// crate's own client, printed.
pub async fn own_client(url: &str) {
    let client = UsersClient::new(ClientOptions::new(url).retries(0)).expect("a client");
    match client.count_users().active(Active::True).send().await {
        Ok(count) => println!("count {}", count.result.total_users),
        Err(error) => println!("failed ({}): {error:#?}", error.kind()),
    }
}
