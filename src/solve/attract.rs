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

use rayon::prelude::*;

use crate::solve::retro::{Graph, Init};
use crate::value::Value;

/// One state:
/// - `0..=COUNTER_MAX`: undecided, its best exit none or a loss, with that
///   many in-signature children not yet known to be wins for their mover;
/// - [`OPEN`]` + code`: undecided, its best exit worth `code` (no-result,
///   both-lose or both-win), so never lost;
/// - [`DECIDED`]` + code`: decided with value `code`, parents not yet told;
/// - [`VISITED`]` + code`: decided, parents told (or on the stack);
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

/// The working memory of [`solve_in`], kept between calls.
#[derive(Debug, Default)]
pub struct Workspace {
    cells: Vec<Cell>,
    stack: Vec<u32>,
    parents: Vec<u32>,
}

/// Solves every state of `g` (its [`Init`] depths are ignored); returns the
/// value code of each state, which lives in `work`.
pub fn solve_in<'w>(g: &impl Graph, work: &'w mut Workspace) -> &'w [u8] {
    let n = g.len();
    assert!(n <= u32::MAX as usize, "states are numbered in 32 bits");
    let Workspace { cells, stack, parents } = work;
    cells.clear();
    cells.resize(n, 0);
    stack.clear();
    let mut core = Core { cells, stack, parents };
    core.wins_and_losses(g);
    core.cooperative(g, Value::BothWin);
    core.cooperative(g, Value::BothLose);
    for c in core.cells.iter_mut() {
        *c = if *c >= DECIDED { *c % 8 } else { Value::NoResult.code() };
    }
    cells
}

struct Core<'a> {
    cells: &'a mut [Cell],
    stack: &'a mut Vec<u32>,
    parents: &'a mut Vec<u32>,
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

impl Core<'_> {
    /// Phase 1: forced wins and losses for both sides.
    fn wins_and_losses(&mut self, g: &impl Graph) {
        // First every counter, then the visits: a decided state's parents
        // must have their counters when it is visited.
        if self.cells.len() < 1 << 14 {
            self.cells.iter_mut().enumerate().for_each(|(s, cell)| *cell = start(g.init(s)));
        } else {
            self.cells.par_iter_mut().enumerate().for_each(|(s, cell)| *cell = start(g.init(s)));
        }
        for s in 0..g.len() {
            let cell = self.cells[s];
            if !(DECIDED..VISITED).contains(&cell) {
                continue;
            }
            self.cells[s] = cell - DECIDED + VISITED;
            self.stack.push(s as u32);
            while let Some(s) = self.stack.pop() {
                let lost = self.cells[s as usize] == visited(Value::SelfLose);
                self.parents_of(g, s);
                for i in 0..self.parents.len() {
                    let p = self.parents[i] as usize;
                    let cell = &mut self.cells[p];
                    if lost && *cell < DECIDED {
                        *cell = visited(Value::SelfWin);
                    } else if *cell <= COUNTER_MAX {
                        *cell -= 1;
                        if *cell > 0 {
                            continue;
                        }
                        *cell = visited(Value::SelfLose);
                    } else {
                        continue;
                    }
                    self.stack.push(p as u32);
                }
            }
        }
    }

    /// Phases 2 and 3: the undecided states from which an end worth `value`
    /// (both-win or both-lose) is reachable through undecided states.
    fn cooperative(&mut self, g: &impl Graph, value: Value) {
        for s in 0..g.len() {
            let cell = self.cells[s];
            if cell == OPEN + value.code() {
                self.cells[s] = visited(value);
            } else if cell != ENDED + value.code() {
                // Only games that ended with `value` and states with an
                // exit worth it pass it on.
                continue;
            }
            self.stack.push(s as u32);
            while let Some(s) = self.stack.pop() {
                self.parents_of(g, s);
                for i in 0..self.parents.len() {
                    let p = self.parents[i] as usize;
                    if self.cells[p] < DECIDED {
                        self.cells[p] = visited(value);
                        self.stack.push(p as u32);
                    }
                }
            }
        }
    }

    /// Fills `parents` with the in-signature parents of `s`.
    fn parents_of(&mut self, g: &impl Graph, s: u32) {
        self.parents.clear();
        let parents = &mut *self.parents;
        g.parents(s as usize, &mut |p| parents.push(p as u32));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Score;
    use crate::verify::Rng;

    /// A random graph: each state terminal or open with a random exit and
    /// random in-signature children.
    struct Random {
        inits: Vec<Init>,
        parents: Vec<Vec<usize>>,
    }

    impl Random {
        fn new(rng: &mut Rng, n: usize) -> Random {
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
            let want: Vec<u8> = crate::solve::retro_solve(&g)
                .iter()
                .map(|&p| Score::unpack(p).expect("solved").value.code())
                .collect();
            let got = solve_in(&g, &mut work);
            assert_eq!(got, &want[..], "round {round}");
            for &v in got {
                seen[v as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&c| c > 1000), "every value is met often: {seen:?}");
    }
}
