//! The fault scenarios for hooks that change an attempt: answers that show
//! a client's hooks what each attempt sent and what a response carries.

use axum::http::{HeaderMap, HeaderName, HeaderValue};
use axum::response::Response;
use serde_json::json;

/// The scenarios, by name.
pub const SCENARIOS: [&str; 2] = ["request-ids", "response-headers"];

/// The answer of `scenario` to attempt `attempt` (1 for a key's first
/// request) that sent `headers`, or `None` for another scenario:
///
/// - `request-ids`: 503 with `Retry-After: 0` for the first two attempts,
///   then 200 (a count of 3); each body's `result.requestId` is the
///   attempt's `x-request-id` (`null` without one).
/// - `response-headers`: 200 (a count of 7) with `x-ratelimit-remaining: 41`,
///   a `set-cookie` and `x-echo` carrying the attempt's `Authorization`
///   back, which a client must not show its hooks.
pub fn answer(scenario: &str, attempt: u64, headers: &HeaderMap) -> Option<Response> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    Some(match scenario {
        "request-ids" => {
            let id = header("x-request-id");
            if attempt < 3 {
                let body = json!({ "status": 503, "result": { "error": "busy", "requestId": id } });
                with(
                    super::raw(503, "application/json", &body.to_string()),
                    &[("retry-after", "0")],
                )
            } else {
                let body = json!({ "status": 200, "result": { "totalUsers": 3, "requestId": id } });
                super::raw(200, "application/json", &body.to_string())
            }
        }
        "response-headers" => with(
            super::raw(
                200,
                "application/json",
                r#"{"status":200,"result":{"totalUsers":7}}"#,
            ),
            &[
                ("x-ratelimit-remaining", "41"),
                ("set-cookie", "sid=s3ss10n-c00k1e; HttpOnly"),
                ("x-echo", header("authorization").unwrap_or("")),
            ],
        ),
        _ => return None,
    })
}

/// `response` with `headers` added (a value a header cannot carry is left out).
fn with(mut response: Response, headers: &[(&'static str, &str)]) -> Response {
    for &(name, value) in headers {
        if let Ok(value) = HeaderValue::from_str(value) {
            let name = HeaderName::from_static(name);
            response.headers_mut().append(name, value);
        }
    }
    response
}
