//! Nodes: a board with its side to move, standing for every state that
//! differs only in `last`.
//!
//! A state's moves are its node's moves minus the banned walk, with the pass
//! depending on whether the previous ply was a pass (docs/tables.md,
//! thoughts). So the moves, and the lookups of the children that leave the
//! signature, are computed once per node ([`NodeMoves`]), and each state's
//! start for the retrograde core is read off it ([`NodeMoves::init`]).
//!
//! Inside a signature only two kinds of move exist: a walk into an empty
//! slot that does not fix the piece, and a pass that does not end the game.
//! Both are undone here ([`inside_parent`]) without any table.

use crate::moves::{Move, PassRule};
use crate::position::{Last, MAX_SLOTS, Position, walk_origin, walk_target};
use crate::score::Score;
use crate::signature::SigKey;
use crate::solve::expand::{Child, expand, mover_complete};
use crate::solve::retro::Init;
use crate::summary::{DOUBLE_PASS, Summary};
use crate::value::Value;

/// The `last` bit of a state within its node: bit 0 none, bit p piece p,
/// bit 13 pass. A double pass is a terminal state and has no bit.
#[inline]
pub fn last_bit(last: Last) -> u16 {
    match last {
        Last::None => 1,
        Last::Piece(p) => 1 << p,
        Last::Pass => 1 << 13,
        Last::DoublePass => unreachable!("a double pass is never stored"),
    }
}

/// The inverse of [`last_bit`] for a single-bit `bit`.
#[inline]
pub fn last_of_bit(bit: u16) -> Last {
    match bit.trailing_zeros() {
        0 => Last::None,
        13 => Last::Pass,
        p => Last::Piece(p as u8),
    }
}

/// A node's key: 4 bits per slot, slot 1 lowest, then the side (1 = 乙)
/// in bit 0.
#[inline]
pub fn node_key(pos: &Position) -> u64 {
    let mut k = 0u64;
    for (i, &p) in pos.board().iter().enumerate() {
        k |= u64::from(p) << (4 * i);
    }
    k << 1 | pos.side().index() as u64
}

/// The state of node `key` on an `n`-slot board with this `last`.
#[inline]
pub fn node_position(n: u8, key: u64, last: Last) -> Position {
    let mut board = [0u8; MAX_SLOTS as usize];
    let bits = key >> 1;
    for (i, cell) in board.iter_mut().enumerate().take(n as usize) {
        *cell = (bits >> (4 * i) & 15) as u8;
    }
    let side = if key & 1 == 0 { crate::side::Side::Jia } else { crate::side::Side::Yi };
    Position { n, board, side, last }
}

/// The most walks and placements a node can have.
pub const MAX_CHILDREN: usize = MAX_SLOTS as usize + MAX_SLOTS as usize / 2;

/// A node's moves and the scores of those that leave the signature.
#[derive(Debug, Clone, Copy, Default)]
pub struct NodeMoves {
    /// The end of the game, if the mover is complete (docs/rules.md); then the
    /// node has no moves and the other fields are empty.
    pub terminal: Option<Score>,
    /// Pieces that may walk (bit p), ignoring any ban.
    pub walks: u16,
    /// The walks that stay inside the signature.
    pub inside: u16,
    /// Whether the mover has a piece to place.
    pub places: bool,
    /// The moves that leave the signature (no pass).
    pub exits: Summary,
}

impl NodeMoves {
    /// Analyses node `pos` (its `last` is ignored) of signature `sig`;
    /// `exits` fills in the scores of the children outside the signature
    /// (from each child's mover's view), all at once so that it can
    /// overlap their memory accesses. The walks in `skip` (bit p) are
    /// counted as walks but not scored: no state of interest plays them.
    pub fn new(
        pos: &Position,
        sig: SigKey,
        key: u64,
        skip: u16,
        exits: impl FnOnce(&[Child], &mut [Score]),
    ) -> Self {
        let mut pending = Pending::default();
        pending.start(pos, sig, key, skip);
        let mut scores = [Score::terminal(Value::NoResult); MAX_CHILDREN];
        exits(pending.children(), &mut scores[..pending.len]);
        pending.finish(&scores)
    }

    /// Node `pos`'s moves before any exit is scored (`exits` empty): its
    /// end, walks, inside walks and placements, as [`NodeMoves::new`]
    /// finds them, without making the children that leave the signature.
    pub fn unscored(pos: &Position, sig: SigKey, key: u64) -> Self {
        moves_of(pos, sig, key, 0, |_| {})
    }

    /// Whether the state with this `last` may pass.
    #[inline]
    pub fn may_pass(&self, last: Last, rule: PassRule) -> bool {
        match rule {
            PassRule::Always => true,
            PassRule::WhenStuck => {
                let banned = match last {
                    Last::Piece(p) => 1 << p,
                    _ => 0,
                };
                !self.places && self.walks & !banned == 0
            }
        }
    }

