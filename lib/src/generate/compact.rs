//! What a sub-table keeps per node and per board while it is solved, as
//! small as the table kind allows: the largest 12-slot sub-table has 3.8e8
//! nodes, so each byte a node costs 0.38 GB.

use rayon::prelude::*;

use crate::index::SigIndex;
use crate::position::MAX_SLOTS;
use crate::score::Score;
use crate::solve::NodeMoves;
use crate::summary::Summary;
use crate::value::Value;

/// The moves of a board's two nodes (甲's, then 乙's) as a sub-table
/// keeps them: [`DepthMoves`] (12 bytes a board, where two [`NodeMoves`]
/// take 48) for tables with depths, [`ValueMoves`] (6 bytes a node) for
/// tables of values only.
pub(super) trait Moves: Copy + Send + Sync {
    /// Keeps what this kind needs of the moves of a board's 甲 and 乙
    /// nodes.
    fn keep(nodes: [&NodeMoves; 2]) -> Self;

    /// The moves of the node whose side to move is `side` (0 甲, 1 乙)
    /// back, with the depths this kind keeps, given what every board of
    /// the sub-table shares.
    fn get(&self, side: usize, facts: &Facts) -> NodeMoves;
}

/// What every board of a sub-table shares, per side to move (0 甲, 1 乙):
/// whether the game is over (the mover is complete) and, if not, whether
/// the mover may place (a piece in hand: neither fixed nor on the board).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Facts {
    pub(super) ended: [bool; 2],
    pub(super) places: [bool; 2],
}

impl Facts {
    /// The facts of the sub-table of `fixed` pieces and `loose` pieces on
    /// the board, `n` slots.
    pub(super) fn new(n: u8, fixed: u16, loose: u16) -> Facts {
        let sides = [crate::side::Side::Jia, crate::side::Side::Yi];
        Facts {
            ended: sides.map(|side| fixed & side.pieces_mask(n) == side.pieces_mask(n)),
            places: sides.map(|side| side.pieces_mask(n) & !(fixed | loose) != 0),
        }
    }
}

impl Moves for [NodeMoves; 2] {
    fn keep(nodes: [&NodeMoves; 2]) -> Self {
        nodes.map(|m| *m)
    }

    #[inline]
    fn get(&self, side: usize, _: &Facts) -> NodeMoves {
        self[side]
    }
}

/// Two [`NodeMoves`] in 12 bytes, depths kept, for tables with depths.
///
/// The walks (bit p for piece p) and the walks that stay inside are the
/// same for both nodes of a board (a walk's child board does not depend on
/// who walks) and go in `moves` once, bits 1..=12 as bits 0..12 and
/// 12..24, then the piece of each node's only best exit walk (4 bits each,
/// 甲's from bit 24, 乙's from bit 28). `scores` holds each node's best
/// and second exits as packed scores ([`Score::pack`]; [`NO_SCORE`] for
/// none), or a finished game's score as its best. Whether a node's game
/// is over and whether its mover may place are the sub-table's
/// [`Facts`].
///
/// A depth of 2^13 or more is kept as 2^13 - 1, as [`Score::pack`] does;
/// the cores refuse depths far below that (`crate::solve::levels`).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct DepthMoves {
    moves: u32,
    scores: [u16; 4],
}

/// A packed score that is none (value code 7).
const NO_SCORE: u16 = u16::MAX;

/// Where the fields of [`DepthMoves::moves`] start: walks at bit 0 (bit
/// p - 1 for piece p), then these.
const INSIDE: u32 = 12;
const BEST_WALK: u32 = 24;

/// The walks of pieces 1 to 12 (bits 1..=12).
const PIECES: u16 = 0x1ffe;

fn pack(s: Option<Score>) -> u16 {
    s.map_or(NO_SCORE, |s| Score { depth: s.depth.min((1 << 13) - 1), ..s }.pack())
}

