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
use wstd::http::{Body, Error, Request, Response, StatusCode};

#[path = "shared/answer.rs"]
mod answer;
use answer::{failure, no_base_url};

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
    answer::answer(request, || async { active_users() }).await
}

/// The upstream's count of active users through the `users` component, or
/// why there is none.
fn active_users() -> (StatusCode, Value) {
    let Ok(base_url) = std::env::var("USERS_API_BASE_URL") else {
        return no_base_url();
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
