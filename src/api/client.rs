//! The Rust API: [`UsersClient`], configured by [`ClientOptions`], called
//! through its request builders (`api::request`, which adds
//! `count_users` and `list_users` to it), each call's options a
//! [`CallOptions`]. The JS exports are a thin layer over it.
//!
//! A call is the call machine (`crate::call`), which decides every step:
//! the attempt's headers (the header providers asked before each attempt,
//! so a retry carries fresh ones, then `beforeRequest`'s), what the hooks
//! see, whether `afterResponse`'s answer sets the attempt aside, whether
//! and when to try again. `UsersClient::run` is its driver: it builds the
//! request once per call, then does what the machine asks (waits for a
//! provider or a hook, sends an attempt, pauses) through the transport
//! seam (`transport::Transport`; the target's transport is
//! `transport::Target`), and tells the machine what came of it. Errors
//! leave with every attempt's credentials cut out.

use std::borrow::Borrow;
use std::time::Duration;

use serde::de::DeserializeOwned;

use crate::api::hooks::{HookReturn, ResponseAction, RetryInfo};
use crate::api::options::{CallOptions, ClientOptions};
use crate::api::trace::{self, Span};
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
use crate::call::Attempt;
use crate::call::{Call, HookSet, Input, Outcome, Output, Plan};
use crate::error::Error;
use crate::host::provider::HeaderList;
use crate::host::{Rejection, Signal};
use crate::model::{Count, CountParams, Envelope, ListParams, Operation};
use crate::rules::headers::Resolved;
use crate::rules::options::{check_base_url, check_headers, duration_ms, join, Bounds, Naming};
use crate::rules::pages::PageView;
use crate::rules::params::check_list_params;
use crate::rules::retry::{Judged, Policy};
use crate::transport::{Arrived, Target, Transport};