impl Moves for DepthMoves {
    fn keep(nodes: [&NodeMoves; 2]) -> Self {
        let going = nodes.iter().find(|m| m.terminal.is_none());
        let (walks, inside) = going.map_or((0, 0), |m| (m.walks, m.inside));
        debug_assert!(walks & !PIECES == 0 && inside & !PIECES == 0, "pieces 1 to 12");
        let mut moves = u32::from(walks >> 1) | u32::from(inside >> 1) << INSIDE;
        let mut scores = [NO_SCORE; 4];
        for (side, m) in nodes.iter().enumerate() {
            if let Some(t) = m.terminal {
                scores[2 * side] = pack(Some(t));
                continue;
            }
            let e = &m.exits;
            debug_assert!(e.pass.is_none() && !e.terminal && e.best_walk < 16);
            debug_assert_eq!((m.walks, m.inside), (walks, inside), "a board's walks");
            moves |= u32::from(e.best_walk) << (BEST_WALK + 4 * side as u32);
            scores[2 * side] = pack(e.best);
            scores[2 * side + 1] = pack(e.second);
        }
        DepthMoves { moves, scores }
    }

    #[inline]
    fn get(&self, side: usize, facts: &Facts) -> NodeMoves {
        let best = Score::unpack(self.scores[2 * side]);
        if facts.ended[side] {
            return NodeMoves { terminal: best, ..Default::default() };
        }
        let moves = self.moves;
        let mask = (1 << INSIDE) - 1;
        NodeMoves {
            terminal: None,
            walks: ((moves & mask) << 1) as u16,
            inside: ((moves >> INSIDE & mask) << 1) as u16,
            places: facts.places[side],
            exits: Summary {
                best,
                best_walk: (moves >> (BEST_WALK + 4 * side as u32) & 15) as u8,
                second: Score::unpack(self.scores[2 * side + 1]),
                ..Summary::default()
            },
        }
    }
}

/// A board's two [`NodeMoves`] with depths in one word a node, for tables
/// with depths whose exits are scored by streaming the sub-tables they
/// lead to (`generate::stream`): each word can take an exit's score in one
/// atomic compare-and-swap while both threads offer scores in any order.
///
/// A node's word holds its best exit's packed score ([`Score::pack`],
/// [`NO_SCORE`] for none, or a finished game's score) in bits 0..16, the
/// second in 16..32, the piece of the best exit walk in 32..36 (0 for a
/// placement), its walks (bits 1..=12 as 0..12) in 36..48 and the walks
/// that stay inside in 48..60. 16 bytes a board where [`DepthMoves`]
/// takes 12.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct WordMoves(pub(super) [u64; 2]);

/// Where the fields of a [`WordMoves`] word start.
const SECOND: u32 = 16;
const WALK: u32 = 32;
const WALKS: u32 = 36;
const INSIDE_WALKS: u32 = 48;

/// The word of a node with these moves and no exit scored yet (a
/// finished game's score as its best).
pub(super) fn unscored_word(m: &NodeMoves) -> u64 {
    let walks = u64::from(m.walks >> 1) << WALKS | u64::from(m.inside >> 1) << INSIDE_WALKS;
    walks | u64::from(NO_SCORE) << SECOND | u64::from(pack(m.terminal))
}

/// The word `word` of a node after an exit worth `score` (the node's
/// mover's view) by a walk of `piece` (0: a placement), merged as
/// [`Summary::offer`] merges the exits in the order `expand` lists them:
/// of equal best exits the first in that order gives the best walk (walks
/// by the slot they start from, `slot_of`, then placements). The result
/// does not depend on the order of the offers.
pub(super) fn offered(word: u64, score: Score, piece: u8, slot_of: impl Fn(u8) -> u8) -> u64 {
    let best = Score::unpack(word as u16);
    let second = Score::unpack((word >> SECOND) as u16);
    let walk = (word >> WALK & 15) as u8;
    let (best, second, walk) = match best {
        Some(b) if score > b => (score, Some(b), piece),
        Some(b) if score == b => {
            let earlier = piece != 0 && (walk == 0 || slot_of(piece) < slot_of(walk));
            (b, Some(score), if earlier { piece } else { walk })
        }
        Some(b) => (b, second.max(Some(score)), walk),
        None => (score, second, piece),
    };
    let kept = word & !((1 << WALKS) - 1);
    kept | u64::from(walk) << WALK | u64::from(pack(second)) << SECOND | u64::from(pack(Some(best)))
}

