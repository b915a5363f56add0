//! Exact solving of any position: every reachable state is enumerated
//! (`reach.rs`) and solved signature by signature, from the last ones back
//! to the root, with the retrograde core (`retro.rs`, [`retro_solve_in`]). A
//! solved signature keeps one [`Summary`] per node, from which the score of
//! each of its states is read.

mod answered;
mod attract;
mod expand;
mod node;
mod reach;
mod retro;
mod node_table;

use std::ops::ControlFlow;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use indicatif::ProgressBar;
use rayon::prelude::*;

use crate::moves::{Move, PassRule};
use crate::position::{Last, Position};
use crate::score::Score;
use crate::scored::{ScoreSource, ScoredMove, best_line, scored_moves};
use crate::signature::{SigKey, order_key};
use crate::summary::Summary;
use crate::table::{TableError, Tablebase};
use crate::value::Value;
use crate::variant::Variant;

pub(crate) use self::attract::{Workspace as ValueWorkspace, solve_in as solve_values_in};
pub(crate) use self::expand::Child;
#[cfg(test)]
pub(crate) use self::expand::mover_complete;
pub use self::node::terminal_value;
pub(crate) use self::node::{
    NodeMoves, inside_parent, inside_parent_key, inside_walk_key, last_bit, last_of_bit, node_key,
    node_position,
};
pub(crate) use self::reach::{Reached, SigStates};
pub(crate) use self::retro::{Graph, Init, Workspace, solve_in as retro_solve_in};
pub(crate) use self::node_table::NodeTable;

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
/// shows the progress (its length is set here).
pub fn solve(root: &Position, rule: PassRule, bar: Option<&ProgressBar>) -> Solution {
    solve_many(Variant::new(root.slots(), rule), std::slice::from_ref(root), bar)
}

/// Solves every state reachable from any of the `roots` (all of
/// `variant`'s size) at once.
pub fn solve_many(variant: Variant, roots: &[Position], bar: Option<&ProgressBar>) -> Solution {
    solve_with(variant, roots, None, bar).expect("without tables nothing can fail")
}