/// The target's transport's types (`transport::Target`): `fetch` in a JS
/// host, `wasi:http` on wasm32-wasip2.
type Params = <Target as Transport>::Params;
type Body = <Target as Transport>::Body;
type Headers = <Target as Transport>::Headers;

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
        options.retry_policy.check(options.naming)?;
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
        let mut call = Call::new();
        let span = Span::call(operation);
        let outcome = span
            .run(self.run(operation, params, options, &mut call))
            .await;
        outcome
            .and_then(|body| decode(body).map_err(Rejection::from))
            .map_err(|rejection| {
                span.failed(&rejection.error);
                rejection.redact(call.secrets())
            })
    }

    /// Drives `call` (the call machine, which decides everything) through
    /// the transport: asks the header providers and the hooks, sends each
    /// attempt, pauses, and tells the machine what came of each step,
    /// until it is done.
    async fn run(
        &self,
        operation: Operation,
        params: &Params,
        options: &CallOptions,
        call: &mut Call<Answer>,
    ) -> Result<Body, Rejection> {
        let prepared = prepare(self, operation, params, options)?;
        let config = &*self.config;
        let client = &config.options;
        let hooks = &client.hooks;
        let signal = options.abort_signal();
        let request = &prepared.request;
        let providers = [&client.header_provider, &options.header_provider];
        let plan = prepared.plan(
            options,
            [
                client.header_provider.is_some(),
                options.header_provider.is_some(),
            ],
            HookSet {
                before_request: hooks.before_request.is_some(),
                after_response: hooks.after_response.is_some(),
                before_retry: hooks.before_retry.is_some(),
            },
        );
        // The attempt's deadline: the attempt whose deadline runs, and
        // when its first wait began.
        let mut clock = None;
        loop {
            let attempt_number = call.attempt();
            let mut left = || prepared.left(&mut clock, attempt_number);
            let input = match call.poll_output(&plan) {
                Output::Provide(provider) => {
                    let provider = providers
                        .get(provider)
                        .and_then(|provider| provider.as_ref());
                    match provider {
                        Some(provider) => {
                            match Target::waited(provider.provide(), signal, left()).await {
                                Ok(Some(Ok(given))) => Input::Provided(given),
                                Ok(None) => prepared.expired(),
                                Ok(Some(Err(rejection))) | Err(rejection) => {
                                    Input::End(Err(rejection))
                                }
                            }
                        }
                        None => Input::Provided(HeaderList::new()),
                    }
                }
                Output::BeforeRequest(info) => match &hooks.before_request {
                    Some(hook) => match Self::decided(hook(info), signal, left()).await {
                        Ok(Some(Ok(given))) => Input::BeforeRequest(given),
                        Ok(Some(Err(error))) => Input::End(Err(error.into())),
                        Ok(None) => prepared.expired(),
                        Err(rejection) => Input::End(Err(rejection)),
                    },
                    None => Input::BeforeRequest(HeaderList::new()),
                },
                Output::Send(attempt) => match left() {
                    // The deadline passed before the attempt could be sent.
                    Some(0) => prepared.expired(),
                    sent_left => {
                        let bounds = match sent_left {
                            Some(ms) => prepared.bounds.with_left(ms),
                            None => prepared.bounds,
                        };
                        let built;
                        let headers = match &config.prepared {
                            Some(prepared) if attempt.prepared => prepared,
                            _ => {
                                built = Target::headers(attempt.headers.clone());
                                &built
                            }
                        };
                        let span = Span::attempt(plan.url, attempt.resend_count);
                        let after_response = hooks.after_response.as_ref();
                        let after_response = after_response.filter(|_| attempt.tell_arrival);
                        let call: &Call<Answer> = call;
                        // The clock is read, and the transport tells when the
                        // response headers arrive, only where `afterResponse`
                        // waits for them or a `tracing` subscriber records the
                        // status.
                        let told = after_response.is_some() || span.is_recorded();
                        let sent_at = told.then(Target::now);
                        let asked = Asked::default();
                        let (asked_ref, status) = (&asked, span.status_recorder());
                        let arrived = sent_at.map(|sent_at| {
                            move |http_status: u16, headers: &dyn Fn() -> HeaderList| {
                                status.record(http_status);
                                if let Some(hook) = after_response {
                                    let duration = Target::since(sent_at);
                                    if let Some(info) =
                                        call.response_info(http_status, &headers(), duration)
                                    {
                                        asked_ref.keep(hook(&info));
                                    }
                                }
                            }
                        });
                        let transport = prepared.transport();
                        let arrived = arrived.as_ref().map(|arrived| arrived as Arrived);
                        let attempt =
                            Target::attempt(request, headers, transport, signal, bounds, arrived);
                        let outcome = span.run(attempt).await;
                        let secrets = call.secrets();
                        let (answer, outcome) =
                            Target::settle(outcome, request, signal, operation, secrets);
                        if let Err(failed) = &answer {
                            span.failed(&failed.error);
                        }
                        let action = match asked.take() {
                            None => Ok(Some(ResponseAction::Keep)),
                            Some(decided) => Self::decided(decided, signal, left()).await,
                        };
                        match action {
                            Ok(Some(action)) => Input::Settled {
                                answer,
                                outcome,
                                action,
                            },
                            Ok(None) => prepared.expired(),
                            Err(rejection) => Input::End(Err(rejection)),
                        }
                    }
                },
                Output::Draw => {
                    let (random, date_ms) = (Target::random(), Target::date_ms());
                    Input::Drawn { random, date_ms }
                }
                Output::BeforeRetry { failed, retry } => {
                    let failed = failed.and_then(|answer| answer.as_ref().err());
                    match (&hooks.before_retry, failed) {
                        (Some(hook), Some(failed)) => {
                            let shown = failed.clone().redact(call.secrets());
                            // Stopped, or past its own timeout from its
                            // call, the retry is not made: the call ends
                            // with the error it was to retry.
                            let info =
                                prepared.retry_info(retry.resend_count, shown, retry.delay_ms);
                            let own = Some(prepared.bounds.timeout_ms).filter(|&ms| ms > 0);
                            match Self::decided(hook(&info), signal, own).await {
                                Ok(Some(go_on)) => Input::RetryHookDone { stop: !go_on },
                                Ok(None) => Input::RetryHookDone { stop: true },
                                Err(rejection) => Input::End(Err(rejection)),
                            }
                        }
                        _ => Input::RetryHookDone { stop: false },
                    }
                }
                Output::Pause(delay_ms) => {
                    let paused = Target::pause(delay_ms, signal).await;
                    match paused.and_then(|()| Target::ready(signal)) {
                        Ok(()) => Input::Paused,
                        Err(rejection) => Input::End(Err(rejection)),
                    }
                }
                Output::Done => return call.finish(),
            };
            if let Some(retry) = call.handle_input(&plan, input) {
                trace::retrying(retry.delay_ms, retry.resend_count, retry.judged);
            }
        }
    }

    /// What a hook decided, waited for as the call allows when it comes
    /// later, for at most `ms` milliseconds where given (`None`: that
    /// passed first).
    async fn decided<T>(
        decided: HookReturn<T>,
        signal: Option<&Signal>,
        ms: Option<u32>,
    ) -> Result<Option<T>, Rejection> {
        match decided {
            HookReturn::Now(decided) => Ok(Some(decided)),
            HookReturn::Later(future) => Target::waited(future, signal, ms).await,
        }
    }
}

/// A call of `client` made ready for its driver, once the caller's signal
/// lets it start: the request built once for all its attempts, their
/// bounds (the call's timeout, else the client's) and the retry policy
/// (the call's over the client's, where it sets one).
/// `client` is the async driver's reference, or a JS host's driver's own
/// client.
#[inline(always)]
pub(crate) fn prepare<C: Borrow<UsersClient>>(
    client: C,
    operation: Operation,
    params: &Params,
    options: &CallOptions,
) -> Result<Prepared<C>, Rejection> {
    let config = &*client.borrow().config;
    let options_of = &config.options;
    Target::ready(options.abort_signal())?;
    let url = match operation {
        Operation::Count => &config.count_url,
        Operation::List => &config.list_url,
    };
    let bounds = Bounds::new(
        options.timeout.map_or(config.timeout_ms, duration_ms),
        options_of.max_body_bytes,
        options_of.naming,
    );
    let request = Target::build(url, params, options_of.params_in, &config.transport)?;
    options.retry_policy.check(options_of.naming)?;
    Ok(Prepared {
        request,
        client,
        operation,
        bounds,
    })
}

