//! A call of the npm package: the library's call machine, stepped from
//! JS. The driver in `snippet.js` does only what must wait: it calls the
//! header functions and the hooks and awaits them, races each wait
//! against the caller's signal, pauses, and hands each outcome to
//! [`JsCall::step`], which tells the machine, asks it what comes next and
//! starts that (an attempt through the library's fetch transport, a
//! function for the driver to call, a pause), until the call is done.
//! No Rust future and no executor: every decision is the machine's, made
//! within a step.

use std::rc::Rc;

use js_sys::{Function, Object, Promise};
use user_management_client::__private::{
    self, aborted, drawn, is_aborted, now, pages::Walk, redact, since, validation, AttemptHandle,
    Call, HookSet, Input, Judged, Output, Prepared, Rejection,
};
use user_management_client::{CallOptions, Operation, ResponseAction, UsersClient};
use wasm_bindgen::prelude::*;
use web_sys::AbortSignal;

use crate::entries::Item;
use crate::read::{self, Functions};
use crate::{error, pages};

#[wasm_bindgen(module = "/snippet.js")]
extern "C" {
    /// The driver of one call (`snippet.js`).
    pub type Driver;

    /// Drives `call`, whose caller's signal is `signal`, from its first
    /// step: the call's promise.
    fn drive(call: JsCall, signal: Option<AbortSignal>) -> Promise;

    /// Calls `function` with `argument`, then steps the call with what it
    /// came to: `THREW` and what it threw, else what it returned or its
    /// promise settled with, raced against the caller's signal and, where
    /// given, `ms` milliseconds (then `TIMED_OUT`).
    #[wasm_bindgen(method)]
    fn run(this: &Driver, function: &Function, argument: &JsValue, ms: Option<u32>);

    /// Calls `function` with `argument` now, its deadline `ms` from now
    /// where given, and keeps what came of it for
    /// [`Driver::wait_kept`].
    #[wasm_bindgen(method)]
    fn keep(this: &Driver, function: &Function, argument: &JsValue, ms: Option<u32>);

    /// Steps the call with what the function [`Driver::keep`] called came
    /// to, as [`Driver::run`] does.
    #[wasm_bindgen(method, js_name = waitKept)]
    fn wait_kept(this: &Driver);

    /// Steps the call after `ms` milliseconds, or sooner when the caller's
    /// signal aborts.
    #[wasm_bindgen(method)]
    fn pause(this: &Driver, ms: u32);

    /// Settles the call's promise: rejects it with `value` if `failed`,
    /// else resolves it.
    #[wasm_bindgen(method)]
    fn done(this: &Driver, failed: bool, value: JsValue);
}

/// How the driver tells that a function it called threw (beside the
/// outcomes of `bridge.js`: 0 rejected, 1 fulfilled, 3 aborted, ...).
const THREW: u32 = 8;
const REJECTED: u32 = 0;
const FULFILLED: u32 = 1;
const TIMED_OUT: u32 = 2;

/// What the driver keeps of an attempt's outcome for the call machine.
type Answer = Result<JsValue, Rejection>;

/// One call of the npm package, as the driver holds it.
#[wasm_bindgen]
pub struct JsCall {
    prepared: Prepared,
    options: CallOptions,
    /// The client's header function and hooks.
    functions: Rc<Functions>,
    /// The call's header function.
    headers: Option<Function>,
    machine: Call<Answer>,
    waiting: Waiting,
    /// The attempt whose deadline runs (0: none yet): it runs from the
    /// attempt's first wait, and the driver tells what is left of it.
    timed: u32,
    /// The JS error the call rejects with where it is not made from its
    /// outcome: the one `beforeRetry` saw, when that hook stopped the
    /// retry or outlasted its timeout.
    rejects_with: Option<JsValue>,
    /// Where a page of `listPages` stands in its walk.
    walk: Option<Walk>,
}

