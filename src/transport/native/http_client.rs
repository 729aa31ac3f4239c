//! The HTTP client each `UsersClient` builds natively when the options
//! give none: reqwest's own, with a connect timeout. Its TLS is reqwest
//! 0.13's default (`default-tls`: rustls, trusting the platform's
//! verifier), or Mozilla's bundled roots only (`webpki-roots`); without
//! either feature it has no TLS, and only a caller's `http_client` reaches
//! an https: server. reqwest offers HTTP/2 over TLS (ALPN) and speaks
//! HTTP/1.1 in clear.

use std::time::Duration;

/// How long a client that builds its own HTTP client waits for a
/// connection (each attempt's timeout still covers the whole exchange).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The builder of that client.
pub fn builder() -> reqwest::ClientBuilder {
    let builder = reqwest::Client::builder().connect_timeout(CONNECT_TIMEOUT);
    #[cfg(feature = "webpki-roots")]
    let builder = builder.tls_certs_only(mozilla_roots());
    builder
}

/// Mozilla's roots, as `webpki-root-certs` bundles them. (Compiled for the
/// tests without the feature too: `make unit` runs them once.)
#[cfg(any(feature = "webpki-roots", test))]
fn mozilla_roots() -> Vec<reqwest::Certificate> {
    webpki_root_certs::TLS_SERVER_ROOT_CERTS
        .iter()
        .filter_map(|der| reqwest::Certificate::from_der(der).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    /// With `webpki-roots`, every one of Mozilla's roots is taken.
    #[test]
    fn the_webpki_roots_feature_takes_every_one_of_mozillas_roots() {
        assert!(!webpki_root_certs::TLS_SERVER_ROOT_CERTS.is_empty());
        assert_eq!(
            super::mozilla_roots().len(),
            webpki_root_certs::TLS_SERVER_ROOT_CERTS.len()
        );
    }
}
