//! The Rust API: [`UsersClient`], configured by [`ClientOptions`], called
//! with [`CallOptions`]. The JS exports are a thin layer over it.
//!
//! A call resolves its headers once (the header provider asked once), builds
//! its request once, then runs attempts until one answers well, fails for
//! good, or the retry rule says to give up, pausing between attempts as that
//! rule says. Errors leave with the call's credentials cut out.

use std::rc::Rc;

use serde::de::DeserializeOwned;
use web_sys::AbortSignal;

use crate::api::hooks::{AttemptInfo, ResponseInfo, RetryInfo};
use crate::api::options::{CallOptions, ClientOptions};
use crate::error::{Error, ErrorKind};
use crate::model::{Count, CountParams, Envelope, ListParams, Operation};
use crate::rules::headers::Resolved;
use crate::rules::options::{check_base_url, check_headers, duration_ms, join};
use crate::rules::params::check_list_params;
use crate::rules::retry;
use crate::transport::fetch::rejection::Rejection;
use crate::transport::fetch::wait::is_aborted;
// The transport is the target's: `fetch` in a JS host, `wasi:http` on
// wasm32-wasip2. Each gives the loop the same few things: the request
// built once, one attempt with its timeout, a pause, the time and a random
// number.
#[cfg(not(all(target_arch = "wasm32", target_os = "wasi")))]
use {
    crate::rules::value::Value,
    crate::transport::fetch::answer::judge,
    crate::transport::fetch::exchange::{attempt, Answer, Failure},
    crate::transport::fetch::rejection::failure_detail,
    crate::transport::fetch::request::{self, base_href, params_object, Headers, Request},
    crate::transport::fetch::wait::{Stop, Stopped},
    js_sys::Object as Params,
    wasm_bindgen::JsValue,
    wasm_bindgen::JsValue as Body,
};
#[cfg(all(target_arch = "wasm32", target_os = "wasi"))]
use {
    crate::transport::wasi::answer::{decode, judge},
    crate::transport::wasi::request::{self, base_href, params_object, Headers, Params, Request},
    crate::transport::wasi::{self, now_ms, random},
    std::string::String as Body,
};

/// What every call returns outside wasm32, where there is no JS `fetch`.
const NEEDS_FETCH: &str =
    "this client calls the API through JavaScript's fetch, which it has only \
     when compiled to wasm32 and run in a JS runtime; on another target (a server-side \
     render) every call fails with this error";

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

/// Shows the options (credential header values read `"[REDACTED]"`).
impl std::fmt::Debug for UsersClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UsersClient")
            .field("options", &self.config.options)
            .finish()
    }
}

struct Config {
    count_url: String,
    list_url: String,
    options: ClientOptions,
    /// The timeout per attempt in milliseconds (0: none).
    timeout_ms: u32,
    /// The headers of every call that adds none (no provider), built once.
    prepared: Option<Headers>,
}

/// A failed attempt: the error, and whether to ask the retry rule.
struct Failed {
    rejection: Rejection,
    retry: Retry,
}

/// What may follow a failed attempt.
enum Retry {
    /// What the retry rule says, given the answer's `Retry-After`, if any.
    AsTheRuleSays(Option<String>),
    /// Nothing: a setup error (the host has no `fetch`, or it answered
    /// something that is not a response), which every attempt would meet.
    /// (The WASI transport has no such error.)
    #[cfg_attr(all(target_arch = "wasm32", target_os = "wasi"), allow(dead_code))]
    Never,
}

impl From<Rejection> for Failed {
    fn from(rejection: Rejection) -> Failed {
        Failed {
            rejection,
            retry: Retry::AsTheRuleSays(None),
        }
    }
}

impl UsersClient {
    /// Checks the options: a bad base URL or header is a
    /// [`ErrorKind::Validation`] error. Outside wasm32 the same checks
    /// run, but the platform's `URL` does not parse the base URL.
    pub fn new(options: ClientOptions) -> Result<UsersClient, Error> {
        check_base_url(&options.base_url)?;
        check_headers(&options.headers)?;
        let href = base_href(&options.base_url)?;
        let prepared =
            (cfg!(target_arch = "wasm32") && options.header_provider.is_none()).then(|| {
                let resolved = Resolved::new(&options.headers, &[], &[], options.params_in);
                Headers::new(resolved)
            });
        Ok(UsersClient {
            config: Rc::new(Config {
                count_url: join(&href, Operation::Count.path()),
                list_url: join(&href, Operation::List.path()),
                timeout_ms: duration_ms(options.timeout),
                options,
                prepared,
            }),
        })
    }

