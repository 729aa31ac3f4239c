//! The WASI transport: one attempt through `wasi:http/outgoing-handler`,
//! its timeout and the waits between attempts on `wasi:clocks`, for
//! `wasm32-wasip2` (the WebAssembly component). What it sends and how the
//! answer is judged are the library's rules, as for the fetch transport.
//!
//! A WASI host has no JSON or URL of its own: the request and the answer
//! are `transport/plain/`'s (serde_json, the `url` crate).
//!
//! Nothing here blocks. Every wait is a `wasi:io/poll` pollable (the
//! response's, a body stream's, a `wasi:clocks/monotonic-clock` timer)
//! registered with the reactor of [`wstd`] (`wstd::runtime::AsyncPollable`,
//! `wstd::time::Timer`): while a call waits its future is `Pending`, and
//! the reactor polls every waiting pollable at once. So under
//! `wstd::runtime::block_on` joined calls overlap, a timeout fires while
//! other calls wait, and dropping a call's future drops its request (its
//! `future-incoming-response`, which the host then abandons). Calls must
//! run on wstd's runtime (`wstd::runtime::block_on`, `#[wstd::main]`,
//! `#[wstd::http_server]`), as the component's exports do: outside it
//! wstd has no reactor and panics.
//!
//! [`Wasi`] puts them together as an [`Http`], the call driver's
//! `Transport`.
//!
//! Resources are dropped children first (a pollable before the stream or
//! the future it watches, a stream before its body, a body before its
//! response): a host traps on a parent dropped before its child, and a
//! trap would kill the instance for every later call. Each child is a
//! local declared after its parent, so it goes first both when a function
//! returns and when its future is dropped mid-wait (a timeout, a caller
//! that gave up): locals are dropped in reverse order of declaration.

use std::future::{poll_fn, Future};
use std::pin::pin;
use std::task::Poll;

use ::wasip2::clocks::{monotonic_clock, wall_clock};
use ::wasip2::http::outgoing_handler;
use ::wasip2::http::types::{
    ErrorCode, Fields, IncomingBody, IncomingResponse, Method, OutgoingBody, OutgoingRequest,
    Scheme,
};
use ::wasip2::io::poll::poll;
use ::wasip2::io::streams::{InputStream, OutputStream, StreamError};
use wstd::future::FutureExt;
use wstd::runtime::AsyncPollable;
use wstd::time::{Duration, Timer};

use crate::error::{Cause, Error, ErrorKind};
use crate::host::provider::HeaderList;
use crate::rules::options::{shown_url, Bounds, Naming};
use crate::rules::retry::reads_retry_after;
use crate::transport::plain::answer::{Answer, Collected};
use crate::transport::plain::http::Http;
use crate::transport::plain::request::Request;
use crate::transport::seam::{Arrived, Failed};

/// The transport through `wasi:http` and `wasi:clocks`, on wstd's reactor.
/// (A WASI host has no `fetch` option and no signal.)
pub struct Wasi;

impl Http for Wasi {
    type Instant = monotonic_clock::Instant;
    /// Nothing: `wasi:http` has no options and no client to keep.
    type Setup = ();
    type Client = ();

    fn client(_setup: ()) -> Result<(), Error> {
        Ok(())
    }

    fn ready() -> Result<(), Error> {
        Ok(())
    }

    async fn attempt(
        request: &Request,
        headers: &[(String, String)],
        _client: &(),
        bounds: Bounds,
        arrived: Arrived<'_>,
    ) -> Result<Answer, Failed> {
        Ok(attempt(request, headers, bounds, arrived).await?)
    }

    async fn pause(ms: f64) -> Result<(), Error> {
        sleep_ms(ms).await;
        Ok(())
    }

    /// `work` raced against one timer, made by the same function for
    /// every wait (`sleep_ms`), so that each kind of wait adds only the
    /// race.
    async fn within<F: Future>(ms: Option<u32>, work: F) -> Result<Option<F::Output>, Error> {
        let mut timer = pin!(sleep_ms(ms.map_or(f64::INFINITY, f64::from)));
        let mut work = pin!(work);
        Ok(poll_fn(|cx| {
            if let Poll::Ready(done) = work.as_mut().poll(cx) {
                return Poll::Ready(Some(done));
            }
            match ms {
                Some(_) => timer.as_mut().poll(cx).map(|()| None),
                None => Poll::Pending,
            }
        })
        .await)
    }

