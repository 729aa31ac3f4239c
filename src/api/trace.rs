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
use crate::rules::retry::Judged;

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
pub(crate) fn retrying(delay_ms: f64, resend_count: u32, judged: Option<Judged>) {
    let reason = judged.map_or("asked by after_response", |judged| judged.kind.as_str());
    let status = judged.and_then(|judged| judged.http_status);
    tracing::debug!(
        delay_ms,
        http.request.resend_count = resend_count,
        "error.type" = reason,
        http.response.status_code = status,
        "retrying after {delay_ms} ms"
    );
}

#[cfg(not(feature = "tracing"))]
pub(crate) fn retrying(_: f64, _: u32, _: Option<Judged>) {}

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

/// The spans and events of a retried count, recorded by a subscriber of
/// the tests' own, natively and on WASI.
#[cfg(all(
    test,
    feature = "tracing",
    not(all(target_arch = "wasm32", not(target_os = "wasi")))
))]
#[path = "trace_tests.rs"]
mod recorded;
