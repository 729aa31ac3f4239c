//! Waiting on JS time and on the caller's `AbortSignal` from async Rust,
//! between attempts: a retry's pause, a hook's or a header provider's
//! answer. (An attempt keeps its own time in JS: see
//! [`exchange`](crate::transport::fetch::exchange).)
//!
//! A [`Stop`] is one promise that settles when its timer fires, when the
//! signal aborts, or when the `Stop` is dropped. [`Stop::race`] waits for a
//! JS promise (what a hook returned) or the stop, whichever comes first,
//! through `Promise.race` in JS and one [`Watched`] on the race. The race
//! settles at the latest when the `Stop` is dropped, which frees its slot;
//! a promise that never settles is then left holding JS functions only,
//! which the JS collector reclaims with it. (Watching that promise itself
//! would keep its slot for as long as the promise is pending: forever, for
//! a `fetch` that never answers.)
//!
//! The timer and the listener are armed in JS, one call per stop
//! ([`bridge`](crate::transport::fetch::bridge)), so arming a stop
//! allocates no Rust closure. Dropping a `Stop` clears its timer and its
//! listener.

use std::future::{poll_fn, Future};
use std::pin::{pin, Pin};
use std::task::Poll;

use wasm_bindgen::prelude::*;
use web_sys::AbortSignal;

use crate::transport::fetch::bridge::{stop, StopPromise};
use crate::transport::fetch::promise::{Settled, Watched};

/// Why a [`Stop`] came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// Its timer fired.
    TimedOut,
    /// The caller's signal aborted.
    Aborted,
}

/// How `bridge.js` tells that a stop came first: its timer fired.
pub const TIMED_OUT: u32 = 2;
/// How `bridge.js` tells that a stop came first: the signal aborted.
pub const ABORTED: u32 = 3;

/// A timer and a signal, whichever comes first.
pub struct Stop {
    /// Rejects when its timer fires or its signal aborts, or resolves with
    /// nothing when the stop is dropped first.
    promise: StopPromise,
}

impl Stop {
    /// A stop after `ms` (none for `None`) or when `signal` aborts; at once
    /// if it already has. With neither, it comes only when dropped.
    pub fn new(ms: Option<u32>, signal: Option<&AbortSignal>) -> Stop {
        Stop {
            promise: stop(ms, signal),
        }
    }

    /// Waits for the stop itself (a pause before a retry).
    pub async fn wait(self) -> Stopped {
        why(&Watched::new(|slot, settle| self.promise.watch(slot, settle)).await)
    }

    /// Waits for `work` (a promise, or a value taken as a resolved one) to
    /// settle, or for the stop if it comes first.
    pub async fn race(&self, work: &JsValue) -> Result<Result<JsValue, JsValue>, Stopped> {
        let settled = Watched::new(|slot, settle| self.promise.race(work, slot, settle)).await;
        match settled.outcome {
            TIMED_OUT => Err(Stopped::TimedOut),
            ABORTED => Err(Stopped::Aborted),
            _ => Ok(settled.result()),
        }
    }

    /// Runs `work` until it is done, or until the stop comes first (then
    /// `work` is dropped). A JS promise inside `work` must be awaited with
    /// [`settled`], so that dropping `work` frees its wait too.
    pub async fn until<F: Future>(&self, work: F) -> Result<F::Output, Stopped> {
        let mut stop = Watched::new(|slot, settle| self.promise.watch(slot, settle));
        let mut work = pin!(work);
        poll_fn(|cx| {
            if let Poll::Ready(value) = Pin::new(&mut stop).poll(cx) {
                return Poll::Ready(Err(why(&value)));
            }
            work.as_mut().poll(cx).map(Ok)
        })
        .await
    }
}

impl Drop for Stop {
    fn drop(&mut self) {
        self.promise.end();
    }
}

/// Why a stop's promise settled (only a timer or an abort settles it while
/// it is awaited: a drop comes after the last wait).
fn why(settled: &Settled) -> Stopped {
    match settled.outcome {
        ABORTED => Stopped::Aborted,
        _ => Stopped::TimedOut,
    }
}

/// Waits for `work` (a promise, or a value taken as a resolved one) to
/// settle. Dropping the wait before that leaves nothing behind: it races a
/// `Stop` of its own, with no timer and no signal, that the drop settles.
pub async fn settled(work: &JsValue) -> Result<JsValue, JsValue> {
    let stop = Stop::new(None, None);
    // That stop comes only when this future is dropped, after the race.
    stop.race(work)
        .await
        .unwrap_or_else(|_| Err(JsValue::UNDEFINED))
}

/// Whether the caller's signal has aborted. A getter that throws counts as
/// not aborted (the signal was checked when the options were read).
pub fn is_aborted(signal: Option<&AbortSignal>) -> bool {
    signal.is_some_and(|signal| {
        js_sys::Reflect::get(signal, &"aborted".into()).is_ok_and(|v| v.is_truthy())
    })
}
