//! The `echo-auth-*` fault scenarios: a hostile server that echoes the
//! caller's `Authorization` token back in each form a client must still
//! recognise it in, for the client's redaction tests.

use serde_json::json;

/// The scenarios, by name.
pub const SCENARIOS: [&str; 6] = [
    "echo-auth-escaped",
    "echo-auth-every-char",
    "echo-auth-percent",
    "echo-auth-count",
    "echo-auth-result",
    "echo-auth-cut",
];

/// The status, content type and body of `scenario` for the header value
/// `authorization` (its token: what follows the scheme), or `None` for
/// another scenario.
pub fn answer(scenario: &str, authorization: &str) -> Option<(u16, &'static str, String)> {
    let token = authorization
        .split_once(' ')
        .map_or(authorization, |(_, token)| token);
    let rejected = |echo: String| {
        let body = format!(r#"{{"status":401,"result":{{"echo":"{echo}","why":"expired"}}}}"#);
        (401, "application/json", body)
    };
    Some(match scenario {
        // JSON-escaped with `\/` and `+` as `\u002B`, as some encoders do.
        "echo-auth-escaped" => {
            let quoted = json!(token).to_string();
            let inner = quoted.get(1..quoted.len() - 1).unwrap_or_default();
            rejected(inner.replace('/', "\\/").replace('+', "\\u002B"))
        }
        "echo-auth-every-char" => rejected(
            token
                .encode_utf16()
                .map(|unit| format!("\\u{unit:04x}"))
                .collect(),
        ),
        "echo-auth-percent" => rejected(format!("https://id.example/?t={}", percent(token))),
        "echo-auth-count" => (
            200,
            "application/json",
            json!({ "status": 200, "result": { "totalUsers": token } }).to_string(),
        ),
        // A count's result that is a text: 50 characters, then the token,
        // so that a message quoting its first 64 characters cuts the token.
        "echo-auth-result" => (
            200,
            "application/json",
            json!({ "status": 200, "result": format!("{}{token}", "x".repeat(50)) }).to_string(),
        ),
        // A text body whose 65,536-character cut falls inside the token.
        "echo-auth-cut" => (
            500,
            "text/plain",
            format!("{}{token} is not valid", "#".repeat(65_536 - 20)),
        ),
        _ => return None,
    })
}

/// `encodeURIComponent`.
fn percent(text: &str) -> String {
    text.bytes()
        .map(|byte| {
            if byte.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&byte) {
                char::from(byte).to_string()
            } else {
                format!("%{byte:02X}")
            }
        })
        .collect()
}
