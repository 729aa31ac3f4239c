//! The fault mode (`--faults`): off by default, and each scenario answers
//! as documented, counting its attempts per key.

mod common;

use common::Server;

#[test]
fn fault_routes_are_off_by_default() {
    let server = Server::start();
    server
        .post_json("/faults/ok/k/api/users/count", "{}")
        .assert_error(404, "no route");
}

#[test]
fn scenarios_answer_as_documented_and_count_attempts() {
    let server = Server::start_with(&["--faults"]);
    let ok = server.post_json("/faults/ok/a/api/users/count", "{}");
    assert_eq!(
        (ok.status, ok.json()["result"]["totalUsers"].as_u64()),
        (200, Some(7))
    );
    server.post_json("/faults/ok/a/api/users", "{}");
    let attempts = server.request("GET", "/faults/ok/a/attempts", &[], b"");
    assert_eq!(attempts.json()["attempts"], 2);
    let other_key = server.request("GET", "/faults/ok/b/attempts", &[], b"");
    assert_eq!(other_key.json()["attempts"], 0);

    let html = server.post_json("/faults/html-500/a/api/users/count", "{}");
    assert_eq!(html.status, 500);
    assert_eq!(html.header("content-type"), Some("text/html"));
    assert_eq!(
        server
            .post_json("/faults/status-403/a/api/users", "{}")
            .json()["status"],
        403
    );
    assert_eq!(
        server
            .post_json("/faults/total-2p53/a/api/users/count", "{}")
            .json()["result"]["totalUsers"],
        9007199254740992u64
    );

    let busy = server.post_json("/faults/busy/a/api/users/count", "{}");
    assert_eq!((busy.status, busy.header("retry-after")), (503, Some("0")));
    let first = server.post_json("/faults/retry-after-date/a/api/users/count", "{}");
    assert_eq!(first.status, 429);
    assert!(first
        .header("retry-after")
        .is_some_and(|d| d.ends_with(" GMT")));
    assert_eq!(
        server
            .post_json("/faults/retry-after-date/a/api/users/count", "{}")
            .status,
        200
    );

    // Position-dependent text, U+1F600 (4 bytes in UTF-8) just inside or
    // across the first 65,536 UTF-16 units.
    let numbers: String = (0..20_000).map(|n| format!("{n} ")).collect();
    for (scenario, pair_at) in [("big", 65_534), ("big-straddling", 65_535)] {
        let big = server.post_json(&format!("/faults/{scenario}/a/api/users/count"), "{}");
        assert_eq!(big.body.len(), 10 * 1024 * 1024, "{scenario}");
        let text = String::from_utf8(big.body).expect("UTF-8");
        let start = format!(
            "{}\u{1F600}{}",
            &numbers[..pair_at],
            &numbers[pair_at..pair_at + 10]
        );
        assert!(text.starts_with(&start), "{scenario}");
        assert_eq!(text.matches('\u{1F600}').count(), 1, "{scenario}");
    }

    let expired = server.request(
        "POST",
        "/faults/token-expired/a/api/users/count",
        &[("Authorization", "Bearer stale")],
        b"{}",
    );
    assert_eq!(expired.status, 401);
    let fresh = server.request(
        "POST",
        "/faults/token-expired/a/api/users/count",
        &[("Authorization", "Bearer fresh")],
        b"{}",
    );
    assert_eq!(
        (fresh.status, &fresh.json()["result"]["totalUsers"]),
        (200, &serde_json::json!(7))
    );
}

#[test]
fn echo_shows_what_the_server_decoded_but_no_credentials() {
    let server = Server::start_with(&["--faults"]);
    let echoed = server.request(
        "POST",
        "/faults/echo/a/api/users?page=2",
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Authorization", "Bearer secret-token"),
            ("X-Request-Id", "r-1"),
        ],
        b"query=a%26b%3Dc%23d%2Be%25f+g&active=false",
    );
    let result = &echoed.json()["result"];
    assert_eq!(result["params"]["query"], "a&b=c#d+e%f g");
    assert_eq!(result["params"]["active"], "false");
    assert_eq!(result["params"]["page"], "2");
    assert_eq!(result["headers"]["x-request-id"], "r-1");
    assert!(result["headers"].get("authorization").is_none());
    assert!(!String::from_utf8_lossy(&echoed.body).contains("secret-token"));
}

#[test]
fn echo_drops_every_credential_header() {
    let server = Server::start_with(&["--faults"]);
    let credentials = [
        ("Authorization", "Bearer tok-1"),
        ("Proxy-Authorization", "Basic tok-2"),
        ("Cookie", "sid=tok-3"),
        ("X-Api-Key", "tok-4"),
        ("X-Auth-Token", "tok-5"),
        ("X-Session-Id", "tok-6"),
        ("X-Client-Secret", "tok-7"),
        ("X-My-Jwt", "tok-8"),
        ("X-Password", "tok-9"),
        ("X-Credential", "tok-10"),
    ];
    let mut headers = credentials.to_vec();
    headers.extend([("X-Request-Id", "r-2"), ("X-Tenant", "acme")]);
    let echoed = server.request("POST", "/faults/echo/a/api/users", &headers, b"");
    let shown = &echoed.json()["result"]["headers"];
    for (name, _) in credentials {
        assert!(
            shown.get(name.to_ascii_lowercase()).is_none(),
            "{name} echoed: {shown}"
        );
    }
    assert!(
        !String::from_utf8_lossy(&echoed.body).contains("tok-"),
        "{shown}"
    );
    assert_eq!(shown["x-request-id"], "r-2");
    assert_eq!(shown["x-tenant"], "acme");
    let named = &echoed.json()["result"]["credentialHeaders"];
    for (name, _) in credentials {
        let name = name.to_ascii_lowercase();
        assert!(
            named.as_array().unwrap().iter().any(|n| n == &name),
            "{name} not named in {named}"
        );
    }
}

#[test]
fn the_attempts_map_forgets_the_oldest_keys() {
    let server = Server::start_with(&["--faults"]);
    server.post_json("/faults/ok/first/api/users/count", "{}");
    let attempts = |key: &str| {
        server
            .request("GET", &format!("/faults/ok/{key}/attempts"), &[], b"")
            .json()["attempts"]
            .as_u64()
    };
    assert_eq!(attempts("first"), Some(1));
    for i in 0..1024 {
        server.post_json(&format!("/faults/ok/k{i}/api/users/count"), "{}");
    }
    assert_eq!(attempts("first"), Some(0), "the oldest key is forgotten");
    assert_eq!(attempts("k1023"), Some(1), "the newest key is kept");
}

#[test]
fn oversized_bodies_get_a_413_envelope_in_fault_routes_too() {
    let server = Server::start_with(&["--faults"]);
    let body = format!(r#"{{"query":"{}"}}"#, "a".repeat(70 * 1024));
    let response = server.request(
        "POST",
        "/faults/ok/a/api/users/count",
        &[
            ("Content-Type", "application/json"),
            ("Origin", "http://127.0.0.1:3000"),
        ],
        body.as_bytes(),
    );
    response.assert_error(413, "larger than");
    assert_eq!(
        response.header("access-control-allow-origin"),
        Some("http://127.0.0.1:3000")
    );
}
