//! HTTP routing: the two API operations, their OpenAPI document, static
//! files, the layers around them (host check, CORS) and the error envelopes
//! for everything axum would otherwise answer in plain text.

use std::any::Any;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, RawQuery, State};
use axum::handler::HandlerWithoutStateExt;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{from_fn_with_state, map_response};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Serialize;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::services::ServeDir;

use crate::cli::Config;
use crate::cors::{self, OriginPolicy};
use crate::db::{Db, User};
use crate::envelope::{self, ApiError};
use crate::host::{self, HostPolicy};
use crate::params::{self, RawParams};

/// Request bodies beyond this get a 413 envelope; real parameter sets are tiny.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The Content-Security-Policy of every HTML page the server sends (the demo):
/// scripts and styles only from files of its own origin (no inline code, no
/// `eval`), plus `'wasm-unsafe-eval'`, the one source the client library
/// needs (compiling WebAssembly); `connect-src` lets the page's "API base
/// URL" field reach any http(s) server.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
    script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self'; \
    connect-src 'self' http: https:; object-src 'none'; base-uri 'none'; \
    form-action 'self'; frame-ancestors 'none'";

/// The OpenAPI document of this server, served at `GET /openapi.json`.
pub const OPENAPI_DOCUMENT: &str = include_str!("../../openapi/openapi.json");

/// Result payload of the count operation.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CountResult {
    total_users: u64,
}

/// Result payload of the list operation.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListResult {
    users: Vec<User>,
    total_users: u64,
    page: u64,
    page_size: u64,
}

/// Builds the whole application, for a server bound to `local`.
pub fn app(db: Arc<Db>, config: &Config, local: SocketAddr) -> Router {
    let mut api = Router::new()
        .route("/api/users/count", post(count).fallback(post_only))
        .route("/api/users", post(list).fallback(post_only))
        .route("/openapi.json", get(openapi_document).fallback(get_only))
        .with_state(db);
    if config.faults {
        api = api.nest("/faults", crate::faults::router());
    }

    // Missing files (and non-GET methods) fall through to the 404 envelope.
    let static_dir = |dir: &Path| {
        ServeDir::new(dir)
            .append_index_html_on_directories(true)
            .call_fallback_on_method_not_allowed(true)
            .fallback(not_found.into_service())
    };

    let hosts = Arc::new(HostPolicy::new(local, config.allowed_hosts.clone()));
    let origins = Arc::new(OriginPolicy::new(
        config.cors_origins.clone(),
        config.cors_credentials,
        Arc::clone(&hosts),
    ));
    api.nest_service("/pkg", static_dir(&config.pkg))
        .fallback_service(static_dir(&config.www))
        .layer(map_response(csp_on_html))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(from_fn_with_state(hosts, host::check))
        // Outermost, so error envelopes carry CORS headers too and browser
        // clients can read them.
        .layer(cors::layer(origins))
}

/// Adds [`CONTENT_SECURITY_POLICY`] to HTML answers (the demo page).
async fn csp_on_html(mut response: Response) -> Response {
    let html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/html"));
    if html {
        response.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        );
    }
    response
}

/// `POST /api/users/count`.
async fn count(
    State(db): State<Arc<Db>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let raw = gather(query.as_deref(), &headers, body)?;
    let filter = params::parse_filter(&raw)?;
    let total_users = db
        .call(move |db, conn| db.count_sync(conn, &filter))
        .await?;
    Ok(envelope::ok(&CountResult { total_users }))
}

/// `POST /api/users`.
async fn list(
    State(db): State<Arc<Db>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let raw = gather(query.as_deref(), &headers, body)?;
    let filter = params::parse_filter(&raw)?;
    let paging = params::parse_paging(&raw)?;
    let page = db
        .call(move |db, conn| db.list_sync(conn, &filter, paging))
        .await?;
    Ok(envelope::ok(&ListResult {
        users: page.users,
        total_users: page.total,
        page: paging.page,
        page_size: paging.page_size,
    }))
}

/// Merges query-string and body parameters, turning body read failures
/// (too large, aborted) into envelopes instead of axum's plain text.
fn gather(
    query: Option<&str>,
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<RawParams, ApiError> {
    let body = body.map_err(|rejection| {
        let status = rejection.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                status,
                format!("request body larger than {BODY_LIMIT} bytes"),
            )
        } else {
            ApiError::new(status, rejection.body_text())
        }
    })?;
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .map(|value| value.to_str().unwrap_or("<non-ASCII content type>"));
    let mut raw = RawParams::from_query(query);
    raw.merge_body(content_type, &body)?;
    Ok(raw)
}

/// `GET /openapi.json`: the document, as it is in the repository.
async fn openapi_document() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        OPENAPI_DOCUMENT,
    )
        .into_response()
}

/// 405 for other methods on the API operations.
async fn post_only(method: Method, uri: Uri) -> Response {
    method_not_allowed(&method, &uri, "POST")
}

/// 405 for other methods on the document.
async fn get_only(method: Method, uri: Uri) -> Response {
    method_not_allowed(&method, &uri, "GET, HEAD")
}

/// A 405 envelope with the `Allow` header.
fn method_not_allowed(method: &Method, uri: &Uri, allowed: &'static str) -> Response {
    let mut response = ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "method {method} not allowed on {}; use {allowed}",
            uri.path()
        ),
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static(allowed));
    response
}

/// 404 for unknown routes and missing static files.
async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no route for {method} {}", uri.path()),
    )
}

/// A panic in a handler becomes a 500 envelope instead of a dropped connection.
fn panic_response(_panic: Box<dyn Any + Send + 'static>) -> Response {
    ApiError::internal("internal server error").into_response()
}
