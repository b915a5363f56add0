//! The values-only retrograde core: the same phases as [`crate::solve::retro`]
//! without depths, in one byte a state.
//!
//! Values do not depend on depths: phase 1 is an attractor (a state is won
//! if some child is lost for its mover, lost if every child is won for its
//! mover), phases 2 and 3 are reachability through the undecided states.
//! Neither depends on the order in which decided states are visited, so
//! here they are visited depth-first from each seed, with a stack instead
//! of one bucket per depth, and nothing but the value is kept. Tables of
//! values only are generated with this core; a test checks it against
//! [`crate::solve::retro`] on random graphs, and the tables of both kinds
//! are compared node by node (tests/encodings.rs).
//!
//! A state's byte ([`Cell`]) holds what the phase after needs: its
//! counter or its best exit while undecided, its value once decided. So the
//! core needs 1 byte a state plus the stack, and asks the graph for each
//! state's start only once.
//!
//! Large graphs are solved by every thread: each phase starts visits from
//! the seeds of many ranges of states at once (as syzygy1/tb's threads
//! take chunks of the index), and a state's byte changes by compare and
//! swap, so each state is decided and visited once. The attractor and the
//! reachability do not depend on the order of the visits, so the values
//! (and the files) are the same for any number of threads (tested).

use std::ops::Range;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use crate::solve::retro::{Graph, Init};
use crate::value::Value;

/// One state:
/// - `0..=COUNTER_MAX`: undecided, its best exit none or a loss, with that
///   many in-signature children not yet known to be wins for their mover
///   (never 0: a state with no such child left is lost);
/// - [`OPEN`]` + code`: undecided, its best exit worth `code` (no-result,
///   both-lose or both-win), so never lost;
/// - [`DECIDED`]` + code`: decided with value `code`, parents not yet told;
/// - [`VISITED`]` + code`: decided, parents told (or on a stack);
/// - [`ENDED`]` + code`: the game is over with `code`, not a win or loss
///   (its parents are told in the phase of its value).
type Cell = u8;

/// The largest counter (a node has at most 12 walks, plus the pass).
const COUNTER_MAX: Cell = 13;

/// See [`Cell`]; every group starts at a multiple of 8, so that a decided
/// cell's value code is `cell % 8`.
const OPEN: Cell = 16;
const DECIDED: Cell = 24;
const VISITED: Cell = 32;
const ENDED: Cell = 40;

/// Graphs with at least this many states are solved by all threads.
const PARALLEL: usize = 1 << 20;

/// States per piece of work of the parallel phases: many more pieces than
/// threads, so that one long visit does not hold the others up.
const CHUNK: usize = 1 << 14;

/// The working memory of [`solve_in`], kept between calls.
#[derive(Debug, Default)]
pub struct Workspace {
    cells: Vec<AtomicU8>,
    stack: Vec<u32>,
    parents: Vec<u32>,
}

/// The value codes [`solve_in`] found, one per state.
#[derive(Debug, Clone, Copy)]
pub struct Values<'w>(&'w [AtomicU8]);

impl<'w> Values<'w> {
    /// The value code of state `s`.
    #[inline]
    pub fn get(&self, s: usize) -> u8 {
        self.0[s].load(Relaxed)
    }

    /// The cells themselves: each holds its state's value code.
    pub(super) fn cells(self) -> &'w [AtomicU8] {
        self.0
    }

    /// Every state's value code, in order.
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        self.0.iter().map(|c| c.load(Relaxed))
    }
}

/// Solves every state of `g` (its [`Init`] depths are ignored); returns the
/// value code of each state, which lives in `work`.
///
/// Large graphs are solved by all threads (the rayon pool's): each phase's
/// visits start from the seeds of many ranges of states at once, and a
/// state's cell changes by compare-and-swap. The values are the same for
/// any order of the visits (see the module docs), so for any number of
/// threads.
pub fn solve_in<'w>(g: &impl Graph, work: &'w mut Workspace) -> Values<'w> {
    solve_with(g, work, (g.len() >= PARALLEL).then_some(CHUNK))
}

