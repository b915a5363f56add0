//! Forward enumeration: every state reachable from a position, grouped by
//! signature (SCALE.md).
//!
//! A signature is (F, B): the fixed pieces and the non-fixed pieces on the
//! board. Moves only stay inside a signature or go to one with more fixed
//! pieces, or the same fixed pieces and fewer on the board; so signatures
//! are closed one at a time in the order ([`order_key`]) of growing |F| and
//! shrinking |B|, and once a signature is taken up no state can be added to
//! it any more.

use std::collections::BTreeMap;

use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;

use crate::moves::{Move, PassRule};
use crate::position::{Last, Position};
use crate::solve::expand::{Child, expand, mover_complete};
use crate::solve::node::{last_bit, node_key, node_position};
use crate::solve::sig::{SigKey, order_key, signature};
use crate::solve::table::NodeTable;

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
    pub n: u8,
    /// The pass rule the moves follow.
    pub rule: PassRule,
    /// Signatures in the order they were closed (predecessors first).
    pub sigs: Vec<SigStates>,
    /// Signature key to its place in `sigs`.
    pub index: HashMap<SigKey, usize>,
    /// Reachable terminal states after two passes (stored nowhere: their
    /// value is always both-lose).
    pub double_passes: usize,
}

impl Reached {
    /// Total number of stored states.
    pub fn states(&self) -> usize {
        self.sigs.iter().map(|s| s.table.states()).sum()
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

/// Enumerates every state reachable from the `roots` (all with `n` slots;
/// double passes among them are ended games and are skipped), except in
/// the signatures that are `covered` (by tables) and beyond them. `progress`
/// is called with the number of states closed so
/// far after each level.
///
/// Signatures with the same [`order_key`] (a level) never lead to each
/// other, so each level is closed in parallel; the children leaving it are
/// then sorted and merged into the later signatures in parallel too. The
/// result does not depend on the number of threads.
pub fn reach(
    n: u8,
    roots: &[Position],
    rule: PassRule,
    covered: &(dyn Fn(SigKey) -> bool + Sync),
    mut progress: impl FnMut(usize),
) -> Reached {
    let mut open: HashMap<SigKey, NodeTable> = HashMap::default();
    let mut levels: BTreeMap<(u32, u32), Vec<SigKey>> = BTreeMap::new();
    let mut reached =
        Reached { n, rule, sigs: Vec::new(), index: HashMap::default(), double_passes: 0 };
    for root in roots {
        assert_eq!(root.slots(), n, "all roots have {n} slots");
        if root.last() == Last::DoublePass {
            reached.double_passes += 1; // an ended game: nothing to explore
            continue;
        }
        let sig = signature(root);
        let table = open.entry(sig).or_insert_with(|| {
            levels.entry(order_key(sig)).or_default().push(sig);
            NodeTable::default()
        });
        table.insert(node_key(root), last_bit(root.last()));
    }
    let mut total = 0;
    while let Some((_, mut keys)) = levels.pop_first() {
        keys.sort_unstable();
        let mut level: Vec<(SigKey, NodeTable)> = keys
            .iter()
            .map(|k| (*k, open.remove(k).expect("queued signature has a table")))
            .collect();
        // Close each signature, collecting its children outside it by
        // signature as node key | last bit index << 49.
        let close_one = |(key, table): &mut (SigKey, NodeTable)| {
            let mut out: HashMap<SigKey, Vec<u64>> = HashMap::default();
            close(n, rule, *key, table, &mut |child| {
                if covered(child.sig) {
                    return; // the tables know it
                }
                let bit = u64::from(last_bit(child.pos.last()).trailing_zeros());
                out.entry(child.sig).or_default().push(child.key | bit << 49);
            });
            out
        };
        // Small levels cost less on one thread than handing them out.
        let size: usize = level.iter().map(|(_, t)| t.len()).sum();
        let exits: Vec<HashMap<SigKey, Vec<u64>>> = if size < SMALL_LEVEL {
            level.iter_mut().map(close_one).collect()
        } else {
            level.par_iter_mut().map(close_one).collect()
        };
        merge(&mut open, &mut levels, exits);
        let count = |(key, table): &(SigKey, NodeTable)| {
            (double_passes(n, rule, *key, table), table.states())
        };
        let counts: Vec<(usize, usize)> = if size < SMALL_LEVEL {
            level.iter().map(count).collect()
        } else {
            level.par_iter().map(count).collect()
        };
        for ((key, table), (doubles, states)) in level.into_iter().zip(counts) {
            reached.double_passes += doubles;
            total += states;
            reached.index.insert(key, reached.sigs.len());
            reached.sigs.push(SigStates { key, table });
        }
        progress(total);
    }
    reached
}

/// Inserts the children in `exits` into their signatures' tables,
/// creating (and queueing) the signatures not seen before.
fn merge(
    open: &mut HashMap<SigKey, NodeTable>,
    levels: &mut BTreeMap<(u32, u32), Vec<SigKey>>,
    exits: Vec<HashMap<SigKey, Vec<u64>>>,
) {
    let mut parts: Vec<(SigKey, Vec<u64>)> = exits.into_iter().flatten().collect();
    parts.sort_unstable_by_key(|p| p.0);
    let groups: Vec<&[(SigKey, Vec<u64>)]> = parts.chunk_by(|a, b| a.0 == b.0).collect();
    let mut tables: Vec<NodeTable> = groups
        .iter()
        .map(|g| {
            let sig = g[0].0;
            open.remove(&sig).unwrap_or_else(|| {
                levels.entry(order_key(sig)).or_default().push(sig);
                NodeTable::with_capacity(g.iter().map(|p| p.1.len()).sum::<usize>() / 2)
            })
        })
        .collect();
    tables.par_iter_mut().zip(&groups).for_each(|(table, group)| {
        for &packed in group.iter().flat_map(|p| &p.1) {
            table.insert(packed & KEY, 1 << (packed >> 49));
        }
    });
    for (table, group) in tables.into_iter().zip(groups) {
        open.insert(group[0].0, table);
    }
}

/// Levels with fewer nodes than this are handled on one thread.
pub const SMALL_LEVEL: usize = 4096;

/// The node key bits of a packed (node key | last bit index << 49).
const KEY: u64 = (1 << 49) - 1;

/// Bit of [`last_bit`] for a pass.
const PASS: u16 = 1 << 13;

/// The number of states of `table` (signature `sig`) that may end the game
/// with a second pass.
fn double_passes(n: u8, rule: PassRule, sig: SigKey, table: &NodeTable) -> usize {
    (0..table.slots())
        .filter(|&i| table.mask(i) & PASS != 0)
        .filter(|&i| {
            let pos = node_position(n, table.key(i), Last::Pass);
            !mover_complete(&pos, sig)
                && (rule == PassRule::Always || pos.legal_moves(rule).contains(Move::Pass))
        })
        .count()
}

/// Adds to `table` (signature `sig`) every state reachable inside its
/// signature and hands every child outside it to `out`.
fn close(n: u8, rule: PassRule, sig: SigKey, table: &mut NodeTable, out: &mut dyn FnMut(&Child)) {
    let mut queue: Vec<u64> =
        (0..table.slots()).filter(|&i| table.mask(i) != 0).map(|i| table.key(i)).collect();
    while let Some(key) = queue.pop() {
        let mask = table.mask(table.find(key).expect("queued node is present"));
        let pos = node_position(n, key, Last::None);
        if mover_complete(&pos, sig) {
            continue;
        }
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
        let mut walks = 0u16;
        let mut places = false;
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
                add(c.key, c.pos.last(), &mut queue);
            } else {
                out(&c);
            }
        });
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
            add(key ^ 1, Last::Pass, &mut queue);
        }
    }
}