/// A call ready for its driver (`prepare`): what every step
/// of the call machine's plan and every attempt read. Both drivers make
/// one: the async one above (over its client, `C` a reference), and a JS
/// host's, which keeps it across the call's steps (the JS layer steps it,
/// `api::js_steps`; `C` a client of its own).
pub struct Prepared<C: Borrow<UsersClient> = UsersClient> {
    /// The client, whose options and prepared headers the plan reads.
    pub(crate) client: C,
    /// Count or list.
    pub(crate) operation: Operation,
    /// The request, built once for all the call's attempts.
    pub(crate) request: <Target as Transport>::Request,
    /// Each attempt's timeout and body limit.
    pub(crate) bounds: Bounds,
}

impl<C: Borrow<UsersClient>> Prepared<C> {
    /// The call machine's plan for this call: the call's own options
    /// (its headers and retry policy), which header providers there are
    /// (the client's, the call's) and which hooks are set.
    pub fn plan<'a>(
        &'a self,
        call: &'a CallOptions,
        providers: [bool; 2],
        hooks: HookSet,
    ) -> Plan<'a> {
        let config = &*self.client.borrow().config;
        let client = &config.options;
        Plan {
            operation: self.operation,
            url: Target::url(&self.request),
            client_headers: &client.headers,
            call_headers: &call.headers,
            prepared: config.prepared.as_ref().map(Target::resolved),
            providers,
            hooks,
            params_in: client.params_in,
            policy: Policy {
                call: &call.retry_policy,
                client: &client.retry_policy,
            },
        }
    }

    /// The headers an attempt sends, as the transport takes them: the
    /// client's, made ready once, where the machine says they are
    /// (`built` keeps the others). A JS host's driver's: the async one
    /// above keeps them where its future needs no room for them.
    #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
    pub(crate) fn headers<'a>(
        &'a self,
        attempt: &Attempt<'_>,
        built: &'a mut Option<Headers>,
    ) -> &'a Headers {
        match &self.client.borrow().config.prepared {
            Some(prepared) if attempt.prepared => prepared,
            _ => built.insert(Target::headers(attempt.headers.clone())),
        }
    }

    /// What is left of the deadline of attempt `attempt` (`None`: it has
    /// none, `timeoutMs` 0), which runs from the attempt's first wait;
    /// `clock` keeps which attempt's runs and when it began.
    #[inline(never)]
    pub(crate) fn left(
        &self,
        clock: &mut Option<(u32, <Target as Transport>::Instant)>,
        attempt: u32,
    ) -> Option<u32> {
        let timeout_ms = self.bounds.timeout_ms;
        if timeout_ms == 0 {
            return None;
        }
        match *clock {
            Some((running, began)) if running == attempt => {
                Some(timeout_ms.saturating_sub(duration_ms(Target::since(began))))
            }
            _ => {
                *clock = Some((attempt, Target::now()));
                Some(timeout_ms)
            }
        }
    }

    /// The attempt's deadline passed before its answer: a `timeout`, which
    /// the retry rule judges as it judges any.
    #[inline(never)]
    pub fn expired<B>(&self) -> Input<Result<B, Rejection>> {
        let error = self.bounds.timed_out(Target::url(&self.request));
        Input::Settled {
            outcome: Outcome::Failed {
                judged: Judged::of(&error),
                retry_after: None,
            },
            answer: Err(error.into()),
            action: ResponseAction::Keep,
        }
    }

    /// What `beforeRetry` sees of the retry of attempt `attempt`, which
    /// failed with `shown` (credentials already cut out), after
    /// `delay_ms`.
    pub fn retry_info(&self, attempt: u32, shown: Rejection, delay_ms: f64) -> RetryInfo {
        // `as` saturates; the rule's delays are finite and >= 0.
        let delay = Duration::from_nanos((delay_ms * 1e6) as u64);
        RetryInfo::new(self.operation, attempt, shown, delay)
    }

    /// What the client keeps of the transport.
    pub(crate) fn transport(&self) -> &<Target as Transport>::Client {
        &self.client.borrow().config.transport
    }
}

/// What the driver keeps of an attempt's outcome for the call machine:
/// the body of a good answer, or the error.
type Answer = Result<Body, Rejection>;

/// How the call machine ends a call with an error of its own.
impl<B> From<Error> for Result<B, Rejection> {
    fn from(error: Error) -> Result<B, Rejection> {
        Err(error.into())
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
