//! The native transport, for every target that is not wasm32: one attempt
//! through reqwest (rustls, no OpenSSL) on tokio, its timeout and the
//! pause between attempts on tokio's timers. What it sends and how the
//! answer is judged are the library's rules, as for the other transports;
//! the request and the answer are the ones the WASI transport uses
//! (`transport/plain/`: JSON through serde_json, URLs through `url`).
//!
//! Each client has its own `reqwest::Client` (its connection pool): the
//! caller's, or the one `http_client.rs` builds. A client that cannot be
//! built is a `validation` error naming `http_client`. Calls must run
//! inside a tokio runtime with its IO and time drivers (reqwest's
//! connections and the timers are tokio's); outside one a call fails at
//! once with a `validation` error naming `runtime`. tokio cannot be asked
//! whether a runtime has its drivers (it panics where one is missing), so
//! an attempt and a pause run under `catch_unwind`: such a panic becomes
//! that error, quoting tokio's own words on what to enable. (In a program
//! built with `panic = "abort"` nothing can catch it.) Dropping a call's
//! future drops its request and its connection.

use std::collections::hash_map::RandomState;
use std::future::Future;
use std::hash::{BuildHasher, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::pin;
use std::task::Poll;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::error::{Error, ErrorKind};
use crate::rules::options::{shown_url, Bounds};
use crate::rules::retry::reads_retry_after;
use crate::transport::plain::answer::{Answer, Collected};
use crate::transport::plain::http::Http;
use crate::transport::plain::request::Request;
use crate::transport::seam::{Arrived, Failed, Retry};

mod http_client;

/// What a call made outside a tokio runtime fails with.
const NEEDS_TOKIO: &str = "natively this client calls the API through reqwest on tokio: \
     call it inside a tokio runtime with its IO and time drivers enabled \
     (`#[tokio::main]`, or `enable_all()` on the runtime builder)";

/// How tokio's panics for a runtime without its IO or time driver begin
/// ("A Tokio 1.x context was found, but timers are disabled. Call
/// `enable_time` on the runtime builder to enable timers.").
const TOKIO_WITHOUT_A_DRIVER: &str = "A Tokio 1.x context was found, but";

/// The transport through reqwest on tokio (the call driver's `Transport`
/// as an [`Http`]).
pub struct Native;

impl Http for Native {
    type Instant = Instant;
    /// The caller's HTTP client, if the options gave one.
    type Setup = Option<reqwest::Client>;
    type Client = reqwest::Client;

    fn client(setup: Option<reqwest::Client>) -> Result<reqwest::Client, Error> {
        if let Some(client) = setup {
            return Ok(client);
        }
        http_client::builder().build().map_err(|error| {
            Error::validation(
                "http_client",
                "the HTTP client could not be built: pass one as http_client",
            )
            .with_source(error)
        })
    }

    fn ready() -> Result<(), Error> {
        // reqwest and tokio's timers panic outside a runtime: a call there
        // fails at once instead.
        if tokio::runtime::Handle::try_current().is_err() {
            return Err(Error::validation("runtime", NEEDS_TOKIO));
        }
        Ok(())
    }

    /// The timeout of `bounds` (0: none) covers the response and its body.
    async fn attempt(
        request: &Request,
        headers: &[(String, String)],
        client: &reqwest::Client,
        bounds: Bounds,
        arrived: Arrived<'_>,
    ) -> Result<Answer, Failed> {
        let timed = async {
            let exchange = exchange(request, headers, client, bounds, arrived);
            if bounds.left_ms == 0 {
                return exchange.await;
            }
            let timeout = Duration::from_millis(u64::from(bounds.left_ms));
            match tokio::time::timeout(timeout, exchange).await {
                Ok(outcome) => outcome,
                Err(_) => Err(bounds.timed_out(&request.url)),
            }
        };
        Ok(unwound(timed).await??)
    }

    async fn pause(ms: f64) -> Result<(), Error> {
        let sleep =
            async { tokio::time::sleep(Duration::from_secs_f64(ms.max(0.0) / 1_000.0)).await };
        unwound(sleep)
            .await
            .map_err(|failed| failed.rejection.error)
    }

    async fn within<F: Future>(ms: Option<u32>, work: F) -> Result<Option<F::Output>, Error> {
        let Some(ms) = ms else {
            return Ok(Some(work.await));
        };
        let timed = tokio::time::timeout(Duration::from_millis(u64::from(ms)), work);
        match unwound(timed).await {
            Ok(done) => Ok(done.ok()),
            Err(failed) => Err(failed.rejection.error),
        }
    }

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
}

/// Polls `future` to its end, turning tokio's panic for a runtime without
/// a driver it needs into a `validation` error naming `runtime` that
/// quotes it. Any other panic (a caller's hook, a bug) goes on unwinding to
/// the caller, as it would without this.
async fn unwound<F: Future>(future: F) -> Result<F::Output, Failed> {
    let mut future = pin!(future);
    std::future::poll_fn(
        |cx| match catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(panic) => {
                let said = panic
                    .downcast_ref::<&str>()
                    .map(|text| text.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                if !said.starts_with(TOKIO_WITHOUT_A_DRIVER) {
                    std::panic::resume_unwind(panic);
                }
                let error = Error::validation(
                    "runtime",
                    format!("the call could not run on this tokio runtime: {said}"),
                );
                Poll::Ready(Err(Failed {
                    rejection: error.into(),
                    retry: Retry::Never,
                }))
            }
        },
    )
    .await
}

/// One request with `headers` and its whole answer. An error drops the response, and with
/// it the connection, at once.
async fn exchange(
    request: &Request,
    headers: &[(String, String)],
    client: &reqwest::Client,
    bounds: Bounds,
    arrived: Arrived<'_>,
) -> Result<Answer, Error> {
    let url = &request.url;
    let mut builder = client.post(url);
    for (name, value) in headers {
        // Visible ASCII, space and tab (the rules allow no other), which
        // the HTTP client takes as they are.
        builder = builder.header(name.as_str(), value.as_str());
    }
    if !request.body.is_empty() {
        builder = builder.body(request.body.clone());
    }
    let mut response = builder
        .send()
        .await
        .map_err(|error| network(url, "the request", error))?;
    let http_status = response.status().as_u16();
    arrived(http_status, &|| {
        let headers = response.headers().iter();
        headers
            .map(|(name, value)| {
                let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
                (name.as_str().to_string(), value)
            })
            .collect()
    });
    let retry_after = if reads_retry_after(http_status) {
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
    let mut body = Collected::new(bounds, http_status, url, response.content_length())?;
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|error| network(url, "reading the body", error))?
    {
        body.push(&chunk)?;
    }
    Ok(Answer {
        http_status,
        text: body.text(),
        retry_after,
    })
}

/// A `network` error: `what` failed for `url` (shown without its query
/// string). Its message is that line alone: the reasons (`Connection
/// refused`) are its source's, the `reqwest::Error` without its URL, and
/// its sources (anyhow's `{:#}` prints each once).
fn network(url: &str, what: &str, error: reqwest::Error) -> Error {
    let error = error.without_url();
    let connect = error.is_connect();
    let failed = Error::new(
        ErrorKind::Network,
        format!("{what} failed for POST {}", shown_url(url)),
    )
    .with_source(error);
    if connect {
        failed.connecting()
    } else {
        failed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now_ms() -> f64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("after 1970")
            .as_secs_f64()
            * 1_000.0
    }

    #[test]
    fn date_ms_is_the_system_clock_in_milliseconds() {
        let before = now_ms();
        let date = Native::date_ms();
        let after = now_ms();
        assert!(before <= date && date <= after, "{before} {date} {after}");
    }

    /// Uniform in [0, 1): over 2,000 draws, every one in range, some in the
    /// lowest and the highest twentieth (each missed with a chance of
    /// 0.95^2000), and the mean near one half.
    #[test]
    fn random_is_uniform_in_zero_to_one() {
        let draws: Vec<f64> = (0..2_000).map(|_| Native::random()).collect();
        assert!(draws.iter().all(|r| (0.0..1.0).contains(r)), "{draws:?}");
        assert!(draws.iter().any(|&r| r < 0.05));
        assert!(draws.iter().any(|&r| r >= 0.95));
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        assert!((0.45..0.55).contains(&mean), "{mean}");
    }
}