/// What the call waits for.
#[derive(Default)]
enum Waiting {
    /// Nothing: its first step.
    #[default]
    Nothing,
    /// A header function.
    Provider,
    /// `beforeRequest`.
    BeforeRequest,
    /// The head of an attempt `afterResponse` waits for, sent at this
    /// time on the monotonic clock with this much left of its deadline
    /// (`None`: it has none).
    Head(AttemptHandle, f64, Option<u32>),
    /// The last word of an attempt (`true`: `afterResponse` was called).
    Body(AttemptHandle, bool),
    /// `afterResponse`'s decision about the attempt judged.
    Decision(Judged),
    /// `beforeRetry`, shown this error.
    BeforeRetry(JsValue),
    /// The pause before the next attempt.
    Pause,
}

/// Starts a call: `Ok` once its params are checked (and the caller's
/// signal has not aborted), else the promise rejects at once.
pub fn start(
    client: Result<(UsersClient, Rc<Functions>, CallOptions, Option<Function>), Rejection>,
    operation: Operation,
    params: &JsValue,
    page: Option<(f64, f64)>,
) -> Promise {
    let ready = client.and_then(|(client, functions, options, headers)| {
        let object: Object = read::params(operation, __private::params_in(&client), params)?;
        let walk = match page {
            Some((page, seen)) => Some(pages::walk_at(&object, page, seen)?),
            None => None,
        };
        let prepared = __private::prepare(client, operation, &object, &options)?;
        Ok(JsCall {
            prepared,
            options,
            functions,
            headers,
            machine: Call::new(),
            waiting: Waiting::Nothing,
            timed: 0,
            rejects_with: None,
            walk,
        })
    });
    match ready {
        Ok(call) => {
            let signal = call.options.signal.clone();
            drive(call, signal)
        }
        Err(rejection) => Promise::reject(&error::to_js(rejection)),
    }
}

#[wasm_bindgen]
impl JsCall {
    /// The driver's one way in: what the wait the call was at came to
    /// (`outcome` and `value`, as `bridge.js` and the driver number
    /// them). The call tells the machine, then starts what the machine
    /// asks next, until it must wait again or is done; an attempt it
    /// starts tells `tell` (the driver's `settle(slot, outcome, value)`).
    /// `left` is what was left of the last wait's deadline when the step
    /// began (`None`: it had none).
    pub fn step(
        &mut self,
        driver: &Driver,
        outcome: u32,
        value: JsValue,
        tell: &JsValue,
        left: Option<f64>,
    ) {
        // `as` saturates: a left below 0 is 0.
        let left = left.map(|ms| ms.ceil() as u32);
        let input = self.told(driver, outcome, value);
        if let Some(input) = input {
            self.next(driver, tell, left, input);
        }
    }
}

