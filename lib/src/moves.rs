//! Moves: walk, place and pass (docs/rules.md, "A ply"), their generation and
//! their effect.
//!
//! Generation allocates nothing: moves go into a fixed-size [`MoveList`].

use std::fmt;
use std::str::FromStr;

use crate::escape::escape_control;
use crate::position::{Last, MAX_SLOTS, Position, walk_target};
use crate::side::Side;

/// When a side may pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PassRule {
    /// At any time (docs/rules.md).
    #[default]
    Always,
    /// Only when no walk or placement is legal (the original solver's rule).
    WhenStuck,
}

impl PassRule {
    /// Every pass rule.
    pub const ALL: [PassRule; 2] = [PassRule::Always, PassRule::WhenStuck];

    /// The name, the one place it is spelled (the command line's
    /// `--pass-rule`, JSON, the server's `rule=`, table directories):
    /// `always` or `when-stuck`.
    pub fn name(self) -> &'static str {
        match self {
            PassRule::Always => "always",
            PassRule::WhenStuck => "when-stuck",
        }
    }

    /// What the rule says, for help texts.
    pub fn meaning(self) -> &'static str {
        match self {
            PassRule::Always => "a side may pass at any time",
            PassRule::WhenStuck => "a side may pass only when it has no other legal move",
        }
    }
}

/// A name that is not a pass rule's ([`PassRule::name`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParsePassRuleError(pub String);

impl fmt::Display for ParsePassRuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = PassRule::ALL.iter().map(|r| r.name()).collect();
        write!(
            f,
            "invalid pass rule '{}': expected {}",
            escape_control(&self.0),
            names.join(" or ")
        )
    }
}

impl std::error::Error for ParsePassRuleError {}

/// Reads a pass rule by its name.
impl FromStr for PassRule {
    type Err = ParsePassRuleError;

    fn from_str(s: &str) -> Result<PassRule, ParsePassRuleError> {
        PassRule::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| ParsePassRuleError(s.to_string()))
    }
}

/// One ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Walk the piece on the board its own number of slots clockwise.
    Walk(u8),
    /// Put the piece from the mover's hand on its own slot.
    Place(u8),
    /// Give up the ply.
    Pass,
}

impl Move {
    /// The JSON kind: `walk`, `place` or `pass`.
    pub fn kind(self) -> &'static str {
        match self {
            Move::Walk(_) => "walk",
            Move::Place(_) => "place",
            Move::Pass => "pass",
        }
    }
}

impl fmt::Display for Move {
    /// The notation: the piece number, or `pass`. The alternate form
    /// (`{:#}`) names the kind too, `walk 3`, `place 4` or `pass`, which
    /// [`Move`]'s `FromStr` reads back without a position.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Walk(p) | Move::Place(p) if f.alternate() => write!(f, "{} {p}", self.kind()),
            Move::Walk(p) | Move::Place(p) => write!(f, "{p}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Reads a move with its kind: `walk 3`, `place 4` or `pass` (what
/// `format!("{m:#}")` writes). A bare piece number is a walk or a
/// placement depending on the position: read it with
/// [`Position::read_move`].
///
/// ```
/// use chaosclock::{Move, PassRule, Position};
///
/// let m = Move::Walk(3);
/// assert_eq!(format!("{m:#}").parse::<Move>()?, m);
/// assert!("3".parse::<Move>().is_err());
/// let pos: Position = "2,1,4,3".parse()?;
/// assert_eq!(pos.read_move("3", PassRule::Always)?, m);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        let (kind, piece) = t.split_once(' ').ok_or_else(|| ParseMoveError(s.to_string()))?;
        let piece = match piece.trim().parse::<u8>() {
            Ok(p) if p >= 1 => p,
            _ => return Err(ParseMoveError(s.to_string())),
        };
        match kind {
            "walk" => Ok(Move::Walk(piece)),
            "place" => Ok(Move::Place(piece)),
            _ => Err(ParseMoveError(s.to_string())),
        }
    }
}

/// Why a written move cannot be played in a position
/// ([`Position::read_move`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveError {
    /// The text is neither a piece number nor `pass`.
    Text(ParseMoveError),
    /// The move is not legal in the position.
    Illegal(IllegalMove),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Text(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MoveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MoveError::Text(e) => Some(e),
            MoveError::Illegal(e) => Some(e),
        }
    }
}

