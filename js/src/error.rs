//! `UsersApiError`: the class in `snippet.js`, made from the library's
//! [`Rejection`] (an `Error` and the JS value behind it).

use js_sys::{JsString, Object, Reflect};
use user_management_client::__private::{
    body_is_json, error_kind, is_timeout_error, never_retried, parse_json, retry, Rejection,
};
use user_management_client::ErrorKind;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/snippet.js")]
extern "C" {
    /// `new UsersApiError(kind, message, { param, status, httpStatus, body,
    /// cause })`: the JS layer's only JS written by hand, because a
    /// class that `extends Error` cannot be made from Rust.
    #[wasm_bindgen(js_name = UsersApiError)]
    type UsersApiError;
    #[wasm_bindgen(constructor, js_class = UsersApiError)]
    fn new(kind: &str, message: &str, fields: &Object) -> UsersApiError;
    /// Marks an error as one no attempt is made again for.
    #[wasm_bindgen(js_name = markNeverRetried)]
    fn mark_never_retried(error: &UsersApiError);
    /// Whether an error carries that mark.
    #[wasm_bindgen(js_name = isMarkedNeverRetried)]
    fn is_marked_never_retried(error: &JsValue) -> bool;
}

/// The JS `UsersApiError` of a rejection (credentials are cut out before
/// it gets here). `body` is the parsed body where the body is JSON, else
/// its text.
pub fn to_js(rejection: Rejection) -> JsValue {
    let Rejection { error, cause } = rejection;
    let body = error.body().map(|text| {
        let text = JsString::from(text);
        if body_is_json(&error) {
            parse_json(&text).unwrap_or_else(|_| text.into())
        } else {
            text.into()
        }
    });
    // Only the fields the error has: the class sets each one given.
    let fields = Object::new();
    let set = |name: &str, value: Option<JsValue>| {
        if let Some(value) = value {
            let _ = Reflect::set(&fields, &name.into(), &value);
        }
    };
    set("param", error.param().map(JsValue::from));
    set(
        "status",
        error
            .api_status()
            .map(|status| JsValue::from(status as f64)),
    );
    set("httpStatus", error.http_status().map(JsValue::from));
    set("body", body);
    set("cause", cause);
    let made = UsersApiError::new(error.kind().as_str(), error.message(), &fields);
    if never_retried(&error) {
        mark_never_retried(&made);
    }
    made.into()
}

/// Whether the client's own retry rule (the library's
/// `retry::is_retryable_failure`, which `Error::is_retryable` asks too: by
/// kind and HTTP status, and never an error marked as one no attempt is
/// made again for, nor the caller's deadline, a `timeout` whose `cause` is
/// a `TimeoutError`)
/// retries a failure like `value`: `false` for anything that is not a
/// `UsersApiError` (of any copy of the package), or whose `kind` is none
/// of the kinds.
pub fn is_retryable(value: &JsValue) -> bool {
    if !value.is_instance_of::<UsersApiError>() {
        return false;
    }
    let read = |key: &str| Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED);
    let Some(kind) = read("kind").as_string().and_then(|name| error_kind(&name)) else {
        return false;
    };
    let http_status = read("httpStatus")
        .as_f64()
        .filter(|status| (0.0..=65_535.0).contains(status) && status.fract() == 0.0)
        .map(|status| status as u16);
    let deadline = kind == ErrorKind::Timeout && is_timeout_error(&read("cause"));
    let never = is_marked_never_retried(value) || deadline;
    retry::is_retryable_failure(kind, http_status, never)
}
