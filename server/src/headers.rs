//! Headers on every answer: `X-Content-Type-Options: nosniff`, so browsers
//! use the declared type and never guess a script or a page out of a file;
//! and a Content-Security-Policy, the demo's on HTML and one that allows
//! nothing on everything else (JSON, the package's files, an SVG someone
//! drops into `www/`), so nothing served is a page that can run code.

use axum::http::{header, HeaderValue};
use axum::response::Response;

/// The Content-Security-Policy of every HTML page the server sends (the demo):
/// scripts and styles only from files of its own origin (no inline code, no
/// `eval`), plus `'wasm-unsafe-eval'`, the one source the client library
/// needs (compiling WebAssembly); `connect-src` lets the page's "API base
/// URL" field reach any http(s) server.
pub const PAGE_POLICY: &str = "default-src 'self'; \
    script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self'; \
    connect-src 'self' http: https:; object-src 'none'; base-uri 'none'; \
    form-action 'self'; frame-ancestors 'none'";

/// The Content-Security-Policy of every answer that is not an HTML page.
pub const NOTHING_POLICY: &str = "default-src 'none'";

/// Adds both headers (the outermost layer, so preflights and errors get
/// them too).
pub async fn add(mut response: Response) -> Response {
    let html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/html"));
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(if html { PAGE_POLICY } else { NOTHING_POLICY }),
    );
    response
}
