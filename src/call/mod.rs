//! The call machine: one call of the API, from its first headers to its
//! last attempt, as a synchronous state machine that decides and never
//! waits. A driver asks it what to do next ([`Call::poll_output`]), does
//! that (asks a header provider, calls a hook, sends an attempt, pauses),
//! and tells it what happened ([`Call::handle_input`]); when it says
//! [`Output::Done`], [`Call::finish`] gives the call's outcome.
//!
//! It holds no future, no transport type and no clock: the time, random
//! numbers and every outcome come in as inputs. What a driver holds of an
//! attempt's outcome (a body, or an error with the value behind it) is
//! the machine's `A`, which it keeps and gives back but never looks into;
//! what the rules need of it comes in as an [`Outcome`].
//!
//! Every decision of a call is made here, with the rules: the attempt's
//! headers (the client's, the providers', the call's, then
//! `beforeRequest`'s, each checked), what the hooks see, which
//! credentials errors must not show, whether and when to try again (the
//! retry rule and `Retry-After`, a hook asking for the attempt again), and
//! what a retry tells the spans. It uses only the rules, the model and
//! the error type.

mod info;
#[cfg(test)]
mod tests;

use std::time::Duration;

use crate::error::Error;
use crate::model::{Operation, ParamsIn};
use crate::rules::headers::{merge_headers, Resolved};
use crate::rules::options::check_headers;
use crate::rules::retry::{next_delay, Judged, Policy, Tried};
use crate::rules::secrets;

pub(crate) use info::ms;
pub use info::{AttemptInfo, ResponseAction, ResponseInfo};

/// Header name/value pairs.
type Pairs = Vec<(String, String)>;

/// What a call is made of: the client's options and the call's, as they
/// bear on its decisions. A driver gives the same plan to every step of
/// one call.
pub struct Plan<'a> {
    /// Count or list.
    pub operation: Operation,
    /// The request's full URL (in `query` mode, with its query string).
    pub url: &'a str,
    /// The client's headers.
    pub client_headers: &'a [(String, String)],
    /// The call's headers.
    pub call_headers: &'a [(String, String)],
    /// The client's headers resolved once, where it has no header
    /// provider: every attempt that adds none sends them.
    pub prepared: Option<&'a Resolved>,
    /// Whether the client has a header provider, and whether the call has.
    pub providers: [bool; 2],
    /// Which hooks are set.
    pub hooks: HookSet,
    /// Where params go (which `Content-Type` the headers end with).
    pub params_in: ParamsIn,
    /// The retry policy.
    pub policy: Policy<'a>,
}

/// Which hooks a client has.
#[derive(Clone, Copy, Debug, Default)]
pub struct HookSet {
    /// `beforeRequest`.
    pub before_request: bool,
    /// `afterResponse`.
    pub after_response: bool,
    /// `beforeRetry`.
    pub before_retry: bool,
}

impl HookSet {
    /// Whether a hook sees the attempt (`beforeRequest`, `afterResponse`):
    /// what it sees is made only then.
    fn see_attempts(self) -> bool {
        self.before_request || self.after_response
    }
}

/// A header provider: the client's (0) or the call's (1).
pub type Provider = usize;

/// What the machine asks its driver to do next.
pub enum Output<'c, A> {
    /// Ask this header provider for its headers ([`Input::Provided`]).
    Provide(Provider),
    /// Call `beforeRequest` with this attempt ([`Input::BeforeRequest`]).
    BeforeRequest(&'c AttemptInfo),
    /// Send the attempt ([`Input::Settled`]).
    Send(Attempt<'c>),
    /// Give a random number and the date ([`Input::Drawn`]).
    Draw,
    /// Call `beforeRetry` ([`Input::RetryHookDone`]).
    BeforeRetry {
        /// The failed attempt's answer, to be shown with [`Call::secrets`]
        /// cut out (the call ends with it where the hook stops the retry).
        failed: Option<&'c A>,
        /// The retry decided.
        retry: Retrying,
    },
    /// Wait this many milliseconds, then say whether the call may go on
    /// ([`Input::Paused`]).
    Pause(f64),
    /// The call is over: [`Call::finish`] gives its outcome.
    Done,
}

/// An attempt to send.
pub struct Attempt<'c> {
    /// Its headers.
    pub headers: &'c Resolved,
    /// Whether they are the client's prepared ones ([`Plan::prepared`]),
    /// which a driver may have made ready to send once for every call.
    pub prepared: bool,
    /// How many attempts came before it.
    pub resend_count: u32,
    /// Whether `afterResponse` waits for the response's headers: the
    /// driver then gives them to [`Call::response_info`] when they arrive,
    /// and the hook's decision to [`Input::Settled`].
    pub tell_arrival: bool,
}

