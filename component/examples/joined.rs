//! Joined calls of the library under `wstd::runtime::block_on`, on
//! wasm32-wasip2: the test that the WASI transport waits without blocking
//! (tests/component/joined.test.mjs runs it in the wasmtime CLI against the
//! reference server started with `--faults`).
//!
//! ```text
//! wasmtime run -S http joined.wasm SCENARIO SERVER_URL KEY
//! ```
//!
//! prints one line of JSON: the events in the order they happened, each
//! call's outcome, and the milliseconds the calls took on the monotonic
//! clock (a figure for the record: the verdict is the order). The events
//! of call `i`: `sent i` (its `beforeRequest` hook: the request goes out),
//! `answered i` (its `afterResponse` hook: the response headers came back),
//! `ended i KIND` (its future finished: `ok` or the error's kind), `gave up
//! i` (its future was dropped unfinished). Call `i` goes to
//! `/faults/{scenario}/{KEY}-{i}`; `/faults/slow` answers after the
//! `ms` of its query.
//!
//! - `overlap`: 4 calls answered after 1 s each, joined. Overlapping, every
//!   request is sent before the first answer comes back.
//! - `timeout`: a call answered after 1 s joined with one whose server
//!   answers after 30 s and whose timeout is 300 ms. Overlapping, the
//!   second ends with a timeout while the first still waits, and the
//!   first then succeeds.
//! - `dropped`: a call to `/faults/held` (answered after 30 s) with no
//!   timeout, given up after 300 ms (its future dropped mid-wait: its
//!   resources go, children first, and its request with them), then a
//!   call on the same instance, which succeeds; then, while the program
//!   still runs, the server's own record of requests whose connection
//!   closed before the answer (`closed`: 1 when the drop cancelled the
//!   request, 0 while it is still open). `/faults/held` is under `held`.
//! - `hooks`: hooks that change an attempt, one call each, in turn: to
//!   `/faults/token-expired` (401 unless `Bearer fresh`), whose async
//!   `after_response` refreshes the header provider's token after a 401
//!   and asks for the attempt again; to `/faults/request-ids`, whose
//!   `before_request` gives attempt `n` `x-request-id: r-n` (the answer's
//!   `requestId`, after two 503s); to `/faults/response-headers`, whose
//!   `after_response` records the response's headers as hooks see them.

use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;

use futures_lite::future::zip;
use serde_json::{json, Value};
use user_management_client::{ClientOptions, Hooks, ParamsIn, ResponseAction, UsersClient};
use wstd::future::FutureExt;
use wstd::time::{Duration, Instant};

/// What happened, in order.
type Events = Rc<RefCell<Vec<String>>>;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, scenario, server, key] = &args[..] else {
        eprintln!("usage: joined.wasm overlap|timeout|dropped|hooks SERVER_URL KEY");
        std::process::exit(2);
    };
    let events = Events::default();
    let run = Run {
        server,
        scenario,
        key,
        events: &events,
    };
    let started = Instant::now();
    let outcomes = wstd::runtime::block_on(async {
        match scenario.as_str() {
            "overlap" => overlap(&run).await,
            "timeout" => timeout(&run).await,
            "dropped" => dropped(&run).await,
            "hooks" => hooks(&run).await,
            other => {
                eprintln!("unknown scenario {other:?}");
                std::process::exit(2);
            }
        }
    });
    let elapsed: std::time::Duration = started.elapsed().into();
    let events = events.borrow().clone();
    println!(
        "{}",
        json!({
            "scenario": scenario,
            "events": events,
            "outcomes": outcomes,
            "elapsedMs": elapsed.as_millis() as u64,
        })
    );
}

/// A scenario's server, key and event log.
struct Run<'a> {
    server: &'a str,
    scenario: &'a str,
    key: &'a str,
    events: &'a Events,
}

impl Run<'_> {
    /// A client for call `i` to the fault route `route` (`slow`, `ok`),
    /// which logs its attempts, with no retry (one attempt each).
    fn client(&self, i: usize, route: &str, timeout: std::time::Duration) -> UsersClient {
        let (sent, answered) = (Rc::clone(self.events), Rc::clone(self.events));
        let options =
            ClientOptions::new(format!("{}/faults/{route}/{}-{i}", self.server, self.key))
                .params_in(ParamsIn::Query)
                .timeout(timeout)
                .retries(0)
                .hooks(
                    Hooks::default()
                        .before_request(move |_| sent.borrow_mut().push(format!("sent {i}")))
                        .after_response(move |_| {
                            answered.borrow_mut().push(format!("answered {i}"))
                        }),
                );
        match UsersClient::new(options) {
            Ok(client) => client,
            Err(error) => panic!("{} client {i}: {error}", self.scenario),
        }
    }

    /// Call `i`: a list to `/faults/slow`, answered after `ms`
    /// milliseconds; logs its end.
    fn slow(
        &self,
        i: usize,
        ms: &'static str,
        timeout: std::time::Duration,
    ) -> impl Future<Output = Value> + '_ {
        let client = self.client(i, "slow", timeout);
        async move {
            let outcome = client
                .list_users()
                .param("ms", ms)
                .send::<Value>()
                .await
                .map(|envelope| envelope.status);
            self.ended(i, outcome)
        }
    }

    /// Logs the end of call `i` and gives its outcome.
    fn ended(&self, i: usize, outcome: Result<i64, user_management_client::Error>) -> Value {
        let (kind, outcome) = match outcome {
            Ok(status) => ("ok".to_string(), json!({ "ok": status })),
            Err(error) => (
                error.kind().to_string(),
                json!({ "error": error.kind().to_string(), "message": error.message() }),
            ),
        };
        self.events.borrow_mut().push(format!("ended {i} {kind}"));
        outcome
    }
}

