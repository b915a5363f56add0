//! One connection, from its accept to its close (`listen.rs` accepts).
//!
//! - Hyper serves it through [`HeadCheck`] (`head.rs`), which tells its
//!   [`Activity`] (`idle.rs`) whether a request is under way.
//! - Picked to make room at `--max-connections` (`idle.rs`), it is closed
//!   by hyper's graceful shutdown: at once when idle, after its answer when
//!   a request has just begun.
//! - Once the server stops, every answer carries `Connection: close`
//!   ([`closing`]), so a keep-alive client sends no further request on it;
//!   a connection still idle [`DRAIN`] after the stop is closed (a client
//!   that sends a request just then sees the close, not an answer).
//! - A connection hyper has ended is not simply dropped: its writing side
//!   is closed first and what the client still sends is read and thrown
//!   away for at most [`LINGER`], until the client closes. A close with
//!   unread bytes would make the kernel answer with a reset, which can
//!   destroy an answer the client has not read yet.
//! - A connection the stopping server finds waiting in its listen queue
//!   when it has no place for it gets a 503 ([`refuse`]).

use std::future::poll_fn;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::Instant;

use crate::serve::errors::ServeError;
use crate::serve::head::HeadCheck;
use crate::serve::idle::Registered;
use crate::serve::shutdown::{Stop, stopped};

/// After the stop, how long an idle keep-alive connection stays open for
/// one more request (answered with `Connection: close`); at most
/// `--grace`.
pub const DRAIN: Duration = Duration::from_secs(1);

/// The longest a closed connection's last bytes are read and thrown away.
pub const LINGER: Duration = Duration::from_secs(1);

/// The most bytes read then.
const LINGER_BYTES: usize = 1 << 20;

/// The hyper connection builder the server uses for every connection.
pub type Builder = Arc<http1::Builder>;

/// Serves `stream` until it ends; `place` (its permit and its entry in
/// the registry of open connections) is given up at the end.
pub async fn serve(
    stream: TcpStream,
    app: axum::Router,
    builder: Builder,
    mut stop: Stop,
    drain: Duration,
    place: (OwnedSemaphorePermit, Registered),
) {
    let activity = Arc::clone(&place.1.activity);
    let io = TokioIo::new(HeadCheck::new(stream).watched_by(Arc::clone(&activity)));
    let mut conn = builder.serve_connection(io, TowerToHyperService::new(app));
    // Far off until the server stops.
    let mut drained = Box::pin(tokio::time::sleep(Duration::from_secs(86_400 * 365)));
    let (mut stopping, mut closing) = (false, false);
    // Hyper stops at the end of the stream, which HeadCheck makes at a
    // refused head; errors (a timeout, a reset) end only this connection,
    // without an answer.
    let ended = loop {
        tokio::select! {
            ended = poll_fn(|cx| conn.poll_without_shutdown(cx)) => break ended,
            () = stopped(&mut stop), if !stopping => {
                stopping = true;
                drained.as_mut().reset(Instant::now() + drain);
                continue;
            }
            () = &mut drained, if !closing => {}
            () = activity.picked(), if !closing => {}
        }
        // No keep-alive after the answer under way; idle, closed now.
        closing = true;
        Pin::new(&mut conn).graceful_shutdown();
    };
    if ended.is_ok() {
        let stream = conn.into_parts().io.into_inner().finish().await;
        // A connection closed to make room is idle: nothing to wait for.
        if !activity.evicted() {
            linger(stream).await;
        }
    }
    drop(place);
}

/// Reads and throws away what the client still sends after the server
/// closed its writing side, until the client closes, at most [`LINGER`]
/// or [`LINGER_BYTES`].
async fn linger(mut stream: TcpStream) {
    let mut buf = [0u8; 4096];
    let mut left = LINGER_BYTES;
    let _ = tokio::time::timeout(LINGER, async {
        while left > 0 {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    })
    .await;
}

/// Answers a connection found waiting when the stopping server has no
/// place for it: a 503 ([`ServeError::Stopping`]) with `Connection:
/// close`, after reading what request it sent already.
pub async fn refuse(mut stream: TcpStream) {
    let mut buf = [0u8; 4096];
    // The request, if it is there: an answer before it is read could be
    // destroyed by the reset its arrival causes.
    let _ = tokio::time::timeout(Duration::from_millis(50), stream.read(&mut buf)).await;
    let _ = tokio::time::timeout(LINGER, async {
        stream.write_all(&ServeError::Stopping.raw_response()).await?;
        stream.shutdown().await
    })
    .await;
    linger(stream).await;
}

/// The middleware that adds `Connection: close` to every answer once the
/// server stops (`stop` set): hyper then closes the connection after it.
pub async fn closing(
    axum::extract::State(stop): axum::extract::State<Stop>,
    request: Request,
    next: Next,
) -> Response {
    let mut response = next.run(request).await;
    if *stop.borrow() {
        response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// The hyper connection builder: `header_timeout` for each request head
/// (hyper's own timer), bounds above [`HeadCheck`]'s.
pub fn builder(header_timeout: Duration) -> Builder {
    use crate::serve::head::{MAX_HEAD_BYTES, MAX_HEADERS};
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        // Above HeadCheck's bounds, which refuse first (with JSON).
        .max_buf_size(2 * MAX_HEAD_BYTES)
        .max_header_size(2 * MAX_HEAD_BYTES)
        .max_headers(MAX_HEADERS);
    Arc::new(builder)
}