/// [`solve_in`] on one thread (`chunk` = `None`) or by all threads, in
/// pieces of work of `chunk` states.
pub(super) fn solve_with<'w>(
    g: &impl Graph,
    work: &'w mut Workspace,
    chunk: Option<usize>,
) -> Values<'w> {
    let n = g.len();
    assert!(n <= u32::MAX as usize, "states are numbered in 32 bits");
    let Workspace { cells, stack, parents } = work;
    cells.clear();
    cells.resize_with(n, AtomicU8::default);
    // First every counter, then the visits: a decided state's parents
    // must have their counters when it is visited.
    let start_of = |(c, cells): (usize, &mut [AtomicU8])| {
        let first = c * CHUNK;
        g.inits(first..first + cells.len(), &mut |s, init| {
            *cells[s - first].get_mut() = start(init);
        });
    };
    if n < CHUNK {
        cells.chunks_mut(CHUNK).enumerate().for_each(start_of);
    } else {
        cells.par_chunks_mut(CHUNK).enumerate().for_each(start_of);
    }
    for phase in [Phase::WinsAndLosses, Phase::Reach(Value::BothWin), Phase::Reach(Value::BothLose)]
    {
        let Some(chunk) = chunk else {
            visit(&mut Exclusive(cells), g, phase, 0..n, stack, parents);
            continue;
        };
        let shared: &[AtomicU8] = cells;
        (0..n.div_ceil(chunk)).into_par_iter().for_each_init(
            || (Vec::new(), Vec::new()),
            |(stack, parents), c| {
                let range = c * chunk..n.min((c + 1) * chunk);
                visit(&mut Shared(shared), g, phase, range, stack, parents);
            },
        );
    }
    let finish = |c: &mut AtomicU8| {
        let cell = *c.get_mut();
        *c.get_mut() = if cell >= DECIDED { cell % 8 } else { Value::NoResult.code() };
    };
    if chunk.is_none() {
        cells.iter_mut().for_each(finish);
    } else {
        cells.par_iter_mut().for_each(finish);
    }
    Values(cells)
}

/// The cell of a state decided with `value`, not visited yet.
fn decided(value: Value) -> Cell {
    DECIDED + value.code()
}

/// The cell of a state decided with `value` and visited.
fn visited(value: Value) -> Cell {
    VISITED + value.code()
}

/// The first cell of `s` ([`Cell`]).
fn start(init: Init) -> Cell {
    match init {
        Init::Terminal(t) if matches!(t.value, Value::SelfWin | Value::SelfLose) => {
            decided(t.value)
        }
        Init::Terminal(t) => ENDED + t.value.code(),
        Init::Open { exit: Some(e), .. } if e.value == Value::SelfWin => decided(Value::SelfWin),
        Init::Open { exit: Some(e), .. } if e.value != Value::SelfLose => OPEN + e.value.code(),
        Init::Open { children: 0, .. } => decided(Value::SelfLose),
        Init::Open { children, .. } => {
            debug_assert!(children <= COUNTER_MAX);
            children
        }
    }
}

/// The phases of the analysis.
#[derive(Debug, Clone, Copy)]
enum Phase {
    /// Phase 1: forced wins and losses for both sides (an attractor).
    WinsAndLosses,
    /// Phases 2 and 3: the undecided states from which an end worth this
    /// value (both-win, then both-lose) is reachable through undecided
    /// states.
    Reach(Value),
}

impl Phase {
    /// Whether the state of `cell` starts a visit, and its cell once it
    /// does.
    fn seed(self, cell: Cell) -> Option<Cell> {
        match self {
            Phase::WinsAndLosses => {
                (DECIDED..VISITED).contains(&cell).then(|| cell + VISITED - DECIDED)
            }
            // Only games that ended with `value` and states with an exit
            // worth it pass it on.
            Phase::Reach(v) if cell == OPEN + v.code() => Some(visited(v)),
            Phase::Reach(v) if cell == ENDED + v.code() => Some(cell),
            Phase::Reach(_) => None,
        }
    }

