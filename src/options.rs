//! The rules for client and call options (the contract's `ClientOptions`
//! and `CallOptions`): the base URL, header names and values, and the
//! option values the JS layer reads. Plain Rust, unit-tested natively.

use std::time::Duration;

use crate::error::Error;
use crate::model::{Credentials, ParamsIn};
use crate::value::{quoted, Value};

/// The default `timeoutMs`: ten seconds per attempt.
pub const DEFAULT_TIMEOUT_MS: u32 = 10_000;
/// The default `retries`: two more attempts after the first.
pub const DEFAULT_RETRIES: u32 = 2;
/// `setTimeout` cannot wait longer than 2^31 - 1 ms (it fires at once
/// instead), so a longer timeout is clamped to this, about 24.8 days.
pub const MAX_TIMER_MS: u32 = 2_147_483_647;

/// The keys a client's options object may have.
pub const CLIENT_KEYS: [&str; 8] = [
    "baseUrl",
    "headers",
    "paramsIn",
    "timeoutMs",
    "retries",
    "credentials",
    "fetch",
    "hooks",
];
/// The keys a `hooks` object may have.
pub const HOOK_KEYS: [&str; 3] = ["beforeRequest", "afterResponse", "beforeRetry"];
/// The keys a call's options object may have.
pub const CALL_KEYS: [&str; 3] = ["signal", "timeoutMs", "headers"];

/// `paramsIn`: `"body"`, `"query"` or `"form"`.
pub fn params_in(value: &Value) -> Result<ParamsIn, Error> {
    match value {
        Value::Undefined => Ok(ParamsIn::default()),
        Value::Str(s) if s == "body" => Ok(ParamsIn::Body),
        Value::Str(s) if s == "query" => Ok(ParamsIn::Query),
        Value::Str(s) if s == "form" => Ok(ParamsIn::Form),
        other => Err(Error::invalid(
            "paramsIn",
            "\"body\", \"query\" or \"form\"",
            &other.shown(),
        )),
    }
}

/// `credentials`: `None` leaves the platform default (`"same-origin"`).
pub fn credentials(value: &Value) -> Result<Option<Credentials>, Error> {
    match value {
        Value::Undefined => Ok(None),
        Value::Str(s) if s == "omit" => Ok(Some(Credentials::Omit)),
        Value::Str(s) if s == "same-origin" => Ok(Some(Credentials::SameOrigin)),
        Value::Str(s) if s == "include" => Ok(Some(Credentials::Include)),
        other => Err(Error::invalid(
            "credentials",
            "\"omit\", \"same-origin\" or \"include\"",
            &other.shown(),
        )),
    }
}

/// `timeoutMs`: finite and >= 0, `0` meaning none. `Ok(None)` when not
/// given. A fraction of a millisecond rounds up (so it never becomes "none"),
/// and more than [`MAX_TIMER_MS`] is cut to it.
pub fn timeout_ms(value: &Value) -> Result<Option<u32>, Error> {
    match value {
        Value::Undefined => Ok(None),
        Value::Number(n) if n.is_finite() && *n >= 0.0 => {
            Ok(Some(n.ceil().min(f64::from(MAX_TIMER_MS)) as u32))
        }
        other => Err(Error::invalid(
            "timeoutMs",
            "a finite number >= 0 (0 means no timeout)",
            &other.shown(),
        )),
    }
}

/// A timeout as the timer takes it: whole milliseconds, a fraction
/// rounded up (so it never becomes "none"), at most [`MAX_TIMER_MS`];
/// 0 (none) only for [`Duration::ZERO`].
pub fn duration_ms(timeout: Duration) -> u32 {
    // In u64: a u128 division would add its runtime routine to the `.wasm`.
    let fraction = u64::from(timeout.subsec_nanos().div_ceil(1_000_000));
    let ms = timeout
        .as_secs()
        .saturating_mul(1_000)
        .saturating_add(fraction);
    u32::try_from(ms).unwrap_or(MAX_TIMER_MS).min(MAX_TIMER_MS)
}

/// `retries`: a whole number >= 0.
pub fn retries(value: &Value) -> Result<u32, Error> {
    match value {
        Value::Undefined => Ok(DEFAULT_RETRIES),
        Value::Number(n) if value.as_integer().is_some() && *n >= 0.0 => {
            Ok(n.min(u32::MAX as f64) as u32)
        }
        other => Err(Error::invalid(
            "retries",
            "a whole number >= 0",
            &other.shown(),
        )),
    }
}

/// An option key that is not in `allowed`: a typo such as `timeout` for
/// `timeoutMs` is refused rather than silently ignored.
pub fn check_option_key(key: &str, allowed: &[&str]) -> Result<(), Error> {
    if allowed.contains(&key) {
        return Ok(());
    }
    let message = format!(
        "unknown option {}; the options are {}",
        quoted(key),
        allowed.join(", ")
    );
    Err(Error::validation(key, message))
}