    /// How the state with this `last` starts the retrograde analysis.
    pub fn init(&self, last: Last, rule: PassRule) -> Init {
        if let Some(t) = self.terminal {
            return Init::Terminal(t);
        }
        let banned = match last {
            Last::Piece(p) => p,
            _ => 0,
        };
        let mut exit = self.exits.best_unbanned(last);
        let mut children = (self.inside & !(1u16 << banned)).count_ones() as u8;
        if self.may_pass(last, rule) {
            if last == Last::Pass {
                exit = exit.max(Some(DOUBLE_PASS));
            } else {
                children += 1;
            }
        }
        Init::Open { exit, children }
    }
}

/// [`NodeMoves::new`] in two steps: [`Pending::start`] finds the moves and
/// the children that leave the signature, [`Pending::finish`] takes their
/// scores. In between, a caller may start loading the children of later
/// nodes, so that the cache misses of several nodes overlap.
#[derive(Debug, Clone, Copy)]
pub struct Pending {
    node: NodeMoves,
    /// The side to move in the node.
    side: crate::side::Side,
    /// The children that leave the signature (the first `len`).
    children: [Child; MAX_CHILDREN],
    len: usize,
}

impl Default for Pending {
    fn default() -> Self {
        let pos = node_position(1, 0, Last::None);
        let filler = Child { mv: Move::Pass, pos, sig: SigKey::NONE, key: 0, inside: true };
        Pending {
            node: NodeMoves::default(),
            side: pos.side,
            children: [filler; MAX_CHILDREN],
            len: 0,
        }
    }
}

impl Pending {
    /// Starts on node `pos` (its `last` is ignored) of signature `sig`, as
    /// [`NodeMoves::new`] does.
    pub fn start(&mut self, pos: &Position, sig: SigKey, key: u64, skip: u16) {
        self.side = pos.side;
        self.len = 0;
        let Pending { node, children, len, .. } = self;
        *node = moves_of(pos, sig, key, skip, |c| {
            children[*len] = c;
            *len += 1;
        });
    }

    /// Makes no node: [`Pending::finish`] gives the default [`NodeMoves`].
    pub fn clear(&mut self) {
        self.node = NodeMoves::default();
        self.len = 0;
    }

    /// The children that leave the signature, whose scores
    /// [`Pending::finish`] needs.
    pub fn children(&self) -> &[Child] {
        &self.children[..self.len]
    }

    /// The node, given the score of each child of [`Pending::children`]
    /// (from the child's mover's view), in order.
    pub fn finish(&self, scores: &[Score]) -> NodeMoves {
        let mut node = self.node;
        for (c, &s) in self.children().iter().zip(scores) {
            let piece = match c.mv {
                Move::Walk(p) => p,
                _ => 0,
            };
            node.exits.offer(Score::from_child(s, c.pos.side == self.side), piece);
        }
        node
    }
}

/// The moves of node `pos` (its `last` ignored) of signature `sig`, no
/// exit scored: its end if the mover is complete, else its walks (all,
/// ignoring any ban), the walks that stay inside and whether it places;
/// `exit` is called with each move that leaves the signature, but not
/// the walks in `skip`.
#[inline]
fn moves_of(
    pos: &Position,
    sig: SigKey,
    key: u64,
    skip: u16,
    mut exit: impl FnMut(Child),
) -> NodeMoves {
    let mut node = NodeMoves::default();
    if mover_complete(pos, sig) {
        let pos = Position { last: Last::None, ..*pos };
        let outcome = pos.outcome().expect("a complete mover has ended the game");
        node.terminal = Some(Score::terminal(terminal_value(&pos, outcome)));
        return node;
    }
    expand(pos, sig, key, |c| {
        match c.mv {
            Move::Walk(p) => {
                node.walks |= 1 << p;
                if skip & 1 << p != 0 {
                    return;
                }
                if c.inside {
                    node.inside |= 1 << p;
                    return;
                }
            }
            _ => node.places = true,
        }
        exit(c);
    });
    node
}

/// The value of a finished game for the side to move.
pub fn terminal_value(pos: &Position, outcome: crate::position::Outcome) -> Value {
    outcome.value_for(pos.side)
}

/// The node every in-signature parent of state `pos` belongs to, and the
/// `last` bits of that node's states that cannot make the move (the caller
/// also checks terminal nodes and, under [`PassRule::WhenStuck`], passes).
///
/// - `last` = piece p: p walked from its origin into an empty slot; the
///   parent node has p back on the origin, the other side to move, and its
///   states with `last` = p could not walk p.
/// - `last` = pass: the same board with the other side to move; its states
///   after a pass would have ended the game instead.
/// - otherwise: no parent inside the signature.
///
/// The reference for [`inside_parent_key`], which the solvers use.
/// The single bits of `mask`, lowest first.
pub(crate) fn bits(mut mask: u16) -> impl Iterator<Item = u16> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let bit = mask & mask.wrapping_neg();
        mask &= mask - 1;
        Some(bit)
    })
}

