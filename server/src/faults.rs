//! The fault mode (`--faults`, off by default): routes that misbehave on
//! purpose, so the client's tests meet real network failures over a real
//! socket. A client whose base URL is `{server}/faults/{scenario}/{key}`
//! gets the scenario on both operations; `GET .../attempts` says how many
//! requests that scenario and key received (keys keep tests apart), so tests
//! can assert exact retry counts, and `GET .../closed` how many of its
//! requests the client gave up on (closed the connection) before the
//! answer, so tests can prove a cancelled call's request went away.
//!
//! The mode exists for tests on one machine: a server started with it must
//! never be reachable beyond loopback.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use futures_util::stream;
use serde_json::{json, Value};

use crate::body::Body as RequestBody;
use crate::params::RawParams;

mod echo_forms;
mod hook_answers;
/// How many `scenario/key` counts are kept; the oldest key is forgotten
/// first, so the map stays bounded however many paths are asked for.
pub const MAX_KEYS: usize = 1024;

/// Requests received per `scenario/key`.
type Attempts = Arc<Mutex<Counts>>;

/// Counts per key, with the keys in the order they were first seen.
#[derive(Debug, Default)]
struct Counts {
    counts: HashMap<String, u64>,
    order: VecDeque<String>,
}

impl Counts {
    /// Counts one more request for `key`; returns its count.
    fn bump(&mut self, key: String) -> u64 {
        if let Some(n) = self.counts.get_mut(&key) {
            *n += 1;
            return *n;
        }
        if self.order.len() >= MAX_KEYS {
            if let Some(oldest) = self.order.pop_front() {
                self.counts.remove(&oldest);
            }
        }
        self.order.push_back(key.clone());
        self.counts.insert(key, 1);
        1
    }

    fn get(&self, key: &str) -> u64 {
        self.counts.get(key).copied().unwrap_or(0)
    }
}

/// The scenarios, for `GET /faults` and the README.
pub const SCENARIOS: [&str; 32] = [
    "ok",
    "html-500",
    "envelope-400",
    "envelope-404",
    "not-json",
    "empty",
    "truncated",
    "stalled",
    "not-envelope",
    "status-string",
    "status-403",
    "total-string",
    "total-float",
    "total-negative",
    "total-2p53",
    "total-null",
    "whole-floats",
    "result-null",
    "slow",
    "dropped",
    "retry-after-seconds",
    "retry-after-date",
    "retry-after-long",
    "busy",
    "big",
    "big-straddling",
    "echo",
    "echo-auth-401",
    "token-expired",
    "endless",
    "held",
    "late",
];

/// The routes under `/faults`.
pub fn router() -> Router {
    let attempts: Attempts = Arc::default();
    Router::new()
        .route(
            "/",
            get(|| async {
                raw(
                    200,
                    "application/json",
                    &json!({ "scenarios": ([&SCENARIOS[..], &echo_forms::SCENARIOS[..], &hook_answers::SCENARIOS[..]].concat()) })
                        .to_string(),
                )
            }),
        )
        .route("/{scenario}/{key}/api/users/count", post(answer))
        .route("/{scenario}/{key}/api/users", post(answer))
        .route("/{scenario}/{key}/attempts", get(attempts_of))
        .route("/{scenario}/{key}/closed", get(closed_of))
        .with_state(attempts)
}

async fn attempts_of(
    State(attempts): State<Attempts>,
    Path((scenario, key)): Path<(String, String)>,
) -> Response {
    let n = lock(&attempts).get(&format!("{scenario}/{key}"));
    raw(
        200,
        "application/json",
        &json!({ "attempts": n }).to_string(),
    )
}

async fn closed_of(
    State(attempts): State<Attempts>,
    Path((scenario, key)): Path<(String, String)>,
) -> Response {
    let n = lock(&attempts).get(&format!("closed:{scenario}/{key}"));
    raw(200, "application/json", &json!({ "closed": n }).to_string())
}

/// Counts, when dropped before [`Held::answered`], one more request of its
/// key whose client closed the connection first: hyper drops a handler's
/// future when its connection closes.
struct Held {
    attempts: Attempts,
    key: String,
    answered: bool,
}

