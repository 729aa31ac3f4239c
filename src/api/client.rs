//! The Rust API: [`UsersClient`], configured by [`ClientOptions`], called
//! through its request builders (`api::request`, which adds
//! `count_users` and `list_users` to it), each call's options a
//! [`CallOptions`]. The JS exports are a thin layer over it.
//!
//! A call runs attempts until one answers well, fails for good, or the
//! retry rule says to give up, pausing between attempts as that rule says.
//! The request (its URL and body) is built once per call; each attempt
//! resolves its headers (the header provider asked each time, so a retry
//! carries fresh ones) and lets `beforeRequest` add to them;
//! `afterResponse` may set an answer aside and ask for the attempt again.
//! Errors leave with every attempt's credentials cut out. The loop is
//! written once against the transport seam (`transport::Transport`); the
//! target's transport is `transport::Target`.

use std::time::Duration;

use serde::de::DeserializeOwned;

use crate::api::hooks::{AttemptInfo, HookReturn, ResponseAction, ResponseInfo, RetryInfo};
use crate::api::options::{CallOptions, ClientOptions};
use crate::api::trace::{self, Span};
use crate::error::Error;
use crate::host::provider::HeaderList;
use crate::host::{Rejection, Signal};
use crate::model::{Count, CountParams, Envelope, ListParams, Operation};
use crate::rules::headers::{merge_headers, Resolved};
use crate::rules::options::{check_base_url, check_headers, duration_ms, join, Bounds, Naming};
use crate::rules::pages::PageView;
use crate::rules::params::check_list_params;
use crate::rules::{retry, secrets};
use crate::transport::{Arrived, Retry, Target, Transport};

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
/// use user_management_client::{Active, ClientOptions, UsersClient};
///
/// let client = UsersClient::new(ClientOptions::new("https://api.example.com"))?;
/// let count = client.count_users().active(Active::True).send().await?;
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
        check_base_url(&options.base_url, options.naming)?;
        check_headers(&options.headers)?;
        let href = Target::base_href(&options.base_url, options.naming.base_url())?;
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

    /// The count call, as the builder sends it.
    pub(crate) async fn count(
        &self,
        params: &CountParams,
        options: &CallOptions,
    ) -> Result<Envelope<Count>, Error> {
        let params = Target::params(params)?;
        self.call_and(Operation::Count, &params, options, Target::decode)
            .await
            .map_err(|rejection| rejection.error)
    }

    /// The list call, as the builder sends it: the result decoded as `T`.
    pub(crate) async fn list<T: DeserializeOwned>(
        &self,
        params: &ListParams,
        options: &CallOptions,
    ) -> Result<Envelope<T>, Error> {
        let object = self.list_params(params)?;
        self.call_and(Operation::List, &object, options, Target::decode)
            .await
            .map_err(|rejection| rejection.error)
    }

    /// One page of a walk through the list's pages: the result checked as
    /// a page (what the walk needs of it), then decoded as `T` as
    /// [`UsersClient::list`] decodes it, both inside the call, so that an
    /// error quoting the body has its credentials cut out.
    pub(crate) async fn page<T: DeserializeOwned>(
        &self,
        params: &ListParams,
        options: &CallOptions,
    ) -> Result<(Envelope<T>, PageView), Error> {
        let decode = |body: <Target as Transport>::Body| {
            let page: Envelope<serde_json::Value> = Target::decode(body.clone())?;
            let view = PageView::of_json(&page.result, Naming::Rust)?;
            Ok((Target::decode(body)?, view))
        };
        let object = self.list_params(params)?;
        self.call_and(Operation::List, &object, options, decode)
            .await
            .map_err(|rejection| rejection.error)
    }

    /// A list call's params, checked, as the transport sends them.
    fn list_params(&self, params: &ListParams) -> Result<Params, Error> {
        let client = &self.config.options;
        check_list_params(params, client.params_in, client.naming)?;
        Target::params(params)
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
        let span = Span::call(operation);
        let outcome = span
            .run(self.run(operation, params, options, &mut secrets))
            .await;
        outcome
            .and_then(|body| decode(body).map_err(Rejection::from))
            .map_err(|rejection| {
                span.failed(&rejection.error);
                rejection.redact(&secrets)
            })
    }

    /// The attempts of a call, until one answers well or the retry rule
    /// gives up. `secrets` receives the credentials to cut out of errors:
    /// every attempt's.
    async fn run(
        &self,
        operation: Operation,
        params: &Params,
        options: &CallOptions,
        secrets: &mut Vec<String>,
    ) -> Result<Body, Rejection> {
        let config = &*self.config;
        let hooks = &config.options.hooks;
        let signal = options.abort_signal();
        Target::ready(signal)?;
        check_headers(&options.headers)?;
        let url = match operation {
            Operation::Count => &config.count_url,
            Operation::List => &config.list_url,
        };
        let bounds = Bounds::new(
            options.timeout.map_or(config.timeout_ms, duration_ms),
            config.options.max_body_bytes,
            config.options.naming,
        );
        let params_in = config.options.params_in;
        let request = Target::build(url, params, params_in, &config.transport)?;
        let mut retries_done = 0;
        loop {
            let number = retries_done + 1;
            let (headers, info) = self
                .prepare(operation, &request, options, number, secrets)
                .await?;
            let secrets: &[String] = secrets;
            let span = Span::attempt(Target::url(&request), retries_done);
            // The clock is read, and the transport tells when the response
            // headers arrive, only where `afterResponse` waits for them or
            // a `tracing` subscriber records the status.
            let told = hooks.after_response.is_some() || span.is_recorded();
            let sent_at = told.then(Target::now);
            let asked = Asked::default();
            let (info, asked_ref, status) = (info.as_ref(), &asked, span.status_recorder());
            let arrived = sent_at.map(|sent_at| {
                move |http_status: u16, headers: &dyn Fn() -> HeaderList| {
                    status.record(http_status);
                    self.arrived(info, http_status, headers, sent_at, secrets, asked_ref);
                }
            });
            let transport = &config.transport;
            let arrived = arrived.as_ref().map(|arrived| arrived as Arrived);
            let attempt = Target::attempt(&request, &headers, transport, signal, bounds, arrived);
            let outcome = span.run(attempt).await;
            let settled = Target::settle(outcome, &request, signal, operation, secrets);
            if let Err(failed) = &settled {
                span.failed(&failed.rejection.error);
            }
            let action = match asked.take() {
                None => ResponseAction::Keep,
                Some(decided) => Self::decided(decided, signal).await?,
            };
            // What the retry rule judges, unless a hook asked for the
            // attempt again: then any answer is set aside while retries
            // are left.
            let (judged, retry_after) = match (&settled, action) {
                (Ok(_), ResponseAction::Keep) => return settled.map_err(|f| f.rejection),
                (Ok(_), _) => (None, None),
                (Err(failed), action) => match &failed.retry {
                    Retry::Never => return settled.map_err(|f| f.rejection),
                    Retry::AsTheRuleSays(retry_after) => {
                        let judged =
                            (action == ResponseAction::Keep).then_some(&failed.rejection.error);
                        (judged, retry_after.as_deref())
                    }
                },
            };
            let delay = retry::next_delay(
                judged,
                retries_done,
                options.retries.unwrap_or(config.options.retries),
                Target::random(),
                retry_after,
                Target::date_ms(),
            );
            let Some(delay_ms) = delay else {
                return settled.map_err(|f| f.rejection);
            };
            retries_done += 1;
            trace::retrying(delay_ms, retries_done, judged);
            if let (Some(hook), Err(failed)) = (&hooks.before_retry, settled) {
                let shown = failed.rejection.redact(secrets);
                // `as` saturates; the rule's delays are finite and >= 0.
                let delay = Duration::from_nanos((delay_ms * 1e6) as u64);
                Self::decided(
                    hook(&RetryInfo::new(operation, number, shown, delay)),
                    signal,
                )
                .await?;
            }
            Target::pause(delay_ms, signal).await?;
            Target::ready(signal)?;
        }
    }

    /// What a hook decided, waited for as the call allows when it comes
    /// later.
    async fn decided<T>(decided: HookReturn<T>, signal: Option<&Signal>) -> Result<T, Rejection> {
        match decided {
            HookReturn::Now(decided) => Ok(decided),
            HookReturn::Later(future) => Target::waited(future, signal).await,
        }
    }

    /// Attempt `number`'s headers: the client's, the provider's (asked
    /// before every attempt) and the call's, then what `beforeRequest`
    /// gives it over those, each checked; and what the hooks see of the
    /// attempt (built only if a hook is set). Its credentials join
    /// `secrets`.
    async fn prepare(
        &self,
        operation: Operation,
        request: &Request,
        options: &CallOptions,
        number: u32,
        secrets: &mut Vec<String>,
    ) -> Result<(Headers, Option<AttemptInfo>), Rejection> {
        let hooks = &self.config.options.hooks;
        let mut headers = self.headers(options).await?;
        let mut info = hooks.any().then(|| AttemptInfo {
            operation,
            url: Target::url(request).to_string(),
            attempt: number,
            headers: Target::resolved(&headers).shown(),
        });
        if let (Some(hook), Some(info)) = (&hooks.before_request, &mut info) {
            let given = Self::decided(hook(info), options.abort_signal()).await??;
            if !given.is_empty() {
                check_headers(&given)?;
                let params_in = self.config.options.params_in;
                headers = Target::headers(Target::resolved(&headers).with(&given, params_in));
                info.headers = Target::resolved(&headers).shown();
            }
        }
        for secret in &Target::resolved(&headers).secrets {
            if !secrets.contains(secret) {
                secrets.push(secret.clone());
            }
        }
        Ok((headers, info))
    }

    /// The call's headers for one attempt: the client's, its provider's,
    /// the call's and the call's provider's, each over the one before and
    /// checked (the call's signal ends a provider's wait).
    async fn headers(&self, options: &CallOptions) -> Result<Headers, Rejection> {
        let config = &*self.config;
        let client = &config.options;
        if let (None, None, Some(prepared)) = (
            &client.header_provider,
            &options.header_provider,
            &config.prepared,
        ) {
            if options.headers.is_empty() {
                return Ok(prepared.clone());
            }
        }
        // The client's provider, then the call's, one after the other,
        // through one wait in the code (each wait costs the `.wasm` its
        // own copy of the signal's race).
        let mut provided = [HeaderList::new(), HeaderList::new()];
        let providers = [&client.header_provider, &options.header_provider];
        for (given, provider) in provided.iter_mut().zip(providers) {
            if let Some(provider) = provider {
                *given = Target::waited(provider.provide(), options.abort_signal()).await??;
                check_headers(given)?;
            }
        }
        let [provided, call] = provided;
        let call = merge_headers(&options.headers, &call);
        let resolved = Resolved::new(&client.headers, &provided, &call, client.params_in);
        Ok(Target::headers(resolved))
    }

    /// Tells `afterResponse` that the attempt's response headers arrived,
    /// showing it those headers with credentials cut out, and keeps what
    /// it decides in `asked`.
    fn arrived(
        &self,
        info: Option<&AttemptInfo>,
        http_status: u16,
        headers: &dyn Fn() -> HeaderList,
        sent_at: Instant,
        secrets: &[String],
        asked: &Asked,
    ) {
        if let (Some(hook), Some(info)) = (&self.config.options.hooks.after_response, info) {
            let decided = hook(&ResponseInfo {
                request: info.clone(),
                http_status,
                duration: Target::since(sent_at),
                response_headers: secrets::shown_response(&headers(), secrets),
            });
            asked.keep(decided);
        }
    }
}

