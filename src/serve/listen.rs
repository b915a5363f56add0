//! The accept loop: HTTP/1.1 connections served by hyper with a bound on
//! their number and a deadline for each request head (axum's own `serve`
//! sets neither).
//!
//! - At most `--max-connections` connections are open: past that, the loop
//!   stops accepting, so a new connection waits in the kernel's listen
//!   queue, unanswered, until one closes (it is not refused).
//! - A connection has `--header-timeout` seconds to send a complete request
//!   head, counted from its opening and again from the end of each answer
//!   (hyper's `header_read_timeout`); then it is closed without an answer.
//!   An idle keep-alive connection is thus closed after the same time.
//! - Hyper reads the stream through [`HeadCheck`] (`head.rs`), which
//!   refuses a head hyper would answer with its own bare status line (too
//!   long, too many headers, not HTTP) with a JSON error instead.
//! - Once `stop` is set (`shutdown.rs`), the loop stops accepting and
//!   closes the listening socket; each connection ends after the request
//!   under way (an idle one at once), and [`serve`] returns when all have
//!   ended, or after `--grace` seconds.

use std::future::poll_fn;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::serve::head::{HeadCheck, MAX_HEAD_BYTES, MAX_HEADERS};
use crate::serve::shutdown::{Stop, stopped};

/// The limits on connections.
#[derive(Debug, Clone, Copy)]
pub struct ConnLimits {
    /// The most open connections.
    pub max_connections: usize,
    /// The time allowed for a request head.
    pub header_timeout: Duration,
    /// The time the open connections have to finish once the server stops.
    pub grace: Duration,
}

/// Serves `app` on `listener` until `stop` is set, then lets the open
/// connections finish for at most `limits.grace`; returns how many were
/// still open then.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnLimits,
    mut stop: Stop,
) -> usize {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        // Above HeadCheck's bounds, which refuse first (with JSON).
        .max_buf_size(2 * MAX_HEAD_BYTES)
        .max_header_size(2 * MAX_HEAD_BYTES)
        .max_headers(MAX_HEADERS);
    let builder = Arc::new(builder);
    loop {
        // Wait for a free place before accepting: over the bound,
        // connections queue in the kernel.
        let permit = tokio::select! {
            permit = Arc::clone(&permits).acquire_owned() => {
                permit.expect("the semaphore is never closed")
            }
            () = stopped(&mut stop) => break,
        };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = stopped(&mut stop) => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors and the like: wait, do not spin.
                crate::serve::log::line(&format!("serve: accepting a connection: {e}"));
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let builder = Arc::clone(&builder);
        let mut stop = stop.clone();
        tokio::spawn(async move {
            // Hyper stops at the end of the stream, which HeadCheck makes
            // at a refused head; errors (a timeout, a reset) end only this
            // connection, without an answer.
            let io = TokioIo::new(HeadCheck::new(stream));
            let mut conn = builder.serve_connection(io, service);
            let mut stopping = false;
            let ended = loop {
                tokio::select! {
                    ended = poll_fn(|cx| conn.poll_without_shutdown(cx)) => break ended,
                    () = stopped(&mut stop), if !stopping => {}
                }
                // The server stops: no keep-alive after the answer under
                // way, and an idle connection closes now.
                stopping = true;
                Pin::new(&mut conn).graceful_shutdown();
            };
            if ended.is_ok() {
                conn.into_parts().io.into_inner().finish().await;
            }
            drop(permit);
        });
    }
    // Stop accepting: new connections are refused by the kernel.
    drop(listener);
    let all = u32::try_from(limits.max_connections).unwrap_or(u32::MAX);
    match tokio::time::timeout(limits.grace, permits.acquire_many(all)).await {
        Ok(_) => 0,
        Err(_) => limits.max_connections - permits.available_permits(),
    }
}
