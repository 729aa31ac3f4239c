//! The cap on requests in flight: past it, a request is answered at once
//! with a 503 envelope and `Retry-After` instead of queueing.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use crate::envelope::ApiError;

/// Seconds a refused client is asked to wait.
const RETRY_AFTER_SECS: &str = "1";

/// Middleware: runs the request while a slot is free, else a 503.
pub async fn in_flight(
    State(slots): State<Arc<Semaphore>>,
    request: Request,
    next: Next,
) -> Response {
    let Ok(_slot) = slots.try_acquire() else {
        let mut response = ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many requests in flight; retry later",
        )
        .into_response();
        response.headers_mut().insert(
            header::RETRY_AFTER,
            HeaderValue::from_static(RETRY_AFTER_SECS),
        );
        return response;
    };
    next.run(request).await
}
