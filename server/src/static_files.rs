//! The static folders (`--www` at `/`, `--pkg` at `/pkg/`), served by
//! tower-http's `ServeDir` behind a guard: what a path resolves to, symlinks
//! followed, must stay inside its folder; no file or folder whose name
//! starts with a dot; a folder asked for without its trailing slash is a 404
//! rather than a redirect (`ServeDir` would build the redirect from the path
//! inside the folder, which leaves `/pkg`). Answers get the content types
//! the package's files need.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::extract::{OriginalUri, Request, State};
use axum::handler::HandlerWithoutStateExt;
use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{from_fn_with_state, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_http::services::ServeDir;

use crate::envelope::ApiError;

/// The router serving `dir`; missing files (and non-GET methods) get the
/// 404 envelope.
pub fn router(dir: &Path) -> Router {
    let serve = ServeDir::new(dir)
        .append_index_html_on_directories(true)
        .call_fallback_on_method_not_allowed(true)
        .fallback(not_found.into_service());
    Router::new()
        .fallback_service(serve)
        .layer(from_fn_with_state(Arc::new(dir.to_owned()), guard))
}

/// 404 for unknown routes and missing static files, naming the path as the
/// client sent it (before `/pkg` was taken off).
pub async fn not_found(method: Method, OriginalUri(uri): OriginalUri) -> ApiError {
    not_found_error(&method, &uri)
}

fn not_found_error(method: &Method, uri: &Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no route for {method} {}", uri.path()),
    )
}

/// Refuses what must not be served, then lets `ServeDir` answer and sets
/// the content type by extension.
async fn guard(State(root): State<Arc<PathBuf>>, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    if !may_serve(&root, &path) {
        let uri = match request.extensions().get::<OriginalUri>() {
            Some(OriginalUri(uri)) => uri,
            None => request.uri(),
        };
        return not_found_error(request.method(), uri).into_response();
    }
    let mut response = next.run(request).await;
    if response.status().is_success() {
        if let Some(content_type) = content_type(&path) {
            response
                .headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        }
    }
    response
}

/// Whether the URL path (inside the folder) may be served from `root`.
fn may_serve(root: &Path, path: &str) -> bool {
    let Ok(decoded) = percent_encoding::percent_decode_str(path).decode_utf8() else {
        return false;
    };
    let segments: Vec<&str> = decoded.split('/').filter(|s| !s.is_empty()).collect();
    if segments
        .iter()
        .any(|s| s.starts_with('.') || s.contains(['\\', '\0']))
    {
        return false;
    }
    let Ok(root) = root.canonicalize() else {
        return false;
    };
    let candidate = segments.iter().fold(root.clone(), |p, s| p.join(s));
    let Ok(resolved) = candidate.canonicalize() else {
        // Missing: ServeDir answers 404.
        return true;
    };
    if !resolved.starts_with(&root) {
        return false;
    }
    if resolved.is_dir() {
        if !decoded.ends_with('/') {
            return false;
        }
        return match resolved.join("index.html").canonicalize() {
            Ok(index) => index.starts_with(&root),
            Err(_) => true,
        };
    }
    true
}

/// Types `ServeDir`'s guesses get wrong or leave vague for the package:
/// TypeScript declarations (a video type by their `.ts` extension), source
/// maps, JSON and WebAssembly.
fn content_type(path: &str) -> Option<&'static str> {
    let extension = path.rsplit_once('.')?.1.to_ascii_lowercase();
    match extension.as_str() {
        "ts" | "mts" | "cts" => Some("text/plain; charset=utf-8"),
        "map" | "json" => Some("application/json"),
        "wasm" => Some("application/wasm"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_by_extension() {
        assert_eq!(
            content_type("/pkg/index.d.ts"),
            Some("text/plain; charset=utf-8")
        );
        assert_eq!(content_type("/x.js.map"), Some("application/json"));
        assert_eq!(content_type("/package.json"), Some("application/json"));
        assert_eq!(content_type("/x.WASM"), Some("application/wasm"));
        assert_eq!(content_type("/x.js"), None);
        assert_eq!(content_type("/"), None);
    }

    #[test]
    fn dot_segments_and_missing_roots_are_refused() {
        let dir = std::env::temp_dir();
        for path in [
            "/.env",
            "/a/.git/config",
            "/%2e%2e/etc/passwd",
            "/%2Eenv",
            "/a%00b",
        ] {
            assert!(!may_serve(&dir, path), "{path}");
        }
        assert!(!may_serve(Path::new("/nonexistent/www"), "/index.html"));
    }
}
