//! Request heads checked before hyper reads them, so that a head hyper
//! would refuse with its own bare status line (no body) gets a JSON error
//! like every other answer (`docs/serve.md`).
//!
//! [`HeadCheck`] sits between the socket and hyper. It passes hyper only
//! complete request heads that parse as HTTP/1.x, at most [`MAX_HEAD_BYTES`]
//! long with at most [`MAX_HEADERS`] headers. A head that breaks one of
//! these, or whose target is longer than [`MAX_URI_BYTES`], is not passed
//! on: hyper sees the end of the stream, stops, and [`HeadCheck::finish`]
//! writes the refusal (400 for bytes that are not HTTP, 414 for a target
//! too long, 431 for a head too long or with too many headers) and closes
//! the connection.
//!
//! - Smaller limits (the request target, the header bytes, a body) are the
//!   guard's (`guard.rs`), which answers from a handler.
//! - After a request that announces a body (refused with 413 by the guard)
//!   the rest of the connection passes unchecked: its bytes are a body, not
//!   heads, and hyper closes such a connection after its answer.
//! - Heads are parsed again as bytes arrive only when a line ends, the
//!   head is still short, or it grows past a bound, so a head sent byte by
//!   byte costs at most about [`MAX_HEADERS`] parses of [`MAX_HEAD_BYTES`]
//!   each; the head deadline (`listen.rs`, hyper's own timer) bounds how
//!   long that may take.
//! - It tells the connection's [`Activity`] (`idle.rs`) whether a request
//!   is under way: from a complete head until the flush of its answer.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};

use crate::serve::errors::ServeError;
use crate::serve::guard::{MAX_HEADER_BYTES, MAX_URI_BYTES};
use crate::serve::idle::Activity;

/// The longest request head passed to hyper, in bytes; above the guard's
/// bounds, so that a head a bit over them still reaches the guard's answer.
pub const MAX_HEAD_BYTES: usize = 4 * (MAX_URI_BYTES + MAX_HEADER_BYTES);

/// The most headers a request may have (hyper's own default).
pub const MAX_HEADERS: usize = 100;

/// A head shorter than this is parsed again on every read, so that bytes
/// that are not HTTP are refused at once, before a line ends.
const EAGER_PARSE_BYTES: usize = 1024;

/// The longest request line with a target of [`MAX_URI_BYTES`]: the
/// method, two spaces, the version and the line end take less than 64 bytes.
const LINE_BYTES: usize = MAX_URI_BYTES + 64;

/// The time allowed for writing a refusal.
const REFUSAL_TIMEOUT: Duration = Duration::from_secs(5);

/// What the bytes read so far start with.
#[derive(Debug, PartialEq, Eq)]
enum Head {
    /// A complete head of this many bytes; whether it announces a body.
    Complete { len: usize, body: bool },
    /// Not complete yet.
    Partial,
}

/// The refusal of a request whose target is too long: a page for a GET of
/// the page (`/?...`), JSON for the rest.
fn too_long(bytes: &[u8]) -> ServeError {
    if bytes.starts_with(b"GET /?") {
        ServeError::PageTooLong { max: MAX_URI_BYTES }
    } else {
        ServeError::TargetTooLong { max: MAX_URI_BYTES }
    }
}

/// Checks the head at the start of `bytes`.
fn check(bytes: &[u8]) -> Result<Head, ServeError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    match req.parse(bytes) {
        Ok(httparse::Status::Complete(len)) if len > MAX_HEAD_BYTES => {
            Err(ServeError::HeadTooLong { max: MAX_HEAD_BYTES })
        }
        Ok(httparse::Status::Complete(_)) if req.path.is_some_and(|p| p.len() > MAX_URI_BYTES) => {
            Err(too_long(bytes))
        }
        Ok(httparse::Status::Complete(len)) => {
            let body = req.headers.iter().any(|h| {
                (h.name.eq_ignore_ascii_case("content-length") && h.value.trim_ascii() != b"0")
                    || h.name.eq_ignore_ascii_case("transfer-encoding")
            });
            Ok(Head::Complete { len, body })
        }
        // A request line this long cannot hold a target of the bound.
        Ok(httparse::Status::Partial) if !bytes.contains(&b'\n') && bytes.len() > LINE_BYTES => {
            Err(too_long(bytes))
        }
        Ok(httparse::Status::Partial) if bytes.len() > MAX_HEAD_BYTES => {
            Err(ServeError::HeadTooLong { max: MAX_HEAD_BYTES })
        }
        Ok(httparse::Status::Partial) => Ok(Head::Partial),
        Err(httparse::Error::TooManyHeaders) => {
            Err(ServeError::TooManyHeaders { max: MAX_HEADERS })
        }
        Err(_) => Err(ServeError::NotHttp),
    }
}

