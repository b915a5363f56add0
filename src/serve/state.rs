//! Where the server's answers come from: the tables when they cover a
//! position, else a solve in memory, under limits.
//!
//! - Tables: one [`Tablebase`] per board size and pass rule under
//!   `--tables DIR`, made when first asked for and shared: a probe takes
//!   `&self` and opens each file once, so many requests probe at once with
//!   no lock (the list of tablebases is locked only to find one).
//! - Solves: at most one at a time (a solve uses every core), at most
//!   `queue` more waiting for it, the others get "busy" at once; each
//!   solve stops once it has enumerated more than `budget` states. A solve
//!   is shared by every request asking for its root, and stops within a
//!   second once they have all gone (`flight.rs`).
//! - Kept solves: the solutions of recent roots, least recently used first
//!   out, at most `cache_states` states in all. Every position of a game
//!   lies inside the solution of its start, so later positions of a game
//!   are answered from it without solving again.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use chaosclock::answer::{Answer, Source};
use chaosclock::book::Book;
use chaosclock::policy::{AnswerError, Policy};
use chaosclock::probe::{self, ProbeError};
use chaosclock::progress::Progress;
use chaosclock::scored::ScoredMove;
use chaosclock::solve::{Solution, SolveError, solve_bounded};
use chaosclock::table::Tablebase;
use chaosclock::{PassRule, Position, Value};
use tokio::sync::Semaphore;

use crate::budget::Budget;
use crate::serve::errors::ServeError;
use crate::serve::flight::{Boarded, Flight, Flights, Landed};

/// The most states a solve may enumerate to give an engine the depths
/// that tables of values only lack ([`Engine::depth_moves`]): a fraction
/// of a second and about 60 MB. Positions of 8 and 10 slots fit from
/// their first moves; 12-slot ones once two or three pieces are fixed, as
/// the puzzles' games are solved (docs/puzzles.md).
pub const ENGINE_DEPTH_STATES: usize = 4_000_000;

/// The limits of a server.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Most states one solve may enumerate.
    pub budget: Budget,
    /// Most states kept in solved graphs.
    pub cache_states: usize,
    /// Most requests waiting for the solver.
    pub queue: usize,
}

/// A root position solved in memory, with its pass rule.
#[derive(Debug)]
pub struct Solved {
    /// The board size: a position of another size is never looked up (its
    /// signature could name a state of this one).
    slots: u8,
    rule: PassRule,
    solution: Solution,
}

impl Solved {
    /// The solution, which scores every position it reached.
    pub fn solution(&self) -> &Solution {
        &self.solution
    }
}

/// The solve under way, as `/api/progress` reports it.
#[derive(Debug, Clone)]
struct Current {
    position: Position,
    rule: PassRule,
    /// What the solver reports.
    counts: Arc<Counts>,
    started: Instant,
}

/// The counts of a solve, as the solver reports them ([`Progress`]):
/// states enumerated so far, then the states to solve and those solved.
#[derive(Debug, Default)]
struct Counts {
    /// The states to solve; 0 while enumerating.
    total: AtomicU64,
    /// States enumerated so far, or solved so far.
    done: AtomicU64,
}

impl Progress for Counts {
    fn start(&self, total: u64, _: &str) {
        self.done.store(0, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
    }

    fn advance(&self, units: u64) {
        self.done.fetch_add(units, Ordering::Relaxed);
    }

    fn counted(&self, done: u64, _: &str) {
        self.done.store(done, Ordering::Relaxed);
    }
}

/// The progress of a flight's solve: its counts, cancelled once every
/// client of the flight has gone.
struct Watched<'a> {
    counts: &'a Counts,
    flight: &'a Flight<Solved>,
}

impl Progress for Watched<'_> {
    fn start(&self, total: u64, what: &str) {
        self.counts.start(total, what);
    }

    fn advance(&self, units: u64) {
        self.counts.advance(units);
    }

    fn counted(&self, done: u64, what: &str) {
        self.counts.counted(done, what);
    }

    fn cancelled(&self) -> bool {
        self.flight.is_cancelled()
    }
}

