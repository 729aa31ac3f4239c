//! The rules for client and call options (the contract's `ClientOptions`
//! and `CallOptions`): the base URL, header names and values, and the
//! option values the JS layer reads. Plain Rust, unit-tested natively.

use std::time::Duration;

use crate::error::{Error, ErrorKind};
use crate::model::{Credentials, ParamsIn};
use crate::platform::number;
use crate::rules::secrets::find;
use crate::rules::value::{quoted, Value};
use crate::wire::{self, Wire};

/// The default timeout: ten seconds per attempt.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// The default `retries`: two more attempts after the first.
pub const DEFAULT_RETRIES: u32 = 2;
/// The default body limit (`max_body_bytes`): 64 MiB, room for a list of
/// 100,000 users.
pub const DEFAULT_MAX_BODY_BYTES: u64 = 64 * 1024 * 1024;
/// `setTimeout` cannot wait longer than 2^31 - 1 ms (it fires at once
/// instead), so a longer timeout is clamped to this, about 24.8 days.
pub const MAX_TIMER_MS: u32 = 2_147_483_647;

/// The keys a client's options object may have.
pub const CLIENT_KEYS: [&str; 9] = [
    "baseUrl",
    "headers",
    "paramsIn",
    "timeoutMs",
    "retries",
    "maxBodyBytes",
    "credentials",
    "fetch",
    "hooks",
];
/// The keys a `hooks` object may have.
pub const HOOK_KEYS: [&str; 3] = ["beforeRequest", "afterResponse", "beforeRetry"];
/// The keys a call's options object may have.
pub const CALL_KEYS: [&str; 4] = ["signal", "timeoutMs", "retries", "headers"];

