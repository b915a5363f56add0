//! The retrograde core: solves one signature's states given the scores of
//! the moves that leave it.
//!
//! Both `solve` (reachable states of one position) and the tablebase
//! generator (every state of a signature) present a signature as a
//! [`Graph`]: per state either a terminal score or the best score among its
//! exits (moves to other signatures, already solved) and the number of its
//! in-signature children, plus the in-signature parents of any state.
//! Cycles exist only inside a signature (docs/architecture.md), so these are all the
//! core needs.
//!
//! The phases follow the two-layer definition of docs/rules.md ("The five results"), each a bucket queue by
//! depth so that depths come out exact (the winner ends as fast as it can,
//! the loser lasts as long as it can, both-win and both-lose by the
//! shortest path):
//! 1. forced wins and losses (attractors for both sides at once, seen from
//!    the mover: a state is won if some child is lost for its mover, lost
//!    if every child is won for its mover);
//! 2. among the rest, both-win where a both-win end is reachable;
//! 3. among the rest, both-lose where a both-lose end is reachable;
//! 4. the rest is no-result.

use rayon::prelude::*;

use crate::score::Score;
use crate::value::Value;

/// How a state starts the analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Init {
    /// The game is over in this state.
    Terminal(Score),
    /// The game goes on.
    Open {
        /// The best score (mover's view, depth counted) among the moves
        /// that leave the signature, a double pass included; `None` if
        /// every move stays inside.
        exit: Option<Score>,
        /// The number of moves that stay inside the signature.
        children: u8,
    },
}

/// One signature's states, numbered `0..len()`, as the core sees them.
pub trait Graph: Sync {
    /// Number of states.
    fn len(&self) -> usize;

    /// How state `s` starts.
    fn init(&self, s: usize) -> Init;

    /// Calls `f` with every state of `range` and how it starts, in order:
    /// [`Graph::init`] of each, which a graph may compute faster for a
    /// run of states.
    fn inits(&self, range: std::ops::Range<usize>, f: &mut dyn FnMut(usize, Init)) {
        for s in range {
            f(s, self.init(s));
        }
    }

    /// Whether the core may keep every state's [`Init`] in an array (8
    /// bytes a state, computed in parallel once). A graph too big for that
    /// says no, and [`Graph::init`] is called again in each phase instead.
    fn keep_inits(&self) -> bool {
        true
    }

    /// Calls `f` once for every in-signature move that leads to `s`, with
    /// the state it starts from. The edges must be those counted by
    /// [`Init::Open::children`].
    fn parents(&self, s: usize, f: &mut dyn FnMut(usize));
}

/// Marks a state whose score is not known yet (value code 7).
const UNKNOWN: u16 = u16::MAX;

/// Marks a state that can never be lost (it has a move that is not a loss).
const CANNOT_LOSE: u8 = u8::MAX;

/// Solves every state of `g`; returns the packed scores ([`Score::pack`]).
#[cfg(test)]
pub fn solve(g: &impl Graph) -> Vec<u16> {
    let mut work = Workspace::default();
    solve_in(g, &mut work);
    work.core.done
}

/// The working memory of [`solve_in`], kept between calls so that solving
/// many small signatures does not allocate (and zero fresh pages) for each.
#[derive(Debug, Default)]
pub struct Workspace {
    inits: Vec<Init>,
    core: Core,
    counter: Vec<u8>,
    loss_depth: Vec<u16>,
    parents: Vec<usize>,
    settled: Vec<(usize, Score)>,
    ends: Vec<usize>,
}

