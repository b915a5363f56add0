//! The server's stderr, written by a thread of its own through a bounded
//! queue that drops lines rather than wait.
//!
//! A reader of stderr that falls behind (a supervisor, a log shipper,
//! `| tee` on a slow disk, a pipe nobody reads) fills the pipe's buffer
//! (64 KB on Linux); a `write(2, …)` then blocks. Written from a request's
//! task it blocked the runtime's workers, and the server stopped answering
//! anything, `/healthz` included. Here a request only puts its line in a
//! queue of [`QUEUE_LINES`] lines; when the queue is full the line is
//! dropped and counted (`chaosclock_log_lines_dropped_total` in
//! `/metrics`), and the server goes on.
//!
//! [`line`] writes a line of the server's own (a stop, a 5xx); the access
//! log goes through the same queue as a `tracing` writer ([`Writer`]).
//! Before [`start`] (the router run in a test) lines go to stderr directly.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The most lines waiting to be written (some 400 KB of access log).
pub const QUEUE_LINES: usize = 4_096;

/// What the writing thread receives.
enum Msg {
    /// Bytes to write, a whole line or more.
    Bytes(Vec<u8>),
    /// Answer on this channel once everything before it is written.
    Flush(SyncSender<()>),
}

/// The queue to the writing thread and the count of lines dropped.
#[derive(Debug)]
pub struct Log {
    tx: SyncSender<Msg>,
    dropped: Arc<AtomicU64>,
}

impl std::fmt::Debug for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Msg::Bytes(b) => write!(f, "Bytes({})", b.len()),
            Msg::Flush(_) => f.write_str("Flush"),
        }
    }
}

impl Log {
    /// A queue of `capacity` lines to a thread that writes them to `out`.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn new<W: Write + Send + 'static>(out: W, capacity: usize) -> std::io::Result<Log> {
        let (tx, rx) = sync_channel(capacity);
        std::thread::Builder::new().name("log".into()).spawn(move || write_all(out, &rx))?;
        Ok(Log { tx, dropped: Arc::new(AtomicU64::new(0)) })
    }

    /// Queues `bytes`, or drops and counts them if the queue is full.
    pub fn send(&self, bytes: Vec<u8>) {
        match self.tx.try_send(Msg::Bytes(bytes)) {
            Ok(()) => {}
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// The lines dropped so far.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Waits at most `limit` for the lines queued so far to be written;
    /// whether they were.
    pub fn flush(&self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        let (done_tx, done_rx) = sync_channel(1);
        let mut msg = Msg::Flush(done_tx);
        loop {
            match self.tx.try_send(msg) {
                Ok(()) => break,
                Err(TrySendError::Disconnected(_)) => return false,
                Err(TrySendError::Full(m)) => {
                    if Instant::now() >= deadline {
                        return false;
                    }
                    msg = m;
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
        }
        done_rx.recv_timeout(deadline.saturating_duration_since(Instant::now())).is_ok()
    }
}

/// The writing thread: writes what comes until the senders are gone.
fn write_all<W: Write>(mut out: W, rx: &Receiver<Msg>) {
    for msg in rx {
        match msg {
            // A write that fails (stderr closed) loses the line, as
            // `eprintln!` would not: the server never stops for its log.
            Msg::Bytes(bytes) => {
                let _ = out.write_all(&bytes);
                let _ = out.flush();
            }
            Msg::Flush(done) => {
                let _ = done.try_send(());
            }
        }
    }
}

/// The server's log, once [`start`] has run.
static LOG: OnceLock<Log> = OnceLock::new();

/// Sends the server's stderr through the queue from now on.
///
/// # Errors
/// The writing thread cannot be started.
pub fn start() -> std::io::Result<()> {
    if LOG.get().is_none() {
        let _ = LOG.set(Log::new(std::io::stderr(), QUEUE_LINES)?);
    }
    Ok(())
}

/// Writes `text` and a new line to stderr, through the queue once
/// [`start`] has run.
pub fn line(text: &str) {
    match LOG.get() {
        Some(log) => {
            let mut bytes = Vec::with_capacity(text.len() + 1);
            bytes.extend_from_slice(text.as_bytes());
            bytes.push(b'\n');
            log.send(bytes);
        }
        None => eprintln!("{text}"),
    }
}

/// The lines dropped because stderr was not read fast enough.
pub fn dropped() -> u64 {
    LOG.get().map_or(0, Log::dropped)
}

/// Waits at most `limit` for the lines queued so far to reach stderr.
pub fn flush(limit: Duration) -> bool {
    LOG.get().is_none_or(|log| log.flush(limit))
}

/// A `tracing` writer into the queue: each event's text, which
/// `tracing_subscriber::fmt` writes whole, becomes one queued message.
#[derive(Debug, Clone, Copy, Default)]
pub struct Writer;

impl Write for Writer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match LOG.get() {
            Some(log) => log.send(buf.to_vec()),
            None => std::io::stderr().write_all(buf)?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Writer {
    type Writer = Writer;

    fn make_writer(&'a self) -> Writer {
        Writer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A writer that blocks until `open` is set, then keeps what it gets.
    #[derive(Clone)]
    struct Gate {
        open: Arc<Mutex<bool>>,
        got: Arc<Mutex<Vec<u8>>>,
    }

    impl Write for Gate {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            while !*self.open.lock().unwrap() {
                std::thread::sleep(Duration::from_millis(1));
            }
            self.got.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_blocked_writer_drops_and_counts_lines_and_never_blocks_the_sender() {
        let gate = Gate { open: Arc::default(), got: Arc::default() };
        let log = Log::new(gate.clone(), 4).unwrap();
        let start = Instant::now();
        for i in 0..100 {
            log.send(format!("{i}\n").into_bytes());
        }
        assert!(start.elapsed() < Duration::from_secs(1));
        // One line in the writer's hands, 4 queued, the rest dropped.
        assert!((95..=96).contains(&log.dropped()), "{}", log.dropped());
        assert!(!log.flush(Duration::from_millis(50)));
        *gate.open.lock().unwrap() = true;
        assert!(log.flush(Duration::from_secs(5)));
        let got = String::from_utf8(gate.got.lock().unwrap().clone()).unwrap();
        assert!(got.starts_with("0\n1\n2\n3\n"), "{got}");
        assert_eq!(got.lines().count() as u64, 100 - log.dropped());
    }
}
