//! Forward enumeration: every state reachable from a position, grouped by
//! signature (docs/architecture.md).
//!
//! A signature is (F, B): the fixed pieces and the non-fixed pieces on the
//! board. Moves only stay inside a signature or go to one with more fixed
//! pieces, or the same fixed pieces and fewer on the board; so signatures
//! are closed one at a time in the order ([`order_key`]) of growing |F| and
//! shrinking |B|, and once a signature is taken up no state can be added to
//! it any more.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;

use crate::moves::{Move, PassRule};
use crate::position::{Last, Position};
use crate::side::Side;
use crate::signature::{SigKey, order_key, signature};
use crate::solve::expand::{Child, expand, mover_complete};
use crate::solve::node::{MAX_CHILDREN, last_bit, node_key, node_position};
use crate::solve::node_table::NodeTable;
use crate::variant::Variant;

/// The states of one signature.
#[derive(Debug)]
pub struct SigStates {
    /// The signature.
    pub key: SigKey,
    /// Its nodes; no longer growing, so slots are node ids.
    pub table: NodeTable,
}

/// Every state reachable from a root, by signature.
#[derive(Debug)]
pub struct Reached {
    /// Number of slots.
    /// The board size and the pass rule the moves follow.
    pub variant: Variant,
    /// Signatures in the order they were closed (predecessors first).
    pub sigs: Vec<SigStates>,
    /// Signature key to its place in `sigs`.
    pub index: HashMap<SigKey, usize>,
    /// Reachable terminal states after two passes (stored nowhere: their
    /// value is always both-lose).
    pub double_passes: usize,
    /// The stored states, counted as the signatures were closed.
    states: usize,
}

impl Reached {
    /// Total number of stored states (counted while enumerating, not
    /// again from the tables' masks each time it is asked).
    pub fn states(&self) -> usize {
        self.states
    }

    /// The signature holding `pos` and the slot of its node there, if the
    /// state `pos` was reached.
    #[inline]
    pub fn locate(&self, pos: &Position) -> Option<(usize, usize)> {
        let &i = self.index.get(&signature(pos))?;
        let table = &self.sigs[i].table;
        let slot = table.find(node_key(pos))?;
        (table.mask(slot) & last_bit(pos.last()) != 0).then_some((i, slot))
    }
}

/// Enumerates every state reachable from the `roots` (all of `variant`'s size;
/// double passes among them are ended games and are skipped), except in
/// the signatures that are `covered` (by tables) and beyond them. `progress`
/// is called with the number of states closed so far after each level;
/// when it breaks, the enumeration stops there and `None` is returned.
/// Once `stop` is true, the signatures left are not closed and `None` is
/// returned after the level.
///
/// Signatures with the same [`order_key`] (a level) never lead to each
/// other, so each level is closed in parallel, every worker adding the
/// children that leave a signature to the (later) signatures they belong
/// to as it goes. The states found do not depend on the number of threads
/// (the order of the nodes inside a table may).
pub fn reach(
    variant: Variant,
    roots: &[Position],
    covered: &(dyn Fn(SigKey) -> bool + Sync),
    stop: &(dyn Fn() -> bool + Sync),
    mut progress: impl FnMut(usize) -> ControlFlow<()>,
) -> Option<Reached> {
    let Variant { slots: n, rule } = variant;
    let open = Open::default();
    let mut reached = Reached {
        variant,
        sigs: Vec::new(),
        index: HashMap::default(),
        double_passes: 0,
        states: 0,
    };
    for root in roots {
        assert_eq!(root.slots(), n, "all roots have {n} slots");
        if root.last() == Last::DoublePass {
            reached.double_passes += 1; // an ended game: nothing to explore
            continue;
        }
        open.add(signature(root), &[node_key(root) | pack_last(root.last())]);
    }
    let mut total = 0;
    while let Some(mut level) = open.next_level() {
        let close_one = |(key, table): &mut (SigKey, NodeTable)| {
            if stop() {
                return (0, 0);
            }
            let mut exits = EXITS.take();
            let mut queue = QUEUE.take();
            close(n, rule, *key, table, &mut queue, &mut |child| {
                exits.push(child.sig, child.key | pack_last(child.pos.last()), covered);
            });
            QUEUE.set(queue);
            exits.flush(&open);
            EXITS.set(exits);
            (double_passes(n, rule, *key, table), table.states())
        };
        // Small levels cost less on one thread than handing them out.
        let size: usize = level.iter().map(|(_, t)| t.len()).sum();
        let counts: Vec<(usize, usize)> = if size < SMALL_LEVEL {
            level.iter_mut().map(close_one).collect()
        } else {
            level.par_iter_mut().map(close_one).collect()
        };
        for ((key, table), (doubles, states)) in level.into_iter().zip(counts) {
            reached.double_passes += doubles;
            total += states;
            reached.index.insert(key, reached.sigs.len());
            reached.sigs.push(SigStates { key, table });
        }
        reached.states = total;
        if stop() || progress(total).is_break() {
            return None;
        }
    }
    Some(reached)
}

