//! Waiting on JS time and on the caller's `AbortSignal` from async Rust.
//!
//! A [`Stop`] is one promise that settles when its timer fires or when the
//! signal aborts, and [`Stop::until`] runs a future until it is done or the
//! stop comes first. The timer and the listener are plain JS functions
//! (`resolve.bind(null, code)`), so waiting allocates no Rust closure, and
//! each `Stop` owns its own timer: Cloudflare Workers drop a timer when the
//! request that set it ends, so one shared across calls would be lost.
//! Dropping a `Stop` clears its timer and its listener.

use std::future::{poll_fn, Future};
use std::pin::{pin, Pin};
use std::task::Poll;

use js_sys::{Function, Promise};
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

const TIMED_OUT: u32 = 1;
const ABORTED: u32 = 2;

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
    settled: JsFuture,
    /// Settles `settled` when the stop is dropped first: a `JsFuture` frees
    /// its callbacks only when its promise settles, so one left pending
    /// would leak them.
    resolve: Option<Function>,
    /// Held for its `Drop`: clears the timer and the listener.
    _armed: Armed,
}

impl Stop {
    /// A stop after `ms` (none for `None`) or when `signal` aborts; at once
    /// if it already has.
    pub fn new(ms: Option<u32>, signal: Option<&AbortSignal>) -> Stop {
        let mut armed = Armed::default();
        let mut resolver = None;
        let promise = Promise::new(&mut |resolve: Function, _reject| {
            resolver = Some(resolve.clone());
            let with = |code: u32| -> Function {
                resolve.bind1(&JsValue::NULL, &code.into()).unchecked_into()
            };
            if let Some(signal) = signal {
                if is_aborted(Some(signal)) {
                    let _ = with(ABORTED).call0(&JsValue::NULL);
                    return;
                }
                armed.listen(signal, with(ABORTED));
            }
            if let Some(ms) = ms {
                armed.set_timer(&with(TIMED_OUT), ms);
            }
        });
        Stop {
            settled: JsFuture::from(promise),
            resolve: resolver,
            _armed: armed,
        }
    }

    /// Waits for the stop itself (a pause before a retry).
    pub async fn wait(mut self) -> Stopped {
        match (&mut self.settled).await {
            Ok(code) if code.as_f64() == Some(f64::from(ABORTED)) => Stopped::Aborted,
            _ => Stopped::TimedOut,
        }
    }

    /// Runs `work` until it is done, or until the stop comes first (then
    /// `work` is dropped).
    pub async fn until<F: Future>(&mut self, work: F) -> Result<F::Output, Stopped> {
        let mut work = pin!(work);
        poll_fn(|cx| {
            if let Poll::Ready(code) = Pin::new(&mut self.settled).poll(cx) {
                return Poll::Ready(Err(match code {
                    Ok(code) if code.as_f64() == Some(f64::from(ABORTED)) => Stopped::Aborted,
                    _ => Stopped::TimedOut,
                }));
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

/// Whether the caller's signal has aborted. A getter that throws counts as
/// not aborted (the signal was checked when the options were read).
pub fn is_aborted(signal: Option<&AbortSignal>) -> bool {
    signal.is_some_and(|signal| {
        js_sys::Reflect::get(signal, &"aborted".into()).is_ok_and(|v| v.is_truthy())
    })
}
