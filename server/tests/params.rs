//! Parameter handling of the API, checked against the running server:
//! encodings, the `active` filter, and literal, case-insensitive search.

mod common;

use common::Server;
use serde_json::Value;

/// What the server should count, computed independently from the full list.
fn expected(users: &[Value], query: &str, active: Option<bool>) -> u64 {
    let needle = query.to_lowercase();
    users
        .iter()
        .filter(|u| active.is_none_or(|a| u["active"].as_bool() == Some(a)))
        .filter(|u| {
            let name = u["username"].as_str().unwrap_or_default().to_lowercase();
            let phone = u["phone"].as_str().unwrap_or_default().to_lowercase();
            name.contains(&needle) || phone.contains(&needle)
        })
        .count() as u64
}

fn form_encode(pairs: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (i, (key, value)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        for (j, part) in [key, value].iter().enumerate() {
            if j == 1 {
                out.push('=');
            }
            for byte in part.bytes() {
                if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
                    out.push(byte as char);
                } else {
                    out.push_str(&format!("%{byte:02X}"));
                }
            }
        }
    }
    out
}

fn count_of(response: common::Response) -> u64 {
    assert_eq!(
        response.status,
        200,
        "{}",
        String::from_utf8_lossy(&response.body)
    );
    assert_eq!(response.header("content-type"), Some("application/json"));
    let json = response.json();
    assert_eq!(json["status"], 200);
    json["result"]["totalUsers"].as_u64().expect("totalUsers")
}

#[test]
fn json_query_string_and_form_give_the_same_counts() {
    let server = Server::start();
    let total = server.count("{}");
    assert_eq!(total, 1000);
    let cases: &[&[(&str, &str)]] = &[
        &[],
        &[("active", "true")],
        &[("active", "false")],
        &[("query", "ana")],
        &[("query", "o'brien"), ("active", "true")],
        &[("query", "100%"), ("active", "all")],
        &[("query", "zoë")],
    ];
    for params in cases {
        let json = serde_json::to_string(
            &params
                .iter()
                .map(|(k, v)| (k.to_string(), Value::from(*v)))
                .collect::<serde_json::Map<_, _>>(),
        )
        .unwrap();
        let form = form_encode(params);
        let by_json = server.count(&json);
        let by_query = count_of(server.post_empty(&format!("/api/users/count?{form}")));
        let by_form = count_of(server.post_form("/api/users/count", &form));
        // The query string contradicts with valid values; body values
        // (given for both) win.
        let mut body: serde_json::Map<String, Value> = [("active", "all"), ("query", "")]
            .iter()
            .map(|(k, v)| (k.to_string(), Value::from(*v)))
            .collect();
        for (k, v) in params.iter() {
            body.insert(k.to_string(), Value::from(*v));
        }
        let merged = count_of(server.post_json(
            "/api/users/count?active=false&query=zzzz",
            &Value::Object(body).to_string(),
        ));
        assert_eq!((by_query, by_form), (by_json, by_json), "params {params:?}");
        assert_eq!(merged, by_json, "merged {params:?}");
        if !params.is_empty() {
            assert!(by_json < total, "filter {params:?} did not filter");
        }
    }
}

