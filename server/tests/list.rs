//! The list operation: response shape, paging bounds and ordering.

mod common;

use common::Server;
use serde_json::Value;

fn list(server: &Server, body: &str) -> Value {
    let response = server.post_json("/api/users", body);
    assert_eq!(
        response.status,
        200,
        "{}",
        String::from_utf8_lossy(&response.body)
    );
    assert_eq!(response.header("content-type"), Some("application/json"));
    let json = response.json();
    assert_eq!(json["status"], 200);
    json["result"].clone()
}

fn ids(result: &Value) -> Vec<u64> {
    result["users"]
        .as_array()
        .expect("users array")
        .iter()
        .map(|u| u["id"].as_u64().expect("id"))
        .collect()
}

#[test]
fn defaults_and_user_shape() {
    let server = Server::start();
    let result = list(&server, "{}");
    assert_eq!(result["totalUsers"], 1000);
    assert_eq!(result["page"], 1);
    assert_eq!(result["pageSize"], 20);
    assert_eq!(ids(&result), (1..=20).collect::<Vec<_>>());
    let user = &result["users"][0];
    let keys: Vec<&str> = user
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys.len(), 5, "{user}");
    assert!(
        user["username"].is_string() && user["phone"].is_string() && user["active"].is_boolean()
    );
    let created = user["createdAt"].as_str().unwrap();
    assert_eq!(created.len(), 20, "{created}");
    assert!(created.starts_with("2023-") && created.ends_with('Z') && &created[10..11] == "T");
    // An empty body behaves like an empty object.
    assert_eq!(
        ids(&server.post_empty("/api/users").json()["result"]),
        ids(&result)
    );
}

