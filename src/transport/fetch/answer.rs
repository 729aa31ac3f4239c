//! An answer that arrived, judged by the envelope rules: the envelope to
//! resolve with, or the error. The body was parsed by the platform's
//! `JSON.parse`, in the same call into JS that read the few fields the
//! rules need ([`take`](crate::transport::fetch::bridge::take)), without
//! copying the body into Rust: the caller gets that very object. Only an
//! error copies the body's text into Rust.

use wasm_bindgen::prelude::*;

use crate::error::Error;
use crate::model::Operation;
use crate::rules::envelope::{error_body, judge as judge_envelope, EnvelopeView, BODY_CUT};
use crate::rules::secrets::reach;
use crate::rules::value::Value;
use crate::transport::fetch::exchange::{Answer, VIEW};

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse` of a JS string: js-sys's takes a `&str`, which would copy
    /// a body of many megabytes into Rust and back.
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    pub fn parse_json(text: &js_sys::JsString) -> Result<JsValue, JsValue>;
}
use crate::transport::fetch::js_value::{BOOLEAN, NUMBER, STRING};

/// The envelope to resolve with (the parsed body itself), or the error,
/// with the call's `secrets` cut out of it.
pub fn judge(answer: Answer, operation: Operation, secrets: &[String]) -> Result<JsValue, Error> {
    let [_, read @ ..] = answer.view;
    // A body kind of -1: the text is not JSON.
    let json = read[0] >= 0.0;
    let view = json.then(|| envelope_view(&answer.body, &read));
    let failed = match judge_envelope(operation, answer.http_status, view.as_ref(), secrets) {
        Ok(()) => return Ok(answer.body),
        Err(error) => error,
    };
    // The error keeps the body's text: the whole of a JSON body (the JS
    // layer parses it again for `UsersApiError.body`), of any other only
    // what the cut keeps, read with room for an echo across the cut (and
    // one unit more, so that the cut, not this read, splits no pair).
    let text = answer.handle.text();
    let text = if json {
        text
    } else {
        let end = BODY_CUT as usize + reach(secrets) + 1;
        text.slice(0, u32::try_from(end).unwrap_or(u32::MAX))
    };
    let text = error_body(String::from(&text), json, secrets);
    Err(failed.with_response(answer.http_status, text, json))
}

/// The numbers of the envelope's view, after the status.
const ENVELOPE: usize = VIEW - 1;

/// The envelope rules' view of `body`, from what `take` read
/// of it. A field is read again only where a message may quote it: a
/// string, or a `result` that is a boolean or a number.
fn envelope_view(body: &JsValue, read: &[f64; ENVELOPE]) -> EnvelopeView {
    let [body_kind, has_result, status_kind, status, result_kind, total_kind, total] = *read;
    let kind = Value::of_kind(body_kind as u8, body);
    if kind != Value::Object {
        return EnvelopeView {
            body: kind,
            status: Value::Undefined,
            has_result: false,
            result: Value::Undefined,
            total_users: Value::Undefined,
        };
    }
    let result = field(result_kind, body, &["result"]);
    let total_users = if result == Value::Object {
        number_or_field(total_kind, total, body, &["result", "totalUsers"])
    } else {
        Value::Undefined
    };
    EnvelopeView {
        body: kind,
        status: number_or_field(status_kind, status, body, &["status"]),
        has_result: has_result == 1.0,
        result,
        total_users,
    }
}

/// A field of `kind` whose value, where it is a boolean or a number, was
/// read already as `number`; else as [`field`] reads it.
fn number_or_field(kind: f64, number: f64, body: &JsValue, path: &[&str]) -> Value {
    match kind as u8 {
        BOOLEAN => Value::Bool(number != 0.0),
        NUMBER => Value::Number(number),
        _ => field(kind, body, path),
    }
}

/// A field of `kind`, at `path` in `body`: read again only where it is a
/// boolean, a number or a string (a message quotes it).
fn field(kind: f64, body: &JsValue, path: &[&str]) -> Value {
    match kind as u8 {
        kind @ BOOLEAN..=STRING => {
            let value = path.iter().fold(body.clone(), |object, key| {
                js_sys::Reflect::get(&object, &(*key).into()).unwrap_or_default()
            });
            Value::of_kind(kind, &value)
        }
        kind => Value::of_kind(kind, &JsValue::UNDEFINED),
    }
}
