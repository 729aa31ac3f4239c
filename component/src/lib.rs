//! The `user-management-client` library as a WebAssembly component: it
//! exports `user-management:client/users@0.1.0` (the WIT in `wit/` at the
//! repository's top) and imports only WASI 0.2 interfaces. Build it with
//! `make component` (`target/component/user-management-client.wasm`).
//!
//! This crate only converts: WIT records to the library's model types
//! (`ClientOptions`, `CountParams`, `ListParams`, `Active`), each call to
//! the library's `UsersClient` (the call its request builders send, made
//! through `__private::count` and `__private::list`, which leave out the
//! builder's own future), and the library's `Error` to `users-error`.
//! The rules and the call loop are the library's; on `wasm32-wasip2` it
//! sends through its WASI transport (`wasi:http`, `wasi:clocks`), whose
//! waits are pollables on wstd's reactor: each export runs its call to the
//! end with `wstd::runtime::block_on`, which polls them (`wasi:io/poll`)
//! while the call waits.
//!
//! Nothing here may panic: a trap kills the component's instance for every
//! later call.

#![cfg(all(target_arch = "wasm32", target_os = "wasi"))]
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::unreachable,
    clippy::todo,
    clippy::unimplemented
)]

use std::time::Duration;

use serde_json::value::RawValue;
use user_management_client::__private::options::{
    Naming, DEFAULT_MAX_BODY_BYTES, DEFAULT_RETRIES, DEFAULT_TIMEOUT,
};
use user_management_client::__private::{count, list, named, with_status};
use user_management_client::{
    Active as ModelActive, CallOptions, ClientOptions as ModelOptions, CountParams as ModelCount,
    Envelope, Error, ErrorKind as ModelKind, ListParams as ModelList, UsersClient,
};
use wstd::runtime::block_on;

wit_bindgen::generate!({ path: "../wit", world: "client" });

use exports::user_management::client::users::{
    Active, ClientOptions, CountEnvelope, CountParams, ErrorKind, Guest, ListParams, UsersError,
};

struct Component;

impl Guest for Component {
    fn count_users(
        options: ClientOptions,
        params: CountParams,
    ) -> Result<CountEnvelope, UsersError> {
        let params = ModelCount {
            query: params.query,
            active: params.active.map(active),
        };
        let client = UsersClient::new(client_options(options)).map_err(users_error)?;
        let call = CallOptions::default();
        let envelope = block_on(count(&client, &params, &call)).map_err(users_error)?;
        Ok(CountEnvelope {
            status: envelope.status,
            total_users: envelope.result.total_users,
        })
    }

    fn list_users(options: ClientOptions, params: ListParams) -> Result<String, UsersError> {
        let params = ModelList {
            query: params.query,
            active: params.active.map(active),
            page: params.page.map(u64::from),
            page_size: params.page_size.map(u64::from),
            ..ModelList::default()
        };
        let client = UsersClient::new(client_options(options)).map_err(users_error)?;
        // The result's JSON text as the server sent it.
        let call = CallOptions::default();
        let envelope: Envelope<Box<RawValue>> =
            block_on(list(&client, &params, &call)).map_err(users_error)?;
        serde_json::to_string(&envelope).map_err(|error| {
            users_error(with_status(
                Error::new(ModelKind::Decode, error.to_string()),
                Some(200),
            ))
        })
    }
}

export!(Component);

fn active(active: Active) -> ModelActive {
    match active {
        Active::All => ModelActive::All,
        Active::True => ModelActive::True,
        Active::False => ModelActive::False,
    }
}

/// The library's options, with its defaults where the record has `none`.
fn client_options(options: ClientOptions) -> ModelOptions {
    let timeout = options
        .timeout_ms
        .map_or(DEFAULT_TIMEOUT, |ms| Duration::from_millis(u64::from(ms)));
    let options = ModelOptions::new(options.base_url)
        .headers(options.headers)
        .timeout(timeout)
        .retries(options.retries.unwrap_or(DEFAULT_RETRIES))
        .max_body_bytes(options.max_body_bytes.unwrap_or(DEFAULT_MAX_BODY_BYTES));
    named(options, Naming::Wit)
}

fn users_error(error: Error) -> UsersError {
    UsersError {
        kind: error_kind(error.kind()),
        message: error.message().to_string(),
        param: error.param().map(str::to_string),
        status: error.api_status(),
        http_status: error.http_status(),
        body: error.body().map(str::to_string),
    }
}

fn error_kind(kind: ModelKind) -> ErrorKind {
    match kind {
        ModelKind::Validation => ErrorKind::Validation,
        ModelKind::Network => ErrorKind::Network,
        ModelKind::Timeout => ErrorKind::Timeout,
        ModelKind::Aborted => ErrorKind::Aborted,
        ModelKind::Http => ErrorKind::Http,
        ModelKind::Decode => ErrorKind::Decode,
        ModelKind::Api => ErrorKind::Api,
        // `ErrorKind` is non-exhaustive; the seven above are all there is.
        // A new kind would be an API change that the WIT follows.
        _ => ErrorKind::Api,
    }
}
