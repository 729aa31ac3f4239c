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
