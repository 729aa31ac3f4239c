//! Reference server for the User Management API.
//!
//! Serves `POST /api/users/count` and `POST /api/users` from a seeded SQLite
//! database, their OpenAPI description at `GET /openapi.json`, plus the demo
//! page and the wasm package as static files, so the WebAssembly client can
//! be developed, demonstrated and tested end to end.

#![deny(missing_docs)]

mod body;
mod cli;
mod cors;
mod db;
mod envelope;
mod faults;
mod headers;
mod host;
mod limits;
mod listen;
mod params;
mod routes;
mod seed;
mod static_files;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::process::ExitCode;
use std::sync::Arc;

fn main() -> ExitCode {
    let config = match cli::parse(std::env::args_os().skip(1)) {
        Ok(cli::Command::Run(config)) => *config,
        Ok(cli::Command::Help) => {
            println!("{}", cli::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("error: {message}\n\n{}", cli::USAGE);
            return ExitCode::from(2);
        }
    };
    match start(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Opens the database, then runs the HTTP server until a shutdown signal.
fn start(config: cli::Config) -> Result<(), String> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    // A few more connections than cores: blocking tasks overlap with I/O.
    let pool_size = (threads * 2).clamp(2, 16);
    let (db, report) = db::Db::open(&config.db, config.seed, pool_size)?;
    if report.seeded {
        eprintln!("seeded {} users into {}", report.users, config.db);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(serve(config, Arc::new(db)))
}

async fn serve(config: cli::Config, db: Arc<db::Db>) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(config.bind)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.bind))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    let app = routes::app(db, &config, local);

    // Scripts read this one line to find the URL, so flush it right away.
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "Listening on http://{}", display_addr(local));
    let _ = stdout.flush();
    drop(stdout);

    listen::run(listener, app, config.limits, shutdown_signal()).await;
    Ok(())
}

/// A wildcard bind is reachable via loopback, which is what scripts want.
fn display_addr(addr: SocketAddr) -> SocketAddr {
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::from((Ipv4Addr::LOCALHOST, addr.port()))
        }
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::from((Ipv6Addr::LOCALHOST, addr.port()))
        }
        _ => addr,
    }
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}