#[cfg(test)]
pub fn inside_parent(pos: &Position) -> Option<(Position, u16)> {
    match pos.last {
        Last::Piece(p) => {
            let t = pos.slot_of(p).expect("last piece on board");
            let o = walk_origin(pos.n, t, p);
            if o == p {
                return None; // p would have been fixed there
            }
            let mut parent = *pos;
            parent.board[t as usize - 1] = 0;
            parent.board[o as usize - 1] = p;
            parent.side = pos.side.other();
            parent.last = Last::None;
            Some((parent, 1 << p))
        }
        Last::Pass => {
            let parent = Position { side: pos.side.other(), last: Last::None, ..*pos };
            Some((parent, 1 << 13))
        }
        Last::None | Last::DoublePass => None,
    }
}

/// The bits of piece `piece` on slot `slot` (1-based) in a node key.
#[inline]
fn at(slot: u8, piece: u8) -> u64 {
    u64::from(piece) << (4 * slot - 3)
}

/// The slot (1-based) of `piece` (≥ 1) in node `key`, if it is on the
/// board.
#[inline]
pub fn key_slot_of(key: u64, piece: u8) -> Option<u8> {
    const ONES: u64 = 0x1111_1111_1111_1111;
    const HIGHS: u64 = 0x8888_8888_8888_8888;
    // The nibbles equal to `piece` become 0; the lowest zero nibble is
    // found exactly by the borrow trick (only higher ones can be false).
    let x = (key >> 1) ^ (ONES * u64::from(piece));
    let zero = x.wrapping_sub(ONES) & !x & HIGHS;
    (zero != 0).then(|| (zero.trailing_zeros() / 4 + 1) as u8)
}

/// [`inside_parent`] on node keys: the key of the node every in-signature
/// parent of the state (`key`, `last`) of an `n`-slot board belongs to,
/// and the `last` bits that cannot make the move.
#[inline]
pub fn inside_parent_key(n: u8, key: u64, last: Last) -> Option<(u64, u16)> {
    match last {
        Last::Piece(p) => {
            let t = key_slot_of(key, p).expect("last piece on board");
            let o = walk_origin(n, t, p);
            (o != p).then(|| (key ^ 1 ^ at(t, p) ^ at(o, p), 1 << p))
        }
        Last::Pass => Some((key ^ 1, 1 << 13)),
        Last::None | Last::DoublePass => None,
    }
}

/// The key of the node a walk of `p` leads to from node `key` of an
/// `n`-slot board, for a walk into an empty slot (one that stays inside
/// the signature).
#[inline]
pub fn inside_walk_key(n: u8, key: u64, p: u8) -> u64 {
    let s = key_slot_of(key, p).expect("a walking piece is on the board");
    key ^ 1 ^ at(s, p) ^ at(walk_target(n, s, p), p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use crate::signature::signature;
    use crate::solve::expand::expand;

    /// The key arithmetic agrees with playing and undoing moves on
    /// positions.
    #[test]
    fn key_arithmetic_matches_positions() {
        let mut rng = crate::random::Rng::new(7);
        let mut checked = 0;
        for _ in 0..4000 {
            let n = [4u8, 6, 8, 10, 12][rng.below(5) as usize];
            let all = crate::table::format::free_pieces(n, 0);
            // Few pieces fixed, so that most walks stay inside.
            let fixed = all & rng.below(1 << 13) as u16 & rng.below(1 << 13) as u16;
            let drawn = crate::random::random_position(&mut rng, n, fixed);
            let pos = Position { last: Last::None, ..drawn };
            let key = node_key(&pos);
            for p in 1..=n {
                assert_eq!(key_slot_of(key, p), pos.slot_of(p), "{pos} piece {p}");
            }
            let sig = signature(&pos);
            if mover_complete(&pos, sig) {
                continue;
            }
            expand(&pos, sig, key, |c| {
                let Move::Walk(p) = c.mv else { return };
                if !c.inside {
                    return;
                }
                assert_eq!(inside_walk_key(n, key, p), c.key, "{pos} walk {p}");
                let want = inside_parent(&c.pos).map(|(q, bits)| (node_key(&q), bits));
                assert_eq!(inside_parent_key(n, c.key, c.pos.last()), want, "{pos} walk {p}");
                checked += 1;
            });
            let passed = pos.play_unchecked(Move::Pass);
            let want = inside_parent(&passed).map(|(q, bits)| (node_key(&q), bits));
            assert_eq!(inside_parent_key(n, node_key(&passed), Last::Pass), want);
        }
        assert!(checked > 1000, "only {checked} inside walks checked");
    }
}
