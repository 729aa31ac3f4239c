//! The options of the Rust API: [`ClientOptions`] for a client and
//! [`CallOptions`] for one call, built with chainable setters. The option
//! rules decide what they may hold; [`UsersClient::new`](crate::UsersClient::new)
//! and each call check them.
//!
//! Their `Debug` output shows header values as the hooks see them:
//! credential values read `"[REDACTED]"`.

use std::fmt;
use std::future::Future;
use std::time::Duration;

#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
use js_sys::Function;
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
use web_sys::AbortSignal;

use crate::api::hooks::Hooks;
use crate::host::provider::{HeaderList, HeaderProvider, ProvidedFuture, ProvidedHeaders};
use crate::host::{MaybeSend, MaybeSendSync, Rejection, Signal};
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
use crate::model::Credentials;
use crate::model::ParamsIn;
use crate::rules::options::{Naming, DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT};
use crate::rules::retry::RetryPolicy;
use crate::rules::secrets;

/// A client's options. [`ClientOptions::new`] fills the defaults; the
/// setters change one each and return the options. The fields are public
/// to read and assign: no setter keeps an invariant that an assignment
/// could break (the rules check every value when
/// [`UsersClient::new`](crate::UsersClient::new) or a call reads it), and
/// `#[non_exhaustive]` lets fields be added.
///
/// ```no_run
/// use std::time::Duration;
/// use user_management_client::{ClientOptions, ParamsIn, UsersClient};
///
/// let options = ClientOptions::new("https://api.example.com/v1")
///     .params_in(ParamsIn::Query)
///     .timeout(Duration::from_secs(5))
///     .retries(0)
///     .header("x-tenant", "acme")
///     .header_provider(|| async {
///         vec![("Authorization".to_string(), "Bearer abc123".to_string())]
///     });
/// let client = UsersClient::new(options)?;
/// # Ok::<(), user_management_client::Error>(())
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct ClientOptions {
    /// An absolute `http:` / `https:` URL without query or fragment; it may
    /// carry a path prefix, and a trailing slash is optional.
    pub base_url: String,
    /// Sent with every call. Default: none.
    pub headers: HeaderList,
    /// Called before every attempt (so a retry carries fresh headers); its
    /// headers go over [`ClientOptions::headers`].
    /// Default: none.
    pub header_provider: Option<HeaderProvider>,
    /// Where params go. Default: [`ParamsIn::Body`].
    pub params_in: ParamsIn,
    /// Per attempt; [`Duration::ZERO`] means none. Default: 10 s.
    pub timeout: Duration,
    /// When to try again: the retries after a retryable failure
    /// (`limit`), the statuses retried, the longest `Retry-After` honoured
    /// and the backoff's longest pause. Default: every field's default
    /// (2 retries of a `network` error, a `timeout`, HTTP 408, 429, 500,
    /// 502, 503, 504; 60 s; 10 s).
    pub retry_policy: RetryPolicy,
    /// The most bytes of an answer's body read; a larger answer fails with
    /// [`ErrorKind::Decode`](crate::ErrorKind::Decode). `0` means no limit.
    /// Default: 64 MiB.
    pub max_body_bytes: u64,
    /// The HTTP client the calls go through, with its connection pool:
    /// the caller's own (for a proxy, private CA roots, a client
    /// certificate, HTTP/2 settings). Default: one built by
    /// [`UsersClient::new`](crate::UsersClient::new) for that client, with a
    /// connect timeout. (Native builds only.)
    #[cfg(not(target_arch = "wasm32"))]
    #[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
    pub http_client: Option<reqwest::Client>,
    /// `fetch`'s credentials mode. Default: the platform's (`"same-origin"`).
    /// (JS host builds only.)
    #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
    #[cfg_attr(docsrs, doc(cfg(all(target_arch = "wasm32", not(target_os = "wasi")))))]
    pub credentials: Option<Credentials>,
    /// Called as `fetch(url, init)` instead of the platform's `fetch`.
    /// Default: the global `fetch`, looked up per call. (JS host builds only.)
    #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
    #[cfg_attr(docsrs, doc(cfg(all(target_arch = "wasm32", not(target_os = "wasi")))))]
    pub fetch: Option<Function>,
    /// See every attempt, response and retry, and may change an attempt
    /// (see [`Hooks`]). Default: none.
    pub hooks: Hooks,
    /// The names messages give the options (the JS layer and the
    /// component set theirs).
    pub(crate) naming: Naming,
}

impl fmt::Debug for ClientOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut shown = f.debug_struct("ClientOptions");
        shown
            .field("base_url", &self.base_url)
            .field("headers", &secrets::shown(&self.headers))
            .field("header_provider", &self.header_provider)
            .field("params_in", &self.params_in)
            .field("timeout", &self.timeout)
            .field("retry_policy", &self.retry_policy);
        shown.field("max_body_bytes", &self.max_body_bytes);
        #[cfg(not(target_arch = "wasm32"))]
        shown.field("http_client", &self.http_client.is_some());
        #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
        shown
            .field("credentials", &self.credentials)
            .field("fetch", &self.fetch.is_some());
        shown.field("hooks", &self.hooks).finish()
    }
}