/// [`solve`] in `work`; returns the packed scores, which live in `work`.
pub fn solve_in<'w>(g: &impl Graph, work: &'w mut Workspace) -> &'w [u16] {
    let n = g.len();
    work.inits.clear();
    if !g.keep_inits() {
        work.inits.shrink_to_fit();
    } else if n < 1 << 14 {
        work.inits.extend((0..n).map(|s| g.init(s)));
    } else {
        (0..n).into_par_iter().map(|s| g.init(s)).collect_into_vec(&mut work.inits);
    }
    let inits = Inits { g, kept: &work.inits };
    let core = &mut work.core;
    refill(&mut core.done, n, UNKNOWN);
    refill(&mut core.pending, n, UNKNOWN);
    core.buckets.iter_mut().for_each(Vec::clear);
    let mut scratch = Scratch {
        counter: &mut work.counter,
        loss_depth: &mut work.loss_depth,
        parents: &mut work.parents,
        settled: &mut work.settled,
        ends: &mut work.ends,
    };
    core.wins_and_losses(g, &inits, &mut scratch);
    for value in [Value::BothWin, Value::BothLose] {
        core.cooperative(g, &inits, value, &mut scratch);
    }
    let no_result = Score::terminal(Value::NoResult).pack();
    for d in &mut core.done {
        if *d == UNKNOWN {
            *d = no_result;
        }
    }
    &core.done
}

/// Every state's [`Init`]: kept in an array, or asked of the graph.
struct Inits<'a, G> {
    g: &'a G,
    /// Empty when not kept.
    kept: &'a [Init],
}

impl<G: Graph> Inits<'_, G> {
    #[inline]
    fn get(&self, s: usize) -> Init {
        if self.kept.is_empty() { self.g.init(s) } else { self.kept[s] }
    }
}

/// Makes `v` hold `n` copies of `value`, reusing its memory.
fn refill<T: Copy>(v: &mut Vec<T>, n: usize, value: T) {
    v.clear();
    v.resize(n, value);
}

/// Borrowed per-call arrays of a [`Workspace`].
struct Scratch<'a> {
    counter: &'a mut Vec<u8>,
    loss_depth: &'a mut Vec<u16>,
    parents: &'a mut Vec<usize>,
    settled: &'a mut Vec<(usize, Score)>,
    ends: &'a mut Vec<usize>,
}

/// The working arrays, one entry per state.
#[derive(Debug, Default)]
struct Core {
    /// Final packed scores, [`UNKNOWN`] until decided.
    done: Vec<u16>,
    /// Best candidate so far (packed), [`UNKNOWN`] if none.
    pending: Vec<u16>,
    /// `buckets[d]`: states whose candidate has depth `d` (may be stale).
    /// Emptied, not dropped, between uses.
    buckets: Vec<Vec<u32>>,
}

impl Core {
    fn push(&mut self, s: usize, score: Score) {
        self.pending[s] = score.pack();
        let d = score.depth as usize;
        if self.buckets.len() <= d {
            self.buckets.resize_with(d + 1, Vec::new);
        }
        self.buckets[d].push(s as u32);
    }

    /// Offers `score` to the undecided state `s`; keeps the better one.
    fn offer(&mut self, s: usize, score: Score) {
        if self.done[s] != UNKNOWN {
            return;
        }
        match Score::unpack(self.pending[s]) {
            Some(old) if old >= score => {}
            _ => self.push(s, score),
        }
    }

    /// Finalizes the states of bucket `d` whose candidate is still current
    /// and puts them with their scores in `out` (emptied first; reused so
    /// that small signatures do not allocate per depth).
    fn settle(&mut self, d: usize, out: &mut Vec<(usize, Score)>) {
        out.clear();
        let mut bucket = std::mem::take(&mut self.buckets[d]);
        for &s in &bucket {
            let s = s as usize;
            if self.done[s] != UNKNOWN {
                continue;
            }
            match Score::unpack(self.pending[s]) {
                Some(p) if p.depth as usize == d => {
                    self.done[s] = self.pending[s];
                    out.push((s, p));
                }
                _ => {}
            }
        }
        bucket.clear();
        self.buckets[d] = bucket;
    }