impl Moves for WordMoves {
    fn keep(nodes: [&NodeMoves; 2]) -> Self {
        WordMoves(nodes.map(|m| {
            let mut word = unscored_word(m);
            if m.terminal.is_none() {
                word &= !((1 << WALKS) - 1);
                word |= u64::from(m.exits.best_walk) << WALK
                    | u64::from(pack(m.exits.second)) << SECOND
                    | u64::from(pack(m.exits.best));
            }
            word
        }))
    }

    #[inline]
    fn get(&self, side: usize, facts: &Facts) -> NodeMoves {
        let word = self.0[side];
        let best = Score::unpack(word as u16);
        if facts.ended[side] {
            return NodeMoves { terminal: best, ..Default::default() };
        }
        let mask = (1 << 12) - 1;
        NodeMoves {
            terminal: None,
            walks: ((word >> WALKS & mask) << 1) as u16,
            inside: ((word >> INSIDE_WALKS & mask) << 1) as u16,
            places: facts.places[side],
            exits: Summary {
                best,
                best_walk: (word >> WALK & 15) as u8,
                second: Score::unpack((word >> SECOND) as u16),
                ..Summary::default()
            },
        }
    }
}

/// [`NodeMoves`] without depths, for the values-only core: the walks, the
/// inside walks, and in `info` the values of the best and second exits
/// (code + 1 in bits 0..3 and 3..6, 0 for none), the piece of the only
/// best exit walk (bits 6..10), whether the mover may place (bit 10) and
/// whether the game is over (bit 11; then bits 0..3 hold its value).
///
/// [`ValueMoves::get`] gives exits a depth of 1 (0 for no-result), as
/// they have when the tables they come from are values-only; the
/// values-only core ignores depths anyway.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ValueMoves {
    walks: u16,
    inside: u16,
    info: u16,
}

const PLACES: u16 = 1 << 10;
const TERMINAL: u16 = 1 << 11;

/// A value code + 1, or 0 for none.
fn value_bits(s: Option<Score>) -> u16 {
    s.map_or(0, |s| u16::from(s.value.code()) + 1)
}

/// The inverse of [`value_bits`] on `bits & 7`, with the depth an exit
/// from a values-only table has.
fn exit_score(bits: u16) -> Option<Score> {
    let value = Value::from_code((bits & 7).checked_sub(1)? as u8).expect("a value code");
    Some(Score { value, depth: u16::from(value != Value::NoResult) })
}

impl Moves for [ValueMoves; 2] {
    fn keep(nodes: [&NodeMoves; 2]) -> Self {
        nodes.map(ValueMoves::keep)
    }

    #[inline]
    fn get(&self, side: usize, _: &Facts) -> NodeMoves {
        self[side].get()
    }
}

impl ValueMoves {
    fn keep(m: &NodeMoves) -> Self {
        if let Some(t) = m.terminal {
            return ValueMoves { info: TERMINAL | value_bits(Some(t)), ..Default::default() };
        }
        let e = &m.exits;
        debug_assert!(e.pass.is_none() && !e.terminal && e.best_walk < 16);
        let info = value_bits(e.best)
            | value_bits(e.second) << 3
            | u16::from(e.best_walk) << 6
            | if m.places { PLACES } else { 0 };
        ValueMoves { walks: m.walks, inside: m.inside, info }
    }

    #[inline]
    fn get(self) -> NodeMoves {
        let info = self.info;
        if info & TERMINAL != 0 {
            let value = exit_score(info).expect("an ended game has a value").value;
            return NodeMoves { terminal: Some(Score::terminal(value)), ..Default::default() };
        }
        NodeMoves {
            terminal: None,
            walks: self.walks,
            inside: self.inside,
            places: info & PLACES != 0,
            exits: Summary {
                best: exit_score(info),
                best_walk: (info >> 6 & 15) as u8,
                second: exit_score(info >> 3),
                ..Summary::default()
            },
        }
    }
}

