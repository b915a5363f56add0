//! Exact solving of any position: every reachable state is enumerated
//! and solved signature by signature, from the last ones back
//! to the root, with a retrograde analysis. A
//! solved signature keeps one summary per node, from which the score of
//! each of its states is read.

mod answered;
mod attract;
pub(crate) mod builder;
mod bytes;
mod expand;
mod levels;
mod node;
mod node_table;
mod reach;
mod retro;
mod signature_graph;

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::moves::{Move, PassRule};
use crate::position::{Last, Position};
use crate::progress::Progress;
use crate::score::Score;
use crate::scored::{ScoreSource, ScoredMove, best_line, scored_moves, value_line};
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
    tables: Option<Arc<Tablebase>>,
    /// Whether the depths of the states solved in memory are known: not
    /// when tables of values only answered for some signature, since the
    /// solver then built its depths on theirs, which are not known.
    depths: bool,
    /// Time spent enumerating and solving.
    pub timing: (Duration, Duration),
}

/// Solves every state reachable from `root` under `rule`. `bar`, if given,
/// is told the progress: the states enumerated so far
/// ([`Progress::counted`]), then the states to solve and those solved.
/// With a state budget, a cancel flag, tables or several roots:
/// [`crate::Solve`].
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
/// for (_, child) in pos.children(PassRule::Always) {
///     assert!(solution.score(&child).is_some());
/// }
/// assert!(score.value == Value::NoResult || score.depth().is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(root: &Position, rule: PassRule, bar: Option<&dyn Progress>) -> Solution {
    solve_many(root.variant(rule), std::slice::from_ref(root), bar)
        .expect("the variant takes the root's size, and no tables, budget or cancel can stop it")
}

tooling_pub! {
/// Solves every state reachable from any of the `roots` (all of
/// `variant`'s size) at once.
///
/// # Errors
/// [`SolveError::OtherSize`]: a root of another size than `variant`'s
/// ([`solve`] and [`crate::policy::Policy::answer`] take the size from the
/// position).
fn solve_many(
    variant: Variant,
    roots: &[Position],
    bar: Option<&dyn Progress>,
) -> Result<Solution, SolveError> {
    solve_with(variant, roots, None, bar)
}
}

tooling_pub! {
/// [`solve_many`] that takes the scores of the signatures `tables` cover
/// from them (each file opened when first needed) and explores only the
/// rest.
///
/// # Errors
/// [`SolveError::OtherSize`] as [`solve_many`]; [`SolveError::Table`]: a
/// damaged table record, or tables of another size or rule than `variant`
/// ([`TableError::OtherSize`], [`TableError::OtherRule`]). Never
/// [`SolveError::TooLarge`] or [`SolveError::Cancelled`].
fn solve_with(
    variant: Variant,
    roots: &[Position],
    tables: Option<Tablebase>,
    bar: Option<&dyn Progress>,
) -> Result<Solution, SolveError> {
    let bar = bar.map(Uncancellable);
    let bar = bar.as_ref().map(|b| b as &dyn Progress);
    solve_bounded(variant, roots, tables, usize::MAX, bar)
}
}

/// A [`Progress`] passed on without its [`Progress::cancelled`]: a solve
/// that cannot fail ([`solve_with`]) is never cancelled.
struct Uncancellable<'a>(&'a dyn Progress);

impl Progress for Uncancellable<'_> {
    fn start(&self, total: u64, what: &str) {
        self.0.start(total, what);
    }

    fn advance(&self, units: u64) {
        self.0.advance(units);
    }

    fn counted(&self, done: u64, what: &str) {
        self.0.counted(done, what);
    }

    fn shorten(&self, units: u64) {
        self.0.shorten(units);
    }

    fn lengthen(&self, units: u64) {
        self.0.lengthen(units);
    }
}

/// Why a solve ([`crate::Solve::run`]) or an answer from a solution gave
/// nothing.
#[derive(Debug)]
#[non_exhaustive]
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
    /// The progress said the solve was no longer wanted
    /// ([`Progress::cancelled`]).
    Cancelled,
    /// A root of another size than the variant's.
    OtherSize {
        /// The variant's slots.
        slots: u8,
        /// The root.
        root: Position,
    },
    /// A position the solution did not reach
    /// ([`crate::answer::Answer::from_solution`]).
    NotReached {
        /// The position.
        pos: Position,
    },
    /// An answer asked of a solution under another rule than the one it
    /// was solved under ([`crate::answer::Answer::from_solution`]).
    OtherRule {
        /// The rule of the solve.
        solved: PassRule,
        /// The rule asked for.
        asked: PassRule,
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
            SolveError::Cancelled => f.write_str("the solve was cancelled"),
            SolveError::OtherSize { slots, root } => write!(
                f,
                "the position {root} has {} slots, not the {slots} of the variant solved",
                root.slots()
            ),
            SolveError::NotReached { pos } => {
                write!(f, "the position {pos} is not among the states the solve reached")
            }
            SolveError::OtherRule { solved, asked } => write!(
                f,
                "an answer under the pass rule {} was asked of a solve under {}",
                asked.name(),
                solved.name()
            ),
        }
    }
}

