//! A position: the board, the side to move and what the previous ply was.
//!
//! This is the state of docs/rules.md. Hands are
//! implied by the board: a piece that is not on a slot is in its owner's
//! hand. Whether a side "has won" is implied by the board and the side to
//! move ([`Position::outcome`]).

use std::fmt;

use crate::side::Side;

/// The largest board; the standard game.
pub const MAX_SLOTS: u8 = 12;

/// The board sizes the engine supports.
pub const SUPPORTED_SLOTS: [u8; 5] = [4, 6, 8, 10, 12];

/// What the previous ply was, as far as it restricts the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Last {
    /// No restriction: start of the game, after a placement, or after a walk
    /// that fixed the walked piece or took piece N off the board.
    None,
    /// The previous ply was a pass: another pass ends the game (both lose).
    Pass,
    /// The previous two plies were passes: the game is over, both lose.
    /// Written `-2` in the interchange format (an extension of this project).
    DoublePass,
    /// This piece was walked on the previous ply and may not be walked now.
    /// Invariant: it is a non-fixed piece on the board whose origin slot
    /// (that many slots counter-clockwise) is empty.
    Piece(u8),
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side won alone.
    Win(Side),
    /// Both sides completed: 共赢.
    BothWin,
    /// Two consecutive passes: 同输.
    BothLose,
}

impl Outcome {
    /// The value of this end for `side` (the side to move in the ended
    /// game).
    pub fn value_for(self, side: Side) -> crate::value::Value {
        use crate::value::Value;
        match self {
            Outcome::BothWin => Value::BothWin,
            Outcome::BothLose => Value::BothLose,
            Outcome::Win(winner) if winner == side => Value::SelfWin,
            Outcome::Win(_) => Value::SelfLose,
        }
    }

    /// The JSON name: `jia-wins`, `yi-wins`, `both-win` or `both-lose`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win(Side::Jia) => "jia-wins",
            Outcome::Win(Side::Yi) => "yi-wins",
            Outcome::BothWin => "both-win",
            Outcome::BothLose => "both-lose",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(side) => write!(f, "{side} wins"),
            Outcome::BothWin => f.write_str("both win (共赢)"),
            Outcome::BothLose => f.write_str("both lose (同输)"),
        }
    }
}

/// A consistent game state.
///
/// Invariants (checked by [`Position::new`]): `n` is one of
/// [`SUPPORTED_SLOTS`]; `board[i]` (slot `i + 1`) holds 0 (empty) or a piece
/// `1..=n`, every piece at most once; slots past `n` are 0; `last` satisfies
/// the invariant stated on [`Last::Piece`].
///
/// # Examples
///
/// ```
/// use chaosclock::{PassRule, Position, Side};
///
/// let pos: Position = "2,1,4,3".parse()?;
/// assert_eq!((pos.slots(), pos.side()), (4, Side::Yi)); // 乙 opens
/// let moves = pos.legal_moves(PassRule::Always);
/// assert!(moves.iter().all(|&m| pos.play(m, PassRule::Always).is_ok()));
/// let first = *moves.iter().next().ok_or("a legal move")?;
/// let next = pos.play(first, PassRule::Always)?;
/// assert_eq!(next.to_string().parse::<Position>()?, next);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) n: u8,
    pub(crate) board: [u8; MAX_SLOTS as usize],
    pub(crate) side: Side,
    pub(crate) last: Last,
}

