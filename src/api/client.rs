//! The Rust API: [`UsersClient`], configured by [`ClientOptions`], called
//! with [`CallOptions`]. The JS exports are a thin layer over it.
//!
//! A call resolves its headers once (the header provider asked once), builds
//! its request once, then runs attempts until one answers well, fails for
//! good, or the retry rule says to give up, pausing between attempts as that
//! rule says. Errors leave with the call's credentials cut out. The loop is
//! written once against the transport seam (`transport::Transport`); the
//! target's transport is `transport::Target`.

use std::time::Duration;

use serde::de::DeserializeOwned;

use crate::api::hooks::{AttemptInfo, ResponseInfo, RetryInfo};
use crate::api::options::{CallOptions, ClientOptions};
use crate::error::Error;
use crate::host::Rejection;
use crate::model::{Count, CountParams, Envelope, ListParams, Operation};
use crate::rules::headers::Resolved;
use crate::rules::options::{check_base_url, check_headers, duration_ms, join, Bounds};
use crate::rules::params::check_list_params;
use crate::rules::retry;
use crate::transport::{Retry, Target, Transport};

/// The target's transport's types (`transport::Target`): `fetch` in a JS
/// host, `wasi:http` on wasm32-wasip2.
type Params = <Target as Transport>::Params;
type Body = <Target as Transport>::Body;
type Headers = <Target as Transport>::Headers;
type Request = <Target as Transport>::Request;
type Instant = <Target as Transport>::Instant;

/// How a client shares its configuration with its clones: natively across
/// threads.
#[cfg(target_arch = "wasm32")]
type Shared<T> = std::rc::Rc<T>;
#[cfg(not(target_arch = "wasm32"))]
type Shared<T> = std::sync::Arc<T>;

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
    config: Shared<Config>,
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
    /// What this client keeps of the transport (natively its HTTP client).
    transport: <Target as Transport>::Client,
}

impl UsersClient {
    /// Checks the options: a bad base URL or header is a
    /// [`ErrorKind::Validation`](crate::ErrorKind::Validation) error. The
    /// base URL is parsed by the platform's `URL` in a JS host, by the `url`
    /// crate elsewhere.
    pub fn new(options: ClientOptions) -> Result<UsersClient, Error> {
        check_base_url(&options.base_url)?;
        check_headers(&options.headers)?;
        let href = Target::base_href(&options.base_url)?;
        let prepared = options.header_provider.is_none().then(|| {
            let resolved = Resolved::new(&options.headers, &[], &[], options.params_in);
            Target::headers(resolved)
        });
        Ok(UsersClient {
            config: Shared::new(Config {
                // Before `options` moves in.
                transport: Target::client(options.setup())?,
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
        let params = Target::params(params)?;
        self.call_and(Operation::Count, &params, options, Target::decode)
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
        check_list_params(params, self.config.options.params_in)?;
        let object = Target::params(params)?;
        self.call_and(Operation::List, &object, options, Target::decode)
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
    #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
    pub(crate) async fn call(
        &self,
        operation: Operation,
        params: &js_sys::Object,
        options: &CallOptions,
    ) -> Result<wasm_bindgen::JsValue, Rejection> {
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
        Target::ready(options.abort_signal())?;
        let headers = self.headers(options).await?;
        let resolved = Target::resolved(&headers);
        *secrets = resolved.secrets.clone();
        let secrets: &[String] = secrets;
        let url = match operation {
            Operation::Count => &config.count_url,
            Operation::List => &config.list_url,
        };
        let request = Target::build(
            url,
            params,
            &headers,
            config.options.params_in,
            &config.transport,
        )?;
        let bounds = Bounds {
            timeout_ms: options.timeout.map_or(config.timeout_ms, duration_ms),
            max_body_bytes: config.options.max_body_bytes,
            naming: config.options.naming,
        };
        let mut retries_done = 0;
        loop {
            let number = retries_done + 1;
            let info = self.before_attempt(operation, &request, resolved, number);
            let sent_at = Target::now();
            let arrived = |http_status: u16| self.arrived(info.as_ref(), http_status, sent_at);
            let signal = options.abort_signal();
            let attempt = Target::attempt(&request, &config.transport, signal, bounds, &arrived);
            let outcome = attempt.await;
            let failed = match Target::settle(outcome, &request, signal, operation, secrets) {
                Ok(body) => return Ok(body),
                Err(failed) => failed,
            };
            let delay = match &failed.retry {
                Retry::AsTheRuleSays(retry_after) => retry::next_delay(
                    &failed.rejection.error,
                    retries_done,
                    options.retries.unwrap_or(config.options.retries),
                    Target::random(),
                    retry_after.as_deref(),
                    Target::date_ms(),
                ),
                Retry::Never => None,
            };
            let Some(delay_ms) = delay else {
                return Err(failed.rejection);
            };
            retries_done += 1;
            if let Some(hook) = &config.options.hooks.before_retry {
                let shown = failed.rejection.redact(secrets);
                // `as` saturates; the rule's delays are finite and >= 0.
                let delay = Duration::from_nanos((delay_ms * 1e6) as u64);
                hook(&RetryInfo::new(operation, number, shown, delay));
            }
            Target::pause(delay_ms, options.abort_signal()).await?;
            Target::ready(options.abort_signal())?;
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
                let given = Target::provide(provider, options.abort_signal()).await?;
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
        Ok(Target::headers(resolved))
    }

    /// What the hooks see of attempt `number` (built only if a hook is
    /// set), after `beforeRequest` saw it.
    fn before_attempt(
        &self,
        operation: Operation,
        request: &Request,
        resolved: &Resolved,
        number: u32,
    ) -> Option<AttemptInfo> {
        let hooks = &self.config.options.hooks;
        let info = hooks.any().then(|| AttemptInfo {
            operation,
            url: Target::url(request).to_string(),
            attempt: number,
            headers: resolved.shown(),
        });
        if let (Some(hook), Some(info)) = (&hooks.before_request, &info) {
            hook(info);
        }
        info
    }

    /// Tells `afterResponse` that the attempt's response headers arrived.
    fn arrived(&self, info: Option<&AttemptInfo>, http_status: u16, sent_at: Instant) {
        if let (Some(hook), Some(info)) = (&self.config.options.hooks.after_response, info) {
            hook(&ResponseInfo {
                request: info.clone(),
                http_status,
                duration: Target::since(sent_at),
            });
        }
    }
}
