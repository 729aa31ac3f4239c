//! HTTP routing: the two API operations, their OpenAPI document, static
//! files, the layers around them (host check, CORS) and the error envelopes
//! for everything axum would otherwise answer in plain text.

use std::any::Any;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{from_fn, from_fn_with_state, map_response};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use serde::Serialize;
use tokio::sync::Semaphore;
use tower_http::catch_panic::CatchPanicLayer;

use crate::body::{Body, BodyLimits};
use crate::cli::Config;
use crate::cors::{self, OriginPolicy};
use crate::db::{Db, User};
use crate::envelope::{self, ApiError};
use crate::host::{self, HostPolicy};
use crate::params::{self, RawParams};
use crate::{headers, limits, static_files};

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

    let hosts = Arc::new(HostPolicy::new(local, config.allowed_hosts.clone()));
    let origins = Arc::new(OriginPolicy::new(
        config.cors_origins.clone(),
        config.cors_credentials,
        Arc::clone(&hosts),
    ));
    let app = api
        .nest_service("/pkg", static_files::router(&config.pkg))
        .fallback_service(static_files::router(&config.www))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(Extension(BodyLimits::new(config.limits.body_timeout)))
        .layer(from_fn_with_state(hosts, host::check))
        .layer(from_fn(limits::head))
        .layer(from_fn_with_state(
            Arc::new(Semaphore::new(config.limits.max_in_flight)),
            limits::in_flight,
        ))
        // Around the routes, so error envelopes carry CORS headers too and
        // browser clients can read them.
        .layer(cors::layer(origins))
        .layer(map_response(headers::add));
    if config.faults {
        // A test server: no connection is reused, so a client's attempts
        // and the requests the server counts are one number. (A browser
        // replays by itself a request whose reused connection closed
        // without an answer, as `/faults/dropped` closes it.)
        return app.layer(map_response(close_connection));
    }
    app
}

/// Tells the client to close the connection after this answer (but for a
/// body cut on purpose, which must stay a cut, not an end).
async fn close_connection(mut response: Response) -> Response {
    if response
        .extensions()
        .get::<crate::faults::CutBody>()
        .is_some()
    {
        return response;
    }
    response.headers_mut().insert(
        axum::http::header::CONNECTION,
        axum::http::HeaderValue::from_static("close"),
    );
    response
}

/// `POST /api/users/count`.
async fn count(
    State(db): State<Arc<Db>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let raw = gather(query.as_deref(), &headers, body.bytes())?;
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
    body: Body,
) -> Result<Response, ApiError> {
    let raw = gather(query.as_deref(), &headers, body.bytes())?;
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

/// Merges query-string and body parameters.
fn gather(query: Option<&str>, headers: &HeaderMap, body: &[u8]) -> Result<RawParams, ApiError> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .map(|value| value.to_str().unwrap_or("<non-ASCII content type>"));
    let mut raw = RawParams::from_query(query);
    raw.merge_body(content_type, body)?;
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

/// A panic in a handler becomes a 500 envelope instead of a dropped connection.
fn panic_response(_panic: Box<dyn Any + Send + 'static>) -> Response {
    ApiError::internal("internal server error").into_response()
}
