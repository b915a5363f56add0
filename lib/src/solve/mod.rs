//! Exact solving of any position: every reachable state is enumerated
//! (`reach.rs`) and solved signature by signature, from the last ones back
//! to the root, with the retrograde core (`retro.rs`). A
//! solved signature keeps one summary (`summary.rs`) per node, from which the score of
//! each of its states is read.

mod answered;
mod attract;
mod bytes;
mod expand;
mod levels;
mod node;
mod node_table;
mod reach;
mod retro;
mod signature_graph;

use std::ops::ControlFlow;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::moves::{Move, PassRule};
use crate::position::{Last, Position};
use crate::progress::Progress;
use crate::score::Score;
use crate::scored::{ScoreSource, ScoredMove, best_line, scored_moves};
use crate::signature::{SigKey, order_key};
use crate::table::{TableError, Tablebase};
use crate::value::Value;
use crate::variant::Variant;

pub(crate) use self::attract::{Workspace as ValueWorkspace, solve_in as solve_values_in};
pub(crate) use self::expand::Child;
#[cfg(test)]
pub(crate) use self::expand::mover_complete;
pub(crate) use self::levels::{Workspace as LevelWorkspace, solve_in as solve_by_levels};
pub use self::node::terminal_value;
pub(crate) use self::node::{
    NodeMoves, bits, inside_parent_key, inside_walk_key, key_slot_of, last_bit, last_of_bit,
    node_key, node_position,
};
pub(crate) use self::node_table::NodeTable;
pub(crate) use self::reach::{Reached, SigStates};
pub(crate) use self::retro::{Graph, Init, Workspace, solve_in as retro_solve_in};
use self::signature_graph::{Later, solve_signature};

/// Every state reachable from a root, with its score.
#[derive(Debug)]
pub struct Solution {
    reached: Reached,
    /// The tables that answered for the signatures they cover.
    tables: Option<Tablebase>,
    /// Time spent enumerating and solving.
    pub timing: (Duration, Duration),
}

/// Solves every state reachable from `root` under `rule`. `bar`, if given,
/// is told the progress: the states enumerated so far
/// ([`Progress::counted`]), then the states to solve and those solved.
///
/// # Examples
///
/// ```
/// use chaosclock::solve::solve;
/// use chaosclock::{PassRule, Position, Value};
///
/// let pos: Position = "2,1,4,3".parse()?;
/// let solution = solve(&pos, PassRule::Always, None);
/// let score = solution.score(&pos).ok_or("the root is solved")?;
/// assert!(solution.states() > 1);
/// // Every child of the root is solved too.
/// for m in pos.legal_moves(PassRule::Always).iter() {
///     assert!(solution.score(&pos.play_unchecked(*m)).is_some());
/// }
/// assert!(score.value != Value::NoResult || score.depth == 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(root: &Position, rule: PassRule, bar: Option<&dyn Progress>) -> Solution {
    solve_many(Variant::new(root.slots(), rule), std::slice::from_ref(root), bar)
}

/// Solves every state reachable from any of the `roots` (all of
/// `variant`'s size) at once.
///
/// # Panics
/// A root of another size than `variant`'s (a caller's bug: [`solve`] and
/// [`crate::policy::Policy::answer`] take the size from the position).
pub fn solve_many(variant: Variant, roots: &[Position], bar: Option<&dyn Progress>) -> Solution {
    solve_with(variant, roots, None, bar).expect("without tables nothing can fail")
}

/// [`solve_many`] that takes the scores of the signatures `tables` cover
/// from them (each file opened when first needed) and explores only the
/// rest.
///
/// # Errors
/// A damaged table record; tables of another size or rule than `variant`
/// ([`TableError::OtherSize`], [`TableError::OtherRule`]).
///
/// # Panics
/// As [`solve_many`].
pub fn solve_with(
    variant: Variant,
    roots: &[Position],
    tables: Option<Tablebase>,
    bar: Option<&dyn Progress>,
) -> Result<Solution, TableError> {
    solve_bounded(variant, roots, tables, usize::MAX, bar).map_err(|e| match e {
        SolveError::Table(e) => e,
        SolveError::TooLarge { .. } => unreachable!("no state budget was set"),
    })
}

/// Why a bounded solve ([`solve_bounded`]) gave no solution.
#[derive(Debug)]
pub enum SolveError {
    /// A damaged table record.
    Table(TableError),
    /// More states are reachable than the budget allows.
    TooLarge {
        /// The states enumerated when the enumeration stopped.
        states: usize,
        /// The budget.
        budget: usize,
    },
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Table(e) => e.fmt(f),
            SolveError::TooLarge { states, budget } => write!(
                f,
                "more than {budget} states are reachable (at least {states}): the position is too large to solve within the state budget"
            ),
        }
    }
}

impl std::error::Error for SolveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SolveError::Table(e) => Some(e),
            SolveError::TooLarge { .. } => None,
        }
    }
}

