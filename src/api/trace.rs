//! What a call tells `tracing` (the `tracing` feature, on by default): a
//! span per call, `users.count` or `users.list` (INFO), and inside it a
//! span per attempt (DEBUG), named `POST` as OpenTelemetry names an HTTP
//! client span, with its HTTP client fields: `http.request.method`,
//! `server.address`, `server.port`, `url.path`, `http.request.resend_count`
//! (0 for the first attempt), then `http.response.status_code` when the
//! response headers arrive and `error.type` (the error's kind) when the
//! attempt fails; and a DEBUG event before each retry with its delay and
//! why. The call span gets `error.type` too when the call fails.
//!
//! Never a header, a param's value or a query string: the URL is given as
//! its host, port and path only.
//!
//! Without the feature every function here is empty and a span is a unit:
//! the npm package's `.wasm` and the component carry none of it.

use std::future::Future;

use crate::error::Error;
use crate::model::Operation;

/// A call's or an attempt's span.
#[cfg(feature = "tracing")]
#[derive(Clone)]
pub(crate) struct Span(tracing::Span);

/// A call's or an attempt's span: nothing, without the `tracing` feature.
#[cfg(not(feature = "tracing"))]
#[derive(Clone, Copy)]
pub(crate) struct Span;

#[cfg(feature = "tracing")]
impl Span {
    /// The span of a call of `operation`.
    pub(crate) fn call(operation: Operation) -> Span {
        let empty = tracing::field::Empty;
        Span(match operation {
            Operation::Count => tracing::info_span!("users.count", "error.type" = empty),
            Operation::List => tracing::info_span!("users.list", "error.type" = empty),
        })
    }

    /// The span of the attempt to `url` that is the call's
    /// `resend_count`th resend (0: its first attempt), inside the call's.
    pub(crate) fn attempt(url: &str, resend_count: u32) -> Span {
        let parts = UrlParts::of(url);
        let empty = tracing::field::Empty;
        Span(tracing::debug_span!(
            "POST",
            otel.kind = "client",
            http.request.method = "POST",
            server.address = parts.host,
            server.port = parts.port,
            url.path = parts.path,
            http.request.resend_count = resend_count,
            http.response.status_code = empty,
            "error.type" = empty,
        ))
    }

    /// Whether a subscriber records this span (its status is then worth
    /// the transport's telling).
    pub(crate) fn is_recorded(&self) -> bool {
        !self.0.is_disabled()
    }

    /// What records the response's HTTP status in this span, for the
    /// transport to call when the response headers arrive.
    pub(crate) fn status_recorder(&self) -> StatusRecorder<'_> {
        StatusRecorder(&self.0)
    }

    /// Records what the call or the attempt failed with.
    pub(crate) fn failed(&self, error: &Error) {
        self.0.record("error.type", error.kind().as_str());
    }

    /// `future`, run inside this span.
    pub(crate) fn run<F: Future>(&self, future: F) -> impl Future<Output = F::Output> {
        tracing::Instrument::instrument(future, self.0.clone())
    }
}

#[cfg(not(feature = "tracing"))]
impl Span {
    pub(crate) fn call(_: Operation) -> Span {
        Span
    }

    pub(crate) fn attempt(_: &str, _: u32) -> Span {
        Span
    }

    pub(crate) fn is_recorded(&self) -> bool {
        false
    }

    pub(crate) fn status_recorder(&self) -> StatusRecorder<'_> {
        StatusRecorder(std::marker::PhantomData)
    }

    pub(crate) fn failed(&self, _: &Error) {}

    pub(crate) fn run<F: Future>(&self, future: F) -> F {
        future
    }
}

/// Records a response's HTTP status in an attempt's span.
#[cfg(feature = "tracing")]
#[derive(Clone, Copy)]
pub(crate) struct StatusRecorder<'a>(&'a tracing::Span);

/// Records a response's HTTP status in an attempt's span: nothing, and of
/// no size (a closure that holds one grows by nothing), without the
/// `tracing` feature.
#[cfg(not(feature = "tracing"))]
#[derive(Clone, Copy)]
pub(crate) struct StatusRecorder<'a>(std::marker::PhantomData<&'a ()>);

impl StatusRecorder<'_> {
    /// Records `http_status`.
    pub(crate) fn record(self, http_status: u16) {
        #[cfg(feature = "tracing")]
        self.0.record("http.response.status_code", http_status);
        #[cfg(not(feature = "tracing"))]
        let _ = http_status;
    }
}

/// The DEBUG event before a retry: the pause before resend number
/// `resend_count`, and why: the error the retry rule judged
/// (`error.type`, and the HTTP status where there was one), or else
/// `afterResponse` asking for the attempt again.
#[cfg(feature = "tracing")]
pub(crate) fn retrying(delay_ms: f64, resend_count: u32, judged: Option<&Error>) {
    let reason = judged.map_or("asked by after_response", |error| error.kind().as_str());
    let status = judged.and_then(Error::http_status);
    tracing::debug!(
        delay_ms,
        http.request.resend_count = resend_count,
        "error.type" = reason,
        http.response.status_code = status,
        "retrying after {delay_ms} ms"
    );
}

