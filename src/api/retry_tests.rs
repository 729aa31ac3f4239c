//! The retry policy on WASI, through the Rust API against the reference
//! server's fault routes (natively: `tests/native_retries.rs`; in a JS
//! host: the wasm suite's `retry_policy.rs`): its statuses and limit, a
//! `Retry-After` cut to its longest, `before_retry` returning `false`, and
//! a hook's retry counted apart, so that a token refresh works with
//! `retries(0)`. `after_response` counts the attempts that were answered.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use crate::{ClientOptions, ErrorKind, Hooks, ResponseAction, RetryPolicy, UsersClient};

/// A base URL of the fault `scenario`, under a key of its own.
fn fault(scenario: &str) -> String {
    let Some(server) = option_env!("USERS_API_URL") else {
        panic!(
            "USERS_API_URL was not set at compile time: run under scripts/with-server.sh --faults"
        );
    };
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    let key = now.map_or(0, |since| since.as_nanos());
    format!("{server}/faults/{scenario}/wasi-retries-{key}")
}

/// Hooks counting the answered attempts, and the counter.
fn counting() -> (Hooks, Rc<Cell<u32>>) {
    let answered = Rc::new(Cell::new(0));
    let counted = Rc::clone(&answered);
    let hooks = Hooks::default().after_response(move |_| counted.set(counted.get() + 1));
    (hooks, answered)
}

#[test]
fn a_policys_status_codes_and_limit_decide_the_attempts() {
    let policy = RetryPolicy::default().limit(3).status_codes([503]);
    for (scenario, attempts) in [("busy", 4), ("html-500", 1)] {
        let (hooks, answered) = counting();
        let options = ClientOptions::new(fault(scenario))
            .retry_policy(policy.clone())
            .hooks(hooks);
        let client = UsersClient::new(options).expect("client");
        let error = wstd::runtime::block_on(client.count_users().send()).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Http, "{error}");
        assert_eq!(answered.get(), attempts, "{scenario}");
    }
}

#[test]
fn a_retry_after_longer_than_the_policys_longest_is_cut_to_it() {
    let delays = Rc::new(RefCell::new(Vec::new()));
    let seen = Rc::clone(&delays);
    let hooks = Hooks::default().before_retry(move |info| seen.borrow_mut().push(info.delay));
    let options = ClientOptions::new(fault("retry-after-long"))
        .retry_policy(RetryPolicy::default().max_retry_after(Duration::from_secs(1)))
        .hooks(hooks);
    let client = UsersClient::new(options).expect("client");
    let count = wstd::runtime::block_on(client.count_users().send()).expect("the retry answers");
    assert_eq!(count.result.total_users, 7);
    assert_eq!(*delays.borrow(), [Duration::from_secs(1)]);
}

#[test]
fn before_retry_returning_false_stops_the_retries() {
    let (hooks, answered) = counting();
    let hooks = hooks.before_retry(|_| false);
    let client = UsersClient::new(ClientOptions::new(fault("busy")).hooks(hooks)).expect("client");
    let error = wstd::runtime::block_on(client.count_users().send()).unwrap_err();
    assert_eq!(error.http_status(), Some(503), "{error}");
    assert_eq!(answered.get(), 1);
}

#[test]
fn a_token_refresh_works_with_no_retries_and_a_hook_retries_at_most_max_1_limit() {
    let token = Rc::new(RefCell::new("stale"));
    let (read, refresh) = (Rc::clone(&token), Rc::clone(&token));
    let hooks = Hooks::default().after_response(move |info| {
        if info.http_status != 401 {
            return ResponseAction::Keep;
        }
        *refresh.borrow_mut() = "fresh";
        ResponseAction::Retry
    });
    let options = ClientOptions::new(fault("token-expired"))
        .retries(0)
        .header_provider(move || {
            let value = format!("Bearer {}", read.borrow());
            async move { vec![("Authorization".to_string(), value)] }
        })
        .hooks(hooks);
    let client = UsersClient::new(options).expect("client");
    let count = wstd::runtime::block_on(client.count_users().send()).expect("refreshed");
    assert_eq!(count.result.total_users, 7);
    // A hook that always asks: max(1, 0) retries, then the 401.
    let asked = Rc::new(Cell::new(0));
    let counted = Rc::clone(&asked);
    let hooks = Hooks::default().after_response(move |_| {
        counted.set(counted.get() + 1);
        ResponseAction::Retry
    });
    let options = ClientOptions::new(fault("token-expired"))
        .retries(0)
        .hooks(hooks);
    let client = UsersClient::new(options).expect("client");
    let error = wstd::runtime::block_on(client.count_users().send()).unwrap_err();
    assert_eq!(error.http_status(), Some(401), "{error}");
    assert_eq!(asked.get(), 2);
}
