//! Transport-level behaviour: error envelopes, CORS, static files and the
//! command line.

mod common;

use std::process::Command;
use std::time::Duration;

use common::Server;

#[test]
fn malformed_and_non_object_json_bodies_are_400_envelopes() {
    let server = Server::start();
    server
        .post_json("/api/users/count", r#"{"active":"#)
        .assert_error(400, "malformed JSON");
    server
        .post_json("/api/users", "nope")
        .assert_error(400, "malformed JSON");
    server
        .post_json("/api/users/count", r#"[{"active":"true"}]"#)
        .assert_error(400, "object");
    server
        .post_json("/api/users/count", r#""active""#)
        .assert_error(400, "object");
    server
        .post_json("/api/users", "42")
        .assert_error(400, "object");
}

#[test]
fn unsupported_content_type_is_named() {
    let server = Server::start();
    let response = server.request(
        "POST",
        "/api/users/count",
        &[("Content-Type", "text/plain;charset=UTF-8")],
        br#"{"active":"true"}"#,
    );
    response.assert_error(400, "text/plain");
    let response = server.request(
        "POST",
        "/api/users",
        &[("Content-Type", "application/xml")],
        b"<a/>",
    );
    response.assert_error(400, "application/xml");
}

#[test]
fn oversized_bodies_get_a_413_envelope() {
    let server = Server::start();
    let body = format!(r#"{{"query":"{}"}}"#, "a".repeat(70 * 1024));
    server
        .post_json("/api/users/count", &body)
        .assert_error(413, "larger than");
    // A large but allowed body still works (unknown params are ignored).
    let body = format!(
        r#"{{"active":"false","padding":"{}"}}"#,
        "a".repeat(60 * 1024)
    );
    assert_eq!(server.count(&body), server.count(r#"{"active":"false"}"#));
}

#[test]
fn overlong_queries_are_rejected_but_long_ones_work() {
    let server = Server::start();
    let body = format!(r#"{{"query":"{}"}}"#, "%Ä_".repeat(666));
    assert_eq!(server.count(&body), 0);
    let body = format!(r#"{{"query":"{}"}}"#, "a".repeat(2001));
    server
        .post_json("/api/users/count", &body)
        .assert_error(400, "query");
}

#[test]
fn unknown_routes_are_404_envelopes() {
    let server = Server::start();
    server
        .post_empty("/x")
        .assert_error(404, "no route for POST /x");
    server
        .request("GET", "/api/nope", &[], b"")
        .assert_error(404, "/api/nope");
    server
        .post_empty("/api/users/counts")
        .assert_error(404, "/api/users/counts");
    server
        .request("GET", "/missing.html", &[], b"")
        .assert_error(404, "/missing.html");
    server
        .request("GET", "/pkg/missing.wasm", &[], b"")
        .assert_error(404, "missing.wasm");
}

#[test]
fn wrong_methods_on_api_routes_are_405_envelopes() {
    let server = Server::start();
    for method in ["GET", "PUT", "DELETE", "PATCH"] {
        for path in ["/api/users/count", "/api/users"] {
            let response = server.request(method, path, &[], b"");
            response.assert_error(405, method);
            assert_eq!(response.header("allow"), Some("POST"), "{method} {path}");
        }
    }
}

#[test]
fn cors_preflight_allows_a_loopback_page_and_requested_headers() {
    let server = Server::start();
    let response = server.request(
        "OPTIONS",
        "/api/users/count",
        &[
            ("Origin", "http://127.0.0.1:3000"),
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "authorization,content-type,x-trace-id",
            ),
        ],
        b"",
    );
    assert!(
        (200..300).contains(&response.status),
        "status {}",
        response.status
    );
    assert_eq!(
        response.header("access-control-allow-origin"),
        Some("http://127.0.0.1:3000")
    );
    // Credentials only with --cors-credentials, for listed origins.
    assert_eq!(response.header("access-control-allow-credentials"), None);
    let methods = response
        .header("access-control-allow-methods")
        .unwrap_or_default()
        .to_ascii_lowercase();
    assert!(methods.contains("post"), "{methods}");
    let headers = response
        .header("access-control-allow-headers")
        .unwrap_or_default()
        .to_ascii_lowercase();
    for needed in ["authorization", "content-type", "x-trace-id"] {
        assert!(headers.contains(needed), "{needed} missing from {headers}");
    }
}

#[test]
fn cors_headers_on_answers_and_errors() {
    let server = Server::start();
    let origin = ("Origin", "http://localhost:5173");
    let ok = server.request(
        "POST",
        "/api/users/count",
        &[origin, ("Content-Type", "application/json")],
        br#"{"active":"true"}"#,
    );
    assert_eq!(ok.status, 200);
    assert_eq!(
        ok.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    let exposed = ok
        .header("access-control-expose-headers")
        .unwrap_or_default()
        .to_ascii_lowercase();
    assert!(exposed.contains("retry-after"), "{exposed}");
    let bad = server.request("POST", "/api/users/count?active=x", &[origin], b"");
    assert_eq!(bad.status, 400);
    assert_eq!(
        bad.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
}

#[test]
fn static_files_with_correct_content_types() {
    let server = Server::start();
    let index = server.request("GET", "/", &[], b"");
    assert_eq!(index.status, 200);
    assert!(index
        .header("content-type")
        .unwrap_or_default()
        .starts_with("text/html"));
    assert!(String::from_utf8_lossy(&index.body).contains("<title>demo</title>"));
    let wasm = server.request("GET", "/pkg/x.wasm", &[], b"");
    assert_eq!(wasm.status, 200);
    assert_eq!(wasm.header("content-type"), Some("application/wasm"));
    assert_eq!(wasm.body, b"\0asm\x01\0\0\0");
    let js = server.request("GET", "/pkg/x.js", &[], b"");
    assert_eq!(js.status, 200);
    assert_eq!(js.header("content-type"), Some("text/javascript"));
}

#[test]
fn missing_static_dirs_do_not_break_the_api() {
    let server = Server::start_with(&[
        "--www",
        "/nonexistent/www",
        "--pkg",
        "/nonexistent/pkg",
        "--seed",
        "7",
    ]);
    assert_eq!(server.count("{}"), 7);
    assert_eq!(server.request("GET", "/", &[], b"").status, 404);
}

#[test]
fn seed_zero_gives_an_empty_table() {
    let server = Server::start_with(&["--seed", "0"]);
    assert_eq!(server.count("{}"), 0);
    let result = server.post_json("/api/users", "{}").json();
    assert_eq!(result["result"]["users"], serde_json::json!([]));
}

#[test]
fn help_and_bad_flags() {
    let exe = env!("CARGO_BIN_EXE_user-management-server");
    let help = Command::new(exe).arg("--help").output().unwrap();
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("--bind"));
    for args in [
        &["--bogus"][..],
        &["--seed", "many"],
        &["--bind"],
        &["stray"],
    ] {
        let out = Command::new(exe).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
        assert!(out.stdout.is_empty());
    }
}

#[cfg(unix)]
#[test]
fn sigterm_and_sigint_shut_down_cleanly() {
    for signal in ["-TERM", "-INT"] {
        let mut server = Server::start();
        assert_eq!(server.count("{}"), 1000);
        let status = Command::new("kill")
            .arg(signal)
            .arg(server.pid().to_string())
            .status()
            .unwrap();
        assert!(status.success());
        let exit = server
            .wait_exit(Duration::from_secs(8))
            .expect("server did not exit");
        assert!(exit.success(), "{signal}: {exit:?}");
    }
}

#[test]
fn the_demo_page_has_a_strict_content_security_policy() {
    let server = Server::start();
    for path in ["/", "/index.html"] {
        let page = server.request("GET", path, &[], b"");
        assert_eq!(page.status, 200);
        let csp = page
            .header("content-security-policy")
            .unwrap_or_else(|| panic!("no Content-Security-Policy on {path}"));
        let directives: Vec<&str> = csp.split(';').map(str::trim).collect();
        assert!(directives.contains(&"default-src 'self'"), "{csp}");
        // WebAssembly may compile; nothing else is evaluated.
        assert!(
            directives.contains(&"script-src 'self' 'wasm-unsafe-eval'"),
            "{csp}"
        );
        assert!(directives.contains(&"style-src 'self'"), "{csp}");
        assert!(directives.contains(&"object-src 'none'"), "{csp}");
        // The page's "API base URL" field may name any http(s) server.
        assert!(
            directives.contains(&"connect-src 'self' http: https:"),
            "{csp}"
        );
        assert!(!csp.contains("'unsafe-inline'"), "{csp}");
        assert!(!csp.contains("'unsafe-eval'"), "{csp}");
    }
    // Only pages carry it; the API's JSON and the package's files carry
    // one that allows nothing.
    let api = server.post_json("/api/users/count", "{}");
    assert_eq!(api.status, 200);
    assert_eq!(
        api.header("content-security-policy"),
        Some("default-src 'none'")
    );
    let wasm = server.request("GET", "/pkg/x.wasm", &[], b"");
    assert_eq!(
        wasm.header("content-security-policy"),
        Some("default-src 'none'")
    );
}

#[test]
fn long_uris_and_large_heads_get_envelopes_with_cors() {
    let server = Server::start();
    let origin = ("Origin", "http://127.0.0.1:3000");
    let long = format!("/api/users/count?pad={}", "a".repeat(40 * 1024));
    let response = server.request("POST", &long, &[origin], b"");
    response.assert_error(414, "URI");
    assert_eq!(
        response.header("access-control-allow-origin"),
        Some("http://127.0.0.1:3000")
    );

    let names: Vec<String> = (0..150).map(|i| format!("X-Pad-{i}")).collect();
    let mut many: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "1")).collect();
    many.push(origin);
    let response = server.request("POST", "/api/users/count", &many, b"");
    response.assert_error(431, "headers");
    assert_eq!(
        response.header("access-control-allow-origin"),
        Some("http://127.0.0.1:3000")
    );

    let big = "b".repeat(10 * 1024);
    let mut large: Vec<(&str, &str)> = names[..10]
        .iter()
        .map(|n| (n.as_str(), big.as_str()))
        .collect();
    large.push(origin);
    server
        .request("POST", "/api/users/count", &large, b"")
        .assert_error(431, "headers");

    // Within the limits, nothing changes.
    let fine = format!("/api/users/count?pad={}", "a".repeat(16 * 1024));
    assert_eq!(server.request("POST", &fine, &many[..50], b"").status, 200);
}
