//! Request parameters: gathering them from the query string and the body, and
//! validating them into typed filters.
//!
//! Clients may send parameters as JSON, as a form body or in the query string
//! (the interface leaves the transport open), so all three are accepted and
//! merged before validation. Validation sees every value a parameter was
//! given, wherever it was sent: one that breaks a rule is refused even when
//! the body gives the same parameter again, and the last valid one (the
//! body's over the query string's) is used.

use std::collections::HashMap;

use serde_json::Value;

use crate::envelope::ApiError;

/// Largest `page`: 2^53 - 1, the largest integer a JSON number carries
/// exactly in every implementation (JavaScript's `Number.MAX_SAFE_INTEGER`),
/// so the page echoed back reaches every client unchanged.
pub const MAX_PAGE: u64 = 9_007_199_254_740_991;
/// Largest `pageSize` a client may ask for.
pub const MAX_PAGE_SIZE: u64 = 500;
/// Longest accepted `query`, in characters. SQLite caps LIKE patterns at
/// 50,000 bytes; even after lower-casing (which can triple a character) and
/// escaping, 2,000 characters stay well below that, and no search box needs more.
pub const MAX_QUERY_CHARS: usize = 2000;
/// `pageSize` used when the client does not send one.
pub const DEFAULT_PAGE_SIZE: u64 = 20;

/// One raw parameter value, keeping where it came from because JSON allows
/// more types (booleans, numbers) than text encodings.
#[derive(Debug, Clone, PartialEq)]
pub enum RawValue {
    /// From the query string or a form body.
    Text(String),
    /// From a JSON object body (never `null`: null means omitted).
    Json(Value),
}

/// All parameters of one request: each name's values in the order they
/// came, query string first, then the body.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct RawParams(HashMap<String, Vec<RawValue>>);

/// How a non-empty request body is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BodyKind {
    Json,
    Form,
}

impl RawParams {
    /// Collects parameters from a URL query string (later duplicates win).
    pub fn from_query(query: Option<&str>) -> Self {
        let mut params = Self::default();
        if let Some(query) = query {
            params.insert_form(query.as_bytes());
        }
        params
    }

    /// Adds the body's parameters after the existing ones.
    ///
    /// An empty body carries no parameters whatever its content type, so a
    /// bare `POST` with a query string works; so does one of whitespace,
    /// unless its content type says JSON (whitespace is not JSON).
    pub fn merge_body(&mut self, content_type: Option<&str>, body: &[u8]) -> Result<(), ApiError> {
        if body.is_empty() {
            return Ok(());
        }
        let blank = body.iter().all(u8::is_ascii_whitespace);
        let kind = match body_kind(content_type, body) {
            Ok(BodyKind::Json) => BodyKind::Json,
            Ok(BodyKind::Form) | Err(_) if blank => return Ok(()),
            other => other?,
        };
        match kind {
            BodyKind::Form if looks_like_json(body) => {
                return Err(ApiError::bad_request(
                    "the body looks like JSON but was sent as a form \
                     (application/x-www-form-urlencoded, curl -d's default): \
                     send it with Content-Type: application/json (curl --json)",
                ))
            }
            BodyKind::Form => self.insert_form(body),
            BodyKind::Json => self.insert_json(body)?,
        }
        Ok(())
    }

    /// Every parameter as JSON (text values as strings), for the fault
    /// mode's echo scenario.
    pub fn to_json(&self) -> Value {
        let map = self
            .0
            .iter()
            .map(|(key, value)| {
                let value = match value.last() {
                    Some(RawValue::Text(text)) => Value::String(text.clone()),
                    Some(RawValue::Json(json)) => json.clone(),
                    None => Value::Null,
                };
                (key.clone(), value)
            })
            .collect();
        Value::Object(map)
    }

    /// Every value of a parameter (exact, case-sensitive name), the one
    /// that counts last.
    pub fn values(&self, name: &str) -> &[RawValue] {
        self.0.get(name).map_or(&[], Vec::as_slice)
    }