impl JsCall {
    /// What the wait the call was at came to, as the machine's input
    /// (`None`: the call waits again, for the rest of an attempt).
    fn told(
        &mut self,
        driver: &Driver,
        outcome: u32,
        value: JsValue,
    ) -> Option<Option<Input<Answer>>> {
        let functions = &*self.functions;
        let signal = self.options.signal.as_ref();
        let secrets = self.machine.secrets();
        let input = match std::mem::take(&mut self.waiting) {
            Waiting::Nothing => None,
            // The attempt's deadline passed while a header function or a
            // hook ran: the attempt timed out.
            Waiting::Provider | Waiting::BeforeRequest | Waiting::Decision(_)
                if outcome == TIMED_OUT =>
            {
                Some(self.prepared.expired())
            }
            Waiting::Provider => Some(match outcome {
                FULFILLED => read::headers(&Item::of(&value))
                    .map_or_else(|r| Input::End(Err(r)), Input::Provided),
                THREW => Input::End(Err(caused("the headers function threw", value))),
                REJECTED => Input::End(Err(caused(
                    "the headers function's promise rejected",
                    value,
                ))),
                _ => Input::End(Err(aborted(signal))),
            }),
            Waiting::BeforeRequest => Some(match outcome {
                FULFILLED => match read::attempt_headers(&value) {
                    Ok(Ok(given)) => Input::BeforeRequest(given),
                    Ok(Err(error)) => Input::End(Err(error.into())),
                    Err(thrown) => {
                        read::reported(&thrown);
                        Input::BeforeRequest(Vec::new())
                    }
                },
                THREW | REJECTED => {
                    read::reported(&value);
                    Input::BeforeRequest(Vec::new())
                }
                _ => Input::End(Err(aborted(signal))),
            }),
            Waiting::Head(handle, sent_at, sent_left) => {
                let arrived = self
                    .prepared
                    .arrived(outcome, value, &handle, signal, secrets);
                match arrived {
                    Err((answer, outcome)) => Some(Input::Settled {
                        answer,
                        outcome,
                        action: ResponseAction::Keep,
                    }),
                    Ok((http_status, headers)) => {
                        let duration = since(sent_at);
                        let info = self.machine.response_info(http_status, &headers, duration);
                        let asked = match (&functions.after_response, info) {
                            (Some(hook), Some(info)) => {
                                let js = read::hook_info_js(&info.request, Some(&info));
                                let spent = u32::try_from(duration.as_millis()).unwrap_or(u32::MAX);
                                driver.keep(
                                    hook,
                                    &js,
                                    sent_left.map(|ms| ms.saturating_sub(spent)),
                                );
                                true
                            }
                            _ => false,
                        };
                        handle.read(0);
                        self.waiting = Waiting::Body(handle, asked);
                        return None;
                    }
                }
            }
            Waiting::Body(handle, asked) => {
                let judged = self
                    .prepared
                    .judged(outcome, value, handle, signal, secrets);
                if asked {
                    self.waiting = Waiting::Decision(judged);
                    driver.wait_kept();
                    return None;
                }
                let (answer, outcome) = judged;
                Some(Input::Settled {
                    answer,
                    outcome,
                    action: ResponseAction::Keep,
                })
            }
            Waiting::Decision((answer, judged)) => Some(match outcome {
                FULFILLED | THREW | REJECTED => {
                    let action = match outcome {
                        FULFILLED => read::response_action(&value),
                        _ => Err(value),
                    };
                    let action = action.unwrap_or_else(|thrown| {
                        read::reported(&thrown);
                        ResponseAction::Keep
                    });
                    Input::Settled {
                        answer,
                        outcome: judged,
                        action,
                    }
                }
                _ => Input::End(Err(aborted(signal))),
            }),
            Waiting::BeforeRetry(error) => Some(match outcome {
                THREW | REJECTED => {
                    read::reported(&value);
                    Input::RetryHookDone { stop: false }
                }
                // Stopped (`false`) or outlasted its timeout: the call ends
                // with the error it was to retry, the very object the hook
                // saw.
                FULFILLED | TIMED_OUT => {
                    let stop = outcome == TIMED_OUT || read::stops_retry(&value);
                    if stop {
                        self.rejects_with = Some(error);
                    }
                    Input::RetryHookDone { stop }
                }
                _ => Input::End(Err(aborted(signal))),
            }),
            Waiting::Pause if is_aborted(signal) => Some(Input::End(Err(aborted(signal)))),
            Waiting::Pause => Some(Input::Paused),
        };
        Some(input)
    }

