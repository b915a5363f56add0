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

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::serve::head::{HeadCheck, MAX_HEAD_BYTES, MAX_HEADERS};

/// The limits on connections.
#[derive(Debug, Clone, Copy)]
pub struct ConnLimits {
    /// The most open connections.
    pub max_connections: usize,
    /// The time allowed for a request head.
    pub header_timeout: Duration,
}

/// Serves `app` on `listener` for ever.
pub async fn serve(listener: TcpListener, app: Router, limits: ConnLimits) {
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
        let permit =
            Arc::clone(&permits).acquire_owned().await.expect("the semaphore is never closed");
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors and the like: wait, do not spin.
                eprintln!("serve: accepting a connection: {e}");
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let builder = Arc::clone(&builder);
        tokio::spawn(async move {
            // Hyper stops at the end of the stream, which HeadCheck makes
            // at a refused head; errors (a timeout, a reset) end only this
            // connection, without an answer.
            let io = TokioIo::new(HeadCheck::new(stream));
            let conn = builder.serve_connection(io, service).without_shutdown();
            if let Ok(parts) = conn.await {
                parts.io.into_inner().finish().await;
            }
            drop(permit);
        });
    }
}
