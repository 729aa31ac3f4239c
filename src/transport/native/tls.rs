//! The TLS of the HTTP client each `UsersClient` builds natively: a rustls
//! config on ring (reqwest's own rustls backend would want aws-lc-rs, or a
//! crypto provider the process installed), trusting the roots the crate's
//! features choose: Mozilla's (`webpki-roots`), the platform's store
//! (`native-roots`, which reads `SSL_CERT_FILE` and `SSL_CERT_DIR` too),
//! both, or none (then only a caller's `http_client` reaches an https:
//! server).

use std::sync::Arc;

use rustls::{ClientConfig, RootCertStore};

/// The config reqwest takes through `tls_backend_preconfigured`, or why it
/// could not be made.
pub fn client_config() -> Result<ClientConfig, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let roots = roots()?;
    ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map(|config| config.with_root_certificates(roots).with_no_client_auth())
        .map_err(|error| format!("TLS: {error}"))
}

/// The roots of the features on.
fn roots() -> Result<RootCertStore, String> {
    #[allow(unused_mut)]
    let mut roots = RootCertStore::empty();
    #[cfg(feature = "webpki-roots")]
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    #[cfg(feature = "native-roots")]
    add_native(&mut roots)?;
    Ok(roots)
}

/// Adds the platform's roots. A store often holds certificates rustls
/// cannot parse (ancient roots without extensions): those are skipped, and
/// only a store whose every certificate was refused is an error (an empty
/// or missing store is not: an http: server is still reached).
#[cfg(feature = "native-roots")]
fn add_native(roots: &mut RootCertStore) -> Result<(), String> {
    let loaded = rustls_native_certs::load_native_certs();
    let (added, ignored) = roots.add_parsable_certificates(loaded.certs);
    if added == 0 && ignored > 0 {
        let mut why = format!(
            "none of the {ignored} certificates in the platform's root store could be used"
        );
        for error in &loaded.errors {
            why.push_str("; ");
            why.push_str(&error.to_string());
        }
        return Err(why);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// With `webpki-roots`, every one of Mozilla's roots is trusted.
    #[cfg(feature = "webpki-roots")]
    #[test]
    fn the_webpki_roots_feature_trusts_mozillas_roots() {
        let roots = super::roots().expect("the roots");
        assert!(!webpki_roots::TLS_SERVER_ROOTS.is_empty());
        for anchor in webpki_roots::TLS_SERVER_ROOTS {
            assert!(roots.roots.contains(anchor), "{anchor:?}");
        }
    }
}
