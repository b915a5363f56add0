//! Depths once the values are known: the scores of the core with depths
//! ([`crate::solve::retro`]) in 2 bytes a state, by all threads.
//!
//! The core with depths keeps about 11 bytes a state and runs on one
//! thread; the largest 12-slot sub-tables have over a billion states. So
//! large graphs are solved in two passes: the values by the values-only
//! core ([`crate::solve::attract`], 1 byte a state), then the depths, 1
//! byte a state more.
//!
//! With every value known, the phases of the core with depths no longer
//! meet: each value's depths are the least solution of its own equations
//! (a finished game has depth 0, an exit its own depth, a child in the
//! signature its depth plus one):
//! - self-win: the smallest of the winning exit and the children lost for
//!   their mover (the winner ends as fast as it can);
//! - self-lose: the largest of the losing exit (0 without one) and all the
//!   children, which are all won for their mover (the loser lasts as long
//!   as it can);
//! - both-win, both-lose: the smallest of the exit and the children worth
//!   the same value (the shortest path to such an end);
//! - no-result: 0.
//!
//! They are found level by level, as syzygy1/tb's generator does: the
//! scan of level d settles every state whose depth is d and offers d + 1
//! to its parents of the matching value (the smaller for a winner or a
//! cooperative state; for a loser, the larger, and one child fewer to
//! wait for). Offers are never below the next level, so a state whose
//! candidate equals the level scanned is settled; a loser only once it
//! waits for no child. The result does not depend on the order in which a
//! level's states are visited, so it is the same for any number of
//! threads (tested against [`crate::solve::retro`] on random graphs).
//!
//! A state's depth byte ([`Bytes`], eight to a word so that a level's scan
//! skips words with none of it) holds its candidate, [`UNKNOWN`] for none. A
//! loser's count of children still to settle rides in the upper bits of
//! its value byte (the values core's output, whose low 3 bits are the
//! value code), and is 0 again once every state is settled.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::score::Score;
use crate::solve::attract;
use crate::solve::bytes::Bytes;
use crate::solve::retro::{Graph, Init};
use crate::value::Value;

/// The depth byte of a state with no candidate yet.
const UNKNOWN: u8 = Bytes::FILL;

/// The largest depth this core keeps (one byte a state). The 12-slot
/// tables' depths stay near 50 (docs/depths.md).
pub const MAX_DEPTH: u16 = UNKNOWN as u16 - 1;

/// A loser's counter is the value byte shifted by this.
const COUNTER_SHIFT: u32 = 3;

/// The value in a value byte (below its counter).
#[inline]
fn value_of(cell: u8) -> Value {
    Value::from_code(cell & ((1 << COUNTER_SHIFT) - 1)).expect("a value code")
}

/// Graphs with at least this many states are scanned by all threads.
const PARALLEL: usize = 1 << 20;

/// States per piece of work of a parallel scan.
const CHUNK: usize = 1 << 14;

/// Tells a scan keeps waiting, their parents' lines prefetched
/// ([`Levels::scan`]).
const TELLS: usize = 32;

/// Why a graph has no scores from this core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepthError {
    /// Some depth is over [`MAX_DEPTH`].
    TooDeep,
    /// A state was never settled: the values and the depths disagree (a
    /// bug).
    Unsettled(usize),
}

impl std::fmt::Display for DepthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DepthError::TooDeep => write!(f, "a depth is over {MAX_DEPTH} plies"),
            DepthError::Unsettled(s) => write!(f, "state {s} has a value but no depth (a bug)"),
        }
    }
}

/// The working memory of [`solve_in`].
#[derive(Debug, Default)]
pub struct Workspace {
    values: attract::Workspace,
    depths: Bytes,
}

/// Every state's score, as [`solve_in`] found them; lives in its
/// [`Workspace`].
#[derive(Debug, Clone, Copy)]
pub struct Scores<'w> {
    values: &'w [AtomicU8],
    depths: &'w Bytes,
}

impl Scores<'_> {
    /// The score of state `s`.
    #[inline]
    pub fn get(&self, s: usize) -> Score {
        let value = Value::from_code(self.values[s].load(Ordering::Relaxed)).expect("a value");
        let depth = match value {
            Value::NoResult => 0,
            _ => u16::from(self.depths.get(s)),
        };
        Score { value, depth }
    }
}

/// Solves every state of `g`: the scores [`crate::solve::retro`] gives,
/// unless a depth is over [`MAX_DEPTH`].
pub fn solve_in<'w>(g: &impl Graph, work: &'w mut Workspace) -> Result<Scores<'w>, DepthError> {
    solve_with(g, work, (g.len() >= PARALLEL).then_some(CHUNK))
}