impl Drop for Held {
    fn drop(&mut self) {
        if !self.answered {
            lock(&self.attempts).bump(format!("closed:{}", self.key));
        }
    }
}

fn lock(attempts: &Attempts) -> std::sync::MutexGuard<'_, Counts> {
    // A poisoned lock only means a panicking request; the counts are fine.
    attempts
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

async fn answer(
    State(attempts): State<Attempts>,
    Path((scenario, key)): Path<(String, String)>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: RequestBody,
) -> Response {
    let attempt = lock(&attempts).bump(format!("{scenario}/{key}"));
    match scenario.as_str() {
        // 200, then a body that never ends (no Content-Length): 64 KiB
        // chunks for as long as the client reads.
        "endless" => {
            let chunk = Bytes::from(vec![b' '; 64 * 1024]);
            let body = Body::from_stream(stream::repeat_with(move || {
                Ok::<_, std::io::Error>(chunk.clone())
            }));
            let mut response = (StatusCode::OK, body).into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            response
        }
        // Answers after 10.5 s: just past a client's default timeout (10 s),
        // for a client with none (`timeoutMs: 0`) where no query can say
        // how long (`slow?ms=`).
        "late" => {
            tokio::time::sleep(Duration::from_millis(10_500)).await;
            raw(
                200,
                "application/json",
                r#"{"status":200,"result":{"totalUsers":7}}"#,
            )
        }
        // Answers after 30 s, counting under `closed` a request whose client
        // closed the connection before that.
        "held" => {
            let mut held = Held {
                attempts: attempts.clone(),
                key: format!("{scenario}/{key}"),
                answered: false,
            };
            tokio::time::sleep(Duration::from_secs(30)).await;
            held.answered = true;
            raw(
                200,
                "application/json",
                r#"{"status":200,"result":{"totalUsers":7}}"#,
            )
        }
        "ok" => raw(
            200,
            "application/json",
            r#"{"status":200,"result":{"totalUsers":7}}"#,
        ),
        "html-500" => raw(
            500,
            "text/html",
            "<!doctype html><h1>500 Internal Server Error</h1>",
        ),
        "envelope-400" => raw(
            400,
            "application/json",
            r#"{"status":400,"result":{"error":"bad request"}}"#,
        ),
        "envelope-404" => raw(
            404,
            "application/json",
            r#"{"status":404,"result":{"error":"not found"}}"#,
        ),
        "not-json" => raw(200, "application/json", "this is not JSON"),
        "empty" => raw(200, "application/json", ""),
        "truncated" => cut_body(true),
        "stalled" => cut_body(false),
        "not-envelope" => raw(200, "application/json", "[1,2,3]"),
        "status-string" => raw(
            200,
            "application/json",
            r#"{"status":"200","result":{"totalUsers":7}}"#,
        ),
        "status-403" => raw(
            200,
            "application/json",
            r#"{"status":403,"result":{"error":"forbidden"}}"#,
        ),
        "total-string" => total(r#""7""#),
        "total-float" => total("1.5"),
        "total-negative" => total("-1"),
        "total-2p53" => total("9007199254740992"),
        "total-null" => total("null"),
        // Whole numbers written as floats, which JSON.parse reads as
        // integers: a good count (42) and a good page, for either call.
        "whole-floats" => raw(
            200,
            "application/json",
            r#"{"status":200.0,"result":{"totalUsers":4.2e1,"users":[{"id":7.0}],"page":1.0,"pageSize":1e1}}"#,
        ),
        "result-null" => raw(200, "application/json", r#"{"status":200,"result":null}"#),
        "slow" => {
            let ms = query
                .as_deref()
                .and_then(|q| q.strip_prefix("ms="))
                .and_then(|ms| ms.parse().ok())
                .unwrap_or(30_000u64)
                .min(30_000);
            tokio::time::sleep(Duration::from_millis(ms)).await;
            raw(
                200,
                "application/json",
                r#"{"status":200,"result":{"totalUsers":7}}"#,
            )
        }
        "dropped" => dropped(),
        "retry-after-seconds" if attempt == 1 => retry_after(503, "1".to_owned()),
        "retry-after-date" if attempt == 1 => retry_after(429, http_date_in(2)),
        "retry-after-long" if attempt == 1 => retry_after(503, "5".to_owned()),
        "retry-after-seconds" | "retry-after-date" | "retry-after-long" => raw(
            200,
            "application/json",
            r#"{"status":200,"result":{"totalUsers":7}}"#,
        ),
        "busy" => retry_after(503, "0".to_owned()),
        "big" => raw(200, "text/plain", &big_text(BODY_CUT - 2)),
        "big-straddling" => raw(200, "text/plain", &big_text(BODY_CUT - 1)),
        "echo" => echo(query.as_deref(), &headers, body.bytes()),
        scenario if scenario.starts_with("echo-auth-") && scenario != "echo-auth-401" => {
            let auth = headers
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            match echo_forms::answer(scenario, auth) {
                Some((status, content_type, body)) => raw(status, content_type, &body),
                None => unknown(),
            }
        }
        "echo-auth-401" => {
            let auth = headers
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            let body =
                json!({ "status": 401, "result": { "error": format!("bad credentials: {auth}") } });
            raw(401, "application/json", &body.to_string())
        }
        // The book's recipe for a token that expires: every token but
        // `fresh` has expired.
        "token-expired" => {
            if headers.get(header::AUTHORIZATION) == Some(&HeaderValue::from_static("Bearer fresh"))
            {
                raw(
                    200,
                    "application/json",
                    r#"{"status":200,"result":{"totalUsers":7}}"#,
                )
            } else {
                raw(
                    401,
                    "application/json",
                    r#"{"status":401,"result":{"error":"token expired"}}"#,
                )
            }
        }
        scenario => hook_answers::answer(scenario, attempt, &headers).unwrap_or_else(unknown),
    }
}

fn unknown() -> Response {
    raw(
        404,
        "application/json",
        r#"{"status":404,"result":{"error":"unknown fault scenario"}}"#,
    )
}

fn raw(status: u16, content_type: &'static str, body: &str) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, body.to_owned()).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

fn total(value: &str) -> Response {
    let body = format!(r#"{{"status":200,"result":{{"totalUsers":{value}}}}}"#);
    raw(200, "application/json", &body)
}

fn retry_after(status: u16, value: String) -> Response {
    let mut response = raw(
        status,
        "application/json",
        r#"{"status":503,"result":{"error":"busy"}}"#,
    );
    if let Ok(value) = HeaderValue::from_str(&value) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

/// Where a client cuts a text body that is not JSON: after its first 65,536
/// UTF-16 units.
const BODY_CUT: usize = 65_536;

/// 10 MiB of text that differs at every position, so that a test can tell
/// which slice of it a client kept: the numbers `0 1 2 3 …`, each followed
/// by a space, all ASCII, except for U+1F600 (two UTF-16 units) put in after
/// the first `pair_at` characters. `big` puts it at units 65,534 and 65,535
/// (counting from 0), the last two a cut keeps; `big-straddling` at 65,535
/// and 65,536, across the cut, where a cut that splits no pair drops it.
fn big_text(pair_at: usize) -> String {
    const LEN: usize = 10 * 1024 * 1024;
    let mut text = String::with_capacity(LEN + 16);
    let mut n = 0u64;
    while text.len() < LEN {
        text.push_str(&format!("{n} "));
        n += 1;
    }
    // All ASCII so far: a byte offset is a character's.
    text.insert(pair_at, '\u{1F600}');
    text.truncate(LEN);
    text
}

/// Marks an answer whose body is cut on purpose (`truncated`, `stalled`):
/// the server does not add `Connection: close` to it, which would let a
/// client take the cut for the body's end.
#[derive(Clone, Copy, Debug)]
pub struct CutBody;

/// Promises 100 bytes, sends 14, then closes the connection (`truncated`)
/// or never sends the rest (`stalled`).
fn cut_body(close: bool) -> Response {
    let start = stream::iter([Ok::<_, std::io::Error>(Bytes::from_static(
        b"{\"status\":200,",
    ))]);
    let body = if close {
        // The pause lets the headers and the first bytes go out first.
        let end = stream::once(async {
            tokio::time::sleep(Duration::from_millis(100)).await;
            Err(std::io::Error::other("truncated on purpose"))
        });
        Body::from_stream(futures_util::StreamExt::chain(start, end))
    } else {
        Body::from_stream(futures_util::StreamExt::chain(start, stream::pending()))
    };
    let mut response = (StatusCode::OK, body).into_response();
    response.extensions_mut().insert(CutBody);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from_static("100"));
    response
}

/// The connection closes without an answer: the body fails before hyper has
/// written anything, so not even the status line goes out.
fn dropped() -> Response {
    let body = Body::from_stream(stream::iter([Err::<Bytes, _>(std::io::Error::other(
        "dropped on purpose",
    ))]));
    let mut response = (StatusCode::OK, body).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_LENGTH, HeaderValue::from_static("42"));
    response
}

/// 200 with what the server decoded: the params (JSON body, query string or
/// form, merged as the real routes merge them), the headers that are not
/// credentials ([`is_credential_header`]) and the names, never the values,
/// of those that are.
fn echo(query: Option<&str>, headers: &HeaderMap, body: &[u8]) -> Response {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let mut params = RawParams::from_query(query);
    if let Err(error) = params.merge_body(content_type, body) {
        return error.into_response();
    }
    let (credentials, shown): (Vec<_>, Vec<_>) = headers
        .iter()
        .partition(|(name, _)| is_credential_header(name.as_str()));
    let shown: serde_json::Map<String, Value> = shown
        .into_iter()
        .map(|(name, value)| {
            let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
            (name.as_str().to_owned(), Value::String(value))
        })
        .collect();
    let named: Vec<&str> = credentials.iter().map(|(name, _)| name.as_str()).collect();
    let result = json!({
        "totalUsers": 0,
        "params": params.to_json(),
        "headers": shown,
        "credentialHeaders": named,
    });
    raw(
        200,
        "application/json",
        &json!({ "status": 200, "result": result }).to_string(),
    )
}

/// Whether a header (lower-case name) carries a credential: any name that
/// says auth, token, secret, key, session, cookie, password, credential or
/// jwt. The client's own rule (`is_credential_header` in the client crate's
/// `src/rules/secrets.rs`), which that crate does not export; keep the two
/// word lists the same.
fn is_credential_header(lower_name: &str) -> bool {
    const WORDS: [&str; 9] = [
        "auth",
        "token",
        "secret",
        "key",
        "session",
        "cookie",
        "password",
        "credential",
        "jwt",
    ];
    WORDS.iter().any(|word| lower_name.contains(word))
}

/// An IMF-fixdate `seconds` from now.
fn http_date_in(seconds: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
        + seconds;
    let (days, rest) = (now / 86_400, now % 86_400);
    let (year, month, day) = crate::seed::civil_from_days(days);
    format!(
        "{}, {:02} {} {} {:02}:{:02}:{:02} GMT",
        DAYS[(days % 7) as usize],
        day,
        MONTHS[(month - 1) as usize],
        year,
        rest / 3_600,
        rest % 3_600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credential_headers_by_the_clients_rule() {
        for name in [
            "authorization",
            "proxy-authorization",
            "cookie",
            "x-api-key",
            "x-auth-token",
            "x-session-id",
            "x-my-jwt",
        ] {
            assert!(is_credential_header(name), "{name}");
        }
        for name in ["x-request-id", "x-tenant", "content-type", "x-ke"] {
            assert!(!is_credential_header(name), "{name}");
        }
    }

    #[test]
    fn counts_forget_the_oldest_key_when_full() {
        let mut counts = Counts::default();
        assert_eq!(counts.bump("first".into()), 1);
        assert_eq!(counts.bump("first".into()), 2);
        for i in 0..MAX_KEYS {
            counts.bump(format!("k{i}"));
        }
        assert_eq!(counts.get("first"), 0);
        assert_eq!(counts.get("k0"), 1);
        assert_eq!(counts.counts.len(), MAX_KEYS);
        assert_eq!(counts.order.len(), MAX_KEYS);
    }
}
