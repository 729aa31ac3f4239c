//! One call, from Rust's side. [`Call::start`] checks the call's options and
//! params at once; `js/snippet.js` then drives the call and comes back here
//! for everything that is a decision: [`Call::prepare`] resolves the headers
//! and builds the request, [`Call::settle`] judges an answer,
//! [`Call::fail`] a failure, and both say whether to retry and after how
//! long. Errors leave with credentials cut out of them.
//!
//! Why the split: awaiting in Rust needs wasm-bindgen-futures and compiles
//! to a state machine, together about 24 KB of the `.wasm`; the waiting
//! itself is a few lines of JS.

use crate::prelude::*;
use alloc::rc::Rc;
use wasm_bindgen::prelude::*;

use crate::answer::{network_error, Answer};
use crate::config::{read_headers, CallOptions, Config, HeaderSource};
use crate::error::{Error, Kind};
use crate::js::{self, SignalLike};
use crate::options::ParamsIn;
use crate::params::{check_param, check_params_value, Operation, Outgoing};
use crate::request::{encode, Headers};
use crate::retry;
use crate::text::Text;

/// A call in progress. Internal: the package's entries do not export it.
#[doc(hidden)]
#[wasm_bindgen]
pub struct Call {
    config: Rc<Config>,
    operation: Operation,
    signal: Option<SignalLike>,
    call_headers: Vec<(String, String)>,
    plan: Vec<(JsValue, JsValue)>,
    timeout_ms: Option<f64>,
    url: JsValue,
    secrets: Vec<String>,
    retries_done: u32,
}

/// What went wrong while the JS side waited (`js/snippet.js` names them).
mod failed {
    pub const PROVIDER_THREW: u8 = 0;
    pub const PROVIDER_REJECTED: u8 = 1;
    // 2: the caller's signal aborted (any code not listed here).
    pub const TIMED_OUT: u8 = 3;
    pub const FETCH_FAILED: u8 = 4;
    pub const BODY_FAILED: u8 = 5;
    pub const NOT_A_RESPONSE: u8 = 6;
    pub const SIGNAL_FAILED: u8 = 7;
}

impl Call {
    /// Checks a call and hands it to the JS driver: the promise the caller
    /// gets. A call that fails its checks rejects without sending anything.
    pub fn start(
        config: &Rc<Config>,
        call_options: Result<CallOptions, Error>,
        operation: Operation,
        params: &JsValue,
    ) -> js_sys::Promise {
        match Call::new(config, call_options, operation, params) {
            Ok(call) => {
                let signal: Option<JsValue> = call.signal.as_ref().map(|s| JsValue::clone(s));
                let provider = match &config.headers {
                    HeaderSource::Provider(f) => JsValue::from(f),
                    HeaderSource::Fixed(_) => JsValue::UNDEFINED,
                };
                let fetch = config.fetch.clone().map(JsValue::from);
                let undefined = JsValue::UNDEFINED;
                let timeout = call.timeout_ms.map_or(undefined.clone(), JsValue::from);
                js::drive(
                    call,
                    signal.as_ref().unwrap_or(&undefined),
                    &provider,
                    fetch.as_ref().unwrap_or(&undefined),
                    timeout,
                )
            }
            Err(error) => js_sys::Promise::reject(&error.into()),
        }
    }

    fn new(
        config: &Rc<Config>,
        call_options: Result<CallOptions, Error>,
        operation: Operation,
        params: &JsValue,
    ) -> Result<Call, Error> {
        let options = call_options?;
        let call = Call {
            config: Rc::clone(config),
            operation,
            plan: plan_params(operation, config.params_in, params)?,
            signal: options.signal.map(JsCast::unchecked_into),
            call_headers: options.headers,
            // A call's own timeoutMs wins over the client's.
            timeout_ms: options.timeout_ms.unwrap_or(config.timeout_ms),
            url: JsValue::UNDEFINED,
            secrets: Vec::new(),
            retries_done: 0,
        };
        if call.is_aborted() {
            return Err(call.aborted_error());
        }
        Ok(call)
    }

    fn is_aborted(&self) -> bool {
        self.signal
            .as_ref()
            .is_some_and(|signal| signal.aborted().unwrap_or(false))
    }

    /// The `aborted` error, carrying the signal's reason.
    fn aborted_error(&self) -> Error {
        let error = Error::new(Kind::Aborted, "the call was aborted by its signal");
        match &self.signal {
            Some(signal) => error.with_cause(signal.reason()),
            None => error,
        }
    }

