//! The caller's `AbortSignal`, watched for a whole call, and the races
//! between a piece of work, that signal and an attempt's deadline.

use js_sys::{Array, Promise};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::error::{Error, Kind};
use crate::js::{self, AbortWatch, SignalLike};
use crate::text::Text;

/// How a race between some work, the caller's signal and a deadline ended.
pub enum Raced {
    Value(JsValue),
    Failed(JsValue),
    Aborted,
    TimedOut,
}

impl Raced {
    /// The error this outcome means, where it is not a value.
    /// `what` says what failed ("fetch", "reading the body") and `url` where.
    pub fn into_error(self, stop: &Stop, what: &str, url: &str) -> Error {
        match self {
            Raced::Aborted => stop.aborted_error(),
            Raced::TimedOut => Error::new(
                Kind::Timeout,
                Text::new()
                    .push("no answer within timeoutMs from POST ")
                    .push(url)
                    .done(),
            ),
            Raced::Failed(cause) => network_error(what, url, cause),
            Raced::Value(value) => network_error(what, url, value),
        }
    }
}

/// A `network` error whose message says what failed, where, and why, as far
/// as the platform told (`TypeError: fetch failed (ECONNREFUSED)` in Node).
/// The message can quote the platform's error, so `call::redact` also cleans
/// messages.
pub fn network_error(what: &str, url: &str, cause: JsValue) -> Error {
    let message = Text::new()
        .push(what)
        .push(" failed for POST ")
        .push(url)
        .push(": ")
        .push(&js::failure_detail(&cause))
        .done();
    Error::new(Kind::Network, message).with_cause(cause)
}

/// The caller's `AbortSignal`, watched for the whole call.
pub struct Stop {
    signal: Option<SignalLike>,
    watch: Option<AbortWatch>,
}

impl Stop {
    /// Watches `signal`; an already aborted one ends the call before
    /// anything is sent.
    pub fn new(signal: Option<&JsValue>) -> Result<Stop, Error> {
        let Some(signal) = signal else {
            return Ok(Stop {
                signal: None,
                watch: None,
            });
        };
        let mut stop = Stop {
            watch: None,
            signal: Some(signal.clone().unchecked_into()),
        };
        if stop.is_aborted() {
            return Err(stop.aborted_error());
        }
        let watch = AbortWatch::new(signal).map_err(|cause| {
            Error::validation("signal", "could not listen to the signal").with_cause(cause)
        })?;
        stop.watch = Some(watch);
        Ok(stop)
    }

    /// The `aborted` error, carrying the signal's reason.
    pub fn aborted_error(&self) -> Error {
        let error = Error::new(Kind::Aborted, "the call was aborted by its signal");
        match &self.signal {
            Some(signal) => error.with_cause(signal.reason()),
            None => error,
        }
    }

    /// Races `work` against the signal and, where given, a deadline.
    pub async fn race(&self, work: &Promise, deadline: Option<&Promise>) -> Raced {
        let contenders = Array::of1(work);
        if let Some(watch) = &self.watch {
            contenders.push(&watch.promise());
        }
        if let Some(deadline) = deadline {
            contenders.push(deadline);
        }
        match JsFuture::from(Promise::race(&contenders)).await {
            Ok(value) => match js::tag_of(&value) {
                1 => Raced::TimedOut,
                2 => Raced::Aborted,
                _ => Raced::Value(value),
            },
            Err(_) if self.is_aborted() => Raced::Aborted,
            Err(cause) => Raced::Failed(cause),
        }
    }

    fn is_aborted(&self) -> bool {
        self.signal
            .as_ref()
            .is_some_and(|signal| signal.aborted().unwrap_or(false))
    }

    /// Awaits `work`; an abort that lands meanwhile wins.
    pub async fn finish<T>(
        &self,
        work: impl core::future::Future<Output = Result<T, Error>>,
    ) -> Result<T, Error> {
        let result = work.await;
        if self.is_aborted() {
            return Err(self.aborted_error());
        }
        result
    }

    /// The final error, unless the caller aborted meanwhile.
    pub fn finish_error(&self, error: Error) -> Error {
        if self.is_aborted() && error.kind != Kind::Aborted {
            return self.aborted_error();
        }
        error
    }
}

impl Drop for Stop {
    fn drop(&mut self) {
        if let Some(watch) = &self.watch {
            let _ = watch.detach();
        }
    }
}