/// A move as written: a piece number or `pass`. Whether a number is a walk
/// or a placement depends on the position ([`Position::parse_move`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveText {
    /// A piece number.
    Piece(u8),
    /// `pass`.
    Pass,
}

/// A move that is neither a piece number nor `pass`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseMoveError(pub String);

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a move (a piece number or 'pass')", escape_control(&self.0))
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for MoveText {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<MoveText, ParseMoveError> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(MoveText::Pass);
        }
        match t.parse::<u8>() {
            Ok(p) if p >= 1 => Ok(MoveText::Piece(p)),
            _ => Err(ParseMoveError(s.to_string())),
        }
    }
}

/// Why a move cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum IllegalMove {
    /// The game is already over.
    GameOver,
    /// No such piece on this board size.
    NoSuchPiece(u8),
    /// The piece is fixed and never moves again.
    Fixed(u8),
    /// The piece was walked on the previous ply.
    Banned(u8),
    /// The walk would land on a fixed piece.
    BlockedByFixed {
        /// The walked piece.
        piece: u8,
        /// The target slot, holding its fixed piece.
        slot: u8,
    },
    /// The piece is in the opponent's hand: only the owner places it.
    NotInHand(u8),
    /// A pass while other moves exist, under [`PassRule::WhenStuck`].
    PassNotAllowed,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => f.write_str("the game is over"),
            IllegalMove::NoSuchPiece(p) => write!(f, "there is no piece {p} on this board"),
            IllegalMove::Fixed(p) => {
                write!(f, "piece {p} is fixed on its own slot and never moves")
            }
            IllegalMove::Banned(p) => {
                write!(f, "piece {p} was walked on the previous ply and may not be walked now")
            }
            IllegalMove::BlockedByFixed { piece, slot } => {
                write!(f, "piece {piece} would land on slot {slot}, which holds a fixed piece")
            }
            IllegalMove::NotInHand(p) => {
                write!(f, "piece {p} is in the opponent's hand: only its owner may place it")
            }
            IllegalMove::PassNotAllowed => f.write_str(
                "passing is allowed only when no other move is legal (--pass-rule when-stuck)",
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Capacity of a [`MoveList`]: every walk, every placement and a pass.
const MAX_MOVES: usize = MAX_SLOTS as usize + MAX_SLOTS as usize / 2 + 1;

/// The legal moves of a position, in a fixed-size buffer.
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: u8,
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl MoveList {
    fn new() -> MoveList {
        MoveList { moves: [Move::Pass; MAX_MOVES], len: 0 }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        self.moves[self.len as usize] = m;
        self.len += 1;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    /// Iterates over the moves.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are no moves (the game is over).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.iter().any(|&x| x == m)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Position {
    /// Every legal move: walks by slot order, then placements by piece,
    /// then the pass. Empty when the game is over.
    pub fn legal_moves(&self, rule: PassRule) -> MoveList {
        let mut list = MoveList::new();
        if self.outcome().is_some() {
            return list;
        }
        let n = self.n;
        let banned = self.banned().unwrap_or(0);
        for s in 1..=n {
            let p = self.board[s as usize - 1];
            if p == 0 || p == s || p == banned {
                continue;
            }
            let t = walk_target(n, s, p);
            let q = self.board[t as usize - 1];
            if p != n && q == t {
                continue; // lands on a fixed piece
            }
            list.push(Move::Walk(p));
        }
        let mut hand = self.hand_mask(self.side);
        while hand != 0 {
            let p = hand.trailing_zeros() as u8;
            hand &= hand - 1;
            list.push(Move::Place(p));
        }
        if rule == PassRule::Always || list.is_empty() {
            list.push(Move::Pass);
        }
        list
    }

    /// Reads a written move (a piece number or `pass`) in this position:
    /// a piece on the board walks, a piece in the mover's hand is placed.
    ///
    /// # Errors
    /// The move is not legal here (the reason names the broken rule).
    pub fn parse_move(&self, text: MoveText, rule: PassRule) -> Result<Move, IllegalMove> {
        let m = match text {
            MoveText::Pass => Move::Pass,
            MoveText::Piece(p) if p > self.n => return Err(IllegalMove::NoSuchPiece(p)),
            MoveText::Piece(p) => {
                if self.slot_of(p).is_some() {
                    Move::Walk(p)
                } else {
                    Move::Place(p)
                }
            }
        };
        self.check_move(m, rule)?;
        Ok(m)
    }

    /// Reads a written move (a piece number or `pass`, as [`MoveText`]
    /// reads it) and checks it here, with one error type.
    ///
    /// # Errors
    /// [`MoveError::Text`]: not a move; [`MoveError::Illegal`]: not legal
    /// here.
    pub fn read_move(&self, text: &str, rule: PassRule) -> Result<Move, MoveError> {
        let written: MoveText = text.parse().map_err(MoveError::Text)?;
        self.parse_move(written, rule).map_err(MoveError::Illegal)
    }

    /// Checks that `m` is legal here.
    ///
    /// # Errors
    /// Names the rule the move breaks.
    pub fn check_move(&self, m: Move, rule: PassRule) -> Result<(), IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        match m {
            Move::Walk(p) | Move::Place(p) if p == 0 || p > self.n => {
                Err(IllegalMove::NoSuchPiece(p))
            }
            Move::Walk(p) => {
                let Some(s) = self.slot_of(p) else {
                    return Err(IllegalMove::NotInHand(p));
                };
                if s == p {
                    return Err(IllegalMove::Fixed(p));
                }
                if self.banned() == Some(p) {
                    return Err(IllegalMove::Banned(p));
                }
                let t = walk_target(self.n, s, p);
                if p != self.n && self.cell(t) == t {
                    return Err(IllegalMove::BlockedByFixed { piece: p, slot: t });
                }
                Ok(())
            }
            Move::Place(p) => {
                if self.hand_mask(self.side) & (1 << p) == 0 {
                    return Err(if self.slot_of(p) == Some(p) {
                        IllegalMove::Fixed(p)
                    } else {
                        IllegalMove::NotInHand(p)
                    });
                }
                Ok(())
            }
            Move::Pass => {
                if rule == PassRule::WhenStuck && self.legal_moves(rule).as_slice() != [Move::Pass]
                {
                    return Err(IllegalMove::PassNotAllowed);
                }
                Ok(())
            }
        }
    }

    /// Plays `m` after checking it.
    ///
    /// # Errors
    /// The move is illegal here.
    pub fn play(&self, m: Move, rule: PassRule) -> Result<Position, IllegalMove> {
        self.check_move(m, rule)?;
        Ok(self.play_unchecked(m))
    }

    /// The piece the move `m` captures here, if any: a walk onto or a
    /// placement onto an occupied slot (piece N walking round and off the
    /// board captures nothing).
    pub fn captured(&self, m: Move) -> Option<u8> {
        let slot = match m {
            Move::Walk(p) if p == self.slots() => return None,
            Move::Walk(p) => walk_target(self.slots(), self.slot_of(p)?, p),
            Move::Place(p) => p,
            Move::Pass => return None,
        };
        self.piece_at(slot)
    }

    /// Every legal move with the position it leads to, in the order of
    /// [`Position::legal_moves`]: each is played without checking it again.
    pub fn children(&self, rule: PassRule) -> impl Iterator<Item = (Move, Position)> + use<> {
        let (pos, moves) = (*self, self.legal_moves(rule));
        (0..moves.len()).map(move |i| {
            let m = moves.as_slice()[i];
            (m, pos.play_unchecked(m))
        })
    }

    /// Plays `m`, which must be one of [`Position::legal_moves`] (the
    /// crate's own fast path; [`Position::play`] checks).
    #[inline]
    pub(crate) fn play_unchecked(&self, m: Move) -> Position {
        let n = self.n;
        let mut next = *self;
        match m {
            Move::Walk(p) => {
                let s = self.slot_of(p).expect("a walked piece is on the board");
                next.board[s as usize - 1] = 0;
                next.side = self.side.other();
                next.last = Last::None;
                if p != n {
                    // Whatever stands on the target goes to its owner's hand:
                    // overwriting it removes it from the board.
                    let t = walk_target(n, s, p);
                    next.board[t as usize - 1] = p;
                    if t != p {
                        next.last = Last::Piece(p);
                    }
                }
            }
            Move::Place(p) => {
                let captured = self.board[p as usize - 1];
                next.board[p as usize - 1] = p;
                next.last = Last::None;
                let extra = captured != 0 && Side::owner_of(captured) != self.side;
                if !extra {
                    next.side = self.side.other();
                }
            }
            Move::Pass => {
                next.side = self.side.other();
                next.last = if self.last == Last::Pass { Last::DoublePass } else { Last::Pass };
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Outcome;

    fn pos(board: &[i64], side: Side, last: Last) -> Position {
        Position::new(board, side, last).unwrap()
    }

    const A: PassRule = PassRule::Always;

    #[test]
    fn capture_goes_to_owner_whoever_captures() {
        // 甲 walks 2 from slot 3 to slot 1 and captures 乙's 4: it goes to 乙.
        let p = pos(&[4, 0, 2, 0], Side::Jia, Last::None);
        let q = p.play(Move::Walk(2), A).unwrap();
        assert_eq!(q.board(), &[2, 0, 0, 0]);
        assert_ne!(q.hand_mask(Side::Yi) & (1 << 4), 0);
        assert_eq!(q.last(), Last::Piece(2));
        // 乙 walks 3 from slot 2 to slot 5 and captures 甲's 1: it goes to 甲.
        let p = pos(&[0, 3, 0, 0, 1, 0], Side::Yi, Last::None);
        let q = p.play(Move::Walk(3), A).unwrap();
        assert_eq!(q.board(), &[0, 0, 0, 0, 3, 0]);
        assert_ne!(q.hand_mask(Side::Jia) & (1 << 1), 0);
        assert_eq!(q.last(), Last::Piece(3));
    }

    #[test]
    fn piece_n_leaves_the_board_for_either_side() {
        for side in Side::ALL {
            let p = pos(&[0, 4, 0, 0], side, Last::None);
            let q = p.play(Move::Walk(4), A).unwrap();
            assert_eq!(q.board(), &[0, 0, 0, 0]);
            assert_eq!(q.last(), Last::None);
            assert_ne!(q.hand_mask(Side::Yi) & (1 << 4), 0);
            assert_eq!(q.side(), side.other());
        }
    }

    #[test]
    fn fixed_piece_blocks_a_walk() {
        // Piece 1 on slot 3 would land on slot 4, which holds fixed 4.
        let p = pos(&[0, 0, 1, 4], Side::Jia, Last::None);
        assert!(!p.legal_moves(A).contains(Move::Walk(1)));
        assert_eq!(
            p.play(Move::Walk(1), A),
            Err(IllegalMove::BlockedByFixed { piece: 1, slot: 4 })
        );
        assert_eq!(p.play(Move::Walk(4), A), Err(IllegalMove::Fixed(4)));
    }

    #[test]
    fn walked_piece_is_banned_for_exactly_one_ply() {
        // 8 slots: 乙 walks 3 from slot 1 to slot 4.
        let p = pos(&[3, 0, 0, 0, 0, 0, 0, 5], Side::Yi, Last::None);
        let q = p.play(Move::Walk(3), A).unwrap();
        assert_eq!(q.last(), Last::Piece(3));
        assert_eq!(q.play(Move::Walk(3), A), Err(IllegalMove::Banned(3)));
        // 甲 walks 5 instead; now 3 is free again for 乙.
        let r = q.play(Move::Walk(5), A).unwrap();
        assert!(r.legal_moves(A).contains(Move::Walk(3)));
        assert!(!r.legal_moves(A).contains(Move::Walk(5)));
    }

    #[test]
    fn no_ban_during_an_extra_move() {
        // 乙 just walked 3 from slot 1 to slot 4; 甲 places 5 on slot 5,
        // captures 乙's 2 and moves again, now free to walk 3.
        let p = pos(&[0, 0, 0, 3, 2, 0], Side::Jia, Last::Piece(3));
        assert!(!p.legal_moves(A).contains(Move::Walk(3)));
        let q = p.play(Move::Place(5), A).unwrap();
        assert_eq!(q.side(), Side::Jia, "capturing an opponent piece gives an extra move");
        assert_eq!(q.last(), Last::None);
        assert!(q.legal_moves(A).contains(Move::Walk(3)));
    }

    #[test]
    fn placement_capture_with_and_without_extra_move() {
        // 甲 places 1 on slot 1 holding 乙's 2: extra move.
        let p = pos(&[2, 0, 0, 0], Side::Jia, Last::None);
        let q = p.play(Move::Place(1), A).unwrap();
        assert_eq!(q.board(), &[1, 0, 0, 0]);
        assert_eq!(q.side(), Side::Jia);
        // 甲 places 1 on slot 1 holding 甲's 3: no extra move, 3 back in hand.
        let p = pos(&[3, 0, 0, 0], Side::Jia, Last::None);
        let q = p.play(Move::Place(1), A).unwrap();
        assert_eq!(q.board(), &[1, 0, 0, 0]);
        assert_eq!(q.side(), Side::Yi);
        assert_ne!(q.hand_mask(Side::Jia) & (1 << 3), 0);
        // Placing onto an empty slot: no extra move.
        let q = pos(&[0, 0, 0, 0], Side::Yi, Last::None).play(Move::Place(2), A).unwrap();
        assert_eq!(q.side(), Side::Jia);
        // Only the owner places.
        assert_eq!(
            pos(&[0, 0, 0, 0], Side::Yi, Last::None).play(Move::Place(1), A),
            Err(IllegalMove::NotInHand(1))
        );
    }

    #[test]
    fn two_passes_end_the_game_both_lose() {
        let p = pos(&[2, 1, 4, 3], Side::Yi, Last::None);
        let q = p.play(Move::Pass, A).unwrap();
        assert_eq!((q.side(), q.last()), (Side::Jia, Last::Pass));
        assert_eq!(q.outcome(), None);
        let r = q.play(Move::Pass, A).unwrap();
        assert_eq!(r.outcome(), Some(Outcome::BothLose));
        assert!(r.legal_moves(A).is_empty());
        // A pass after a non-pass does not end anything.
        let s = q.play(Move::Walk(1), A).unwrap().play(Move::Pass, A).unwrap();
        assert_eq!(s.outcome(), None);
    }

    #[test]
    fn when_stuck_pass_rule() {
        let p = pos(&[2, 1, 4, 3], Side::Yi, Last::None);
        assert!(!p.legal_moves(PassRule::WhenStuck).contains(Move::Pass));
        assert_eq!(p.play(Move::Pass, PassRule::WhenStuck), Err(IllegalMove::PassNotAllowed));
        // 2 is banned, so 乙's only move is to place 4.
        let p = pos(&[1, 0, 3, 2], Side::Yi, Last::Piece(2));
        assert_eq!(p.legal_moves(PassRule::WhenStuck).as_slice(), &[Move::Place(4)]);
        // 甲's 3 and 1 both would land on fixed 4, and 甲's hand is empty.
        let p = pos(&[3, 2, 1, 4], Side::Jia, Last::None);
        assert_eq!(p.legal_moves(PassRule::WhenStuck).as_slice(), &[Move::Pass]);
        assert_eq!(p.legal_moves(A).as_slice(), &[Move::Pass]);
    }

    #[test]
    fn end_rules() {
        // Completing placement that captures an opponent piece wins outright:
        // 甲 needs only 3, slot 3 holds 乙's 4; 乙 is not complete.
        let p = pos(&[1, 0, 4, 0], Side::Jia, Last::None);
        let q = p.play(Move::Place(3), A).unwrap();
        assert_eq!(q.side(), Side::Jia);
        assert_eq!(q.outcome(), Some(Outcome::Win(Side::Jia)));
        // The opponent has exactly one ply to complete: 甲 complete, 乙 to move
        // needs one placement -> both win; anything else -> 甲 wins.
        let p = pos(&[1, 2, 3, 0], Side::Yi, Last::None);
        assert_eq!(p.outcome(), None);
        let q = p.play(Move::Place(4), A).unwrap();
        assert_eq!(q.outcome(), Some(Outcome::BothWin));
        let q = p.play(Move::Pass, A).unwrap();
        assert_eq!(q.outcome(), Some(Outcome::Win(Side::Jia)));
        // A side completed by its opponent's walk wins on its turn.
        // 乙 walks 甲's 1 from slot 4 onto slot 1: now 甲 is complete.
        let p = pos(&[0, 2, 3, 1], Side::Yi, Last::None);
        let q = p.play(Move::Walk(1), A).unwrap();
        assert_eq!(q.side(), Side::Jia);
        assert_eq!(q.outcome(), Some(Outcome::Win(Side::Jia)));
    }
}
