//! Reading a request body: at most [`BODY_LIMIT`] bytes within the body
//! timeout, and every failure an error envelope (axum's own body extractors
//! answer in plain text).

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, StatusCode};
use futures_util::StreamExt;

use crate::envelope::ApiError;

/// Request bodies beyond this get a 413 envelope; real parameter sets are tiny.
pub const BODY_LIMIT: usize = 64 * 1024;

/// How long a body may take to arrive; a request extension set by the
/// application (10 s without one).
#[derive(Debug, Clone, Copy)]
pub struct BodyTimeout(pub Duration);

/// The whole body of a request.
pub struct Body(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for Body {
    type Rejection = ApiError;

    async fn from_request(request: Request, _state: &S) -> Result<Self, ApiError> {
        let declared = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse::<u64>().ok());
        if declared.is_some_and(|length| length > BODY_LIMIT as u64) {
            return Err(too_large());
        }
        let timeout = request
            .extensions()
            .get::<BodyTimeout>()
            .map_or(Duration::from_secs(10), |t| t.0);
        let read = read_all(request.into_body());
        match tokio::time::timeout(timeout, read).await {
            Ok(body) => body.map(Self),
            Err(_) => Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!("request body not received within {} s", timeout.as_secs()),
            )),
        }
    }
}

async fn read_all(body: axum::body::Body) -> Result<Bytes, ApiError> {
    let mut stream = body.into_data_stream();
    let mut body = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk
            .map_err(|e| ApiError::bad_request(format!("could not read the request body: {e}")))?;
        if body.len() + chunk.len() > BODY_LIMIT {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(body))
}

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("request body larger than {BODY_LIMIT} bytes"),
    )
}
