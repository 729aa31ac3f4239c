//! An answer that arrived, with its whole body: is it a success (the
//! envelope to resolve with) or which error. The checks themselves are the
//! pure `envelope.rs`; this module reads the few fields they need from the
//! body as the platform's `JSON.parse` made it, without copying it.

use js_sys::{JsString, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::envelope::{check_success, EnvelopeView};
use crate::error::{Error, Kind};
use crate::js;
use crate::params::Operation;
use crate::text::{whole, Text};
use crate::value::{is_whole, Value};

/// A response that arrived, with its whole body.
pub struct Answer {
    /// The HTTP status.
    pub http_status: u16,
    text: JsString,
    parsed: Result<JsValue, JsValue>,
}

impl Answer {
    /// An answer from what the response said; `None` where `status` is not
    /// an HTTP status (a custom `fetch` can resolve with anything).
    pub fn new(status: &JsValue, text: JsValue) -> Option<Answer> {
        let http_status = match status.as_f64() {
            Some(s) if (100.0..=599.0).contains(&s) && is_whole(s) => s as u16,
            _ => return None,
        };
        let text: JsString = text.dyn_into().unwrap_or_else(|_| JsString::from(""));
        let parsed = js::json_parse(&text);
        Some(Answer {
            http_status,
            text,
            parsed,
        })
    }

    /// The envelope to resolve with, or the error.
    pub fn check(self, operation: Operation) -> Result<JsValue, Error> {
        let ok = (200..300).contains(&self.http_status);
        let failed = match &self.parsed {
            Ok(body) => {
                let view = envelope_view(body);
                if ok {
                    match check_success(operation, &view) {
                        Ok(()) => return Ok(body.clone()),
                        Err(error) => error,
                    }
                } else {
                    Error {
                        status: view.envelope_status(),
                        ..self.http_error()
                    }
                }
            }
            Err(_) if ok => Error::new(Kind::Decode, "the response body is not JSON"),
            Err(_) => self.http_error(),
        };
        let body = match self.parsed {
            Ok(body) => body,
            Err(_) => js::cut_body(&self.text).into(),
        };
        Err(Error {
            http_status: Some(self.http_status),
            body: Some(body),
            ..failed
        })
    }

    fn http_error(&self) -> Error {
        Error::new(
            Kind::Http,
            Text::new()
                .push("the server answered HTTP ")
                .push(&whole(u64::from(self.http_status)))
                .done(),
        )
    }
}

/// A `network` error whose message says what failed, where, and why, as far
/// as the platform told (`TypeError: fetch failed (ECONNREFUSED)` in Node).
/// The message can quote the platform's error, so `call::redact` also cleans
/// messages.
pub fn network_error(what: &str, url: &str, cause: JsValue) -> Error {
    let message = Text::new()
        .push(what)
        .push(" failed for POST ")
        .push(url)
        .push(": ")
        .push(&js::failure_detail(&cause))
        .done();
    Error::new(Kind::Network, message).with_cause(cause)
}
/// Reads the few fields the envelope checks need.
fn envelope_view(body: &JsValue) -> EnvelopeView {
    let field = |object: &JsValue, key: &str| {
        js::get(object, key)
            .map(|v| js::value_of(&v))
            .unwrap_or(Value::Undefined)
    };
    let kind = js::value_of(body);
    if kind != Value::Object {
        return EnvelopeView {
            body: kind,
            status: Value::Undefined,
            has_result: false,
            result: Value::Undefined,
            total_users: Value::Undefined,
        };
    }
    let has_result = Reflect::has(body, &JsValue::from_str("result")).unwrap_or(false);
    let result = js::get(body, "result").unwrap_or(JsValue::UNDEFINED);
    let result_kind = js::value_of(&result);
    let total_users = if result_kind == Value::Object {
        field(&result, "totalUsers")
    } else {
        Value::Undefined
    };
    EnvelopeView {
        body: kind,
        status: field(body, "status"),
        has_result,
        result: result_kind,
        total_users,
    }
}