/// The first checks on `baseUrl`, before the platform's `URL` parses it: an
/// absolute `http:` / `https:` URL without query, fragment or credentials.
/// (`fetch` refuses URLs that carry credentials, and the message must not
/// repeat them.)
pub fn check_base_url(value: &Value) -> Result<&str, Error> {
    let url = match value {
        Value::Str(s) => s.as_str(),
        other => {
            return Err(Error::invalid(
                "baseUrl",
                "an absolute http: or https: URL",
                &other.shown(),
            ))
        }
    };
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        url.get(8..)
    } else if lower.starts_with("http://") {
        url.get(7..)
    } else {
        None
    };
    let Some(rest) = rest else {
        return Err(Error::invalid(
            "baseUrl",
            "an absolute http: or https: URL",
            &value.shown(),
        ));
    };
    let authority = rest.split('/').next().unwrap_or("");
    if authority.is_empty() {
        return Err(Error::invalid(
            "baseUrl",
            "a URL with a host",
            &value.shown(),
        ));
    }
    if authority.contains('@') {
        return Err(Error::validation(
            "baseUrl",
            "baseUrl must not carry credentials (user:password@); send them in headers",
        ));
    }
    if url.contains(['?', '#']) {
        return Err(Error::invalid(
            "baseUrl",
            "a URL without query (?) or fragment (#)",
            &value.shown(),
        ));
    }
    Ok(url)
}

/// Joins the platform-normalised base URL and an operation's path with
/// exactly one `/`.
pub fn join(base_href: &str, path: &str) -> String {
    format!(
        "{}/{}",
        base_href.trim_end_matches('/'),
        path.trim_start_matches('/')
    )
}

/// A header name must be an HTTP token (RFC 9110 §5.6.2).
pub fn check_header_name(name: &str) -> Result<(), Error> {
    let is_tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    if !name.is_empty() && name.bytes().all(is_tchar) {
        return Ok(());
    }
    Err(Error::validation(
        "headers",
        format!("header name {} is not an HTTP token", quoted(name)),
    ))
}

/// A header value: no CR, LF or NUL and nothing beyond Latin-1. The message
/// names the header but never shows the value: it may be a credential.
pub fn check_header_value(name: &str, value: &str) -> Result<(), Error> {
    let bad = value
        .chars()
        .any(|c| c == '\r' || c == '\n' || c == '\0' || c as u32 > 0xFF);
    if !bad {
        return Ok(());
    }
    Err(Error::validation(
        "headers",
        format!(
            "the value of header {} has CR, LF, NUL or a character beyond Latin-1",
            quoted(name)
        ),
    ))
}

/// Every header of a list: names HTTP tokens, values Latin-1 without CR,
/// LF or NUL.
pub fn check_headers(headers: &[(String, String)]) -> Result<(), Error> {
    for (name, value) in headers {
        check_header_name(name)?;
        check_header_value(name, value)?;
    }
    Ok(())
}

/// The headers a request sends: the client's, the call's over them, then
/// `Accept: application/json` and the `Content-Type` of `params_in`.
pub fn request_headers(
    client: &[(String, String)],
    call: &[(String, String)],
    params_in: ParamsIn,
) -> Vec<(String, String)> {
    let mut fixed = vec![("Accept".to_string(), "application/json".to_string())];
    if let Some(content_type) = params_in.content_type() {
        fixed.push(("Content-Type".into(), content_type.into()));
    }
    merge_headers(&merge_headers(client, call), &fixed)
}

