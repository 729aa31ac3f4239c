//! A `wasi:http` handler that has no client of its own: it imports the
//! `users` interface (`wit/users.wit`) and exports
//! `wasi:http/incoming-handler`. Composed with the `users` component
//! (`wasm-tools compose`, in `scripts/component.sh`), it becomes
//! `target/edge/composed.wasm`, one component that `wasmtime serve` runs:
//! what a Spin or wasmCloud application does with a library component.
//!
//! It answers as `examples/edge.rs` does: `GET /` with `{"activeUsers": N}`
//! from the upstream API (`USERS_API_BASE_URL`, `USERS_API_TIMEOUT_MS`),
//! a failed call with `{"error": {"kind": …, "message": …}}` and 504 for
//! `timeout`, 502 for the other kinds of the upstream, 500 for
//! `validation`; any other path 404, any other method 405. The call itself
//! is the `users` component's: this handler only maps its answer.

use serde_json::{json, Value};
use wstd::http::{Body, Error, HeaderValue, Method, Request, Response, StatusCode};

wit_bindgen::generate!({
    inline: "
        package user-management:edge-example;
        world users-handler {
            import user-management:client/users@0.1.0;
        }
    ",
    path: "../wit",
    world: "user-management:edge-example/users-handler",
    generate_all,
});

use user_management::client::users::{self, Active, ClientOptions, CountParams, ErrorKind};

#[wstd::http_server]
async fn main(request: Request<Body>) -> Result<Response<Body>, Error> {
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
        active_users()
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

/// The upstream's count of active users through the `users` component, or
/// why there is none.
fn active_users() -> (StatusCode, Value) {
    let Ok(base_url) = std::env::var("USERS_API_BASE_URL") else {
        let message = "USERS_API_BASE_URL is not set: serve with --env USERS_API_BASE_URL=…";
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            failure("validation", message),
        );
    };
    let options = ClientOptions {
        base_url,
        headers: Vec::new(),
        timeout_ms: std::env::var("USERS_API_TIMEOUT_MS")
            .ok()
            .and_then(|ms| ms.parse().ok()),
        retries: None,
        max_body_bytes: None,
    };
    let params = CountParams {
        query: None,
        active: Some(Active::True),
    };
    match users::count_users(&options, &params) {
        Ok(count) => (StatusCode::OK, json!({ "activeUsers": count.total_users })),
        Err(error) => {
            let (status, kind) = match error.kind {
                ErrorKind::Timeout => (StatusCode::GATEWAY_TIMEOUT, "timeout"),
                ErrorKind::Validation => (StatusCode::INTERNAL_SERVER_ERROR, "validation"),
                ErrorKind::Network => (StatusCode::BAD_GATEWAY, "network"),
                ErrorKind::Http => (StatusCode::BAD_GATEWAY, "http"),
                ErrorKind::Decode => (StatusCode::BAD_GATEWAY, "decode"),
                ErrorKind::Api => (StatusCode::BAD_GATEWAY, "api"),
                ErrorKind::Aborted => (StatusCode::BAD_GATEWAY, "aborted"),
            };
            (status, failure(kind, &error.message))
        }
    }
}

fn failure(kind: &str, message: &str) -> Value {
    json!({ "error": { "kind": kind, "message": message } })
}
