//! The harness of the native tests (`tests/native_client.rs`,
//! `tests/native_limits.rs`): the reference server, started per test, and
//! what its fault routes record.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// The reference server on a free loopback port, killed when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the server built beside this test (`target/debug`), with its
/// fault routes and 1000 seeded users.
pub fn server() -> Server {
    start(&["--faults"])
}

/// The server without its fault routes: it keeps connections open between
/// answers (in fault mode it closes each), so a client reuses them.
pub fn keep_alive_server() -> Server {
    start(&[])
}

fn start(extra: &[&str]) -> Server {
    let exe = std::env::current_exe().expect("test path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target dir");
    let bin = dir.join(format!(
        "user-management-server{}",
        std::env::consts::EXE_SUFFIX
    ));
    assert!(
        bin.exists(),
        "{} is missing: run `cargo build -p user-management-server` first",
        bin.display()
    );
    let mut child = Command::new(&bin)
        .args([
            "--bind",
            "127.0.0.1:0",
            "--db",
            ":memory:",
            "--seed",
            "1000",
        ])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the server");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("read the server's first line");
    let url = line
        .trim()
        .strip_prefix("Listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    Server { child, url }
}

impl Server {
    /// What a fault route recorded for `scenario` and `key`: `attempts`
    /// (requests received) or `closed` (requests whose client closed the
    /// connection before the answer).
    pub async fn recorded(&self, scenario: &str, key: &str, what: &str) -> u64 {
        let url = format!("{}/faults/{scenario}/{key}/{what}", self.url);
        let text = reqwest::get(&url)
            .await
            .and_then(|response| response.error_for_status())
            .expect("the fault route answers")
            .text()
            .await
            .expect("a body");
        let body: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        body[what].as_u64().expect("a count")
    }
}
