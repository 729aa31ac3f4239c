//! A private CA made at test time, for the tests that check which roots a
//! client trusts: the native TLS test and the app on today's reqwest
//! (`tests/apps/reqwest-app`), which each include this file by path.

use std::sync::Arc;

use rcgen::{BasicConstraints, Certificate, CertificateParams, DnType, IsCa, KeyPair};
use tokio_rustls::rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio_rustls::rustls::{self, ServerConfig};

/// A CA's certificate and a server config (rustls on ring) with a
/// certificate for 127.0.0.1 that the CA signed.
pub fn private_ca() -> (Certificate, ServerConfig) {
    let mut ca = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "user-management-client test CA");
    let ca_key = KeyPair::generate().expect("CA key");
    let ca = ca.self_signed(&ca_key).expect("CA certificate");
    let leaf = CertificateParams::new(vec!["127.0.0.1".to_string()]).expect("leaf params");
    let leaf_key = KeyPair::generate().expect("leaf key");
    let leaf = leaf
        .signed_by(&leaf_key, &ca, &ca_key)
        .expect("leaf certificate");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(
            vec![leaf.der().clone()],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf_key.serialize_der())),
        )
        .expect("server config");
    (ca, config)
}