/// The signatures found but not closed yet, by level.
#[derive(Default)]
struct Open(Mutex<OpenSigs>);

#[derive(Default)]
struct OpenSigs {
    tables: HashMap<SigKey, Arc<Mutex<NodeTable>>>,
    levels: BTreeMap<(u32, u32), Vec<SigKey>>,
}

impl Open {
    /// Adds the packed states (node key | [`pack_last`]) to signature
    /// `sig`, creating it if it is new.
    fn add(&self, sig: SigKey, packed: &[u64]) {
        let table = {
            let mut open = self.0.lock().expect("no worker panicked");
            let OpenSigs { tables, levels } = &mut *open;
            Arc::clone(tables.entry(sig).or_insert_with(|| {
                levels.entry(order_key(sig)).or_default().push(sig);
                Arc::default()
            }))
        };
        let mut table = table.lock().expect("no worker panicked");
        // Start loading the slots a few states ahead, so that the cache
        // misses overlap.
        const AHEAD: usize = 8;
        for &p in packed.iter().take(AHEAD) {
            table.prefetch(p & KEY);
        }
        for (i, &p) in packed.iter().enumerate() {
            if let Some(&q) = packed.get(i + AHEAD) {
                table.prefetch(q & KEY);
            }
            table.insert(p & KEY, 1 << (p >> 49));
        }
    }

    /// Takes out the signatures of the first level that is left, in key
    /// order (no worker may be adding states meanwhile).
    fn next_level(&self) -> Option<Vec<(SigKey, NodeTable)>> {
        let mut open = self.0.lock().expect("no worker panicked");
        let (_, mut keys) = open.levels.pop_first()?;
        keys.sort_unstable();
        let level = keys
            .into_iter()
            .map(|k| {
                let table = open.tables.remove(&k).expect("queued signature has a table");
                let table = Arc::into_inner(table).expect("no worker holds a closed table");
                (k, table.into_inner().expect("no worker panicked"))
            })
            .collect();
        Some(level)
    }
}

/// A worker's children leaving the signature it closes, grouped by their
/// signature; kept from one signature to the next so that it does not
/// allocate.
struct Exits {
    /// Signature to its place in `groups`.
    place: HashMap<SigKey, usize>,
    /// Recent entries of `place`, by a hash of the signature.
    recent: [(SigKey, usize); 64],
    /// The groups; those from `used` on are empty spares.
    groups: Vec<Group>,
    used: usize,
}

/// The children going to one signature.
struct Group {
    sig: SigKey,
    /// Whether tables cover `sig`: its children are dropped, not added.
    /// Asked once per group rather than once per child (a dynamic call
    /// for each of millions of children was 1% of a solve's
    /// instructions: docs/benchmarks.md).
    covered: bool,
    packed: Vec<u64>,
}

impl Default for Exits {
    fn default() -> Self {
        Exits {
            place: HashMap::default(),
            recent: [(SigKey::NONE, 0); 64],
            groups: Vec::new(),
            used: 0,
        }
    }
}

std::thread_local! {
    static EXITS: std::cell::Cell<Exits> = std::cell::Cell::default();
    /// The queue of [`close`], kept from one signature to the next.
    static QUEUE: std::cell::Cell<Vec<u64>> = std::cell::Cell::default();
}

impl Exits {
    /// Adds the packed child of signature `sig`; `covered` (by tables) is
    /// asked the first time `sig` comes.
    fn push(&mut self, sig: SigKey, packed: u64, covered: &(dyn Fn(SigKey) -> bool + Sync)) {
        // Children of one node mostly go to a few signatures: a small
        // direct-mapped cache saves most lookups in `place`.
        let way = (sig.bits().wrapping_mul(0x9E37_79B9) >> 26) as usize;
        if self.recent[way].0 == sig {
            let i = self.recent[way].1;
            self.groups[i].packed.push(packed);
            return;
        }
        let i = *self.place.entry(sig).or_insert_with(|| {
            if self.used == self.groups.len() {
                self.groups.push(Group { sig, covered: false, packed: Vec::new() });
            }
            let group = &mut self.groups[self.used];
            group.sig = sig;
            group.covered = covered(sig);
            self.used += 1;
            self.used - 1
        });
        self.recent[way] = (sig, i);
        self.groups[i].packed.push(packed);
    }

    /// Adds every group not covered to its signature and empties them.
    fn flush(&mut self, open: &Open) {
        for group in &mut self.groups[..self.used] {
            if !group.covered {
                open.add(group.sig, &group.packed);
            }
            group.packed.clear();
        }
        self.place.clear();
        self.recent = [(SigKey::NONE, 0); 64];
        self.used = 0;
    }
}

/// A state's `last` packed above its node key (bits 49..): the index of
/// its [`last_bit`].
fn pack_last(last: Last) -> u64 {
    u64::from(last_bit(last).trailing_zeros()) << 49
}

