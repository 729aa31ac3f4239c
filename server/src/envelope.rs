//! The JSON envelope every API answer uses: `{"status": <code>, "result": {...}}`.
//!
//! Clients look at the body's `status` rather than only the HTTP status, so
//! errors must be envelopes too (never an HTML or plain-text page), otherwise a
//! strict client would report a parse error instead of the real problem.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// The envelope as serialised on the wire.
#[derive(Serialize)]
struct Envelope<'a, T: Serialize> {
    status: u16,
    result: &'a T,
}

/// Payload of an error envelope: a single human-readable message.
#[derive(Serialize)]
struct ErrorResult<'a> {
    error: &'a str,
}

/// Builds a JSON response whose body status mirrors the HTTP status.
pub fn respond<T: Serialize>(status: StatusCode, result: &T) -> Response {
    let envelope = Envelope {
        status: status.as_u16(),
        result,
    };
    match serde_json::to_vec(&envelope) {
        Ok(body) => json_response(status, body),
        // Only reachable if a payload type cannot serialise; keep the promise
        // of a JSON answer anyway.
        Err(_) => json_response(
            StatusCode::INTERNAL_SERVER_ERROR,
            br#"{"status":500,"result":{"error":"failed to serialise the response"}}"#.to_vec(),
        ),
    }
}

/// Builds a success (200) envelope around `result`.
pub fn ok<T: Serialize>(result: &T) -> Response {
    respond(StatusCode::OK, result)
}

/// Attaches the JSON content type to an already serialised body.
fn json_response(status: StatusCode, body: Vec<u8>) -> Response {
    let mut response = (status, body).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// An error that becomes an error envelope; handlers return it with `?`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status, repeated as the envelope's `status`.
    pub status: StatusCode,
    /// Message naming the offending parameter or condition.
    pub message: String,
}

impl ApiError {
    /// A 400 for input the client should fix.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// A 500 for failures that are the server's fault (storage, worker pool).
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    /// An error with an arbitrary status (404, 405, 413, ...).
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status.as_u16(), self.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        respond(
            self.status,
            &ErrorResult {
                error: &self.message,
            },
        )
    }
}
