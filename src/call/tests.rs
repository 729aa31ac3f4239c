//! The call machine driven by a script, with no transport, no clock and
//! no future: every path the contract names, step by step, and the laws
//! that hold for any sequence of events.

use super::*;
use crate::error::ErrorKind;
use crate::rules::retry::{RetryPolicy, UNSET};
use crate::rules::secrets::REDACTED;

/// What the scripted driver keeps of an attempt: the test's own label
/// for a good answer, or the error.
type Answer = Result<&'static str, Error>;

impl From<Error> for Answer {
    fn from(error: Error) -> Answer {
        Err(error)
    }
}

/// A token with `+ / =` and over 64 characters, as the contract's tests use.
const TOKEN: &str = "tok+en/with=signs_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP";

fn pairs(list: &[(&str, &str)]) -> Pairs {
    list.iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
}

/// A call's options, owned, from which each test borrows its plan.
struct Setup {
    client_headers: Pairs,
    call_headers: Pairs,
    prepared: Option<Resolved>,
    providers: [bool; 2],
    hooks: HookSet,
    policy: RetryPolicy,
}

impl Setup {
    /// A client with headers of its own and no provider (so they are
    /// prepared once), no hooks, the default two retries.
    fn new() -> Setup {
        let client_headers = pairs(&[("x-client", "c")]);
        let prepared = Resolved::new(&client_headers, &[], &[], ParamsIn::Body);
        Setup {
            client_headers,
            call_headers: Vec::new(),
            prepared: Some(prepared),
            providers: [false, false],
            hooks: HookSet::default(),
            policy: RetryPolicy::default(),
        }
    }

    fn hooks(mut self) -> Setup {
        self.hooks = HookSet {
            before_request: true,
            after_response: true,
            before_retry: true,
        };
        self
    }

    fn client_provider(mut self) -> Setup {
        self.providers[0] = true;
        self.prepared = None;
        self
    }

    fn plan(&self) -> Plan<'_> {
        Plan {
            operation: Operation::Count,
            url: "http://api.test/api/users/count",
            client_headers: &self.client_headers,
            call_headers: &self.call_headers,
            prepared: self.prepared.as_ref(),
            providers: self.providers,
            hooks: self.hooks,
            params_in: ParamsIn::Body,
            policy: Policy {
                call: &self.policy,
                client: &UNSET,
            },
        }
    }
}

/// What an output was, without its borrows: what the scripts compare.
#[derive(Debug, PartialEq)]
enum Step {
    Provide(Provider),
    BeforeRequest {
        attempt: u32,
        headers: Pairs,
    },
    Send {
        headers: Pairs,
        prepared: bool,
        resend_count: u32,
        tell_arrival: bool,
    },
    Draw,
    BeforeRetry {
        failed: Option<Answer>,
        retry: Retrying,
    },
    Pause(f64),
    Done,
}

fn step(call: &mut Call<Answer>, plan: &Plan<'_>) -> Step {
    match call.poll_output(plan) {
        Output::Provide(provider) => Step::Provide(provider),
        Output::BeforeRequest(info) => Step::BeforeRequest {
            attempt: info.attempt,
            headers: info.headers.clone(),
        },
        Output::Send(attempt) => Step::Send {
            headers: attempt.headers.list.clone(),
            prepared: attempt.prepared,
            resend_count: attempt.resend_count,
            tell_arrival: attempt.tell_arrival,
        },
        Output::Draw => Step::Draw,
        Output::BeforeRetry { failed, retry } => Step::BeforeRetry {
            failed: failed.cloned(),
            retry,
        },
        Output::Pause(ms) => Step::Pause(ms),
        Output::Done => Step::Done,
    }
}

fn busy() -> Error {
    Error::new(ErrorKind::Http, "HTTP 503").with_http_status(503)
}

fn failed(error: &Error, retry_after: Option<&str>) -> Input<Answer> {
    Input::Settled {
        answer: Err(error.clone()),
        outcome: Outcome::Failed {
            judged: Judged::of(error),
            retry_after: retry_after.map(str::to_string),
        },
        action: ResponseAction::Keep,
    }
}

fn good(label: &'static str, action: ResponseAction) -> Input<Answer> {
    Input::Settled {
        answer: Ok(label),
        outcome: Outcome::Good,
        action,
    }
}

const DRAWN: Input<Answer> = Input::Drawn {
    random: 0.0,
    date_ms: 1_000_000.0,
};

fn sends(step: &Step) -> bool {
    matches!(step, Step::Send { .. })
}

