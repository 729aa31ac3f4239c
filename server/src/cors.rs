//! CORS: which web pages may read the server's answers. The server's own
//! origin and loopback pages (`http://127.0.0.1`, `http://localhost` and
//! `http://[::1]`, any port: the demo, the test runners' pages) always may;
//! other origins only when listed with `--cors-origin`. No origin is ever
//! reflected just because it asked, `null` never is, and credentials are
//! allowed only with `--cors-credentials`, only for the listed origins.

use std::sync::Arc;
use std::time::Duration;

use axum::http::request::Parts;
use axum::http::{header, HeaderName, HeaderValue, Method};
use tower_http::cors::{AllowCredentials, AllowHeaders, AllowOrigin, CorsLayer};

use crate::host::{self, HostPolicy};

/// The origins a server run allows.
#[derive(Debug)]
pub struct OriginPolicy {
    listed: Vec<String>,
    credentials: bool,
    hosts: Arc<HostPolicy>,
}

impl OriginPolicy {
    /// `listed` are lower-case `scheme://host[:port]` origins; `credentials`
    /// allows credentials for them.
    pub fn new(listed: Vec<String>, credentials: bool, hosts: Arc<HostPolicy>) -> Self {
        Self {
            listed,
            credentials,
            hosts,
        }
    }

    /// Whether a page from `origin` may read an answer to `request`.
    pub fn allows(&self, origin: &str, request: &Parts) -> bool {
        let origin = origin.to_ascii_lowercase();
        self.is_listed(&origin) || is_loopback_page(&origin) || self.is_own(&origin, request)
    }

    /// Whether `origin` may send credentials.
    pub fn allows_credentials(&self, origin: &str) -> bool {
        self.credentials && self.is_listed(&origin.to_ascii_lowercase())
    }

    fn is_listed(&self, origin: &str) -> bool {
        self.listed.iter().any(|listed| listed == origin)
    }

    /// `http://` plus the request's own `Host`, when that host is served.
    fn is_own(&self, origin: &str, request: &Parts) -> bool {
        let Some(Ok(host)) = host::request_host(request) else {
            return false;
        };
        let authority = request
            .headers
            .get(header::HOST)
            .and_then(|value| value.to_str().ok())
            .map(str::to_ascii_lowercase);
        self.hosts.allows(&host)
            && authority
                .is_some_and(|authority| origin.strip_prefix("http://") == Some(authority.as_str()))
    }
}

/// `http://` and a loopback host, with or without a port.
fn is_loopback_page(origin: &str) -> bool {
    origin
        .strip_prefix("http://")
        .and_then(host::split_authority)
        .is_some_and(|(host, _)| host::is_loopback(host))
}

/// The CORS layer of this policy: the methods the routes answer, any
/// request header (the client sends the caller's own headers, such as
/// `x-api-key`; an origin that is not allowed gets nothing anyway), and
/// the headers the client reads exposed.
pub fn layer(policy: Arc<OriginPolicy>) -> CorsLayer {
    let origins = Arc::clone(&policy);
    CorsLayer::new()
        .allow_origin(AllowOrigin::predicate(
            move |origin: &HeaderValue, request: &Parts| {
                origin
                    .to_str()
                    .is_ok_and(|origin| origins.allows(origin, request))
            },
        ))
        .allow_credentials(AllowCredentials::predicate(
            move |origin: &HeaderValue, _: &Parts| {
                origin
                    .to_str()
                    .is_ok_and(|origin| policy.allows_credentials(origin))
            },
        ))
        .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
        .allow_headers(AllowHeaders::mirror_request())
        .expose_headers([
            header::RETRY_AFTER,
            header::ALLOW,
            header::CONTENT_LENGTH,
            HeaderName::from_static("x-request-id"),
        ])
        // Lets browsers cache preflights, so benchmarks measure requests.
        .max_age(Duration::from_secs(600))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::SocketAddr;

    fn policy(listed: &[&str], credentials: bool) -> OriginPolicy {
        let hosts = HostPolicy::new(SocketAddr::from(([127, 0, 0, 1], 8080)), Vec::new());
        OriginPolicy::new(
            listed.iter().map(|s| s.to_string()).collect(),
            credentials,
            Arc::new(hosts),
        )
    }

    fn parts(host: &str) -> Parts {
        let request = axum::http::Request::builder()
            .header(header::HOST, host)
            .body(())
            .unwrap();
        request.into_parts().0
    }

    #[test]
    fn loopback_listed_and_own_origins_only() {
        let policy = policy(&["https://app.example"], false);
        let request = parts("127.0.0.1:8080");
        for origin in [
            "http://127.0.0.1:5173",
            "http://LOCALHOST:3000",
            "http://[::1]:1",
            "http://localhost",
            "https://app.example",
        ] {
            assert!(policy.allows(origin, &request), "{origin}");
        }
        for origin in [
            "null",
            "https://evil.example",
            "https://app.example:444",
            "http://localhost.evil.example",
            "http://127.0.0.1@evil.example",
            "https://localhost:3000",
            "",
        ] {
            assert!(!policy.allows(origin, &request), "{origin}");
        }
        let lan = parts("devbox.lan:8080");
        assert!(!policy.allows("http://devbox.lan:8080", &lan));
    }

    #[test]
    fn credentials_only_for_listed_origins_when_asked() {
        assert!(!policy(&["https://app.example"], false).allows_credentials("https://app.example"));
        let policy = policy(&["https://app.example"], true);
        assert!(policy.allows_credentials("https://app.example"));
        assert!(!policy.allows_credentials("http://127.0.0.1:5173"));
    }
}
