//! An answer that arrived, with its whole body: is it a success (the
//! envelope to resolve with) or which error. The checks themselves are the
//! pure `envelope.rs`; this module reads the few fields they need from the
//! body as the platform's `JSON.parse` made it, without copying it.

use js_sys::JsString;
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
    /// The parsed body; `None` if it is not JSON.
    parsed: Option<JsValue>,
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
        let parsed = Some(js::parse_json(&text)).filter(|v| !v.is_undefined());
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
            Some(body) => {
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
            None if ok => Error::new(Kind::Decode, "the response body is not JSON"),
            None => self.http_error(),
        };
        let body = match self.parsed {
            Some(body) => body,
            None => js::cut_body(&self.text).into(),
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
/// The message can quote the platform's error, so `Error::into_js` also cleans
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
/// Reads the few fields the envelope checks need, in one crossing.
fn envelope_view(body: &JsValue) -> EnvelopeView {
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
    let fields = js::envelope_fields(body);
    EnvelopeView {
        body: kind,
        status: js::value_of(&fields.get(0)),
        has_result: fields.get(1).is_truthy(),
        result: js::value_of(&fields.get(2)),
        total_users: js::value_of(&fields.get(3)),
    }
}
