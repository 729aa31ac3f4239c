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

use std::rc::Rc;

use js_sys::Promise;
use user_management_client::__private::Rejection;
use user_management_client::{Operation, UsersClient};
use wasm_bindgen::prelude::*;

pub mod drive;
pub mod entries;
pub mod error;
pub mod pages;
pub mod read;

use drive::start;
use read::Functions;

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
    /// Its header function and hooks, which the driver calls.
    functions: Rc<Functions>,
}

#[wasm_bindgen(js_class = UsersClient)]
impl JsUsersClient {
    /// `new UsersClient(options | baseUrl)`; throws a `validation`
    /// `UsersApiError` at once for bad options.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsUsersClient, JsValue> {
        let (options, functions) = read::client_options(&options).map_err(error::to_js)?;
        let client = UsersClient::new(options).map_err(|error| error::to_js(error.into()))?;
        Ok(JsUsersClient {
            client,
            functions: Rc::new(functions),
        })
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
        let call = read::call_options(options).map(|(call, headers)| {
            let functions = Rc::clone(&self.functions);
            (self.client.clone(), functions, call, headers)
        });
        start(call, operation, params, page)
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
        one_shot(&base_url, &options),
        Operation::Count,
        &params,
        None,
    )
}

/// One-shot `listUsers(baseUrl, params?, options?)`.
#[wasm_bindgen(js_name = listUsers)]
pub fn list_users(base_url: JsValue, params: JsValue, options: JsValue) -> Promise {
    start(
        one_shot(&base_url, &options),
        Operation::List,
        &params,
        None,
    )
}

/// A one-shot call's client, its functions and the call's options.
type OneShot = (
    UsersClient,
    Rc<Functions>,
    user_management_client::CallOptions,
    Option<js_sys::Function>,
);

fn one_shot(base_url: &JsValue, options: &JsValue) -> Result<OneShot, Rejection> {
    let ((client, functions), call) = read::one_shot_options(base_url, options)?;
    Ok((UsersClient::new(client)?, Rc::new(functions), call, None))
}