    /// `POST {baseUrl}/api/users/count`.
    pub async fn count_users(
        &self,
        params: &CountParams,
        options: &CallOptions,
    ) -> Result<Envelope<Count>, Error> {
        if cfg!(not(target_arch = "wasm32")) {
            return Err(Error::new(ErrorKind::Network, NEEDS_FETCH));
        }
        let params = params_object(params)?;
        self.call_and(Operation::Count, &params, options, decode)
            .await
            .map_err(|rejection| rejection.error)
    }

    /// `POST {baseUrl}/api/users`. The list's shape is not in the spec: name
    /// it as `T` (any serde type; `serde_json::Value`-like types work too).
    pub async fn list_users<T: DeserializeOwned>(
        &self,
        params: &ListParams,
        options: &CallOptions,
    ) -> Result<Envelope<T>, Error> {
        if cfg!(not(target_arch = "wasm32")) {
            return Err(Error::new(ErrorKind::Network, NEEDS_FETCH));
        }
        check_list_params(params)?;
        let params = params_object(params)?;
        self.call_and(Operation::List, &params, options, decode)
            .await
            .map_err(|rejection| rejection.error)
    }

    /// The options this client was made with.
    pub(crate) fn options(&self) -> &ClientOptions {
        &self.config.options
    }

    /// A call with `params`, the object of checked params to send: resolves
    /// with the parsed body, a checked envelope, and rejects with the error
    /// and the JS value behind it, credentials cut out of both.
    #[cfg(not(all(target_arch = "wasm32", target_os = "wasi")))]
    pub(crate) async fn call(
        &self,
        operation: Operation,
        params: &Params,
        options: &CallOptions,
    ) -> Result<JsValue, Rejection> {
        if cfg!(not(target_arch = "wasm32")) {
            return Err(Error::new(ErrorKind::Network, NEEDS_FETCH).into());
        }
        self.call_and(operation, params, options, Ok).await
    }

    /// Runs a call, then `decode` on the body; an error from either leaves
    /// with the call's credentials cut out (a decode error can quote the
    /// body, and a server can echo a token there).
    async fn call_and<T>(
        &self,
        operation: Operation,
        params: &Params,
        options: &CallOptions,
        decode: impl FnOnce(Body) -> Result<T, Error>,
    ) -> Result<T, Rejection> {
        let mut secrets = Vec::new();
        let outcome = self.run(operation, params, options, &mut secrets).await;
        outcome
            .and_then(|body| decode(body).map_err(Rejection::from))
            .map_err(|rejection| rejection.redact(&secrets))
    }

