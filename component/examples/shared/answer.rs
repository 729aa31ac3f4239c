//! What both edge examples (`edge.rs`, `users_handler.rs`) answer around
//! their count of active users: `GET /` (and `HEAD /`, without a body) gets
//! the count or the failure as JSON; any other path 404, any other method
//! 405.

use std::future::Future;

use serde_json::{json, Value};
use wstd::http::{Body, Error, HeaderValue, Method, Request, Response, StatusCode};

/// The answer to `request`, with `active_users` asked for `GET /`.
pub async fn answer<F: Future<Output = (StatusCode, Value)>>(
    request: Request<Body>,
    active_users: impl FnOnce() -> F,
) -> Result<Response<Body>, Error> {
    let (status, body) = if request.uri().path() != "/" {
        (
            StatusCode::NOT_FOUND,
            failure("validation", "only GET / is served"),
        )
    } else if request.method() != Method::GET && request.method() != Method::HEAD {
        (
            StatusCode::METHOD_NOT_ALLOWED,
            failure("validation", "only GET / is served"),
        )
    } else {
        active_users().await
    };
    let body = if request.method() == Method::HEAD {
        Body::empty()
    } else {
        Body::from(body.to_string())
    };
    let mut response = Response::new(body);
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert("content-type", HeaderValue::from_static("application/json"));
    Ok(response)
}

/// `{"error": {"kind": …, "message": …}}`.
pub fn failure(kind: &str, message: &str) -> Value {
    json!({ "error": { "kind": kind, "message": message } })
}

/// The answer when `USERS_API_BASE_URL` is not set: the handler's own fault.
pub fn no_base_url() -> (StatusCode, Value) {
    let message = "USERS_API_BASE_URL is not set: serve with --env USERS_API_BASE_URL=…";
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        failure("validation", message),
    )
}