/// How far the solve under way has come.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolveProgress {
    /// The position being solved.
    pub position: Position,
    /// Its pass rule.
    pub rule: PassRule,
    /// Whether it is still enumerating the reachable states (else solving
    /// them).
    pub enumerating: bool,
    /// States enumerated so far, or solved so far.
    pub states: u64,
    /// The states to solve, once known.
    pub total: Option<u64>,
    /// Seconds since the solve began.
    pub seconds: f64,
}

/// Clears the solve under way when dropped (also when the solve fails).
struct Underway<'a>(&'a Mutex<Option<Current>>);

impl Drop for Underway<'_> {
    fn drop(&mut self) {
        *self.0.lock().unwrap_or_else(unpoison) = None;
    }
}

/// The answering side of the server, shared by every request.
#[derive(Debug)]
pub struct Engine {
    root: Option<PathBuf>,
    tables: Mutex<Vec<Arc<Tablebase>>>,
    kept: Mutex<Vec<Arc<Solved>>>,
    /// The solve under way, if any.
    current: Mutex<Option<Current>>,
    solver: Arc<Semaphore>,
    /// The solves asked for and not landed yet.
    flights: Arc<Flights<Solved>>,
    limits: Limits,
    /// Answers taken from a kept solution (`/metrics`).
    cache_hits: AtomicU64,
}

/// The solver's load and the kept solutions' use, for `/metrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolverLoad {
    /// Solves under way (0 or 1).
    pub running: usize,
    /// Requests waiting for the solver.
    pub queued: usize,
    /// Answers taken from a kept solution so far.
    pub cache_hits: u64,
}

/// What is known of a position before any solve ([`Engine::known`]).
#[derive(Debug)]
pub enum Known {
    /// The game is over: the rules' answer.
    Rules(Answer),
    /// The tables' answer.
    Tables(Answer),
    /// The openings book's value: a solve must give the same.
    Book(Value),
    /// Nothing: a solve answers.
    Nothing,
}

/// A panic in a request never leaves a lock poisoned for the next ones.
fn unpoison<T>(e: PoisonError<T>) -> T {
    e.into_inner()
}

impl Engine {
    /// An engine reading tables under `root` (if any), with `limits`.
    pub fn new(root: Option<PathBuf>, limits: Limits) -> Engine {
        Engine {
            root,
            tables: Mutex::new(Vec::new()),
            kept: Mutex::new(Vec::new()),
            current: Mutex::new(None),
            solver: Arc::new(Semaphore::new(1)),
            flights: Arc::new(Flights::default()),
            limits,
            cache_hits: AtomicU64::new(0),
        }
    }

    /// What the library's answering policy ([`Policy`]) knows of `pos`
    /// without a solve (blocking: run it off the async threads): the
    /// answer from the tables when they cover it, else the openings book's
    /// value, which a solve must then agree with.
    ///
    /// # Errors
    /// A damaged table.
    pub fn known(&self, pos: &Position, rule: PassRule) -> Result<Known, ServeError> {
        let tb = self.root.as_ref().map(|root| self.tablebase(root, pos.slots(), rule));
        let book = Book::embedded().ok();
        let policy = Policy::new().with_tables(tb.as_deref()).with_book(book);
        match policy.answer(pos, rule) {
            Ok(found) => Ok(match found.answer.source {
                Source::Rules => Known::Rules(found.answer),
                Source::Tables => Known::Tables(found.answer),
                Source::Book => Known::Book(found.answer.score.value),
                Source::Solve => Known::Nothing,
            }),
            Err(AnswerError::Unanswered { book, .. }) => {
                Ok(book.map_or(Known::Nothing, Known::Book))
            }
            Err(AnswerError::Tables(e)) => Err(ServeError::Table(e)),
            Err(e) => Err(ServeError::Internal(e.to_string())),
        }
    }