/// [`solve_many`] that takes the scores of the signatures `tables` cover
/// from them (its files must be loaded: [`Tablebase::load_all`]) and
/// explores only the rest.
///
/// # Errors
/// A damaged table record.
pub fn solve_with(
    variant: Variant,
    roots: &[Position],
    tables: Option<Tablebase>,
    bar: Option<&ProgressBar>,
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
    bar: Option<&ProgressBar>,
) -> Result<Solution, SolveError> {
    let start = Instant::now();
    let covered =
        |sig: SigKey| tables.as_ref().is_some_and(|t| t.file((sig >> 16) as u16).is_some());
    let mut last = 0;
    let reached = reach::reach(variant, roots, &covered, |total| {
        last = total;
        if let Some(b) = bar {
            b.set_message(format!("enumerating: {total} states"));
        }
        if total > budget { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    let Some(mut reached) = reached else {
        return Err(SolveError::TooLarge { states: last, budget });
    };
    let enumerated = start.elapsed();
    if let Some(b) = bar {
        b.set_length(reached.states() as u64);
        b.set_position(0);
        b.set_message("solving");
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
            if let Some(b) = bar {
                b.inc(states as u64);
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

/// What is solved already: the signatures after the current group, and
/// the tables.
struct Later<'a> {
    sigs: &'a [SigStates],
    offset: usize,
    index: &'a rustc_hash::FxHashMap<SigKey, usize>,
    tables: Option<&'a Tablebase>,
    rule: PassRule,
    /// The first damaged table record met.
    error: &'a OnceLock<TableError>,
}

impl Later<'_> {
    /// The score of `pos` from the tables (which cover it); a damaged record
    /// is kept in `error` and scores as no-result meanwhile.
    fn table_score(&self, sig: SigKey, pos: &Position) -> Score {
        let tables = self.tables.expect("a child not reached is covered by tables");
        match tables.summary_in(sig, pos) {
            Ok(Some(s)) => s.score(pos.last(), self.rule),
            Ok(None) => unreachable!("covered signatures have their file loaded"),
            Err(e) => {
                let _ = self.error.set(e);
                Score::terminal(Value::NoResult)
            }
        }
    }
}

/// Below this many items a signature is handled by one thread (the
/// signatures of a level already run in parallel).
const PARALLEL_MIN: usize = 1 << 14;

/// Memory a worker thread reuses from one signature to the next: most
/// signatures are small, and allocating (and zeroing fresh pages) for each
/// one costs more than solving it.
#[derive(Default)]
struct Buffers {
    nodes: Vec<NodeMoves>,
    first: Vec<u32>,
    slot_of: Vec<u32>,
    summaries: Vec<Summary>,
    retro: retro::Workspace,
}

std::thread_local! {
    static BUFFERS: std::cell::Cell<Buffers> = std::cell::Cell::default();
}

/// Solves one signature and stores its summaries; returns its state count.
fn solve_signature(sig: &mut SigStates, variant: Variant, later: &Later<'_>) -> usize {
    // Taken out rather than borrowed: a nested parallel loop may run
    // another signature on this thread meanwhile (it gets fresh buffers).
    let mut buf = BUFFERS.take();
    let g = ReachGraph::new(sig, variant, later, &mut buf);
    let scores = retro::solve_in(&g, &mut buf.retro);
    buf.summaries.clear();
    buf.summaries.extend((0..sig.table.slots()).map(|slot| g.summary(slot, scores)));
    let states = scores.len();
    (buf.nodes, buf.first, buf.slot_of) = g.into_buffers();
    for (slot, s) in buf.summaries.iter().enumerate() {
        if sig.table.mask(slot) != 0 {
            sig.table.set_summary(slot, s);
        }
    }
    BUFFERS.set(buf);
    states
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
            None => self.tables.as_ref()?.score(pos).ok().flatten(),
        }
    }

    /// Every legal move of a reachable state with its score, best first
    /// ([`scored_moves`]).
    ///
    /// # Panics
    /// If `pos` was not reached.
    pub fn moves(&self, pos: &Position) -> Vec<ScoredMove> {
        scored_moves(&mut { self }, pos).expect("children of reached states are reached")
    }

    /// A line of best play from a reachable state to the end of the game
    /// ([`best_line`]; empty for a finished game or a no-result state).
    ///
    /// # Panics
    /// If `pos` was not reached.
    pub fn line(&self, pos: &Position) -> Vec<Move> {
        best_line(&mut { self }, pos).expect("states on a line of reached states are reached")
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

impl ScoreSource for &Solution {
    type Error = NotReached;

    fn rule(&self) -> PassRule {
        self.reached.variant.rule
    }

    fn score(&mut self, pos: &Position) -> Result<Score, NotReached> {
        Solution::score(self, pos).ok_or(NotReached(*pos))
    }
}

/// The single bits of `mask`, lowest first.
fn bits(mut mask: u16) -> impl Iterator<Item = u16> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let bit = mask & mask.wrapping_neg();
        mask &= mask - 1;
        Some(bit)
    })
}

/// One signature of a [`Reached`] set as a [`Graph`]. States are numbered
/// slot by slot, by `last` bit within a slot.
struct ReachGraph<'a> {
    table: &'a NodeTable,
    variant: Variant,
    /// Per table slot.
    nodes: Vec<NodeMoves>,
    /// Per table slot, its first state.
    first: Vec<u32>,
    /// Per state, its table slot << 4 | the index of its `last` bit.
    slot_of: Vec<u32>,
}

