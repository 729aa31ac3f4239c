//! `GET /openapi.json`, and the limits the document states, probed at their
//! edges on the running server.

mod common;

use common::Server;
use serde_json::Value;

fn document_on_disk() -> (String, Value) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/openapi.json");
    let text = std::fs::read_to_string(path).expect("openapi/openapi.json");
    let json = serde_json::from_str(&text).expect("the document is JSON");
    (text, json)
}

#[test]
fn the_document_is_served_as_json_with_cors() {
    let server = Server::start();
    let response = server.request(
        "GET",
        "/openapi.json",
        &[("Origin", "http://localhost:8080")],
        b"",
    );
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("application/json"));
    assert_eq!(
        response.header("access-control-allow-origin"),
        Some("http://localhost:8080")
    );
    assert_eq!(response.header("access-control-allow-credentials"), None);
    let (text, json) = document_on_disk();
    assert_eq!(String::from_utf8_lossy(&response.body), text);
    assert_eq!(json["openapi"], "3.1.0");

    let head = server.request("HEAD", "/openapi.json", &[], b"");
    assert_eq!(head.status, 200);
    assert_eq!(head.header("content-type"), Some("application/json"));
    assert!(head.body.is_empty());
}

#[test]
fn other_methods_on_the_document_are_405_envelopes() {
    let server = Server::start();
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        let response = server.request(method, "/openapi.json", &[], b"");
        response.assert_error(405, "use GET, HEAD");
        assert_eq!(response.header("allow"), Some("GET, HEAD"));
    }
    // The operations still say POST.
    let response = server.request("GET", "/api/users", &[], b"");
    response.assert_error(405, "use POST");
    assert_eq!(response.header("allow"), Some("POST"));
}

#[test]
fn the_documented_limits_are_the_servers() {
    let (_, doc) = document_on_disk();
    let schemas = &doc["components"]["schemas"];
    let limit = |schema: &str, key: &str| {
        schemas[schema][key]
            .as_u64()
            .unwrap_or_else(|| panic!("{schema}.{key} in the document"))
    };
    let server = Server::start();

    for (name, schema) in [("page", "Page"), ("pageSize", "PageSize")] {
        assert_eq!(limit(schema, "minimum"), 1, "{schema}");
        let max = limit(schema, "maximum");
        let ok = server.post_json("/api/users", &format!(r#"{{"{name}":{max}}}"#));
        assert_eq!(ok.status, 200, "{name} = {max}");
        assert_eq!(ok.json()["result"][name], max);
        server
            .post_json("/api/users", &format!(r#"{{"{name}":{}}}"#, max + 1))
            .assert_error(400, &format!("\"{name}\""));
        server
            .post_json("/api/users", &format!(r#"{{"{name}":0}}"#))
            .assert_error(400, &format!("\"{name}\""));
    }

    let max_query = limit("Query", "maxLength") as usize;
    let at = format!(r#"{{"query":"{}"}}"#, "é".repeat(max_query));
    assert_eq!(server.count(&at), 0);
    let over = format!(r#"{{"query":"{}"}}"#, "é".repeat(max_query + 1));
    server
        .post_json("/api/users/count", &over)
        .assert_error(400, "\"query\"");

    let enum_values: Vec<&str> = schemas["Active"]["enum"]
        .as_array()
        .expect("Active.enum")
        .iter()
        .map(|v| v.as_str().expect("a string"))
        .collect();
    assert_eq!(enum_values, ["all", "true", "false"]);
    for value in enum_values {
        server.count(&format!(r#"{{"active":"{value}"}}"#));
    }
}

#[test]
fn the_demo_page_links_the_document() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../www/index.html");
    let page = std::fs::read_to_string(path).expect("www/index.html");
    assert!(page.contains(r#"<a href="/openapi.json">"#), "no link");
}