    /// Scored moves of `pos` from the tables (blocking); `None` if they do
    /// not cover it.
    ///
    /// # Errors
    /// A damaged table.
    pub fn table_moves(
        &self,
        pos: &Position,
        rule: PassRule,
    ) -> Result<Option<Vec<ScoredMove>>, ServeError> {
        let Some(root) = &self.root else { return Ok(None) };
        let tb = self.tablebase(root, pos.slots(), rule);
        match probe::moves(&tb, pos) {
            Ok(m) => Ok(Some(m)),
            Err(ProbeError::Missing { .. }) => Ok(None),
            Err(e) => Err(ServeError::Table(e)),
        }
    }

    /// The moves of `pos` with their depths, for an engine of levels 1 to
    /// 7 (which sees a value through its depth) when the tables hold
    /// values only (blocking): from a kept solution holding `pos`, else
    /// from a solve of `pos` within [`ENGINE_DEPTH_STATES`] (and the
    /// server's budget), started only if the solver is free at once and
    /// kept for the game's next moves. `None` when the solve is over that
    /// or the solver is busy: the engine then plays on the values alone.
    pub fn depth_moves(&self, pos: &Position, rule: PassRule) -> Option<Vec<ScoredMove>> {
        let solved = match self.kept(pos, rule) {
            Some(kept) => kept,
            None => {
                let _permit = self.solver.try_acquire().ok()?;
                let budget = ENGINE_DEPTH_STATES.min(self.limits.budget.states);
                let solution =
                    solve_bounded(pos.variant(rule), &[*pos], None, budget, None).ok()?;
                let solved = Arc::new(Solved { slots: pos.slots(), rule, solution });
                self.keep(Arc::clone(&solved));
                solved
            }
        };
        solved.solution.moves(pos).ok()
    }

    /// The tablebase of `n` slots and `rule` under `root`, made when first
    /// asked for.
    fn tablebase(&self, root: &std::path::Path, n: u8, rule: PassRule) -> Arc<Tablebase> {
        let mut tables = self.tables.lock().unwrap_or_else(unpoison);
        if let Some(tb) = tables.iter().find(|t| t.slots() == n && t.rule() == rule) {
            return Arc::clone(tb);
        }
        let tb =
            Arc::new(Tablebase::new(root, n, rule).with_model_budget(crate::budget::model_bytes()));
        tables.push(Arc::clone(&tb));
        tb
    }

    /// A kept solution holding `pos` under `rule`, marked as just used.
    pub fn kept(&self, pos: &Position, rule: PassRule) -> Option<Arc<Solved>> {
        let mut kept = self.kept.lock().unwrap_or_else(unpoison);
        let i = kept.iter().rposition(|s| {
            s.slots == pos.slots() && s.rule == rule && s.solution.score(pos).is_some()
        })?;
        let s = kept.remove(i);
        kept.push(Arc::clone(&s));
        self.cache_hits.fetch_add(1, Ordering::Relaxed);
        Some(s)
    }

    /// The solver's load and the kept solutions' hits (`/metrics`).
    pub fn load(&self) -> SolverLoad {
        let running = usize::from(self.current.lock().unwrap_or_else(unpoison).is_some());
        let open = self.flights.open();
        let cache_hits = self.cache_hits.load(Ordering::Relaxed);
        SolverLoad { running, queued: open.saturating_sub(running), cache_hits }
    }

    /// A solution holding `pos`: a kept one, else the solve of `pos`
    /// under way, else a new solve (waiting for the solver, or busy if too
    /// many wait). Dropping the future gives its place on the solve back:
    /// the last to go cancels it.
    ///
    /// # Errors
    /// Busy, over the state budget.
    pub async fn solved(
        self: &Arc<Self>,
        pos: &Position,
        rule: PassRule,
    ) -> Result<Arc<Solved>, ServeError> {
        if let Some(s) = self.kept(pos, rule) {
            return Ok(s);
        }
        let max = self.limits.queue + 1;
        let ticket = match self.flights.board(pos, rule, max, || self.kept(pos, rule)) {
            Err(kept) => return Ok(kept),
            Ok(Boarded::Full) => return Err(ServeError::Busy),
            Ok(Boarded::Joined(ticket)) => ticket,
            Ok(Boarded::Opened(ticket)) => {
                self.launch(Arc::clone(ticket.flight()));
                ticket
            }
        };
        match ticket.landed().await {
            Landed::Solved(s) => Ok(s),
            Landed::TooLarge(states) => {
                Err(ServeError::TooLarge { states, budget: self.limits.budget })
            }
            Landed::Failed(message) => Err(ServeError::Internal(message)),
        }
    }