/// [`solve_with`] that gives up, before solving anything, once more than
/// `budget` states have been enumerated (checked after each level of
/// signatures, so the memory used may pass the budget by one level).
///
/// # Errors
/// [`SolveError::TooLarge`] over the budget, or a damaged table record.
pub fn solve_bounded(
    variant: Variant,
    roots: &[Position],
    tables: Option<Tablebase>,
    budget: usize,
    bar: Option<&dyn Progress>,
) -> Result<Solution, SolveError> {
    let start = Instant::now();
    if let Some(t) = &tables {
        t.check_rule(variant.rule).map_err(SolveError::Table)?;
        if let Some(root) = roots.first() {
            t.check_position(root).map_err(SolveError::Table)?;
        }
    }
    // Each table file is opened when first needed; the first that cannot
    // be is the error.
    let unreadable = OnceLock::new();
    let covered = |sig: SigKey| {
        tables.as_ref().is_some_and(|t| {
            t.load(sig.fixed()).unwrap_or_else(|e| {
                let _ = unreadable.set(e);
                false
            })
        })
    };
    let mut last = 0;
    let reached = reach::reach(variant, roots, &covered, |total| {
        last = total;
        if let Some(p) = bar {
            p.counted(total as u64, &format!("enumerating: {total} states"));
        }
        if total > budget { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    if let Some(e) = unreadable.into_inner() {
        return Err(SolveError::Table(e));
    }
    let Some(mut reached) = reached else {
        return Err(SolveError::TooLarge { states: last, budget });
    };
    let enumerated = start.elapsed();
    if let Some(p) = bar {
        p.start(reached.states() as u64, "solving");
    }
    // Signatures of one order key never lead to each other: solve each such
    // group in parallel, the last group first, reading the later ones.
    let error = OnceLock::new();
    let mut end = reached.sigs.len();
    while end > 0 {
        let key = order_key(reached.sigs[end - 1].key);
        let mut begin = end - 1;
        while begin > 0 && order_key(reached.sigs[begin - 1].key) == key {
            begin -= 1;
        }
        let (head, later) = reached.sigs.split_at_mut(end);
        let view = Later {
            sigs: later,
            offset: end,
            index: &reached.index,
            tables: tables.as_ref(),
            rule: variant.rule,
            error: &error,
        };
        let solve_one = |sig: &mut SigStates| {
            let states = solve_signature(sig, variant, &view);
            if let Some(p) = bar {
                p.advance(states as u64);
            }
        };
        let size: usize = head[begin..].iter().map(|s| s.table.len()).sum();
        if size < reach::SMALL_LEVEL {
            head[begin..].iter_mut().for_each(solve_one);
        } else {
            head[begin..].par_iter_mut().for_each(solve_one);
        }
        end = begin;
    }
    if let Some(e) = error.into_inner() {
        return Err(SolveError::Table(e));
    }
    let solved = start.elapsed() - enumerated;
    Ok(Solution { reached, tables, timing: (enumerated, solved) })
}

impl Solution {
    /// Number of stored states (double passes excluded).
    pub fn states(&self) -> usize {
        self.reached.states()
    }

    /// Number of nodes (boards with a side to move) among the states.
    pub fn nodes(&self) -> usize {
        self.reached.sigs.iter().map(|s| s.table.len()).sum()
    }

    /// Number of reachable terminal states after two passes.
    pub fn double_passes(&self) -> usize {
        self.reached.double_passes
    }

    /// Number of signatures.
    pub fn signatures(&self) -> usize {
        self.reached.sigs.len()
    }

    /// The score of a reachable state (`None` if it was not reached).
    pub fn score(&self, pos: &Position) -> Option<Score> {
        if pos.last() == Last::DoublePass {
            return Some(Score::terminal(Value::BothLose));
        }
        match self.reached.locate(pos) {
            Some((i, slot)) => Some(
                self.reached.sigs[i]
                    .table
                    .summary(slot)
                    .score(pos.last(), self.reached.variant.rule),
            ),
            None => self.tables.as_ref()?.score(pos).ok(),
        }
    }

    /// Every legal move of a reachable state with its score, best first
    /// ([`scored_moves`]).
    ///
    /// # Panics
    /// If `pos` was not reached.
    pub fn moves(&self, pos: &Position) -> Vec<ScoredMove> {
        scored_moves(self, pos).expect("children of reached states are reached")
    }

    /// A line of best play from a reachable state to the end of the game
    /// ([`best_line`]; empty for a finished game or a no-result state).
    ///
    /// # Panics
    /// If `pos` was not reached.
    pub fn line(&self, pos: &Position) -> Vec<Move> {
        best_line(self, pos).expect("states on a line of reached states are reached")
    }

    /// All reachable states with their scores (double passes excluded).
    pub fn iter(&self) -> impl Iterator<Item = (Position, Score)> + '_ {
        let Variant { slots: n, rule } = self.reached.variant;
        self.reached.sigs.iter().flat_map(move |sig| {
            (0..sig.table.slots()).flat_map(move |slot| {
                let key = sig.table.key(slot);
                let summary = sig.table.summary(slot);
                bits(sig.table.mask(slot)).map(move |bit| {
                    let last = last_of_bit(bit);
                    (node_position(n, key, last), summary.score(last, rule))
                })
            })
        })
    }
}

/// A position the solution did not reach (it holds no score for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotReached(pub Position);

impl std::fmt::Display for NotReached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} was not reached by this solve", self.0)
    }
}

impl std::error::Error for NotReached {}

impl ScoreSource for Solution {
    type Error = NotReached;

    fn rule(&self) -> PassRule {
        self.reached.variant.rule
    }

    fn score(&self, pos: &Position) -> Result<Score, NotReached> {
        Solution::score(self, pos).ok_or(NotReached(*pos))
    }
}