/// What `afterResponse` decided about an attempt, kept from the moment the
/// response headers arrived until the attempt is settled (natively behind
/// a lock, so that the call's future stays `Send`).
#[derive(Default)]
struct Asked(Kept<Option<HookReturn<ResponseAction>>>);

/// Where [`Asked`] keeps a decision: natively a lock, on wasm32 (one
/// thread) a cell.
#[cfg(target_arch = "wasm32")]
type Kept<T> = std::cell::RefCell<T>;
#[cfg(not(target_arch = "wasm32"))]
type Kept<T> = std::sync::Mutex<T>;

impl Asked {
    fn keep(&self, decided: HookReturn<ResponseAction>) {
        if let Some(mut kept) = self.kept() {
            *kept = Some(decided);
        }
    }

    fn take(&self) -> Option<HookReturn<ResponseAction>> {
        self.kept().and_then(|mut kept| kept.take())
    }

    #[cfg(target_arch = "wasm32")]
    fn kept(&self) -> Option<std::cell::RefMut<'_, Option<HookReturn<ResponseAction>>>> {
        self.0.try_borrow_mut().ok()
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn kept(&self) -> Option<std::sync::MutexGuard<'_, Option<HookReturn<ResponseAction>>>> {
        self.0.lock().ok()
    }
}