    fn now() -> monotonic_clock::Instant {
        monotonic_clock::now()
    }

    fn since(earlier: monotonic_clock::Instant) -> std::time::Duration {
        std::time::Duration::from_nanos(monotonic_clock::now().saturating_sub(earlier))
    }

    fn date_ms() -> f64 {
        now_ms()
    }

    fn random() -> f64 {
        random()
    }
}

/// How much of the body one read asks for.
const READ_CHUNK: u64 = 64 * 1024;

/// Sends `request` with `headers` as a `POST` and reads the whole answer: the timeout of
/// `bounds` (0: none) covers the response and its body, of which no more
/// than the limit is read; `arrived` is told the HTTP status as soon as the
/// response headers are there, with a way to read them. A failure is a `network` error, no answer
/// in time a `timeout` error (the exchange is then dropped, and with it the
/// request).
pub async fn attempt(
    request: &Request,
    headers: &[(String, String)],
    bounds: Bounds,
    arrived: &dyn Fn(u16, &dyn Fn() -> HeaderList),
) -> Result<Answer, Error> {
    let exchange = exchange(request, headers, bounds, arrived);
    if bounds.left_ms == 0 {
        return exchange.await;
    }
    match exchange
        .timeout(Duration::from_millis(u64::from(bounds.left_ms)))
        .await
    {
        Ok(outcome) => outcome,
        Err(_) => Err(bounds.timed_out(&request.url)),
    }
}

/// One request and its whole answer, in the order a host expects (as
/// `wstd::http::Client` does): the request handed to
/// `outgoing-handler::handle` first, then its body streamed and finished,
/// then the response awaited. A host that buffers only a few chunks of a
/// body sends them as they come.
async fn exchange(
    request: &Request,
    headers: &[(String, String)],
    bounds: Bounds,
    arrived: &dyn Fn(u16, &dyn Fn() -> HeaderList),
) -> Result<Answer, Error> {
    let Request { url, body } = request;
    let outgoing_request = outgoing(url, headers, bounds.naming)?;
    let outgoing_body = outgoing_request
        .body()
        .map_err(|()| refused(url, "the request body"))?;
    let future =
        outgoing_handler::handle(outgoing_request, None).map_err(|code| failed_code(url, &code))?;
    let sent = match send_body(&outgoing_body, body, url).await {
        Ok(()) => OutgoingBody::finish(outgoing_body, None).map_err(|code| failed_code(url, &code)),
        Err(error) => {
            drop(outgoing_body);
            Err(error)
        }
    };
    {
        // The future's pollable, dropped before the future.
        let ready = AsyncPollable::new(future.subscribe());
        ready.wait_for().await;
    }
    // A request the host could not make fails its body's stream too; the
    // response's error code says why, so it wins.
    let response = match future.get() {
        Some(Ok(Ok(response))) => response,
        Some(Ok(Err(code))) => return Err(failed_code(url, &code)),
        Some(Err(())) | None => return Err(refused(url, "the response")),
    };
    sent?;
    let http_status = response.status();
    arrived(http_status, &|| headers_of(&response));
    let retry_after = reads_retry_after(http_status)
        .then(|| header(&response, "retry-after"))
        .flatten();
    let length = header(&response, "content-length").and_then(|value| value.trim().parse().ok());
    let collected = Collected::new(bounds, http_status, url, length)?;
    let incoming = response
        .consume()
        .map_err(|()| refused(url, "the response body"))?;
    let text = read_body(&incoming, collected, url).await?;
    Ok(Answer {
        http_status,
        text,
        retry_after,
    })
}

/// Writes the whole request body as the body's stream takes it (waiting,
/// when it takes nothing, on its pollable), then flushes it. The stream
/// and its pollable are gone before the body is finished.
async fn send_body(outgoing: &OutgoingBody, body: &[u8], url: &str) -> Result<(), Error> {
    let stream: OutputStream = outgoing
        .write()
        .map_err(|()| refused(url, "the request body's stream"))?;
    if body.is_empty() {
        return Ok(());
    }
    let ready = AsyncPollable::new(stream.subscribe());
    let failed = |error| network(url, "sending the body", stream_detail(error));
    let mut rest = body;
    while !rest.is_empty() {
        let room = stream.check_write().map_err(failed)?;
        if room == 0 {
            ready.wait_for().await;
            continue;
        }
        let room = usize::try_from(room).unwrap_or(usize::MAX);
        let (now, later) = rest.split_at(rest.len().min(room));
        stream.write(now).map_err(failed)?;
        rest = later;
    }
    stream.flush().map_err(failed)?;
    // The flush is done when the stream can take more again.
    while stream.check_write().map_err(failed)? == 0 {
        ready.wait_for().await;
    }
    Ok(())
}

