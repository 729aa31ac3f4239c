//! One attempt: `fetch`, read the whole body, check the answer. The
//! attempt's clock covers the wait for the headers and for the body, so a
//! server that stalls half-way through a body times out too.

use crate::prelude::*;
use js_sys::{JsString, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::config::Config;
use crate::envelope::{check_success, EnvelopeView};
use crate::error::{Error, Kind};
use crate::js::{self, AbortController, Clock, ResponseLike};
use crate::params::Operation;
use crate::request::{set, Request};
use crate::retry;
use crate::stop::{network_error, Raced, Stop};
use crate::text::{whole, Text};
use crate::value::Value;

/// A failed attempt, with what the retry decision needs.
pub struct Failure {
    /// What went wrong.
    pub error: Error,
    /// The answer's `Retry-After`, if it was a retryable status.
    pub retry_after: Option<String>,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        Failure {
            error,
            retry_after: None,
        }
    }
}

/// One attempt: fetch, read the body, check it. The clock covers both the
/// wait for headers and the body, so a server that stalls mid-body times out.
pub async fn attempt(
    config: &Config,
    request: &Request,
    operation: Operation,
    timeout_ms: Option<f64>,
    stop: &Stop,
) -> Result<JsValue, Failure> {
    let controller = AbortController::new();
    set(&request.init, "signal", &controller.signal());
    let clock = timeout_ms.map(Clock::new);
    let deadline = clock.as_ref().map(Clock::promise);
    let outcome = exchange(config, request, operation, stop, deadline.as_ref()).await;
    if let Some(clock) = clock {
        clock.cancel();
    }
    if outcome.is_err() {
        // Cancels the request or the body still in flight, if any.
        controller.abort();
    }
    outcome
}

async fn exchange(
    config: &Config,
    request: &Request,
    operation: Operation,
    stop: &Stop,
    deadline: Option<&Promise>,
) -> Result<JsValue, Failure> {
    let sent = match &config.fetch {
        Some(fetch) => fetch.call2(
            &JsValue::UNDEFINED,
            &JsValue::from_str(&request.url),
            &request.init,
        ),
        None => js::global_fetch(&request.url, &request.init),
    };
    let sent = sent.map_err(|cause| Failure::from(network_error("fetch", &request.url, cause)))?;
    let response: ResponseLike = match stop.race(&Promise::resolve(&sent), deadline).await {
        Raced::Value(value) => value.unchecked_into(),
        other => return Err(other.into_error(stop, "fetch", &request.url).into()),
    };
    let http_status = read_status(&response)?;
    let retry_after = if retry::is_retryable_status(http_status) {
        response
            .headers()
            .and_then(|headers| headers.get("retry-after"))
            .ok()
            .and_then(|value| value.as_string())
    } else {
        None
    };
    let body = response
        .text()
        .map_err(|cause| Failure::from(network_error("reading the body", &request.url, cause)))?;
    let text: JsString = match stop.race(&Promise::resolve(&body), deadline).await {
        Raced::Value(value) => value.dyn_into().unwrap_or_else(|_| JsString::from("")),
        other => {
            return Err(other
                .into_error(stop, "reading the body", &request.url)
                .into())
        }
    };
    let parsed = js::json_parse(&text);
    let answer = Answer {
        http_status,
        text,
        parsed,
    };
    answer
        .check(operation)
        .map_err(|error| Failure { error, retry_after })
}

fn read_status(response: &ResponseLike) -> Result<u16, Failure> {
    let status = response.status().ok().and_then(|v| v.as_f64());
    match status {
        Some(s) if (100.0..=599.0).contains(&s) && crate::value::is_whole(s) => Ok(s as u16),
        _ => Err(Error::new(
            Kind::Network,
            "fetch resolved with something that is not a Response",
        )
        .into()),
    }
}

/// A response that arrived, with its whole body.
struct Answer {
    http_status: u16,
    text: JsString,
    parsed: Result<JsValue, JsValue>,
}

impl Answer {
    fn check(self, operation: Operation) -> Result<JsValue, Error> {
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