impl std::error::Error for SolveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SolveError::Table(e) => Some(e),
            SolveError::TooLarge { .. }
            | SolveError::Cancelled
            | SolveError::OtherSize { .. }
            | SolveError::NotReached { .. }
            | SolveError::OtherRule { .. } => None,
        }
    }
}

tooling_pub! {
/// [`solve_with`] that gives up, before solving anything, once more than
/// `budget` states have been enumerated (checked after each level of
/// signatures, so the memory used may pass the budget by one level). It
/// stops as well once `bar` says it is [cancelled](Progress::cancelled),
/// asked before each signature it enumerates or solves.
///
/// # Errors
/// [`SolveError::TooLarge`] over the budget, [`SolveError::Cancelled`] when
/// cancelled, [`SolveError::OtherSize`] for a root of another size than
/// `variant`'s, or [`SolveError::Table`] as [`solve_with`].
fn solve_bounded(
    variant: Variant,
    roots: &[Position],
    tables: Option<Tablebase>,
    budget: usize,
    bar: Option<&dyn Progress>,
) -> Result<Solution, SolveError> {
    solve_shared(variant, roots, tables.map(Arc::new), budget, bar)
}
}

/// [`solve_bounded`] with tables shared with others ([`Solve::tables`]).
fn solve_shared(
    variant: Variant,
    roots: &[Position],
    tables: Option<Arc<Tablebase>>,
    budget: usize,
    bar: Option<&dyn Progress>,
) -> Result<Solution, SolveError> {
    let start = Instant::now();
    if let Some(&root) = roots.iter().find(|r| r.slots() != variant.slots) {
        return Err(SolveError::OtherSize { slots: variant.slots, root });
    }
    if let Some(t) = &tables {
        t.check_rule(variant.rule).map_err(SolveError::Table)?;
        if let Some(root) = roots.first() {
            t.check_position(root).map_err(SolveError::Table)?;
        }
    }
    // Each table file is opened when first needed; the first that cannot
    // be is the error.
    let unreadable = OnceLock::new();
    let read_tables = AtomicBool::new(false);
    let covered = |sig: SigKey| {
        let covered = tables.as_ref().is_some_and(|t| {
            t.load(sig.fixed()).unwrap_or_else(|e| {
                let _ = unreadable.set(e);
                false
            })
        });
        if covered {
            read_tables.store(true, Ordering::Relaxed);
        }
        covered
    };
    let cancelled = || bar.is_some_and(|p| p.cancelled());
    let mut last = 0;
    let reached = reach::reach(variant, roots, &covered, &cancelled, |total| {
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
        if cancelled() {
            return Err(SolveError::Cancelled);
        }
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
            tables: tables.as_deref(),
            rule: variant.rule,
            error: &error,
        };
        let solve_one = |sig: &mut SigStates| {
            if cancelled() {
                return;
            }
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
        if cancelled() {
            return Err(SolveError::Cancelled);
        }
    }
    if let Some(e) = error.into_inner() {
        return Err(SolveError::Table(e));
    }
    let solved = start.elapsed() - enumerated;
    // A directory's files all hold depths or none do.
    let depths =
        !read_tables.into_inner() || tables.as_ref().is_none_or(|t| t.has_depths() != Some(false));
    Ok(Solution { reached, tables, depths, timing: (enumerated, solved) })
}

impl Solution {
    /// The board size and pass rule solved.
    pub fn variant(&self) -> Variant {
        self.reached.variant
    }

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

    /// Whether the scores' depths are known. They are not when tables of
    /// values only answered for part of the solve: then every
    /// [`Score::depth`] is `None` but those of finished games, the values
    /// are exact, and [`Solution::line`] is a line that keeps the value
    /// rather than the shortest one.
    pub fn depths_known(&self) -> bool {
        self.depths
    }

    /// The score of a reachable state (`None` if it was not reached, or
    /// has another size than the solution's); its depth as
    /// [`Solution::depths_known`] says.
    pub fn score(&self, pos: &Position) -> Option<Score> {
        if pos.slots() != self.reached.variant.slots {
            return None;
        }
        if pos.last() == Last::DoublePass {
            return Some(Score::terminal(Value::BothLose));
        }
        match self.reached.locate(pos) {
            Some((i, slot)) => Some(
                self.known(
                    pos,
                    self.reached.sigs[i]
                        .table
                        .summary(slot)
                        .score(pos.last(), self.reached.variant.rule),
                ),
            ),
            None => self.tables.as_ref()?.score(pos).ok(),
        }
    }

    /// `score`, the score solved in memory for `pos`, without its depth
    /// where the depths are not known (but for a finished game).
    fn known(&self, pos: &Position, score: Score) -> Score {
        if self.depths || pos.outcome().is_some() { score } else { Score::value_only(score.value) }
    }

    /// Every legal move of a reachable state with its score, best first
    /// ([`scored_moves`]).
    ///
    /// # Errors
    /// [`NotReached`] if `pos` was not reached (the children of a reached
    /// state are reached, or answered by the tables the solve read).
    pub fn moves(&self, pos: &Position) -> Result<Vec<ScoredMove>, NotReached> {
        scored_moves(self, pos)
    }

    /// A line of best play from a reachable state to the end of the game
    /// ([`best_line`]; empty for a finished game or a no-result state).
    /// Where the depths are not known ([`Solution::depths_known`]), a line
    /// in which every move keeps the value, as
    /// [`crate::probe::value_line`] gives from the tables.
    ///
    /// # Errors
    /// [`NotReached`] if `pos` was not reached.
    pub fn line(&self, pos: &Position) -> Result<Vec<Move>, NotReached> {
        if self.depths {
            return best_line(self, pos);
        }
        // A solution that disagrees with itself finds no way out: no line
        // rather than a wrong one.
        Ok(value_line(self, pos)?.unwrap_or_default())
    }

    /// All reachable states with their scores (double passes excluded).
    pub fn iter(&self) -> impl Iterator<Item = (Position, Score)> + '_ {
        let Variant { slots: n, rule } = self.reached.variant;
        self.reached.sigs.iter().flat_map(move |sig| {
            (0..sig.table.slots()).flat_map(move |slot| {
                let key = sig.table.key(slot);
                let summary = sig.table.summary(slot);
                bits(sig.table.mask(slot)).map(move |bit| {
                    let pos = node_position(n, key, last_of_bit(bit));
                    (pos, self.known(&pos, summary.score(pos.last(), rule)))
                })
            })
        })
    }
}