    /// The end of a failed attempt: the wait before the next one, or the
    /// error to reject with (an abort meanwhile wins over the failure).
    fn conclude(&mut self, error: Error, retry_after: Option<String>) -> Result<f64, JsValue> {
        if self.is_aborted() {
            return Err(self.aborted_error().into());
        }
        if self.retries_done >= self.config.retries
            || !retry::is_retryable(error.kind, error.http_status)
        {
            return Err(error.into_js(&self.secrets));
        }
        self.retries_done += 1;
        Ok(retry::delay_ms(
            self.retries_done,
            js::random(),
            retry_after.as_deref(),
            js::now(),
        ))
    }

    fn url(&self) -> String {
        self.url.as_string().unwrap_or_default()
    }

    fn timeout_error(&self) -> Error {
        Error::new(
            Kind::Timeout,
            Text::new()
                .push("no answer within timeoutMs from POST ")
                .push(&self.url())
                .done(),
        )
    }
}

#[wasm_bindgen]
impl Call {
    /// Resolves the headers (`given`: what the client's header function
    /// returned, if it has one) and builds the request: `[url, init]`.
    pub fn prepare(&mut self, given: JsValue) -> Result<JsValue, JsValue> {
        if self.is_aborted() {
            return Err(self.aborted_error().into());
        }
        let config = &self.config;
        let headers = match (&config.headers, &config.prepared) {
            (HeaderSource::Fixed(_), Some(prepared)) if self.call_headers.is_empty() => {
                prepared.clone()
            }
            (HeaderSource::Fixed(client), _) => {
                Headers::new(client, &self.call_headers, config.params_in)
            }
            (HeaderSource::Provider(_), _) => {
                Headers::new(&read_headers(&given)?, &self.call_headers, config.params_in)
            }
        };
        self.secrets = headers.secrets;
        let plan = core::mem::take(&mut self.plan);
        let (url, body) = encode(config.url(self.operation), config.params_in, &plan)
            .map_err(|error| error.into_js(&self.secrets))?;
        self.url = url;
        let credentials = config.credentials.map(JsValue::from_str);
        let init = js::request_init(
            &headers.list,
            &body,
            credentials.as_ref().unwrap_or(&JsValue::UNDEFINED),
        );
        Ok(js::pair(&self.url, &init))
    }

    /// Judges an answer: resolves with the envelope, or returns the wait
    /// before the next attempt, or throws the error to reject with.
    pub fn settle(
        &mut self,
        status: JsValue,
        text: JsValue,
        retry_after: JsValue,
    ) -> Result<JsValue, JsValue> {
        let answer = match Answer::new(&status, text) {
            Some(answer) => answer,
            None => return self.fail(failed::NOT_A_RESPONSE, JsValue::UNDEFINED),
        };
        let retry_after = retry_after
            .as_string()
            .filter(|_| retry::is_retryable_status(answer.http_status));
        match answer.check(self.operation) {
            Ok(envelope) => Ok(envelope),
            Err(error) => self.conclude(error, retry_after).map(JsValue::from),
        }
    }

    /// Judges a failure (a `failed` code): returns the wait before the next
    /// attempt, or throws the error to reject with.
    pub fn fail(&mut self, code: u8, cause: JsValue) -> Result<JsValue, JsValue> {
        let provider_error =
            |message: &str| Error::validation("headers", message).with_cause(cause.clone());
        let error = match code {
            failed::PROVIDER_THREW => provider_error("the headers function threw"),
            failed::PROVIDER_REJECTED => provider_error("the headers function's promise rejected"),
            failed::SIGNAL_FAILED => {
                Error::validation("signal", "could not listen to the signal").with_cause(cause)
            }
            failed::TIMED_OUT => self.timeout_error(),
            failed::FETCH_FAILED => network_error("fetch", &self.url(), cause),
            failed::BODY_FAILED => network_error("reading the body", &self.url(), cause),
            failed::NOT_A_RESPONSE => Error::new(
                Kind::Network,
                "fetch resolved with something that is not a Response",
            ),
            _ => self.aborted_error(), // 2
        };
        match error.kind {
            Kind::Validation | Kind::Aborted => {
                if self.is_aborted() {
                    return Err(self.aborted_error().into());
                }
                Err(error.into_js(&self.secrets))
            }
            _ => self.conclude(error, None).map(JsValue::from),
        }
    }
}

/// The checked params: each key with the JS value to send.
fn plan_params(
    operation: Operation,
    params_in: ParamsIn,
    params: &JsValue,
) -> Result<Vec<(JsValue, JsValue)>, Error> {
    if !check_params_value(&js::value_of(params))? {
        return Ok(Vec::new());
    }
    let entries = js::keyed_entries(params).map_err(|cause| {
        Error::validation("params", "the params object could not be read").with_cause(cause)
    })?;
    let mut plan = Vec::with_capacity(entries.len());
    for (key_js, key, value) in entries {
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
        plan.push((key_js, outgoing));
    }
    Ok(plan)
}
