//! An answer that arrived, judged by the envelope rules: the envelope to
//! resolve with, or the error. This module reads what the rules need from
//! the body as the platform's `JSON.parse` made it, through `Reflect`,
//! without copying the body into Rust: the caller gets that very object.
//! Only an error copies the body's text into Rust.

use js_sys::JsString;
use wasm_bindgen::prelude::*;

use crate::error::Error;
use crate::model::Operation;
use crate::rules::envelope::{error_body, judge as judge_envelope, EnvelopeView, BODY_CUT};
use crate::rules::secrets::reach;
use crate::rules::value::Value;
use crate::transport::fetch::exchange::Answer;

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse` of a JS string: js-sys's takes a `&str`, which would copy
    /// a body of many megabytes into Rust and back.
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    pub fn parse_json(text: &JsString) -> Result<JsValue, JsValue>;
}

/// The envelope to resolve with (the parsed body itself), or the error,
/// with the call's `secrets` cut out of it.
pub fn judge(answer: Answer, operation: Operation, secrets: &[String]) -> Result<JsValue, Error> {
    let parsed = parse_json(&answer.text).ok();
    let view = parsed.as_ref().map(envelope_view);
    let failed = match judge_envelope(operation, answer.http_status, view.as_ref(), secrets) {
        Ok(()) => return Ok(parsed.unwrap_or_default()),
        Err(error) => error,
    };
    // The error keeps the body's text: the whole of a JSON body (the JS
    // layer parses it again for `UsersApiError.body`), of any other only
    // what the cut keeps, read with room for an echo across the cut (and
    // one unit more, so that the cut, not this read, splits no pair).
    let json = parsed.is_some();
    let text = if json {
        answer.text
    } else {
        let end = BODY_CUT as usize + reach(secrets) + 1;
        answer.text.slice(0, u32::try_from(end).unwrap_or(u32::MAX))
    };
    let text = error_body(String::from(&text), json, secrets);
    Err(failed.with_response(answer.http_status, text, json))
}

/// Reads the few fields the envelope rules need: `status`, whether
/// `result` is there, what it is, and a count's `result.totalUsers`.
fn envelope_view(body: &JsValue) -> EnvelopeView {
    let read = |object: &JsValue, key: &str| {
        js_sys::Reflect::get(object, &key.into()).unwrap_or(JsValue::UNDEFINED)
    };
    let kind = Value::of(body);
    if kind != Value::Object {
        return EnvelopeView {
            body: kind,
            status: Value::Undefined,
            has_result: false,
            result: Value::Undefined,
            total_users: Value::Undefined,
        };
    }
    let result = read(body, "result");
    let result_kind = Value::of(&result);
    EnvelopeView {
        body: kind,
        status: Value::of(&read(body, "status")),
        has_result: js_sys::Reflect::has(body, &"result".into()).unwrap_or(false),
        total_users: if result_kind == Value::Object {
            Value::of(&read(&result, "totalUsers"))
        } else {
            Value::Undefined
        },
        result: result_kind,
    }
}
