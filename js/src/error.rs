//! `UsersApiError`: the class in `snippet.js`, made from the library's
//! [`Rejection`] (an `Error` and the JS value behind it).

use js_sys::JSON;
use user_management_client::binding::Rejection;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/snippet.js")]
extern "C" {
    /// `new UsersApiError(...)`: the only JS the client needs written by
    /// hand, because a class that `extends Error` cannot be made from Rust.
    #[wasm_bindgen(js_name = UsersApiError)]
    type UsersApiError;
    #[wasm_bindgen(constructor, js_class = UsersApiError)]
    fn new(
        kind: &str,
        message: &str,
        param: Option<String>,
        status: Option<f64>,
        http_status: Option<u16>,
        body: &JsValue,
        cause: &JsValue,
    ) -> UsersApiError;
}

/// The JS `UsersApiError` of a rejection (credentials are cut out before
/// it gets here). `body` is the parsed body where the body is JSON, else
/// its text.
pub fn to_js(rejection: impl Into<Rejection>) -> JsValue {
    let Rejection { error, cause } = rejection.into();
    let body = match error.body() {
        Some(text) if error.body_is_json() => JSON::parse(text).unwrap_or_else(|_| text.into()),
        Some(text) => text.into(),
        None => JsValue::UNDEFINED,
    };
    UsersApiError::new(
        error.kind().as_str(),
        error.message(),
        error.param().map(String::from),
        error.status().map(|status| status as f64),
        error.http_status(),
        &body,
        cause.as_ref().unwrap_or(&JsValue::UNDEFINED),
    )
    .into()
}