/// A retry decided: the pause before it, and what the spans tell of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Retrying {
    /// The pause, in milliseconds.
    pub delay_ms: f64,
    /// The resend it leads to (1 for the first retry), which is also the
    /// number of the attempt that failed.
    pub resend_count: u32,
    /// What the retry rule judged; `None`: a hook asked for the attempt
    /// again.
    pub judged: Option<Judged>,
}

/// What happened, as the driver tells it.
pub enum Input<A> {
    /// The header provider asked gave these headers.
    Provided(Pairs),
    /// `beforeRequest` gave these headers for the attempt (none: empty).
    BeforeRequest(Pairs),
    /// The attempt came to an answer: sent, or before it was, as a
    /// failure (its deadline passed while a header provider or
    /// `beforeRequest` ran).
    Settled {
        /// What the driver keeps of it.
        answer: A,
        /// What the rules judge of it.
        outcome: Outcome,
        /// What `afterResponse` decided of it (`Keep` where it did not run).
        action: ResponseAction,
    },
    /// What the retry rule draws on.
    Drawn {
        /// A random number in `[0, 1)`.
        random: f64,
        /// The date, in milliseconds since the Unix epoch.
        date_ms: f64,
    },
    /// `beforeRetry` is done: `stop` where it stopped the retry (it
    /// returned `false`, or outlasted its window), and the call ends with
    /// the answer it was to retry.
    RetryHookDone {
        /// Whether the retry is stopped.
        stop: bool,
    },
    /// The pause is over, and the call may go on.
    Paused,
    /// The call ends with `answer`: a wait failed (the caller's signal, a
    /// runtime that cannot wait, a provider's or a hook's error).
    End(A),
}

/// An attempt's outcome, as the rules judge it.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A good answer.
    Good,
    /// A failure the retry rule judges.
    Failed {
        /// Its kind and status.
        judged: Judged,
        /// The answer's `Retry-After`.
        retry_after: Option<String>,
    },
    /// A failure no attempt follows, not even where a hook asks (the
    /// caller's signal, a setup error, a body over its limit).
    Final,
}

/// Where a call is.
enum State {
    /// Not begun: the call's headers are checked first.
    Start,
    /// Waiting for a header provider.
    Providing(Provider),
    /// Waiting for `beforeRequest`.
    BeforeRequest,
    /// Waiting for the attempt's outcome.
    Sending,
    /// Waiting for a random number and the date, to decide on a retry of
    /// the attempt (`failed`: it failed, else a hook set it aside).
    Drawing {
        judged: Option<Judged>,
        retry_after: Option<String>,
        failed: bool,
    },
    /// Waiting for `beforeRetry`.
    BeforeRetry(Retrying),
    /// Waiting out the pause before the next attempt.
    Pausing(Retrying),
    /// Over: its answer is the call's outcome.
    Done,
}

/// One call: the state it is in, and what its attempts have gathered.
pub struct Call<A> {
    state: State,
    /// The call's answer so far: the last attempt's (until `beforeRetry`
    /// takes it or the pause ends), or what ended the call (an `End`, an
    /// error of the machine's own).
    answer: Option<A>,
    /// How many retries have been decided, by the rule and by hooks.
    tried: Tried,
    /// The providers' headers for this attempt.
    provided: [Pairs; 2],
    /// This attempt's headers, where they are not the prepared ones.
    own: Option<Resolved>,
    /// What the hooks see of this attempt (only where a hook is set).
    info: Option<AttemptInfo>,
    /// Every credential the call's attempts sent: cut out of every error
    /// and of the response headers the hooks see.
    secrets: Vec<String>,
}

/// Headers to fall back on where a driver's plan changed between steps.
static NO_HEADERS: Resolved = Resolved {
    list: Vec::new(),
    secrets: Vec::new(),
};

impl<A: From<Error>> Default for Call<A> {
    fn default() -> Call<A> {
        Call::new()
    }
}

