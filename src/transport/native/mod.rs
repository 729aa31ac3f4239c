//! The native transport, for every target that is not wasm32: one attempt
//! through reqwest (rustls, no OpenSSL) on tokio, its timeout and the
//! pause between attempts on tokio's timers. What it sends and how the
//! answer is judged are the library's rules, as for the other transports;
//! the request and the answer are the ones the WASI transport uses
//! (`transport/plain/`: JSON through serde_json, URLs through `url`).
//!
//! Calls must run inside a tokio runtime (reqwest's connections and the
//! timers are tokio's); outside one a call fails at once with a `network`
//! error saying so. Dropping a call's future drops its request.

use std::collections::hash_map::RandomState;
use std::future::Future;
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::api::options::{CallOptions, ClientOptions, HeaderList, HeaderProvider};
use crate::error::{Cause, Error, ErrorKind};
use crate::model::{Envelope, Operation};
use crate::rules::headers::Resolved;
use crate::rules::retry::is_retryable_status;
use crate::transport::plain::answer::{self, body_text, Answer};
use crate::transport::plain::request::{self, Headers, Params, Request};
use crate::transport::{Arrived, Failed, Rejection, Retry, Transport};

/// What a call made outside a tokio runtime fails with.
const NEEDS_TOKIO: &str = "natively this client calls the API through reqwest on tokio: \
     call it inside a tokio runtime (with its time driver enabled)";

/// The transport through reqwest on tokio.
pub struct Native;

impl Transport for Native {
    type Params = Params;
    type Body = String;
    type Headers = Headers;
    type Request = Request;

    fn base_href(url: &str) -> Result<String, Error> {
        request::base_href(url)
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
        headers: &Headers,
        options: &ClientOptions,
    ) -> Result<Request, Rejection> {
        Ok(request::build(
            url,
            options.params_in,
            params,
            headers,
            None,
        )?)
    }

    fn url(request: &Request) -> &str {
        &request.url
    }

    fn ready(_call: &CallOptions) -> Result<(), Rejection> {
        // reqwest and tokio's timers panic outside a runtime: a call there
        // fails at once instead.
        if tokio::runtime::Handle::try_current().is_err() {
            return Err(Error::new(ErrorKind::Network, NEEDS_TOKIO).into());
        }
        Ok(())
    }

    async fn provide(
        provider: &HeaderProvider,
        _call: &CallOptions,
    ) -> Result<HeaderList, Rejection> {
        provider.provide().await
    }

    type Outcome = Result<Answer, Error>;

    fn attempt<'a>(
        request: &'a Request,
        _client: &'a ClientOptions,
        _call: &'a CallOptions,
        timeout_ms: u32,
        arrived: Arrived<'a>,
    ) -> impl Future<Output = Result<Answer, Error>> + 'a {
        attempt(request, timeout_ms, arrived)
    }

    fn settle(
        outcome: Result<Answer, Error>,
        _request: &Request,
        _call: &CallOptions,
        operation: Operation,
        secrets: &[String],
    ) -> Result<String, Failed> {
        let answer = outcome?;
        let retry_after = answer.retry_after.clone();
        answer::judge(answer, operation, secrets).map_err(|error| Failed {
            rejection: error.into(),
            retry: Retry::AsTheRuleSays(retry_after),
        })
    }

    fn pause(ms: f64, _call: &CallOptions) -> impl Future {
        tokio::time::sleep(Duration::from_secs_f64(ms.max(0.0) / 1_000.0))
    }

    type Instant = Instant;

    fn now() -> Instant {
        Instant::now()
    }

    fn since(earlier: Instant) -> Duration {
        earlier.elapsed()
    }

    fn date_ms() -> f64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |since| since.as_secs_f64() * 1_000.0)
    }

    fn random() -> f64 {
        // A fresh `RandomState` is keyed from the OS's randomness (then a
        // per-thread counter): enough for a backoff's jitter.
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u128(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn decode<T: DeserializeOwned>(body: String) -> Result<Envelope<T>, Error> {
        answer::decode(body)
    }
}

/// The one reqwest client every call shares (its connection pool).
fn client() -> Result<&'static reqwest::Client, Error> {
    static CLIENT: OnceLock<Result<reqwest::Client, String>> = OnceLock::new();
    CLIENT
        .get_or_init(|| {
            reqwest::Client::builder()
                .build()
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|detail| {
            Error::new(
                ErrorKind::Network,
                format!("the HTTP client could not be built: {detail}"),
            )
        })
}

/// Sends `request` as a `POST` and reads the whole answer: `timeout_ms`
/// (0: none) covers the response and its body; `arrived` is told the HTTP
/// status as soon as the response headers are there.
async fn attempt(
    request: &Request,
    timeout_ms: u32,
    arrived: Arrived<'_>,
) -> Result<Answer, Error> {
    let exchange = exchange(request, arrived);
    if timeout_ms == 0 {
        return exchange.await;
    }
    match tokio::time::timeout(Duration::from_millis(u64::from(timeout_ms)), exchange).await {
        Ok(outcome) => outcome,
        Err(_) => Err(Error::new(
            ErrorKind::Timeout,
            format!("no answer within timeoutMs from POST {}", request.url),
        )),
    }
}

/// One request and its whole answer.
async fn exchange(request: &Request, arrived: Arrived<'_>) -> Result<Answer, Error> {
    let url = &request.url;
    let mut builder = client()?.post(url);
    for (name, value) in &request.headers {
        // Header values go out as `fetch` sends them: one byte per
        // character, all of them Latin-1 (the rules allow no other).
        let bytes: Vec<u8> = value
            .chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
            .collect();
        builder = builder.header(name.as_str(), bytes);
    }
    if !request.body.is_empty() {
        builder = builder.body(request.body.clone());
    }
    let response = builder
        .send()
        .await
        .map_err(|error| network(url, "the request", &error))?;
    let http_status = response.status().as_u16();
    arrived(http_status);
    let retry_after = if is_retryable_status(http_status) {
        let values: Vec<String> = response
            .headers()
            .get_all("retry-after")
            .iter()
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
            .collect();
        (!values.is_empty()).then(|| values.join(", "))
    } else {
        None
    };
    let bytes = response
        .bytes()
        .await
        .map_err(|error| network(url, "reading the body", &error))?;
    Ok(Answer {
        http_status,
        text: body_text(bytes.to_vec()),
        retry_after,
    })
}

/// A `network` error: `what` failed for `url`, with the reasons the error
/// and its sources give (`Connection refused`).
fn network(url: &str, what: &str, error: &reqwest::Error) -> Error {
    let mut detail = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        detail.push_str(": ");
        detail.push_str(&cause.to_string());
        source = cause.source();
    }
    Error::new(
        ErrorKind::Network,
        format!("{what} failed for POST {url}: {detail}"),
    )
    .with_source(Cause::new(detail))
}
