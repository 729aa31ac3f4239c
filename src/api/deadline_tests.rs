//! An attempt's timeout is one deadline, from its first header provider
//! to its last `after_response`, on WASI through `wasi:clocks` under
//! wstd's reactor (natively: `tests/native_deadline.rs`; in a JS host:
//! the wasm suite's `deadline.rs`): a provider that never settles ends
//! each attempt as `Timeout`, retried by the rule; a `before_retry` that
//! never settles ends the call with the error it was to retry.

use std::cell::Cell;
use std::future::pending;
use std::rc::Rc;
use std::time::Duration;

use crate::{ClientOptions, ErrorKind, HeaderList, Hooks, UsersClient};

#[test]
fn a_provider_that_never_settles_times_out_each_attempt() {
    let calls = Rc::new(Cell::new(0));
    let counted = Rc::clone(&calls);
    let options = ClientOptions::new("http://127.0.0.1:9")
        .timeout(Duration::from_millis(200))
        .retries(1)
        .header_provider(move || {
            counted.set(counted.get() + 1);
            pending::<HeaderList>()
        });
    let client = UsersClient::new(options).expect("client");
    let error = wstd::runtime::block_on(client.count_users().send()).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
    assert_eq!(calls.get(), 2, "one ask per attempt");
}

#[test]
fn a_before_retry_that_never_settles_ends_the_call_with_the_503() {
    let Some(server) = option_env!("USERS_API_URL") else {
        panic!(
            "USERS_API_URL was not set at compile time: run under scripts/with-server.sh --faults"
        );
    };
    let calls = Rc::new(Cell::new(0));
    let counted = Rc::clone(&calls);
    let hooks = Hooks::default().before_retry(move |_| {
        counted.set(counted.get() + 1);
        async { pending::<()>().await }
    });
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    let key = now.map_or(0, |since| since.as_nanos());
    let options = ClientOptions::new(format!("{server}/faults/busy/wasi-deadline-{key}"))
        .timeout(Duration::from_millis(200))
        .retries(2)
        .hooks(hooks);
    let client = UsersClient::new(options).expect("client");
    let error = wstd::runtime::block_on(client.count_users().send()).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Http, "{error}");
    assert_eq!(error.http_status(), Some(503));
    assert_eq!(calls.get(), 1);
}
