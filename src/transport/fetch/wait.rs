//! Waiting on JS time and on the caller's `AbortSignal` from async Rust.
//!
//! A [`Stop`] is one promise that settles when its timer fires, when the
//! signal aborts, or when the `Stop` is dropped. [`Stop::race`] waits for a
//! JS promise (a `fetch`, a body read) or the stop, whichever comes first,
//! through `Promise.race` in JS and one `JsFuture` on the race. A `JsFuture`
//! frees its Rust callbacks only when its promise settles, and the race
//! settles at the latest when the `Stop` is dropped; a promise that never
//! settles is then left holding JS functions only, which the JS collector
//! reclaims with it. (A `JsFuture` on that promise itself would keep its
//! callbacks, and the memory they own, for as long as the promise is
//! pending: forever, for a `fetch` that never answers.)
//!
//! The timer and the listener are plain JS functions (`resolve.bind(null,
//! marker)`), so arming a stop allocates no Rust closure, and each `Stop`
//! owns its own timer: Cloudflare Workers drop a timer when the request that
//! set it ends, so one shared across calls would be lost. Dropping a `Stop`
//! clears its timer and its listener.

use std::future::{poll_fn, Future};
use std::pin::{pin, Pin};
use std::task::Poll;
use std::thread::LocalKey;

use js_sys::{Array, Function, Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortSignal;

#[wasm_bindgen]
extern "C" {
    // The global timer functions: every runtime the client supports has
    // them, not all have a `window` (which is where web-sys declares them).
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(handler: &Function, ms: u32) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);
}

/// Why a [`Stop`] came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// Its timer fired.
    TimedOut,
    /// The caller's signal aborted.
    Aborted,
}

thread_local! {
    // What a stop's promise resolves with: objects of the module's own,
    // which no `fetch`, body or provider can resolve with.
    static TIMED_OUT: JsValue = Object::new().into();
    static ABORTED: JsValue = Object::new().into();
}

/// A timer and a listener on the caller's signal that go away together:
/// dropped, it clears the timer and stops listening.
#[derive(Default)]
struct Armed {
    timer: Option<JsValue>,
    listener: Option<(AbortSignal, Function)>,
}

impl Armed {
    /// Calls `handler` after `ms`.
    fn set_timer(&mut self, handler: &Function, ms: u32) {
        self.timer = Some(set_timeout(handler, ms));
    }

    /// Calls `on_abort` when `signal` aborts. A signal that cannot be
    /// listened to was refused when the options were read (`AbortSignal`s
    /// are duck-typed there), so a failure here only means no listener.
    fn listen(&mut self, signal: &AbortSignal, on_abort: Function) {
        if signal
            .add_event_listener_with_callback("abort", &on_abort)
            .is_ok()
        {
            self.listener = Some((signal.clone(), on_abort));
        }
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        if let Some(timer) = &self.timer {
            clear_timeout(timer);
        }
        if let Some((signal, on_abort)) = &self.listener {
            let _ = signal.remove_event_listener_with_callback("abort", on_abort);
        }
    }
}

/// A timer and a signal, whichever comes first.
pub struct Stop {
    /// Resolves with `TIMED_OUT` or `ABORTED`, or with nothing when the
    /// stop is dropped first.
    promise: Promise,
    /// Settles `promise` when the stop is dropped, and with it every race
    /// still waiting on it.
    resolve: Option<Function>,
    /// Held for its `Drop`: clears the timer and the listener.
    _armed: Armed,
}

impl Stop {
    /// A stop after `ms` (none for `None`) or when `signal` aborts; at once
    /// if it already has. With neither, it comes only when dropped.
    pub fn new(ms: Option<u32>, signal: Option<&AbortSignal>) -> Stop {
        let mut armed = Armed::default();
        let mut resolver = None;
        let promise = Promise::new(&mut |resolve: Function, _reject| {
            resolver = Some(resolve.clone());
            let with = |marker: &'static LocalKey<JsValue>| -> Function {
                marker.with(|marker| resolve.bind1(&JsValue::NULL, marker).unchecked_into())
            };
            if let Some(signal) = signal {
                if is_aborted(Some(signal)) {
                    let _ = ABORTED.with(|marker| resolve.call1(&JsValue::NULL, marker));
                    return;
                }
                armed.listen(signal, with(&ABORTED));
            }
            if let Some(ms) = ms {
                armed.set_timer(&with(&TIMED_OUT), ms);
            }
        });
        Stop {
            promise,
            resolve: resolver,
            _armed: armed,
        }
    }

    /// Waits for the stop itself (a pause before a retry).
    pub async fn wait(self) -> Stopped {
        why(&JsFuture::from(self.promise.clone()).await)
    }

    /// Waits for `work` (a promise, or a value taken as a resolved one) to
    /// settle, or for the stop if it comes first.
    pub async fn race(&self, work: &JsValue) -> Result<Result<JsValue, JsValue>, Stopped> {
        let raced = Promise::race(&Array::of2(work, &self.promise));
        match JsFuture::from(raced).await {
            Ok(value) if TIMED_OUT.with(|marker| value == *marker) => Err(Stopped::TimedOut),
            Ok(value) if ABORTED.with(|marker| value == *marker) => Err(Stopped::Aborted),
            outcome => Ok(outcome),
        }
    }

    /// Runs `work` until it is done, or until the stop comes first (then
    /// `work` is dropped). A JS promise inside `work` must be awaited with
    /// [`settled`], so that dropping `work` frees its wait too.
    pub async fn until<F: Future>(&self, work: F) -> Result<F::Output, Stopped> {
        let mut stop = JsFuture::from(self.promise.clone());
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
        // (`_armed` clears the timer and the listener after this.)
        if let Some(resolve) = &self.resolve {
            let _ = resolve.call0(&JsValue::NULL);
        }
    }
}

/// Why a stop's promise settled (only a timer or an abort settles it while
/// it is awaited: a drop comes after the last wait).
fn why(settled: &Result<JsValue, JsValue>) -> Stopped {
    match settled {
        Ok(value) if ABORTED.with(|marker| value == marker) => Stopped::Aborted,
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