/// `A`, what a driver holds of an attempt's outcome, is also how the
/// machine ends a call with an error of its own (a header the rules
/// refuse): `A::from(error)`.
impl<A: From<Error>> Call<A> {
    /// A call not begun.
    pub fn new() -> Call<A> {
        Call {
            state: State::Start,
            answer: None,
            tried: Tried::default(),
            provided: [Vec::new(), Vec::new()],
            own: None,
            info: None,
            secrets: Vec::new(),
        }
    }

    /// What the driver is to do next. The same until the input it waits
    /// for comes, but for `beforeRetry`'s failed answer, which is given
    /// once.
    pub fn poll_output<'c>(&'c mut self, plan: &Plan<'c>) -> Output<'c, A> {
        if let State::Start = self.state {
            self.state = match check_headers(plan.call_headers) {
                Ok(()) => self.provider_from(plan, 0),
                Err(error) => self.failed(error),
            };
        }
        match &self.state {
            State::Providing(provider) => Output::Provide(*provider),
            State::BeforeRequest | State::Sending => match (&self.state, &self.info) {
                (State::BeforeRequest, Some(info)) => Output::BeforeRequest(info),
                _ => Output::Send(Attempt {
                    headers: self.own.as_ref().or(plan.prepared).unwrap_or(&NO_HEADERS),
                    prepared: self.own.is_none(),
                    resend_count: self.tried.total(),
                    tell_arrival: plan.hooks.after_response && self.info.is_some(),
                }),
            },
            State::Drawing { .. } => Output::Draw,
            State::BeforeRetry(retry) => Output::BeforeRetry {
                failed: self.answer.as_ref(),
                retry: *retry,
            },
            State::Pausing(retry) => Output::Pause(retry.delay_ms),
            State::Start | State::Done => Output::Done,
        }
    }

    /// Tells the machine what happened. An input the machine is not
    /// waiting for changes nothing (but [`Input::End`], which ends any
    /// call not over). Returns the retry it decided, if it decided one (a
    /// driver's spans tell of it).
    pub fn handle_input(&mut self, plan: &Plan<'_>, input: Input<A>) -> Option<Retrying> {
        let next = match (&self.state, input) {
            (State::Done, _) => return None,
            (_, Input::End(answer)) => {
                self.answer = Some(answer);
                State::Done
            }
            (&State::Providing(provider), Input::Provided(given)) => match check_headers(&given) {
                Ok(()) => {
                    if let Some(slot) = self.provided.get_mut(provider) {
                        *slot = given;
                    }
                    self.provider_from(plan, provider + 1)
                }
                Err(error) => self.failed(error),
            },
            (State::BeforeRequest, Input::BeforeRequest(given)) => self.given(plan, &given),
            (
                State::Providing(_) | State::BeforeRequest | State::Sending,
                Input::Settled {
                    answer,
                    outcome,
                    action,
                },
            ) => {
                // Before the attempt is sent, only a failure (its deadline
                // passed) settles it: a good answer comes from one sent.
                if outcome == Outcome::Good && !matches!(self.state, State::Sending) {
                    return None;
                }
                self.answer = Some(answer);
                let keep = action == ResponseAction::Keep;
                match outcome {
                    Outcome::Good if !keep => State::Drawing {
                        judged: None,
                        retry_after: None,
                        failed: false,
                    },
                    Outcome::Failed {
                        judged,
                        retry_after,
                    } => State::Drawing {
                        judged: keep.then_some(judged),
                        retry_after,
                        failed: true,
                    },
                    Outcome::Good | Outcome::Final => State::Done,
                }
            }
            (
                State::Drawing {
                    judged,
                    retry_after,
                    failed,
                },
                Input::Drawn { random, date_ms },
            ) => {
                let after = retry_after.as_deref();
                let tried = self.tried;
                match next_delay(plan.policy, *judged, tried, random, after, date_ms) {
                    None => State::Done,
                    Some(delay_ms) => {
                        let count = match judged {
                            Some(_) => &mut self.tried.by_rule,
                            None => &mut self.tried.by_hook,
                        };
                        *count += 1;
                        let retry = Retrying {
                            delay_ms,
                            resend_count: self.tried.total(),
                            judged: *judged,
                        };
                        self.state = if *failed && plan.hooks.before_retry {
                            State::BeforeRetry(retry)
                        } else {
                            State::Pausing(retry)
                        };
                        return Some(retry);
                    }
                }
            }
            (&State::BeforeRetry(retry), Input::RetryHookDone { stop }) => match stop {
                false => State::Pausing(retry),
                true => State::Done,
            },
            (State::Pausing(_), Input::Paused) => {
                self.answer = None;
                self.provided = [Vec::new(), Vec::new()];
                self.own = None;
                self.info = None;
                self.provider_from(plan, 0)
            }
            _ => return None,
        };
        self.state = next;
        None
    }