    /// The attempts of a call, until one answers well or the retry rule
    /// gives up. `secrets` receives the credentials to cut out of errors.
    async fn run(
        &self,
        operation: Operation,
        params: &Params,
        options: &CallOptions,
        secrets: &mut Vec<String>,
    ) -> Result<Body, Rejection> {
        let config = &*self.config;
        let signal = options.signal.as_ref();
        if is_aborted(signal) {
            return Err(aborted(signal));
        }
        let headers = self.headers(options).await?;
        *secrets = headers.resolved.secrets.clone();
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
        let timeout_ms = options.timeout.map_or(config.timeout_ms, duration_ms);
        let mut retries_done = 0;
        loop {
            let number = retries_done + 1;
            let info = self.before_attempt(operation, &request, &headers, number);
            let sent_at = now_ms();
            let arrived = |http_status: u16| self.arrived(info.as_ref(), http_status, sent_at);
            #[cfg(not(all(target_arch = "wasm32", target_os = "wasi")))]
            let fetch = config.options.fetch.as_ref();
            #[cfg(not(all(target_arch = "wasm32", target_os = "wasi")))]
            let outcome = attempt(&request, fetch, timeout_ms, signal, &arrived).await;
            #[cfg(not(all(target_arch = "wasm32", target_os = "wasi")))]
            let failed = match settle(outcome, operation, &request.url, signal, secrets) {
                Ok(body) => return Ok(body),
                Err(failed) => failed,
            };
            #[cfg(all(target_arch = "wasm32", target_os = "wasi"))]
            let failed = match send(&request, timeout_ms, &arrived, operation, secrets) {
                Ok(body) => return Ok(body),
                Err(failed) => failed,
            };
            let delay = match &failed.retry {
                Retry::AsTheRuleSays(retry_after) => retry::next_delay(
                    &failed.rejection.error,
                    retries_done,
                    config.options.retries,
                    random(),
                    retry_after.as_deref(),
                    now_ms(),
                ),
                Retry::Never => None,
            };
            let Some(delay) = delay else {
                return Err(failed.rejection);
            };
            retries_done += 1;
            if let Some(hook) = &config.options.hooks.before_retry {
                let shown = failed.rejection.redact(secrets);
                hook(&RetryInfo {
                    operation,
                    attempt: number,
                    error: shown.error,
                    delay_ms: delay,
                    cause: shown.cause,
                });
            }
            #[cfg(not(all(target_arch = "wasm32", target_os = "wasi")))]
            if Stop::new(Some(delay as u32), signal).wait().await == Stopped::Aborted {
                return Err(aborted(signal));
            }
            #[cfg(all(target_arch = "wasm32", target_os = "wasi"))]
            wasi::sleep_ms(delay);
        }
    }

    /// The call's headers: the client's, the provider's (asked once per
    /// call; the call's signal ends the wait) and the call's, each checked.
    async fn headers(&self, options: &CallOptions) -> Result<Headers, Rejection> {
        let config = &*self.config;
        check_headers(&options.headers)?;
        let provided = match (&config.options.header_provider, &config.prepared) {
            (None, Some(prepared)) if options.headers.is_empty() => return Ok(prepared.clone()),
            (None, _) => Vec::new(),
            (Some(provider), _) => {
                #[cfg(not(all(target_arch = "wasm32", target_os = "wasi")))]
                let signal = options.signal.as_ref();
                #[cfg(not(all(target_arch = "wasm32", target_os = "wasi")))]
                let given = Stop::new(None, signal)
                    .until(provider.provide())
                    .await
                    .map_err(|_| aborted(signal))??;
                #[cfg(all(target_arch = "wasm32", target_os = "wasi"))]
                let given = provider.provide().await?;
                check_headers(&given)?;
                given
            }
        };
        let resolved = Resolved::new(
            &config.options.headers,
            &provided,
            &options.headers,
            config.options.params_in,
        );
        Ok(Headers::new(resolved))
    }

    /// What the hooks see of attempt `number` (built only if a hook is
    /// set), after `beforeRequest` saw it.
    fn before_attempt(
        &self,
        operation: Operation,
        request: &Request,
        headers: &Headers,
        number: u32,
    ) -> Option<AttemptInfo> {
        let hooks = &self.config.options.hooks;
        let info = hooks.any().then(|| AttemptInfo {
            operation,
            url: request.url.clone(),
            attempt: number,
            headers: headers.resolved.shown(),
        });
        if let (Some(hook), Some(info)) = (&hooks.before_request, &info) {
            hook(info);
        }
        info
    }

    /// Tells `afterResponse` that the attempt's response headers arrived.
    fn arrived(&self, info: Option<&AttemptInfo>, http_status: u16, sent_at: f64) {
        if let (Some(hook), Some(info)) = (&self.config.options.hooks.after_response, info) {
            hook(&ResponseInfo {
                request: info.clone(),
                http_status,
                duration_ms: now_ms() - sent_at,
            });
        }
    }
}

/// One attempt through `wasi:http`, judged: the body of a good answer, or
/// why it failed. (A WASI host has no `fetch` option and no signal.)
#[cfg(all(target_arch = "wasm32", target_os = "wasi"))]
fn send(
    request: &Request,
    timeout_ms: u32,
    arrived: &dyn Fn(u16),
    operation: Operation,
    secrets: &[String],
) -> Result<Body, Failed> {
    let answer = wasi::attempt(request, timeout_ms, arrived).map_err(Rejection::from)?;
    let retry_after = answer.retry_after.clone();
    judge(answer, operation, secrets).map_err(|error| Failed {
        rejection: error.into(),
        retry: Retry::AsTheRuleSays(retry_after),
    })
}