/// Every board of a sub-table, by rank, 4 bits a slot (6 bytes a board
/// instead of 12).
pub(super) struct Boards(Vec<[u8; MAX_SLOTS as usize / 2]>);

impl Boards {
    /// Every board of `index`, in parallel: each worker walks a run of
    /// ranks in order ([`SigIndex::walk`], a step instead of an unranking
    /// a board).
    pub(super) fn new(index: &SigIndex) -> Boards {
        let pack = |board: [u8; MAX_SLOTS as usize]| {
            let mut packed = [0u8; MAX_SLOTS as usize / 2];
            for (i, pair) in board.chunks(2).enumerate() {
                packed[i] = pair[0] | pair[1] << 4;
            }
            packed
        };
        const RUN: u64 = 1 << 12;
        Boards(
            (0..index.boards().div_ceil(RUN))
                .into_par_iter()
                .flat_map_iter(|k| index.walk(k * RUN..(k + 1) * RUN).map(|(_, b)| pack(b)))
                .collect(),
        )
    }

    /// The number of boards.
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    /// The board of rank `rank` as nibbles: slot s in bits 4(s-1)..4s,
    /// a node key without its side bit ([`crate::solve::node_key`]).
    #[inline]
    pub(super) fn nibbles(&self, rank: usize) -> u64 {
        // Two loads straight from the packed bytes (a copy into an 8-byte
        // buffer would stall the load that follows it).
        let b = &self.0[rank];
        let low = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let high = u16::from_le_bytes([b[4], b[5]]);
        u64::from(low) | u64::from(high) << 32
    }

    /// The board of rank `rank`.
    #[inline]
    pub(super) fn get(&self, rank: usize) -> [u8; MAX_SLOTS as usize] {
        let mut board = [0u8; MAX_SLOTS as usize];
        for (i, &pair) in self.0[rank].iter().enumerate() {
            board[2 * i] = pair & 15;
            board[2 * i + 1] = pair >> 4;
        }
        board
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Last, Position};
    use crate::side::Side;
    use crate::signature::signature;
    use crate::solve::{mover_complete, node_key};

    /// Random boards of every size, the exits of their two nodes scored by
    /// `exit`: the moves of both nodes kept as `M` come back as they were.
    fn round_trips<M: Moves>(seed: u64, mut exit: impl FnMut(&mut crate::random::Rng) -> Score) {
        let mut rng = crate::random::Rng::new(seed);
        let mut kinds = [0usize; 3];
        for _ in 0..3000 {
            let n = [4u8, 6, 8, 10, 12][rng.below(5) as usize];
            let fixed = crate::table::format::free_pieces(n, 0) & rng.below(1 << 13) as u16;
            let pos = crate::random::random_position(&mut rng, n, fixed);
            let sig = signature(&pos);
            let facts = Facts::new(n, sig.fixed(), sig.loose());
            let mut nodes = [NodeMoves::default(); 2];
            for (side, m) in [Side::Jia, Side::Yi].into_iter().zip(&mut nodes) {
                let mut node = pos;
                (node.side, node.last) = (side, Last::None);
                *m = NodeMoves::new(&node, sig, node_key(&node), 0, |_, out| {
                    for o in out.iter_mut() {
                        *o = exit(&mut rng);
                    }
                });
            }
            let kept = M::keep([&nodes[0], &nodes[1]]);
            for (side, m) in nodes.iter().enumerate() {
                let back = kept.get(side, &facts);
                assert_eq!(back.terminal, m.terminal, "{pos} side {side}");
                assert_eq!((back.walks, back.inside, back.places), (m.walks, m.inside, m.places));
                assert_eq!(back.exits, m.exits, "{pos} side {side}");
                let mut pos = pos;
                pos.side = [Side::Jia, Side::Yi][side];
                let only_best_walk = m.exits.best_walk != 0 && m.exits.best != m.exits.second;
                kinds[if mover_complete(&pos, sig) {
                    0
                } else {
                    1 + usize::from(only_best_walk)
                }] += 1;
            }
        }
        assert!(
            kinds.iter().all(|&k| k > 50),
            "ended, going on, with an only best walk: {kinds:?}"
        );
    }

