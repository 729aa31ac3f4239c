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
    /// promise settled with, raced against the caller's signal.
    #[wasm_bindgen(method)]
    fn run(this: &Driver, function: &Function, argument: &JsValue);

    /// Calls `function` with `argument` now, and keeps what came of it for
    /// [`Driver::wait_kept`].
    #[wasm_bindgen(method)]
    fn keep(this: &Driver, function: &Function, argument: &JsValue);

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
    /// time on the monotonic clock.
    Head(AttemptHandle, f64),
    /// The last word of an attempt (`true`: `afterResponse` was called).
    Body(AttemptHandle, bool),
    /// `afterResponse`'s decision about the attempt judged.
    Decision(Judged),
    /// `beforeRetry`.
    BeforeRetry,
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
    pub fn step(&mut self, driver: &Driver, outcome: u32, value: JsValue, tell: &JsValue) {
        let functions = &*self.functions;
        let signal = self.options.signal.as_ref();
        let secrets = self.machine.secrets();
        let input = match std::mem::take(&mut self.waiting) {
            Waiting::Nothing => None,
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
            Waiting::Head(handle, sent_at) => {
                match self
                    .prepared
                    .arrived(outcome, value, &handle, signal, secrets)
                {
                    Err((answer, outcome)) => Some(Input::Settled {
                        answer,
                        outcome,
                        action: ResponseAction::Keep,
                    }),
                    Ok((http_status, headers)) => {
                        let info =
                            self.machine
                                .response_info(http_status, &headers, since(sent_at));
                        let asked = match (&functions.after_response, info) {
                            (Some(hook), Some(info)) => {
                                driver.keep(hook, &read::hook_info_js(&info.request, Some(&info)));
                                true
                            }
                            _ => false,
                        };
                        handle.read(0);
                        self.waiting = Waiting::Body(handle, asked);
                        return;
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
                    return;
                }
                let (answer, outcome) = judged;
                Some(Input::Settled {
                    answer,
                    outcome,
                    action: ResponseAction::Keep,
                })
            }
            Waiting::Decision((answer, judged)) => {
                let action = match outcome {
                    FULFILLED => read::response_action(&value).unwrap_or_else(|thrown| {
                        read::reported(&thrown);
                        ResponseAction::Keep
                    }),
                    THREW | REJECTED => {
                        read::reported(&value);
                        ResponseAction::Keep
                    }
                    _ => return self.next(driver, tell, Some(Input::End(Err(aborted(signal))))),
                };
                Some(Input::Settled {
                    answer,
                    outcome: judged,
                    action,
                })
            }
            Waiting::BeforeRetry => Some(match outcome {
                THREW | REJECTED => {
                    read::reported(&value);
                    Input::RetryHookDone
                }
                FULFILLED => Input::RetryHookDone,
                _ => Input::End(Err(aborted(signal))),
            }),
            Waiting::Pause if is_aborted(signal) => Some(Input::End(Err(aborted(signal)))),
            Waiting::Pause => Some(Input::Paused),
        };
        self.next(driver, tell, input);
    }
}

impl JsCall {
    /// Asks the machine what comes next and starts it, telling it at once
    /// what needs no wait, until the call waits or is done.
    fn next(&mut self, driver: &Driver, tell: &JsValue, mut input: Option<Input<Answer>>) {
        let functions = &*self.functions;
        let signal = self.options.signal.as_ref();
        let hooks = HookSet {
            before_request: functions.before_request.is_some(),
            after_response: functions.after_response.is_some(),
            before_retry: functions.before_retry.is_some(),
        };
        let providers = [functions.headers.is_some(), self.headers.is_some()];
        let plan = self.prepared.plan(&self.options.headers, providers, hooks);
        loop {
            if let Some(input) = input.take() {
                self.machine.handle_input(&plan, input);
            }
            input = Some(match self.machine.poll_output(&plan) {
                Output::Provide(provider) => {
                    let function = match provider {
                        0 => functions.headers.as_ref(),
                        _ => self.headers.as_ref(),
                    };
                    match function {
                        Some(function) => {
                            driver.run(function, &JsValue::UNDEFINED);
                            self.waiting = Waiting::Provider;
                            return;
                        }
                        None => Input::Provided(Vec::new()),
                    }
                }
                Output::BeforeRequest(info) => match &functions.before_request {
                    Some(hook) => {
                        driver.run(hook, &read::hook_info_js(info, None));
                        self.waiting = Waiting::BeforeRequest;
                        return;
                    }
                    None => Input::BeforeRequest(Vec::new()),
                },
                Output::Send(attempt) => {
                    let early = attempt.tell_arrival && functions.after_response.is_some();
                    let sent_at = if early { now() } else { 0.0 };
                    let handle = self.prepared.send(&attempt, signal, early, tell);
                    self.waiting = if early {
                        Waiting::Head(handle, sent_at)
                    } else {
                        Waiting::Body(handle, false)
                    };
                    return;
                }
                Output::Draw => {
                    let (random, date_ms) = drawn();
                    Input::Drawn { random, date_ms }
                }
                Output::BeforeRetry { failed, retry } => {
                    let failed = failed.and_then(Result::err);
                    match (&functions.before_retry, failed) {
                        (Some(hook), Some(failed)) => {
                            let shown = redact(failed, self.machine.secrets());
                            let info =
                                self.prepared
                                    .retry_info(retry.resend_count, shown, retry.delay_ms);
                            driver.run(hook, &read::retry_info(&info));
                            self.waiting = Waiting::BeforeRetry;
                            return;
                        }
                        _ => Input::RetryHookDone,
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
                    let settled = match self.walk.take() {
                        Some(walk) => pages::settle(walk, outcome),
                        None => outcome.map_err(error::to_js),
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

/// A header function's failure: a `validation` error with what it threw
/// or rejected with as its cause.
fn caused(message: &str, cause: JsValue) -> Rejection {
    Rejection::caused(validation("headers", message), cause)
}