/// Waits `ms` milliseconds (a pause before a retry) on a
/// `wasi:clocks/monotonic-clock` timer.
async fn sleep_ms(ms: f64) {
    let nanos = (ms.max(0.0) * 1e6) as u64;
    Timer::after(Duration::from_nanos(nanos)).wait().await;
}

/// The time in milliseconds since the Unix epoch (for `Retry-After` dates).
fn now_ms() -> f64 {
    let now = wall_clock::now();
    now.seconds as f64 * 1_000.0 + f64::from(now.nanoseconds) / 1e6
}

/// A random number in `[0, 1)` (for the backoff's jitter).
fn random() -> f64 {
    (::wasip2::random::random::get_random_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// The request with its method, URL and headers (their values are ASCII:
/// the rules allow no other). A URL
/// that does not parse, or that the host refuses, is a validation error
/// whose `param` is the base URL option as `naming` names it (`base_url`
/// in the Rust API; the component's is the JS name).
fn outgoing(
    url: &str,
    headers: &[(String, String)],
    naming: Naming,
) -> Result<OutgoingRequest, Error> {
    let param = naming.base_url();
    let parsed = url::Url::parse(url).map_err(|error| {
        Error::validation(param, "the request URL is invalid")
            .with_cause(Cause::new(error.to_string()))
    })?;
    let scheme = match parsed.scheme() {
        "http" => Scheme::Http,
        "https" => Scheme::Https,
        other => Scheme::Other(other.to_string()),
    };
    let host = parsed.host_str().unwrap_or_default();
    let authority = match parsed.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_string(),
    };
    let path = match parsed.query() {
        Some(query) => format!("{}?{query}", parsed.path()),
        None => parsed.path().to_string(),
    };
    let fields = Fields::new();
    for (name, value) in headers {
        fields.append(name, value.as_bytes()).map_err(|error| {
            Error::validation(
                "headers",
                format!(
                    "the WASI host refused header {} ({error:?})",
                    crate::rules::value::quoted(name)
                ),
            )
        })?;
    }
    let request = OutgoingRequest::new(fields);
    request
        .set_method(&Method::Post)
        .and(request.set_scheme(Some(&scheme)))
        .and(request.set_authority(Some(&authority)))
        .and(request.set_path_with_query(Some(&path)))
        .map_err(|()| Error::validation(param, "the WASI host refused the request URL"))?;
    Ok(request)
}

/// A response's headers, names in lower case, each value as its bytes read
/// as UTF-8 (a byte that is not replaced).
fn headers_of(response: &IncomingResponse) -> HeaderList {
    response
        .headers()
        .entries()
        .into_iter()
        .map(|(name, value)| {
            let value = String::from_utf8_lossy(&value).into_owned();
            (name.to_ascii_lowercase(), value)
        })
        .collect()
}

/// A response header's values, joined as `fetch`'s `Headers.get` joins them.
fn header(response: &IncomingResponse, name: &str) -> Option<String> {
    let values = response.headers().get(name);
    if values.is_empty() {
        return None;
    }
    let values: Vec<String> = values
        .iter()
        .map(|value| String::from_utf8_lossy(value).into_owned())
        .collect();
    Some(values.join(", "))
}

/// Reads the whole body into `collected`, waiting on the stream's pollable
/// whenever it has nothing yet (the attempt's timeout covers these waits);
/// a body that grows past the limit ends the read at once, and dropping
/// the stream and the body then drops the connection.
///
/// Before each wait, a `poll` that returns at once (a clock pollable that
/// is already ready beside a second pollable of the stream): jco's Node
/// host refreshes a stream's readiness only inside `poll`, and its
/// `pollable.ready()`, which wstd's reactor asks first, would say "ready"
/// for ever to a stream that has nothing, and this loop would spin.
async fn read_body(
    body: &IncomingBody,
    mut collected: Collected<'_>,
    url: &str,
) -> Result<String, Error> {
    let stream: InputStream = body
        .stream()
        .map_err(|()| refused(url, "the response body's stream"))?;
    let ready = AsyncPollable::new(stream.subscribe());
    let probe = stream.subscribe();
    let now = monotonic_clock::subscribe_duration(0);
    loop {
        match stream.read(READ_CHUNK) {
            Ok(chunk) if chunk.is_empty() => {
                poll(&[&probe, &now]);
                ready.wait_for().await;
            }
            Ok(chunk) => collected.push(&chunk)?,
            Err(StreamError::Closed) => break,
            Err(error) => {
                return Err(network(url, "reading the body", stream_detail(error)));
            }
        }
    }
    Ok(collected.text())
}

/// The `network` error of `wasi:http`'s error `code`: one that says no
/// connection was made (DNS, refused, unreachable, a connect timeout) is
/// marked so ([`Error::is_connect`]).
fn failed_code(url: &str, code: &ErrorCode) -> Error {
    let failed = network(url, "wasi:http", code_detail(code));
    match code {
        ErrorCode::DnsTimeout
        | ErrorCode::DnsError(_)
        | ErrorCode::DestinationNotFound
        | ErrorCode::DestinationUnavailable
        | ErrorCode::DestinationIpProhibited
        | ErrorCode::DestinationIpUnroutable
        | ErrorCode::ConnectionRefused
        | ErrorCode::ConnectionTimeout => failed.connecting(),
        _ => failed,
    }
}

/// A `network` error: `what` failed for `url` (shown without its query
/// string), for the reason `detail` (`wasi:http`'s error code, which is
/// no error object: the message says it, and there is no `source()`).
fn network(url: &str, what: &str, detail: String) -> Error {
    let url = shown_url(url);
    Error::new(
        ErrorKind::Network,
        format!("{what} failed for POST {url}: {detail}"),
    )
}

/// A `network` error for a resource the host would not hand out.
fn refused(url: &str, what: &str) -> Error {
    let url = shown_url(url);
    Error::new(
        ErrorKind::Network,
        format!("the WASI host did not give {what} for POST {url}"),
    )
}

/// What a failed stream operation says.
fn stream_detail(error: StreamError) -> String {
    match error {
        StreamError::LastOperationFailed(error) => error.to_debug_string(),
        StreamError::Closed => "the stream closed".to_string(),
    }
}

/// A `wasi:http` error code as messages show it (`ConnectionRefused`).
fn code_detail(code: &ErrorCode) -> String {
    let text = format!("{code:?}");
    match text.strip_prefix("ErrorCode::") {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

/// Run by `make component-tests` in the wasmtime CLI with `wasi:http`
/// (`cargo test --target wasm32-wasip2 --lib`).
#[cfg(test)]
mod tests {
    use super::*;
    use ::wasip2::http::types::{DnsErrorPayload, FieldSizePayload, TlsAlertReceivedPayload};

    const URL: &str = "http://127.0.0.1:9/api/users/count";

    /// The codes that say no connection was made are connect errors; every
    /// other code is a network error that is not. Each is a `network` error
    /// naming the code and the URL, retried as a network error is.
    #[test]
    fn failed_code_marks_exactly_the_codes_without_a_connection() {
        let dns = || DnsErrorPayload {
            rcode: Some("NXDOMAIN".to_string()),
            info_code: None,
        };
        let connecting = [
            (ErrorCode::DnsTimeout, "DnsTimeout"),
            (ErrorCode::DnsError(dns()), "DnsError"),
            (ErrorCode::DestinationNotFound, "DestinationNotFound"),
            (ErrorCode::DestinationUnavailable, "DestinationUnavailable"),
            (
                ErrorCode::DestinationIpProhibited,
                "DestinationIpProhibited",
            ),
            (
                ErrorCode::DestinationIpUnroutable,
                "DestinationIpUnroutable",
            ),
            (ErrorCode::ConnectionRefused, "ConnectionRefused"),
            (ErrorCode::ConnectionTimeout, "ConnectionTimeout"),
        ];
        let size = || FieldSizePayload {
            field_name: None,
            field_size: None,
        };
        let connected = [
            (ErrorCode::ConnectionTerminated, "ConnectionTerminated"),
            (ErrorCode::ConnectionReadTimeout, "ConnectionReadTimeout"),
            (ErrorCode::ConnectionWriteTimeout, "ConnectionWriteTimeout"),
            (ErrorCode::ConnectionLimitReached, "ConnectionLimitReached"),
            (ErrorCode::TlsProtocolError, "TlsProtocolError"),
            (ErrorCode::TlsCertificateError, "TlsCertificateError"),
            (
                ErrorCode::TlsAlertReceived(TlsAlertReceivedPayload {
                    alert_id: None,
                    alert_message: None,
                }),
                "TlsAlertReceived",
            ),
            (ErrorCode::HttpRequestDenied, "HttpRequestDenied"),
            (ErrorCode::HttpRequestUriInvalid, "HttpRequestUriInvalid"),
            (ErrorCode::HttpResponseIncomplete, "HttpResponseIncomplete"),
            (
                ErrorCode::HttpResponseHeaderSize(size()),
                "HttpResponseHeaderSize",
            ),
            (ErrorCode::HttpResponseTimeout, "HttpResponseTimeout"),
            (ErrorCode::HttpProtocolError, "HttpProtocolError"),
            (ErrorCode::LoopDetected, "LoopDetected"),
            (ErrorCode::ConfigurationError, "ConfigurationError"),
            (ErrorCode::InternalError(None), "InternalError"),
        ];
        for (codes, connect) in [(&connecting[..], true), (&connected[..], false)] {
            for (code, name) in codes {
                let error = failed_code(URL, code);
                assert_eq!(error.kind(), ErrorKind::Network, "{name}");
                assert_eq!(error.is_connect(), connect, "{name}");
                assert!(error.is_retryable(), "{name}");
                assert!(!error.is_timeout(), "{name}");
                let message = error.message();
                assert!(
                    message.starts_with("wasi:http failed for POST "),
                    "{message}"
                );
                assert!(message.contains(URL) && message.contains(name), "{message}");
                assert!(!message.contains("ErrorCode::"), "{message}");
            }
        }
    }

    /// The wall clock in milliseconds since the epoch, as the host gives it.
    #[test]
    fn now_ms_is_the_wall_clock_in_milliseconds() {
        let before = wall_clock::now().seconds as f64 * 1_000.0;
        let now = now_ms();
        let after = wall_clock::now().seconds as f64 * 1_000.0 + 1_000.0;
        assert!(before <= now && now <= after, "{before} {now} {after}");
    }

    /// A pause lasts at least what it was asked for, on the monotonic
    /// clock (a lower bound: a busy host may wait longer).
    #[test]
    fn a_pause_lasts_its_milliseconds() {
        let started = monotonic_clock::now();
        wstd::runtime::block_on(sleep_ms(30.0));
        let waited = monotonic_clock::now() - started;
        assert!(waited >= 30_000_000, "{waited} ns");
    }

    /// Through wasi:http against the reference server (`USERS_API_URL`,
    /// compiled in: `make component-tests` runs this under
    /// `scripts/with-server.sh --faults`): a 503 whose `Retry-After` says 1
    /// s is retried no sooner, which only a `Retry-After` read from the
    /// response's headers can make it (the backoff alone waits 0.3 s at
    /// most), and the second attempt is answered.
    #[test]
    fn a_retry_after_is_read_from_the_response() {
        let Some(server) = option_env!("USERS_API_URL") else {
            panic!("USERS_API_URL was not set at compile time: run under scripts/with-server.sh --faults");
        };
        let key = format!("wasi-{}", random().to_bits());
        let base = format!("{server}/faults/retry-after-seconds/{key}");
        let client =
            crate::UsersClient::new(crate::ClientOptions::new(base).retries(1)).expect("client");
        let started = monotonic_clock::now();
        let count =
            wstd::runtime::block_on(client.count_users().send()).expect("the second attempt");
        let waited = monotonic_clock::now() - started;
        assert_eq!(count.status, 200);
        assert!(
            waited >= 1_000_000_000,
            "{waited} ns: the Retry-After was not waited for"
        );
    }

    /// A request URL that does not parse is a validation error naming the
    /// base URL option: `base_url` in the Rust API, `baseUrl` in the
    /// component.
    #[test]
    fn a_refused_request_url_names_the_base_url_option_of_the_api() {
        for (naming, param) in [(Naming::Rust, "base_url"), (Naming::Wit, "baseUrl")] {
            let error = outgoing("http://[::1", &[], naming).expect_err("an invalid URL");
            assert_eq!(error.kind(), ErrorKind::Validation, "{error}");
            assert_eq!(error.param(), Some(param), "{error}");
        }
    }
}