/// The keys the one-shot functions' options object may have: the client's
/// (less `baseUrl`, their first argument) and the call's, each once.
pub fn one_shot_keys() -> Vec<&'static str> {
    let mut keys = Vec::new();
    for list in [&CLIENT_KEYS[..], &CALL_KEYS[..]] {
        for &key in list {
            if key != "baseUrl" && !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    keys
}

/// `paramsIn`: one of [`ParamsIn`]'s wire names. `None` when not given.
pub fn params_in(value: &Value) -> Result<Option<ParamsIn>, Error> {
    named(value, "paramsIn")
}

/// `credentials`: one of [`Credentials`]' wire names. `None` when not
/// given, which leaves the platform default (`"same-origin"`).
pub fn credentials(value: &Value) -> Result<Option<Credentials>, Error> {
    named(value, "credentials")
}

/// An option whose value is one of `T`'s wire names.
fn named<T: Wire>(value: &Value, option: &str) -> Result<Option<T>, Error> {
    match value {
        Value::Undefined => return Ok(None),
        Value::Str(name) => {
            if let Some(parsed) = wire::parse::<T>(name) {
                return Ok(Some(parsed));
            }
        }
        _ => {}
    }
    Err(not_named(value, option, T::NAMES))
}

/// The error for an option that is none of `names`.
fn not_named(value: &Value, option: &str, names: &[&str]) -> Error {
    Error::invalid(option, &wire::one_of(names, None), &value.shown())
}

/// `timeoutMs`: finite and >= 0, `0` meaning none. `None` when not given.
/// The value is kept to the nanosecond, a fraction of one rounded up so
/// that it never becomes "none"; [`duration_ms`] makes it the timer's.
pub fn timeout(value: &Value) -> Result<Option<Duration>, Error> {
    match value {
        Value::Undefined => Ok(None),
        // `as` saturates: a huge value is a huge wait, cut by `duration_ms`.
        Value::Number(n) if n.is_finite() && *n >= 0.0 => {
            Ok(Some(Duration::from_nanos((n * 1e6).ceil() as u64)))
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

/// `retries` given as a number: a whole number >= 0, the policy's
/// `limit`. `None` when not given; an error for anything else but an
/// object (a `RetryPolicy`, whose fields `retry::policy_field` reads).
pub fn retries(value: &Value) -> Result<Option<u32>, Error> {
    match value {
        Value::Undefined => Ok(None),
        other => whole(other).ok_or_else(|| {
            Error::invalid(
                "retries",
                "a whole number >= 0 or a RetryPolicy object",
                &other.shown(),
            )
        }),
    }
}

/// A whole number >= 0 (past `u32::MAX`, `u32::MAX`).
pub fn whole(value: &Value) -> Option<Option<u32>> {
    match *value {
        // `as` saturates.
        Value::Number(n) if value.as_integer().is_some() && n >= 0.0 => Some(Some(n as u32)),
        _ => None,
    }
}

/// What a policy's status codes must be.
pub const STATUS_CODES: &str = "an array of whole numbers from 100 to 599";

/// Whether `code` is a status code a policy may name: a whole number from
/// 100 to 599.
pub fn is_status_code(code: f64) -> bool {
    code.fract() == 0.0 && (100.0..=599.0).contains(&code)
}

/// The error for a policy's field `field` (of the option `param`) that is
/// not `expected`: `got` shows what it is.
pub fn policy_error(param: &str, field: &str, expected: &str, got: &Value) -> Error {
    let message = format!("{field} must be {expected}; got {}", got.shown());
    Error::validation(param, message)
}

/// `maxBodyBytes`: a whole number of bytes >= 0, 0 for no limit (past
/// `u64::MAX`, `u64::MAX`). `None` when not given.
pub fn max_body_bytes(value: &Value) -> Result<Option<u64>, Error> {
    match value {
        Value::Undefined => Ok(None),
        // `as` saturates.
        Value::Number(n) if value.as_integer().is_some() && *n >= 0.0 => Ok(Some(*n as u64)),
        other => Err(Error::invalid(
            "maxBodyBytes",
            "a whole number of bytes >= 0 (0 means no limit)",
            &other.shown(),
        )),
    }
}

/// Which names messages give the options: those of the API the caller set
/// them through (a timeout is `timeout` in Rust, `timeoutMs` in JS,
/// `timeout-ms` in the component's WIT).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Naming {
    /// The Rust API's: `timeout`, `max_body_bytes`.
    #[default]
    Rust,
    /// The JS API's: `timeoutMs`, `maxBodyBytes`.
    Js,
    /// The WIT's: `timeout-ms`, `max-body-bytes`.
    Wit,
}

impl Naming {
    /// The timeout option's name.
    pub fn timeout(self) -> &'static str {
        match self {
            Naming::Rust => "timeout",
            Naming::Js => "timeoutMs",
            Naming::Wit => "timeout-ms",
        }
    }

    /// The retry policy's option name, and its field of status codes.
    pub fn retries(self) -> (&'static str, &'static str) {
        match self {
            Naming::Rust => ("retry_policy", "retry_policy.status_codes"),
            Naming::Js | Naming::Wit => ("retries", "retries.statusCodes"),
        }
    }

    /// The body limit option's name.
    pub fn max_body_bytes(self) -> &'static str {
        match self {
            Naming::Rust => "max_body_bytes",
            Naming::Js => "maxBodyBytes",
            Naming::Wit => "max-body-bytes",
        }
    }

    /// The base URL option's name (the component's is the JS one, as its
    /// tests across four hosts read it).
    pub fn base_url(self) -> &'static str {
        match self {
            Naming::Rust => "base_url",
            Naming::Js | Naming::Wit => "baseUrl",
        }
    }

    /// The page size param's name.
    pub fn page_size(self) -> &'static str {
        match self {
            Naming::Rust => "page_size",
            Naming::Js => "pageSize",
            Naming::Wit => "page-size",
        }
    }

    /// The name of the walk through the list's pages: the JS API's
    /// `listPages`, else the list builder's `pages`.
    pub fn list_pages(self) -> &'static str {
        match self {
            Naming::Js => "listPages",
            Naming::Rust | Naming::Wit => "pages",
        }
    }
}

/// What bounds one attempt: its timeout and how much of a body it reads,
/// with the names the caller knows the options by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The timeout in milliseconds (0: none), as [`duration_ms`] makes it.
    pub timeout_ms: u32,
    /// What is left of it when the attempt is sent (its header functions
    /// and `beforeRequest` ran within it): the attempt's timer (0: none).
    pub left_ms: u32,
    /// The most bytes of a body read (0: no limit).
    pub max_body_bytes: u64,
    /// The options' names in messages.
    pub naming: Naming,
}