    /// The new cell of a parent (now `cell`) of a visited state whose cell
    /// is `child`; `None` if it does not change.
    fn tell(self, cell: Cell, child: Cell) -> Option<Cell> {
        match self {
            Phase::WinsAndLosses if child == visited(Value::SelfLose) && cell < DECIDED => {
                Some(visited(Value::SelfWin))
            }
            Phase::WinsAndLosses if cell <= COUNTER_MAX => {
                debug_assert!(cell > 0, "an undecided counter is never 0");
                Some(if cell == 1 { visited(Value::SelfLose) } else { cell - 1 })
            }
            Phase::WinsAndLosses => None,
            Phase::Reach(v) => (cell < DECIDED).then(|| visited(v)),
        }
    }
}

/// The cells, as one visit sees them.
trait Cells {
    fn get(&mut self, s: usize) -> Cell;
    fn set(&mut self, s: usize, cell: Cell);
    /// Replaces the cell of `s` by `f` of it, unless `f` says `None`;
    /// returns the new cell.
    fn update(&mut self, s: usize, f: impl Fn(Cell) -> Option<Cell>) -> Option<Cell>;
    /// Starts loading the cell of `s` ([`crate::table::mmap::prefetch`]).
    fn prefetch(&self, s: usize);
}

/// The cells of a graph solved on one thread.
struct Exclusive<'a>(&'a mut [AtomicU8]);

impl Cells for Exclusive<'_> {
    #[inline]
    fn get(&mut self, s: usize) -> Cell {
        *self.0[s].get_mut()
    }

    #[inline]
    fn set(&mut self, s: usize, cell: Cell) {
        *self.0[s].get_mut() = cell;
    }

    #[inline]
    fn update(&mut self, s: usize, f: impl Fn(Cell) -> Option<Cell>) -> Option<Cell> {
        let cell = self.0[s].get_mut();
        let new = f(*cell)?;
        *cell = new;
        Some(new)
    }

    #[inline]
    fn prefetch(&self, s: usize) {
        crate::table::mmap::prefetch(&self.0[s]);
    }
}

/// The cells of a graph solved by several threads at once.
struct Shared<'a>(&'a [AtomicU8]);

impl Cells for Shared<'_> {
    #[inline]
    fn get(&mut self, s: usize) -> Cell {
        self.0[s].load(Relaxed)
    }

    /// Only the thread whose range holds `s` sets a seed's cell, and no
    /// other thread changes a seed's cell.
    #[inline]
    fn set(&mut self, s: usize, cell: Cell) {
        self.0[s].store(cell, Relaxed);
    }

    #[inline]
    fn update(&mut self, s: usize, f: impl Fn(Cell) -> Option<Cell>) -> Option<Cell> {
        self.0[s].fetch_update(Relaxed, Relaxed, &f).ok().and_then(&f)
    }

    #[inline]
    fn prefetch(&self, s: usize) {
        crate::table::mmap::prefetch(&self.0[s]);
    }
}

