//! Test harness: runs the real server binary on a free port with an in-memory
//! database and talks to it over a deliberately minimal HTTP/1.1 client, so
//! tests control every header byte (no client-added content types) and see
//! every status code with its body.

#![allow(dead_code)] // Each test binary uses a different subset.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// A running server, killed when dropped.
pub struct Server {
    child: Child,
    /// `host:port` the server listens on.
    pub addr: String,
    dir: tempfile::TempDir,
}

/// A parsed HTTP response.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// First header with this (case-insensitive) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The body parsed as JSON (panics with the body text if it is not).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "body is not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// Asserts an error envelope with this status whose message contains
    /// `needle`; returns the message.
    pub fn assert_error(&self, status: u16, needle: &str) -> String {
        assert_eq!(
            self.status,
            status,
            "body: {}",
            String::from_utf8_lossy(&self.body)
        );
        assert_eq!(self.header("content-type"), Some("application/json"));
        let json = self.json();
        assert_eq!(json["status"], status, "{json}");
        let message = json["result"]["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no result.error in {json}"))
            .to_owned();
        assert!(
            message.contains(needle),
            "{message:?} does not contain {needle:?}"
        );
        message
    }
}

impl Server {
    /// Starts the server with 1000 seeded users and tiny static directories.
    pub fn start() -> Self {
        Self::start_with(&["--seed", "1000"])
    }

    /// Starts the server with extra flags.
    pub fn start_with(extra: &[&str]) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let www = dir.path().join("www");
        let pkg = dir.path().join("pkg");
        std::fs::create_dir_all(&www).expect("www dir");
        std::fs::create_dir_all(&pkg).expect("pkg dir");
        std::fs::write(www.join("index.html"), "<!doctype html><title>demo</title>")
            .expect("index");
        std::fs::write(pkg.join("x.wasm"), b"\0asm\x01\0\0\0").expect("wasm");
        std::fs::write(pkg.join("x.js"), "export {};\n").expect("js");

        let mut child = Command::new(env!("CARGO_BIN_EXE_user-management-server"))
            .args(["--bind", "127.0.0.1:0", "--db", ":memory:"])
            .arg("--www")
            .arg(&www)
            .arg("--pkg")
            .arg(&pkg)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn server");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read stdout");
        let Some(url) = line.trim().strip_prefix("Listening on http://") else {
            let mut stderr = String::new();
            if let Some(mut err) = child.stderr.take() {
                let _ = err.read_to_string(&mut stderr);
            }
            let _ = child.kill();
            panic!("unexpected first line {line:?}; stderr: {stderr}");
        };
        Self {
            addr: url.to_owned(),
            child,
            dir,
        }
    }

    /// The folder holding the served `www/` and `pkg/` folders.
    pub fn dir(&self) -> &std::path::Path {
        self.dir.path()
    }

    /// Process id, for signal tests.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits for the process to exit on its own (after a signal).
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let deadline = std::time::Instant::now() + timeout;
        while std::time::Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// Sends one request on a fresh connection and reads the whole response.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Response {
        let mut stream = TcpStream::connect(&self.addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .expect("timeout");
        let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        // A `Host` among `headers` replaces the server's own address.
        if !headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("host"))
        {
            head.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        if !body.is_empty() || method == "POST" {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).expect("write head");
        stream.write_all(body).expect("write body");
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).expect("read response");
        parse_response(&raw)
    }

    /// POST with a JSON body.
    pub fn post_json(&self, path: &str, json: &str) -> Response {
        self.request(
            "POST",
            path,
            &[("Content-Type", "application/json")],
            json.as_bytes(),
        )
    }

    /// POST with a form-encoded body.
    pub fn post_form(&self, path: &str, form: &str) -> Response {
        self.request(
            "POST",
            path,
            &[("Content-Type", "application/x-www-form-urlencoded")],
            form.as_bytes(),
        )
    }

    /// POST without a body (parameters, if any, in `path`'s query string).
    pub fn post_empty(&self, path: &str) -> Response {
        self.request("POST", path, &[], b"")
    }

    /// Count via a JSON body; asserts success.
    pub fn count(&self, json: &str) -> u64 {
        let response = self.post_json("/api/users/count", json);
        assert_eq!(
            response.status,
            200,
            "{}",
            String::from_utf8_lossy(&response.body)
        );
        let body = response.json();
        assert_eq!(body["status"], 200);
        body["result"]["totalUsers"].as_u64().expect("totalUsers")
    }

    /// Every user, via the list endpoint with the largest page size.
    pub fn all_users(&self) -> Vec<Value> {
        let mut users = Vec::new();
        for page in 1.. {
            let response = self.post_json(
                "/api/users",
                &format!(r#"{{"page":{page},"pageSize":500}}"#),
            );
            assert_eq!(response.status, 200);
            let batch = response.json()["result"]["users"]
                .as_array()
                .expect("users")
                .clone();
            if batch.is_empty() {
                break;
            }
            users.extend(batch);
        }
        users
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Splits status line, headers and body; decodes chunked bodies.
fn parse_response(raw: &[u8]) -> Response {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
    let head = std::str::from_utf8(&raw[..split]).expect("ASCII head");
    let mut lines = head.split("\r\n");
    let status_line = lines.next().expect("status line");
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(name, value)| name == "transfer-encoding" && value.contains("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Response {
        status,
        headers,
        body,
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let end = data
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("chunk size line");
        let size_text = std::str::from_utf8(&data[..end]).expect("chunk size");
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .expect("hex size");
        data = &data[end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&data[..size]);
        data = &data[size + 2..];
    }
}
