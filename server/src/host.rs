//! Which `Host` headers the server answers: the bound address, the loopback
//! names and addresses, and the hosts given with `--allow-host`. A web page
//! whose name an attacker re-points at 127.0.0.1 (DNS rebinding) sends its
//! own name as `Host`, so its requests are refused before any route runs.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::envelope::ApiError;

/// The hosts this server answers to.
#[derive(Debug, Clone)]
pub struct HostPolicy {
    bind: SocketAddr,
    extra: Vec<String>,
}

impl HostPolicy {
    /// The policy of a server bound to `bind`, also answering `extra`
    /// (lower-case host names or addresses, without ports).
    pub fn new(bind: SocketAddr, extra: Vec<String>) -> Self {
        Self { bind, extra }
    }

    /// Whether `host` (a lower-case host without its port; IPv6 in
    /// brackets) is one of this server's names.
    pub fn allows(&self, host: &str) -> bool {
        if is_loopback(host) || self.extra.iter().any(|name| name == host) {
            return true;
        }
        match parse_ip(host) {
            // On a wildcard bind every address of the machine is the bound
            // address; an address literal cannot be re-pointed by DNS.
            Some(ip) => self.bind.ip().is_unspecified() || ip == self.bind.ip(),
            None => false,
        }
    }
}

/// `localhost`, `127.0.0.0/8` and `::1`.
pub fn is_loopback(host: &str) -> bool {
    host == "localhost" || parse_ip(host).is_some_and(|ip| ip.is_loopback())
}

/// An IPv4 address, or an IPv6 address in brackets.
fn parse_ip(host: &str) -> Option<IpAddr> {
    match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => v6.parse().ok(),
        None => host.parse().ok().filter(IpAddr::is_ipv4),
    }
}

/// Splits `host[:port]` (IPv6 in brackets); `None` unless it is exactly
/// that, with a port of digits if there is one.
pub fn split_authority(authority: &str) -> Option<(&str, Option<&str>)> {
    let (host, port) = if authority.starts_with('[') {
        let end = authority.find(']')? + 1;
        let rest = &authority[end..];
        let port = match rest.strip_prefix(':') {
            Some(port) => Some(port),
            None if rest.is_empty() => None,
            None => return None,
        };
        (&authority[..end], port)
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    let port_ok = port.is_none_or(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    let host_ok = !host.is_empty() && !host.contains(['/', '?', '#', '@', '\\']);
    (port_ok && host_ok).then_some((host, port))
}

/// The request's host in lower case, without its port: from `Host`, or from
/// an absolute request target. `None` when there is neither.
pub fn request_host(request: &axum::http::request::Parts) -> Option<Result<String, ()>> {
    let authority = match request.headers.get(header::HOST) {
        Some(value) => value.to_str().map_err(|_| ()).map(str::to_owned),
        None => Ok(request.uri.authority()?.as_str().to_owned()),
    };
    Some(authority.and_then(|authority| {
        split_authority(&authority.to_ascii_lowercase())
            .map(|(host, _)| host.to_owned())
            .ok_or(())
    }))
}

/// Middleware: a 403 envelope for requests naming another host. Requests
/// without any host (HTTP/1.0) are answered; browsers always send one.
pub async fn check(
    State(policy): State<Arc<HostPolicy>>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    let refused = match request_host(&parts) {
        None => None,
        Some(Ok(host)) if policy.allows(&host) => None,
        Some(Ok(host)) => Some(host),
        Some(Err(())) => Some("<malformed>".to_owned()),
    };
    if let Some(host) = refused {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "host {host:?} is not served here; use 127.0.0.1 or localhost, \
                 or start the server with --allow-host"
            ),
        )
        .into_response();
    }
    next.run(Request::from_parts(parts, body)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_bind_and_listed_hosts_only() {
        let policy = HostPolicy::new(
            SocketAddr::from(([192, 168, 1, 5], 8080)),
            vec!["devbox.lan".to_owned()],
        );
        for host in [
            "localhost",
            "127.0.0.1",
            "127.1.2.3",
            "[::1]",
            "192.168.1.5",
            "devbox.lan",
        ] {
            assert!(policy.allows(host), "{host}");
        }
        for host in [
            "evil.example",
            "localhost.evil.example",
            "192.168.1.6",
            "::1",
            "[::2]",
            "devbox.lan.evil",
        ] {
            assert!(!policy.allows(host), "{host}");
        }
        let wildcard = HostPolicy::new(SocketAddr::from(([0, 0, 0, 0], 80)), Vec::new());
        assert!(wildcard.allows("10.0.0.7"));
        assert!(!wildcard.allows("evil.example"));
    }

    #[test]
    fn authorities_split_into_host_and_port() {
        assert_eq!(split_authority("a.example"), Some(("a.example", None)));
        assert_eq!(split_authority("a:80"), Some(("a", Some("80"))));
        assert_eq!(split_authority("[::1]:3000"), Some(("[::1]", Some("3000"))));
        assert_eq!(split_authority("[::1]"), Some(("[::1]", None)));
        for bad in ["", ":80", "a:", "a:x", "a/b", "u@a", "[::1]x", "a:80/"] {
            assert_eq!(split_authority(bad), None, "{bad}");
        }
    }
}