/// The default timeout, longer than any answer here.
const LONG: std::time::Duration = std::time::Duration::from_secs(10);

/// 4 calls answered after 1 s each, joined.
async fn overlap(run: &Run<'_>) -> Vec<Value> {
    let ((a, b), (c, d)) = zip(
        zip(run.slow(0, "1000", LONG), run.slow(1, "1000", LONG)),
        zip(run.slow(2, "1000", LONG), run.slow(3, "1000", LONG)),
    )
    .await;
    vec![a, b, c, d]
}

/// A call answered after 1 s, joined with one timing out after 300 ms on a
/// server that answers after 30 s.
async fn timeout(run: &Run<'_>) -> Vec<Value> {
    let short = std::time::Duration::from_millis(300);
    let (slow, never) = zip(run.slow(0, "1000", LONG), run.slow(1, "30000", short)).await;
    vec![slow, never]
}

/// A call given up after 300 ms (its future dropped), then another, then
/// the server's record of the first's connection.
async fn dropped(run: &Run<'_>) -> Vec<Value> {
    // No timeout of its own: only the drop can end its request before the
    // server answers after 30 s (with a transport that blocks, the 300 ms
    // never get their turn).
    let held = run.client(0, "held", std::time::Duration::ZERO);
    let first = async {
        let outcome = held
            .count_users()
            .send()
            .await
            .map(|envelope| envelope.status);
        run.ended(0, outcome)
    }
    .timeout(Duration::from_millis(300))
    .await;
    let first = first.unwrap_or_else(|_| {
        run.events.borrow_mut().push("gave up 0".to_string());
        json!({ "gaveUp": true })
    });
    let client = run.client(1, "ok", LONG);
    let outcome = client
        .count_users()
        .send()
        .await
        .map(|envelope| envelope.status);
    let second = run.ended(1, outcome);
    vec![first, second, json!({ "closed": closed(run, 0).await })]
}

/// Hooks that change an attempt, one call each (see the module's docs).
async fn hooks(run: &Run<'_>) -> Vec<Value> {
    let base =
        |scenario: &str, i: usize| format!("{}/faults/{scenario}/{}-{i}", run.server, run.key);
    let token = Rc::new(RefCell::new("stale".to_string()));
    let (read, refresh) = (Rc::clone(&token), Rc::clone(&token));
    let refreshing = ClientOptions::new(base("token-expired", 0))
        .header_provider(move || {
            let value = format!("Bearer {}", read.borrow());
            async move { vec![("Authorization".to_string(), value)] }
        })
        .hooks(Hooks::default().after_response(move |info| {
            let refresh = Rc::clone(&refresh);
            let refused = info.http_status == 401;
            async move {
                wstd::task::sleep(Duration::from_millis(10)).await;
                if !refused {
                    return ResponseAction::Keep;
                }
                *refresh.borrow_mut() = "fresh".to_string();
                ResponseAction::Retry
            }
        }));
    let refreshed = match UsersClient::new(refreshing) {
        Ok(client) => client.count_users().send().await,
        Err(error) => Err(error),
    };
    let refreshed = match refreshed {
        Ok(envelope) => json!({ "ok": envelope.status }),
        Err(error) => json!({ "error": error.to_string() }),
    };

    let ids = ClientOptions::new(base("request-ids", 1))
        .hooks(Hooks::default().before_request(|info| {
            vec![("x-request-id".to_string(), format!("r-{}", info.attempt))]
        }))
        .retries(2);
    let id = match UsersClient::new(ids) {
        Ok(client) => client
            .list_users()
            .send::<Value>()
            .await
            .map(|envelope| envelope.result["requestId"].clone()),
        Err(error) => Err(error),
    };
    let id = id.unwrap_or_else(|error| json!({ "error": error.to_string() }));

    let seen = Rc::new(RefCell::new(Vec::new()));
    let kept = Rc::clone(&seen);
    let token = "t0k+en/with=signs-and-more-than-sixty-four-characters-0123456789-abcdefgh";
    let watched = ClientOptions::new(base("response-headers", 2))
        .header("Authorization", format!("Bearer {token}"))
        .hooks(Hooks::default().after_response(move |info| {
            kept.borrow_mut().extend(info.response_headers.clone());
        }));
    if let Ok(client) = UsersClient::new(watched) {
        let _ = client.count_users().send().await;
    }
    let headers: serde_json::Map<String, Value> = seen
        .borrow()
        .iter()
        .map(|(n, v)| (n.clone(), json!(v)))
        .collect();
    vec![refreshed, id, Value::Object(headers)]
}

/// How many requests of call `i` to `/faults/held` the server saw closed
/// before its answer, asked up to 250 times 20 ms apart until it is one
/// (a request still open stays at 0 for its 30 s).
async fn closed(run: &Run<'_>, i: usize) -> u64 {
    let url = format!("{}/faults/held/{}-{i}/closed", run.server, run.key);
    let mut closed = 0;
    for _ in 0..250 {
        closed = closed_now(&url).await;
        if closed > 0 {
            break;
        }
        wstd::task::sleep(Duration::from_millis(20)).await;
    }
    closed
}

/// One `GET` of the server's `closed` record (0 if it cannot be read).
async fn closed_now(url: &str) -> u64 {
    let Ok(request) = wstd::http::Request::get(url).body(wstd::http::Body::empty()) else {
        return 0;
    };
    let Ok(mut response) = wstd::http::Client::new().send(request).await else {
        return 0;
    };
    let Ok(text) = response.body_mut().str_contents().await else {
        return 0;
    };
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|record| record["closed"].as_u64())
        .unwrap_or(0)
}
