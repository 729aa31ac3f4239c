//! A private CA, natively: an https: server whose certificate a CA made at
//! test time signed. The client's own HTTP client (the platform's verifier,
//! or Mozilla's roots with `webpki-roots`) refuses it with a `Network`
//! error; a caller's `http_client` that trusts that CA gets the count; the
//! platform's verifier trusts it where `SSL_CERT_FILE` names it, and
//! Mozilla's roots do not.
#![cfg(not(target_arch = "wasm32"))]

mod common;
#[path = "common/private_ca.rs"]
mod private_ca;

use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio_rustls::rustls::{self, ServerConfig};
use tokio_rustls::TlsAcceptor;

use common::answer_42;
use private_ca::private_ca;
use user_management_client::{ClientOptions, CountParams, ErrorKind, UsersClient};

/// Serves `https://127.0.0.1:PORT`: every request that completes its TLS
/// handshake gets a count of 42.
async fn https_server(config: ServerConfig) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!(
        "https://127.0.0.1:{}",
        listener.local_addr().expect("addr").port()
    );
    let acceptor = TlsAcceptor::from(Arc::new(config));
    tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                return;
            };
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                if let Ok(tls) = acceptor.accept(tcp).await {
                    answer_42(tls, Duration::ZERO).await;
                }
            });
        }
    });
    url
}

#[tokio::test]
async fn a_private_ca_is_refused_by_default_and_trusted_through_http_client() {
    let (ca, config) = private_ca();
    let url = https_server(config).await;
    let params = CountParams::default();

    let refusing = UsersClient::new(ClientOptions::new(&url).retries(0)).expect("client");
    let error = refusing
        .count_users()
        .params(params.clone())
        .send()
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Network, "{error}");
    let source = std::error::Error::source(&error).expect("a source");
    assert!(
        source.downcast_ref::<reqwest::Error>().is_some(),
        "{source}"
    );

    let mut roots = rustls::RootCertStore::empty();
    roots.add(ca.der().clone()).expect("the CA as a root");
    let http = common::http_builder(roots)
        .build()
        .expect("a reqwest client");
    let trusting =
        UsersClient::new(ClientOptions::new(&url).http_client(http).retries(0)).expect("client");
    let count = trusting
        .count_users()
        .params(params.clone())
        .send()
        .await
        .expect("the count");
    assert_eq!(count.result.total_users, 42);
}

/// The client's own HTTP client trusts the platform's verifier, which
/// reads the store `SSL_CERT_FILE` names: with the private CA there (beside
/// a certificate that cannot be used), the count comes through without an
/// `http_client`. With `webpki-roots` it trusts Mozilla's roots only, and
/// the same file changes nothing. The client is made in a process of its
/// own, whose environment names the file (setting it here would race the
/// other test's client). (`make unit` runs this file with `webpki-roots`
/// too.)
#[tokio::test(flavor = "multi_thread")]
async fn ssl_cert_file_is_trusted_through_the_platform_verifier_only() {
    let (ca, config) = private_ca();
    let url = https_server(config).await;
    let file = std::env::temp_dir().join(format!("umc-test-ca-{}.pem", std::process::id()));
    // Beside the CA, a certificate rustls cannot parse, as a platform's
    // store holds ancient roots: skipped, while the CA is used.
    let unparsable = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
    std::fs::write(&file, format!("{}{unparsable}", ca.pem())).expect("write the CA");
    let ssl_cert_file = file.to_string_lossy().into_owned();
    let output = tokio::task::spawn_blocking(move || {
        common::in_own_process(
            "counts_through_ssl_cert_file_in_this_process",
            &[
                ("SSL_CERT_FILE", &ssl_cert_file),
                ("NATIVE_ROOTS_URL", &url),
            ],
        )
    })
    .await
    .expect("the child ran");
    let _ = std::fs::remove_file(&file);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    if cfg!(feature = "webpki-roots") {
        assert!(stdout.contains("refused (network)"), "{stdout}");
    } else {
        assert!(stdout.contains("count 42"), "{stdout}");
    }
}

/// A client without `http_client`, in a process whose `SSL_CERT_FILE` names
/// the private CA: prints the count, or that the call was refused. Run by
/// `ssl_cert_file_is_trusted_through_the_platform_verifier_only`; on its
/// own it does nothing.
#[test]
#[ignore = "run by ssl_cert_file_is_trusted_through_the_platform_verifier_only, in a process of its own"]
fn counts_through_ssl_cert_file_in_this_process() {
    let Ok(url) = std::env::var("NATIVE_ROOTS_URL") else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let client = UsersClient::new(ClientOptions::new(&url).retries(0)).expect("client");
    match runtime.block_on(client.count_users().send()) {
        Ok(count) => println!("count {}", count.result.total_users),
        Err(error) => println!("refused ({}): {error}", error.kind()),
    }
}

/// The HTTP/2 connection preface, the first bytes a client speaking
/// HTTP/2 sends.
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// A `reqwest::Client` built from the crate's reqwest alone (the features
/// the crate turns on, no crypto provider installed by anyone) reaches a
/// private-CA server that offers HTTP/2, without a panic, and speaks
/// HTTP/2 to it: the server chooses `h2` by ALPN and reads the HTTP/2
/// preface. (The server then closes: the call's `network` error is
/// expected.)
#[tokio::test]
async fn the_crates_reqwest_alone_speaks_http2_to_a_tls_server_offering_it() {
    let (ca, mut config) = private_ca();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("https://{}", listener.local_addr().expect("addr"));
    let acceptor = TlsAcceptor::from(Arc::new(config));
    let seen = tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.expect("a connection");
        let mut tls = acceptor.accept(tcp).await.expect("the handshake");
        let alpn = tls.get_ref().1.alpn_protocol().map(<[u8]>::to_vec);
        let mut first = vec![0; H2_PREFACE.len()];
        let read = tokio::io::AsyncReadExt::read_exact(&mut tls, &mut first).await;
        (alpn, read.map(|_| first).ok())
    });
    let http = user_management_client::reqwest::Client::builder()
        .tls_certs_only([
            user_management_client::reqwest::Certificate::from_der(ca.der()).expect("the CA"),
        ])
        .build()
        .expect("a reqwest client, without a panic");
    let client =
        UsersClient::new(ClientOptions::new(&url).http_client(http).retries(0)).expect("client");
    let error = client.count_users().send().await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Network, "{error}");
    let (alpn, first) = seen.await.expect("the server ran");
    assert_eq!(alpn.as_deref(), Some(&b"h2"[..]));
    assert_eq!(first.as_deref(), Some(H2_PREFACE));
}