impl Bounds {
    /// An attempt's bounds: `timeout_ms` (0: none), `max_body_bytes` (0:
    /// no limit), the options named as `naming` names them.
    pub fn new(timeout_ms: u32, max_body_bytes: u64, naming: Naming) -> Bounds {
        Bounds {
            timeout_ms,
            left_ms: timeout_ms,
            max_body_bytes,
            naming,
        }
    }

    /// The same bounds for an attempt sent with `left_ms` left of its
    /// timeout (at least 1: 0 would be no timer).
    pub fn with_left(self, left_ms: u32) -> Bounds {
        Bounds {
            left_ms: if self.timeout_ms == 0 {
                0
            } else {
                left_ms.max(1)
            },
            ..self
        }
    }

    /// Whether a body of `bytes` bytes (so far, or as its
    /// `Content-Length` says) is within the limit.
    pub fn allows(self, bytes: u64) -> bool {
        self.max_body_bytes == 0 || bytes <= self.max_body_bytes
    }

    /// The error of an attempt that had no answer within its timeout.
    pub fn timed_out(self, url: &str) -> Error {
        let url = shown_url(url);
        Error::new(
            ErrorKind::Timeout,
            format!(
                "no answer within {} ({} ms) from POST {url}",
                self.naming.timeout(),
                self.timeout_ms
            ),
        )
    }

    /// The error of an answer whose body is larger than the limit: a
    /// `decode` error with the HTTP status and no body (none was kept).
    pub fn too_large(self, http_status: u16, url: &str) -> Error {
        let url = shown_url(url);
        Error::new(
            ErrorKind::Decode,
            format!(
                "the answer to POST {url} is larger than {} bytes, the {} option's limit (0 means none)",
                // The host's number writer, as everywhere in messages
                // (exact up to 2^53, more than any body).
                number(self.max_body_bytes as f64),
                self.naming.max_body_bytes()
            ),
        )
        .with_http_status(http_status)
        .never_retried()
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
        wire::one_of(allowed, None)
    );
    Err(Error::validation(key, message))
}

/// A key of the `hooks` object: one of [`HOOK_KEYS`].
pub fn check_hook_key(key: &str) -> Result<(), Error> {
    if HOOK_KEYS.contains(&key) {
        return Ok(());
    }
    let message = format!(
        "unknown hook {}; the hooks are {}",
        quoted(key),
        wire::one_of(&HOOK_KEYS, None)
    );
    Err(Error::validation("hooks", message))
}

/// `baseUrl` as JavaScript passes it: a string, which
/// [`check_base_url`] then checks.
pub fn base_url_text(value: &Value) -> Result<&str, Error> {
    match value {
        Value::Str(url) => Ok(url),
        other => Err(Error::invalid(
            "baseUrl",
            "an absolute http: or https: URL",
            &other.shown(),
        )),
    }
}

/// The checks on `baseUrl`, before the platform's `URL` parses it: an
/// absolute `http:` / `https:` URL without query, fragment or credentials.
/// (`fetch` refuses URLs that carry credentials, and the message must not
/// repeat them.)
pub fn check_base_url(url: &str, naming: Naming) -> Result<(), Error> {
    let param = naming.base_url();
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
            param,
            "an absolute http: or https: URL",
            &quoted(url),
        ));
    };
    let authority = rest.split('/').next().unwrap_or("");
    if authority.is_empty() {
        return Err(Error::invalid(param, "a URL with a host", &quoted(url)));
    }
    if authority.contains('@') {
        let message = match naming {
            Naming::Rust => {
                "base_url must not carry credentials (user:password@); send them in headers"
            }
            Naming::Js | Naming::Wit => {
                "baseUrl must not carry credentials (user:password@); send them in headers"
            }
        };
        return Err(Error::validation(param, message));
    }
    if url.contains(['?', '#']) {
        return Err(Error::invalid(
            param,
            "a URL without query (?) or fragment (#)",
            &quoted(url),
        ));
    }
    Ok(())
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

/// A request URL as what a call reports shows it: without its query
/// string, which in `query` mode carries the params (a name, a phone
/// number); the path stays. (Hooks see the whole URL.)
pub fn shown_url(url: &str) -> &str {
    match url.bytes().position(|b| b == b'?') {
        Some(at) => url.get(..at).unwrap_or(url),
        None => url,
    }
}

