//! The accept loop: HTTP/1.1 connections served by hyper with a bound on
//! their number and a deadline for each request head (axum's own `serve`
//! sets neither); each connection is served by `connection.rs`.
//!
//! - At most `--max-connections` connections are open. When a connection
//!   waits in the kernel's listen queue and the bound is reached, the
//!   connection idle longest (no request under way: none sent yet, half a
//!   head, or a keep-alive connection between requests; `idle.rs`) is
//!   closed to make room, and the new one is accepted once it has gone, so
//!   a client holding idle connections up to the bound does not keep
//!   others waiting. A connection with a request under way is never
//!   closed for this: when every connection is busy, the new one waits in
//!   the listen queue, unanswered, until one closes or becomes idle (it is
//!   not refused). At the bound, the listen queue is looked at every
//!   50 ms ([`queued`], without accepting), and a connection is closed
//!   only when one waits there, so the open connections never pass the
//!   bound (on Linux; elsewhere new connections wait as when all are
//!   busy).
//! - A connection has `--header-timeout` seconds to send a complete request
//!   head, counted from its opening and again from the end of each answer
//!   (hyper's `header_read_timeout`); then it is closed without an answer.
//!   An idle keep-alive connection is thus closed after the same time.
//! - Hyper reads the stream through [`HeadCheck`] (`head.rs`), which
//!   refuses a head hyper would answer with its own bare status line (too
//!   long, too many headers, not HTTP) with a JSON error instead.
//! - Once `stop` is set (`shutdown.rs`), the loop stops waiting for new
//!   connections, accepts those the kernel has queued already (each is
//!   answered, or refused with a 503 when there is no place for it), then
//!   closes the listening socket: new connections are refused by the
//!   kernel, and none that had connected is reset by the close. Every
//!   answer from then on carries `Connection: close`; each connection ends
//!   after its request under way, an idle one after `connection::DRAIN`
//!   (1 s) at most, and [`serve`] returns when all have ended, or after
//!   `--grace` seconds.
//!
//! [`HeadCheck`]: crate::serve::head::HeadCheck

use std::io::ErrorKind;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use axum::{Router, middleware};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::serve::connection::{self, Builder, DRAIN};
use crate::serve::idle::Conns;
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

/// While the bound is reached, how often the listen queue is looked at
/// (and another idle connection picked, if the last one picked has not
/// closed yet).
const EVICT_AGAIN: Duration = Duration::from_millis(50);

/// What each accepted connection is started with.
struct Start {
    app: Router,
    builder: Builder,
    stop: Stop,
    drain: Duration,
    conns: Arc<Conns>,
}

impl Start {
    /// Serves `stream` in a task of its own, in the place `permit` holds.
    fn start(&self, stream: TcpStream, permit: OwnedSemaphorePermit) {
        let _ = stream.set_nodelay(true);
        let place = (permit, self.conns.register());
        tokio::spawn(connection::serve(
            stream,
            self.app.clone(),
            Arc::clone(&self.builder),
            self.stop.clone(),
            self.drain,
            place,
        ));
    }
}

/// A place for one more connection: a free one, or, while a connection
/// waits in `listener`'s queue, that of the connection idle longest,
/// closed for it.
async fn room(
    listener: &TcpListener,
    permits: &Arc<Semaphore>,
    conns: &Conns,
) -> OwnedSemaphorePermit {
    loop {
        if let Ok(permit) = Arc::clone(permits).try_acquire_owned() {
            return permit;
        }
        if queued(listener) {
            conns.evict_idlest();
        }
        let freed = tokio::time::timeout(EVICT_AGAIN, Arc::clone(permits).acquire_owned()).await;
        if let Ok(permit) = freed {
            return permit.expect("the semaphore is never closed");
        }
    }
}

/// Whether a connection waits in `listener`'s queue, looked at without
/// accepting it (`poll` with no timeout).
#[cfg(target_os = "linux")]
fn queued(listener: &TcpListener) -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let mut fds = [PollFd::new(listener, PollFlags::IN)];
    let now = Timespec { tv_sec: 0, tv_nsec: 0 };
    poll(&mut fds, Some(&now)).is_ok_and(|n| n > 0)
}

/// Elsewhere: never seen (a new connection waits for a place).
#[cfg(not(target_os = "linux"))]
fn queued(_: &TcpListener) -> bool {
    false
}

/// Serves `app` on `listener` until `stop` is set, then lets the open
/// connections finish for at most `limits.grace`; returns how many were
/// still open then.
///
/// # Errors
/// The listening socket cannot be taken back from the runtime at the
/// stop.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnLimits,
    mut stop: Stop,
) -> Result<usize> {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let start = Start {
        app: app.layer(middleware::from_fn_with_state(stop.clone(), connection::closing)),
        builder: connection::builder(limits.header_timeout),
        stop: stop.clone(),
        drain: DRAIN.min(limits.grace),
        conns: Arc::new(Conns::default()),
    };
    loop {
        // Wait for a place before accepting: while there is none,
        // connections wait in the kernel's queue.
        let permit = tokio::select! {
            permit = room(&listener, &permits, &start.conns) => permit,
            () = stopped(&mut stop) => break,
        };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = stopped(&mut stop) => break,
        };
        match accepted {
            Ok((stream, _)) => start.start(stream, permit),
            Err(e) => {
                // Out of file descriptors and the like: wait, do not spin.
                crate::serve::log::line(&format!("serve: accepting a connection: {e}"));
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
    // The connections the kernel has queued are answered (or refused)
    // rather than reset by the close of the listener.
    let mut refused = Vec::new();
    let listener = listener.into_std().context("taking the listening socket")?;
    loop {
        let accepted = listener
            .accept()
            .and_then(|(s, _)| s.set_nonblocking(true).map(|()| s))
            .and_then(TcpStream::from_std);
        match accepted {
            Ok(stream) => match Arc::clone(&permits).try_acquire_owned() {
                Ok(permit) => start.start(stream, permit),
                Err(_) => refused.push(tokio::spawn(connection::refuse(stream))),
            },
            Err(e) if matches!(e.kind(), ErrorKind::ConnectionAborted | ErrorKind::Interrupted) => {
            }
            // WouldBlock: none left.
            Err(_) => break,
        }
    }
    // Stop accepting: new connections are refused by the kernel.
    drop(listener);
    let all = u32::try_from(limits.max_connections).unwrap_or(u32::MAX);
    let ended = async {
        let permits = permits.acquire_many(all).await;
        for task in refused {
            let _ = task.await;
        }
        permits
    };
    Ok(match tokio::time::timeout(limits.grace, ended).await {
        Ok(_) => 0,
        Err(_) => limits.max_connections - permits.available_permits(),
    })
}