/// [`solve_in`] on one thread (`chunk` = `None`) or by all threads, in
/// pieces of work of `chunk` states (the values too).
fn solve_with<'w>(
    g: &impl Graph,
    work: &'w mut Workspace,
    chunk: Option<usize>,
) -> Result<Scores<'w>, DepthError> {
    let n = g.len();
    let values = attract::solve_with(g, &mut work.values, chunk).cells();
    work.depths.reset(n);
    let depths = &work.depths;
    let levels =
        Levels { values, depths, deepest: AtomicU16::new(0), too_deep: AtomicBool::new(false) };
    each_chunk(n, chunk, |range| {
        g.inits(range, &mut |s, init| levels.start(s, init));
    });
    let mut level = 0;
    while level <= levels.deepest.load(Ordering::Relaxed)
        && !levels.too_deep.load(Ordering::Relaxed)
    {
        each_chunk(n, chunk, |range| levels.scan(g, level, range));
        level += 1;
    }
    if levels.too_deep.load(Ordering::Relaxed) {
        return Err(DepthError::TooDeep);
    }
    let unsettled = AtomicUsize::new(usize::MAX);
    each_chunk(n, chunk, |range| {
        if let Some(s) = range.into_iter().find(|&s| !levels.settled(s)) {
            unsettled.fetch_min(s, Ordering::Relaxed);
        }
    });
    match unsettled.into_inner() {
        usize::MAX => Ok(Scores { values, depths }),
        s => Err(DepthError::Unsettled(s)),
    }
}

/// Calls `f` with `0..n` on this thread (`chunk` = `None`), or with its
/// consecutive ranges of `chunk` states on all threads.
fn each_chunk(n: usize, chunk: Option<usize>, f: impl Fn(Range<usize>) + Sync) {
    match chunk {
        None => f(0..n),
        Some(c) => (0..n.div_ceil(c)).into_par_iter().for_each(|i| f(i * c..n.min((i + 1) * c))),
    }
}

/// The state of the analysis, shared by the threads.
struct Levels<'w> {
    /// Value codes, with a loser's counter above [`COUNTER_SHIFT`].
    values: &'w [AtomicU8],
    /// Depths, or candidates, or [`UNKNOWN`].
    depths: &'w Bytes,
    /// The largest candidate given so far: the last level to scan.
    deepest: AtomicU16,
    /// Whether some depth is over [`MAX_DEPTH`].
    too_deep: AtomicBool,
}

