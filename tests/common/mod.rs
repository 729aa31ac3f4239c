//! The harness of the native tests (`tests/native_client.rs`,
//! `tests/native_limits.rs`, `tests/native_tls.rs`): the reference server,
//! started per test, and what its fault routes record; a refused port; a
//! one-answer server for a stream of the test's own; a test run in a
//! process of its own; the tests' own reqwest clients.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio_rustls::rustls::{self, ClientConfig, RootCertStore};

/// The reference server on a free loopback port, killed when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `http://127.0.0.1:PORT` on a loopback port nothing listens on: each
/// connection to it is refused.
pub fn refused_url() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    format!("http://127.0.0.1:{port}")
}

/// Starts the server built beside this test (`target/debug`), with its
/// fault routes and 1000 seeded users.
pub fn server() -> Server {
    start(&["--faults"])
}

/// The server without its fault routes: it keeps connections open between
/// answers (in fault mode it closes each), so a client reuses them.
pub fn keep_alive_server() -> Server {
    start(&[])
}

fn start(extra: &[&str]) -> Server {
    let exe = std::env::current_exe().expect("test path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target dir");
    let bin = dir.join(format!(
        "user-management-server{}",
        std::env::consts::EXE_SUFFIX
    ));
    assert!(
        bin.exists(),
        "{} is missing: run `cargo build -p user-management-server` first",
        bin.display()
    );
    let mut child = Command::new(&bin)
        .args([
            "--bind",
            "127.0.0.1:0",
            "--db",
            ":memory:",
            "--seed",
            "1000",
        ])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the server");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("read the server's first line");
    let url = line
        .trim()
        .strip_prefix("Listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    Server { child, url }
}

impl Server {
    /// What a fault route recorded for `scenario` and `key`: `attempts`
    /// (requests received) or `closed` (requests whose client closed the
    /// connection before the answer).
    pub async fn recorded(&self, scenario: &str, key: &str, what: &str) -> u64 {
        let url = format!("{}/faults/{scenario}/{key}/{what}", self.url);
        let text = http()
            .get(&url)
            .send()
            .await
            .and_then(|response| response.error_for_status())
            .expect("the fault route answers")
            .text()
            .await
            .expect("a body");
        let body: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        body[what].as_u64().expect("a count")
    }
}

/// Serves one request on `stream` (a connection, TLS or not): reads its
/// head (and a small body with it), waits `delay` on tokio's clock, then
/// answers a count of 42 and closes.
pub async fn answer_42<S: AsyncRead + AsyncWrite + Unpin>(mut stream: S, delay: Duration) {
    let mut read = Vec::new();
    let mut buffer = [0u8; 4096];
    while !read.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(n) => read.extend_from_slice(&buffer[..n]),
        }
    }
    tokio::time::sleep(delay).await;
    let body = r#"{"status":200,"result":{"totalUsers":42}}"#;
    let answer = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(answer.as_bytes()).await;
    let _ = stream.shutdown().await;
}

/// Runs the `#[ignore]`d test `name` of this test binary in a process of
/// its own, with `env` added to its environment; its output.
pub fn in_own_process(name: &str, env: &[(&str, &str)]) -> Output {
    Command::new(std::env::current_exe().expect("this test"))
        .args([
            name,
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .envs(env.iter().copied())
        .output()
        .expect("the child test")
}

/// A reqwest client builder of the tests' own (a caller's `http_client`,
/// the server asked without the client): rustls on ring trusting `roots`,
/// handed to reqwest as a config. No test installs a process-wide crypto
/// provider, so the client each `UsersClient` builds is seen to need none.
pub fn http_builder(roots: RootCertStore) -> reqwest::ClientBuilder {
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    reqwest::Client::builder().tls_backend_preconfigured(config)
}

/// A plain reqwest client of the tests' own, for http: servers.
pub fn http() -> reqwest::Client {
    http_builder(RootCertStore::empty())
        .build()
        .expect("a reqwest client")
}