/// `over` merged over `base`: a name in `over` replaces the same name
/// (case-insensitively) in `base`.
pub fn merge_headers(
    base: &[(String, String)],
    over: &[(String, String)],
) -> Vec<(String, String)> {
    let mut merged: Vec<(String, String)> = base
        .iter()
        .filter(|(name, _)| !over.iter().any(|(o, _)| o.eq_ignore_ascii_case(name)))
        .cloned()
        .collect();
    merged.extend(over.iter().cloned());
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::Str(v.into())
    }

    #[test]
    fn base_url_rules() {
        for ok in [
            "http://127.0.0.1:8080",
            "https://api.example.com/",
            "HTTP://x/prefix",
            "https://x/a/b//",
        ] {
            assert!(check_base_url(&s(ok)).is_ok(), "{ok}");
        }
        for bad in [
            "ftp://x",
            "//x",
            "x.com",
            "",
            "http://",
            "http:///path",
            "http://x/?a=1",
            "http://x/#top",
            "javascript:alert(1)",
        ] {
            let err = check_base_url(&s(bad)).unwrap_err();
            assert_eq!(err.param(), Some("baseUrl"), "{bad}");
        }
        let err = check_base_url(&s("http://me:hunter2@x/")).unwrap_err();
        assert!(!err.message().contains("hunter2"));
        assert!(check_base_url(&Value::Number(1.0)).is_err());
        assert!(check_base_url(&Value::Undefined).is_err());
    }

    #[test]
    fn joins_with_exactly_one_slash() {
        assert_eq!(join("http://h:1/", "/api/users"), "http://h:1/api/users");
        assert_eq!(
            join("http://h/p", "/api/users/count"),
            "http://h/p/api/users/count"
        );
        assert_eq!(join("http://h/p/", "/api/users"), "http://h/p/api/users");
        assert_eq!(join("http://h/p///", "api/users"), "http://h/p/api/users");
    }

    #[test]
    fn timeouts() {
        assert_eq!(timeout_ms(&Value::Undefined).ok(), Some(None));
        assert_eq!(timeout_ms(&Value::Number(0.0)).ok(), Some(Some(0)));
        assert_eq!(timeout_ms(&Value::Number(0.001)).ok(), Some(Some(1)));
        assert_eq!(
            timeout_ms(&Value::Number(1e12)).ok(),
            Some(Some(MAX_TIMER_MS))
        );
        for bad in [
            Value::Number(-1.0),
            Value::Number(f64::NAN),
            Value::Number(f64::INFINITY),
            s("5"),
            Value::Null,
        ] {
            let err = timeout_ms(&bad).unwrap_err();
            assert_eq!(err.param(), Some("timeoutMs"));
        }
    }

    #[test]
    fn durations_become_timer_milliseconds() {
        assert_eq!(duration_ms(Duration::ZERO), 0);
        assert_eq!(duration_ms(Duration::from_nanos(1)), 1);
        assert_eq!(duration_ms(Duration::from_micros(1_500)), 2);
        assert_eq!(duration_ms(Duration::from_secs(5)), 5_000);
        assert_eq!(duration_ms(Duration::from_secs(30 * 86_400)), MAX_TIMER_MS);
        assert_eq!(duration_ms(Duration::MAX), MAX_TIMER_MS);
    }

    #[test]
    fn header_lists_are_checked_whole() {
        let pair = |n: &str, v: &str| (n.to_string(), v.to_string());
        assert!(check_headers(&[pair("X-A", "1"), pair("Authorization", "Bearer x")]).is_ok());
        let err = check_headers(&[pair("X-A", "1"), pair("x", "a\r\nInjected: 1")]).unwrap_err();
        assert_eq!(err.param(), Some("headers"));
        assert!(check_headers(&[pair("bad name", "x")]).is_err());
    }

    #[test]
    fn retries_are_whole_and_not_negative() {
        assert_eq!(retries(&Value::Undefined).ok(), Some(DEFAULT_RETRIES));
        assert_eq!(retries(&Value::Number(0.0)).ok(), Some(0));
        assert_eq!(retries(&Value::Number(5.0)).ok(), Some(5));
        for bad in [
            Value::Number(-1.0),
            Value::Number(1.5),
            Value::Number(f64::NAN),
            s("2"),
        ] {
            assert!(retries(&bad).is_err());
        }
    }

    #[test]
    fn enums() {
        assert_eq!(params_in(&s("form")).ok(), Some(ParamsIn::Form));
        assert!(params_in(&s("json")).is_err());
        assert_eq!(
            credentials(&s("include")).ok(),
            Some(Some(Credentials::Include))
        );
        assert_eq!(credentials(&Value::Undefined).ok(), Some(None));
        assert!(credentials(&s("all")).is_err());
    }

    #[test]
    fn unknown_option_keys_are_named() {
        assert!(check_option_key("timeoutMs", &CLIENT_KEYS).is_ok());
        let err = check_option_key("timeout", &CLIENT_KEYS).unwrap_err();
        assert_eq!(err.param(), Some("timeout"));
        assert!(err.message().contains("timeoutMs"));
    }

    #[test]
    fn merges_headers_case_insensitively() {
        let pair = |n: &str, v: &str| (n.to_string(), v.to_string());
        let base = [pair("Authorization", "a"), pair("X-Keep", "k")];
        let over = [pair("authorization", "b"), pair("X-New", "n")];
        assert_eq!(
            merge_headers(&base, &over),
            vec![
                pair("X-Keep", "k"),
                pair("authorization", "b"),
                pair("X-New", "n")
            ]
        );
    }

    #[test]
    fn requests_send_accept_and_their_content_type_last() {
        let pair = |n: &str, v: &str| (n.to_string(), v.to_string());
        let client = [pair("accept", "text/html"), pair("X-A", "1")];
        assert_eq!(
            request_headers(&client, &[pair("x-a", "2")], ParamsIn::Body),
            vec![
                pair("x-a", "2"),
                pair("Accept", "application/json"),
                pair("Content-Type", "application/json")
            ]
        );
        assert_eq!(
            request_headers(&[], &[], ParamsIn::Query),
            vec![pair("Accept", "application/json")]
        );
    }

    #[test]
    fn header_rules() {
        assert!(check_header_name("X-Request-Id").is_ok());
        for bad in ["", "a b", "x:y", "é", "a\r\nb"] {
            assert!(check_header_name(bad).is_err(), "{bad:?}");
        }
        assert!(check_header_value("a", "Bearer abc").is_ok());
        assert!(check_header_value("a", "café").is_ok());
        for bad in ["a\rb", "a\nb", "a\0b", "☃", "\u{FFFD}"] {
            let err = check_header_value("authorization", &format!("Bearer {bad}")).unwrap_err();
            assert_eq!(err.param(), Some("headers"));
            assert!(!err.message().contains("Bearer"));
        }
    }
}
