//! One sub-table with all its states, numbered densely, as a retrograde
//! [`Graph`].

use crate::generate::compact::{Boards, Facts, Moves};
use crate::index::SigIndex;
use crate::moves::PassRule;
use crate::position::{Last, walk_origin};
use crate::score::Score;

use crate::solve::{
    Graph, Init, NodeMoves, inside_parent_key, inside_walk_key, key_slot_of, last_bit,
};
use crate::summary::Summary;

/// Bit l set for each consistent `last` number l of a board (0 none, 1
/// pass, 2 + j the j-th loose piece, which must have come from an empty
/// origin slot); the board as nibbles ([`Boards::nibbles`]).
pub(super) fn valid_lasts(n: u8, index: &SigIndex, nibbles: u64) -> u16 {
    let piece_on = |slot: u8| (nibbles >> (4 * (slot - 1)) & 15) as u8;
    let mut valid = 0b11;
    for (j, &p) in index.items().iter().enumerate() {
        let slot = key_slot_of(nibbles << 1, p).expect("loose piece on board");
        if p != n && piece_on(walk_origin(n, slot, p)) == 0 {
            valid |= 1 << (2 + j);
        }
    }
    valid
}

/// Boards per entry of [`Dense::base`].
const BASE_EVERY: usize = 8;

/// [`Dense::first_state`] from the boards' `base` and `valid`: a node's
/// first state is its group's base plus the states of the boards (and
/// the 甲 node) before it in the group, 2 × the consistent `last` values
/// of each board.
#[inline]
fn first_of(base: &[u32], valid: &[u16], node: usize) -> usize {
    let b = node / 2;
    let group = b / BASE_EVERY;
    let before: u32 = valid[group * BASE_EVERY..b].iter().map(|v| v.count_ones()).sum();
    let at = base[group] as usize + 2 * before as usize;
    if node & 1 == 0 { at } else { at + valid[b].count_ones() as usize }
}

/// States per entry of [`Dense::anchors`]: a node has 2 to 14 states (4
/// on average for 12 slots), so a state's node is a few steps from its
/// anchor's, and the index costs 1/4 of a byte a state instead of 4.
const ANCHOR: u64 = 16;

/// One sub-table with all its states, as a [`Graph`].
///
/// States are numbered node by node (node = board rank × 2 + side), and
/// within a node by `last` number (0 none, 1 pass, 2 + j the j-th loose
/// piece), counting only the consistent ones: no holes.
pub(super) struct Dense<'a, M> {
    n: u8,
    rule: PassRule,
    index: &'a SigIndex,
    /// Per board rank, the moves of its two nodes.
    moves: Vec<M>,
    /// What every board shares per side to move.
    facts: Facts,
    /// Per board rank, the board.
    boards: Boards,
    /// Per board rank, its consistent `last` numbers ([`valid_lasts`]).
    valid: Vec<u16>,
    /// Per [`BASE_EVERY`] boards from board 0 to the number of boards,
    /// the number of the first state of the group's first board's 甲 node
    /// (乙's states follow 甲's: both nodes of a board have its consistent
    /// `last` values). States are numbered below 2^32: the retrograde core
    /// numbers them in 32 bits too. Half a byte a board instead of the 4
    /// of a number per board: 0.67 GB less for the largest 12-slot
    /// sub-table. [`Dense::first_state`] gives a node's.
    base: Vec<u32>,
    /// The number of states.
    states: usize,
    /// Per [`ANCHOR`] states, the node of the first one: a state's node is
    /// found by a short walk from there.
    anchors: Vec<u32>,
    /// Per piece, its number among the loose pieces (its `last` number
    /// is that + 2).
    item_of: [u8; 16],
}