/// Visits, depth-first, everything `phase` decides from the seeds in
/// `range`: each decided state tells its in-signature parents.
fn visit(
    cells: &mut impl Cells,
    g: &impl Graph,
    phase: Phase,
    range: Range<usize>,
    stack: &mut Vec<u32>,
    parents: &mut Vec<u32>,
) {
    for s in range {
        let Some(cell) = phase.seed(cells.get(s)) else { continue };
        cells.set(s, cell);
        stack.push(s as u32);
        while let Some(s) = stack.pop() {
            let child = cells.get(s as usize);
            parents.clear();
            // The parents are at random among the cells: their lines load
            // together instead of one after another.
            g.parents(s as usize, &mut |p| {
                cells.prefetch(p);
                parents.push(p as u32);
            });
            for &p in parents.iter() {
                let new = cells.update(p as usize, |cell| phase.tell(cell, child));
                if new.is_some_and(|c| c >= DECIDED) {
                    stack.push(p);
                }
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::random::Rng;
    use crate::score::Score;

    /// A random graph: each state terminal or open with a random exit and
    /// random in-signature children.
    pub(in crate::solve) struct Random {
        inits: Vec<Init>,
        parents: Vec<Vec<usize>>,
    }

    impl Random {
        pub(in crate::solve) fn new(rng: &mut Rng, n: usize) -> Random {
            let mut parents = vec![Vec::new(); n];
            let values =
                [Value::SelfLose, Value::NoResult, Value::BothLose, Value::BothWin, Value::SelfWin];
            let inits = (0..n)
                .map(|s| {
                    if rng.below(8) == 0 {
                        let v = values[rng.below(5) as usize];
                        return Init::Terminal(Score::terminal(v));
                    }
                    let children = rng.below(5) as u8;
                    for _ in 0..children {
                        parents[rng.below(n as u64) as usize].push(s);
                    }
                    let exit = (rng.below(3) != 0).then(|| Score {
                        value: values[rng.below(5) as usize],
                        depth: 1 + rng.below(6) as u16,
                    });
                    let exit = exit.map(|e| {
                        if e.value == Value::NoResult { Score { depth: 0, ..e } } else { e }
                    });
                    Init::Open { exit, children }
                })
                .collect();
            Random { inits, parents }
        }
    }

    impl Graph for Random {
        fn len(&self) -> usize {
            self.inits.len()
        }
        fn init(&self, s: usize) -> Init {
            self.inits[s]
        }
        fn parents(&self, s: usize, f: &mut dyn FnMut(usize)) {
            self.parents[s].iter().for_each(|&p| f(p));
        }
    }

    /// The values are those of the core with depths, on random graphs of
    /// every shape (cycles, self-loops, several edges between two states).
    #[test]
    fn agrees_with_the_core_with_depths() {
        let mut rng = Rng::new(11);
        let mut work = Workspace::default();
        let mut seen = [0usize; 5];
        for round in 0..3000 {
            let n = 1 + rng.below(if round % 10 == 0 { 400 } else { 12 }) as usize;
            let g = Random::new(&mut rng, n);
            let want: Vec<u8> = crate::solve::retro::solve(&g)
                .iter()
                .map(|&p| Score::unpack(p).expect("solved").value.code())
                .collect();
            let got: Vec<u8> = solve_in(&g, &mut work).iter().collect();
            assert_eq!(got, want, "round {round}");
            for v in got {
                seen[v as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&c| c > 1000), "every value is met often: {seen:?}");
    }

    /// Calls `check` with 200 random graphs (one in ten of up to 20,000
    /// states) and a random piece size each, in a pool of two threads and
    /// then of one.
    pub(in crate::solve) fn parallel_rounds(
        seed: u64,
        mut check: impl FnMut(&rayon::ThreadPool, &Random, usize),
    ) {
        let mut rng = Rng::new(seed);
        for threads in [2, 1] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            for round in 0..200 {
                let n = 1 + rng.below(if round % 10 == 0 { 20_000 } else { 600 }) as usize;
                let g = Random::new(&mut rng, n);
                check(&pool, &g, 1 + rng.below(64) as usize);
            }
        }
    }

    /// All threads at once, in pieces of a few states (so that visits from
    /// different pieces meet), give the values of the core with depths, on
    /// two threads and on one.
    #[test]
    fn parallel_visits_agree_with_the_core_with_depths() {
        let mut work = Workspace::default();
        parallel_rounds(12, |pool, g, chunk| {
            let want: Vec<u8> = crate::solve::retro::solve(g)
                .iter()
                .map(|&p| Score::unpack(p).expect("solved").value.code())
                .collect();
            let got: Vec<u8> =
                pool.install(|| solve_with(g, &mut work, Some(chunk)).iter().collect());
            let threads = pool.current_num_threads();
            assert_eq!(got, want, "{} states, {threads} threads, chunk {chunk}", g.len());
        });
    }
}
