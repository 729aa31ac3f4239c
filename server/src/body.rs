//! Reading a request body: at most [`BODY_LIMIT`] bytes within the body
//! timeout, and every failure an error envelope (axum's own body extractors
//! answer in plain text). The bytes of the bodies being read or held at one
//! time are capped by a shared budget ([`BODY_MEMORY`]), so many slow or
//! unfinished bodies cannot grow the server: past it, a request gets a 503
//! envelope with `Retry-After`.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};

use crate::envelope::ApiError;
use crate::limits;

/// Request bodies beyond this get a 413 envelope; real parameter sets are tiny.
pub const BODY_LIMIT: usize = 64 * 1024;

/// Bytes of request bodies held at once, across all requests: 128 bodies
/// at the size limit, thousands of real parameter sets.
pub const BODY_MEMORY: usize = 8 * 1024 * 1024;

/// How bodies are read; a request extension set by the application.
#[derive(Debug, Clone)]
pub struct BodyLimits {
    /// How long a body may take to arrive.
    pub timeout: Duration,
    /// One permit per byte of body held, [`BODY_MEMORY`] in all.
    pub memory: Arc<Semaphore>,
}

impl BodyLimits {
    /// Limits with this timeout and a fresh budget of [`BODY_MEMORY`].
    pub fn new(timeout: Duration) -> Self {
        Self {
            timeout,
            memory: Arc::new(Semaphore::new(BODY_MEMORY)),
        }
    }
}

/// The whole body of a request, holding its share of the budget until it
/// is dropped.
pub struct Body {
    bytes: Bytes,
    _held: Option<OwnedSemaphorePermit>,
}

impl Body {
    /// The body's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

impl<S: Send + Sync> FromRequest<S> for Body {
    type Rejection = Response;

    async fn from_request(request: Request, _state: &S) -> Result<Self, Response> {
        let declared = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse::<u64>().ok());
        if declared.is_some_and(|length| length > BODY_LIMIT as u64) {
            return Err(too_large().into_response());
        }
        let limits = request
            .extensions()
            .get::<BodyLimits>()
            .cloned()
            .unwrap_or_else(|| BodyLimits::new(Duration::from_secs(10)));
        // A declared length is reserved before any of the body is read.
        let declared = declared.map_or(0, |length| length as usize);
        let held = reserve(&limits.memory, declared).map_err(full)?;
        let read = read_all(request.into_body(), limits.memory, declared, held);
        match tokio::time::timeout(limits.timeout, read).await {
            Ok(body) => body,
            Err(_) => Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "request body not received within {} s",
                    limits.timeout.as_secs()
                ),
            )
            .into_response()),
        }
    }
}

/// Takes `bytes` from the budget (nothing for 0).
fn reserve(
    memory: &Arc<Semaphore>,
    bytes: usize,
) -> Result<Option<OwnedSemaphorePermit>, TryAcquireError> {
    if bytes == 0 {
        return Ok(None);
    }
    let permits = u32::try_from(bytes).unwrap_or(u32::MAX);
    Arc::clone(memory).try_acquire_many_owned(permits).map(Some)
}

/// The answer when the budget is spent.
fn full(_: TryAcquireError) -> Response {
    limits::busy("too many request bodies being received")
}

/// Reads the body; `reserved` bytes of it are already in `held`.
async fn read_all(
    body: axum::body::Body,
    memory: Arc<Semaphore>,
    reserved: usize,
    mut held: Option<OwnedSemaphorePermit>,
) -> Result<Body, Response> {
    let mut stream = body.into_data_stream();
    let mut bytes = Vec::with_capacity(reserved);
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| {
            ApiError::bad_request(format!("could not read the request body: {e}")).into_response()
        })?;
        if bytes.len() + chunk.len() > BODY_LIMIT {
            return Err(too_large().into_response());
        }
        let beyond = (bytes.len() + chunk.len()).saturating_sub(reserved.max(bytes.len()));
        if let Some(permit) = reserve(&memory, beyond).map_err(full)? {
            match held.as_mut() {
                Some(held) => held.merge(permit),
                None => held = Some(permit),
            }
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(Body {
        bytes: Bytes::from(bytes),
        _held: held,
    })
}

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("request body larger than {BODY_LIMIT} bytes"),
    )
}
