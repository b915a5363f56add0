//! The one answering policy: where the answer for a position comes from,
//! decided in one place for every program on the library (the
//! `chaosclock` commands `query`, `solve` and `play`, and the server).
//!
//! In order: the rules for a finished game; the tables, which give the
//! whole answer; for an opening they do not cover, the openings book's
//! value (read only then: a lookup decodes a block, about a millisecond);
//! a bounded solve in memory, through a [`Solver`] the caller chooses,
//! told the book's value first (the solve must agree with the book);
//! and, when neither tables nor a solver are given, the book's value
//! alone. A position none of these answer is an [`AnswerError`] that
//! says what was missing and why the solve stopped.
//!
//! The solve step is a trait so that a caller with its own solve (a cache
//! of solutions, cancellation, a progress bar, a queue) plugs in:
//! [`Bounded`] is the plain one (`solve_bounded` within a state budget).

use std::fmt;

use crate::answer::Answer;
use crate::book::Book;
use crate::moves::PassRule;
use crate::position::Position;
use crate::progress::Progress;
use crate::solve::{SolveError, solve_bounded};
use crate::table::{ProbeError, Tablebase};
use crate::value::Value;

/// An answer and the states solved for it.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Answered {
    /// The answer; [`Answer::source`] says where it came from.
    pub answer: Answer,
    /// The states solved ([`crate::answer::Source::Solve`] only).
    pub states: Option<usize>,
}

impl Answered {
    /// `answer`, for which `states` states were solved (`None` if it comes
    /// from no solve).
    pub fn new(answer: Answer, states: Option<usize>) -> Answered {
        Answered { answer, states }
    }
}

/// The solve step of the policy: the answer for `pos` from a solve in
/// memory, or why there is none.
pub trait Solver: Sync {
    /// Solves `pos` under `rule`. `book` is the openings book's value of
    /// `pos`, if it has one (to show before a long solve; the policy
    /// checks that the solve agrees with it).
    ///
    /// # Errors
    /// The solve would be too large, was cancelled, or read a damaged
    /// table.
    fn solve(
        &self,
        pos: &Position,
        rule: PassRule,
        book: Option<Value>,
    ) -> Result<Answered, SolveError>;
}

/// The plain solve step: a [`crate::Solve`] of at most `states` states,
/// telling `progress`, if given, how far it has come.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct Bounded<'a> {
    /// The most states to solve.
    pub states: usize,
    /// Told the progress of the solve.
    pub progress: Option<&'a dyn Progress>,
}

impl fmt::Debug for Bounded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bounded").field("states", &self.states).finish_non_exhaustive()
    }
}

impl<'a> Bounded<'a> {
    /// A solve of at most `states` states, telling no one its progress.
    pub fn new(states: usize) -> Bounded<'a> {
        Bounded { states, progress: None }
    }

    /// This solve telling `progress` how far it has come.
    #[must_use]
    pub fn with_progress(self, progress: Option<&'a dyn Progress>) -> Bounded<'a> {
        Bounded { progress, ..self }
    }
}

impl Solver for Bounded<'_> {
    fn solve(
        &self,
        pos: &Position,
        rule: PassRule,
        _: Option<Value>,
    ) -> Result<Answered, SolveError> {
        let variant = pos.variant(rule);
        let solution = solve_bounded(variant, &[*pos], None, self.states, self.progress)?;
        let answer = Answer::from_solution(&solution, pos, rule)?;
        Ok(Answered { answer, states: Some(solution.states()) })
    }
}

/// The sources of answers, consulted in the policy's order
/// ([`Policy::answer`]). Any may be left out.
#[derive(Clone, Copy, Default)]
#[non_exhaustive]
pub struct Policy<'a> {
    /// The tables, for positions of their size and rule.
    pub tables: Option<&'a Tablebase>,
    /// The openings book ([`Book::embedded`]).
    pub book: Option<&'a Book>,
    /// The solve step for what the tables do not cover.
    pub solver: Option<&'a dyn Solver>,
}

impl<'a> Policy<'a> {
    /// A policy with no source but the rules: add the others with
    /// [`Policy::with_tables`], [`Policy::with_book`] and
    /// [`Policy::with_solver`].
    pub fn new() -> Policy<'a> {
        Policy::default()
    }

    /// This policy answering from `tables` too.
    #[must_use]
    pub fn with_tables(self, tables: Option<&'a Tablebase>) -> Policy<'a> {
        Policy { tables, ..self }
    }

    /// This policy reading `book` too.
    #[must_use]
    pub fn with_book(self, book: Option<&'a Book>) -> Policy<'a> {
        Policy { book, ..self }
    }

    /// This policy solving with `solver` what the tables do not cover.
    #[must_use]
    pub fn with_solver(self, solver: Option<&'a dyn Solver>) -> Policy<'a> {
        Policy { solver, ..self }
    }
}

impl fmt::Debug for Policy<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Policy")
            .field("tables", &self.tables.map(Tablebase::dir))
            .field("book", &self.book.is_some())
            .field("solver", &self.solver.is_some())
            .finish()
    }
}