    /// A node's moves without depths come back with every value, walk and
    /// flag they had, given exits without depths (as a values-only table
    /// gives them).
    #[test]
    fn value_moves_keep_everything_but_depths() {
        round_trips::<[ValueMoves; 2]>(5, |rng| Score::terminal(Value::ALL[rng.below(5) as usize]));
    }

    /// A random exit with a depth.
    fn exit_with_depth(rng: &mut crate::random::Rng) -> Score {
        let value = Value::ALL[rng.below(5) as usize];
        let depth = if value == Value::NoResult { 0 } else { rng.below(300) as u16 };
        Score { value, depth }
    }

    /// A board's moves with depths come back as they were, in 12 bytes.
    #[test]
    fn depth_moves_keep_everything() {
        assert_eq!(std::mem::size_of::<DepthMoves>(), 12);
        round_trips::<DepthMoves>(6, exit_with_depth);
    }

    /// A board's moves in a word a node come back as they were, in 16
    /// bytes.
    #[test]
    fn word_moves_keep_everything() {
        assert_eq!(std::mem::size_of::<WordMoves>(), 16);
        round_trips::<WordMoves>(7, exit_with_depth);
    }

    /// Exits offered to a word in any order give the summary they give
    /// offered in the order `expand` lists them.
    #[test]
    fn offers_in_any_order_make_the_summary() {
        let mut rng = crate::random::Rng::new(8);
        for _ in 0..20_000 {
            // Exits: (slot, piece) for walks in slot order, then placements.
            let k = 1 + rng.below(8) as usize;
            let mut exits: Vec<(u8, u8, Score)> = (0..k)
                .map(|i| {
                    let value = Value::ALL[rng.below(3) as usize];
                    let depth = if value == Value::NoResult { 0 } else { rng.below(4) as u16 };
                    let placement = rng.below(3) == 0;
                    let (slot, piece) =
                        if placement { (0, 0) } else { (i as u8 + 1, 12 - i as u8) };
                    (slot, piece, Score { value, depth })
                })
                .collect();
            exits.sort_by_key(|&(slot, _, _)| if slot == 0 { 99 } else { slot });
            let mut want = Summary::default();
            for &(_, piece, score) in &exits {
                want.offer(score, piece);
            }
            for i in (1..exits.len()).rev() {
                exits.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let slot_of = |p: u8| exits.iter().find(|e| e.1 == p).expect("a walk").0;
            let m = NodeMoves { walks: 0b110, inside: 0b10, ..NodeMoves::default() };
            let mut word = unscored_word(&m);
            for &(_, piece, score) in &exits {
                word = offered(word, score, piece, slot_of);
            }
            let facts = Facts { ended: [false; 2], places: [true; 2] };
            let got = WordMoves([word, word]).get(0, &facts);
            assert_eq!(got.exits, want, "{exits:?}");
            assert_eq!((got.walks, got.inside), (0b110, 0b10));
        }
    }

    /// Packed boards unpack to the boards.
    #[test]
    fn boards_round_trip() {
        for (n, fixed, loose) in [(8u8, 0u16, 0b1_1010_1010u16), (12, 0b10, 0b1_1111_1000_0000)] {
            let index = SigIndex::new(n, fixed, loose);
            let boards = Boards::new(&index);
            assert_eq!(boards.len() as u64, index.boards());
            for r in (0..index.boards()).step_by(97) {
                let board = index.unrank(r);
                assert_eq!(boards.get(r as usize), board);
                let pos = Position { n, board, side: crate::side::Side::Jia, last: Last::None };
                assert_eq!(boards.nibbles(r as usize), node_key(&pos) >> 1);
            }
        }
    }
}