/// A position the solution did not reach (it holds no score for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
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

#[cfg(test)]
mod cancel_tests {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

    use super::*;

    /// Cancels once the solver has reported `after` calls of the phase
    /// named (`counted` while enumerating, `advance` while solving).
    struct CancelAfter {
        enumerating: bool,
        after: u64,
        calls: AtomicU64,
        cancelled: AtomicBool,
        /// Calls of the phase after it was cancelled.
        late: AtomicU64,
    }

    impl CancelAfter {
        fn new(enumerating: bool, after: u64) -> CancelAfter {
            CancelAfter {
                enumerating,
                after,
                calls: AtomicU64::new(0),
                cancelled: AtomicBool::new(false),
                late: AtomicU64::new(0),
            }
        }

        fn call(&self, enumerating: bool) {
            if enumerating != self.enumerating {
                return;
            }
            if self.cancelled.load(Ordering::SeqCst) {
                self.late.fetch_add(1, Ordering::SeqCst);
            }
            if self.calls.fetch_add(1, Ordering::SeqCst) + 1 >= self.after {
                self.cancelled.store(true, Ordering::SeqCst);
            }
        }
    }

    impl Progress for CancelAfter {
        fn counted(&self, _: u64, _: &str) {
            self.call(true);
        }

        fn advance(&self, _: u64) {
            self.call(false);
        }

        fn cancelled(&self) -> bool {
            self.cancelled.load(Ordering::SeqCst)
        }
    }

    /// 8 slots: thousands of signatures, a few hundred levels.
    fn root() -> Position {
        "6,1,7,2,4,8,5,3".parse().unwrap()
    }

    fn solve(bar: &CancelAfter) -> Result<Solution, SolveError> {
        let root = root();
        solve_bounded(
            Variant::new(8, PassRule::Always).unwrap(),
            &[root],
            None,
            usize::MAX,
            Some(bar),
        )
    }

    #[test]
    fn a_solve_cancelled_while_enumerating_stops_at_the_end_of_the_level() {
        let bar = CancelAfter::new(true, 3);
        assert!(matches!(solve(&bar), Err(SolveError::Cancelled)));
        assert_eq!(bar.calls.load(Ordering::SeqCst), 3, "no level after the cancel");
    }

    #[test]
    fn a_solve_cancelled_while_solving_solves_no_further_signature() {
        let bar = CancelAfter::new(false, 5);
        assert!(matches!(solve(&bar), Err(SolveError::Cancelled)));
        // Signatures already started on other threads may finish.
        let late = bar.late.load(Ordering::SeqCst);
        assert!(late <= rayon::current_num_threads() as u64, "{late} signatures after the cancel");
        let all = CancelAfter::new(false, u64::MAX);
        let whole = solve(&all).expect("never cancelled");
        assert!(all.calls.load(Ordering::SeqCst) > 5 + late + 10, "the solve had more to do");
        assert!(whole.score(&root()).is_some());
    }

    #[test]
    fn a_solve_that_cannot_fail_ignores_cancellation() {
        let bar = CancelAfter::new(true, 1);
        let solution =
            solve_with(Variant::new(8, PassRule::Always).unwrap(), &[root()], None, Some(&bar));
        assert!(solution.expect("no tables").score(&root()).is_some());
        assert_eq!(SolveError::Cancelled.to_string(), "the solve was cancelled");
    }
}
