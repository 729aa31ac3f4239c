//! The accept loop: HTTP/1.1 connections through hyper with a header-read
//! timeout (which also closes idle keep-alive connections), at most
//! `max_connections` of them at once (more wait in the listen queue until
//! one closes), and a graceful shutdown. hyper's header-count limit is set
//! above the server's own, so `limits::head` answers with an envelope.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::cli::Limits;

/// How long in-flight requests may take to finish after a shutdown signal.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Pause after a failed accept (out of file descriptors, for example), so
/// the loop does not spin while the condition lasts.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Serves `app` on `listener` until `stop` resolves, then lets open
/// requests finish for up to [`SHUTDOWN_GRACE`].
pub async fn run(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    stop: impl Future<Output = ()>,
) {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_headers(crate::limits::HYPER_MAX_HEADERS)
        .keep_alive(true);
    let connections = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&connections).acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = &mut stop => break,
        };
        let tcp = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
                Err(_) => {
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        // Small JSON answers should not wait for Nagle's algorithm.
        let _ = tcp.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let connection = graceful.watch(http.serve_connection(TokioIo::new(tcp), service));
        tokio::spawn(async move {
            // A failed connection (reset, timed out) concerns only itself.
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown())
        .await
        .is_err()
    {
        eprintln!("shutdown: connections still open after {SHUTDOWN_GRACE:?}, closing");
    }
}
