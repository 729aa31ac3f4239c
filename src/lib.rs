//! `user-management-client`: a small, strict client for the User
//! Management API, compiled to WebAssembly for every JS runtime.
//!
//! This file is the whole JS surface: `countUsers`, `listUsers` and the
//! `UsersClient` class (`UsersApiError` comes from `js/snippet.js`). The
//! rules live in plain Rust modules that unit-test natively: [`params`],
//! [`options`], [`envelope`], [`retry`], [`http_date`], [`secrets`]. The
//! modules that talk to JS are `config`, `call`, `request`, `answer` and
//! `js`; `js/snippet.js` does the waiting (fetch, timeouts, abort, retries).
//!
//! Nothing here may panic: a trap kills the wasm instance for every later
//! call, so `unwrap`, `expect`, `panic!` and indexing are denied outside
//! tests, and every JS exception becomes a `UsersApiError`.

// No std in the shipped wasm (see runtime.rs); native builds and the wasm
// test builds (the `std` feature) keep it.
#![cfg_attr(all(target_arch = "wasm32", not(feature = "std")), no_std)]
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

extern crate alloc;

#[cfg(all(target_arch = "wasm32", not(feature = "std")))]
mod runtime;

/// What the std prelude would bring, from `alloc`.
mod prelude {
    pub use alloc::string::{String, ToString};
    pub use alloc::vec::Vec;
    #[cfg(test)]
    pub use alloc::{format, vec};
}

pub mod envelope;
pub mod error;
pub mod http_date;
pub mod options;
pub mod params;
pub mod retry;
pub mod secrets;
pub mod text;
pub mod value;

#[cfg(target_arch = "wasm32")]
mod answer;
#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod call;
#[cfg(target_arch = "wasm32")]
mod config;
#[cfg(target_arch = "wasm32")]
mod js;
#[cfg(target_arch = "wasm32")]
mod request;

#[cfg(target_arch = "wasm32")]
pub use exports::{count_users, list_users, UsersClient};

#[cfg(target_arch = "wasm32")]
mod exports {
    use alloc::rc::Rc;

    use js_sys::Promise;
    use wasm_bindgen::prelude::*;

    use crate::call::Call;
    use crate::config::{CallOptions, Config};
    use crate::params::Operation;

    /// A client bound to one base URL and set of options.
    #[wasm_bindgen]
    pub struct UsersClient {
        config: Rc<Config>,
    }

    #[wasm_bindgen]
    impl UsersClient {
        /// `new UsersClient(options | baseUrl)`; throws a `validation`
        /// `UsersApiError` at once for bad options.
        #[wasm_bindgen(constructor)]
        pub fn new(options: JsValue) -> Result<UsersClient, JsValue> {
            let config = Config::from_client_options(&options)?;
            Ok(UsersClient {
                config: Rc::new(config),
            })
        }

        /// `POST {baseUrl}/api/users/count`.
        #[wasm_bindgen(js_name = countUsers)]
        pub fn count_users(&self, params: JsValue, options: JsValue) -> Promise {
            self.call(Operation::Count, params, options)
        }

        /// `POST {baseUrl}/api/users`.
        #[wasm_bindgen(js_name = listUsers)]
        pub fn list_users(&self, params: JsValue, options: JsValue) -> Promise {
            self.call(Operation::List, params, options)
        }

        fn call(&self, operation: Operation, params: JsValue, options: JsValue) -> Promise {
            Call::start(
                &self.config,
                CallOptions::read(&options),
                operation,
                &params,
            )
        }
    }

    /// One-shot `countUsers(baseUrl, params?, options?)`.
    #[wasm_bindgen(js_name = countUsers)]
    pub fn count_users(base_url: JsValue, params: JsValue, options: JsValue) -> Promise {
        one_shot(Operation::Count, base_url, params, options)
    }

    /// One-shot `listUsers(baseUrl, params?, options?)`.
    #[wasm_bindgen(js_name = listUsers)]
    pub fn list_users(base_url: JsValue, params: JsValue, options: JsValue) -> Promise {
        one_shot(Operation::List, base_url, params, options)
    }

    fn one_shot(
        operation: Operation,
        base_url: JsValue,
        params: JsValue,
        options: JsValue,
    ) -> Promise {
        match Config::from_one_shot(&base_url, &options) {
            Ok((config, call_options)) => {
                Call::start(&Rc::new(config), Ok(call_options), operation, &params)
            }
            Err(error) => Promise::reject(&error.into()),
        }
    }
}
