//! The Rust API: [`UsersClient`], configured by [`ClientOptions`], called
//! with [`CallOptions`]. The JS exports are a thin layer over it.
//!
//! A call checks its headers, asks the header provider once, builds its
//! request once, then runs attempts (`exchange.rs`) until one answers well,
//! fails for good, or the retries are spent, pausing between attempts as
//! `retry.rs` says. Errors leave with the call's credentials cut out.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use js_sys::{Function, Object};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

use crate::answer::judge;
use crate::error::{Error, ErrorKind};
use crate::exchange::{attempt, Failure};
use crate::hooks::{AttemptInfo, Hooks, ResponseInfo, RetryInfo};
use crate::model::{Count, CountParams, Credentials, Envelope, ListParams, Operation, ParamsIn};
use crate::options::{
    check_base_url, check_header_name, check_header_value, join, DEFAULT_RETRIES,
    DEFAULT_TIMEOUT_MS, MAX_TIMER_MS,
};
use crate::request::{self, Headers};
use crate::retry;
use crate::value::Value;
use crate::wait::{is_aborted, Stop, Stopped};

/// Header name/value pairs, names as given; merged case-insensitively.
pub type HeaderList = Vec<(String, String)>;

/// The future a [`HeaderProvider`] returns.
pub type HeadersFuture = Pin<Box<dyn Future<Output = Result<HeaderList, Error>>>>;

/// A function called once per call for fresh headers (token refresh). An
/// `Err` fails the call with that error.
pub type HeaderProvider = Rc<dyn Fn() -> HeadersFuture>;

/// A client's options. [`ClientOptions::new`] fills the defaults.
///
/// ```no_run
/// use user_management_client::{ClientOptions, ParamsIn, UsersClient};
///
/// let mut options = ClientOptions::new("https://api.example.com/v1");
/// options.params_in = ParamsIn::Query;
/// options.retries = 0;
/// options.headers.push(("Authorization".into(), "Bearer abc123".into()));
/// let client = UsersClient::new(options)?;
/// # Ok::<(), user_management_client::Error>(())
/// ```
#[derive(Clone)]
pub struct ClientOptions {
    /// An absolute `http:` / `https:` URL without query or fragment; it may
    /// carry a path prefix, and a trailing slash is optional.
    pub base_url: String,
    /// Sent with every call. Default: none.
    pub headers: HeaderList,
    /// Called once per call; its headers go over [`ClientOptions::headers`].
    /// Default: none.
    pub header_provider: Option<HeaderProvider>,
    /// Where params go. Default: [`ParamsIn::Body`].
    pub params_in: ParamsIn,
    /// Per attempt, in milliseconds; 0 means none. Default: 10,000.
    pub timeout_ms: u32,
    /// Extra attempts after a retryable failure. Default: 2.
    pub retries: u32,
    /// `fetch`'s credentials mode. Default: the platform's (`"same-origin"`).
    pub credentials: Option<Credentials>,
    /// Called as `fetch(url, init)` instead of the platform's `fetch`.
    /// Default: the global `fetch`, looked up per call.
    pub fetch: Option<Function>,
    /// Observers of every attempt, response and retry. Default: none.
    pub hooks: Hooks,
}

impl std::fmt::Debug for ClientOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Header values stay out: they may be credentials.
        let names: Vec<&str> = self.headers.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("ClientOptions")
            .field("base_url", &self.base_url)
            .field("header_names", &names)
            .field("header_provider", &self.header_provider.is_some())
            .field("params_in", &self.params_in)
            .field("timeout_ms", &self.timeout_ms)
            .field("retries", &self.retries)
            .field("credentials", &self.credentials)
            .field("fetch", &self.fetch.is_some())
            .field("hooks", &self.hooks)
            .finish()
    }
}

