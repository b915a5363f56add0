//! Solving one signature of a [`Reached`](super::Reached) set: its states as a [`Graph`]
//! ([`ReachGraph`]) whose moves out of the signature read the scores of
//! the signatures solved before it ([`Later`]) or the tables, solved by
//! the retrograde core, with one summary kept per node.

use std::sync::OnceLock;

use rayon::prelude::*;

use crate::moves::PassRule;
use crate::position::{Last, Position};
use crate::score::Score;
use crate::signature::SigKey;
use crate::solve::node::bits;
use crate::solve::node::{
    MAX_CHILDREN, NodeMoves, Pending, inside_parent_key, inside_walk_key, last_bit, last_of_bit,
    node_position,
};
use crate::solve::retro::{self, Graph, Init};
use crate::solve::{NodeTable, SigStates};
use crate::summary::Summary;
use crate::table::{TableError, Tablebase};
use crate::value::Value;
use crate::variant::Variant;

/// What is solved already: the signatures after the current group, and
/// the tables.
pub(super) struct Later<'a> {
    pub(super) sigs: &'a [SigStates],
    pub(super) offset: usize,
    pub(super) index: &'a rustc_hash::FxHashMap<SigKey, usize>,
    pub(super) tables: Option<&'a Tablebase>,
    pub(super) rule: PassRule,
    /// The first damaged table record met.
    pub(super) error: &'a OnceLock<TableError>,
}

impl Later<'_> {
    /// The score of `pos` from the tables (which cover it); a damaged record
    /// is kept in `error` and scores as no-result meanwhile. Cold: a solve
    /// without tables never comes here, and inlined into the loop that
    /// scores every exit it made that loop larger (docs/benchmarks.md).
    #[cold]
    #[inline(never)]
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
    ring: Vec<Started>,
}

/// A worker's cache of the places of signatures in [`Later`].
type Cache = [(SigKey, usize); 64];

/// A node started and the place in [`Later`] of each exit's signature.
type Started = (Pending, [usize; MAX_CHILDREN]);

/// How many nodes ahead of the one being finished a worker starts.
const AHEAD: usize = 8;

/// Slots per piece of work when a signature's nodes are found in parallel.
const NODE_CHUNK: usize = 1 << 12;

std::thread_local! {
    static BUFFERS: std::cell::Cell<Buffers> = std::cell::Cell::default();
}

/// Solves one signature and stores its summaries; returns its state count.
pub(super) fn solve_signature(sig: &mut SigStates, variant: Variant, later: &Later<'_>) -> usize {
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

/// One signature of a [`Reached`](super::Reached) set as a [`Graph`]. States are numbered
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
        let table = &sig.table;
        // Starts node `slot`: its moves, the place in `later` of each exit's
        // signature (usize::MAX: the tables), and the loading of each
        // exit's slot. Children of one node mostly go to a few signatures:
        // a small direct-mapped cache per worker saves most index lookups.
        let start = |cache: &mut Cache, slot: usize, (pending, at): &mut Started| {
            let mask = table.mask(slot);
            if mask == 0 {
                pending.clear();
                return;
            }
            let key = table.key(slot);
            let pos = node_position(n, key, Last::None);
            // A node whose only state is banned from walking p never walks p.
            let skip = if mask.count_ones() == 1 && mask & 1 == 0 { mask & 0x1ffe } else { 0 };
            pending.start(&pos, sig.key, key, skip);
            for (c, a) in pending.children().iter().zip(at.iter_mut()) {
                let way = &mut cache[(c.sig.bits().wrapping_mul(0x9E37_79B9) >> 26) as usize];
                if way.0 != c.sig {
                    let j = later.index.get(&c.sig).map_or(usize::MAX, |j| j - later.offset);
                    *way = (c.sig, j);
                }
                *a = way.1;
                if way.1 != usize::MAX {
                    later.sigs[way.1].table.prefetch(c.key);
                }
            }
        };
        // Scores the exits of a started node.
        let finish = |(pending, at): &Started| {
            let mut scores = [Score::terminal(Value::NoResult); MAX_CHILDREN];
            for ((c, &j), o) in pending.children().iter().zip(at).zip(&mut scores) {
                if j == usize::MAX {
                    *o = later.table_score(c.sig, &c.pos);
                    continue;
                }
                let table = &later.sigs[j].table;
                let slot = table.find(c.key).expect("every child was reached");
                *o = table.summary(slot).score(c.pos.last(), rule);
            }
            pending.finish(&scores)
        };
        // The nodes of the slots from `first` on, in `out`: each node is
        // started AHEAD nodes before it is finished, so that the cache
        // misses of its exits overlap with those of the nodes between.
        let fill =
            |(cache, ring): &mut (Cache, Vec<Started>), first: usize, out: &mut [NodeMoves]| {
                ring.resize(AHEAD, (Pending::default(), [usize::MAX; MAX_CHILDREN]));
                for i in 0..out.len() + AHEAD {
                    let started = &mut ring[i % AHEAD];
                    if i >= AHEAD {
                        out[i - AHEAD] = finish(started);
                    }
                    if i < out.len() {
                        start(cache, first + i, started);
                    }
                }
            };
        let slots = table.slots();
        assert!(slots < 1 << 28, "a signature's slots fit in 28 bits");
        let mut nodes = std::mem::take(&mut buf.nodes);
        nodes.clear();
        nodes.resize(slots, NodeMoves::default());
        if slots < PARALLEL_MIN {
            let mut work = ([(SigKey::NONE, 0); 64], std::mem::take(&mut buf.ring));
            fill(&mut work, 0, &mut nodes);
            buf.ring = work.1;
        } else {
            nodes.par_chunks_mut(NODE_CHUNK).enumerate().for_each_init(
                || ([(SigKey::NONE, 0); 64], Vec::new()),
                |work, (c, out)| fill(work, c * NODE_CHUNK, out),
            );
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
