//! Command-line flags, parsed by hand: a few flags do not justify a parser
//! crate, and tests need exact exit codes (2 for bad usage).

use std::ffi::OsString;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::time::Duration;

/// Printed for `--help` and after usage errors.
pub const USAGE: &str = "\
Usage: user-management-server [OPTIONS]

Reference server for the User Management API (POST /api/users/count, POST /api/users).

Options:
  --bind ADDR   address to listen on (default 127.0.0.1:8080; port 0 picks a free port)
  --db PATH     SQLite file, created and seeded if needed (default data/users.sqlite3);
                ':memory:' for a throw-away in-memory database
  --seed N      users to seed into an empty database (default 1000, max 1000000)
  --www DIR     static files served at / (default www)
  --pkg DIR     static files served at /pkg/ (default pkg)
  --faults      also serve /faults/{scenario}/{key}/api/users[/count], which
                misbehave on purpose (for the client's tests); never expose
                a server started with it beyond loopback
  --cors-origin ORIGIN
                also let pages from ORIGIN (like https://app.example:8443)
                read the answers; repeatable. The server's own origin and
                http://127.0.0.1, http://localhost and http://[::1] on any
                port always may
  --cors-credentials
                allow credentials (cookies, HTTP auth) for the --cors-origin
                origins only
  --allow-host HOST
                also answer requests whose Host header names HOST (besides
                the bound address and the loopback names); repeatable
  --header-timeout SECS
                close a connection whose request head has not arrived
                within SECS, idle keep-alive connections included (default 30)
  --body-timeout SECS
                answer 408 to a request whose body has not arrived within
                SECS (default 10)
  --max-connections N
                connections served at once; more wait to be accepted
                (default 4096)
  --max-in-flight N
                requests handled at once; more get 503 with Retry-After
                (default 2048)
  -h, --help    print this help

When ready, prints one line to stdout: Listening on http://HOST:PORT";

/// Largest `--seed`: generated phone numbers are unique up to here.
pub const MAX_SEED: u64 = 1_000_000;

/// Largest `--header-timeout` and `--body-timeout`, in seconds.
pub const MAX_TIMEOUT_SECS: u64 = 3600;

/// Largest `--max-connections` and `--max-in-flight`.
pub const MAX_CAP: usize = 1_000_000;

/// Validated settings for one server run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Socket address to bind.
    pub bind: SocketAddr,
    /// Database path or `:memory:`.
    pub db: String,
    /// Users to seed into an empty table.
    pub seed: u64,
    /// Directory served at `/`.
    pub www: PathBuf,
    /// Directory served at `/pkg/`.
    pub pkg: PathBuf,
    /// Whether the fault routes are on.
    pub faults: bool,
    /// Origins allowed besides the server's own and the loopback ones,
    /// as `scheme://host[:port]` in lower case.
    pub cors_origins: Vec<String>,
    /// Whether the listed origins may send credentials.
    pub cors_credentials: bool,
    /// Host names answered besides the bound address and loopback, in
    /// lower case.
    pub allowed_hosts: Vec<String>,
    /// Timeouts and caps against slow and greedy clients.
    pub limits: Limits,
}

/// Timeouts and caps. The defaults leave room for the load tests (1,000
/// requests in flight on as many connections, from a client that may take
/// seconds to come back to a connection on a busy machine).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Time for a request head to arrive, counted from when the connection
    /// opens or its previous answer was sent (so also the idle timeout).
    pub header_timeout: Duration,
    /// Time for a request body to arrive, counted from its handler's start.
    pub body_timeout: Duration,
    /// Connections served at once.
    pub max_connections: usize,
    /// Requests handled at once.
    pub max_in_flight: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(10),
            max_connections: 4096,
            max_in_flight: 2048,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: "data/users.sqlite3".to_owned(),
            seed: 1000,
            www: PathBuf::from("www"),
            pkg: PathBuf::from("pkg"),
            faults: false,
            cors_origins: Vec::new(),
            cors_credentials: false,
            allowed_hosts: Vec::new(),
            limits: Limits::default(),
        }
    }
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Start the server.
    Run(Box<Config>),
    /// Print usage and exit successfully.
    Help,
}