#[test]
fn a_good_answer_is_one_attempt_with_the_prepared_headers() {
    let setup = Setup::new();
    let plan = setup.plan();
    let mut call = Call::new();
    let prepared = setup.prepared.as_ref().map(|r| r.list.clone());
    assert_eq!(
        step(&mut call, &plan),
        Step::Send {
            headers: prepared.unwrap_or_default(),
            prepared: true,
            resend_count: 0,
            tell_arrival: false,
        }
    );
    // The same until the input it waits for comes.
    assert!(sends(&step(&mut call, &plan)));
    // No hook: nothing is made for one to see.
    assert!(call.response_info(200, &[], Duration::ZERO).is_none());
    call.handle_input(&plan, good("body", ResponseAction::Keep));
    assert_eq!(step(&mut call, &plan), Step::Done);
    assert_eq!(call.finish().ok(), Some("body"));
    assert_eq!(
        call.finish()
            .err()
            .and_then(|e| e.param().map(str::to_string))
            .as_deref(),
        Some("call"),
        "a second finish"
    );
}

#[test]
fn a_503_with_retry_after_in_seconds_pauses_that_long_then_tries_again() {
    let setup = Setup::new();
    let plan = setup.plan();
    let mut call = Call::new();
    assert!(sends(&step(&mut call, &plan)));
    assert_eq!(call.handle_input(&plan, failed(&busy(), Some("2"))), None);
    assert_eq!(step(&mut call, &plan), Step::Draw);
    let judged = Some(Judged::of(&busy()));
    let retry = Retrying {
        delay_ms: 2_000.0,
        resend_count: 1,
        judged,
    };
    // The retry decided is told once, for the spans.
    assert_eq!(call.handle_input(&plan, DRAWN), Some(retry));
    assert_eq!(step(&mut call, &plan), Step::Pause(2_000.0));
    call.handle_input(&plan, Input::Paused);
    match step(&mut call, &plan) {
        Step::Send { resend_count, .. } => assert_eq!(resend_count, 1),
        other => panic!("{other:?}"),
    }
    call.handle_input(&plan, good("second", ResponseAction::Keep));
    assert_eq!(call.finish().ok(), Some("second"));
}

#[test]
fn a_retry_after_date_pauses_until_that_date() {
    let setup = Setup::new();
    let plan = setup.plan();
    let mut call = Call::new();
    // 1,700,000,000 s after the epoch is Tue, 14 Nov 2023 22:13:20 GMT.
    let now_ms = 1_700_000_000_000.0;
    let date = "Tue, 14 Nov 2023 22:13:23 GMT";
    step(&mut call, &plan);
    call.handle_input(&plan, failed(&busy(), Some(date)));
    assert_eq!(step(&mut call, &plan), Step::Draw);
    call.handle_input(
        &plan,
        Input::Drawn {
            random: 0.5,
            date_ms: now_ms,
        },
    );
    assert_eq!(step(&mut call, &plan), Step::Pause(3_000.0));
}