impl Levels<'_> {
    /// The value of `s`.
    #[inline]
    fn value(&self, s: usize) -> Value {
        value_of(self.values[s].load(Ordering::Relaxed))
    }

    /// Records `depth` as a candidate that will be settled (or
    /// overflows).
    fn note(&self, depth: u16) -> Option<u8> {
        if depth > MAX_DEPTH {
            self.too_deep.store(true, Ordering::Relaxed);
            return None;
        }
        // Read first: `deepest` only grows, and seldom, so a candidate
        // rarely raises it. A read-modify-write at every candidate made
        // the threads take this one cache line from each other (a compare
        // and swap loop: 60 to 80% of `start` and 40% of `tell` in a
        // profile of the 12-slot run).
        if depth > self.deepest.load(Ordering::Relaxed) {
            self.deepest.fetch_max(depth, Ordering::Relaxed);
        }
        Some(depth as u8)
    }

    /// The first candidate of `s` (and a loser's counter).
    fn start(&self, s: usize, init: Init) {
        let value = self.value(s);
        let candidate = match init {
            Init::Terminal(t) => {
                debug_assert_eq!((t.value, t.depth), (value, 0), "a finished game");
                Some(t.depth)
            }
            Init::Open { exit, children } => match value {
                Value::NoResult => None,
                Value::SelfLose => {
                    let counter = children << COUNTER_SHIFT;
                    self.values[s].fetch_add(counter, Ordering::Relaxed);
                    Some(exit.map_or(0, |e| e.depth))
                }
                _ => exit.filter(|e| e.value == value).map(|e| e.depth),
            },
        };
        if let Some(d) = candidate.and_then(|d| self.note(d)) {
            self.depths.set(s, d);
        }
    }

    /// Whether `s` is settled at `level`: its candidate is `level` and,
    /// for a loser, no child is still awaited.
    #[inline]
    fn settles(&self, s: usize, level: u8) -> Option<Value> {
        if self.depths.get(s) != level {
            return None;
        }
        // Acquire: a loser's last child raised its candidate before its
        // counter reached 0.
        let cell = self.values[s].load(Ordering::Acquire);
        let value = value_of(cell);
        let waiting = cell >> COUNTER_SHIFT != 0;
        (value != Value::NoResult && !waiting && self.depths.get(s) == level).then_some(value)
    }

    /// Settles the states of `range` whose depth is `level` and tells
    /// their parents.
    ///
    /// The parents are at random in the sub-table (gigabytes of values and
    /// depths for the large 12-slot ones), so each is prefetched when
    /// found and told a few settled states later: the tells of a level
    /// only raise depths above it or count a loser's children down, and
    /// commute, so which states settle at this level does not change
    /// (a loser still waiting is not settled, whenever its last child's
    /// tell comes; that tell sets its depth past this level).
    fn scan(&self, g: &impl Graph, level: u16, range: Range<usize>) {
        let at = level as u8;
        let mut queue: Vec<(usize, Value)> = Vec::with_capacity(2 * TELLS);
        let flush = |queue: &mut Vec<(usize, Value)>| {
            for (p, value) in queue.drain(..) {
                self.tell(p, value, level + 1);
            }
        };
        // A word of eight depths at a time: most hold none of this level.
        self.depths.each_equal(range, at, |s| {
            let Some(value) = self.settles(s, at) else { return };
            g.parents(s, &mut |p| {
                crate::table::mmap::prefetch(&self.values[p]);
                self.depths.prefetch(p);
                queue.push((p, value));
            });
            if queue.len() >= TELLS {
                flush(&mut queue);
            }
        });
        flush(&mut queue);
    }

    /// Tells parent `p` that a child worth `child` (its mover's view) is
    /// settled at `next` - 1.
    #[inline]
    fn tell(&self, p: usize, child: Value, next: u16) {
        let parent = self.value(p);
        match (child, parent) {
            (Value::SelfLose, Value::SelfWin)
            | (Value::BothWin, Value::BothWin)
            | (Value::BothLose, Value::BothLose) => {
                if let Some(d) = self.note(next) {
                    self.depths.fetch_min(p, d);
                }
            }
            (Value::SelfWin, Value::SelfLose) => {
                if let Some(d) = self.note(next) {
                    self.depths.fetch_max(p, d);
                }
                self.values[p].fetch_sub(1 << COUNTER_SHIFT, Ordering::Release);
            }
            _ => {}
        }
    }

    /// Whether `s` has its score: a depth unless no-result, no child
    /// awaited.
    fn settled(&self, s: usize) -> bool {
        let cell = self.values[s].load(Ordering::Relaxed);
        cell >> COUNTER_SHIFT == 0
            && (self.value(s) == Value::NoResult || self.depths.get(s) != UNKNOWN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;
    use crate::solve::attract::tests::{Random, parallel_rounds};

    /// The packed scores of the core with depths, and of this one.
    fn both(g: &Random, work: &mut Workspace, chunk: Option<usize>) -> (Vec<u16>, Vec<u16>) {
        let want = crate::solve::retro::solve(g);
        let scores = solve_with(g, work, chunk).expect("depths fit");
        let got = (0..g.len()).map(|s| scores.get(s).pack()).collect();
        (got, want)
    }

    /// Every score, depths included, is that of the core with depths, on
    /// random graphs of every shape (cycles, self-loops, several edges
    /// between two states).
    #[test]
    fn agrees_with_the_core_with_depths() {
        let mut rng = Rng::new(21);
        let mut work = Workspace::default();
        let mut deep = [0u16; 5];
        for round in 0..3000 {
            let n = 1 + rng.below(if round % 10 == 0 { 400 } else { 12 }) as usize;
            let g = Random::new(&mut rng, n);
            let (got, want) = both(&g, &mut work, None);
            assert_eq!(got, want, "round {round}");
            for p in got {
                let s = Score::unpack(p).expect("a score");
                let v = s.value.code() as usize;
                deep[v] = deep[v].max(s.depth);
            }
        }
        // Depths well past the exits' (at most 6) in every value but
        // no-result.
        assert!(deep[0] == 0 && deep[1..].iter().all(|&d| d > 8), "deepest by value: {deep:?}");
    }

    /// All threads at once, in pieces of a few states, give the same
    /// scores, on two threads and on one.
    #[test]
    fn parallel_scans_agree_with_the_core_with_depths() {
        let mut work = Workspace::default();
        parallel_rounds(22, |pool, g, chunk| {
            let (got, want) = pool.install(|| both(g, &mut work, Some(chunk)));
            let threads = pool.current_num_threads();
            assert_eq!(got, want, "{} states, {threads} threads, chunk {chunk}", g.len());
        });
    }

    /// A chain longer than [`MAX_DEPTH`] is refused, not cut short.
    #[test]
    fn depths_over_a_byte_are_refused() {
        struct Chain(usize);
        impl Graph for Chain {
            fn len(&self) -> usize {
                self.0
            }
            fn init(&self, s: usize) -> Init {
                match s {
                    0 => Init::Terminal(Score::terminal(Value::BothWin)),
                    _ => Init::Open { exit: None, children: 1 },
                }
            }
            fn parents(&self, s: usize, f: &mut dyn FnMut(usize)) {
                if s + 1 < self.0 {
                    f(s + 1);
                }
            }
        }
        let mut work = Workspace::default();
        let last = |n: usize, work: &mut Workspace| {
            solve_with(&Chain(n), work, None).map(|scores| scores.get(n - 1))
        };
        let fits = Score { value: Value::BothWin, depth: MAX_DEPTH };
        assert_eq!(last(MAX_DEPTH as usize + 1, &mut work), Ok(fits));
        assert_eq!(last(MAX_DEPTH as usize + 2, &mut work), Err(DepthError::TooDeep));
    }
}