impl ClientOptions {
    /// Options with every default: `params_in: Body`, a 10 s timeout,
    /// `retries: 2`, a 64 MiB body limit, no headers.
    pub fn new(base_url: impl Into<String>) -> ClientOptions {
        ClientOptions {
            base_url: base_url.into(),
            headers: Vec::new(),
            header_provider: None,
            params_in: ParamsIn::default(),
            timeout: DEFAULT_TIMEOUT,
            retry_policy: RetryPolicy::default(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            #[cfg(not(target_arch = "wasm32"))]
            http_client: None,
            #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
            credentials: None,
            #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
            fetch: None,
            hooks: Hooks::default(),
            naming: Naming::Rust,
        }
    }

    /// Adds a header sent with every call.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Replaces the headers sent with every call.
    pub fn headers<N, V>(mut self, headers: impl IntoIterator<Item = (N, V)>) -> Self
    where
        N: Into<String>,
        V: Into<String>,
    {
        self.headers = headers
            .into_iter()
            .map(|(name, value)| (name.into(), value.into()))
            .collect();
        self
    }

    /// A function called before every attempt for headers that go over
    /// the client's: the place for token refresh (a retry carries what it
    /// returns then). Its future
    /// resolves with the headers, or with a `Result` of them whose `Err`
    /// (this crate's [`Error`](crate::Error), or any error of the app's:
    /// then a `Validation` error naming `headers` with it as its source)
    /// fails the call before anything is sent. A `Result`'s error type is
    /// the closure's to name: `Ok::<_, MyError>(headers)`, or `?` on a
    /// call that fails with it. Natively the closure is `Send + Sync` and
    /// its future `Send`.
    pub fn header_provider<F, Fut>(mut self, provider: F) -> Self
    where
        F: Fn() -> Fut + MaybeSendSync + 'static,
        Fut: Future + MaybeSend + 'static,
        Fut::Output: ProvidedHeaders,
    {
        self.header_provider = Some(boxed(provider));
        self
    }

    /// The timeout of each attempt ([`Duration::ZERO`]: none): one deadline
    /// from its first header provider to its last `after_response`;
    /// `before_retry` has a window of the same length of its own.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Extra attempts after a retryable failure: the retry policy's
    /// `limit`.
    pub fn retries(mut self, retries: u32) -> Self {
        self.retry_policy.limit = Some(retries);
        self
    }

    /// The retry policy; the fields it leaves unset keep their defaults.
    pub fn retry_policy(mut self, retry_policy: RetryPolicy) -> Self {
        self.retry_policy = retry_policy;
        self
    }

    /// The most bytes of an answer's body read (`0`: no limit): a
    /// `Content-Length` over it is refused before the body is read, and a
    /// body that grows past it is dropped at once; either fails the call
    /// with [`ErrorKind::Decode`](crate::ErrorKind::Decode), never retried.
    pub fn max_body_bytes(mut self, max_body_bytes: u64) -> Self {
        self.max_body_bytes = max_body_bytes;
        self
    }

    /// What the fetch transport reads of the options: the `fetch` option
    /// and `credentials`.
    #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
    pub(crate) fn setup(&self) -> crate::transport::fetch::Setup {
        crate::transport::fetch::Setup {
            fetch: self.fetch.clone(),
            credentials: self.credentials,
        }
    }

    /// What the native transport reads of the options: the caller's HTTP
    /// client, if any.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn setup(&self) -> Option<reqwest::Client> {
        self.http_client.clone()
    }

    /// What the WASI transport reads of the options: nothing.
    #[cfg(all(target_arch = "wasm32", target_os = "wasi"))]
    pub(crate) fn setup(&self) {}

    /// The caller's own HTTP client, used instead of the one
    /// [`UsersClient::new`](crate::UsersClient::new) would build: for a
    /// proxy, private CA roots, a client certificate or HTTP/2 settings.
    /// The client's `timeout` and body limit still apply to each attempt.
    /// (Native builds only.)
    ///
    /// It is a reqwest 0.13 client ([`crate::reqwest`]). With the
    /// crate's `default-tls` feature (the default) reqwest has its own
    /// default TLS (rustls on aws-lc-rs, the platform's verifier), so a
    /// client built from the re-export alone works; with default features
    /// off, the app's own reqwest features give it its TLS.
    ///
    /// ```no_run
    /// use user_management_client::{ClientOptions, UsersClient};
    ///
    /// # fn run(company_root_ca_pem: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
    /// let http = reqwest::Client::builder()
    ///     .tls_certs_merge([reqwest::Certificate::from_pem(company_root_ca_pem)?])
    ///     .build()?;
    /// let client = UsersClient::new(
    ///     ClientOptions::new("https://users.internal.example").http_client(http),
    /// )?;
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    #[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
    pub fn http_client(mut self, http_client: reqwest::Client) -> Self {
        self.http_client = Some(http_client);
        self
    }