    /// Tells the machine `input`, asks it what comes next and starts it,
    /// telling it at once what needs no wait, until the call waits or is
    /// done. `told` is what the driver said was left of the deadline.
    fn next(
        &mut self,
        driver: &Driver,
        tell: &JsValue,
        told: Option<u32>,
        mut input: Option<Input<Answer>>,
    ) {
        let timeout_ms = self.prepared.timeout_ms();
        let functions = &*self.functions;
        let signal = self.options.signal.as_ref();
        let hooks = HookSet {
            before_request: functions.before_request.is_some(),
            after_response: functions.after_response.is_some(),
            before_retry: functions.before_retry.is_some(),
        };
        let providers = [functions.headers.is_some(), self.headers.is_some()];
        let plan = self.prepared.plan(&self.options, providers, hooks);
        loop {
            if let Some(input) = input.take() {
                self.machine.handle_input(&plan, input);
            }
            let attempt_number = self.machine.attempt();
            let timed = &mut self.timed;
            let mut left = || deadline(timed, attempt_number, timeout_ms, told);
            input = Some(match self.machine.poll_output(&plan) {
                Output::Provide(provider) => {
                    let function = match provider {
                        0 => functions.headers.as_ref(),
                        _ => self.headers.as_ref(),
                    };
                    match (function, left()) {
                        (Some(_), Some(0)) => self.prepared.expired(),
                        (Some(function), left) => {
                            driver.run(function, &JsValue::UNDEFINED, left);
                            self.waiting = Waiting::Provider;
                            return;
                        }
                        (None, _) => Input::Provided(Vec::new()),
                    }
                }
                Output::BeforeRequest(info) => match (&functions.before_request, left()) {
                    (Some(_), Some(0)) => self.prepared.expired(),
                    (Some(hook), left) => {
                        driver.run(hook, &read::hook_info_js(info, None), left);
                        self.waiting = Waiting::BeforeRequest;
                        return;
                    }
                    (None, _) => Input::BeforeRequest(Vec::new()),
                },
                Output::Send(attempt) => match left() {
                    Some(0) => self.prepared.expired(),
                    left => {
                        let early = attempt.tell_arrival && functions.after_response.is_some();
                        let sent_at = if early { now() } else { 0.0 };
                        let handle = self.prepared.send(&attempt, signal, early, tell, left);
                        self.waiting = if early {
                            Waiting::Head(handle, sent_at, left)
                        } else {
                            Waiting::Body(handle, false)
                        };
                        return;
                    }
                },
                Output::Draw => {
                    let (random, date_ms) = drawn();
                    Input::Drawn { random, date_ms }
                }
                Output::BeforeRetry { failed, retry } => {
                    let failed = failed.and_then(|answer| answer.as_ref().err());
                    match (&functions.before_retry, failed) {
                        (Some(hook), Some(failed)) => {
                            let shown = redact(failed.clone(), self.machine.secrets());
                            let (attempt, delay_ms) = (retry.resend_count, retry.delay_ms);
                            let info = self.prepared.retry_info(attempt, shown, delay_ms);
                            let (js, error) = read::retry_info(&info);
                            // Its own timeout, from its call.
                            let own = Some(timeout_ms).filter(|&ms| ms > 0);
                            driver.run(hook, &js, own);
                            self.waiting = Waiting::BeforeRetry(error);
                            return;
                        }
                        _ => Input::RetryHookDone { stop: false },
                    }
                }
                Output::Pause(ms) => {
                    // In the whole milliseconds a timer takes (`as`
                    // saturates; the rule's delays are at most 60 s).
                    driver.pause(ms as u32);
                    self.waiting = Waiting::Pause;
                    return;
                }
                Output::Done => {
                    let secrets = self.machine.secrets().to_vec();
                    let outcome = self.machine.finish().map_err(|r| redact(r, &secrets));
                    let settled = match (self.rejects_with.take(), self.walk.take()) {
                        (Some(error), _) => Err(error),
                        (None, Some(walk)) => pages::settle(walk, outcome),
                        (None, None) => outcome.map_err(error::to_js),
                    };
                    match settled {
                        Ok(value) => driver.done(false, value),
                        Err(value) => driver.done(true, value),
                    }
                    return;
                }
            });
        }
    }
}

/// What is left of attempt `attempt`'s deadline for its next wait (`None`:
/// none, `timeoutMs` 0): all of `timeout_ms` at the attempt's first wait
/// (`timed` then says which attempt's runs), else what the driver told
/// was left (`told`).
fn deadline(timed: &mut u32, attempt: u32, timeout_ms: u32, told: Option<u32>) -> Option<u32> {
    if timeout_ms == 0 {
        return None;
    }
    if *timed != attempt {
        *timed = attempt;
        return Some(timeout_ms);
    }
    Some(told.unwrap_or(0).min(timeout_ms))
}

/// A header function's failure: a `validation` error with what it threw
/// or rejected with as its cause.
fn caused(message: &str, cause: JsValue) -> Rejection {
    Rejection::caused(validation("headers", message), cause)
}
