//! One call, end to end: check the params, build the request once, then
//! attempt it (with timeout, abort and retries) and check the answer.

use crate::prelude::*;
use js_sys::{Array, JsString, Object, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::config::{read_headers, CallOptions, Config, HeaderList, HeaderSource};
use crate::envelope::{check_success, EnvelopeView};
use crate::error::{Error, Kind};
use crate::js::{self, AbortController, AbortWatch, Clock, ResponseLike, SignalLike, Url};
use crate::options::merge_headers;
use crate::options::ParamsIn;
use crate::params::{check_param, check_params_value, Operation, Outgoing};
use crate::retry;
use crate::secrets;
use crate::text::{whole, Text};
use crate::value::Value;

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

/// What every attempt sends: built once per call.
struct Request {
    url: String,
    init: Object,
}

impl Request {
    fn build(
        config: &Config,
        operation: Operation,
        plan: &[(String, JsValue)],
        headers: &[(String, String)],
    ) -> Result<Request, Error> {
        let mut url = config.url(operation).to_string();
        let (content_type, body) = match config.params_in {
            ParamsIn::Body => {
                // A null-prototype object: a `__proto__` key stays a key.
                let object = Object::create(&JsValue::NULL.unchecked_into());
                for (key, value) in plan {
                    set(&object, key, value);
                }
                let body = js::json_stringify(&object).map_err(|cause| {
                    Error::validation("params", "the params could not be encoded as JSON")
                        .with_cause(cause)
                })?;
                (Some("application/json"), Some(body))
            }
            ParamsIn::Query => {
                if !plan.is_empty() {
                    let parsed = Url::new(&url).map_err(|cause| {
                        Error::validation("baseUrl", "the request URL is invalid").with_cause(cause)
                    })?;
                    let search = parsed.search_params();
                    for (key, value) in plan {
                        search.append(key, value);
                    }
                    url = parsed.href();
                }
                (None, None)
            }
            ParamsIn::Form => {
                let form = js::UrlSearchParams::new();
                for (key, value) in plan {
                    form.append(key, value);
                }
                (
                    Some("application/x-www-form-urlencoded;charset=UTF-8"),
                    Some(JsValue::from(form.serialize())),
                )
            }
        };
        let mut headers = headers.to_vec();
        if let Some(content_type) = content_type {
            headers = merge_headers(&headers, &[("Content-Type".into(), content_type.into())]);
        }
        let pairs = Array::new();
        for (name, value) in &headers {
            pairs.push(&Array::of2(
                &JsValue::from_str(name),
                &JsValue::from_str(value),
            ));
        }
        let init = Object::new();
        set(&init, "method", &JsValue::from_str("POST"));
        set(&init, "headers", &pairs);
        if let Some(body) = body {
            set(&init, "body", &body);
        }
        if let Some(credentials) = config.credentials {
            set(&init, "credentials", &JsValue::from_str(credentials));
        }
        Ok(Request { url, init })
    }
}

fn set(object: &Object, key: &str, value: &JsValue) {
    // Setting a plain data property on an object this module made cannot
    // throw; the result is ignored for that reason.
    let _ = Reflect::set(object, &JsValue::from_str(key), value);
}

/// A failed attempt, with what the retry decision needs.
struct Failure {
    error: Error,
    retry_after: Option<String>,
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
async fn attempt(
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
    let sent = sent.map_err(network_error)?;
    let response: ResponseLike = match stop.race(&Promise::resolve(&sent), deadline).await {
        Raced::Value(value) => value.unchecked_into(),
        other => return Err(other.into_error(stop, "fetch failed").into()),
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
    let body = response.text().map_err(network_error)?;
    let text: JsString = match stop.race(&Promise::resolve(&body), deadline).await {
        Raced::Value(value) => value.dyn_into().unwrap_or_else(|_| JsString::from("")),
        other => return Err(other.into_error(stop, "reading the body failed").into()),
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

fn network_error(cause: JsValue) -> Failure {
    Error::new(Kind::Network, "fetch failed")
        .with_cause(cause)
        .into()
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

/// Cuts credentials out of an error's body and cause (see `secrets.rs`).
fn redact(mut error: Error, secrets: &[String]) -> Error {
    if secrets.is_empty() {
        return error;
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
        if js::redact(&shown, secrets).is_some() || js::redact(&stack, secrets).is_some() {
            let clean = js::redact(&shown, secrets).unwrap_or(shown);
            error.cause = Some(js_sys::Error::new(&String::from(&clean)).into());
        }
    }
    error
}

/// How a race between some work, the caller's signal and a deadline ended.
enum Raced {
    Value(JsValue),
    Failed(JsValue),
    Aborted,
    TimedOut,
}

impl Raced {
    fn into_error(self, stop: &Stop, network_message: &str) -> Error {
        match self {
            Raced::Aborted => stop.aborted_error(),
            Raced::TimedOut => Error::new(Kind::Timeout, "no answer within timeoutMs"),
            Raced::Failed(cause) => Error::new(Kind::Network, network_message).with_cause(cause),
            Raced::Value(_) => Error::new(Kind::Network, network_message),
        }
    }
}

/// The caller's `AbortSignal`, watched for the whole call.
struct Stop {
    signal: Option<SignalLike>,
    watch: Option<AbortWatch>,
}

impl Stop {
    /// Watches `signal`; an already aborted one ends the call before
    /// anything is sent.
    fn new(signal: Option<&JsValue>) -> Result<Stop, Error> {
        let Some(signal) = signal else {
            return Ok(Stop {
                signal: None,
                watch: None,
            });
        };
        let mut stop = Stop {
            watch: None,
            signal: Some(signal.clone().unchecked_into()),
        };
        if stop.is_aborted() {
            return Err(stop.aborted_error());
        }
        let watch = AbortWatch::new(signal).map_err(|cause| {
            Error::validation("signal", "could not listen to the signal").with_cause(cause)
        })?;
        stop.watch = Some(watch);
        Ok(stop)
    }

    fn aborted_error(&self) -> Error {
        let error = Error::new(Kind::Aborted, "the call was aborted by its signal");
        match &self.signal {
            Some(signal) => error.with_cause(signal.reason()),
            None => error,
        }
    }

    /// Races `work` against the signal and, where given, a deadline.
    async fn race(&self, work: &Promise, deadline: Option<&Promise>) -> Raced {
        let contenders = Array::of1(work);
        if let Some(watch) = &self.watch {
            contenders.push(&watch.promise());
        }
        if let Some(deadline) = deadline {
            contenders.push(deadline);
        }
        match JsFuture::from(Promise::race(&contenders)).await {
            Ok(value) => match js::tag_of(&value) {
                1 => Raced::TimedOut,
                2 => Raced::Aborted,
                _ => Raced::Value(value),
            },
            Err(_) if self.is_aborted() => Raced::Aborted,
            Err(cause) => Raced::Failed(cause),
        }
    }

    fn is_aborted(&self) -> bool {
        self.signal
            .as_ref()
            .is_some_and(|signal| signal.aborted().unwrap_or(false))
    }

    /// Awaits `work`; an abort that lands meanwhile wins.
    async fn finish<T>(
        &self,
        work: impl core::future::Future<Output = Result<T, Error>>,
    ) -> Result<T, Error> {
        let result = work.await;
        if self.is_aborted() {
            return Err(self.aborted_error());
        }
        result
    }

    /// The final error, unless the caller aborted meanwhile.
    fn finish_error(&self, error: Error) -> Error {
        if self.is_aborted() && error.kind != Kind::Aborted {
            return self.aborted_error();
        }
        error
    }
}

impl Drop for Stop {
    fn drop(&mut self) {
        if let Some(watch) = &self.watch {
            let _ = watch.detach();
        }
    }
}