    /// Where params go.
    pub fn params_in(mut self, params_in: ParamsIn) -> Self {
        self.params_in = params_in;
        self
    }

    /// `fetch`'s credentials mode. (JS host builds only.)
    #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
    #[cfg_attr(docsrs, doc(cfg(all(target_arch = "wasm32", not(target_os = "wasi")))))]
    pub fn credentials(mut self, credentials: Credentials) -> Self {
        self.credentials = Some(credentials);
        self
    }

    /// The hooks that see every attempt, response and retry, and may
    /// change an attempt.
    pub fn hooks(mut self, hooks: Hooks) -> Self {
        self.hooks = hooks;
        self
    }
}

/// A header provider closure, boxed.
fn boxed<F, Fut>(provider: F) -> HeaderProvider
where
    F: Fn() -> Fut + MaybeSendSync + 'static,
    Fut: Future + MaybeSend + 'static,
    Fut::Output: ProvidedHeaders,
{
    HeaderProvider::new(move || -> ProvidedFuture {
        let future = provider();
        Box::pin(async move { future.await.into_headers().map_err(Rejection::from) })
    })
}

/// One call's options. `CallOptions::default()` has none. A request
/// builder's per-call setters fill one; a whole one goes in through
/// [`CountUsers::options`](crate::CountUsers::options) and
/// [`ListUsers::options`](crate::ListUsers::options) (one set of options
/// for several calls).
///
/// In a JS host (wasm32-unknown-unknown):
///
/// ```ignore
/// # async fn run(client: user_management_client::UsersClient) -> Result<(), user_management_client::Error> {
/// use std::time::Duration;
/// use user_management_client::CallOptions;
///
/// let controller = web_sys::AbortController::new().unwrap();
/// let options = CallOptions::default()
///     .signal(controller.signal())
///     .timeout(Duration::from_secs(2))
///     .retries(0)
///     .header("X-Request-Id", "42");
/// client.count_users().options(options.clone()).send().await?;
/// client.list_users().options(options).send::<serde_json::Value>().await?;
/// # Ok(()) }
/// ```
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct CallOptions {
    /// Aborting it rejects the call with
    /// [`ErrorKind::Aborted`](crate::ErrorKind::Aborted) at once. (JS host
    /// only; natively, drop the call's future.)
    #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
    #[cfg_attr(docsrs, doc(cfg(all(target_arch = "wasm32", not(target_os = "wasi")))))]
    pub signal: Option<AbortSignal>,
    /// Overrides the client's timeout for this call ([`Duration::ZERO`]: none).
    pub timeout: Option<Duration>,
    /// Overrides the client's [`ClientOptions::retry_policy`] for this
    /// call, field by field: a field left unset is the client's.
    pub retry_policy: RetryPolicy,
    /// Merged over the client's headers (names case-insensitively).
    pub headers: HeaderList,
    /// Called before every attempt of this call; its headers go over
    /// [`CallOptions::headers`]. Default: none.
    pub header_provider: Option<HeaderProvider>,
}

impl fmt::Debug for CallOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut shown = f.debug_struct("CallOptions");
        #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
        shown.field("signal", &self.signal.is_some());
        shown
            .field("timeout", &self.timeout)
            .field("retry_policy", &self.retry_policy)
            .field("headers", &secrets::shown(&self.headers))
            .field("header_provider", &self.header_provider)
            .finish()
    }
}

impl CallOptions {
    /// The call's signal, as the transport waits on it.
    #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
    #[inline]
    pub(crate) fn abort_signal(&self) -> Option<&Signal> {
        self.signal.as_ref()
    }

    /// The call's signal: none outside a JS host.
    #[cfg(not(all(target_arch = "wasm32", not(target_os = "wasi"))))]
    pub(crate) fn abort_signal(&self) -> Option<&Signal> {
        None
    }

    /// The caller's signal: aborting it ends the call at once. (JS host builds only.)
    #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
    #[cfg_attr(docsrs, doc(cfg(all(target_arch = "wasm32", not(target_os = "wasi")))))]
    pub fn signal(mut self, signal: AbortSignal) -> Self {
        self.signal = Some(signal);
        self
    }

    /// This call's timeout per attempt ([`Duration::ZERO`]: none).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// This call's extra attempts after a retryable failure, instead of
    /// the client's.
    pub fn retries(mut self, retries: u32) -> Self {
        self.retry_policy.limit = Some(retries);
        self
    }

    /// This call's retry policy: each field it sets overrides the
    /// client's.
    pub fn retry_policy(mut self, retry_policy: RetryPolicy) -> Self {
        self.retry_policy = retry_policy;
        self
    }

    /// Adds a header, merged over the client's.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// A function called before every attempt of this call for headers
    /// that go over the call's (as [`ClientOptions::header_provider`]).
    pub fn header_provider<F, Fut>(mut self, provider: F) -> Self
    where
        F: Fn() -> Fut + MaybeSendSync + 'static,
        Fut: Future + MaybeSend + 'static,
        Fut::Output: ProvidedHeaders,
    {
        self.header_provider = Some(boxed(provider));
        self
    }
}