/// A connection's stream that passes hyper checked request heads only.
#[derive(Debug)]
pub struct HeadCheck<S> {
    inner: S,
    /// The bytes of the head being read, not checked yet.
    head: Vec<u8>,
    /// Checked bytes that hyper has not read yet, from `taken` on.
    checked: Vec<u8>,
    taken: usize,
    /// After a head that announces a body: every further byte passes.
    unchecked: bool,
    /// The client closed its side.
    eof: bool,
    /// The refused head's reason, once one is refused.
    refusal: Option<ServeError>,
    /// Hyper has read a head and not yet flushed an answer after it.
    answering: bool,
    /// Bytes were written since the last read of a head.
    wrote: bool,
    /// The reader waiting for the last answer's flush, to end the stream.
    waiting: Option<std::task::Waker>,
    /// Told whether a request is under way.
    activity: Arc<Activity>,
}

impl<S> HeadCheck<S> {
    /// Wraps a connection's stream.
    pub fn new(inner: S) -> HeadCheck<S> {
        HeadCheck {
            inner,
            head: Vec::new(),
            checked: Vec::new(),
            taken: 0,
            unchecked: false,
            eof: false,
            refusal: None,
            answering: false,
            wrote: false,
            waiting: None,
            activity: Arc::default(),
        }
    }

    /// The same, telling `activity` whether a request is under way.
    pub fn watched_by(self, activity: Arc<Activity>) -> HeadCheck<S> {
        HeadCheck { activity, ..self }
    }

    /// Tells the activity whether a request is under way: a complete head
    /// not read by hyper yet, or one read and not yet answered.
    fn mark(&self) {
        self.activity.set_busy(self.answering || self.taken < self.checked.len());
    }