#[cfg(not(feature = "tracing"))]
pub(crate) fn retrying(_: f64, _: u32, _: Option<&Error>) {}

/// What a span says of a URL: its host (an IPv6 address without its
/// brackets), its port (the scheme's when the URL gives none) and its path
/// (never its query string, fragment or user info).
#[cfg(any(feature = "tracing", test))]
#[derive(Debug, PartialEq)]
struct UrlParts<'a> {
    host: &'a str,
    port: Option<u16>,
    path: &'a str,
}

#[cfg(any(feature = "tracing", test))]
impl UrlParts<'_> {
    fn of(url: &str) -> UrlParts<'_> {
        let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (authority, rest) = rest.split_at(end);
        let path = &rest[..rest.find(['?', '#']).unwrap_or(rest.len())];
        let host_port = authority
            .rsplit_once('@')
            .map_or(authority, |(_, after)| after);
        let (host, port) = match host_port.strip_prefix('[') {
            Some(v6) => match v6.split_once(']') {
                Some((host, port)) => (host, port.strip_prefix(':')),
                None => (v6, None),
            },
            None => match host_port.rsplit_once(':') {
                Some((host, port)) => (host, Some(port)),
                None => (host_port, None),
            },
        };
        let port = match port {
            Some(port) => port.parse().ok(),
            None => match scheme {
                "http" => Some(80),
                "https" => Some(443),
                _ => None,
            },
        };
        UrlParts {
            host,
            port,
            path: if path.is_empty() { "/" } else { path },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UrlParts;

    #[test]
    fn a_url_s_host_port_and_path_without_its_query_or_user_info() {
        let cases = [
            (
                "http://127.0.0.1:8080/api/users/count?query=ann&active=true",
                ("127.0.0.1", Some(8080), "/api/users/count"),
            ),
            (
                "https://user:pw@api.example.com/v1/api/users#top",
                ("api.example.com", Some(443), "/v1/api/users"),
            ),
            ("http://example.com", ("example.com", Some(80), "/")),
            (
                "http://[::1]:9/api/users?x=1",
                ("::1", Some(9), "/api/users"),
            ),
            ("https://[2001:db8::1]/a", ("2001:db8::1", Some(443), "/a")),
            ("http://h:notaport/p", ("h", None, "/p")),
        ];
        for (url, (host, port, path)) in cases {
            assert_eq!(UrlParts::of(url), UrlParts { host, port, path }, "{url}");
        }
    }
}

/// On WASI, through `wasi:http` against the reference server
/// (`USERS_API_URL`, compiled in: `make component-tests` runs this under
/// `scripts/with-server.sh --faults`), with a subscriber of the test's own:
/// a count retried once after a 503 is one `users.count` span holding two
/// attempt spans, 503 then 200, and one DEBUG retry event; no recorded
/// value holds the query's value or a `?`. (Natively the app on today's
/// reqwest, `tests/apps/reqwest-app`, checks the same through
/// `tracing-subscriber`.)
#[cfg(all(test, feature = "tracing", target_os = "wasi"))]
mod wasi_tests {
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

    #[test]
    fn a_retried_count_is_one_call_span_with_two_attempt_spans_and_a_retry_event() {
        let Some(server) = option_env!("USERS_API_URL") else {
            panic!("USERS_API_URL was not set at compile time: run under scripts/with-server.sh --faults");
        };
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        let key = now.map_or(0, |since| since.as_nanos());
        let base = format!("{server}/faults/retry-after-seconds/wasi-trace-{key}");
        let options = crate::ClientOptions::new(base)
            .params_in(crate::ParamsIn::Query)
            .retries(1);
        let client = crate::UsersClient::new(options).expect("client");
        let recorder = Recorder::default();
        let count = tracing::subscriber::with_default(recorder.clone(), || {
            wstd::runtime::block_on(client.count_users().query("ann-secret-name").send())
        })
        .expect("the second attempt");
        assert_eq!(count.result.total_users, 7);
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
        assert!(attempts.iter().all(|s| s.name == "POST"), "{spans:?}");
        let events = recorder.0.events.lock().unwrap();
        let retries: Vec<_> = events.iter().filter(|e| e.span == Some(call)).collect();
        assert_eq!(retries.len(), 1, "{events:?}");
        assert_eq!(retries[0].level, tracing::Level::DEBUG);
        assert_eq!(field(&retries[0].fields, "delay_ms"), Some("1000"));
        let recorded = format!("{spans:?}{events:?}");
        assert!(!recorded.contains("ann-secret-name"), "{recorded}");
        assert!(!recorded.contains('?'), "{recorded}");
    }
}
