//! The steps of a call that a JS host's driver takes without a future
//! (the JS layer's driver, in its snippet, waits; the call machine
//! decides): an attempt started, its response's head and its last word
//! judged, the caller's signal read, the time and a random number. Each
//! step is the fetch transport's own, as the async driver in `client.rs`
//! takes it through the seam.

use std::time::Duration;

use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

use crate::api::client::Prepared;
use crate::call::{Attempt, Outcome};
use crate::host::provider::HeaderList;
use crate::host::Rejection;
use crate::transport::fetch::bridge::AttemptHandle;
use crate::transport::fetch::exchange::{self, headers_of};
use crate::transport::fetch::promise::{Settled, FULFILLED};
use crate::transport::fetch::{self, wait, Fetch};
use crate::transport::seam::Transport;

/// An attempt's outcome as the call machine takes it: the body of a good
/// answer or the error, and what the rules judge of it.
pub type Judged = (Result<JsValue, Rejection>, Outcome);

impl Prepared {
    /// Starts the attempt the machine says to send: `settle(0, outcome,
    /// value)` is told how it ended, and first, where `early`, that the
    /// response's headers arrived ([`Prepared::arrived`]). `left` is what
    /// is left of its deadline (`None`: it has none).
    pub fn send(
        &self,
        attempt: &Attempt<'_>,
        signal: Option<&AbortSignal>,
        early: bool,
        settle: &JsValue,
        left: Option<u32>,
    ) -> AttemptHandle {
        let mut built = None;
        let headers = self.headers(attempt, &mut built);
        let fetch = self.transport().fetch.as_ref();
        let bounds = left.map_or(self.bounds, |left| self.bounds.with_left(left));
        let request = &self.request;
        exchange::start(request, headers, fetch, bounds, signal, early, 0, settle)
    }

    /// The call's timeout per attempt in milliseconds (0: none).
    pub fn timeout_ms(&self) -> u32 {
        self.bounds.timeout_ms
    }

    /// The first word of an attempt started early: the HTTP status and the
    /// headers of the response that arrived, or the attempt judged where
    /// it has none (an answer that is no response is cancelled).
    pub fn arrived(
        &self,
        outcome: u32,
        value: JsValue,
        handle: &AttemptHandle,
        signal: Option<&AbortSignal>,
        secrets: &[String],
    ) -> Result<(u16, HeaderList), Judged> {
        let url = &self.request.url;
        match exchange::head(Settled { outcome, value }, handle, self.bounds, url) {
            Ok(http_status) => Ok((http_status, headers_of(handle))),
            Err(failure) => {
                if outcome == FULFILLED {
                    handle.cancel();
                }
                let (request, operation) = (&self.request, self.operation);
                Err(Fetch::settle(
                    Err(failure),
                    request,
                    signal,
                    operation,
                    secrets,
                ))
            }
        }
    }

    /// The last word of an attempt, judged.
    pub fn judged(
        &self,
        outcome: u32,
        value: JsValue,
        handle: AttemptHandle,
        signal: Option<&AbortSignal>,
        secrets: &[String],
    ) -> Judged {
        let url = &self.request.url;
        let answered = exchange::answer(Settled { outcome, value }, handle, self.bounds, url);
        Fetch::settle(answered, &self.request, signal, self.operation, secrets)
    }
}

/// The error of a call its signal ended (`timeout` where the signal's
/// reason is a `TimeoutError`, else `aborted`).
pub fn aborted(signal: Option<&AbortSignal>) -> Rejection {
    fetch::aborted(signal)
}

/// Whether the caller's signal has aborted.
pub fn is_aborted(signal: Option<&AbortSignal>) -> bool {
    wait::is_aborted(signal)
}

/// The time on the host's monotonic clock, in milliseconds.
pub fn now() -> f64 {
    Fetch::now()
}

/// The time since `earlier` on the host's monotonic clock.
pub fn since(earlier: f64) -> Duration {
    Fetch::since(earlier)
}

/// A random number in `[0, 1)`, and the date in milliseconds since the
/// Unix epoch: what the retry rule draws on.
pub fn drawn() -> (f64, f64) {
    (Fetch::random(), Fetch::date_ms())
}