impl<'a, M: Moves> Dense<'a, M> {
    pub(super) fn new(
        n: u8,
        rule: PassRule,
        fixed: u16,
        index: &'a SigIndex,
        moves: Vec<M>,
        boards: Boards,
        valid: Vec<u16>,
    ) -> Self {
        assert_eq!(moves.len(), valid.len(), "moves for every board");
        assert!(2 * moves.len() <= u32::MAX as usize, "a sub-table's nodes fit in 32 bits");
        let mut base = Vec::with_capacity(valid.len() / BASE_EVERY + 1);
        // Sized at once: grown by doubling, the largest 12-slot
        // sub-table's 350 MB of anchors would be copied on the way.
        let states: u64 = valid.iter().map(|v| 2 * u64::from(v.count_ones())).sum();
        let mut anchors = Vec::with_capacity(states.div_ceil(ANCHOR) as usize);
        let mut total = 0u64;
        for (b, v) in valid.iter().enumerate() {
            if b.is_multiple_of(BASE_EVERY) {
                base.push(total as u32);
            }
            for node in [2 * b, 2 * b + 1] {
                total += u64::from(v.count_ones());
                assert!(total <= u64::from(u32::MAX), "a sub-table's states fit in 32 bits");
                while (anchors.len() as u64) * ANCHOR < total {
                    anchors.push(node as u32);
                }
            }
        }
        if valid.len().is_multiple_of(BASE_EVERY) {
            base.push(total as u32);
        }
        let facts = Facts::new(n, fixed, index.loose());
        let mut item_of = [0u8; 16];
        for (j, &p) in index.items().iter().enumerate() {
            item_of[usize::from(p)] = j as u8;
        }
        debug_assert_eq!((total, anchors.len() as u64), (states, states.div_ceil(ANCHOR)));
        let states = total as usize;
        Dense { n, rule, index, moves, facts, boards, valid, base, states, anchors, item_of }
    }

    /// The number of the first state of `node` (for `node` = the number
    /// of nodes: the number of states).
    #[inline]
    fn first_state(&self, node: usize) -> usize {
        first_of(&self.base, &self.valid, node)
    }

    /// The moves of `node`.
    #[inline]
    fn node_moves(&self, node: usize) -> NodeMoves {
        self.moves[node / 2].get(node & 1, &self.facts)
    }

    /// The node key of `node` ([`crate::solve::node_key`]).
    #[inline]
    fn key(&self, node: usize) -> u64 {
        self.boards.nibbles(node / 2) << 1 | (node & 1) as u64
    }

    /// The node of node key `key` (a node of this sub-table).
    #[inline]
    fn node_of_key(&self, key: u64) -> usize {
        (self.index.rank_nibbles(key >> 1) * 2 + (key & 1)) as usize
    }

    /// The node of state `s` and its `last` number.
    #[inline]
    fn locate(&self, s: usize) -> (usize, usize) {
        let mut node = self.anchors[s / ANCHOR as usize] as usize;
        let mut at = self.first_state(node);
        loop {
            let next = at + self.valid[node / 2].count_ones() as usize;
            if next > s {
                break;
            }
            (node, at) = (node + 1, next);
        }
        let mut valid = self.valid[node / 2];
        for _ in 0..s - at {
            valid &= valid - 1;
        }
        (node, valid.trailing_zeros() as usize)
    }

    /// The `last` of `last` number `l`.
    #[inline]
    fn last_of(&self, l: usize) -> Last {
        match l {
            0 => Last::None,
            1 => Last::Pass,
            _ => Last::Piece(self.index.items()[l - 2]),
        }
    }

    /// The state of `node` with `last` number `l` (which must be
    /// consistent).
    #[inline]
    fn state_at(&self, node: usize, l: usize) -> usize {
        let valid = self.valid[node / 2];
        debug_assert!(valid >> l & 1 == 1, "last number {l} of node {node} is consistent");
        self.first_state(node) + (valid & ((1 << l) - 1)).count_ones() as usize
    }