/// `detail` (what a platform said of a failed request to `url`) with
/// that URL as [`shown_url`] shows it.
pub fn without_query(detail: &str, url: &str) -> String {
    let shown = shown_url(url);
    let mut out = String::new();
    let mut rest = detail;
    if shown.len() < url.len() {
        while let Some(at) = find(rest, url) {
            out.push_str(rest.get(..at).unwrap_or_default());
            out.push_str(shown);
            rest = rest.get(at + url.len()..).unwrap_or_default();
        }
    }
    out.push_str(rest);
    out
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

/// What a header value may hold: visible ASCII, space and tab (what RFC
/// 9110 asks of new fields, and what every build and host sends alike).
fn is_header_value_char(c: char) -> bool {
    c == '\t' || (' '..='~').contains(&c)
}

/// A header value: visible ASCII, space and tab only. The message names
/// the header but never shows the value: it may be a credential.
pub fn check_header_value(name: &str, value: &str) -> Result<(), Error> {
    if value.chars().all(is_header_value_char) {
        return Ok(());
    }
    Err(Error::validation(
        "headers",
        format!(
            "the value of header {} has a character other than visible ASCII, space and tab \
             (a control character, or one beyond ASCII: percent-encode such a value)",
            quoted(name)
        ),
    ))
}

/// Every header of a list: names HTTP tokens, values visible ASCII, space
/// and tab.
pub fn check_headers(headers: &[(String, String)]) -> Result<(), Error> {
    for (name, value) in headers {
        check_header_name(name)?;
        check_header_value(name, value)?;
    }
    Ok(())
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
            assert!(check_base_url(ok, Naming::Rust).is_ok(), "{ok}");
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
            for (naming, name) in [
                (Naming::Rust, "base_url"),
                (Naming::Js, "baseUrl"),
                (Naming::Wit, "baseUrl"),
            ] {
                let err = check_base_url(bad, naming).unwrap_err();
                assert_eq!(err.param(), Some(name), "{bad}");
                assert!(err.message().starts_with(name), "{}", err.message());
            }
        }
        let err = check_base_url("http://me:hunter2@x/", Naming::Rust).unwrap_err();
        assert!(!err.message().contains("hunter2"));
        assert!(err.message().starts_with("base_url must not"));
        assert_eq!(base_url_text(&s("http://x")).ok(), Some("http://x"));
        for bad in [Value::Number(1.0), Value::Undefined] {
            let err = base_url_text(&bad).unwrap_err();
            assert_eq!(err.param(), Some("baseUrl"));
        }
    }

    #[test]
    fn max_body_bytes_takes_whole_numbers_from_zero() {
        assert_eq!(max_body_bytes(&Value::Undefined).unwrap(), None);
        assert_eq!(max_body_bytes(&Value::Number(0.0)).unwrap(), Some(0));
        assert_eq!(max_body_bytes(&Value::Number(1024.0)).unwrap(), Some(1024));
        assert_eq!(
            max_body_bytes(&Value::Number(9_007_199_254_740_991.0)).unwrap(),
            Some(9_007_199_254_740_991)
        );
        assert_eq!(
            max_body_bytes(&Value::Number(1e300)).unwrap(),
            Some(u64::MAX)
        );
        for bad in [
            Value::Number(-1.0),
            Value::Number(1.5),
            Value::Number(f64::INFINITY),
            Value::Number(f64::NAN),
            s("1024"),
            Value::Null,
        ] {
            let err = max_body_bytes(&bad).unwrap_err();
            assert_eq!(err.param(), Some("maxBodyBytes"), "{bad:?}");
            assert!(err.message().contains("0 means no limit"), "{bad:?}");
        }
    }

    #[test]
    fn bounds_allow_up_to_the_limit_and_name_the_callers_options() {
        let bounds = Bounds::new(250, 100, Naming::Rust);
        assert!(bounds.allows(0));
        assert!(bounds.allows(100));
        assert!(!bounds.allows(101));
        assert!(!bounds.allows(u64::MAX));
        let none = Bounds {
            max_body_bytes: 0,
            ..bounds
        };
        assert!(none.allows(u64::MAX));
        // What is left of the timeout is the attempt's timer, never 0 (no
        // timer) while there is a timeout; the message names the timeout.
        assert_eq!(bounds.left_ms, 250);
        assert_eq!(bounds.with_left(100).left_ms, 100);
        assert_eq!(bounds.with_left(0).left_ms, 1);
        assert_eq!(Bounds::new(0, 100, Naming::Rust).with_left(5).left_ms, 0);
        let late = bounds.with_left(100).timed_out("http://h/api/users");
        assert!(late.message().contains("(250 ms)"), "{}", late.message());
        let err = bounds.too_large(200, "http://h/api/users");
        assert_eq!(err.kind(), ErrorKind::Decode);
        assert_eq!(err.http_status(), Some(200));
        assert_eq!(err.body(), None);
        assert_eq!(
            err.message(),
            "the answer to POST http://h/api/users is larger than 100 bytes, the max_body_bytes option's limit (0 means none)"
        );
        let err = bounds.timed_out("http://h/api/users");
        assert_eq!(err.kind(), ErrorKind::Timeout);
        assert_eq!(
            err.message(),
            "no answer within timeout (250 ms) from POST http://h/api/users"
        );
        for (naming, timeout, limit) in [
            (Naming::Js, "timeoutMs", "maxBodyBytes"),
            (Naming::Wit, "timeout-ms", "max-body-bytes"),
        ] {
            let named = Bounds { naming, ..bounds };
            assert!(named.timed_out("u").message().contains(timeout));
            assert!(named.too_large(200, "u").message().contains(limit));
        }
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
        let ms = |value: f64| {
            timeout(&Value::Number(value))
                .ok()
                .flatten()
                .map(duration_ms)
        };
        assert_eq!(timeout(&Value::Undefined).ok(), Some(None));
        assert_eq!(ms(0.0), Some(0));
        assert_eq!(ms(0.001), Some(1));
        assert_eq!(ms(1e-9), Some(1));
        assert_eq!(ms(1.5), Some(2));
        assert_eq!(ms(5_000.0), Some(5_000));
        assert_eq!(ms(1e12), Some(MAX_TIMER_MS));
        assert_eq!(ms(1e300), Some(MAX_TIMER_MS));
        for bad in [
            Value::Number(-1.0),
            Value::Number(f64::NAN),
            Value::Number(f64::INFINITY),
            s("5"),
            Value::Null,
        ] {
            let err = timeout(&bad).unwrap_err();
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
        assert_eq!(retries(&Value::Undefined).ok(), Some(None));
        assert_eq!(retries(&Value::Number(0.0)).ok(), Some(Some(0)));
        assert_eq!(retries(&Value::Number(5.0)).ok(), Some(Some(5)));
        for bad in [
            Value::Number(-1.0),
            Value::Number(1.5),
            Value::Number(f64::NAN),
            s("2"),
        ] {
            assert!(retries(&bad).is_err());
        }
        let error = retries(&s("2")).unwrap_err();
        assert_eq!(error.param(), Some("retries"));
        assert_eq!(
            error.message(),
            "retries must be a whole number >= 0 or a RetryPolicy object; got \"2\""
        );
    }

    #[test]
    fn enums() {
        assert_eq!(params_in(&s("form")).ok(), Some(Some(ParamsIn::Form)));
        assert_eq!(params_in(&Value::Undefined).ok(), Some(None));
        let err = params_in(&s("json")).unwrap_err();
        assert_eq!(
            err.message(),
            "paramsIn must be \"body\", \"query\" or \"form\"; got \"json\""
        );
        assert_eq!(
            credentials(&s("include")).ok(),
            Some(Some(Credentials::Include))
        );
        assert_eq!(credentials(&Value::Undefined).ok(), Some(None));
        let err = credentials(&Value::Number(1.0)).unwrap_err();
        assert_eq!(
            err.message(),
            "credentials must be \"omit\", \"same-origin\" or \"include\"; got 1"
        );
    }

    #[test]
    fn unknown_option_keys_are_named() {
        assert_eq!(
            one_shot_keys(),
            [
                "headers",
                "paramsIn",
                "timeoutMs",
                "retries",
                "maxBodyBytes",
                "credentials",
                "fetch",
                "hooks",
                "signal"
            ]
        );
        assert!(check_option_key("timeoutMs", &CLIENT_KEYS).is_ok());
        assert!(check_hook_key("beforeRetry").is_ok());
        let err = check_hook_key("onRetry").unwrap_err();
        assert_eq!(err.param(), Some("hooks"));
        assert_eq!(
            err.message(),
            "unknown hook \"onRetry\"; the hooks are \"beforeRequest\", \"afterResponse\" or \"beforeRetry\""
        );
        let err = check_option_key("timeout", &CLIENT_KEYS).unwrap_err();
        assert_eq!(err.param(), Some("timeout"));
        assert!(err.message().contains("timeoutMs"));
    }

    #[test]
    fn what_a_call_reports_shows_no_query_string() {
        let url = "http://h/api/users/count?query=ann-secret-name&active=true";
        assert_eq!(shown_url(url), "http://h/api/users/count");
        assert_eq!(shown_url("http://h/p/api/users"), "http://h/p/api/users");
        assert_eq!(
            without_query(&format!("sending to {url} (refused)"), url),
            "sending to http://h/api/users/count (refused)"
        );
        assert_eq!(without_query("refused", "http://h/x"), "refused");
        assert_eq!(
            without_query(&format!("{url} and {url}!"), url),
            "http://h/api/users/count and http://h/api/users/count!"
        );
        assert_eq!(
            without_query("é http://h/a?q=1", "http://h/a?q=1"),
            "é http://h/a"
        );
        let bounds = Bounds::new(5, 1, Naming::Js);
        for error in [bounds.timed_out(url), bounds.too_large(200, url)] {
            assert!(!error.message().contains("ann-secret-name"), "{error}");
            assert!(!error.message().contains('?'), "{error}");
            assert!(
                error.message().contains("POST http://h/api/users/count"),
                "{error}"
            );
        }
    }

    #[test]
    fn header_rules() {
        assert!(check_header_name("X-Request-Id").is_ok());
        for bad in ["", "a b", "x:y", "é", "a\r\nb"] {
            assert!(check_header_name(bad).is_err(), "{bad:?}");
        }
        assert!(check_header_value("a", "Bearer abc").is_ok());
        // The first and last of visible ASCII, space and tab.
        assert!(check_header_value("a", "! ~\t").is_ok());
        assert!(check_header_value("a", "").is_ok());
        for bad in [
            "a\rb", "a\nb", "a\0b", "\u{1}", "\u{1F}", "\u{7F}", "\u{80}", "\u{FF}", "tökén",
            "café", "☃", "\u{FFFD}", "\u{100}",
        ] {
            let err = check_header_value("authorization", &format!("Bearer {bad}")).unwrap_err();
            assert_eq!(err.param(), Some("headers"));
            assert!(!err.message().contains("Bearer"));
            assert!(err.message().contains("\"authorization\""), "{err}");
        }
    }

    #[test]
    fn the_default_body_limit_is_64_mib() {
        let bounds = Bounds::new(0, DEFAULT_MAX_BODY_BYTES, Naming::Rust);
        assert!(bounds.allows(64 << 20));
        assert!(!bounds.allows((64 << 20) + 1));
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn join_puts_exactly_one_slash_between(base in "http://h(/[a-z]{0,5}){0,3}/{0,3}", path in "/{0,2}[a-z]{1,5}(/[a-z]{1,5}){0,2}") {
            let joined = join(&base, &path);
            let head = base.trim_end_matches('/');
            let tail = path.trim_start_matches('/');
            prop_assert_eq!(&joined, &format!("{head}/{tail}"));
            prop_assert!(!joined[head.len()..].starts_with("//"));
        }

        #[test]
        fn header_names_are_exactly_tokens(name in "\\PC{0,20}") {
            let token = !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
            prop_assert_eq!(check_header_name(&name).is_ok(), token);
        }

        #[test]
        fn header_values_are_visible_ascii_space_and_tab(value in "\\PC{0,20}|[\\x00-\\xff]{0,20}") {
            let ok = value.bytes().all(|b| b == b'\t' || (0x20..0x7F).contains(&b));
            let checked = check_header_value("x-a", &value);
            prop_assert_eq!(checked.is_ok(), ok);
            if let Err(err) = checked {
                prop_assert!(value.is_empty() || !err.message().contains(value.as_str()));
            }
        }
    }
}