/// The time in milliseconds since the Unix epoch.
#[cfg(not(all(target_arch = "wasm32", target_os = "wasi")))]
fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// A random number in `[0, 1)`.
#[cfg(not(all(target_arch = "wasm32", target_os = "wasi")))]
fn random() -> f64 {
    js_sys::Math::random()
}

/// What an attempt came to: the parsed body of a good answer, or why it
/// failed. An abort that came after the body wins: the caller has not been
/// answered yet.
#[cfg(not(all(target_arch = "wasm32", target_os = "wasi")))]
fn settle(
    outcome: Result<Answer, Failure>,
    operation: Operation,
    url: &str,
    signal: Option<&AbortSignal>,
    secrets: &[String],
) -> Result<JsValue, Failed> {
    if is_aborted(signal) {
        return Err(aborted(signal).into());
    }
    match outcome {
        Ok(answer) => {
            let retry_after = answer.retry_after.clone();
            judge(answer, operation, secrets).map_err(|error| Failed {
                rejection: error.into(),
                retry: Retry::AsTheRuleSays(retry_after),
            })
        }
        Err(failure) => {
            let retry = match failure {
                Failure::NoFetch | Failure::NotAResponse(_) => Retry::Never,
                _ => Retry::AsTheRuleSays(None),
            };
            Err(Failed {
                rejection: failure_error(failure, url, signal),
                retry,
            })
        }
    }
}

/// The `aborted` error, carrying the signal's reason.
fn aborted(signal: Option<&AbortSignal>) -> Rejection {
    let error = Error::new(ErrorKind::Aborted, "the call was aborted by its signal");
    match signal.and_then(|s| js_sys::Reflect::get(s, &"reason".into()).ok()) {
        Some(reason) => Rejection::caused(error, reason),
        None => error.into(),
    }
}

/// The error of an attempt that had no answer.
#[cfg(not(all(target_arch = "wasm32", target_os = "wasi")))]
fn failure_error(failure: Failure, url: &str, signal: Option<&AbortSignal>) -> Rejection {
    match failure {
        Failure::TimedOut => Error::new(
            ErrorKind::Timeout,
            format!("no answer within timeoutMs from POST {url}"),
        )
        .into(),
        Failure::Aborted => aborted(signal),
        Failure::Fetch(cause) => network_error("fetch", url, cause),
        Failure::Body(cause) => network_error("reading the body", url, cause),
        Failure::NoFetch => Error::new(
            ErrorKind::Network,
            "this host has no global fetch: pass one as the fetch option",
        )
        .into(),
        Failure::NotAResponse(value) => Error::new(
            ErrorKind::Network,
            format!(
                "fetch resolved with {}, which is not a Response",
                Value::of(&value).shown()
            ),
        )
        .into(),
    }
}

/// A `network` error that says what failed, where, and why, as far as the
/// platform told (`TypeError: fetch failed (ECONNREFUSED)` in Node).
#[cfg(not(all(target_arch = "wasm32", target_os = "wasi")))]
fn network_error(what: &str, url: &str, cause: JsValue) -> Rejection {
    let message = format!("{what} failed for POST {url}: {}", failure_detail(&cause));
    Rejection::caused(Error::new(ErrorKind::Network, message), cause)
}

/// A checked body (a 200 envelope) as the caller's type, through
/// serde-wasm-bindgen.
#[cfg(not(all(target_arch = "wasm32", target_os = "wasi")))]
fn decode<T: DeserializeOwned>(body: JsValue) -> Result<Envelope<T>, Error> {
    serde_wasm_bindgen::from_value(body).map_err(|error| {
        let detail = error.to_string();
        let detail = detail.strip_prefix("Error: ").unwrap_or(&detail);
        Error::new(
            ErrorKind::Decode,
            format!("the result does not fit the requested type: {detail}"),
        )
        .with_status(Some(200))
    })
}
