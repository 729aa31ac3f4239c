//! A JS promise awaited from async Rust through one JS function made once
//! for the module.
//!
//! wasm-bindgen-futures' `JsFuture` makes two closures per promise (one
//! for each way it may settle): each is a crossing into JS to make, and two
//! more to drop. A [`Watched`] instead takes a slot in a table here and
//! hands JS the slot's number: JS calls `settle`, a function made once,
//! with the number and the outcome, which lands in the slot and wakes the task.
//!
//! A slot is free again once its outcome is taken, or, when its future was
//! dropped first, once the promise settles: so every promise watched must
//! settle at some point (a [`Stop`](crate::transport::fetch::wait::Stop)'s
//! does when the stop is dropped), or its slot stays taken.

use std::cell::RefCell;
use std::future::Future;
use std::mem;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;

/// What a slot holds.
enum Slot {
    /// Nothing: free for the next promise.
    Free,
    /// Its promise is pending; the task to wake when it settles.
    Pending(Option<Waker>),
    /// Its promise settled; the outcome, not yet taken.
    Settled(Settled),
    /// Its future was dropped first: free once the promise settles.
    Abandoned,
}

/// How a promise settled, as JS tells it: a number that says how
/// ([`FULFILLED`], 0 for a rejection; a stop and an attempt in `bridge.js`
/// have more), and the value it came with.
pub struct Settled {
    /// How it settled.
    pub outcome: u32,
    /// What it fulfilled or rejected with.
    pub value: JsValue,
}

/// The outcome of a promise that fulfilled.
pub const FULFILLED: u32 = 1;

impl Settled {
    /// `Ok` with what it fulfilled with, else `Err` with its value.
    pub fn result(self) -> Result<JsValue, JsValue> {
        if self.outcome == FULFILLED {
            Ok(self.value)
        } else {
            Err(self.value)
        }
    }
}

/// The slots, the numbers of the free ones, and the function JS settles
/// them through.
struct Slots {
    slots: Vec<Slot>,
    free: Vec<u32>,
    /// `settle(slot, outcome, value)` as a JS function: made at the first
    /// watch, never dropped.
    settle: Option<JsValue>,
}

thread_local! {
    static SLOTS: RefCell<Slots> = const {
        RefCell::new(Slots {
            slots: Vec::new(),
            free: Vec::new(),
            settle: None,
        })
    };
}

/// Puts a promise's outcome in its slot and wakes the task waiting on it.
/// JS calls it from a promise reaction, a microtask, so never while Rust
/// holds the table. (Nor does a waker that `poll` replaces or a drop lets
/// go of, while the table is held, drop a task's future, which could hold
/// another `Watched`: a task whose future waits on a slot is held by that
/// slot's waker or, once settled, by the queue it was woken into.)
fn settle(slot: u32, outcome: u32, value: JsValue) {
    let outcome = Settled { outcome, value };
    let waker = SLOTS.with(|slots| {
        let Slots { slots, free, .. } = &mut *slots.borrow_mut();
        let entry = slots.get_mut(slot as usize)?;
        match entry {
            Slot::Pending(waker) => {
                let waker = waker.take();
                *entry = Slot::Settled(outcome);
                waker
            }
            Slot::Abandoned => {
                *entry = Slot::Free;
                free.push(slot);
                None
            }
            // Not a pending promise's slot: a promise settles once.
            Slot::Free | Slot::Settled(_) => None,
        }
    });
    if let Some(waker) = waker {
        waker.wake();
    }
}

/// A JS promise's outcome, awaited.
pub struct Watched {
    slot: u32,
    /// Whether the outcome was taken (the slot is then no longer this
    /// future's).
    done: bool,
}

impl Watched {
    /// Takes a slot and calls `start` with its number and `settle` as a
    /// JS function: `start` hands both to the JS that watches the promise.
    pub fn new(start: impl FnOnce(u32, &JsValue)) -> Watched {
        Watched::started(start).0
    }

    /// As [`Watched::new`], with what `start` returned.
    pub fn started<R>(start: impl FnOnce(u32, &JsValue) -> R) -> (Watched, R) {
        let (slot, settle) = SLOTS.with(|slots| {
            let Slots {
                slots,
                free,
                settle: function,
            } = &mut *slots.borrow_mut();
            let slot = match free.pop() {
                Some(slot) => {
                    if let Some(entry) = slots.get_mut(slot as usize) {
                        *entry = Slot::Pending(None);
                    }
                    slot
                }
                None => {
                    slots.push(Slot::Pending(None));
                    // As many slots as promises awaited at once: far below 2^32.
                    (slots.len() - 1) as u32
                }
            };
            let function = function.get_or_insert_with(|| {
                Closure::<dyn Fn(u32, u32, JsValue)>::new(settle).into_js_value()
            });
            (slot, function.clone())
        });
        let started = start(slot, &settle);
        (Watched { slot, done: false }, started)
    }
}

impl Future for Watched {
    type Output = Settled;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context) -> Poll<Self::Output> {
        if self.done {
            // Polled again after it was ready: the slot may be another's.
            return Poll::Pending;
        }
        let slot = self.slot;
        let taken = SLOTS.with(|slots| {
            let Slots { slots, free, .. } = &mut *slots.borrow_mut();
            let entry = slots.get_mut(slot as usize)?;
            if let Slot::Pending(waker) = entry {
                *waker = Some(cx.waker().clone());
                return None;
            }
            match mem::replace(entry, Slot::Free) {
                Slot::Settled(outcome) => {
                    free.push(slot);
                    Some(outcome)
                }
                other => {
                    *entry = other;
                    None
                }
            }
        });
        match taken {
            Some(outcome) => {
                self.done = true;
                Poll::Ready(outcome)
            }
            None => Poll::Pending,
        }
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        SLOTS.with(|slots| {
            let Slots { slots, free, .. } = &mut *slots.borrow_mut();
            if let Some(entry) = slots.get_mut(self.slot as usize) {
                match entry {
                    Slot::Pending(_) => *entry = Slot::Abandoned,
                    Slot::Settled(_) => {
                        *entry = Slot::Free;
                        free.push(self.slot);
                    }
                    Slot::Free | Slot::Abandoned => {}
                }
            }
        });
    }
}
