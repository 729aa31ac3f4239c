//! The OpenAPI document's examples (openapi/openapi.json) decode into the
//! crate's model: request bodies into `CountParams` / `ListParams`, answers
//! into `Envelope<Count>`, and the list's and the errors' answers into
//! `Envelope<T>` with the result types a caller writes for them.

#![cfg(not(target_arch = "wasm32"))]

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;
use user_management_client::{Active, Count, CountParams, Envelope, ListParams};

/// The list's result as a caller names it for `list_users`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct UserPage {
    users: Vec<User>,
    total_users: u64,
    page: u64,
    page_size: u64,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)] // Decoding is the test; not every field is read back.
struct User {
    id: u64,
    username: String,
    phone: String,
    active: bool,
    created_at: String,
}

/// An error envelope's result.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ErrorResult {
    error: String,
}

fn document() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let text = std::fs::read_to_string(path).expect("openapi/openapi.json");
    serde_json::from_str(&text).expect("the document is JSON")
}

/// Follows a local `$ref` (`#/components/...`).
fn resolve<'a>(doc: &'a Value, value: &'a Value) -> &'a Value {
    match value["$ref"].as_str() {
        Some(reference) => {
            let pointer = reference.strip_prefix('#').expect("a local $ref");
            doc.pointer(pointer)
                .unwrap_or_else(|| panic!("{reference} is missing"))
        }
        None => value,
    }
}

/// The example values of a media type object: `example` and every
/// `examples.*.value`, each with a name for messages.
fn examples(media: &Value, name: &str) -> Vec<(String, Value)> {
    let mut found = Vec::new();
    if let Some(example) = media.get("example") {
        found.push((name.to_owned(), example.clone()));
    }
    if let Some(named) = media.get("examples").and_then(Value::as_object) {
        for (key, example) in named {
            found.push((format!("{name} {key}"), example["value"].clone()));
        }
    }
    found
}

fn decode<T: DeserializeOwned>(name: &str, value: &Value) -> T {
    serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("example {name} does not decode: {e}\n{value}"))
}

fn operation<'a>(doc: &'a Value, path: &str) -> &'a Value {
    &doc["paths"][path]["post"]
}

/// Every request-body example of an operation, in both media types.
fn body_examples(doc: &Value, path: &str) -> Vec<(String, Value)> {
    let content = &operation(doc, path)["requestBody"]["content"];
    let mut found = Vec::new();
    for media in ["application/json", "application/x-www-form-urlencoded"] {
        found.extend(examples(&content[media], &format!("{path} {media}")));
    }
    found
}

/// Every example of one response of an operation.
fn response_examples(doc: &Value, path: &str, status: &str) -> Vec<(String, Value)> {
    let response = resolve(doc, &operation(doc, path)["responses"][status]);
    examples(
        &response["content"]["application/json"],
        &format!("{path} {status}"),
    )
}

#[test]
fn count_request_examples_decode_into_count_params() {
    let doc = document();
    let found = body_examples(&doc, "/api/users/count");
    assert!(found.len() >= 4, "{found:?}");
    for (name, value) in &found {
        let params: CountParams = decode(name, value);
        // What decoded is what the example says, field by field.
        let active = value.get("active").filter(|v| !v.is_null());
        match (active, params.active) {
            (None, None) => {}
            (Some(Value::Bool(b)), Some(decoded)) => assert_eq!(decoded, Active::from(*b)),
            (Some(Value::String(s)), Some(decoded)) => assert_eq!(decoded.as_str(), s),
            other => panic!("{name}: active {other:?}"),
        }
        assert_eq!(
            params.query.as_deref(),
            value.get("query").and_then(Value::as_str),
            "{name}"
        );
    }
}

#[test]
fn list_request_examples_decode_into_list_params() {
    let doc = document();
    let found = body_examples(&doc, "/api/users");
    assert!(found.len() >= 4, "{found:?}");
    for (name, value) in &found {
        let params: ListParams = decode(name, value);
        assert_eq!(
            params.page,
            value.get("page").and_then(Value::as_u64),
            "{name}"
        );
        assert_eq!(
            params.page_size,
            value.get("pageSize").and_then(Value::as_u64),
            "{name}"
        );
        assert!(params.extra.is_empty(), "{name}: {:?}", params.extra);
    }
}

#[test]
fn query_string_parameter_examples_decode_into_list_params() {
    let doc = document();
    let mut query = serde_json::Map::new();
    for parameter in operation(&doc, "/api/users")["parameters"]
        .as_array()
        .expect("parameters")
    {
        let parameter = resolve(&doc, parameter);
        assert_eq!(parameter["in"], "query");
        let name = parameter["name"].as_str().expect("name");
        query.insert(name.to_owned(), parameter["example"].clone());
    }
    assert_eq!(query.len(), 4, "{query:?}");
    let params: ListParams = decode("/api/users query string", &Value::Object(query));
    assert!(params.query.is_some() && params.active.is_some());
    assert!(params.page.is_some() && params.page_size.is_some());
}

#[test]
fn answer_examples_decode_into_envelopes() {
    let doc = document();
    let counts = response_examples(&doc, "/api/users/count", "200");
    assert_eq!(counts.len(), 1);
    for (name, value) in &counts {
        let envelope: Envelope<Count> = decode(name, value);
        assert_eq!(envelope.status, 200, "{name}");
    }
    let lists = response_examples(&doc, "/api/users", "200");
    assert_eq!(lists.len(), 2);
    for (name, value) in &lists {
        let envelope: Envelope<UserPage> = decode(name, value);
        assert_eq!(envelope.status, 200, "{name}");
        let page = envelope.result;
        assert!(page.users.len() as u64 <= page.page_size, "{name}");
        assert!(page.page >= 1 && page.total_users >= page.users.len() as u64);
    }
}

#[test]
fn error_examples_decode_into_error_envelopes() {
    let doc = document();
    let mut seen = 0;
    for path in ["/api/users/count", "/api/users"] {
        let responses = operation(&doc, path)["responses"]
            .as_object()
            .expect("responses");
        for status in responses.keys().filter(|status| *status != "200") {
            let found = response_examples(&doc, path, status);
            assert!(!found.is_empty(), "{path} {status} has no example");
            for (name, value) in &found {
                let envelope: Envelope<ErrorResult> = decode(name, value);
                assert_eq!(envelope.status.to_string(), *status, "{name}");
                assert!(!envelope.result.error.is_empty(), "{name}");
                seen += 1;
            }
        }
    }
    assert!(seen >= 10, "{seen} error examples");
}