impl<'a> ReachGraph<'a> {
    /// The graph of `sig`, built in the vectors of `buf`
    /// ([`ReachGraph::into_buffers`] gives them back).
    fn new(sig: &'a SigStates, variant: Variant, later: &Later<'_>, buf: &mut Buffers) -> Self {
        let Variant { slots: n, rule } = variant;
        // Children of one node mostly go to a few signatures: a small
        // direct-mapped cache per worker saves most index lookups.
        let exits = |cache: &mut [(SigKey, usize); 64], children: &[Child], out: &mut [Score]| {
            let mut at = [0usize; 20];
            for (c, a) in children.iter().zip(&mut at) {
                let way = &mut cache[(c.sig.wrapping_mul(0x9E37_79B9) >> 26) as usize];
                if way.0 != c.sig {
                    let j = later.index.get(&c.sig).map_or(usize::MAX, |j| j - later.offset);
                    *way = (c.sig, j);
                }
                *a = way.1;
            }
            // Touch every child's slot first, so that the cache misses
            // overlap instead of following one another.
            let touched = children
                .iter()
                .zip(&at)
                .filter(|(_, j)| **j != usize::MAX)
                .fold(0, |t, (c, &j)| t ^ later.sigs[j].table.touch(c.key));
            std::hint::black_box(touched);
            for ((c, &j), o) in children.iter().zip(&at).zip(out.iter_mut()) {
                if j == usize::MAX {
                    *o = later.table_score(c.sig, &c.pos);
                    continue;
                }
                let table = &later.sigs[j].table;
                let slot = table.find(c.key).expect("every child was reached");
                *o = table.summary(slot).score(c.pos.last(), rule);
            }
        };
        let table = &sig.table;
        let node = |cache: &mut [(SigKey, usize); 64], slot: usize| {
            if table.mask(slot) == 0 {
                return NodeMoves::default();
            }
            let key = table.key(slot);
            let pos = node_position(n, key, Last::None);
            // A node whose only state is banned from walking p never walks p.
            let mask = table.mask(slot);
            let skip = if mask.count_ones() == 1 && mask & 1 == 0 { mask & 0x1ffe } else { 0 };
            NodeMoves::new(&pos, sig.key, key, skip, |c, out| exits(cache, c, out))
        };
        let slots = table.slots();
        assert!(slots < 1 << 28, "a signature's slots fit in 28 bits");
        let mut nodes = std::mem::take(&mut buf.nodes);
        nodes.clear();
        if slots < PARALLEL_MIN {
            let mut cache = [(SigKey::MAX, 0); 64];
            nodes.extend((0..slots).map(|slot| node(&mut cache, slot)));
        } else {
            (0..slots)
                .into_par_iter()
                .map_init(|| [(SigKey::MAX, 0); 64], node)
                .collect_into_vec(&mut nodes);
        }
        let mut first = std::mem::take(&mut buf.first);
        let states = table.first_states(&mut first);
        let mut slot_of = std::mem::take(&mut buf.slot_of);
        slot_of.clear();
        slot_of.reserve(states);
        for slot in 0..slots {
            slot_of.extend(bits(table.mask(slot)).map(|b| (slot as u32) << 4 | b.trailing_zeros()));
        }
        ReachGraph { table, variant, nodes, first, slot_of }
    }

    /// Gives back the vectors borrowed from a [`Buffers`].
    fn into_buffers(self) -> (Vec<NodeMoves>, Vec<u32>, Vec<u32>) {
        (self.nodes, self.first, self.slot_of)
    }

    /// The slot of state `s` and its `last`.
    #[inline]
    fn state(&self, s: usize) -> (usize, Last) {
        let v = self.slot_of[s];
        ((v >> 4) as usize, last_of_bit(1 << (v & 15)))
    }

    /// The id of the state (node `key`, `last`) of this signature, if
    /// reached.
    #[inline]
    fn state_id(&self, key: u64, last: Last) -> Option<usize> {
        let slot = self.table.find(key)?;
        let mask = self.table.mask(slot);
        let bit = last_bit(last);
        (mask & bit != 0)
            .then(|| self.first[slot] as usize + (mask & (bit - 1)).count_ones() as usize)
    }

    /// The summary of the node in `slot`, given the scores of all states.
    fn summary(&self, slot: usize, scores: &[u16]) -> Summary {
        let node = &self.nodes[slot];
        if self.table.mask(slot) == 0 {
            return Summary::default();
        }
        if let Some(t) = node.terminal {
            return Summary::ended(t);
        }
        // Moves into states that were not reached are moves no reached
        // state of this node can play: they are left out.
        let score = |key: u64, last: Last| {
            let id = self.state_id(key, last)?;
            Some(Score::from_child(Score::unpack(scores[id]).expect("solved"), false))
        };
        let key = self.table.key(slot);
        let mut summary = node.exits;
        let mut inside = node.inside;
        while inside != 0 {
            let p = inside.trailing_zeros() as u8;
            inside &= inside - 1;
            if let Some(s) = score(inside_walk_key(self.variant.slots, key, p), Last::Piece(p)) {
                summary.offer(s, p);
            }
        }
        summary.pass = score(key ^ 1, Last::Pass);
        summary
    }
}

impl Graph for ReachGraph<'_> {
    fn len(&self) -> usize {
        self.slot_of.len()
    }

    fn init(&self, s: usize) -> Init {
        let (slot, last) = self.state(s);
        self.nodes[slot].init(last, self.variant.rule)
    }

    fn parents(&self, s: usize, f: &mut dyn FnMut(usize)) {
        let (slot, last) = self.state(s);
        let Some((parent, excluded)) =
            inside_parent_key(self.variant.slots, self.table.key(slot), last)
        else {
            return;
        };
        let Some(pslot) = self.table.find(parent) else {
            return;
        };
        let node = &self.nodes[pslot];
        if node.terminal.is_some() {
            return;
        }
        let first = self.first[pslot] as usize;
        for (k, bit) in bits(self.table.mask(pslot)).enumerate() {
            if bit & excluded != 0 {
                continue;
            }
            if last == Last::Pass && !node.may_pass(last_of_bit(bit), self.variant.rule) {
                continue;
            }
            f(first + k);
        }
    }
}
