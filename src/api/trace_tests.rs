//! A count retried once after a 503 whose `Retry-After` says 1 s, seen by
//! a subscriber of the tests' own: one `users.count` span holding two
//! attempt spans, 503 then 200, with their HTTP client fields, and one
//! DEBUG retry event of 1,000 ms; nothing recorded holds the query's value
//! or a `?`. On WASI through `wasi:http` against the reference server
//! (`USERS_API_URL`, compiled in: `make component-tests` runs this under
//! `scripts/with-server.sh --faults`); natively through reqwest against a
//! server of the test's own. (The app on today's reqwest,
//! `tests/apps/reqwest-app`, checks the same through `tracing-subscriber`.)

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

type Values = Vec<(String, String)>;

#[derive(Debug)]
struct SpanSeen {
    id: u64,
    name: &'static str,
    parent: Option<u64>,
    fields: Values,
}

#[derive(Debug)]
struct EventSeen {
    level: tracing::Level,
    span: Option<u64>,
    fields: Values,
}

#[derive(Default)]
struct Recorded {
    next: AtomicU64,
    spans: Mutex<Vec<SpanSeen>>,
    events: Mutex<Vec<EventSeen>>,
    entered: Mutex<Vec<u64>>,
}

#[derive(Clone, Default)]
struct Recorder(Arc<Recorded>);

struct Fields<'a>(&'a mut Vec<(String, String)>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.push((field.name().into(), format!("{value:?}")));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.push((field.name().into(), value.into()));
    }
    fn record_f64(&mut self, field: &Field, value: f64) {
        self.0.push((field.name().into(), value.to_string()));
    }
}

impl Subscriber for Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        let id = self.0.next.fetch_add(1, Ordering::SeqCst) + 1;
        let parent = attrs
            .parent()
            .map(Id::into_u64)
            .or_else(|| self.0.entered.lock().unwrap().last().copied());
        let mut fields = Vec::new();
        attrs.record(&mut Fields(&mut fields));
        let name = attrs.metadata().name();
        let seen = SpanSeen {
            id,
            name,
            parent,
            fields,
        };
        self.0.spans.lock().unwrap().push(seen);
        Id::from_u64(id)
    }
    fn record(&self, id: &Id, values: &Record<'_>) {
        let mut spans = self.0.spans.lock().unwrap();
        if let Some(span) = spans.iter_mut().find(|s| s.id == id.into_u64()) {
            values.record(&mut Fields(&mut span.fields));
        }
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let span = self.0.entered.lock().unwrap().last().copied();
        let mut fields = Vec::new();
        event.record(&mut Fields(&mut fields));
        let level = *event.metadata().level();
        let seen = EventSeen {
            level,
            span,
            fields,
        };
        self.0.events.lock().unwrap().push(seen);
    }
    fn enter(&self, id: &Id) {
        self.0.entered.lock().unwrap().push(id.into_u64());
    }
    fn exit(&self, _: &Id) {
        self.0.entered.lock().unwrap().pop();
    }
}

fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    let found = fields.iter().rev().find(|(key, _)| key == name);
    found.map(|(_, value)| value.as_str())
}

/// What a retried count recorded, checked. `path` is the request's path.
fn check(recorder: &Recorder, path: &str) {
    let spans = recorder.0.spans.lock().unwrap();
    let calls: Vec<_> = spans.iter().filter(|s| s.name == "users.count").collect();
    assert_eq!(calls.len(), 1, "{spans:?}");
    let call = calls[0].id;
    let attempts: Vec<_> = spans.iter().filter(|s| s.parent == Some(call)).collect();
    let statuses: Vec<_> = attempts
        .iter()
        .map(|s| field(&s.fields, "http.response.status_code"))
        .collect();
    assert_eq!(statuses, [Some("503"), Some("200")], "{spans:?}");
    for (resend, attempt) in attempts.iter().enumerate() {
        assert_eq!(attempt.name, "POST", "{spans:?}");
        let resend = resend.to_string();
        let fields = [
            ("otel.kind", "client"),
            ("http.request.method", "POST"),
            ("server.address", "127.0.0.1"),
            ("url.path", path),
            ("http.request.resend_count", &resend),
        ];
        for (name, value) in fields {
            assert_eq!(
                field(&attempt.fields, name),
                Some(value),
                "{name}: {spans:?}"
            );
        }
        assert!(field(&attempt.fields, "server.port").is_some(), "{spans:?}");
    }
    assert_eq!(field(&attempts[0].fields, "error.type"), Some("http"));
    assert_eq!(field(&attempts[1].fields, "error.type"), None);
    assert_eq!(field(&calls[0].fields, "error.type"), None);
    let events = recorder.0.events.lock().unwrap();
    let retries: Vec<_> = events.iter().filter(|e| e.span == Some(call)).collect();
    assert_eq!(retries.len(), 1, "{events:?}");
    assert_eq!(retries[0].level, tracing::Level::DEBUG);
    assert_eq!(field(&retries[0].fields, "delay_ms"), Some("1000"));
    assert_eq!(field(&retries[0].fields, "error.type"), Some("http"));
    assert_eq!(
        field(&retries[0].fields, "http.response.status_code"),
        Some("503")
    );
    let recorded = format!("{spans:?}{events:?}");
    assert!(!recorded.contains("ann-secret-name"), "{recorded}");
    assert!(!recorded.contains('?'), "{recorded}");
}