/// Parses the arguments after the program name; `Err` is a usage error.
/// Accepts both `--flag value` and `--flag=value`.
pub fn parse<I: IntoIterator<Item = OsString>>(args: I) -> Result<Command, String> {
    let mut config = Config::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let arg = arg
            .into_string()
            .map_err(|arg| format!("argument is not valid UTF-8: {arg:?}"))?;
        if arg == "-h" || arg == "--help" {
            return Ok(Command::Help);
        }
        if arg == "--faults" {
            config.faults = true;
            continue;
        }
        if arg == "--cors-credentials" {
            config.cors_credentials = true;
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => {
                (flag.to_owned(), Some(value.to_owned()))
            }
            _ => (arg.clone(), None),
        };
        if !matches!(
            flag.as_str(),
            "--bind"
                | "--db"
                | "--seed"
                | "--www"
                | "--pkg"
                | "--cors-origin"
                | "--allow-host"
                | "--header-timeout"
                | "--body-timeout"
                | "--max-connections"
                | "--max-in-flight"
        ) {
            return Err(if flag.starts_with('-') {
                format!("unknown option {flag}")
            } else {
                format!("unexpected argument {flag:?}")
            });
        }
        let value = match inline {
            Some(value) => value,
            None => args
                .next()
                .and_then(|value| value.into_string().ok())
                .ok_or_else(|| format!("{flag} needs a value"))?,
        };
        match flag.as_str() {
            "--bind" => config.bind = parse_bind(&value)?,
            "--db" if value.is_empty() => return Err("--db needs a non-empty path".to_owned()),
            "--db" => config.db = value,
            "--seed" => config.seed = parse_seed(&value)?,
            "--www" => config.www = PathBuf::from(value),
            "--pkg" => config.pkg = PathBuf::from(value),
            "--cors-origin" => config.cors_origins.push(parse_origin(&value)?),
            "--allow-host" => config.allowed_hosts.push(parse_host(&value)?),
            "--header-timeout" => config.limits.header_timeout = parse_secs(&flag, &value)?,
            "--body-timeout" => config.limits.body_timeout = parse_secs(&flag, &value)?,
            "--max-connections" => config.limits.max_connections = parse_cap(&flag, &value)?,
            _ => config.limits.max_in_flight = parse_cap(&flag, &value)?,
        }
    }
    if config.cors_credentials && config.cors_origins.is_empty() {
        return Err("--cors-credentials needs at least one --cors-origin".to_owned());
    }
    Ok(Command::Run(Box::new(config)))
}

fn parse_secs(flag: &str, value: &str) -> Result<Duration, String> {
    match value.parse::<u64>() {
        Ok(n) if (1..=MAX_TIMEOUT_SECS).contains(&n) => Ok(Duration::from_secs(n)),
        _ => Err(format!(
            "{flag}: {value:?} is not a whole number of seconds from 1 to {MAX_TIMEOUT_SECS}"
        )),
    }
}

fn parse_cap(flag: &str, value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if (1..=MAX_CAP).contains(&n) => Ok(n),
        _ => Err(format!(
            "{flag}: {value:?} is not an integer from 1 to {MAX_CAP}"
        )),
    }
}

/// Accepts an origin as browsers send it: `http` or `https`, a host and an
/// optional port, nothing else (no path, no wildcard, not `null`).
fn parse_origin(value: &str) -> Result<String, String> {
    let lower = value.to_ascii_lowercase();
    let valid = lower
        .split_once("://")
        .filter(|(scheme, _)| matches!(*scheme, "http" | "https"))
        .and_then(|(_, authority)| crate::host::split_authority(authority))
        .is_some_and(|(host, _)| is_host_name(host));
    if valid {
        Ok(lower)
    } else {
        Err(format!(
            "--cors-origin: {value:?} is not an origin like https://app.example:8443"
        ))
    }
}

/// Accepts a host name or an IP address, without a port.
fn parse_host(value: &str) -> Result<String, String> {
    let lower = value.to_ascii_lowercase();
    if is_host_name(&lower) {
        Ok(lower)
    } else {
        Err(format!(
            "--allow-host: {value:?} is not a host name like devbox.lan"
        ))
    }
}

