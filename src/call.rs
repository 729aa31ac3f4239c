//! One call, end to end: check the params, resolve the headers, build the
//! request once (`request.rs`), then attempt it with timeout, abort and
//! retries (`attempt.rs`, `stop.rs`), and cut credentials out of the error.

use crate::prelude::*;
use js_sys::{JsString, Promise};
use wasm_bindgen::{JsCast, JsValue};

use crate::attempt::attempt;
use crate::config::{read_headers, CallOptions, Config, HeaderList, HeaderSource};
use crate::error::Error;
use crate::js::{self, Clock};
use crate::options::{merge_headers, ParamsIn};
use crate::params::{check_param, check_params_value, Operation, Outgoing};
use crate::request::Request;
use crate::retry;
use crate::secrets;
use crate::stop::{Raced, Stop};
use crate::text::Text;

/// Runs one call and settles as the contract says.
pub async fn run(
    config: &Config,
    call: CallOptions,
    operation: Operation,
    params: &JsValue,
) -> Result<JsValue, Error> {
    let plan = plan_params(operation, config.params_in, params)?;
    let stop = Stop::new(call.signal.as_ref())?;
    let headers = stop
        .finish(resolve_headers(config, &call.headers, &stop))
        .await?;
    let secrets = secrets::secrets(headers.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    let request = Request::build(config, operation, &plan, &headers)?;
    let timeout_ms = call.timeout_ms.unwrap_or(config.timeout_ms);
    let mut retry = 0;
    loop {
        let failure = match attempt(config, &request, operation, timeout_ms, &stop).await {
            Ok(envelope) => return Ok(envelope),
            Err(failure) => failure,
        };
        if retry >= config.retries
            || !retry::is_retryable(failure.error.kind, failure.error.http_status)
        {
            return Err(stop.finish_error(redact(failure.error, &secrets)));
        }
        retry += 1;
        let wait = retry::delay_ms(
            retry,
            js::random(),
            failure.retry_after.as_deref(),
            js::now(),
        );
        let clock = Clock::new(wait);
        let raced = stop.race(&clock.promise(), None).await;
        clock.cancel();
        if let Raced::Aborted = raced {
            return Err(stop.aborted_error());
        }
    }
}

/// The checked params: each key with the JS value to send.
fn plan_params(
    operation: Operation,
    params_in: ParamsIn,
    params: &JsValue,
) -> Result<Vec<(String, JsValue)>, Error> {
    if !check_params_value(&js::value_of(params))? {
        return Ok(Vec::new());
    }
    let entries = js::entries(params).map_err(|cause| {
        Error::validation("params", "the params object could not be read").with_cause(cause)
    })?;
    let mut plan = Vec::with_capacity(entries.len());
    for (key, value) in entries {
        let outgoing = match check_param(operation, params_in, &key, &js::value_of(&value))? {
            None => continue,
            Some(Outgoing::Fixed(text)) => JsValue::from_str(text),
            Some(Outgoing::AsGiven) => value,
        };
        if outgoing.is_string() && !js::is_well_formed(&outgoing) {
            return Err(Error::validation(
                &key,
                Text::new()
                    .quoted(&key)
                    .push(" has a lone surrogate: it is not valid Unicode and cannot be sent")
                    .done(),
            ));
        }
        plan.push((key, outgoing));
    }
    Ok(plan)
}

/// The client's headers (calling the provider once per call), then the
/// call's over them, then `Accept` (and `Content-Type`, added later).
async fn resolve_headers(
    config: &Config,
    call_headers: &[(String, String)],
    stop: &Stop,
) -> Result<HeaderList, Error> {
    let client = match &config.headers {
        HeaderSource::Fixed(list) => list.clone(),
        HeaderSource::Provider(provider) => {
            let provider_error = |message: &str, cause: JsValue| {
                Error::validation("headers", message).with_cause(cause)
            };
            let value = provider
                .call0(&JsValue::UNDEFINED)
                .map_err(|cause| provider_error("the headers function threw", cause))?;
            let value = match stop.race(&Promise::resolve(&value), None).await {
                Raced::Value(value) => value,
                Raced::Failed(cause) => {
                    return Err(provider_error(
                        "the headers function's promise rejected",
                        cause,
                    ))
                }
                Raced::Aborted | Raced::TimedOut => return Err(stop.aborted_error()),
            };
            read_headers(&value)?
        }
    };
    let mut merged = merge_headers(&client, call_headers);
    merged = merge_headers(&merged, &[("Accept".into(), "application/json".into())]);
    Ok(merged)
}

/// Cuts credentials out of an error's body and cause (see `secrets.rs`).
fn redact(mut error: Error, secrets: &[String]) -> Error {
    if secrets.is_empty() {
        return error;
    }
    if let Some(clean) = js::redact(&JsString::from(error.message.as_str()), secrets) {
        error.message = String::from(&clean);
    }
    if let Some(body) = &error.body {
        if let Some(text) = body.dyn_ref::<JsString>() {
            if let Some(clean) = js::redact(text, secrets) {
                error.body = Some(clean.into());
            }
        } else if let Ok(json) = js::json_stringify(body) {
            if let Some(clean) = json
                .dyn_ref::<JsString>()
                .and_then(|t| js::redact(t, secrets))
            {
                error.body = Some(js::json_parse(&clean).unwrap_or(clean.into()));
            }
        }
    }
    if let Some(cause) = &error.cause {
        let shown = js::to_js_string(cause).unwrap_or_else(|_| JsString::from(""));
        let stack = js::get(cause, "stack")
            .ok()
            .and_then(|s| s.dyn_into::<JsString>().ok())
            .unwrap_or_else(|| JsString::from(""));
        let clean_shown = js::redact(&shown, secrets);
        if clean_shown.is_some() || js::redact(&stack, secrets).is_some() {
            // A fresh Error: its stack quotes only the cleaned message.
            let clean = clean_shown.unwrap_or(shown);
            error.cause = Some(js_sys::Error::new(&String::from(&clean)).into());
        }
    }
    error
}