fn client(base: String, retries: u32) -> crate::UsersClient {
    let options = crate::ClientOptions::new(base)
        .params_in(crate::ParamsIn::Query)
        .retries(retries);
    crate::UsersClient::new(options).expect("client")
}

#[cfg(target_os = "wasi")]
#[test]
fn a_retried_count_is_one_call_span_with_two_attempt_spans_and_a_retry_event() {
    let Some(server) = option_env!("USERS_API_URL") else {
        panic!(
            "USERS_API_URL was not set at compile time: run under scripts/with-server.sh --faults"
        );
    };
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    let key = now.map_or(0, |since| since.as_nanos());
    let path = format!("/faults/retry-after-seconds/wasi-trace-{key}");
    let client = client(format!("{server}{path}"), 1);
    let recorder = Recorder::default();
    let count = tracing::subscriber::with_default(recorder.clone(), || {
        wstd::runtime::block_on(client.count_users().query("ann-secret-name").send())
    })
    .expect("the second attempt");
    assert_eq!(count.result.total_users, 7);
    check(&recorder, &format!("{path}/api/users/count"));
}

/// Natively: a server that answers its first request 503 (`Retry-After:
/// 1`) and every other a count of 7, closing each connection.
#[cfg(not(target_arch = "wasm32"))]
async fn busy_once() -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("an address");
    tokio::spawn(async move {
        for answer in 0.. {
            let Ok((mut tcp, _)) = listener.accept().await else {
                return;
            };
            let mut seen = Vec::new();
            let mut buffer = [0u8; 1024];
            while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
                match tcp.read(&mut buffer).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => seen.extend_from_slice(&buffer[..n]),
                }
            }
            let body = r#"{"status":200,"result":{"totalUsers":7}}"#;
            let response = match answer {
                0 => "HTTP/1.1 503 Service Unavailable\r\nretry-after: 1\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".to_string(),
                _ => format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len()),
            };
            let _ = tcp.write_all(response.as_bytes()).await;
            let _ = tcp.shutdown().await;
        }
    });
    format!("http://{address}")
}

/// Natively: a count with `retries` against [`busy_once`], with its
/// outcome and what the recorder saw of it.
#[cfg(not(target_arch = "wasm32"))]
fn recorded_count(
    retries: u32,
) -> (
    Result<crate::Envelope<crate::Count>, crate::Error>,
    Recorder,
) {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let recorder = Recorder::default();
    let outcome = tracing::subscriber::with_default(recorder.clone(), || {
        runtime.block_on(async {
            let client = client(busy_once().await, retries);
            client.count_users().query("ann-secret-name").send().await
        })
    });
    (outcome, recorder)
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_retried_count_is_one_call_span_with_two_attempt_spans_and_a_retry_event() {
    let (count, recorder) = recorded_count(1);
    assert_eq!(count.expect("the second attempt").result.total_users, 7);
    check(&recorder, "/api/users/count");
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_failed_calls_span_has_its_error_type() {
    let (failed, recorder) = recorded_count(0);
    assert_eq!(failed.expect_err("the 503").http_status(), Some(503));
    let spans = recorder.0.spans.lock().unwrap();
    let call = spans.iter().find(|s| s.name == "users.count");
    let error_type = call.and_then(|call| field(&call.fields, "error.type"));
    assert_eq!(error_type, Some("http"), "{spans:?}");
}