    fn push(&mut self, name: String, value: RawValue) {
        self.0.entry(name).or_default().push(value);
    }

    fn insert_form(&mut self, encoded: &[u8]) {
        for (key, value) in form_urlencoded::parse(encoded) {
            self.push(key.into_owned(), RawValue::Text(value.into_owned()));
        }
    }

    fn insert_json(&mut self, body: &[u8]) -> Result<(), ApiError> {
        let value: Value = serde_json::from_slice(body)
            .map_err(|e| ApiError::bad_request(format!("malformed JSON body: {e}")))?;
        let Value::Object(object) = value else {
            return Err(ApiError::bad_request(format!(
                "JSON body must be an object of parameters, got {}",
                json_type(&value)
            )));
        };
        for (key, value) in object {
            if value.is_null() {
                // null means "not given"; a query-string value, if any, stands.
                continue;
            }
            self.push(key, RawValue::Json(value));
        }
        Ok(())
    }
}

/// Whether a body's first non-whitespace byte opens a JSON object or array.
fn looks_like_json(body: &[u8]) -> bool {
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    matches!(first, Some(b'{' | b'['))
}

/// Decides how to decode a non-empty body from its `Content-Type`.
///
/// Without a content type the body is sniffed (`{`/`[` → JSON, else form),
/// so a client that sends none still works.
fn body_kind(content_type: Option<&str>, body: &[u8]) -> Result<BodyKind, ApiError> {
    let Some(content_type) = content_type else {
        return Ok(if looks_like_json(body) {
            BodyKind::Json
        } else {
            BodyKind::Form
        });
    };
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    if essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
    {
        Ok(BodyKind::Json)
    } else if essence == "application/x-www-form-urlencoded" {
        Ok(BodyKind::Form)
    } else {
        Err(ApiError::bad_request(format!(
            "unsupported content type {:?}: send application/json, \
             application/x-www-form-urlencoded or use the query string",
            truncate(content_type)
        )))
    }
}

/// The `active` filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Active {
    /// No filtering (the default).
    All,
    /// Only active users.
    True,
    /// Only inactive users.
    False,
}

impl Active {
    /// The stored flag to compare with, or `None` for no filtering.
    pub fn flag(self) -> Option<bool> {
        match self {
            Active::All => None,
            Active::True => Some(true),
            Active::False => Some(false),
        }
    }
}

/// Validated search parameters shared by count and list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// The lower-cased search text; `None` matches everything.
    pub query: Option<String>,
    /// The active-flag filter.
    pub active: Active,
}

impl Filter {
    /// A `LIKE` pattern matching `query` literally anywhere (escape char `\`).
    pub fn like_pattern(&self) -> Option<String> {
        self.query.as_deref().map(|query| {
            let mut pattern = String::with_capacity(query.len() + 2);
            pattern.push('%');
            for c in query.chars() {
                if matches!(c, '%' | '_' | '\\') {
                    pattern.push('\\');
                }
                pattern.push(c);
            }
            pattern.push('%');
            pattern
        })
    }
}

/// Validated paging parameters of the list operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    /// 1-based page number.
    pub page: u64,
    /// Users per page, `1..=MAX_PAGE_SIZE`.
    pub page_size: u64,
}

impl Paging {
    /// Rows to skip; saturates so absurd page numbers just give empty pages.
    pub fn offset(&self) -> i64 {
        let offset = (self.page - 1).saturating_mul(self.page_size);
        i64::try_from(offset).unwrap_or(i64::MAX)
    }
}

/// Validates `query` and `active`.
pub fn parse_filter(params: &RawParams) -> Result<Filter, ApiError> {
    let mut query = None;
    for value in params.values("query") {
        query = Some(parse_query(value)?);
    }
    // Lower-casing in Rust (not SQLite's ASCII-only lower()) makes the match
    // case-insensitive for non-ASCII letters too; the stored copy is lowered
    // the same way.
    let query = query.filter(|q| !q.is_empty()).map(str::to_lowercase);
    let mut active = Active::All;
    for value in params.values("active") {
        active = parse_active(value)?;
    }
    Ok(Filter { query, active })
}