    /// The call's outcome, once [`Output::Done`]: the answer it ended
    /// with, or the error the machine found (a header the rules refuse).
    /// Before then, or a second time, an error that says so.
    pub fn finish(&mut self) -> A {
        self.answer.take().unwrap_or_else(|| {
            A::from(Error::validation(
                "call",
                "the call was finished before it was over",
            ))
        })
    }

    /// The call over, failed with `error`.
    fn failed(&mut self, error: Error) -> State {
        self.answer = Some(A::from(error));
        State::Done
    }

    /// What `afterResponse` sees of the attempt's response, whose headers
    /// (names in lower case) arrived with `http_status` after `duration`:
    /// credentials, and any of the call's, cut out. `None` where no hook
    /// is set.
    pub fn response_info(
        &self,
        http_status: u16,
        headers: &[(String, String)],
        duration: Duration,
    ) -> Option<ResponseInfo> {
        self.info.as_ref().map(|info| ResponseInfo {
            request: info.clone(),
            http_status,
            duration,
            response_headers: secrets::shown_response(headers, &self.secrets),
        })
    }

    /// The number of the attempt under way or next (1 for the first): a
    /// driver's deadline runs from the first wait of each.
    pub fn attempt(&self) -> u32 {
        self.tried.total() + 1
    }

    /// The credentials the call's attempts sent so far, to cut out of
    /// anything an error or a hook shows.
    pub fn secrets(&self) -> &[String] {
        &self.secrets
    }

    /// The first header provider from `from` on that the plan has, or
    /// else the attempt's headers resolved.
    fn provider_from(&mut self, plan: &Plan<'_>, from: Provider) -> State {
        match (from..2).find(|&provider| plan.providers.get(provider) == Some(&true)) {
            Some(provider) => State::Providing(provider),
            None => self.resolve(plan),
        }
    }

    /// The attempt's headers: the client's prepared ones where nothing is
    /// added to them, else the client's, the client's provider's, the
    /// call's and the call's provider's, each over the one before; then
    /// what the hooks see, and `beforeRequest`'s turn where it is set.
    fn resolve(&mut self, plan: &Plan<'_>) -> State {
        let adds = plan.providers != [false, false] || !plan.call_headers.is_empty();
        let [client, call] = std::mem::take(&mut self.provided);
        self.own = (adds || plan.prepared.is_none()).then(|| {
            let call = merge_headers(plan.call_headers, &call);
            Resolved::new(plan.client_headers, &client, &call, plan.params_in)
        });
        self.info = plan.hooks.see_attempts().then(|| AttemptInfo {
            operation: plan.operation,
            url: plan.url.to_string(),
            attempt: self.tried.total() + 1,
            headers: self.headers(plan).shown(),
        });
        if plan.hooks.before_request && self.info.is_some() {
            State::BeforeRequest
        } else {
            self.sending(plan)
        }
    }

    /// `beforeRequest`'s headers over the attempt's, checked.
    fn given(&mut self, plan: &Plan<'_>, given: &[(String, String)]) -> State {
        if !given.is_empty() {
            if let Err(error) = check_headers(given) {
                return self.failed(error);
            }
            let own = self.headers(plan).with(given, plan.params_in);
            if let Some(info) = &mut self.info {
                info.headers = own.shown();
            }
            self.own = Some(own);
        }
        self.sending(plan)
    }

    /// The attempt is sent: its credentials join the call's.
    fn sending(&mut self, plan: &Plan<'_>) -> State {
        let headers = self.own.as_ref().or(plan.prepared).unwrap_or(&NO_HEADERS);
        for secret in &headers.secrets {
            if !self.secrets.contains(secret) {
                self.secrets.push(secret.clone());
            }
        }
        State::Sending
    }

    /// The attempt's headers as resolved so far.
    fn headers<'p>(&'p self, plan: &Plan<'p>) -> &'p Resolved {
        self.own.as_ref().or(plan.prepared).unwrap_or(&NO_HEADERS)
    }
}
