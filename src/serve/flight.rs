//! Solves in flight: each is shared by every request asking for its root,
//! and cancelled when the last of them goes.
//!
//! - A request that needs a solve joins the flight of its root (same board,
//!   pass rule and position), or starts one if there is none, when fewer
//!   than `queue + 1` flights are open (else the solver is busy). So 8
//!   clients asking the same position at once cost one solve.
//! - A request holds a [`Ticket`] while it waits. When the last ticket of a
//!   flight is dropped (its client closed the connection, hyper dropped the
//!   request), the flight is cancelled: it leaves the list at once (a new
//!   request starts a new flight) and its solve stops at the solver's next
//!   check ([`chaosclock::progress::Progress::cancelled`]).
//! - Joining, leaving and finishing all happen under the one lock of the
//!   list, so a request never joins a flight that is cancelled or done.
//!
//! What a flight lands with, `T`, is the server's solution (`state.rs`).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use chaosclock::{PassRule, Position};
use tokio::sync::watch;

/// How a flight ended, as every request that waited for it reads it.
#[derive(Debug)]
pub enum Landed<T> {
    /// The solution.
    Solved(Arc<T>),
    /// Over the state budget, after `states` states.
    TooLarge(usize),
    /// The solver failed: the message.
    Failed(String),
}

impl<T> Clone for Landed<T> {
    fn clone(&self) -> Self {
        match self {
            Landed::Solved(s) => Landed::Solved(Arc::clone(s)),
            Landed::TooLarge(states) => Landed::TooLarge(*states),
            Landed::Failed(m) => Landed::Failed(m.clone()),
        }
    }
}

/// One solve, shared by the requests asking for its root.
#[derive(Debug)]
pub struct Flight<T> {
    /// The root solved.
    pub root: Position,
    /// Its pass rule.
    pub rule: PassRule,
    /// Requests waiting for it (changed only under the list's lock).
    clients: AtomicUsize,
    /// Set once every client has gone: the solve stops.
    cancelled: AtomicBool,
    /// Tells the solve's task that it was cancelled while waiting for the
    /// solver.
    cancel_tx: watch::Sender<bool>,
    /// The end, once landed.
    landed: watch::Sender<Option<Landed<T>>>,
}

impl<T> Flight<T> {
    /// Whether every client has gone.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    /// Waits until the flight is cancelled (for ever if it never is).
    pub async fn until_cancelled(&self) {
        let mut rx = self.cancel_tx.subscribe();
        let _ = rx.wait_for(|&c| c).await;
    }
}

/// The flights open, and counts of what they did.
#[derive(Debug)]
pub struct Flights<T> {
    open: Mutex<Vec<Arc<Flight<T>>>>,
    /// Solves started since the server started.
    started: AtomicU64,
    /// Solves cancelled because every client had gone.
    cancelled: AtomicU64,
}

/// What a request got from [`Flights::board`].
#[derive(Debug)]
pub enum Boarded<T> {
    /// It joined a flight under way.
    Joined(Ticket<T>),
    /// It opened a new flight, which the caller must start.
    Opened(Ticket<T>),
    /// The list is full.
    Full,
}

/// A place on a flight, given back when dropped: the last one given back
/// before the flight lands cancels it.
#[derive(Debug)]
pub struct Ticket<T> {
    flights: Arc<Flights<T>>,
    flight: Arc<Flight<T>>,
}

impl<T> Ticket<T> {
    /// The flight.
    pub fn flight(&self) -> &Arc<Flight<T>> {
        &self.flight
    }

    /// Waits for the flight to land.
    pub async fn landed(&self) -> Landed<T> {
        let mut rx = self.flight.landed.subscribe();
        let landed = rx.wait_for(Option::is_some).await;
        match landed {
            Ok(v) => v.clone().expect("waited for Some"),
            // The sender lives in the flight, which this ticket holds.
            Err(_) => Landed::Failed("the solve stopped".into()),
        }
    }
}

impl<T> Drop for Ticket<T> {
    fn drop(&mut self) {
        let mut open = self.flights.open.lock().unwrap_or_else(unpoison);
        let left = self.flight.clients.fetch_sub(1, Ordering::SeqCst) - 1;
        if left == 0 && self.flight.landed.borrow().is_none() {
            self.flight.cancelled.store(true, Ordering::SeqCst);
            self.flight.cancel_tx.send_replace(true);
            open.retain(|f| !Arc::ptr_eq(f, &self.flight));
            self.flights.cancelled.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// A panic in a request never leaves a lock poisoned for the next ones.
fn unpoison<T>(e: PoisonError<T>) -> T {
    e.into_inner()
}

impl<T> Default for Flights<T> {
    fn default() -> Self {
        Flights { open: Mutex::default(), started: AtomicU64::new(0), cancelled: AtomicU64::new(0) }
    }
}

impl<T> Flights<T> {
    /// Joins the flight of `root` under `rule`, or opens one if fewer than
    /// `max` are open and `kept` (asked under the lock, after a flight of
    /// the same root may just have landed) has no solution.
    pub fn board(
        self: &Arc<Self>,
        root: &Position,
        rule: PassRule,
        max: usize,
        kept: impl FnOnce() -> Option<Arc<T>>,
    ) -> Result<Boarded<T>, Arc<T>> {
        let mut open = self.open.lock().unwrap_or_else(unpoison);
        let ticket = |flight: &Arc<Flight<T>>| {
            flight.clients.fetch_add(1, Ordering::SeqCst);
            Ticket { flights: Arc::clone(self), flight: Arc::clone(flight) }
        };
        if let Some(f) = open.iter().find(|f| f.root == *root && f.rule == rule) {
            return Ok(Boarded::Joined(ticket(f)));
        }
        if let Some(s) = kept() {
            return Err(s);
        }
        if open.len() >= max {
            return Ok(Boarded::Full);
        }
        let flight = Arc::new(Flight {
            root: *root,
            rule,
            clients: AtomicUsize::new(0),
            cancelled: AtomicBool::new(false),
            cancel_tx: watch::channel(false).0,
            landed: watch::channel(None).0,
        });
        open.push(Arc::clone(&flight));
        self.started.fetch_add(1, Ordering::Relaxed);
        Ok(Boarded::Opened(ticket(&flight)))
    }

    /// Lands `flight` with `landed`: it leaves the list and its clients
    /// read the end. Keep a solution before landing its flight.
    pub fn land(&self, flight: &Flight<T>, landed: Landed<T>) {
        let mut open = self.open.lock().unwrap_or_else(unpoison);
        open.retain(|f| !std::ptr::eq(Arc::as_ptr(f), flight));
        flight.landed.send_replace(Some(landed));
    }

    /// The flights open: the solve under way and those waiting for it.
    pub fn open(&self) -> usize {
        self.open.lock().unwrap_or_else(unpoison).len()
    }

    /// Solves started since the server started, and those cancelled.
    pub fn counts(&self) -> (u64, u64) {
        (self.started.load(Ordering::Relaxed), self.cancelled.load(Ordering::Relaxed))
    }
}