impl ClientOptions {
    /// Options with every default: `params_in: Body`, `timeout_ms: 10_000`,
    /// `retries: 2`, no headers.
    pub fn new(base_url: impl Into<String>) -> ClientOptions {
        ClientOptions {
            base_url: base_url.into(),
            headers: Vec::new(),
            header_provider: None,
            params_in: ParamsIn::default(),
            timeout_ms: DEFAULT_TIMEOUT_MS,
            retries: DEFAULT_RETRIES,
            credentials: None,
            fetch: None,
            hooks: Hooks::default(),
        }
    }
}

/// One call's options.
///
/// ```no_run
/// # async fn run(client: user_management_client::UsersClient) -> Result<(), user_management_client::Error> {
/// use user_management_client::{CallOptions, CountParams};
///
/// let controller = web_sys::AbortController::new().unwrap();
/// let options = CallOptions {
///     signal: Some(controller.signal()),
///     timeout_ms: Some(2_000),
///     headers: vec![("X-Request-Id".into(), "42".into())],
/// };
/// client.count_users(&CountParams::default(), &options).await?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default)]
pub struct CallOptions {
    /// Aborting it rejects the call with [`ErrorKind::Aborted`] at once.
    pub signal: Option<AbortSignal>,
    /// Overrides the client's `timeout_ms` for this call (0: none).
    pub timeout_ms: Option<u32>,
    /// Merged over the client's headers (names case-insensitively).
    pub headers: HeaderList,
}

/// A client bound to one base URL and set of options. Cheap to clone.
///
/// ```no_run
/// # async fn run() -> Result<(), user_management_client::Error> {
/// use user_management_client::{
///     Active, CallOptions, ClientOptions, CountParams, UsersClient,
/// };
///
/// let client = UsersClient::new(ClientOptions::new("https://api.example.com"))?;
/// let params = CountParams { active: Some(Active::True), ..Default::default() };
/// let count = client.count_users(&params, &CallOptions::default()).await?;
/// assert_eq!(count.status, 200);
/// println!("{} active users", count.result.total_users);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct UsersClient {
    config: Rc<Config>,
}

struct Config {
    count_url: String,
    list_url: String,
    options: ClientOptions,
    /// The headers of every call that adds none (no provider), built once.
    prepared: Option<Headers>,
}

impl UsersClient {
    /// Checks the options: a bad base URL, header or timeout is a
    /// [`ErrorKind::Validation`] error.
    pub fn new(options: ClientOptions) -> Result<UsersClient, Error> {
        let base = Value::Str(options.base_url.clone());
        let text = check_base_url(&base)?;
        let url = web_sys::Url::new(text).map_err(|cause| {
            Error::invalid("baseUrl", "a valid absolute URL", &base.shown()).with_cause(cause)
        })?;
        check_headers(&options.headers)?;
        let href = url.href();
        let mut options = options;
        options.timeout_ms = options.timeout_ms.min(MAX_TIMER_MS);
        let prepared = options
            .header_provider
            .is_none()
            .then(|| Headers::new(&options.headers, &[], options.params_in));
        Ok(UsersClient {
            config: Rc::new(Config {
                count_url: join(&href, Operation::Count.path()),
                list_url: join(&href, Operation::List.path()),
                options,
                prepared,
            }),
        })
    }

    /// Where this client sends params.
    pub(crate) fn params_in(&self) -> ParamsIn {
        self.config.options.params_in
    }

    /// `POST {baseUrl}/api/users/count`.
    pub async fn count_users(
        &self,
        params: &CountParams,
        options: &CallOptions,
    ) -> Result<Envelope<Count>, Error> {
        self.call_and(Operation::Count, &to_js(params)?, options, from_js)
            .await
    }