/// Why the policy gave no answer.
#[derive(Debug)]
#[non_exhaustive]
pub enum AnswerError {
    /// The tables cannot be read: a damaged file, or tables of another
    /// size or rule than the position's.
    Tables(ProbeError),
    /// No source answers.
    Unanswered {
        /// The table file that would hold the position
        /// ([`ProbeError::Missing`]); `None` without tables.
        missing: Option<ProbeError>,
        /// Why the solve stopped; `None` without a solver.
        solve: Option<SolveError>,
        /// The openings book's value, if it has one (an answer of its own
        /// for a caller that will take a value without moves).
        book: Option<Value>,
    },
    /// The openings book and the solve disagree: a bug.
    BookDisagrees {
        /// The position.
        pos: Position,
        /// The book's value.
        book: Value,
        /// The solve's value.
        solved: Value,
    },
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnswerError::Tables(e) => e.fmt(f),
            AnswerError::Unanswered { missing, solve, .. } => match (missing, solve) {
                (_, Some(e)) => {
                    write!(f, "no table covers the position, and the solve stopped: {e}")
                }
                (Some(e), None) => e.fmt(f),
                (None, None) => f.write_str("no table and no solve to answer the position"),
            },
            AnswerError::BookDisagrees { pos, book, solved } => write!(
                f,
                "the openings book gives {pos} the value {book}, the solve {solved}: a bug, please report it"
            ),
        }
    }
}

impl std::error::Error for AnswerError {}

impl Policy<'_> {
    /// The answer for `pos` under `rule`, from the first source that gives
    /// it (module docs).
    ///
    /// # Errors
    /// [`AnswerError`].
    ///
    /// # Examples
    ///
    /// An opening with no tables: a solve of at most a million states.
    ///
    /// ```
    /// use chaosclock::answer::Source;
    /// use chaosclock::book::Book;
    /// use chaosclock::policy::{Bounded, Policy};
    /// use chaosclock::{PassRule, Position, Value};
    ///
    /// let solver = Bounded::new(1_000_000);
    /// let policy = Policy::new().with_book(Some(Book::embedded()?)).with_solver(Some(&solver));
    /// let pos: Position = "2,1,4,3,6,5".parse()?;
    /// let found = policy.answer(&pos, PassRule::Always)?;
    /// assert_eq!(found.answer.source, Source::Solve);
    /// assert_eq!((found.answer.score.value, found.answer.score.depth()), (Value::SelfWin, Some(12)));
    ///
    /// // Without a solver, the book's value alone.
    /// let policy = policy.with_solver(None);
    /// let found = policy.answer(&pos, PassRule::Always)?;
    /// assert_eq!((found.answer.source, found.answer.score.value), (Source::Book, Value::SelfWin));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn answer(&self, pos: &Position, rule: PassRule) -> Result<Answered, AnswerError> {
        if let Some(answer) = Answer::from_rules(pos, rule) {
            return Ok(Answered { answer, states: None });
        }
        let missing = match self.tables.map(|tb| Answer::from_tables(tb, pos, rule)) {
            None => None,
            Some(Ok(answer)) => return Ok(Answered { answer, states: None }),
            Some(Err(e @ ProbeError::Missing { .. })) => Some(e),
            Some(Err(e)) => return Err(AnswerError::Tables(e)),
        };
        // The book is read only where the tables do not answer: it decodes
        // a block an opening (about a millisecond), and tables that answer
        // give the whole answer, which agrees with the book (`verify`,
        // tests/book.rs).
        let book = self.book.and_then(|b| b.value(pos, rule).ok());
        let Some(solver) = self.solver else {
            return match book {
                Some(value) => {
                    Ok(Answered { answer: Answer::book_value(*pos, rule, value), states: None })
                }
                None => Err(AnswerError::Unanswered { missing, solve: None, book }),
            };
        };
        let solved = solver.solve(pos, rule, book).map_err(|e| AnswerError::Unanswered {
            missing,
            solve: Some(e),
            book,
        })?;
        if let Some(book) = book.filter(|&v| v != solved.answer.score.value) {
            let solved = solved.answer.score.value;
            return Err(AnswerError::BookDisagrees { pos: *pos, book, solved });
        }
        Ok(solved)
    }
}