/// One `query` value: a string of at most [`MAX_QUERY_CHARS`] characters,
/// none of them a control character (C0, DEL or C1; NUL included), which
/// no username or phone contains and SQLite would cut a pattern at.
fn parse_query(value: &RawValue) -> Result<&str, ApiError> {
    let query = match value {
        RawValue::Text(text) | RawValue::Json(Value::String(text)) => text.as_str(),
        RawValue::Json(other) => {
            return Err(ApiError::bad_request(format!(
                "parameter \"query\" must be a string, got {}",
                json_type(other)
            )))
        }
    };
    let length = query.chars().count();
    if length > MAX_QUERY_CHARS {
        return Err(ApiError::bad_request(format!(
            "parameter \"query\" is too long: {length} characters (max {MAX_QUERY_CHARS})"
        )));
    }
    if let Some((at, c)) = query.chars().enumerate().find(|(_, c)| c.is_control()) {
        return Err(ApiError::bad_request(format!(
            "parameter \"query\" must not contain control characters, found U+{:04X} at \
             character {}",
            u32::from(c),
            at + 1
        )));
    }
    Ok(query)
}

fn parse_active(value: &RawValue) -> Result<Active, ApiError> {
    let text = match value {
        RawValue::Json(Value::Bool(true)) => return Ok(Active::True),
        RawValue::Json(Value::Bool(false)) => return Ok(Active::False),
        RawValue::Text(text) | RawValue::Json(Value::String(text)) => text,
        RawValue::Json(other) => {
            return Err(ApiError::bad_request(format!(
            "invalid value for parameter \"active\": {} (allowed: \"all\", \"true\", \"false\")",
            truncate(&other.to_string())
        )))
        }
    };
    match text.as_str() {
        "all" => Ok(Active::All),
        "true" => Ok(Active::True),
        "false" => Ok(Active::False),
        _ => Err(ApiError::bad_request(format!(
            "invalid value for parameter \"active\": {:?} (allowed: \"all\", \"true\", \"false\")",
            truncate(text)
        ))),
    }
}

/// Validates `page` and `pageSize`.
pub fn parse_paging(params: &RawParams) -> Result<Paging, ApiError> {
    Ok(Paging {
        page: parse_int(params, "page", 1, 1, MAX_PAGE)?,
        page_size: parse_int(params, "pageSize", DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE)?,
    })
}

/// Reads an integer parameter within `min..=max`: a JSON number whose value
/// is an integer (`2` and `2.0` alike, as in JSON Schema and JavaScript), or
/// a (JSON or text) string of decimal digits. Every value given must be one.
fn parse_int(
    params: &RawParams,
    name: &str,
    default: u64,
    min: u64,
    max: u64,
) -> Result<u64, ApiError> {
    let mut result = default;
    for value in params.values(name) {
        result = parse_int_value(value, name, min, max)?;
    }
    Ok(result)
}

fn parse_int_value(value: &RawValue, name: &str, min: u64, max: u64) -> Result<u64, ApiError> {
    let parsed = match value {
        RawValue::Text(text) | RawValue::Json(Value::String(text)) => parse_digits(text),
        RawValue::Json(Value::Number(number)) => integral(number),
        RawValue::Json(_) => None,
    };
    match parsed {
        Some(n) if (min..=max).contains(&n) => Ok(n),
        _ => {
            let got = match value {
                RawValue::Text(text) => format!("{:?}", truncate(text)),
                RawValue::Json(value) => truncate(&value.to_string()).to_owned(),
            };
            Err(ApiError::bad_request(format!(
                "parameter \"{name}\" must be an integer from {min} to {max}, got {got}"
            )))
        }
    }
}

