//! [`Solve`]: one way to ask for a solve in memory, with a state budget,
//! a cancel flag, shared tables and progress.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{Solution, SolveError, solve_shared};
use crate::position::Position;
use crate::progress::Progress;
use crate::table::Tablebase;
use crate::variant::Variant;

/// A solve in memory of every state reachable from some roots.
///
/// # Examples
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use chaosclock::Solve;
/// use chaosclock::solve::SolveError;
/// use chaosclock::{PassRule, Position, Value};
///
/// let pos: Position = "2,1,4,3,6,5".parse()?;
/// let stop = AtomicBool::new(false);
/// let solve = Solve::new(pos.variant(PassRule::Always)).budget(1_000_000).cancel(&stop);
/// let solution = solve.run(&[pos])?;
/// assert_eq!(solution.score(&pos).ok_or("solved")?.value, Value::SelfWin);
/// // Too small a budget is an error, not a partial answer.
/// assert!(matches!(solve.budget(10).run(&[pos]), Err(SolveError::TooLarge { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Solve<'a> {
    variant: Variant,
    budget: usize,
    tables: Option<Arc<Tablebase>>,
    progress: Option<&'a dyn Progress>,
    cancel: Option<&'a AtomicBool>,
}

impl std::fmt::Debug for Solve<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solve")
            .field("variant", &self.variant)
            .field("budget", &self.budget)
            .field("tables", &self.tables.as_ref().map(|t| t.dir().to_path_buf()))
            .finish_non_exhaustive()
    }
}

impl<'a> Solve<'a> {
    /// A solve of the game `variant`, with no budget, no tables, no
    /// progress and no cancel flag.
    pub fn new(variant: Variant) -> Solve<'a> {
        Solve { variant, budget: usize::MAX, tables: None, progress: None, cancel: None }
    }

    /// This solve giving up with [`SolveError::TooLarge`] once more than
    /// `states` states are enumerated, before anything is solved.
    #[must_use]
    pub fn budget(self, states: usize) -> Solve<'a> {
        Solve { budget: states, ..self }
    }

    /// This solve taking the scores of the signatures `tables` cover from
    /// them: a [`Tablebase`], or a clone of an `Arc<Tablebase>` that many
    /// threads share (the [`Solution`] keeps it, to answer for the states
    /// the tables cover). Tables of another size or rule than the
    /// variant's are [`SolveError::Table`]. Tables of values only give
    /// exact values and no depths ([`Solution::depths_known`]).
    #[must_use]
    pub fn tables(self, tables: impl Into<Arc<Tablebase>>) -> Solve<'a> {
        Solve { tables: Some(tables.into()), ..self }
    }

    /// This solve telling `progress` how far it has come (and stopping
    /// when [`Progress::cancelled`] says so).
    #[must_use]
    pub fn progress(self, progress: &'a dyn Progress) -> Solve<'a> {
        Solve { progress: Some(progress), ..self }
    }

    /// This solve stopping with [`SolveError::Cancelled`] once `flag` is
    /// set (from any thread), asked before each signature.
    #[must_use]
    pub fn cancel(self, flag: &'a AtomicBool) -> Solve<'a> {
        Solve { cancel: Some(flag), ..self }
    }

    /// Solves every state reachable from `roots`.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] over the budget, [`SolveError::Cancelled`],
    /// [`SolveError::OtherSize`] for a root of another size than the
    /// variant's, [`SolveError::Table`] for damaged tables or tables of
    /// another size or rule.
    pub fn run(&self, roots: &[Position]) -> Result<Solution, SolveError> {
        let watch = Watch { progress: self.progress, cancel: self.cancel };
        solve_shared(self.variant, roots, self.tables.clone(), self.budget, Some(&watch))
    }
}

/// The progress of a [`Solve`] and its cancel flag, as one [`Progress`].
struct Watch<'a> {
    progress: Option<&'a dyn Progress>,
    cancel: Option<&'a AtomicBool>,
}

impl Progress for Watch<'_> {
    fn start(&self, total: u64, what: &str) {
        if let Some(p) = self.progress {
            p.start(total, what);
        }
    }

    fn advance(&self, units: u64) {
        if let Some(p) = self.progress {
            p.advance(units);
        }
    }

    fn counted(&self, done: u64, what: &str) {
        if let Some(p) = self.progress {
            p.counted(done, what);
        }
    }

    fn shorten(&self, units: u64) {
        if let Some(p) = self.progress {
            p.shorten(units);
        }
    }

    fn lengthen(&self, units: u64) {
        if let Some(p) = self.progress {
            p.lengthen(units);
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|f| f.load(Ordering::Relaxed))
            || self.progress.is_some_and(|p| p.cancelled())
    }
}