    /// Phase 1: forced wins and losses for both sides.
    fn wins_and_losses<G: Graph>(
        &mut self,
        g: &G,
        inits: &Inits<'_, G>,
        scratch: &mut Scratch<'_>,
    ) {
        let n = g.len();
        refill(scratch.counter, n, CANNOT_LOSE);
        refill(scratch.loss_depth, n, 0);
        let (counter, loss_depth) = (&mut *scratch.counter, &mut *scratch.loss_depth);
        for s in 0..n {
            match inits.get(s) {
                Init::Terminal(score) => self.push(s, score),
                Init::Open { exit, children } => {
                    if let Some(e) = exit.filter(|e| e.value == Value::SelfWin) {
                        self.push(s, e);
                    }
                    if exit.is_none_or(|e| e.value == Value::SelfLose) {
                        counter[s] = children;
                        loss_depth[s] = exit.map_or(0, |e| e.depth);
                        if children == 0 {
                            let lose = Score { value: Value::SelfLose, depth: loss_depth[s] };
                            self.push(s, lose);
                        }
                    }
                }
            }
        }
        let (parents, settled) = (&mut *scratch.parents, &mut *scratch.settled);
        self.drain(g, parents, settled, |core, score, parents| {
            let next = score.depth + 1;
            match score.value {
                Value::SelfLose => {
                    for &p in parents {
                        core.offer(p, Score { value: Value::SelfWin, depth: next });
                    }
                }
                Value::SelfWin => {
                    for &p in parents {
                        if counter[p] == CANNOT_LOSE || core.done[p] != UNKNOWN {
                            continue;
                        }
                        counter[p] -= 1;
                        loss_depth[p] = loss_depth[p].max(next);
                        if counter[p] == 0 {
                            core.push(p, Score { value: Value::SelfLose, depth: loss_depth[p] });
                        }
                    }
                }
                _ => {}
            }
        });
    }

    /// Phases 2 and 3: among the undecided states, those from which an end
    /// worth `value` (both-win or both-lose) is reachable through undecided
    /// states, by the shortest path.
    fn cooperative<G: Graph>(
        &mut self,
        g: &G,
        inits: &Inits<'_, G>,
        value: Value,
        scratch: &mut Scratch<'_>,
    ) {
        self.buckets.iter_mut().for_each(Vec::clear);
        let (parents, ends) = (&mut *scratch.parents, &mut *scratch.ends);
        ends.clear();
        for s in 0..g.len() {
            if self.done[s] == UNKNOWN {
                self.pending[s] = UNKNOWN;
            }
            match inits.get(s) {
                Init::Terminal(t) if t.value == value => ends.push(s),
                Init::Open { exit: Some(e), .. } if e.value == value && self.done[s] == UNKNOWN => {
                    self.push(s, e)
                }
                _ => {}
            }
        }
        // Games that have ended with `value` pass it on to their parents.
        for &s in ends.iter() {
            parents.clear();
            g.parents(s, &mut |p| parents.push(p));
            for &p in parents.iter() {
                self.offer(p, Score { value, depth: 1 });
            }
        }
        self.drain(g, parents, &mut *scratch.settled, |core, score, parents| {
            for &p in parents {
                core.offer(p, Score { value, depth: score.depth + 1 });
            }
        });
    }

    /// Settles the buckets in order of depth and calls `visit` with each
    /// state settled: its score and its in-signature parents.
    fn drain(
        &mut self,
        g: &impl Graph,
        parents: &mut Vec<usize>,
        settled: &mut Vec<(usize, Score)>,
        mut visit: impl FnMut(&mut Core, Score, &[usize]),
    ) {
        let mut d = 0;
        while d < self.buckets.len() {
            self.settle(d, settled);
            for &(s, score) in settled.iter() {
                parents.clear();
                g.parents(s, &mut |p| parents.push(p));
                visit(self, score, parents);
            }
            d += 1;
        }
    }
}