    /// The summary of `node` once every state is scored (`score`, by state
    /// number).
    pub(super) fn summary(&self, node: usize, score: impl Fn(usize) -> Score) -> Summary {
        let m = self.node_moves(node);
        if let Some(t) = m.terminal {
            return Summary::ended(t);
        }
        let key = self.key(node);
        let mut summary = m.exits;
        let mut inside = m.inside;
        while inside != 0 {
            let p = inside.trailing_zeros() as u8;
            inside &= inside - 1;
            // The walk of p into an empty slot: its state has `last` p.
            let child = self.node_of_key(inside_walk_key(self.n, key, p));
            let l = 2 + usize::from(self.item_of[usize::from(p)]);
            summary.offer(Score::from_child(score(self.state_at(child, l)), false), p);
        }
        // Under when-stuck the pass counts only where nothing else can be
        // played ([`Summary::score`]); its child is a state either way: the
        // same board with the other side to move (`last` number 1).
        summary.pass = Some(Score::from_child(score(self.state_at(node ^ 1, 1)), false));
        summary
    }
}

impl<M: Moves> Graph for Dense<'_, M> {
    fn len(&self) -> usize {
        self.states
    }

    fn init(&self, s: usize) -> Init {
        let (node, l) = self.locate(s);
        self.node_moves(node).init(self.last_of(l), self.rule)
    }

    fn inits(&self, range: std::ops::Range<usize>, f: &mut dyn FnMut(usize, Init)) {
        if range.is_empty() {
            return;
        }
        // Node by node from the first state's: no search per state.
        let (mut node, _) = self.locate(range.start);
        let mut at = self.first_state(node);
        while at < range.end {
            let moves = self.node_moves(node);
            let mut valid = self.valid[node / 2];
            while valid != 0 {
                let l = valid.trailing_zeros() as usize;
                valid &= valid - 1;
                if range.contains(&at) {
                    f(at, moves.init(self.last_of(l), self.rule));
                }
                at += 1;
            }
            node += 1;
        }
    }

    fn parents(&self, s: usize, f: &mut dyn FnMut(usize)) {
        let (node, l) = self.locate(s);
        let last = self.last_of(l);
        // After a pass the parent node is the same board with the other
        // side to move: no need to rank it.
        let (pnode, excluded) = if last == Last::Pass {
            (node ^ 1, last_bit(Last::Pass))
        } else {
            let Some((parent, excluded)) = inside_parent_key(self.n, self.key(node), last) else {
                return;
            };
            (self.node_of_key(parent), excluded)
        };
        if self.facts.ended[pnode & 1] {
            return;
        }
        let mut valid = self.valid[pnode / 2];
        let mut ps = self.first_state(pnode);
        while valid != 0 {
            let pl = valid.trailing_zeros() as usize;
            valid &= valid - 1;
            let plast = self.last_of(pl);
            let banned = last_bit(plast) & excluded != 0;
            // Only a pass under when-stuck needs the parent's moves (which
            // cost a cache miss to read).
            let may = || {
                last != Last::Pass
                    || self.rule == PassRule::Always
                    || self.node_moves(pnode).may_pass(plast, self.rule)
            };
            if !banned && may() {
                f(ps);
            }
            ps += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use crate::position::Position;
    use crate::side::Side;
    use crate::solve::node_key;
    use crate::value::Value;

    /// The sub-table (`fixed`, `loose`) of `n` slots as a graph, with
    /// random values for the moves that leave it.
    fn graph(n: u8, rule: PassRule, fixed: u16, index: &SigIndex) -> Dense<'_, [NodeMoves; 2]> {
        let mut rng = crate::random::Rng::new(u64::from(fixed) << 16 | u64::from(index.loose()));
        let boards = Boards::new(index);
        let sig = crate::signature::SigKey::new(fixed, index.loose());
        let moves = (0..boards.len())
            .map(|b| {
                [0, 1].map(|side| {
                    let pos = position(n, &boards, 2 * b + side, Last::None);
                    NodeMoves::new(&pos, sig, node_key(&pos), 0, |_, out| {
                        for o in out.iter_mut() {
                            *o = Score::terminal(Value::ALL[rng.below(5) as usize]);
                        }
                    })
                })
            })
            .collect();
        let valid = (0..boards.len()).map(|r| valid_lasts(n, index, boards.nibbles(r))).collect();
        Dense::new(n, rule, fixed, index, moves, boards, valid)
    }

    fn position(n: u8, boards: &Boards, node: usize, last: Last) -> Position {
        Position { n, board: boards.get(node / 2), side: Side::of_node(node as u64), last }
    }

    /// The position of state `s`.
    fn state_position(g: &Dense<'_, [NodeMoves; 2]>, s: usize) -> Position {
        let (node, l) = g.locate(s);
        position(g.n, &g.boards, node, g.last_of(l))
    }

    /// The state of `pos`, found from its board's rank.
    fn state_of(g: &Dense<'_, [NodeMoves; 2]>, pos: &Position) -> usize {
        let node = g.index.rank(pos.board()) as usize * 2 + pos.side().index();
        let l = match pos.last() {
            Last::None => 0,
            Last::Pass => 1,
            Last::Piece(p) => 2 + g.index.items().iter().position(|&x| x == p).expect("loose"),
            Last::DoublePass => unreachable!("never stored"),
        };
        g.state_at(node, l)
    }

    /// The starts, parents and summaries the graph computes from node keys
    /// agree with playing the moves on positions: every state's inside
    /// moves lead to states that list it among their parents, every parent
    /// listed has such a move, and a node's summary offers each inside
    /// walk the score of the state it leads to.
    #[test]
    fn keys_agree_with_positions() {
        let cases = [(6u8, 0u16, 0b101_1110u16), (8, 0b100, 0b1_1110_1010), (8, 0, 0b1_1111_1010)];
        for rule in [PassRule::Always, PassRule::WhenStuck] {
            for (n, fixed, loose) in cases {
                let index = SigIndex::new(n, fixed, loose);
                let g = graph(n, rule, fixed, &index);
                let len = g.len();
                // Starts of runs of states, at any offset.
                for range in [0..len, 1..len / 3, len / 2..len / 2 + 7, len - 1..len] {
                    let mut seen = Vec::new();
                    g.inits(range.clone(), &mut |s, init| seen.push((s, init)));
                    let want: Vec<_> = range.map(|s| (s, g.init(s))).collect();
                    assert_eq!(seen, want, "{n} {fixed:#x} {loose:#x}");
                }
                let parents: Vec<Vec<usize>> = (0..len)
                    .map(|s| {
                        let mut ps = Vec::new();
                        g.parents(s, &mut |p| ps.push(p));
                        ps
                    })
                    .collect();
                let mut edges = 0;
                for s in 0..len {
                    let pos = state_position(&g, s);
                    let (node, _) = g.locate(s);
                    let m = g.node_moves(node);
                    if m.terminal.is_some() {
                        continue;
                    }
                    let banned = match pos.last() {
                        Last::Piece(p) => 1 << p,
                        _ => 0,
                    };
                    let mut children: Vec<usize> = Vec::new();
                    let mut inside = m.inside & !banned;
                    while inside != 0 {
                        let p = inside.trailing_zeros() as u8;
                        inside &= inside - 1;
                        children.push(state_of(&g, &pos.play_unchecked(Move::Walk(p))));
                    }
                    if pos.last() != Last::Pass && m.may_pass(pos.last(), rule) {
                        children.push(state_of(&g, &pos.play_unchecked(Move::Pass)));
                    }
                    for &c in &children {
                        assert!(parents[c].contains(&s), "{pos}: child {c} misses parent {s}");
                    }
                    edges += children.len();
                    // The summary, by positions.
                    let score = |t: usize| Score::terminal(Value::ALL[t % 5]);
                    let mut want = m.exits;
                    let mut inside = m.inside;
                    while inside != 0 {
                        let p = inside.trailing_zeros() as u8;
                        inside &= inside - 1;
                        let c = state_of(&g, &pos.play_unchecked(Move::Walk(p)));
                        want.offer(Score::from_child(score(c), false), p);
                    }
                    let passed = Position { last: Last::None, ..pos }.play_unchecked(Move::Pass);
                    want.pass = Some(Score::from_child(score(state_of(&g, &passed)), false));
                    assert_eq!(g.summary(node, score), want, "{pos}");
                }
                assert_eq!(edges, parents.iter().map(Vec::len).sum::<usize>(), "{n} {fixed:#x}");
                assert!(edges > 1000, "only {edges} edges in {n} {fixed:#x} {loose:#x}");
            }
        }
    }
}