/// Letters, digits, dots and hyphens, or a bracketed IPv6 address.
fn is_host_name(host: &str) -> bool {
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return inner.parse::<std::net::Ipv6Addr>().is_ok();
    }
    !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
}

/// Accepts `IP:PORT` or `host:port` (resolved once, first address wins).
fn parse_bind(value: &str) -> Result<SocketAddr, String> {
    if let Ok(addr) = value.parse() {
        return Ok(addr);
    }
    value
        .to_socket_addrs()
        .ok()
        .and_then(|mut addrs| addrs.next())
        .ok_or_else(|| format!("--bind: {value:?} is not an address like 127.0.0.1:8080"))
}

fn parse_seed(value: &str) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(n) if n <= MAX_SEED => Ok(n),
        _ => Err(format!(
            "--seed: {value:?} is not an integer from 0 to {MAX_SEED}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Command, String> {
        parse(args.iter().map(OsString::from))
    }

    #[test]
    fn defaults() {
        assert_eq!(run(&[]).unwrap(), Command::Run(Box::default()));
    }

    #[test]
    fn all_flags_in_both_forms() {
        let Command::Run(config) = run(&[
            "--bind",
            "127.0.0.1:0",
            "--db=:memory:",
            "--seed",
            "5",
            "--www",
            "w",
            "--pkg=p",
        ])
        .unwrap() else {
            panic!("expected run");
        };
        assert_eq!(config.bind.port(), 0);
        assert_eq!(config.db, ":memory:");
        assert_eq!(config.seed, 5);
        assert_eq!(config.www, PathBuf::from("w"));
        assert_eq!(config.pkg, PathBuf::from("p"));
    }

    #[test]
    fn help_and_errors() {
        assert_eq!(run(&["--help"]).unwrap(), Command::Help);
        assert!(run(&["--nope"]).unwrap_err().contains("--nope"));
        assert!(run(&["extra"]).is_err());
        assert!(run(&["--seed"]).unwrap_err().contains("needs a value"));
        assert!(run(&["--seed", "-1"]).is_err());
        assert!(run(&["--seed", "1000001"]).is_err());
        assert!(run(&["--bind", "not an address"]).is_err());
        assert!(run(&["--db", ""]).is_err());
        assert!(run(&["--cors-origin", "*"]).is_err());
        assert!(run(&["--cors-origin", "null"]).is_err());
        assert!(run(&["--cors-origin", "ftp://x.example"]).is_err());
        assert!(run(&["--cors-origin", "https://x.example/"]).is_err());
        assert!(run(&["--cors-origin", "https://u@x.example"]).is_err());
        assert!(run(&["--cors-credentials"]).is_err());
        assert!(run(&["--allow-host", "a b"]).is_err());
        assert!(run(&["--allow-host", "a.example:80"]).is_err());
        assert!(run(&["--header-timeout", "0"]).is_err());
        assert!(run(&["--body-timeout", "3601"]).is_err());
        assert!(run(&["--max-connections", "0"]).is_err());
        assert!(run(&["--max-in-flight", "many"]).is_err());
    }

    #[test]
    fn limits_flags() {
        let Command::Run(config) = run(&[
            "--header-timeout",
            "2",
            "--body-timeout=3",
            "--max-connections",
            "10",
            "--max-in-flight=5",
        ])
        .unwrap() else {
            panic!("expected run");
        };
        assert_eq!(
            config.limits,
            Limits {
                header_timeout: Duration::from_secs(2),
                body_timeout: Duration::from_secs(3),
                max_connections: 10,
                max_in_flight: 5,
            }
        );
    }

    #[test]
    fn cors_and_host_flags_repeat_and_are_lower_cased() {
        let Command::Run(config) = run(&[
            "--cors-origin",
            "https://App.Example:8443",
            "--cors-origin=http://[::1]:3000",
            "--cors-credentials",
            "--allow-host",
            "DevBox.lan",
        ])
        .unwrap() else {
            panic!("expected run");
        };
        assert_eq!(
            config.cors_origins,
            ["https://app.example:8443", "http://[::1]:3000"]
        );
        assert!(config.cors_credentials);
        assert_eq!(config.allowed_hosts, ["devbox.lan"]);
    }
}
