//! Limits checked per request: the cap on requests in flight (past it, a
//! request is answered at once with a 503 envelope and `Retry-After`
//! instead of queueing), and the size of the request head, refused here
//! with envelopes below hyper's own limits (whose answers have no body).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use crate::envelope::ApiError;

/// Longest request target (path and query) in bytes; a 2,000-character
/// `query` percent-encoded fits.
pub const MAX_URI_BYTES: usize = 32 * 1024;

/// Most request headers.
pub const MAX_HEADERS: usize = 100;

/// Most bytes in all header names and values together.
pub const MAX_HEADER_BYTES: usize = 64 * 1024;

/// The header count at which hyper itself refuses a request (431, no body):
/// above [`MAX_HEADERS`], so that this module answers first.
pub const HYPER_MAX_HEADERS: usize = 2 * MAX_HEADERS;

/// Seconds a refused client is asked to wait.
const RETRY_AFTER_SECS: &str = "1";

/// Middleware: runs the request while a slot is free, else a 503.
pub async fn in_flight(
    State(slots): State<Arc<Semaphore>>,
    request: Request,
    next: Next,
) -> Response {
    let Ok(_slot) = slots.try_acquire() else {
        return busy("too many requests in flight");
    };
    next.run(request).await
}

/// A 503 envelope with `Retry-After`, for a server at one of its caps.
pub fn busy(what: &str) -> Response {
    let mut response = ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!("{what}; retry later"),
    )
    .into_response();
    response.headers_mut().insert(
        header::RETRY_AFTER,
        HeaderValue::from_static(RETRY_AFTER_SECS),
    );
    response
}

/// Middleware: a 414 envelope for a long request target, a 431 envelope
/// for too many or too large headers.
pub async fn head(request: Request, next: Next) -> Response {
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |target| target.as_str().len());
    if target > MAX_URI_BYTES {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!("request URI of {target} bytes, more than {MAX_URI_BYTES}"),
        )
        .into_response();
    }
    let headers = request.headers();
    let bytes: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    if headers.len() > MAX_HEADERS || bytes > MAX_HEADER_BYTES {
        return ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!(
                "request headers too large: {} headers of {bytes} bytes \
                 (at most {MAX_HEADERS} headers of {MAX_HEADER_BYTES} bytes)",
                headers.len()
            ),
        )
        .into_response();
    }
    next.run(request).await
}