/// A string of ASCII decimal digits as a number; `None` for anything else
/// (signs, spaces, fractions, other scripts' digits) and beyond `u64`.
fn parse_digits(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A JSON number whose value is a non-negative integer, written with or
/// without a fraction or an exponent (`29290`, `29290.0`, `2.929e4`).
fn integral(number: &serde_json::Number) -> Option<u64> {
    if let Some(n) = number.as_u64() {
        return Some(n);
    }
    // Beyond 2^64 the conversion would saturate; such values are out of
    // every range anyway.
    const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;
    number
        .as_f64()
        .filter(|f| f.fract() == 0.0 && (0.0..TWO_POW_64).contains(f))
        .map(|f| f as u64)
}

/// Names a JSON value's type for error messages.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Keeps echoed client values short so error messages stay readable.
fn truncate(text: &str) -> &str {
    const LIMIT: usize = 80;
    match text.char_indices().nth(LIMIT) {
        Some((index, _)) => &text[..index],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(body: &str) -> Result<RawParams, ApiError> {
        let mut params = RawParams::default();
        params.merge_body(Some("application/json"), body.as_bytes())?;
        Ok(params)
    }

    fn filter_of(body: &str) -> Result<Filter, ApiError> {
        parse_filter(&json(body)?)
    }

    fn paging_of(body: &str) -> Result<Paging, ApiError> {
        parse_paging(&json(body)?)
    }

    #[test]
    fn defaults_when_nothing_is_sent() {
        let params = RawParams::from_query(None);
        let filter = parse_filter(&params).unwrap();
        assert_eq!(
            filter,
            Filter {
                query: None,
                active: Active::All
            }
        );
        assert_eq!(
            parse_paging(&params).unwrap(),
            Paging {
                page: 1,
                page_size: 20
            }
        );
    }

    #[test]
    fn active_accepts_strings_and_json_booleans() {
        assert_eq!(
            filter_of(r#"{"active":"true"}"#).unwrap().active,
            Active::True
        );
        assert_eq!(
            filter_of(r#"{"active":"false"}"#).unwrap().active,
            Active::False
        );
        assert_eq!(
            filter_of(r#"{"active":"all"}"#).unwrap().active,
            Active::All
        );
        assert_eq!(
            filter_of(r#"{"active":true}"#).unwrap().active,
            Active::True
        );
        assert_eq!(
            filter_of(r#"{"active":false}"#).unwrap().active,
            Active::False
        );
        assert_eq!(filter_of(r#"{"active":null}"#).unwrap().active, Active::All);
        let text = parse_filter(&RawParams::from_query(Some("active=false"))).unwrap();
        assert_eq!(text.active, Active::False);
    }

    #[test]
    fn active_rejects_other_values_naming_them() {
        for body in [
            r#"{"active":"yes"}"#,
            r#"{"active":"TRUE"}"#,
            r#"{"active":1}"#,
            r#"{"active":""}"#,
        ] {
            let err = filter_of(body).unwrap_err();
            assert_eq!(err.status.as_u16(), 400);
            assert!(err.message.contains("\"active\""), "{}", err.message);
            assert!(
                err.message.contains("\"all\", \"true\", \"false\""),
                "{}",
                err.message
            );
        }
        let err = filter_of(r#"{"active":"yes"}"#).unwrap_err();
        assert!(err.message.contains("\"yes\""), "{}", err.message);
    }

    #[test]
    fn query_must_be_a_string_and_is_lowercased() {
        assert_eq!(
            filter_of(r#"{"query":"ZOË"}"#).unwrap().query.as_deref(),
            Some("zoë")
        );
        assert_eq!(filter_of(r#"{"query":""}"#).unwrap().query, None);
        assert_eq!(filter_of(r#"{"query":null}"#).unwrap().query, None);
        for body in [
            r#"{"query":1}"#,
            r#"{"query":true}"#,
            r#"{"query":[]}"#,
            r#"{"query":{}}"#,
        ] {
            let err = filter_of(body).unwrap_err();
            assert!(
                err.message.contains("\"query\" must be a string"),
                "{}",
                err.message
            );
        }
    }

    #[test]
    fn query_length_is_capped() {
        let ok = format!(r#"{{"query":"{}"}}"#, "ẞ".repeat(MAX_QUERY_CHARS));
        assert!(filter_of(&ok).is_ok());
        let long = format!(r#"{{"query":"{}"}}"#, "a".repeat(MAX_QUERY_CHARS + 1));
        let err = filter_of(&long).unwrap_err();
        assert!(
            err.message.contains("\"query\" is too long"),
            "{}",
            err.message
        );
    }

    #[test]
    fn like_pattern_escapes_wildcards() {
        let filter = Filter {
            query: Some("a%b_c\\d'e".into()),
            active: Active::All,
        };
        assert_eq!(filter.like_pattern().as_deref(), Some("%a\\%b\\_c\\\\d'e%"));
    }

    #[test]
    fn paging_accepts_numbers_and_numeric_strings() {
        assert_eq!(
            paging_of(r#"{"page":3,"pageSize":"50"}"#).unwrap(),
            Paging {
                page: 3,
                page_size: 50
            }
        );
        assert_eq!(
            paging_of(r#"{"page":"2","pageSize":500}"#).unwrap(),
            Paging {
                page: 2,
                page_size: 500
            }
        );
        let text = parse_paging(&RawParams::from_query(Some("page=4&pageSize=1"))).unwrap();
        assert_eq!(
            text,
            Paging {
                page: 4,
                page_size: 1
            }
        );
    }

    #[test]
    fn paging_rejects_out_of_range_and_non_integers() {
        for (body, name) in [
            (r#"{"page":0}"#, "\"page\""),
            (r#"{"page":-1}"#, "\"page\""),
            (r#"{"page":1.5}"#, "\"page\""),
            (r#"{"page":"x"}"#, "\"page\""),
            (r#"{"page":true}"#, "\"page\""),
            (r#"{"pageSize":0}"#, "\"pageSize\""),
            (r#"{"pageSize":501}"#, "\"pageSize\""),
            (r#"{"pageSize":"501"}"#, "\"pageSize\""),
        ] {
            let err = paging_of(body).unwrap_err();
            assert!(err.message.contains(name), "{body}: {}", err.message);
        }
        assert!(parse_paging(&RawParams::from_query(Some("page=abc"))).is_err());
    }

    #[test]
    fn paging_takes_integral_numbers_as_integers() {
        assert_eq!(
            paging_of(r#"{"page":29290.0,"pageSize":1.4e2}"#).unwrap(),
            Paging {
                page: 29290,
                page_size: 140
            }
        );
        assert_eq!(
            paging_of(r#"{"page":9007199254740991.0}"#).unwrap().page,
            MAX_PAGE
        );
        for body in [
            r#"{"page":0.5}"#,
            r#"{"page":-0.0}"#,
            r#"{"page":9007199254740992.0}"#,
            r#"{"page":1e19}"#,
            r#"{"page":1e300}"#,
            r#"{"pageSize":500.000001}"#,
        ] {
            assert!(paging_of(body).is_err(), "{body}");
        }
    }

    #[test]
    fn numeric_strings_are_ascii_digits_only() {
        assert_eq!(
            parse_paging(&RawParams::from_query(Some("page=007&pageSize=0500"))).unwrap(),
            Paging {
                page: 7,
                page_size: 500
            }
        );
        for text in [
            "+1",
            "-1",
            "1.0",
            " 1",
            "1_000",
            "\u{661}",
            "",
            "99999999999999999999",
        ] {
            let body = serde_json::json!({ "page": text }).to_string();
            let err = paging_of(&body).unwrap_err();
            assert!(
                err.message
                    .contains("must be an integer from 1 to 9007199254740991"),
                "{text:?}: {}",
                err.message
            );
        }
    }

    #[test]
    fn body_overrides_query_string_and_unknown_params_are_ignored() {
        let mut params = RawParams::from_query(Some("active=false&query=ana&extra=1"));
        params
            .merge_body(
                Some("application/json; charset=utf-8"),
                br#"{"active":"true","sort":"x"}"#,
            )
            .unwrap();
        let filter = parse_filter(&params).unwrap();
        assert_eq!(
            filter,
            Filter {
                query: Some("ana".into()),
                active: Active::True
            }
        );
    }

    #[test]
    fn every_value_is_checked_and_the_last_valid_one_counts() {
        let mut params = RawParams::from_query(Some("active=false&active=AAA"));
        let err = parse_filter(&params).unwrap_err();
        assert!(err.message.contains("\"AAA\""), "{}", err.message);
        params = RawParams::from_query(Some("active=AAA&page=0"));
        params
            .merge_body(Some("application/json"), br#"{"active":true,"page":2}"#)
            .unwrap();
        assert!(parse_filter(&params).is_err());
        assert!(parse_paging(&params).is_err());
        params = RawParams::from_query(Some("active=false&page=3"));
        params
            .merge_body(Some("application/json"), br#"{"active":true,"page":2}"#)
            .unwrap();
        assert_eq!(parse_filter(&params).unwrap().active, Active::True);
        assert_eq!(parse_paging(&params).unwrap().page, 2);
    }

    #[test]
    fn query_refuses_control_characters() {
        for text in ["\0", "a\0b", "\t", "\n", "\u{7f}", "\u{85}", "\u{9f}"] {
            let body = serde_json::json!({ "query": text }).to_string();
            let err = filter_of(&body).unwrap_err();
            assert!(
                err.message.contains("control characters"),
                "{}",
                err.message
            );
        }
        assert!(filter_of(r#"{"query":"a\u00a0b\u200bc"}"#).is_ok());
    }

    #[test]
    fn a_form_that_looks_like_json_is_refused() {
        for body in [&b"{}"[..], b"  [1]", b"{\"active\":\"nope\"}"] {
            let err = RawParams::default()
                .merge_body(Some("application/x-www-form-urlencoded"), body)
                .unwrap_err();
            assert!(
                err.message.contains("Content-Type: application/json"),
                "{}",
                err.message
            );
        }
    }

    #[test]
    fn form_bodies_are_decoded() {
        let mut params = RawParams::default();
        params
            .merge_body(
                Some("application/x-www-form-urlencoded"),
                b"query=o%27brien&active=true",
            )
            .unwrap();
        let filter = parse_filter(&params).unwrap();
        assert_eq!(
            filter,
            Filter {
                query: Some("o'brien".into()),
                active: Active::True
            }
        );
    }

    #[test]
    fn bad_bodies_are_rejected() {
        let mut params = RawParams::default();
        let err = params
            .merge_body(Some("application/json"), b"{nope")
            .unwrap_err();
        assert!(err.message.starts_with("malformed JSON"), "{}", err.message);
        let err = params
            .merge_body(Some("application/json"), b"[1]")
            .unwrap_err();
        assert!(err.message.contains("must be an object"), "{}", err.message);
        let err = params
            .merge_body(Some("text/plain"), b"query=x")
            .unwrap_err();
        assert!(err.message.contains("text/plain"), "{}", err.message);
        // Empty bodies are fine whatever they claim to be.
        assert!(params.merge_body(Some("text/plain"), b"").is_ok());
        // A body of whitespace is not JSON.
        let err = params
            .merge_body(Some("application/json"), b"  ")
            .unwrap_err();
        assert!(err.message.starts_with("malformed JSON"), "{}", err.message);
        // Without a content type the body is sniffed.
        params.merge_body(None, br#"{"active":"false"}"#).unwrap();
        assert_eq!(parse_filter(&params).unwrap().active, Active::False);
    }
}
