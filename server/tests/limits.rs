//! Slow and greedy clients: half-sent headers, idle connections and
//! half-sent bodies are closed after their timeouts, and the caps on
//! connections and on requests in flight hold (503 with `Retry-After`).

mod common;

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::Server;

/// The header and body timeouts these tests start the server with, plus
/// slack for a loaded machine.
const TIMEOUT: Duration = Duration::from_secs(2);
const SLACK: Duration = Duration::from_secs(4);

/// A server with [`TIMEOUT`] for heads and bodies.
fn start_with_timeouts() -> Server {
    Server::start_with(&["--header-timeout", "2", "--body-timeout", "2"])
}

fn connect(server: &Server) -> TcpStream {
    let stream = TcpStream::connect(&server.addr).expect("connect");
    stream
        .set_read_timeout(Some(TIMEOUT + SLACK + SLACK))
        .expect("timeout");
    stream
}

/// Reads until the server closes; returns what came and when it closed.
fn read_until_closed(stream: &mut TcpStream) -> (Vec<u8>, Duration) {
    let started = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return (got, started.elapsed()),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return (got, started.elapsed()),
            Err(e) => panic!(
                "still open after {:?} ({e}); got {:?}",
                started.elapsed(),
                String::from_utf8_lossy(&got)
            ),
        }
    }
}

/// Statuses of the responses in `raw`.
fn statuses(raw: &[u8]) -> Vec<u16> {
    String::from_utf8_lossy(raw)
        .match_indices("HTTP/1.1 ")
        .filter_map(|(at, _)| String::from_utf8_lossy(&raw[at + 9..at + 12]).parse().ok())
        .collect()
}

#[test]
fn half_sent_headers_are_closed_within_the_header_timeout() {
    let server = start_with_timeouts();
    let mut stream = connect(&server);
    stream
        .write_all(b"POST /api/users/count HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        .unwrap();
    let (_, after) = read_until_closed(&mut stream);
    assert!(after <= TIMEOUT + SLACK, "closed after {after:?}");
}

#[test]
fn idle_keep_alive_connections_are_closed() {
    let server = start_with_timeouts();
    let mut stream = connect(&server);
    stream
        .write_all(
            b"POST /api/users/count HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n",
        )
        .unwrap();
    let (raw, after) = read_until_closed(&mut stream);
    assert_eq!(statuses(&raw), [200]);
    assert!(after <= TIMEOUT + SLACK, "closed after {after:?}");
}

#[test]
fn half_sent_bodies_get_a_408_within_the_body_timeout() {
    let server = start_with_timeouts();
    let mut stream = connect(&server);
    stream
        .write_all(
            b"POST /api/users/count HTTP/1.1\r\nHost: 127.0.0.1\r\n\
              Origin: http://127.0.0.1:3000\r\n\
              Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"active\":",
        )
        .unwrap();
    let (raw, after) = read_until_closed(&mut stream);
    assert!(after <= TIMEOUT + SLACK, "closed after {after:?}");
    let text = String::from_utf8_lossy(&raw);
    assert_eq!(statuses(&raw), [408], "{text}");
    assert!(text.contains(r#""status":408"#), "{text}");
    assert!(
        text.to_ascii_lowercase()
            .contains("access-control-allow-origin: http://127.0.0.1:3000"),
        "{text}"
    );
}

/// Starts a request whose body never completes: it stays in flight.
fn hold_in_flight(server: &Server) -> TcpStream {
    let mut stream = connect(server);
    stream
        .write_all(
            b"POST /api/users/count HTTP/1.1\r\nHost: 127.0.0.1\r\n\
              Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
        )
        .unwrap();
    stream
}

#[test]
fn requests_beyond_the_in_flight_cap_get_a_503_with_retry_after() {
    let server = Server::start_with(&["--max-in-flight", "2"]);
    let held = [hold_in_flight(&server), hold_in_flight(&server)];
    std::thread::sleep(Duration::from_millis(300));
    let busy = server.request(
        "POST",
        "/api/users/count",
        &[("Origin", "http://localhost:3000")],
        b"",
    );
    busy.assert_error(503, "in flight");
    assert_eq!(busy.header("retry-after"), Some("1"));
    assert_eq!(
        busy.header("access-control-allow-origin"),
        Some("http://localhost:3000")
    );
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let response = server.post_empty("/api/users/count");
        if response.status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "still {}", response.status);
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn connections_beyond_the_cap_wait_for_a_free_one() {
    let server = Server::start_with(&["--max-connections", "2"]);
    let first = connect(&server);
    let _second = connect(&server);
    std::thread::sleep(Duration::from_millis(300));
    let mut third = connect(&server);
    third
        .write_all(
            b"POST /api/users/count HTTP/1.1\r\nHost: 127.0.0.1\r\n\
              Connection: close\r\nContent-Length: 0\r\n\r\n",
        )
        .unwrap();
    third
        .set_read_timeout(Some(Duration::from_millis(700)))
        .unwrap();
    let mut buf = [0u8; 64];
    let early = third.read(&mut buf);
    assert!(
        early
            .as_ref()
            .is_err_and(|e| matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)),
        "answered beyond the cap: {early:?}"
    );
    drop(first);
    third
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let (raw, _) = read_until_closed(&mut third);
    assert_eq!(statuses(&raw), [200]);
}

/// Resident memory of a process, from /proc.
#[cfg(target_os = "linux")]
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

#[cfg(target_os = "linux")]
#[test]
fn a_thousand_unfinished_bodies_stay_within_the_body_memory_cap() {
    let server = Server::start();
    let before = rss_kib(server.pid());
    let chunk = vec![b'a'; 60 * 1024];
    let mut streams = Vec::new();
    for _ in 0..1000 {
        let Ok(mut stream) = TcpStream::connect(&server.addr) else {
            continue;
        };
        stream
            .set_write_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        let _ = stream.write_all(
            b"POST /api/users/count HTTP/1.1\r\nHost: 127.0.0.1\r\n\
              Content-Type: application/json\r\nContent-Length: 65000\r\n\r\n",
        );
        let _ = stream.write_all(&chunk);
        streams.push(stream);
    }
    std::thread::sleep(Duration::from_millis(500));
    let grown = rss_kib(server.pid()).saturating_sub(before);
    eprintln!("resident memory grew by {grown} KiB");
    // The bodies held at once are capped at 16 MiB, plus buffers and tasks;
    // without the cap, the 1,000 bodies alone would be about 60 MB.
    assert!(grown < 40 * 1024, "grew by {grown} KiB");
    drop(streams);
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.post_empty("/api/users/count").status != 200 {
        assert!(Instant::now() < deadline, "still refused");
        std::thread::sleep(Duration::from_millis(50));
    }
}