    /// `POST {baseUrl}/api/users`. The list's shape is not in the spec: name
    /// it as `T` (any serde type; `serde_json::Value`-like types work too).
    pub async fn list_users<T: DeserializeOwned>(
        &self,
        params: &ListParams,
        options: &CallOptions,
    ) -> Result<Envelope<T>, Error> {
        // `extra` is for the params the model does not name; the named ones
        // go through their typed fields (and their rules).
        for key in params.extra.keys() {
            if ["query", "active", "page", "pageSize"].contains(&key.as_str()) {
                return Err(Error::validation(
                    key,
                    format!("{key} is not an extra param: set its own field of ListParams"),
                ));
            }
            if key == "__proto__" {
                return Err(Error::validation(
                    key,
                    "__proto__ cannot be sent: it would not reach the request as a key",
                ));
            }
        }
        for (param, value) in [("page", params.page), ("pageSize", params.page_size)] {
            if value.is_some_and(|n| n as f64 > crate::envelope::MAX_SAFE_INTEGER) {
                return Err(Error::validation(
                    param,
                    format!("{param} must be at most 2^53 - 1 (a JavaScript number holds no more)"),
                ));
            }
        }
        self.call_and(Operation::List, &to_js(params)?, options, from_js)
            .await
    }

    /// Runs a call with checked params (an object of the values to send);
    /// resolves with the parsed body, a checked envelope.
    pub(crate) async fn call(
        &self,
        operation: Operation,
        params: &Object,
        options: &CallOptions,
    ) -> Result<JsValue, Error> {
        self.call_and(operation, params, options, Ok).await
    }

    /// [`UsersClient::call`], then `decode` on the body; an error from
    /// either leaves with the call's credentials cut out (a decode error can
    /// quote the body, and a server can echo a token there).
    async fn call_and<T>(
        &self,
        operation: Operation,
        params: &Object,
        options: &CallOptions,
        decode: impl FnOnce(JsValue) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let mut secrets = Vec::new();
        let outcome = self.run(operation, params, options, &mut secrets).await;
        outcome
            .and_then(decode)
            .map_err(|error| error.redact(&secrets))
    }

    async fn run(
        &self,
        operation: Operation,
        params: &Object,
        options: &CallOptions,
        secrets: &mut Vec<String>,
    ) -> Result<JsValue, Error> {
        let config = &*self.config;
        let signal = options.signal.as_ref();
        if is_aborted(signal) {
            return Err(aborted(signal));
        }
        check_headers(&options.headers)?;
        let headers = match (&config.options.header_provider, &config.prepared) {
            (None, Some(prepared)) if options.headers.is_empty() => prepared.clone(),
            (Some(provider), _) => {
                let given = Stop::new(None, signal)
                    .until(provider())
                    .await
                    .map_err(|_| aborted(signal))??;
                check_headers(&given)?;
                let base = crate::options::merge_headers(&config.options.headers, &given);
                Headers::new(&base, &options.headers, config.options.params_in)
            }
            _ => Headers::new(
                &config.options.headers,
                &options.headers,
                config.options.params_in,
            ),
        };
        secrets.clone_from(&headers.secrets);
        let secrets: &[String] = secrets;
        let url = match operation {
            Operation::Count => &config.count_url,
            Operation::List => &config.list_url,
        };
        let request = request::build(
            url,
            config.options.params_in,
            params,
            &headers,
            config.options.credentials,
        )?;
        let timeout_ms = options
            .timeout_ms
            .map_or(config.options.timeout_ms, |ms| ms.min(MAX_TIMER_MS));
        let fetch = config.options.fetch.as_ref();
        let hooks = &config.options.hooks;
        let mut retries_done = 0;
        loop {
            let number = retries_done + 1;
            // What the hooks see of this attempt, built only if one is set.
            let info = hooks.any().then(|| AttemptInfo {
                operation,
                url: request.url.clone(),
                attempt: number,
                headers: headers.shown(),
            });
            if let (Some(hook), Some(info)) = (&hooks.before_request, &info) {
                hook(info);
            }
            let sent_at = js_sys::Date::now();
            let arrived = |http_status: u16| {
                if let (Some(hook), Some(info)) = (&hooks.after_response, &info) {
                    hook(&ResponseInfo {
                        request: info.clone(),
                        http_status,
                        duration_ms: js_sys::Date::now() - sent_at,
                    });
                }
            };
            let outcome = attempt(&request, fetch, timeout_ms, signal, &arrived).await;
            // An abort that came after the body but before this line wins:
            // the caller has not been answered yet.
            if is_aborted(signal) {
                return Err(aborted(signal));
            }
            let (error, retry_after) = match outcome {
                Ok(answer) => {
                    let retry_after = answer.retry_after.clone();
                    match judge(answer, operation) {
                        Ok(body) => return Ok(body),
                        Err(error) => (error, retry_after),
                    }
                }
                Err(failure) => (failure_error(failure, &request.url, signal), None),
            };
            if retries_done >= config.options.retries
                || !retry::is_retryable(error.kind(), error.http_status())
            {
                return Err(error);
            }
            retries_done += 1;
            let delay = retry::delay_ms(
                retries_done,
                js_sys::Math::random(),
                retry_after.as_deref(),
                js_sys::Date::now(),
            );
            if let Some(hook) = &hooks.before_retry {
                hook(&RetryInfo {
                    operation,
                    attempt: number,
                    error: error.clone().redact(secrets),
                    delay_ms: delay,
                });
            }
            if Stop::new(Some(delay as u32), signal).wait().await == Stopped::Aborted {
                return Err(aborted(signal));
            }
        }
    }
}