/// How far down the queue of [`close`] a node's slot starts loading before
/// it is popped.
const POP_AHEAD: usize = 4;

/// Levels with fewer nodes than this are handled on one thread.
pub const SMALL_LEVEL: usize = 4096;

/// The node key bits of a packed (node key | last bit index << 49).
const KEY: u64 = (1 << 49) - 1;

/// Bit of [`last_bit`] for a pass.
const PASS: u16 = 1 << 13;

/// The number of states of `table` (signature `sig`) that may end the game
/// with a second pass.
fn double_passes(n: u8, rule: PassRule, sig: SigKey, table: &NodeTable) -> usize {
    // Whether the mover is complete depends only on the side (key bit 0).
    let ended = [Side::Jia, Side::Yi].map(|side| {
        let mine = side.pieces_mask(n);
        sig.fixed() & mine == mine
    });
    (0..table.slots())
        .filter(|&i| table.mask(i) & PASS != 0 && !ended[(table.key(i) & 1) as usize])
        .filter(|&i| {
            rule == PassRule::Always
                || node_position(n, table.key(i), Last::Pass).legal_moves(rule).contains(Move::Pass)
        })
        .count()
}

/// Adds to `table` (signature `sig`) every state reachable inside its
/// signature and hands every child outside it to `out`.
/// `queue` is working memory (emptied first).
fn close(
    n: u8,
    rule: PassRule,
    sig: SigKey,
    table: &mut NodeTable,
    queue: &mut Vec<u64>,
    out: &mut dyn FnMut(&Child),
) {
    queue.clear();
    queue.extend((0..table.slots()).filter(|&i| table.mask(i) != 0).map(|i| table.key(i)));
    while let Some(key) = queue.pop() {
        // Start loading the slots of nodes popped soon and of this one's
        // pass, so that their cache misses overlap with this node's work.
        if let Some(&next) = queue.len().checked_sub(POP_AHEAD).and_then(|i| queue.get(i)) {
            table.prefetch(next);
        }
        if let Some(&next) = queue.last() {
            table.prefetch(next);
        }
        table.prefetch(key ^ 1);
        let slot = table.find(key).expect("queued node is present");
        if table.expanded(slot) {
            continue;
        }
        let mask = table.mask(slot);
        let pos = node_position(n, key, Last::None);
        if mover_complete(&pos, sig) {
            continue;
        }
        // Under always, every move is played from here on unless the node's
        // only state bans one (a walk after that piece's walk, the pass
        // after a pass): then the node is expanded again when it gets a
        // second state. Under when-stuck any new state may add the pass.
        if rule == PassRule::Always && (mask & (mask - 1) != 0 || mask == last_bit(Last::None)) {
            table.set_expanded(slot);
        }
        let mut walks = 0u16;
        let mut places = false;
        // The children inside, added once all are found (and their slots
        // loading).
        let mut inner = [(0, Last::None); MAX_CHILDREN];
        let mut len = 0;
        expand(&pos, sig, key, |c| {
            match c.mv {
                Move::Walk(p) => {
                    walks |= 1 << p;
                    if mask & !(1 << p) == 0 {
                        return; // the only state here may not walk p
                    }
                }
                _ => places = true,
            }
            if c.inside {
                table.prefetch(c.key);
                inner[len] = (c.key, c.pos.last());
                len += 1;
            } else {
                out(&c);
            }
        });
        let mut add = |k: u64, last: Last, queue: &mut Vec<u64>| {
            let bit = last_bit(last);
            let old = table.insert(k, bit);
            // A node's moves are those of its states: they change only when
            // it gets its first or second state (or, under when-stuck, any
            // new state, which may be stuck).
            let grew = old | bit != old && (old.count_ones() <= 1 || rule == PassRule::WhenStuck);
            if grew {
                queue.push(k);
            }
        };
        for &(k, last) in &inner[..len] {
            add(k, last, queue);
        }
        // The pass: from a state after a pass it ends the game, otherwise it
        // stays inside. Under when-stuck only states without other moves pass.
        let may_pass = |bit: u16| match rule {
            PassRule::Always => true,
            PassRule::WhenStuck => !places && walks & !(bit & !1 & !PASS) == 0,
        };
        let mut rest = mask & !PASS;
        let mut inside = false;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            inside |= may_pass(bit);
        }
        if inside {
            add(key ^ 1, Last::Pass, queue);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_states_counted_while_enumerating_are_those_in_the_tables() {
        for (pos, rule) in [("6,1,7,2,4,8,5,3", PassRule::Always), ("2,1,4,3", PassRule::WhenStuck)]
        {
            let root: Position = pos.parse().unwrap();
            let variant = Variant::new(root.slots(), rule).unwrap();
            let reached =
                reach(variant, &[root], &|_| false, &|| false, |_| ControlFlow::Continue(()))
                    .unwrap();
            let counted: usize = reached.sigs.iter().map(|s| s.table.states()).sum();
            assert!(counted > 1);
            assert_eq!(reached.states(), counted, "{pos}");
        }
    }
}