/// Why a board, side and last move do not form a position.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionError {
    /// The number of slots is not one of [`SUPPORTED_SLOTS`].
    UnsupportedSlots(usize),
    /// A slot holds a number outside `0..=n`.
    PieceOutOfRange {
        /// The slot (1-based).
        slot: u8,
        /// The number found there.
        piece: i64,
    },
    /// The same piece stands on two slots.
    DuplicatePiece(u8),
    /// The last-walked piece is not a piece of this board size.
    LastOutOfRange(i64),
    /// Piece N is on the board but cannot have just walked: walking it
    /// takes it off the board.
    LastIsLeavingPiece(u8),
    /// The last-walked piece could not have come from its origin slot.
    LastOriginOccupied {
        /// The last-walked piece.
        piece: u8,
        /// The slot it must have come from.
        origin: u8,
        /// The piece standing there.
        occupant: u8,
    },
    /// The last-walked piece's origin slot is its own slot: it was fixed
    /// there and could not have walked.
    LastFromOwnSlot(u8),
    /// No game reaches this state: `side` made the ply `ply` (a pass or a
    /// walk) that led here, but `side` is complete, and a complete side never
    /// gets to move (the game is over at the start of its ply).
    PlyAfterEnd {
        /// The side that made the ply.
        side: Side,
        /// `pass`, `first pass` (of a double pass) or `walk`.
        ply: &'static str,
    },
    /// A number that is not the [key](Position::key) of a position of
    /// this many slots ([`Position::from_key`]).
    NotAKey {
        /// The board size asked for.
        slots: u8,
        /// The number.
        key: u64,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::UnsupportedSlots(n) => {
                write!(f, "a board has 4, 6, 8, 10 or 12 slots, not {n}")
            }
            PositionError::PieceOutOfRange { slot, piece } => {
                write!(f, "slot {slot} holds {piece}, which is not a piece of this board")
            }
            PositionError::DuplicatePiece(p) => write!(f, "piece {p} stands on two slots"),
            PositionError::LastOutOfRange(m) => {
                write!(f, "last move {m} is not a piece of this board, 0, -1 or -2")
            }
            PositionError::LastIsLeavingPiece(p) => write!(
                f,
                "piece {p} cannot have just walked: walking piece {p} takes it off the board"
            ),
            PositionError::LastOriginOccupied { piece, origin, occupant } => write!(
                f,
                "piece {piece} cannot have just walked: its origin slot {origin} holds piece {occupant}"
            ),
            PositionError::LastFromOwnSlot(p) => write!(
                f,
                "piece {p} cannot have just walked: it would have come from slot {p}, where it was fixed"
            ),
            PositionError::PlyAfterEnd { side, ply } => write!(
                f,
                "no game reaches this position: the {ply} that led to it was {side}'s, but {side} is complete, so the game was over before it"
            ),
            PositionError::NotAKey { slots, key } => {
                write!(f, "{key:#x} is not the key of a position of {slots} slots")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// `n` if it is one of [`SUPPORTED_SLOTS`].
///
/// # Errors
/// [`PositionError::UnsupportedSlots`] otherwise.
pub(crate) fn check_slots(n: u8) -> Result<u8, PositionError> {
    if SUPPORTED_SLOTS.contains(&n) {
        Ok(n)
    } else {
        Err(PositionError::UnsupportedSlots(n.into()))
    }
}

/// The slot (1-based) that piece `piece` reaches walking from `slot` on an
/// `n`-slot board. Piece `n` comes back to `slot`.
#[inline]
pub fn walk_target(n: u8, slot: u8, piece: u8) -> u8 {
    debug_assert!((1..=n).contains(&slot) && (1..=n).contains(&piece));
    // Below 2n: one subtraction instead of a division.
    let t = slot - 1 + piece;
    if t >= n { t - n + 1 } else { t + 1 }
}

/// The slot (1-based) piece `piece` came from when it now stands on `slot`.
#[inline]
pub fn walk_origin(n: u8, slot: u8, piece: u8) -> u8 {
    debug_assert!((1..=n).contains(&slot) && (1..=n).contains(&piece));
    // slot - 1 + n - piece is below 2n: one subtraction instead of a
    // division (piece n comes back to its slot).
    let o = slot - 1 + n - piece;
    if o >= n { o - n + 1 } else { o + 1 }
}

impl Position {
    /// Validates a board (`board[i]` = piece on slot `i + 1`, 0 = empty), a
    /// side to move and a last move into a position. The board is any
    /// slice of integers: what [`Position::board`] gives (`&[u8]`), or
    /// wider numbers read from text (`&[i64]`), which are checked.
    ///
    /// A last piece that is fixed or off the board restricts nothing and
    /// becomes [`Last::None`] (docs/notation.md).
    ///
    /// # Errors
    /// Returns the first broken rule.
    pub fn new<P: Copy + Into<i64>>(
        board: &[P],
        side: Side,
        last: Last,
    ) -> Result<Position, PositionError> {
        let n = board.len();
        if !SUPPORTED_SLOTS.contains(&(n as u8)) || n > MAX_SLOTS as usize {
            return Err(PositionError::UnsupportedSlots(n));
        }
        let n = n as u8;
        let mut cells = [0u8; MAX_SLOTS as usize];
        let mut seen = 0u16;
        for (i, p) in board.iter().enumerate() {
            let p: i64 = (*p).into();
            if p < 0 || p > i64::from(n) {
                return Err(PositionError::PieceOutOfRange { slot: i as u8 + 1, piece: p });
            }
            let p = p as u8;
            if p != 0 {
                if seen & (1 << p) != 0 {
                    return Err(PositionError::DuplicatePiece(p));
                }
                seen |= 1 << p;
            }
            cells[i] = p;
        }
        let mut pos = Position { n, board: cells, side, last: Last::None };
        pos.last = match last {
            Last::Piece(m) if m == 0 || m > n => {
                return Err(PositionError::LastOutOfRange(i64::from(m)));
            }
            Last::Piece(m) => match pos.slot_of(m) {
                Some(slot) if slot != m && m == n => {
                    return Err(PositionError::LastIsLeavingPiece(m));
                }
                Some(slot) if slot != m => {
                    let origin = walk_origin(n, slot, m);
                    let occupant = pos.cell(origin);
                    if occupant != 0 {
                        return Err(PositionError::LastOriginOccupied {
                            piece: m,
                            origin,
                            occupant,
                        });
                    }
                    Last::Piece(m)
                }
                _ => Last::None,
            },
            other => other,
        };
        Ok(pos)
    }

    /// Checks what a position needs to be reachable in some game, as far as
    /// the board, the side to move and `last` tell cheaply (docs/notation.md,
    /// "Which positions are accepted"). The parsers ([`str::parse`] and [`parse_cfg`]) call it;
    /// [`Position::new`] does not, so code that enumerates states (the
    /// tables) still sees every consistent state.
    ///
    /// Each check looks one ply back (two for a double pass), and each is
    /// sound under the rules: a complete side never makes a ply (the game is
    /// over at its start), and a fixed piece never walks.
    /// - `last` = pass: the side that passed (not the side to move) is not
    ///   complete;
    /// - `last` = double pass: neither side is complete;
    /// - `last` = piece m: the side that walked (not the side to move) is not
    ///   complete (a walk that does not fix its piece fixes nothing), and
    ///   m's origin slot is not slot m.
    ///
    /// # Errors
    /// The first check that fails.
    ///
    /// [`parse_cfg`]: crate::parse_cfg
    pub fn check_reachable(&self) -> Result<(), PositionError> {
        let (mover, other) = (self.side, self.side.other());
        let after_end = |side, ply| Err(PositionError::PlyAfterEnd { side, ply });
        match self.last {
            Last::None => Ok(()),
            Last::Pass if self.is_complete(other) => after_end(other, "pass"),
            Last::Pass => Ok(()),
            Last::DoublePass if self.is_complete(other) => after_end(other, "pass"),
            Last::DoublePass if self.is_complete(mover) => after_end(mover, "first pass"),
            Last::DoublePass => Ok(()),
            Last::Piece(m) => {
                // The invariant on `Last::Piece` puts m on the board.
                let Some(slot) = self.slot_of(m) else { return Ok(()) };
                if walk_origin(self.n, slot, m) == m {
                    Err(PositionError::LastFromOwnSlot(m))
                } else if self.is_complete(other) {
                    after_end(other, "walk")
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Number of slots (and pieces).
    #[inline]
    pub fn slots(&self) -> u8 {
        self.n
    }

    /// The side to move.
    #[inline]
    pub fn side(&self) -> Side {
        self.side
    }

    /// What the previous ply was.
    #[inline]
    pub fn last(&self) -> Last {
        self.last
    }

    /// The piece on `slot` (1-based): `None` if the slot is empty or is not
    /// a slot of this board (0, or above [`Position::slots`]).
    #[inline]
    pub fn piece_at(&self, slot: u8) -> Option<u8> {
        match self.cell(slot) {
            0 => None,
            p => Some(p),
        }
    }

    /// The piece on `slot` (1-based), 0 if empty or not a slot of this
    /// board.
    #[inline]
    pub(crate) fn cell(&self, slot: u8) -> u8 {
        if slot == 0 || slot > self.n { 0 } else { self.board[slot as usize - 1] }
    }

    /// The board as pieces per slot, slot 1 first.
    #[inline]
    pub fn board(&self) -> &[u8] {
        &self.board[..self.n as usize]
    }

    /// The slot holding `piece`, if it is on the board.
    pub fn slot_of(&self, piece: u8) -> Option<u8> {
        self.board().iter().position(|&p| p == piece).map(|i| i as u8 + 1)
    }

    /// Bit mask (bit p) of the pieces on the board.
    #[inline]
    pub fn on_board_mask(&self) -> u16 {
        self.board().iter().fold(0, |m, &p| m | (1 << p)) & !1
    }

    tooling_pub! {
        /// Bit mask (bit p) of the fixed pieces (piece p on slot p).
        /// Internal: the raw mask is no part of the API.
        #[inline]
        fn fixed_mask(&self) -> u16 {
            let mut m = 0;
            for (i, &p) in self.board().iter().enumerate() {
                if p as usize == i + 1 {
                    m |= 1 << p;
                }
            }
            m
        }
    }

    /// Bit mask (bit p) of the pieces in `side`'s hand.
    #[inline]
    pub fn hand_mask(&self, side: Side) -> u16 {
        side.pieces_mask(self.n) & !self.on_board_mask()
    }

    /// Whether piece `p` stands on slot `p`: false for a number that is not
    /// a piece of this board (0, or above [`Position::slots`]), which
    /// stands nowhere.
    #[inline]
    pub fn is_fixed(&self, p: u8) -> bool {
        p != 0 && self.cell(p) == p
    }

    /// Whether all of `side`'s pieces are fixed.
    #[inline]
    pub fn is_complete(&self, side: Side) -> bool {
        let mine = side.pieces_mask(self.n);
        self.fixed_mask() & mine == mine
    }

    /// How the game has ended, if it has (docs/rules.md, "The end of the game").
    pub fn outcome(&self) -> Option<Outcome> {
        if self.last == Last::DoublePass {
            return Some(Outcome::BothLose);
        }
        let fixed = self.fixed_mask();
        let mover = self.side.pieces_mask(self.n);
        if fixed & mover != mover {
            return None;
        }
        let other = self.side.other().pieces_mask(self.n);
        Some(if fixed & other == other { Outcome::BothWin } else { Outcome::Win(self.side) })
    }

    /// The piece that may not be walked now, if any.
    #[inline]
    pub fn banned(&self) -> Option<u8> {
        match self.last {
            Last::Piece(m) => Some(m),
            _ => None,
        }
    }

    /// Whether this is an opening: every piece on the board, none fixed,
    /// 乙 to move, no previous ply.
    pub fn is_opening(&self) -> bool {
        let all = Side::Jia.pieces_mask(self.n) | Side::Yi.pieces_mask(self.n);
        self.on_board_mask() == all
            && self.fixed_mask() == 0
            && self.side == Side::Yi
            && self.last == Last::None
    }

    /// A 64-bit key that identifies the position among those of its size:
    /// 4 bits per slot, the side at bit 48, `last` at bits 49..53.
    #[inline]
    pub fn key(&self) -> u64 {
        let mut k = 0u64;
        for (i, &p) in self.board().iter().enumerate() {
            k |= u64::from(p) << (4 * i);
        }
        let last = match self.last {
            Last::None => 0,
            Last::Piece(m) => u64::from(m),
            Last::Pass => 13,
            Last::DoublePass => 14,
        };
        k | (self.side.index() as u64) << 48 | last << 49
    }

    /// The inverse of [`Position::key`] for an `n`-slot board.
    ///
    /// # Errors
    /// [`PositionError::NotAKey`] for a number that is not the key of a
    /// position of `n` slots, or the broken rule of [`Position::new`].
    pub fn from_key(n: u8, k: u64) -> Result<Position, PositionError> {
        check_slots(n)?;
        let raw = Position::from_key_unchecked(n, k);
        let pos = Position::new(raw.board(), raw.side, raw.last)?;
        if pos.key() != k {
            return Err(PositionError::NotAKey { slots: n, key: k });
        }
        Ok(pos)
    }

    /// [`Position::from_key`] for a key known to come from
    /// [`Position::key`] of a position with `n` slots.
    #[inline]
    pub(crate) fn from_key_unchecked(n: u8, k: u64) -> Position {
        let mut board = [0u8; MAX_SLOTS as usize];
        for (i, cell) in board.iter_mut().enumerate().take(n as usize) {
            *cell = (k >> (4 * i) & 15) as u8;
        }
        let side = if k >> 48 & 1 == 0 { Side::Jia } else { Side::Yi };
        let last = match (k >> 49) & 15 {
            0 => Last::None,
            13 => Last::Pass,
            14 => Last::DoublePass,
            m => Last::Piece(m as u8),
        };
        Position { n, board, side, last }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(board: &[i64], side: Side, last: Last) -> Result<Position, PositionError> {
        Position::new(board, side, last)
    }

    #[test]
    fn rejects_broken_boards() {
        assert_eq!(pos(&[1, 2, 3], Side::Yi, Last::None), Err(PositionError::UnsupportedSlots(3)));
        assert_eq!(
            pos(&[1, 2, 3, 5], Side::Yi, Last::None),
            Err(PositionError::PieceOutOfRange { slot: 4, piece: 5 })
        );
        assert_eq!(pos(&[2, 2, 0, 0], Side::Yi, Last::None), Err(PositionError::DuplicatePiece(2)));
        // Piece 3 on slot 2 came from slot 3, which holds piece 4.
        assert_eq!(
            pos(&[0, 3, 4, 0], Side::Yi, Last::Piece(3)),
            Err(PositionError::LastOriginOccupied { piece: 3, origin: 3, occupant: 4 })
        );
    }

    #[test]
    fn last_reads_as_none_when_fixed_or_off_board() {
        let p = pos(&[0, 2, 0, 0], Side::Jia, Last::Piece(2)).unwrap();
        assert_eq!(p.last(), Last::None);
        let p = pos(&[0, 0, 0, 0], Side::Jia, Last::Piece(3)).unwrap();
        assert_eq!(p.last(), Last::None);
    }

    #[test]
    fn walk_geometry() {
        assert_eq!(walk_target(12, 11, 3), 2);
        assert_eq!(walk_origin(12, 2, 3), 11);
        assert_eq!(walk_target(12, 5, 12), 5);
        for n in SUPPORTED_SLOTS {
            for s in 1..=n {
                for p in 1..=n {
                    assert_eq!(walk_origin(n, walk_target(n, s, p), p), s);
                }
            }
        }
    }

    #[test]
    fn key_round_trips() {
        let p = pos(&[4, 3, 7, 11, 5, 10, 12, 0, 0, 2, 0, 0], Side::Jia, Last::Piece(7)).unwrap();
        assert_eq!(Position::from_key(12, p.key()), Ok(p));
        assert_eq!(Position::from_key_unchecked(12, p.key()), p);
        // Keys of nothing, or of another size: errors.
        assert!(Position::from_key(12, u64::MAX).is_err());
        assert!(Position::from_key(8, p.key()).is_err());
        assert!(Position::from_key(7, 0).is_err());
    }

    #[test]
    fn outcomes() {
        // 甲 (1, 3) complete, 乙 not: 甲 to move wins, 乙 to move plays on.
        let p = pos(&[1, 0, 3, 0], Side::Jia, Last::None).unwrap();
        assert_eq!(p.outcome(), Some(Outcome::Win(Side::Jia)));
        let p = pos(&[1, 0, 3, 0], Side::Yi, Last::None).unwrap();
        assert_eq!(p.outcome(), None);
        let p = pos(&[1, 2, 3, 4], Side::Yi, Last::None).unwrap();
        assert_eq!(p.outcome(), Some(Outcome::BothWin));
        let p = pos(&[0, 0, 0, 0], Side::Yi, Last::DoublePass).unwrap();
        assert_eq!(p.outcome(), Some(Outcome::BothLose));
    }

    #[test]
    fn unreachable_states() {
        let check = |b: &[i64], side, last| pos(b, side, last).unwrap().check_reachable();
        // Everything fixed: nobody passed or walked into it.
        let after_end = |side, ply| Err(PositionError::PlyAfterEnd { side, ply });
        assert_eq!(check(&[1, 2, 3, 4], Side::Yi, Last::DoublePass), after_end(Side::Jia, "pass"));
        assert_eq!(check(&[1, 2, 3, 4], Side::Jia, Last::Pass), after_end(Side::Yi, "pass"));
        // 甲 complete: 甲 may not have passed, 乙 may.
        assert_eq!(check(&[1, 0, 3, 0], Side::Yi, Last::Pass), after_end(Side::Jia, "pass"));
        assert_eq!(check(&[1, 0, 3, 0], Side::Jia, Last::Pass), Ok(()));
        assert_eq!(
            check(&[1, 0, 3, 0], Side::Jia, Last::DoublePass),
            after_end(Side::Jia, "first pass")
        );
        assert_eq!(check(&[2, 1, 4, 3], Side::Yi, Last::DoublePass), Ok(()));
        // Piece 1 on slot 2 came from slot 1, where it was fixed.
        assert_eq!(
            check(&[0, 1, 0, 0], Side::Yi, Last::Piece(1)),
            Err(PositionError::LastFromOwnSlot(1))
        );
        assert_eq!(check(&[0, 0, 1, 0], Side::Yi, Last::Piece(1)), Ok(()));
        // Piece 2 on slot 6 came from slot 4: 甲 cannot have walked it while
        // complete, 乙 can.
        let board = [1, 0, 3, 0, 5, 2];
        assert_eq!(check(&board, Side::Yi, Last::Piece(2)), after_end(Side::Jia, "walk"));
        assert_eq!(check(&board, Side::Jia, Last::Piece(2)), Ok(()));
    }
}