/// Header names must be HTTP tokens; values Latin-1 without CR, LF or NUL.
fn check_headers(headers: &[(String, String)]) -> Result<(), Error> {
    for (name, value) in headers {
        check_header_name(name)?;
        check_header_value(name, value)?;
    }
    Ok(())
}

/// The `aborted` error, carrying the signal's reason.
fn aborted(signal: Option<&AbortSignal>) -> Error {
    let error = Error::new(ErrorKind::Aborted, "the call was aborted by its signal");
    match signal.and_then(|s| js_sys::Reflect::get(s, &"reason".into()).ok()) {
        Some(reason) => error.with_cause(reason),
        None => error,
    }
}

/// The error of an attempt that had no answer.
fn failure_error(failure: Failure, url: &str, signal: Option<&AbortSignal>) -> Error {
    match failure {
        Failure::TimedOut => Error::new(
            ErrorKind::Timeout,
            format!("no answer within timeoutMs from POST {url}"),
        ),
        Failure::Aborted => aborted(signal),
        Failure::Fetch(cause) => network_error("fetch", url, cause),
        Failure::Body(cause) => network_error("reading the body", url, cause),
        Failure::NotAResponse => Error::new(
            ErrorKind::Network,
            "fetch resolved with something that is not a Response",
        ),
    }
}

/// A `network` error that says what failed, where, and why, as far as the
/// platform told (`TypeError: fetch failed (ECONNREFUSED)` in Node).
fn network_error(what: &str, url: &str, cause: JsValue) -> Error {
    let message = format!(
        "{what} failed for POST {url}: {}",
        crate::exchange::failure_detail(&cause)
    );
    Error::new(ErrorKind::Network, message).with_cause(cause)
}

/// A model value as the JS object to send, through serde-wasm-bindgen
/// (`json_compatible`: plain objects, not `Map`s).
fn to_js<T: Serialize>(value: &T) -> Result<Object, Error> {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value
        .serialize(&serializer)
        .map(wasm_bindgen::JsCast::unchecked_into)
        .map_err(|error| Error::validation("params", error.to_string()))
}

/// A checked body (a 200 envelope) as the caller's type, through
/// serde-wasm-bindgen.
fn from_js<T: DeserializeOwned>(body: JsValue) -> Result<Envelope<T>, Error> {
    serde_wasm_bindgen::from_value(body).map_err(|error| {
        let detail = error.to_string();
        let detail = detail.strip_prefix("Error: ").unwrap_or(&detail);
        Error::new(
            ErrorKind::Decode,
            format!("the result does not fit the requested type: {detail}"),
        )
        .with_status(Some(200.0))
    })
}
