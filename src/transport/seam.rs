//! The seam: what the call's driver in `api/client.rs` needs of a transport
//! ([`Transport`]), and what an attempt tells it ([`Failed`], [`Retry`],
//! [`Arrived`]). Each transport implements it in its own folder; the
//! folder's parent, `transport/mod.rs`, names the one this build uses.

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
use crate::rules::retry::Judged;

/// What an attempt tells when its response headers arrived: the HTTP
/// status, and how to read the response's headers (names in lower case),
/// which is asked only where a hook needs them. Natively `Sync`, so that a
/// call's future is `Send`.
#[cfg(target_arch = "wasm32")]
pub(crate) type Arrived<'a> = &'a dyn Fn(u16, &dyn Fn() -> HeaderList);
/// What an attempt tells when its response headers arrived: the HTTP
/// status, and how to read the response's headers (names in lower case),
/// which is asked only where a hook needs them. Natively `Sync`, so that a
/// call's future is `Send`.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) type Arrived<'a> = &'a (dyn Fn(u16, &dyn Fn() -> HeaderList) + Sync);

/// A failed attempt: the error, and whether to ask the retry rule.
pub(crate) struct Failed {
    /// The error, with the value behind it.
    pub rejection: Rejection,
    /// What may follow.
    pub retry: Retry,
}

/// What may follow a failed attempt.
pub(crate) enum Retry {
    /// What the retry rule says, given the answer's `Retry-After`, if any.
    AsTheRuleSays(Option<String>),
    /// Nothing, not even where a hook asks: the caller's signal ended the
    /// call (an abort, or the caller's deadline: the call is over, whatever
    /// the error's kind), a setup error (the host has no `fetch`, or it
    /// answered something that is not a response; natively a tokio runtime
    /// without the driver the HTTP client needs), which every attempt would
    /// meet, or an answer whose body is over its limit, which is never
    /// retried.
    Never,
}

/// A settled attempt: the body of a good answer or the error, and what the
/// call machine is told of it.
pub(crate) type Settled<B> = (Result<B, Rejection>, Outcome);

impl Failed {
    /// The failed attempt as the call machine takes it.
    pub(crate) fn settled<B>(self) -> Settled<B> {
        let outcome = match self.retry {
            Retry::Never => Outcome::Final,
            Retry::AsTheRuleSays(retry_after) => Outcome::Failed {
                judged: Judged::of(&self.rejection.error),
                retry_after,
            },
        };
        (Err(self.rejection), outcome)
    }
}

impl From<Rejection> for Failed {
    fn from(rejection: Rejection) -> Failed {
        Failed {
            rejection,
            retry: Retry::AsTheRuleSays(None),
        }
    }
}

impl From<Error> for Failed {
    fn from(error: Error) -> Failed {
        Rejection::from(error).into()
    }
}

/// What the call's driver needs of a target: the request built once per call,
/// one attempt with its timeout, a pause, the time on a monotonic clock
/// (and the date, for a `Retry-After` date) and a random number,
/// and the checks a target makes before and while a call waits (a JS
/// host's signal). The rules decide everything else.
pub(crate) trait Transport {
    /// A call's params, as this transport encodes them.
    type Params;
    /// The body of a good answer (a checked envelope), before the caller's
    /// type reads it.
    type Body;
    /// A call's resolved headers, as this transport sends them.
    type Headers: Clone;
    /// A call's request, ready for its attempts.
    type Request;
    /// What a client's options give this transport (`ClientOptions::setup`
    /// makes it): a JS host's `fetch` option and `credentials`, natively a
    /// caller's HTTP client.
    type Setup;
    /// What a client keeps of this transport for all its calls (natively
    /// its HTTP client, with the connection pool).
    type Client;

    /// What a client made with `setup` keeps of this transport.
    fn client(setup: Self::Setup) -> Result<Self::Client, Error>;
    /// The base URL as the platform's URL parser writes it, or a
    /// `validation` error.
    fn base_href(url: &str, param: &str) -> Result<String, Error>;
    /// Model params (`CountParams`, `ListParams`) as this transport sends them.
    fn params<T: Serialize>(params: &T) -> Result<Self::Params, Error>;
    /// The resolved headers, as this transport sends them.
    fn headers(resolved: Resolved) -> Self::Headers;
    /// What the rules resolved for `headers`.
    fn resolved(headers: &Self::Headers) -> &Resolved;
    /// The request of a call to `url`, its params sent as `params_in` says:
    /// what every attempt sends but the headers, which each attempt gives.
    fn build(
        url: &str,
        params: &Self::Params,
        params_in: ParamsIn,
        client: &Self::Client,
    ) -> Result<Self::Request, Rejection>;
    /// The request's full URL (with the query string in `query` mode).
    fn url(request: &Self::Request) -> &str;
    /// Whether the call may start (a JS host: its signal has not aborted).
    fn ready(signal: Option<&Signal>) -> Result<(), Rejection>;
    /// What `work` (a header provider's or a hook's future) comes to,
    /// waited for as the call allows (a JS host: until its signal aborts),
    /// and for at most `ms` milliseconds where given: `None` when that
    /// passed first. `work` is dropped when the wait ends before it.
    async fn waited<F: Future>(
        work: F,
        signal: Option<&Signal>,
        ms: Option<u32>,
    ) -> Result<Option<F::Output>, Rejection>;
    /// What an attempt came to, before [`Transport::settle`] judges it.
    type Outcome;

    /// One attempt of `request` with `headers`: the timeout of `bounds` (0:
    /// none) covers the response and its body, and no more of a body than
    /// its limit is read; `arrived`, where given (a hook waits for it), is
    /// told when the response headers are there. (The future is the
    /// transport's own, not wrapped: the loop awaits it, then settles what
    /// it came to.)
    fn attempt<'a>(
        request: &'a Self::Request,
        headers: &'a Self::Headers,
        client: &'a Self::Client,
        signal: Option<&'a Signal>,
        bounds: Bounds,
        arrived: Option<Arrived<'a>>,
    ) -> impl Future<Output = Self::Outcome> + 'a;
    /// What an attempt came to, judged by the envelope rules: the body of a
    /// good answer, or why it failed, with `secrets` cut out of the error;
    /// and what the call machine is told of it.
    fn settle(
        outcome: Self::Outcome,
        request: &Self::Request,
        signal: Option<&Signal>,
        operation: Operation,
        secrets: &[String],
    ) -> Settled<Self::Body>;
    /// Waits `ms` milliseconds before the next attempt, or less if the call
    /// ends first (a JS host: its signal aborts); the loop then asks
    /// [`Transport::ready`] whether to go on. It fails only where the
    /// runtime cannot wait (natively: a tokio runtime without timers).
    fn pause(ms: f64, signal: Option<&Signal>) -> impl Future<Output = Result<(), Rejection>>;
    /// A point on this target's monotonic clock.
    type Instant: Copy;

    /// The time now on the monotonic clock, which hook durations are
    /// measured on (it never goes back, whatever the system clock does).
    fn now() -> Self::Instant;
    /// The time from `earlier` to now on the monotonic clock.
    fn since(earlier: Self::Instant) -> Duration;
    /// The wall-clock time in milliseconds since the Unix epoch: only for a
    /// `Retry-After` that is an HTTP date.
    fn date_ms() -> f64;
    /// A random number in `[0, 1)`.
    fn random() -> f64;
    /// A checked body (a 200 envelope) as the caller's type.
    fn decode<T: DeserializeOwned>(body: Self::Body) -> Result<Envelope<T>, Error>;
}