#[test]
fn backoff_without_retry_after_and_no_more_attempts_than_the_retries_allow() {
    let setup = Setup::new();
    let plan = setup.plan();
    let mut call = Call::new();
    let mut pauses = Vec::new();
    let mut attempts = 0;
    loop {
        match step(&mut call, &plan) {
            Step::Send { .. } => {
                attempts += 1;
                call.handle_input(&plan, failed(&busy(), None));
            }
            Step::Draw => {
                call.handle_input(&plan, DRAWN);
            }
            Step::Pause(ms) => {
                pauses.push(ms);
                call.handle_input(&plan, Input::Paused);
            }
            Step::Done => break,
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(attempts, 3);
    assert_eq!(pauses, [150.0, 300.0]);
    let error = call.finish().err();
    assert_eq!(error.and_then(|e| e.http_status()), Some(503));
}

#[test]
fn a_failure_the_rule_does_not_retry_ends_the_call_after_the_draw() {
    let setup = Setup::new();
    let plan = setup.plan();
    let mut call = Call::new();
    step(&mut call, &plan);
    let missing = Error::new(ErrorKind::Http, "HTTP 404").with_http_status(404);
    call.handle_input(&plan, failed(&missing, Some("1")));
    assert_eq!(step(&mut call, &plan), Step::Draw);
    call.handle_input(&plan, DRAWN);
    assert_eq!(step(&mut call, &plan), Step::Done);
    let status = call.finish().err();
    assert_eq!(status.and_then(|e| e.http_status()), Some(404));
}

#[test]
fn with_no_retries_a_retryable_failure_is_final() {
    let mut setup = Setup::new();
    setup.policy.limit = Some(0);
    let plan = setup.plan();
    let mut call = Call::new();
    step(&mut call, &plan);
    call.handle_input(&plan, failed(&busy(), None));
    call.handle_input(&plan, DRAWN);
    assert_eq!(step(&mut call, &plan), Step::Done);
}

/// Each hook alone: the attempt is shown only to `beforeRequest` and
/// `afterResponse`, and only `afterResponse` waits for the response's
/// headers.
#[test]
fn each_hook_alone_sees_what_it_is_for() {
    for (hooks, asks_first, tells, shown) in [
        (
            HookSet {
                before_request: true,
                ..HookSet::default()
            },
            true,
            false,
            true,
        ),
        (
            HookSet {
                after_response: true,
                ..HookSet::default()
            },
            false,
            true,
            true,
        ),
        (
            HookSet {
                before_retry: true,
                ..HookSet::default()
            },
            false,
            false,
            false,
        ),
    ] {
        let mut setup = Setup::new();
        setup.hooks = hooks;
        let plan = setup.plan();
        let mut call = Call::new();
        let first = step(&mut call, &plan);
        assert_eq!(
            matches!(first, Step::BeforeRequest { .. }),
            asks_first,
            "{hooks:?}"
        );
        if asks_first {
            call.handle_input(&plan, Input::BeforeRequest(Vec::new()));
        }
        match step(&mut call, &plan) {
            Step::Send { tell_arrival, .. } => assert_eq!(tell_arrival, tells, "{hooks:?}"),
            other => panic!("{other:?}"),
        }
        let info = call.response_info(200, &[], Duration::ZERO);
        assert_eq!(info.is_some(), shown, "{hooks:?}");
        call.handle_input(&plan, failed(&busy(), None));
        call.handle_input(&plan, DRAWN);
        let retry_hook = matches!(step(&mut call, &plan), Step::BeforeRetry { .. });
        assert_eq!(retry_hook, hooks.before_retry, "{hooks:?}");
    }
}

#[test]
fn a_hook_asking_for_the_attempt_again_sets_a_good_answer_aside_without_before_retry() {
    let setup = Setup::new().hooks();
    let plan = setup.plan();
    let mut call = Call::new();
    assert!(matches!(step(&mut call, &plan), Step::BeforeRequest { .. }));
    call.handle_input(&plan, Input::BeforeRequest(Vec::new()));
    match step(&mut call, &plan) {
        Step::Send { tell_arrival, .. } => assert!(tell_arrival),
        other => panic!("{other:?}"),
    }
    call.handle_input(&plan, good("set aside", ResponseAction::Retry));
    assert_eq!(step(&mut call, &plan), Step::Draw);
    let retry = call.handle_input(&plan, DRAWN);
    // beforeRetry sees failed attempts only: straight to the pause.
    assert_eq!(step(&mut call, &plan), Step::Pause(150.0));
    assert_eq!(retry.map(|retry| retry.judged), Some(None));
    call.handle_input(&plan, Input::Paused);
    match step(&mut call, &plan) {
        Step::BeforeRequest { attempt, .. } => assert_eq!(attempt, 2),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_hook_asking_retries_an_error_the_rule_would_not_and_before_retry_sees_it() {
    let setup = Setup::new().hooks();
    let plan = setup.plan();
    let mut call = Call::new();
    step(&mut call, &plan);
    call.handle_input(&plan, Input::BeforeRequest(Vec::new()));
    let refused = Error::new(ErrorKind::Http, "HTTP 401").with_http_status(401);
    call.handle_input(
        &plan,
        Input::Settled {
            answer: Err(refused.clone()),
            outcome: Outcome::Failed {
                judged: Judged::of(&refused),
                retry_after: None,
            },
            action: ResponseAction::Retry,
        },
    );
    call.handle_input(&plan, DRAWN);
    let retry = Retrying {
        delay_ms: 150.0,
        resend_count: 1,
        judged: None,
    };
    assert_eq!(
        step(&mut call, &plan),
        Step::BeforeRetry {
            failed: Some(Err(refused.clone())),
            retry,
        }
    );
    // The failed answer is lent, the same at every poll: the call ends
    // with it where the hook stops the retry.
    assert_eq!(
        step(&mut call, &plan),
        Step::BeforeRetry {
            failed: Some(Err(refused)),
            retry
        }
    );
    call.handle_input(&plan, Input::RetryHookDone { stop: false });
    assert_eq!(step(&mut call, &plan), Step::Pause(150.0));
}

/// A failed attempt's `Settled`, a 503 the rule retries, with what
/// `afterResponse` decided of it.
fn busy_settled(action: ResponseAction) -> Input<Answer> {
    Input::Settled {
        answer: Err(busy()),
        outcome: Outcome::Failed {
            judged: Judged::of(&busy()),
            retry_after: None,
        },
        action,
    }
}

#[test]
fn before_retry_stopping_ends_the_call_with_the_error_it_was_to_retry() {
    let setup = Setup::new().hooks();
    let plan = setup.plan();
    let mut call = Call::new();
    step(&mut call, &plan);
    call.handle_input(&plan, Input::BeforeRequest(Vec::new()));
    call.handle_input(&plan, busy_settled(ResponseAction::Keep));
    call.handle_input(&plan, DRAWN);
    assert!(matches!(step(&mut call, &plan), Step::BeforeRetry { .. }));
    call.handle_input(&plan, Input::RetryHookDone { stop: true });
    assert_eq!(step(&mut call, &plan), Step::Done);
    let ended = call.finish().unwrap_err();
    assert_eq!(ended.http_status(), Some(503));
    assert_eq!(ended.message(), "HTTP 503");
}

#[test]
fn a_hooks_retries_are_counted_apart_at_least_once() {
    for (limit, asked) in [(0, 1), (1, 1), (3, 3)] {
        let mut setup = Setup::new().hooks();
        setup.policy.limit = Some(limit);
        let plan = setup.plan();
        let mut call = Call::new();
        let mut sent = 0;
        // Every attempt a 503 that `afterResponse` asks for again.
        loop {
            let input = match step(&mut call, &plan) {
                Step::BeforeRequest { .. } => Input::BeforeRequest(Vec::new()),
                Step::Send { .. } => {
                    sent += 1;
                    busy_settled(ResponseAction::Retry)
                }
                Step::Draw => DRAWN,
                Step::BeforeRetry { .. } => Input::RetryHookDone { stop: false },
                Step::Pause(_) => Input::Paused,
                Step::Done => break,
                Step::Provide(_) => Input::Provided(Vec::new()),
            };
            call.handle_input(&plan, input);
        }
        assert_eq!(sent, asked + 1, "limit {limit}");
        assert_eq!(call.finish().unwrap_err().http_status(), Some(503));
    }
    // The rule's retries after the hook's: each has its own count.
    let mut setup = Setup::new().hooks();
    setup.policy.limit = Some(1);
    let plan = setup.plan();
    let mut call = Call::new();
    let mut sent = 0;
    loop {
        let input = match step(&mut call, &plan) {
            Step::BeforeRequest { .. } => Input::BeforeRequest(Vec::new()),
            Step::Send { resend_count, .. } => {
                sent += 1;
                assert_eq!(resend_count, sent - 1);
                match sent {
                    1 => busy_settled(ResponseAction::Retry),
                    _ => busy_settled(ResponseAction::Keep),
                }
            }
            Step::Draw => DRAWN,
            Step::BeforeRetry { .. } => Input::RetryHookDone { stop: false },
            Step::Pause(_) => Input::Paused,
            Step::Done => break,
            Step::Provide(_) => Input::Provided(Vec::new()),
        };
        call.handle_input(&plan, input);
    }
    assert_eq!(sent, 3);
}

#[test]
fn the_policys_status_codes_decide_what_the_rule_retries() {
    let mut setup = Setup::new();
    setup.policy.status_codes = Some(vec![500]);
    let plan = setup.plan();
    let mut call = Call::new();
    assert!(matches!(step(&mut call, &plan), Step::Send { .. }));
    call.handle_input(&plan, busy_settled(ResponseAction::Keep));
    assert_eq!(step(&mut call, &plan), Step::Draw);
    assert_eq!(call.handle_input(&plan, DRAWN), None);
    assert_eq!(step(&mut call, &plan), Step::Done);
    assert_eq!(call.finish().unwrap_err().http_status(), Some(503));
}

#[test]
fn a_body_over_its_limit_is_final_even_where_a_hook_asks() {
    let setup = Setup::new().hooks();
    let plan = setup.plan();
    let mut call = Call::new();
    step(&mut call, &plan);
    call.handle_input(&plan, Input::BeforeRequest(Vec::new()));
    let too_large = Error::new(ErrorKind::Decode, "over maxBodyBytes").never_retried();
    call.handle_input(
        &plan,
        Input::Settled {
            answer: Err(too_large),
            outcome: Outcome::Final,
            action: ResponseAction::Retry,
        },
    );
    assert_eq!(step(&mut call, &plan), Step::Done);
    let kind = call.finish().err().map(|e| e.kind());
    assert_eq!(kind, Some(ErrorKind::Decode));
}

#[test]
fn a_timed_out_attempt_is_retried_and_the_last_timeout_stands() {
    let mut setup = Setup::new();
    setup.policy.limit = Some(1);
    let plan = setup.plan();
    let mut call = Call::new();
    let late = Error::new(ErrorKind::Timeout, "no answer within 200 ms");
    let mut attempts = 0;
    while step(&mut call, &plan) != Step::Done {
        match step(&mut call, &plan) {
            Step::Send { .. } => {
                attempts += 1;
                call.handle_input(&plan, failed(&late, None));
            }
            Step::Draw => {
                call.handle_input(&plan, DRAWN);
            }
            Step::Pause(_) => {
                call.handle_input(&plan, Input::Paused);
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(attempts, 2);
    let kind = call.finish().err().map(|e| e.kind());
    assert_eq!(kind, Some(ErrorKind::Timeout));
}

#[test]
fn a_deadline_passed_before_the_attempt_is_sent_fails_it_as_a_timeout() {
    // The attempt's deadline passes while the provider runs (attempt 1),
    // then while beforeRequest runs (attempt 2): each is an attempt that
    // failed, retried by the rule; nothing was sent. A good answer there
    // changes nothing: it comes only from an attempt sent.
    let mut setup = Setup::new().hooks().client_provider();
    setup.policy.limit = Some(1);
    let plan = setup.plan();
    let mut call = Call::new();
    let late = Error::new(ErrorKind::Timeout, "no answer within 200 ms");
    assert_eq!(call.attempt(), 1);
    assert_eq!(step(&mut call, &plan), Step::Provide(0));
    call.handle_input(&plan, good("early", ResponseAction::Keep));
    assert_eq!(step(&mut call, &plan), Step::Provide(0));
    call.handle_input(&plan, failed(&late, None));
    assert_eq!(step(&mut call, &plan), Step::Draw);
    call.handle_input(&plan, DRAWN);
    assert!(matches!(step(&mut call, &plan), Step::BeforeRetry { .. }));
    call.handle_input(&plan, Input::RetryHookDone { stop: false });
    assert!(matches!(step(&mut call, &plan), Step::Pause(_)));
    call.handle_input(&plan, Input::Paused);
    assert_eq!(call.attempt(), 2);
    assert_eq!(step(&mut call, &plan), Step::Provide(0));
    call.handle_input(&plan, Input::Provided(Vec::new()));
    assert!(matches!(
        step(&mut call, &plan),
        Step::BeforeRequest { attempt: 2, .. }
    ));
    call.handle_input(&plan, failed(&late, None));
    assert_eq!(step(&mut call, &plan), Step::Draw);
    call.handle_input(&plan, DRAWN);
    assert_eq!(step(&mut call, &plan), Step::Done);
    let kind = call.finish().err().map(|e| e.kind());
    assert_eq!(kind, Some(ErrorKind::Timeout));
}

/// Drives a call with every hook and a client provider to the state
/// `inputs` inputs lead to, then ends it.
fn ended_after(inputs: usize) -> (Step, Answer) {
    let setup = Setup::new().hooks().client_provider();
    let plan = setup.plan();
    let mut call = Call::new();
    let script: Vec<Input<Answer>> = vec![
        Input::Provided(Vec::new()),
        Input::BeforeRequest(Vec::new()),
        failed(&busy(), None),
        DRAWN,
        Input::RetryHookDone { stop: false },
    ];
    for input in script.into_iter().take(inputs) {
        step(&mut call, &plan);
        call.handle_input(&plan, input);
    }
    let before = step(&mut call, &plan);
    let aborted = Error::new(ErrorKind::Aborted, "the call was aborted");
    call.handle_input(&plan, Input::End(Err(aborted)));
    assert_eq!(step(&mut call, &plan), Step::Done);
    // Nothing after the end changes it.
    call.handle_input(&plan, Input::End(Ok("after the end")));
    call.handle_input(&plan, Input::Paused);
    call.handle_input(&plan, good("late", ResponseAction::Keep));
    (before, call.finish())
}

#[test]
fn an_abort_in_every_state_ends_the_call_with_the_abort() {
    let mut states = Vec::new();
    for inputs in 0..=5 {
        let (before, finished) = ended_after(inputs);
        let kind = finished.err().map(|e| e.kind());
        assert_eq!(kind, Some(ErrorKind::Aborted), "after {before:?}");
        states.push(std::mem::discriminant(&before));
    }
    // Each of the six states was met: providing, beforeRequest, sending,
    // the draw, beforeRetry, the pause.
    states.dedup();
    assert_eq!(states.len(), 6);
}

#[test]
fn headers_each_over_the_one_before_and_beforerequest_s_over_all() {
    let mut setup = Setup::new().hooks().client_provider();
    setup.providers[1] = true;
    setup.client_headers = pairs(&[("x-a", "client"), ("x-b", "client"), ("x-c", "client")]);
    setup.call_headers = pairs(&[("X-B", "call"), ("x-c", "call")]);
    let plan = setup.plan();
    let mut call = Call::new();
    assert_eq!(step(&mut call, &plan), Step::Provide(0));
    call.handle_input(&plan, Input::Provided(pairs(&[("x-a", "provider")])));
    assert_eq!(step(&mut call, &plan), Step::Provide(1));
    call.handle_input(&plan, Input::Provided(pairs(&[("x-c", "call provider")])));
    assert!(matches!(step(&mut call, &plan), Step::BeforeRequest { .. }));
    call.handle_input(
        &plan,
        Input::BeforeRequest(pairs(&[("x-d", "hook"), ("accept", "text/html")])),
    );
    let expected = pairs(&[
        ("x-a", "provider"),
        ("X-B", "call"),
        ("x-c", "call provider"),
        ("x-d", "hook"),
        ("Accept", "application/json"),
        ("Content-Type", "application/json"),
    ]);
    match step(&mut call, &plan) {
        Step::Send {
            headers, prepared, ..
        } => {
            let mut sorted = headers.clone();
            sorted.sort_by_key(|(name, _)| name.to_ascii_lowercase());
            let mut expected = expected;
            expected.sort_by_key(|(name, _)| name.to_ascii_lowercase());
            assert_eq!(sorted, expected);
            assert!(!prepared);
        }
        other => panic!("{other:?}"),
    }
}

/// The call failed with the rules' refusal of the header `x-tenant`.
fn assert_refused(finished: Answer) {
    let error = finished.err();
    assert_eq!(error.as_ref().and_then(Error::param), Some("headers"));
    let message = error.as_ref().map(Error::message).unwrap_or_default();
    assert!(message.contains("\"x-tenant\""), "{message}");
}

/// A client whose headers are prepared sends them as they are only where
/// the call adds none: a call's own headers, or its provider's, make the
/// attempt's headers anew.
#[test]
fn a_call_s_headers_or_its_provider_s_go_over_the_prepared_ones() {
    let sent = |setup: &Setup, provided: Option<Pairs>| {
        let plan = setup.plan();
        let mut call = Call::new();
        if let Some(given) = provided {
            assert_eq!(step(&mut call, &plan), Step::Provide(1));
            call.handle_input(&plan, Input::Provided(given));
        }
        match step(&mut call, &plan) {
            Step::Send {
                headers, prepared, ..
            } => (headers, prepared),
            other => panic!("{other:?}"),
        }
    };
    let mut own = Setup::new();
    own.call_headers = pairs(&[("x-call", "1")]);
    let (headers, prepared) = sent(&own, None);
    assert!(
        headers.contains(&("x-call".into(), "1".into())),
        "{headers:?}"
    );
    assert!(
        headers.contains(&("x-client".into(), "c".into())),
        "{headers:?}"
    );
    assert!(!prepared);
    let mut provider = Setup::new();
    provider.providers[1] = true;
    let (headers, prepared) = sent(&provider, Some(pairs(&[("x-given", "2")])));
    assert!(
        headers.contains(&("x-given".into(), "2".into())),
        "{headers:?}"
    );
    assert!(!prepared);
}

#[test]
fn a_header_the_rules_refuse_ends_the_call_before_anything_is_sent() {
    let bad = pairs(&[("x-tenant", "line\nbreak")]);
    // The call's own.
    let mut setup = Setup::new();
    setup.call_headers = bad.clone();
    let plan = setup.plan();
    let mut call = Call::new();
    assert_eq!(step(&mut call, &plan), Step::Done);
    assert_refused(call.finish());
    // A provider's.
    let setup = Setup::new().client_provider();
    let plan = setup.plan();
    let mut call = Call::new();
    step(&mut call, &plan);
    call.handle_input(&plan, Input::Provided(bad.clone()));
    assert_eq!(step(&mut call, &plan), Step::Done);
    assert_refused(call.finish());
    // beforeRequest's.
    let setup = Setup::new().hooks();
    let plan = setup.plan();
    let mut call = Call::new();
    step(&mut call, &plan);
    call.handle_input(&plan, Input::BeforeRequest(bad));
    assert_eq!(step(&mut call, &plan), Step::Done);
    assert_refused(call.finish());
}

#[test]
fn no_credential_reaches_a_hook_and_every_attempt_s_joins_the_secrets() {
    let setup = Setup::new().hooks().client_provider();
    let plan = setup.plan();
    let mut call = Call::new();
    step(&mut call, &plan);
    let bearer = format!("Bearer {TOKEN}");
    call.handle_input(&plan, Input::Provided(pairs(&[("Authorization", &bearer)])));
    match step(&mut call, &plan) {
        Step::BeforeRequest { headers, .. } => {
            assert!(headers.contains(&("Authorization".into(), REDACTED.into())));
        }
        other => panic!("{other:?}"),
    }
    call.handle_input(
        &plan,
        Input::BeforeRequest(pairs(&[("x-api-key", "key-1234")])),
    );
    assert!(call.secrets().iter().any(|s| s == TOKEN));
    assert!(call.secrets().iter().any(|s| s == "key-1234"));
    // A response echoing the token, JSON-escaped and percent-encoded, and
    // a cookie: none of it reaches afterResponse.
    let echoed = pairs(&[
        ("X-Echo", &TOKEN.replace('/', "\\/")),
        ("x-echo-url", &TOKEN.replace('+', "%2B").replace('/', "%2F")),
        ("Set-Cookie", "session=abc"),
    ]);
    let info = call.response_info(200, &echoed, Duration::from_millis(5));
    let shown = info.map(|info| info.response_headers).unwrap_or_default();
    assert_eq!(
        shown,
        pairs(&[
            ("x-echo", REDACTED),
            ("x-echo-url", REDACTED),
            ("set-cookie", REDACTED),
        ])
    );
    // A second attempt's new credential joins the first's.
    call.handle_input(&plan, failed(&busy(), None));
    call.handle_input(&plan, DRAWN);
    call.handle_input(&plan, Input::RetryHookDone { stop: false });
    call.handle_input(&plan, Input::Paused);
    call.handle_input(
        &plan,
        Input::Provided(pairs(&[("Authorization", "Bearer second-token")])),
    );
    call.handle_input(&plan, Input::BeforeRequest(Vec::new()));
    assert!(call.secrets().iter().any(|s| s == TOKEN));
    assert!(call.secrets().iter().any(|s| s == "second-token"));
}

#[test]
fn an_input_the_machine_is_not_waiting_for_changes_nothing() {
    let setup = Setup::new().hooks();
    let plan = setup.plan();
    let mut call = Call::new();
    let before = step(&mut call, &plan);
    for input in [
        Input::Provided(Vec::new()),
        good("early", ResponseAction::Keep),
        DRAWN,
        Input::RetryHookDone { stop: false },
        Input::Paused,
    ] {
        call.handle_input(&plan, input);
        assert_eq!(step(&mut call, &plan), before);
    }
    let param = call
        .finish()
        .err()
        .and_then(|e| e.param().map(str::to_string));
    assert_eq!(
        param.as_deref(),
        Some("call"),
        "finished before it was over"
    );
}

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use proptest::prelude::*;

    use super::*;

    /// One event a driver may tell, whatever the machine waits for (an
    /// [`Input`] that proptest can show and copy).
    #[derive(Clone, Debug)]
    enum Event {
        Provided(Pairs),
        BeforeRequest(Pairs),
        Settled(Answer, Outcome, ResponseAction),
        Drawn(f64, f64),
        RetryHookDone,
        Paused,
        End,
    }

    impl Event {
        fn input(self) -> Input<Answer> {
            match self {
                Event::Provided(given) => Input::Provided(given),
                Event::BeforeRequest(given) => Input::BeforeRequest(given),
                Event::Settled(answer, outcome, action) => Input::Settled {
                    answer,
                    outcome,
                    action,
                },
                Event::Drawn(random, date_ms) => Input::Drawn { random, date_ms },
                Event::RetryHookDone => Input::RetryHookDone { stop: false },
                Event::Paused => Input::Paused,
                Event::End => Input::End(Ok("ended")),
            }
        }
    }

    /// One turn of a driver: most often what the machine waits for (a
    /// provider's or a hook's headers, an attempt's outcome, a draw), made
    /// of this turn's random parts; else any event at all.
    #[derive(Clone, Debug)]
    struct Turn {
        cooperates: bool,
        headers: Pairs,
        settled: Event,
        drawn: Event,
        any: Event,
    }

    impl Turn {
        fn input(self, step: &Step) -> Input<Answer> {
            if !self.cooperates {
                return self.any.input();
            }
            match step {
                Step::Provide(_) => Input::Provided(self.headers),
                Step::BeforeRequest { .. } => Input::BeforeRequest(self.headers),
                Step::Send { .. } => self.settled.input(),
                Step::Draw => self.drawn.input(),
                Step::BeforeRetry { .. } => Input::RetryHookDone { stop: false },
                Step::Pause(_) => Input::Paused,
                Step::Done => self.any.input(),
            }
        }
    }

    fn turn() -> impl Strategy<Value = Turn> {
        (0u8..8, headers(), settled(), drawn(), event()).prop_map(
            |(cooperates, headers, settled, drawn, any)| Turn {
                cooperates: cooperates < 7,
                headers,
                settled,
                drawn,
                any,
            },
        )
    }

    /// Up to two headers: credentials, a plain one, one the rules refuse.
    fn headers() -> impl Strategy<Value = Pairs> {
        let header = prop_oneof![
            Just(("Authorization".to_string(), format!("Bearer {TOKEN}"))),
            Just(("x-api-key".to_string(), TOKEN.to_string())),
            Just(("x-plain".to_string(), "v".to_string())),
            Just(("x-bad".to_string(), "a\nb".to_string())),
        ];
        prop::collection::vec(header, 0..3)
    }

    /// An attempt's outcome: good, final, or a failure the rule judges.
    fn settled() -> impl Strategy<Value = Event> {
        let kind = prop_oneof![
            Just(ErrorKind::Network),
            Just(ErrorKind::Timeout),
            Just(ErrorKind::Http),
            Just(ErrorKind::Api),
            Just(ErrorKind::Aborted),
        ];
        let action = prop_oneof![Just(ResponseAction::Keep), Just(ResponseAction::Retry)];
        let retry_after = prop::option::of("[0-9]{1,2}");
        (kind, 400u16..600, 0u8..3, action, retry_after).prop_map(
            |(kind, status, what, action, retry_after)| {
                let error = Error::new(kind, "failed").with_http_status(status);
                match what {
                    0 => Event::Settled(Ok("good"), Outcome::Good, action),
                    1 => Event::Settled(Err(error), Outcome::Final, action),
                    _ => {
                        let judged = Judged::of(&error);
                        let outcome = Outcome::Failed {
                            judged,
                            retry_after,
                        };
                        Event::Settled(Err(error), outcome, action)
                    }
                }
            },
        )
    }

    fn drawn() -> impl Strategy<Value = Event> {
        (0f64..1.0, 0f64..4e12).prop_map(|(random, date_ms)| Event::Drawn(random, date_ms))
    }

    fn event() -> impl Strategy<Value = Event> {
        prop_oneof![
            headers().prop_map(Event::Provided),
            headers().prop_map(Event::BeforeRequest),
            settled(),
            drawn(),
            Just(Event::RetryHookDone),
            Just(Event::Paused),
            Just(Event::End),
        ]
    }

    fn setup(hooks: bool, provider: bool, retries: u32) -> Setup {
        let mut setup = Setup::new();
        if hooks {
            setup = setup.hooks();
        }
        if provider {
            setup = setup.client_provider();
        }
        setup.policy.limit = Some(retries);
        setup
    }

    proptest! {
        /// No sequence of events panics; no more retries are made than
        /// the policy allows (the rule's `limit`, a hook's `max(1, limit)`,
        /// counted apart); and no
        /// credential value is in anything the machine shows. Most turns
        /// answer what the machine waits for, so that calls get far.
        #[test]
        fn any_sequence_of_events_keeps_the_laws(
            hooks in any::<bool>(),
            provider in any::<bool>(),
            retries in 0u32..4,
            turns in prop::collection::vec(turn(), 0..40),
        ) {
            let setup = setup(hooks, provider, retries);
            let plan = setup.plan();
            let mut call = Call::new();
            let mut attempts = 0;
            let (mut by_rule, mut by_hook) = (0, 0);
            let allowed = retries + retries.max(1);
            for turn in turns {
                let now = step(&mut call, &plan);
                let shown = match &now {
                    Step::Send { resend_count, .. } => {
                        prop_assert!(*resend_count <= allowed, "resend {resend_count} of {allowed}");
                        Vec::new()
                    }
                    Step::BeforeRequest { headers, .. } => headers.clone(),
                    _ => Vec::new(),
                };
                for (_, value) in &shown {
                    prop_assert!(!value.contains("tok+en"), "{shown:?}");
                }
                let echoed = pairs(&[("x-echo", TOKEN)]);
                if let Some(info) = call.response_info(200, &echoed, Duration::ZERO) {
                    let leaked = info.response_headers.iter().any(|(_, v)| v.contains("tok+en"));
                    prop_assert!(!leaked || !call.secrets().iter().any(|s| s.contains("tok+en")));
                    for (_, value) in &info.request.headers {
                        prop_assert!(!value.contains("tok+en"));
                    }
                }
                let input = turn.input(&now);
                // An attempt's outcome the machine takes: one attempt made.
                if matches!((&now, &input), (Step::Send { .. }, Input::Settled { .. })) {
                    attempts += 1;
                    prop_assert!(attempts <= allowed + 1, "{attempts} attempts for {retries} retries");
                }
                if let Some(retry) = call.handle_input(&plan, input) {
                    match retry.judged {
                        Some(_) => by_rule += 1,
                        None => by_hook += 1,
                    }
                    prop_assert!(by_rule <= retries, "{by_rule} of the rule's {retries}");
                    prop_assert!(by_hook <= retries.max(1), "{by_hook} of a hook's {retries}");
                }
            }
            let _ = call.finish();
        }
    }
}