    /// Takes in bytes read from the client.
    fn take_in(&mut self, bytes: &[u8]) {
        if self.unchecked {
            self.checked.extend_from_slice(bytes);
            return;
        }
        let before = self.head.len();
        self.head.extend_from_slice(bytes);
        let crossed = |bound: usize| before <= bound && self.head.len() > bound;
        let parse = self.head.len() < EAGER_PARSE_BYTES
            || bytes.contains(&b'\n')
            || crossed(LINE_BYTES)
            || crossed(MAX_HEAD_BYTES);
        if !parse {
            return;
        }
        // Several heads may have come at once (pipelining).
        while !self.head.is_empty() {
            match check(&self.head) {
                Ok(Head::Partial) => return,
                Ok(Head::Complete { len, body }) => {
                    self.checked.extend(self.head.drain(..len));
                    if body {
                        self.unchecked = true;
                        self.checked.append(&mut self.head);
                    }
                }
                Err(refusal) => {
                    self.refusal = Some(refusal);
                    self.head.clear();
                    return;
                }
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> HeadCheck<S> {
    /// Ends the connection once hyper has stopped: writes the refusal, if a
    /// head was refused, and closes the stream's writing side; the stream,
    /// for what is left to read.
    pub async fn finish(mut self) -> S {
        if let Some(refusal) = &self.refusal {
            let response = refusal.raw_response();
            let _ = tokio::time::timeout(REFUSAL_TIMEOUT, self.inner.write_all(&response)).await;
        }
        let _ = tokio::time::timeout(REFUSAL_TIMEOUT, self.inner.shutdown()).await;
        self.inner
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for HeadCheck<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.taken < this.checked.len() {
                let n = buf.remaining().min(this.checked.len() - this.taken);
                buf.put_slice(&this.checked[this.taken..this.taken + n]);
                this.taken += n;
                if this.taken == this.checked.len() {
                    this.checked.clear();
                    this.taken = 0;
                }
                (this.answering, this.wrote) = (true, false);
                this.mark();
                return Poll::Ready(Ok(()));
            }
            if this.refusal.is_some() && this.answering {
                // Hyper would drop a pipelined request it has not answered
                // yet at the end of the stream: the end waits for its answer.
                this.waiting = Some(cx.waker().clone());
                return Poll::Pending;
            }
            if this.eof || this.refusal.is_some() {
                // The end of the stream, as hyper sees it.
                return Poll::Ready(Ok(()));
            }
            let mut chunk = [0u8; 8192];
            let mut read = ReadBuf::new(&mut chunk);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut read))?;
            if read.filled().is_empty() {
                // A head cut off by the end of the stream gets no answer.
                this.eof = true;
            } else {
                this.take_in(read.filled());
                this.mark();
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for HeadCheck<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let n = ready!(Pin::new(&mut this.inner).poll_write(cx, buf))?;
        this.wrote |= n > 0;
        Poll::Ready(Ok(n))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let n = ready!(Pin::new(&mut this.inner).poll_write_vectored(cx, bufs))?;
        this.wrote |= n > 0;
        Poll::Ready(Ok(n))
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    /// A flush after bytes were written ends hyper's answer to the last
    /// head it read (hyper flushes after each answer).
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(Pin::new(&mut this.inner).poll_flush(cx))?;
        if this.wrote {
            this.answering = false;
            this.mark();
            if let Some(waker) = this.waiting.take() {
                waker.wake();
            }
        }
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fed(chunks: &[&[u8]]) -> HeadCheck<()> {
        let mut h = HeadCheck::new(());
        for c in chunks {
            h.take_in(c);
        }
        h
    }

    #[test]
    fn complete_heads_pass_and_partial_ones_wait() {
        let get = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n";
        let h = fed(&[&get[..10], &get[10..]]);
        assert!(h.checked == get && h.refusal.is_none());
        let h = fed(&[&get[..20]]);
        assert!(h.checked.is_empty() && h.refusal.is_none());
        // Two pipelined heads, then the start of a third.
        let two = [&get[..], &get[..], b"GET /"].concat();
        let h = fed(&[&two]);
        assert_eq!((h.checked.len(), h.head.as_slice()), (2 * get.len(), &b"GET /"[..]));
    }

    #[test]
    fn bad_heads_are_refused() {
        assert!(matches!(fed(&[b"\x00\x01 garbage\r\n\r\n"]).refusal, Some(ServeError::NotHttp)));
        assert!(
            matches!(fed(&[b"\x00"]).refusal, Some(ServeError::NotHttp)),
            "at once, before a line end"
        );
        assert!(matches!(fed(&[b"GET / HTTP/9.9\r\n\r\n"]).refusal, Some(ServeError::NotHttp)));
        let long_line = [b"GET /".as_slice(), &vec![b'a'; LINE_BYTES]].concat();
        assert!(matches!(fed(&[&long_line]).refusal, Some(ServeError::TargetTooLong { .. })));
        let target = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_URI_BYTES));
        assert!(matches!(
            fed(&[target.as_bytes()]).refusal,
            Some(ServeError::TargetTooLong { .. })
        ));
        let page = format!("GET /?pos={} HTTP/1.1\r\n\r\n", "1,".repeat(MAX_URI_BYTES));
        let refused = fed(&[page.as_bytes()]).refusal.expect("refused");
        assert!(matches!(refused, ServeError::PageTooLong { .. }), "the page's address");
        assert!(String::from_utf8(refused.raw_response()).unwrap().contains("text/html"));
        let fits = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_URI_BYTES - 1));
        assert!(fed(&[fits.as_bytes()]).refusal.is_none());
        let header = format!("x: {}\r\n", "a".repeat(1000));
        let long = format!("GET / HTTP/1.1\r\n{}", header.repeat(90));
        assert!(matches!(fed(&[long.as_bytes()]).refusal, Some(ServeError::HeadTooLong { .. })));
        let many = format!("GET / HTTP/1.1\r\n{}\r\n", "x: 1\r\n".repeat(MAX_HEADERS + 1));
        assert!(matches!(fed(&[many.as_bytes()]).refusal, Some(ServeError::TooManyHeaders { .. })));
    }

    #[test]
    fn after_a_body_bytes_pass_unchecked() {
        let post = b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n\x00\x01\x02\x03\x04";
        let h = fed(&[post]);
        assert!(h.checked == post && h.refusal.is_none());
        assert!(h.unchecked);
    }
}
