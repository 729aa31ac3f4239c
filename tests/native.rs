//! The crate on a native target (what a server-side render of a Leptos or
//! Dioxus app links): `UsersClient::new` checks its options as usual, and
//! a call made outside a tokio runtime fails at once with a `Validation`
//! error naming `runtime` and saying so, never a panic (`native_client.rs` makes calls on tokio). Also: `Error` is `Send + Sync + 'static` and
//! travels through `?` into the error types Rust apps use; and no credential
//! shows in the `Debug` or `Display` output of the public types.
#![cfg(not(target_arch = "wasm32"))]

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::time::Duration;

use user_management_client::{
    Active, CallOptions, ClientOptions, Count, CountParams, Envelope, Error, ErrorKind, Hooks,
    UsersClient,
};

const _: fn() = || {
    fn send_sync_static<T: Send + Sync + 'static>() {}
    send_sync_static::<Error>();
    send_sync_static::<ErrorKind>();
};

struct NoWake;

impl Wake for NoWake {
    fn wake(self: Arc<Self>) {}
}

/// The outcome of a future that must be ready at its first poll.
fn ready<F: Future>(future: F) -> F::Output {
    let waker = Waker::from(Arc::new(NoWake));
    match pin!(future).poll(&mut Context::from_waker(&waker)) {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("natively a call settles at once"),
    }
}

fn client() -> UsersClient {
    let options = ClientOptions::new("https://api.example.com/v1/")
        .header("x-tenant", "acme")
        .timeout(Duration::from_secs(5))
        .retries(3)
        .header_provider(|| async {
            vec![("Authorization".to_string(), "Bearer t0ken".to_string())]
        })
        .hooks(Hooks::default().before_request(|info| println!("{}", info.url)));
    UsersClient::new(options).expect("good options")
}

#[test]
fn new_checks_the_options_natively() {
    for bad in [
        "",
        "not a url",
        "ftp://x",
        "http://x/?q",
        "http://x/#f",
        "//x",
        "http://u:p@x/",
    ] {
        let error = UsersClient::new(ClientOptions::new(bad)).expect_err(bad);
        assert_eq!(error.kind(), ErrorKind::Validation, "{bad}");
        assert_eq!(error.param(), Some("base_url"), "{bad}");
        assert!(error.message().starts_with("base_url "), "{error}");
    }
    let error =
        UsersClient::new(ClientOptions::new("http://x").header("bad name", "v")).unwrap_err();
    assert_eq!(
        (error.kind(), error.param()),
        (ErrorKind::Validation, Some("headers"))
    );
    let error = UsersClient::new(ClientOptions::new("http://x").header("x", "a\r\nb")).unwrap_err();
    assert_eq!(error.param(), Some("headers"));
}

#[test]
fn outside_tokio_every_call_is_a_network_error_that_says_so() {
    let client = client();
    let params = CountParams {
        active: Some(Active::True),
        ..Default::default()
    };
    let options = CallOptions::default()
        .timeout(Duration::from_secs(1))
        .header("x-id", "1");
    let count: Result<Envelope<Count>, Error> = ready(
        client
            .count_users()
            .params(params.clone())
            .options(options.clone())
            .send(),
    );
    let error = count.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Validation);
    assert_eq!(error.param(), Some("runtime"));
    assert!(!error.is_retryable());
    assert!(error.message().contains("tokio runtime"), "{error}");
    let list: Result<Envelope<serde::de::IgnoredAny>, Error> = ready(client.list_users().send());
    assert_eq!(list.unwrap_err().param(), Some("runtime"));
}

#[test]
fn errors_go_into_the_error_types_rust_apps_use() {
    fn app() -> Result<u64, Box<dyn std::error::Error + Send + Sync>> {
        let count = ready(client().count_users().send())?;
        Ok(count.result.total_users)
    }
    let error = app().unwrap_err();
    assert!(error.to_string().contains("tokio"));
    // Across a thread, as an async runtime on a server moves errors.
    let moved = std::thread::spawn(move || error.to_string())
        .join()
        .unwrap();
    assert!(moved.contains("tokio"));
}

/// A credential header's value, and one of a cookie, in every way a Rust
/// app can print the options, the client and an error.
const TOKEN: &str = "s3cr3t-t0ken";
const COOKIE: &str = "sid=c00kie-value";

fn assert_redacted(what: &str, shown: &str) {
    assert!(
        !shown.contains(TOKEN) && !shown.contains(COOKIE),
        "{what} shows a credential: {shown}"
    );
}

#[test]
fn call_options_debug_shows_no_credential() {
    let options = CallOptions::default()
        .header("Authorization", format!("Bearer {TOKEN}"))
        .header("Cookie", COOKIE)
        .header("X-Request-Id", "42");
    for shown in [format!("{options:?}"), format!("{options:#?}")] {
        assert_redacted("CallOptions", &shown);
        assert!(shown.contains("[REDACTED]"), "{shown}");
        assert!(
            shown.contains("X-Request-Id") && shown.contains("42"),
            "{shown}"
        );
    }
}

#[test]
fn client_options_and_client_debug_show_no_credential() {
    let options = ClientOptions::new("https://api.example.com")
        .header("Authorization", format!("Bearer {TOKEN}"))
        .header("Cookie", COOKIE)
        .header("X-Tenant", "acme");
    for shown in [format!("{options:?}"), format!("{options:#?}")] {
        assert_redacted("ClientOptions", &shown);
        assert!(shown.contains("[REDACTED]"), "{shown}");
        assert!(
            shown.contains("X-Tenant") && shown.contains("acme"),
            "{shown}"
        );
    }
    let client = UsersClient::new(options).expect("good options");
    for shown in [format!("{client:?}"), format!("{client:#?}")] {
        assert_redacted("UsersClient", &shown);
        assert!(shown.contains("[REDACTED]"), "{shown}");
    }
}

#[test]
fn client_options_debug_names_a_header_provider_and_shows_nothing_of_it() {
    let options = ClientOptions::new("https://api.example.com").header_provider(|| async {
        vec![("Authorization".to_string(), "Bearer t0ken".to_string())]
    });
    let shown = format!("{options:?}");
    assert!(
        shown.contains("header_provider: Some(HeaderProvider)"),
        "{shown}"
    );
    assert!(!shown.contains("t0ken"), "{shown}");
}