#[test]
fn query_string_params_apply_with_an_empty_body_of_any_declared_type() {
    let server = Server::start();
    let active = server.count(r#"{"active":"true"}"#);
    for content_type in [
        "application/json",
        "application/x-www-form-urlencoded",
        "text/plain",
    ] {
        let response = server.request(
            "POST",
            "/api/users/count?active=true",
            &[("Content-Type", content_type)],
            b"",
        );
        assert_eq!(count_of(response), active, "{content_type}");
    }
    let charset = server.request(
        "POST",
        "/api/users/count",
        &[("Content-Type", "application/json; charset=utf-8")],
        br#"{"active":"true"}"#,
    );
    assert_eq!(count_of(charset), active);
    // Without any content type the body is sniffed.
    let bare = server.request("POST", "/api/users/count", &[], br#"{"active":"true"}"#);
    assert_eq!(count_of(bare), active);
}

#[test]
fn active_values_partition_the_users() {
    let server = Server::start();
    let all = server.count(r#"{"active":"all"}"#);
    let yes = server.count(r#"{"active":"true"}"#);
    let no = server.count(r#"{"active":"false"}"#);
    assert_eq!(all, 1000);
    assert_eq!(yes + no, all);
    assert!(yes > no && no > 0, "about 70% active expected: {yes}/{no}");
    assert_eq!(server.count("{}"), all);
    assert_eq!(server.count(r#"{"active":null}"#), all);
    assert_eq!(server.count(r#"{"active":true}"#), yes);
    assert_eq!(server.count(r#"{"active":false}"#), no);
    let users = server.all_users();
    assert_eq!(yes, expected(&users, "", Some(true)));
}

#[test]
fn invalid_active_is_a_400_envelope_naming_it() {
    let server = Server::start();
    for body in [
        r#"{"active":"yes"}"#,
        r#"{"active":"TRUE"}"#,
        r#"{"active":1}"#,
        r#"{"active":["true"]}"#,
    ] {
        let message = server
            .post_json("/api/users/count", body)
            .assert_error(400, "active");
        assert!(
            message.contains("all") && message.contains("false"),
            "{message}"
        );
    }
    let message = server
        .post_empty("/api/users/count?active=maybe")
        .assert_error(400, "active");
    assert!(message.contains("maybe"), "{message}");
    server
        .post_form("/api/users/count", "active=1")
        .assert_error(400, "active");
    server
        .post_json("/api/users", r#"{"active":"on"}"#)
        .assert_error(400, "active");
}

#[test]
fn non_string_query_in_json_is_rejected() {
    let server = Server::start();
    for body in [
        r#"{"query":42}"#,
        r#"{"query":true}"#,
        r#"{"query":{}}"#,
        r#"{"query":["a"]}"#,
    ] {
        server
            .post_json("/api/users/count", body)
            .assert_error(400, "query");
        server
            .post_json("/api/users", body)
            .assert_error(400, "query");
    }
    assert_eq!(server.count(r#"{"query":null}"#), 1000);
}

#[test]
fn wildcards_quotes_and_backslashes_match_literally() {
    let server = Server::start();
    let users = server.all_users();
    assert_eq!(users.len(), 1000);
    for query in [
        "%",
        "_",
        "'",
        "\\",
        "100%",
        "x_%_x",
        "o'brien",
        "max_power",
        "50%_off",
        "back\\slash",
        "%_",
    ] {
        let body = serde_json::json!({ "query": query }).to_string();
        let got = server.count(&body);
        assert_eq!(got, expected(&users, query, None), "query {query:?}");
        assert!(got < 1000, "{query:?} acted as a wildcard");
    }
    // Every special character really occurs, so the checks above are not vacuous.
    for query in ["%", "_", "'", "\\"] {
        assert!(
            expected(&users, query, None) > 0,
            "no seeded user contains {query:?}"
        );
    }
    // A pattern that would match under LIKE semantics but not literally.
    assert_eq!(
        server.count(r#"{"query":"m_x"}"#),
        expected(&users, "m_x", None)
    );
    assert_eq!(expected(&users, "m_x", None), 0);
}

#[test]
fn sql_injection_attempts_match_nothing_and_do_no_harm() {
    let server = Server::start();
    for query in [
        "' OR 1=1 --",
        "'; DROP TABLE users; --",
        "\" OR \"\"=\"",
        "%' OR '1'='1",
    ] {
        let body = serde_json::json!({ "query": query }).to_string();
        assert_eq!(server.count(&body), 0, "{query:?}");
        let form = form_encode(&[("query", query)]);
        assert_eq!(count_of(server.post_form("/api/users/count", &form)), 0);
    }
    assert_eq!(server.count("{}"), 1000);
}

#[test]
fn search_is_case_insensitive_including_non_ascii() {
    let server = Server::start();
    let users = server.all_users();
    let lower = server.count(r#"{"query":"zoë"}"#);
    assert!(lower > 0);
    assert_eq!(server.count(r#"{"query":"ZOË"}"#), lower);
    assert_eq!(server.count(r#"{"query":"Zoë"}"#), lower);
    assert_eq!(lower, expected(&users, "zoë", None));
    // The seeded upper-case name is found by a lower-case query.
    let stored_upper = users.iter().any(|u| u["username"] == "ZOË.MÜLLER");
    assert!(stored_upper);
    assert!(server.count(r#"{"query":"zoë.müller"}"#) >= 1);
    assert_eq!(
        server.count(r#"{"query":"MARIA"}"#),
        expected(&users, "maria", None)
    );
    assert_eq!(
        server.count(r#"{"query":"ŁUKASZ","active":"false"}"#),
        expected(&users, "łukasz", Some(false))
    );
}

#[test]
fn query_matches_phone_numbers_too() {
    let server = Server::start();
    let users = server.all_users();
    let phone = users[41]["phone"].as_str().unwrap().to_owned();
    let body = serde_json::json!({ "query": phone }).to_string();
    assert_eq!(server.count(&body), 1);
    assert_eq!(server.count(r#"{"query":"+1-555-01"}"#), 1000);
    assert_eq!(
        server.count(r#"{"query":"-0142-"}"#),
        expected(&users, "-0142-", None)
    );
}

#[test]
fn unknown_params_are_ignored() {
    let server = Server::start();
    let active = server.count(r#"{"active":"true"}"#);
    assert_eq!(
        server.count(r#"{"active":"true","sortBy":"name","filters":{"x":[1]},"page":"abc"}"#),
        active
    );
    let response = server.post_empty("/api/users/count?active=true&utm_source=x&token=abc");
    assert_eq!(count_of(response), active);
}

#[test]
fn json_sent_as_a_form_is_refused_with_a_hint() {
    let server = Server::start();
    for body in [
        r#"{"active":"nope"}"#,
        r#"{"active":"true"}"#,
        "[1]",
        "  {}",
    ] {
        for path in ["/api/users/count", "/api/users"] {
            let message = server
                .post_form(path, body)
                .assert_error(400, "Content-Type: application/json");
            assert!(message.contains("form"), "{message}");
        }
    }
    // A real form still works, and so does a JSON body without a content type.
    assert_eq!(
        count_of(server.post_form("/api/users/count", "active=true")),
        server.count(r#"{"active":"true"}"#)
    );
}

#[test]
fn control_characters_in_query_are_refused_naming_it() {
    let server = Server::start();
    // JSON escapes, sent as they are.
    for text in [
        r"a\u0000b",
        r"a\u0001",
        r"\t",
        r"a\nb",
        r"\u007f",
        r"x\u0085",
    ] {
        let body = format!(r#"{{"query":"{text}"}}"#);
        let message = server
            .post_json("/api/users/count", &body)
            .assert_error(400, "\"query\"");
        assert!(message.contains("control character"), "{message}");
        server
            .post_json("/api/users", &body)
            .assert_error(400, "\"query\"");
    }
    for encoded in ["a%00", "a%00b", "%1F", "%7F", "%C2%85"] {
        server
            .post_empty(&format!("/api/users/count?query={encoded}"))
            .assert_error(400, "\"query\"");
        server
            .post_form("/api/users/count", &format!("query={encoded}"))
            .assert_error(400, "\"query\"");
    }
    // Other characters outside ASCII are text, not control characters.
    assert_eq!(server.count(r#"{"query":"zoë\u00a0"}"#), 0);
}

#[test]
fn an_invalid_value_is_refused_wherever_it_is_sent() {
    let server = Server::start();
    let long = "a".repeat(2001);
    for (path, body) in [
        ("/api/users/count?active=AAA", r#"{"active":"true"}"#),
        ("/api/users/count?active=true&active=AAA", "{}"),
        ("/api/users?active=yes", r#"{"active":false}"#),
    ] {
        server.post_json(path, body).assert_error(400, "\"active\"");
    }
    server
        .post_json(
            &format!("/api/users/count?query={long}"),
            r#"{"query":"ana"}"#,
        )
        .assert_error(400, "\"query\"");
    server
        .post_json("/api/users/count?query=a%00", r#"{"query":"ana"}"#)
        .assert_error(400, "\"query\"");
    server
        .post_json("/api/users?page=0", r#"{"page":2}"#)
        .assert_error(400, "\"page\"");
    server
        .post_form("/api/users?pageSize=501", "pageSize=5")
        .assert_error(400, "\"pageSize\"");
    // A valid value in the query string, replaced by the body's, is fine.
    assert_eq!(
        count_of(server.post_json("/api/users/count?active=false", r#"{"active":"true"}"#)),
        server.count(r#"{"active":"true"}"#)
    );
}

#[test]
fn a_json_body_of_whitespace_is_refused_but_an_empty_one_is_none() {
    let server = Server::start();
    for body in [" ", "\r\n", "\t \n"] {
        server
            .post_json("/api/users/count?active=true", body)
            .assert_error(400, "malformed JSON");
    }
    assert_eq!(
        count_of(server.post_json("/api/users/count?active=true", "")),
        server.count(r#"{"active":"true"}"#)
    );
    // Whitespace is no parameter at all in a form or an undeclared body.
    assert_eq!(count_of(server.post_form("/api/users/count", "  ")), 1000);
    assert_eq!(
        count_of(server.request("POST", "/api/users/count", &[], b" \n")),
        1000
    );
}
