//! Who may read the server from a browser: CORS for the server's own and
//! loopback origins (more with `--cors-origin`), credentials only when asked
//! for, and a `Host` check against DNS rebinding.

mod common;

use common::{Response, Server};

fn preflight(server: &Server, origin: &str, method: &str, headers: &str) -> Response {
    server.request(
        "OPTIONS",
        "/api/users/count",
        &[
            ("Origin", origin),
            ("Access-Control-Request-Method", method),
            ("Access-Control-Request-Headers", headers),
        ],
        b"",
    )
}

fn count_from(server: &Server, origin: &str) -> Response {
    server.request(
        "POST",
        "/api/users/count",
        &[("Origin", origin), ("Content-Type", "application/json")],
        br#"{"active":"true"}"#,
    )
}

#[test]
fn other_origins_and_null_are_not_allowed() {
    let server = Server::start();
    for origin in [
        "https://evil.example",
        "null",
        "http://127.0.0.1.evil.example",
        "http://localhost.evil.example:8080",
        "https://127.0.0.1:8080",
        "file://",
    ] {
        let response = preflight(&server, origin, "DELETE", "authorization, cookie");
        assert_eq!(
            response.header("access-control-allow-origin"),
            None,
            "preflight from {origin}"
        );
        assert_eq!(response.header("access-control-allow-credentials"), None);
        let answer = count_from(&server, origin);
        assert_eq!(answer.status, 200, "{origin}");
        assert_eq!(
            answer.header("access-control-allow-origin"),
            None,
            "answer to {origin}"
        );
    }
}

#[test]
fn loopback_and_own_origins_are_allowed_without_credentials() {
    let server = Server::start();
    let own = format!("http://{}", server.addr);
    for origin in [
        own.as_str(),
        "http://127.0.0.1:5173",
        "http://localhost:3000",
        "http://[::1]:8000",
        "http://localhost",
    ] {
        let response = preflight(&server, origin, "POST", "content-type, x-api-key");
        assert!((200..300).contains(&response.status), "{origin}");
        assert_eq!(
            response.header("access-control-allow-origin"),
            Some(origin),
            "preflight from {origin}"
        );
        assert_eq!(response.header("access-control-allow-credentials"), None);
        let methods = response
            .header("access-control-allow-methods")
            .unwrap_or_default()
            .to_ascii_uppercase();
        for method in ["POST", "GET", "OPTIONS"] {
            assert!(methods.contains(method), "{method} not in {methods}");
        }
        for method in ["DELETE", "PUT", "PATCH"] {
            assert!(!methods.contains(method), "{method} in {methods}");
        }
        let headers = response
            .header("access-control-allow-headers")
            .unwrap_or_default()
            .to_ascii_lowercase();
        for needed in ["content-type", "x-api-key"] {
            assert!(headers.contains(needed), "{needed} missing from {headers}");
        }
        let answer = count_from(&server, origin);
        assert_eq!(answer.header("access-control-allow-origin"), Some(origin));
        assert_eq!(answer.header("access-control-allow-credentials"), None);
    }
}

#[test]
fn listed_origins_are_allowed_and_credentials_only_for_them_when_asked() {
    let server = Server::start_with(&[
        "--cors-origin",
        "https://app.example",
        "--cors-origin=https://admin.example:8443",
    ]);
    for origin in ["https://app.example", "https://admin.example:8443"] {
        let answer = count_from(&server, origin);
        assert_eq!(answer.header("access-control-allow-origin"), Some(origin));
        assert_eq!(answer.header("access-control-allow-credentials"), None);
    }
    assert_eq!(
        count_from(&server, "https://admin.example").header("access-control-allow-origin"),
        None
    );

    let server =
        Server::start_with(&["--cors-origin", "https://app.example", "--cors-credentials"]);
    let listed = preflight(&server, "https://app.example", "POST", "authorization");
    assert_eq!(
        listed.header("access-control-allow-credentials"),
        Some("true")
    );
    let answer = count_from(&server, "https://app.example");
    assert_eq!(
        answer.header("access-control-allow-credentials"),
        Some("true")
    );
    // Loopback pages may still read, but never with credentials.
    let loopback = count_from(&server, "http://127.0.0.1:5173");
    assert_eq!(
        loopback.header("access-control-allow-origin"),
        Some("http://127.0.0.1:5173")
    );
    assert_eq!(loopback.header("access-control-allow-credentials"), None);
}

#[test]
fn bad_cors_flags_are_usage_errors() {
    let exe = env!("CARGO_BIN_EXE_user-management-server");
    for args in [
        &["--cors-origin", "*"][..],
        &["--cors-origin", "null"],
        &["--cors-origin", "https://app.example/path"],
        &["--cors-credentials"],
        &["--allow-host", "bad host"],
    ] {
        let out = std::process::Command::new(exe).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn requests_for_other_hosts_are_refused() {
    let server = Server::start();
    for host in [
        "attacker.example",
        "attacker.example:8080",
        "127.0.0.1.nip.io",
    ] {
        let response = server.request(
            "POST",
            "/api/users/count",
            &[("Host", host), ("Origin", "http://attacker.example")],
            b"",
        );
        response.assert_error(403, "host");
        assert_eq!(response.header("access-control-allow-origin"), None);
        let page = server.request("GET", "/", &[("Host", host)], b"");
        assert_eq!(page.status, 403, "{host}");
    }
    let port = server.addr.rsplit(':').next().unwrap();
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
        "LOCALHOST".to_owned(),
    ] {
        let response = server.request("POST", "/api/users/count", &[("Host", &host)], b"");
        assert_eq!(response.status, 200, "{host}");
    }

    let server = Server::start_with(&["--allow-host", "devbox.lan"]);
    let response = server.request(
        "POST",
        "/api/users/count",
        &[("Host", "devbox.lan:8080")],
        b"",
    );
    assert_eq!(response.status, 200);
}
