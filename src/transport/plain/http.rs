//! The transports outside a JS host (`native`, `wasi`) differ only in how
//! an attempt goes out, how they wait and which clocks they read: each is
//! an [`Http`], and every [`Http`] is a [`Transport`] through this one
//! implementation, with `plain`'s request and answer and the library's
//! rules.

use std::future::Future;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::call::Outcome;
use crate::error::Error;
use crate::host::provider::HeaderList;
use crate::host::{Rejection, Signal};
use crate::model::{Envelope, Operation, ParamsIn};
use crate::rules::headers::Resolved;
use crate::rules::options::Bounds;
use crate::transport::plain::answer::{self, Answer, Good};
use crate::transport::plain::request::{self, Headers, Params, Request};
use crate::transport::seam::{Arrived, Failed, Retry, Settled, Transport};

/// What a transport outside a JS host supplies to the call's driver.
pub(crate) trait Http {
    /// A point on the target's monotonic clock.
    type Instant: Copy;
    /// What a client's options give the transport.
    type Setup;
    /// What a client keeps for all its calls (natively its HTTP client).
    type Client;

    /// What a client made with `setup` keeps.
    fn client(setup: Self::Setup) -> Result<Self::Client, Error>;
    /// Whether a call may start here (natively: inside a tokio runtime).
    fn ready() -> Result<(), Error>;
    /// Sends `request` with `headers` as a `POST` through `client` and reads the whole
    /// answer: the timeout of `bounds` (0: none) covers the response and
    /// its body, and no more of a body than its limit is read; `arrived`
    /// is told as soon as the response headers are there.
    fn attempt<'a>(
        request: &'a Request,
        headers: &'a [(String, String)],
        client: &'a Self::Client,
        bounds: Bounds,
        arrived: Arrived<'a>,
    ) -> impl Future<Output = Result<Answer, Failed>> + 'a;
    /// Waits `ms` milliseconds, or fails if this runtime cannot.
    fn pause(ms: f64) -> impl Future<Output = Result<(), Error>>;
    /// What `work` comes to within `ms` milliseconds where given (`None`:
    /// it took longer, and was dropped), or fails if this runtime cannot
    /// time it.
    fn within<F: Future>(
        ms: Option<u32>,
        work: F,
    ) -> impl Future<Output = Result<Option<F::Output>, Error>>;
    /// The time now on the monotonic clock.
    fn now() -> Self::Instant;
    /// The time from `earlier` to now on the monotonic clock.
    fn since(earlier: Self::Instant) -> Duration;
    /// The wall-clock time in milliseconds since the Unix epoch.
    fn date_ms() -> f64;
    /// A random number in `[0, 1)`.
    fn random() -> f64;
}

impl<H: Http> Transport for H {
    type Params = Params;
    type Body = Good;
    type Headers = Headers;
    type Request = Request;
    type Setup = H::Setup;
    type Client = H::Client;

    fn client(setup: H::Setup) -> Result<H::Client, Error> {
        H::client(setup)
    }

    fn base_href(url: &str, param: &str) -> Result<String, Error> {
        request::base_href(url, param)
    }

    fn params<T: Serialize>(params: &T) -> Result<Params, Error> {
        request::params_object(params)
    }

    fn headers(resolved: Resolved) -> Headers {
        Headers::new(resolved)
    }

    fn resolved(headers: &Headers) -> &Resolved {
        &headers.resolved
    }

    fn build(
        url: &str,
        params: &Params,
        params_in: ParamsIn,
        _client: &H::Client,
    ) -> Result<Request, Rejection> {
        Ok(request::build(url, params_in, params, None)?)
    }

    fn url(request: &Request) -> &str {
        &request.url
    }

    fn ready(_signal: Option<&Signal>) -> Result<(), Rejection> {
        Ok(H::ready()?)
    }

    async fn waited<F: Future>(
        work: F,
        _signal: Option<&Signal>,
        ms: Option<u32>,
    ) -> Result<Option<F::Output>, Rejection> {
        Ok(H::within(ms, work).await?)
    }

    type Outcome = Result<Answer, Failed>;

    fn attempt<'a>(
        request: &'a Request,
        headers: &'a Headers,
        client: &'a H::Client,
        _signal: Option<&'a Signal>,
        bounds: Bounds,
        arrived: Option<Arrived<'a>>,
    ) -> impl Future<Output = Result<Answer, Failed>> + 'a {
        // The headers are read only when asked for: telling no one costs
        // nothing here.
        let arrived = arrived.unwrap_or(&tell_no_one);
        H::attempt(request, &headers.resolved.list, client, bounds, arrived)
    }

    fn settle(
        outcome: Result<Answer, Failed>,
        _request: &Request,
        _signal: Option<&Signal>,
        operation: Operation,
        secrets: &[String],
    ) -> Settled<Good> {
        let answer = match outcome {
            Ok(answer) => answer,
            Err(mut failed) => {
                // A body over its limit, which no attempt is made again for.
                if failed.rejection.error.is_never_retried() {
                    failed.retry = Retry::Never;
                }
                return failed.settled();
            }
        };
        let retry_after = answer.retry_after.clone();
        match answer::judge(answer, operation, secrets) {
            Ok(good) => (Ok(good), Outcome::Good),
            Err(error) => Failed {
                rejection: error.into(),
                retry: Retry::AsTheRuleSays(retry_after),
            }
            .settled(),
        }
    }

    async fn pause(ms: f64, _signal: Option<&Signal>) -> Result<(), Rejection> {
        Ok(H::pause(ms).await?)
    }

    type Instant = H::Instant;

    fn now() -> H::Instant {
        H::now()
    }

    fn since(earlier: H::Instant) -> Duration {
        H::since(earlier)
    }

    fn date_ms() -> f64 {
        H::date_ms()
    }

    fn random() -> f64 {
        H::random()
    }

    fn decode<T: DeserializeOwned>(body: Good) -> Result<Envelope<T>, Error> {
        answer::decode(body)
    }
}

/// What an attempt tells when no hook waits for its response's headers.
fn tell_no_one(_: u16, _: &dyn Fn() -> HeaderList) {}
