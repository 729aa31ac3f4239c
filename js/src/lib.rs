//! `user-management-client-js`: the JS exports of the npm package,
//! `countUsers`, `listUsers`, `isRetryable` and the `UsersClient` class
//! (`UsersApiError` is the class in `snippet.js`, made in `error`;
//! `listPages`' pages are `pages`). A thin layer over the Rust library
//! `user-management-client`: it reads the JS arguments into the library's
//! model and options (`read`), then runs the library's call and hands back
//! its promise. Every rule is the library's.
//!
//! Calls never throw: every failure, a bad argument included, is a rejected
//! promise. Only the constructor throws, at once, for bad options.
//!
//! The crate is empty outside a JS host build (wasm32-unknown-unknown):
//! the library has no JS layer there.

#![cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented
    )
)]

use js_sys::{Object, Promise};
use user_management_client::__private::{self, Rejection};
use user_management_client::{CallOptions, Operation, UsersClient};
use wasm_bindgen::prelude::*;

pub mod error;
pub mod pages;
pub mod read;

/// The npm package's allocator: talc instead of the standard library's
/// dlmalloc, a smaller download for the same calls (docs/src/size.md).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// `UsersClient` in JavaScript: a client bound to one base URL and set of
/// options.
#[wasm_bindgen(js_name = UsersClient)]
pub struct JsUsersClient {
    client: UsersClient,
}

#[wasm_bindgen(js_class = UsersClient)]
impl JsUsersClient {
    /// `new UsersClient(options | baseUrl)`; throws a `validation`
    /// `UsersApiError` at once for bad options.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsUsersClient, JsValue> {
        let options = read::client_options(&options).map_err(error::to_js)?;
        let client = UsersClient::new(options).map_err(|error| error::to_js(error.into()))?;
        Ok(JsUsersClient { client })
    }

    /// `countUsers(params?, options?)`: `POST {baseUrl}/api/users/count`.
    #[wasm_bindgen(js_name = countUsers)]
    pub fn count_users(&self, params: JsValue, options: JsValue) -> Promise {
        self.call(Operation::Count, &params, &options, None)
    }

    /// `listUsers(params?, options?)`: `POST {baseUrl}/api/users`.
    #[wasm_bindgen(js_name = listUsers)]
    pub fn list_users(&self, params: JsValue, options: JsValue) -> Promise {
        self.call(Operation::List, &params, &options, None)
    }

    /// One page of `listPages(params?, options?)` (the gate's async
    /// iterable): `POST {baseUrl}/api/users` for the page the walk is at
    /// (`page` 0: the first, from `params.page`; else this page, with
    /// `seen` users before it), resolving with `[envelope, page, seen]`,
    /// where the walk goes next (`page` 0: nowhere).
    #[wasm_bindgen(js_name = listPage)]
    pub fn list_page(&self, params: JsValue, options: JsValue, page: f64, seen: f64) -> Promise {
        self.call(Operation::List, &params, &options, Some((page, seen)))
    }
}

impl JsUsersClient {
    /// A call of this client with the call's options object: the methods'
    /// one body.
    #[inline(never)]
    fn call(
        &self,
        operation: Operation,
        params: &JsValue,
        options: &JsValue,
        page: Option<(f64, f64)>,
    ) -> Promise {
        let call = read::call_options(options);
        start(
            operation,
            call.map(|call| (self.client.clone(), call)),
            params,
            page,
        )
    }
}

/// `isRetryable(error)`: whether the client's own retry rule retries a
/// failure like `error` (`false` for anything that is not a
/// `UsersApiError`).
#[wasm_bindgen(js_name = isRetryable)]
pub fn is_retryable(error: &JsValue) -> bool {
    error::is_retryable(error)
}

/// One-shot `countUsers(baseUrl, params?, options?)`.
#[wasm_bindgen(js_name = countUsers)]
pub fn count_users(base_url: JsValue, params: JsValue, options: JsValue) -> Promise {
    start(
        Operation::Count,
        one_shot(&base_url, &options),
        &params,
        None,
    )
}

/// One-shot `listUsers(baseUrl, params?, options?)`.
#[wasm_bindgen(js_name = listUsers)]
pub fn list_users(base_url: JsValue, params: JsValue, options: JsValue) -> Promise {
    start(
        Operation::List,
        one_shot(&base_url, &options),
        &params,
        None,
    )
}

fn one_shot(
    base_url: &JsValue,
    options: &JsValue,
) -> Result<(UsersClient, CallOptions), Rejection> {
    let (client, call) = read::one_shot_options(base_url, options)?;
    Ok((UsersClient::new(client)?, call))
}

/// Reads the params now (so that a caller's later changes to the object do
/// not count) and runs the call; a page of `listPages` (`page`: where its
/// walk is) then hands the outcome to the walk. Every export goes through
/// this one async block, so the `.wasm` holds one future-to-promise
/// adapter (and one copy of the call's future), not five.
fn start(
    operation: Operation,
    client: Result<(UsersClient, CallOptions), Rejection>,
    params: &JsValue,
    page: Option<(f64, f64)>,
) -> Promise {
    let ready = client.and_then(|(client, call)| {
        let object: Object = read::params(operation, __private::params_in(&client), params)?;
        let walk = match page {
            Some((page, seen)) => Some(pages::walk_at(&object, page, seen)?),
            None => None,
        };
        Ok((client, call, object, walk))
    });
    match ready {
        Ok((client, call, object, walk)) => wasm_bindgen_futures::future_to_promise(async move {
            let outcome = __private::call(&client, operation, &object, &call).await;
            match walk {
                None => outcome.map_err(error::to_js),
                Some(walk) => pages::settle(walk, outcome),
            }
        }),
        Err(rejection) => Promise::reject(&error::to_js(rejection)),
    }
}