    /// Starts the solve of `flight` once the solver is free, unless the
    /// flight is cancelled first; keeps its solution, then lands it.
    fn launch(self: &Arc<Self>, flight: Arc<Flight<Solved>>) {
        let engine = Arc::clone(self);
        tokio::spawn(async move {
            let permit = tokio::select! {
                permit = Arc::clone(&engine.solver).acquire_owned() => permit,
                () = flight.until_cancelled() => return,
            };
            let Ok(permit) = permit else {
                engine.flights.land(&flight, Landed::Failed("the solver is closed".into()));
                return;
            };
            let (e, f) = (Arc::clone(&engine), Arc::clone(&flight));
            // The permit goes with the solve: a cancelled solve holds it
            // until it stops (within a second).
            let solved = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                e.solve(&f)
            })
            .await;
            let landed = match solved {
                Ok(Ok(s)) => Landed::Solved(s),
                // Nobody waits for a cancelled flight: it left the list.
                Ok(Err(SolveError::Cancelled)) => return,
                Ok(Err(SolveError::TooLarge { states, .. })) => Landed::TooLarge(states),
                Ok(Err(e)) => Landed::Failed(e.to_string()),
                Err(e) => Landed::Failed(format!("the solver stopped: {e}")),
            };
            engine.flights.land(&flight, landed);
        });
    }

    /// Solves the root of `flight` (blocking), and keeps the solution.
    fn solve(&self, flight: &Flight<Solved>) -> Result<Arc<Solved>, SolveError> {
        if flight.is_cancelled() {
            return Err(SolveError::Cancelled);
        }
        let (root, rule) = (flight.root, flight.rule);
        let counts = Arc::new(Counts::default());
        let current =
            Current { position: root, rule, counts: Arc::clone(&counts), started: Instant::now() };
        *self.current.lock().unwrap_or_else(unpoison) = Some(current);
        let underway = Underway(&self.current);
        let variant = root.variant(rule);
        let watched = Watched { counts: &counts, flight };
        let solution =
            solve_bounded(variant, &[root], None, self.limits.budget.states, Some(&watched))?;
        drop(underway);
        let solved = Arc::new(Solved { slots: root.slots(), rule, solution });
        self.keep(Arc::clone(&solved));
        Ok(solved)
    }

    /// Solves started since the server started (a request joining a solve
    /// under way starts none), and those cancelled when their clients went.
    pub fn solves(&self) -> (u64, u64) {
        self.flights.counts()
    }

    /// How far the solve under way has come, if one is.
    pub fn progress(&self) -> Option<SolveProgress> {
        let current = self.current.lock().unwrap_or_else(unpoison).clone()?;
        let total = Some(current.counts.total.load(Ordering::Relaxed)).filter(|&len| len > 0);
        Some(SolveProgress {
            position: current.position,
            rule: current.rule,
            enumerating: total.is_none(),
            states: current.counts.done.load(Ordering::Relaxed),
            total,
            seconds: current.started.elapsed().as_secs_f64(),
        })
    }

    /// Keeps `solved`, dropping the least recently used solutions while
    /// the kept states pass the limit (the newest is always kept).
    fn keep(&self, solved: Arc<Solved>) {
        let mut kept = self.kept.lock().unwrap_or_else(unpoison);
        kept.push(solved);
        let mut total: usize = kept.iter().map(|s| s.solution.states()).sum();
        while kept.len() > 1 && total > self.limits.cache_states {
            total -= kept.remove(0).solution.states();
        }
    }
}
