//! An edge handler on the library: a `wasi:http/incoming-handler` (the
//! `wasi:http/proxy` world's export, what Spin, wasmCloud and Fastly
//! Compute run) that answers `GET /` with the count of active users from
//! the upstream User Management API.
//!
//! ```text
//! wasmtime serve -S cli=y --env USERS_API_BASE_URL=http://127.0.0.1:8080 edge.wasm
//! ```
//!
//! - `200 {"activeUsers": N}`: the upstream's count of active users.
//! - A failed upstream call: `{"error": {"kind": …, "message": …}}`, with
//!   504 for `timeout` and 502 for the other kinds of the upstream
//!   (`network`, `decode`, `api`, `http`); a base URL the client refuses
//!   (or none) is the handler's own fault, 500 with kind `validation`.
//! - Any other path: 404; any other method than `GET` (and `HEAD`, which
//!   gets no body): 405.
//!
//! `USERS_API_BASE_URL` is the upstream; `USERS_API_TIMEOUT_MS`, if set,
//! its timeout per attempt (default 10 s). Each request runs on wstd's
//! reactor in its own instance: a slow upstream for one request holds no
//! other, and nothing here can trap (every failure is an answer).

use serde_json::{json, Value};
use user_management_client::{Active, ClientOptions, ErrorKind, UsersClient};
use wstd::http::{Body, Error, Request, Response, StatusCode};

#[path = "shared/answer.rs"]
mod answer;
use answer::{failure, no_base_url};

#[wstd::http_server]
async fn main(request: Request<Body>) -> Result<Response<Body>, Error> {
    answer::answer(request, active_users).await
}

/// The upstream's count of active users, or why there is none.
async fn active_users() -> (StatusCode, Value) {
    let Ok(base_url) = std::env::var("USERS_API_BASE_URL") else {
        return no_base_url();
    };
    let mut options = ClientOptions::new(base_url);
    if let Some(ms) = std::env::var("USERS_API_TIMEOUT_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
    {
        options = options.timeout(std::time::Duration::from_millis(ms));
    }
    let client = match UsersClient::new(options) {
        Ok(client) => client,
        Err(error) => return (StatusCode::INTERNAL_SERVER_ERROR, failed(&error)),
    };
    match client.count_users().active(Active::True).send().await {
        Ok(count) => (
            StatusCode::OK,
            json!({ "activeUsers": count.result.total_users }),
        ),
        Err(error) => {
            let status = match error.kind() {
                ErrorKind::Timeout => StatusCode::GATEWAY_TIMEOUT,
                ErrorKind::Validation => StatusCode::INTERNAL_SERVER_ERROR,
                _ => StatusCode::BAD_GATEWAY,
            };
            (status, failed(&error))
        }
    }
}

/// A failed call as the handler answers it.
fn failed(error: &user_management_client::Error) -> Value {
    failure(error.kind().as_str(), error.message())
}