#[test]
fn page_bounds_are_validated() {
    let server = Server::start();
    for (body, name) in [
        (r#"{"page":0}"#, "page"),
        (r#"{"page":-1}"#, "page"),
        (r#"{"page":1.5}"#, "page"),
        (r#"{"page":"first"}"#, "page"),
        (r#"{"pageSize":0}"#, "pageSize"),
        (r#"{"pageSize":501}"#, "pageSize"),
        (r#"{"pageSize":"many"}"#, "pageSize"),
    ] {
        server.post_json("/api/users", body).assert_error(400, name);
    }
    server
        .post_empty("/api/users?page=0")
        .assert_error(400, "page");
    server
        .post_form("/api/users", "pageSize=501")
        .assert_error(400, "pageSize");
    let result = list(&server, r#"{"pageSize":500}"#);
    assert_eq!(ids(&result).len(), 500);
    let result = list(&server, r#"{"page":"2","pageSize":"50"}"#);
    assert_eq!(ids(&result), (51..=100).collect::<Vec<_>>());
    assert_eq!(
        (result["page"].clone(), result["pageSize"].clone()),
        (2.into(), 50.into())
    );
    let by_query = server.post_empty("/api/users?page=3&pageSize=10").json();
    assert_eq!(ids(&by_query["result"]), (21..=30).collect::<Vec<_>>());
}

#[test]
fn last_page_is_partial_and_past_the_end_is_empty() {
    let server = Server::start();
    let last = list(&server, r#"{"page":4,"pageSize":300}"#);
    assert_eq!(ids(&last), (901..=1000).collect::<Vec<_>>());
    let past = list(&server, r#"{"page":5,"pageSize":300}"#);
    assert_eq!(past["users"], Value::Array(vec![]));
    assert_eq!(past["totalUsers"], 1000);
    let far = list(&server, r#"{"page":9007199254740991,"pageSize":500}"#);
    assert_eq!(far["users"], Value::Array(vec![]));
}

#[test]
fn users_are_ordered_by_id_with_ascending_creation_times() {
    let server = Server::start();
    let users = server.all_users();
    let ids: Vec<u64> = users.iter().map(|u| u["id"].as_u64().unwrap()).collect();
    assert_eq!(ids, (1..=1000).collect::<Vec<_>>());
    let created: Vec<&str> = users
        .iter()
        .map(|u| u["createdAt"].as_str().unwrap())
        .collect();
    assert!(created.windows(2).all(|w| w[0] < w[1]));
    assert!(created[999].starts_with("2025-"));
}

#[test]
fn filtered_pages_match_the_count() {
    let server = Server::start();
    for filter in [
        r#""active":"false""#,
        r#""query":"ana""#,
        r#""query":"_","active":"true""#,
    ] {
        let count = server.count(&format!("{{{filter}}}"));
        let result = list(&server, &format!(r#"{{{filter},"pageSize":500}}"#));
        assert_eq!(result["totalUsers"], count, "{filter}");
        let users = result["users"].as_array().unwrap();
        assert_eq!(users.len() as u64, count.min(500));
        let ids = ids(&result);
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        if filter.contains("false") {
            assert!(users.iter().all(|u| u["active"] == false));
        }
        if filter.contains("ana") {
            assert!(users.iter().all(|u| {
                u["username"]
                    .as_str()
                    .unwrap()
                    .to_lowercase()
                    .contains("ana")
            }));
        }
    }
}

/// Conformance finding: a JSON number with a zero fraction is an integer in
/// JSON Schema and in JavaScript (`Number.isInteger(29290.0)`), so `page`
/// and `pageSize` take it as that integer.
#[test]
fn integral_json_numbers_are_integers() {
    let server = Server::start();
    let result = list(&server, r#"{"page":29290.0,"pageSize":140.0}"#);
    assert_eq!(
        (result["page"].clone(), result["pageSize"].clone()),
        (29290.into(), 140.into())
    );
    assert_eq!(result["users"], Value::Array(vec![]));
    let result = list(&server, r#"{"page":2e0,"pageSize":1.0e1}"#);
    assert_eq!(ids(&result), (11..=20).collect::<Vec<_>>());
    let result = list(&server, r#"{"page":9007199254740991.0,"pageSize":500.0}"#);
    assert_eq!(result["page"], 9_007_199_254_740_991_u64);
    for (body, name) in [
        (r#"{"page":2.5}"#, "\"page\""),
        (r#"{"page":0.0}"#, "\"page\""),
        (r#"{"page":-0.0}"#, "\"page\""),
        (r#"{"page":-3.0}"#, "\"page\""),
        (r#"{"page":1e300}"#, "\"page\""),
        (r#"{"pageSize":500.5}"#, "\"pageSize\""),
        (r#"{"pageSize":501.0}"#, "\"pageSize\""),
    ] {
        server.post_json("/api/users", body).assert_error(400, name);
    }
}

/// `page` stops at 2^53 - 1, the largest integer every JSON implementation
/// (JavaScript's numbers) carries exactly, so the echoed page is exact.
#[test]
fn page_stops_at_the_largest_exact_json_integer() {
    let server = Server::start();
    for body in [
        r#"{"page":9007199254740992}"#,
        r#"{"page":"9007199254740992"}"#,
        r#"{"page":9223372036854775807}"#,
        r#"{"page":18446744073709551616}"#,
    ] {
        let message = server
            .post_json("/api/users", body)
            .assert_error(400, "\"page\"");
        assert!(message.contains("from 1 to 9007199254740991"), "{message}");
    }
    server
        .post_empty("/api/users?page=9007199254740992")
        .assert_error(400, "page");
    let result = list(&server, r#"{"page":"9007199254740991"}"#);
    assert_eq!(result["page"], 9_007_199_254_740_991_u64);
}

/// Numeric strings are decimal digits only (leading zeros allowed), in JSON
/// strings and in the query string and form alike.
#[test]
fn numeric_strings_are_digits_only() {
    let server = Server::start();
    let result = list(&server, r#"{"page":"002","pageSize":"010"}"#);
    assert_eq!(ids(&result), (11..=20).collect::<Vec<_>>());
    for bad in ["+2", "-0", " 2", "2 ", "2.0", "0x2", "٢", ""] {
        let json = serde_json::json!({ "page": bad }).to_string();
        server
            .post_json("/api/users", &json)
            .assert_error(400, "\"page\"");
        let encoded: String = form_urlencoded::byte_serialize(bad.as_bytes()).collect();
        server
            .post_form("/api/users", &format!("pageSize={encoded}"))
            .assert_error(400, "\"pageSize\"");
    }
}
