//! What the crate's JS layer (`user-management-client-js`), its component
//! and its fuzz targets use beyond the Rust API: the rules they apply to JS
//! values, the JS value behind an error, the error constructors they need,
//! and the client's JS-facing calls and the component's. Re-exported whole
//! as `__private`, hidden from the docs and no part of the public API or
//! the semver contract; nothing in this crate uses it.

#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
use std::future::Future;

#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
use wasm_bindgen::JsValue;

#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub use crate::api::client::Prepared;
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub use crate::api::js_steps::{aborted, drawn, is_aborted, now, since, Judged};
pub use crate::call::{Attempt, Call, HookSet, Input, Outcome, Output, Plan, Provider, Retrying};
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub use crate::host::{failure_detail, Rejection};
pub use crate::rules::{
    envelope, headers, http_date, options, pages, params, retry, secrets, value,
};
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub use crate::transport::fetch::answer::parse_json;
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub use crate::transport::fetch::bridge::{entries, AttemptHandle};
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub use crate::transport::fetch::is_timeout_error;
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub use crate::transport::fetch::js_value::{ARRAY, BOOLEAN, INSTANCE, NUMBER, OBJECT, STRING};
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub use crate::transport::fetch::request::params_object;
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub use crate::transport::fetch::wait::settled;

use crate::{Error, ParamsIn, UsersClient};
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
use crate::{HeaderList, HeaderProvider, RetryInfo};

/// Runs a call with `params`, the object of checked params to send:
/// resolves with the parsed body, a checked envelope, and rejects with the
/// error and the JS value behind it, credentials cut out of both.
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub async fn call(
    client: &UsersClient,
    operation: crate::Operation,
    params: &js_sys::Object,
    options: &crate::CallOptions,
) -> Result<JsValue, Rejection> {
    client.call(operation, params, options).await
}

/// A call of `client` with `params` (the object of checked params to
/// send) made ready for a JS host's driver, which steps the call machine
/// over it.
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub fn prepare(
    client: UsersClient,
    operation: crate::Operation,
    params: &js_sys::Object,
    options: &crate::CallOptions,
) -> Result<Prepared, Rejection> {
    crate::api::client::prepare(client, operation, params, options)
}

/// The same rejection with `secrets` cut out of its error and its cause.
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub fn redact(rejection: Rejection, secrets: &[String]) -> Rejection {
    rejection.redact(secrets)
}

/// An operation's name, as a JS hook's info gives it.
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub fn operation_name(operation: crate::Operation) -> &'static str {
    operation.name()
}

/// A response's duration as a JS hook's info gives it (`durationMs`).
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub fn duration_ms(info: &crate::ResponseInfo) -> f64 {
    info.duration_ms()
}

/// A `validation` error about `param` (the JS layer's own checks of JS
/// values).
pub fn validation(param: &str, message: impl Into<String>) -> Error {
    Error::validation(param, message)
}

/// A `validation` error naming the value and the allowed ones.
pub fn invalid(param: &str, expected: &str, got: &str) -> Error {
    Error::invalid(param, expected, got)
}

/// The same error with the envelope's `status` (the component's decode
/// error of a list's envelope).
pub fn with_status(error: Error, status: Option<i64>) -> Error {
    error.with_status(status)
}

/// The count call as the component makes it: the call the builders
/// send, without the builder's own future around it (the component's
/// `.wasm` has a size budget).
pub fn count<'a>(
    client: &'a UsersClient,
    params: &'a crate::CountParams,
    options: &'a crate::CallOptions,
) -> impl std::future::Future<Output = Result<crate::Envelope<crate::Count>, Error>> + 'a {
    client.count(params, options)
}

/// The list call as the component makes it (see [`count`]).
pub fn list<'a, T: serde::de::DeserializeOwned + 'a>(
    client: &'a UsersClient,
    params: &'a crate::ListParams,
    options: &'a crate::CallOptions,
) -> impl std::future::Future<Output = Result<crate::Envelope<T>, Error>> + 'a {
    client.list(params, options)
}

/// Where `client` sends params.
pub fn params_in(client: &UsersClient) -> ParamsIn {
    client.options().params_in
}

/// A header provider whose future fails the call with a rejection (the
/// JS value behind it becomes the error's `cause`).
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub fn header_provider<F, Fut>(provider: F) -> HeaderProvider
where
    F: Fn() -> Fut + 'static,
    Fut: Future<Output = Result<HeaderList, Rejection>> + 'static,
{
    HeaderProvider::new(move || Box::pin(provider()))
}

/// The JS value behind a retry's error, where there was one.
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
pub fn retry_cause(info: &RetryInfo) -> Option<&JsValue> {
    info.cause.as_ref()
}

/// The same options, with messages naming them as `naming` does (the JS
/// layer's `timeoutMs`, the component's `timeout-ms`).
pub fn named(mut options: crate::ClientOptions, naming: options::Naming) -> crate::ClientOptions {
    options.naming = naming;
    options
}

/// The kind whose `kind` string (as JavaScript sees it) is `name`.
pub fn error_kind(name: &str) -> Option<crate::ErrorKind> {
    crate::wire::parse(name)
}

/// Whether no attempt is made again after `error`, whatever its kind (a
/// setup error): the JS layer's `isRetryable` says `false` of it.
pub fn never_retried(error: &Error) -> bool {
    error.is_never_retried()
}

/// Whether `error`'s body is JSON: the JS layer hands it over parsed.
pub fn body_is_json(error: &Error) -> bool {
    error.body_is_json()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    /// The JS layer's `new UsersApiError(kind, ...)` reads a kind by its
    /// name: every kind's, and nothing else.
    #[test]
    fn error_kinds_by_their_names() {
        for (name, kind) in [
            ("validation", ErrorKind::Validation),
            ("network", ErrorKind::Network),
            ("timeout", ErrorKind::Timeout),
            ("aborted", ErrorKind::Aborted),
            ("http", ErrorKind::Http),
            ("decode", ErrorKind::Decode),
            ("api", ErrorKind::Api),
        ] {
            assert_eq!(error_kind(name), Some(kind));
        }
        assert_eq!(error_kind("HTTP"), None);
        assert_eq!(error_kind(""), None);
    }

    /// What the JS layer's `isRetryable` reads of an error no attempt is
    /// made again for, whatever its kind.
    #[test]
    fn an_error_never_retried_says_so() {
        assert!(!never_retried(&Error::new(ErrorKind::Network, "refused")));
        assert!(never_retried(
            &Error::new(ErrorKind::Decode, "over max_body_bytes").never_retried()
        ));
    }
}
