//! Reviewing a game move by move: for each ply, the value the mover had
//! before it, the value the move played keeps, the best value available,
//! whether the move was the only one reaching the best value, and whether
//! it was a mistake (a worse value than the best).
//!
//! Only values count here, not depths: a move that keeps the value but
//! takes longer is neither a mistake nor a best move's rival. The order of
//! values is the one of [`Value::rank`].

use std::fmt;

use crate::escape::escape_control;
use crate::moves::{IllegalMove, Move, MoveText, ParseMoveError, PassRule};
use crate::position::Position;
use crate::scored::ScoredMove;
use crate::side::Side;
use crate::value::Value;

/// One ply of a reviewed game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlyReview {
    /// The move played.
    pub mv: Move,
    /// Who played it.
    pub side: Side,
    /// The position before the move.
    pub before: Position,
    /// The value of `before` for the mover (the best value available).
    pub value: Value,
    /// The value the move played keeps, for the mover.
    pub played: Value,
    /// The best value any legal move keeps (equal to `value`).
    pub best: Value,
    /// The move played is the only legal move that keeps `best`.
    pub only: bool,
    /// `played` is worse than `best`.
    pub mistake: bool,
}

/// Reviews the move `mv` played in `before`, whose legal moves are scored
/// (best first or in any order) in `moves`.
///
/// Returns `None` when `mv` is not among `moves` (an illegal move, or a
/// finished game, which has no moves).
pub fn review_ply(before: &Position, mv: Move, moves: &[ScoredMove]) -> Option<PlyReview> {
    let played = moves.iter().find(|m| m.mv == mv)?.score.value;
    let best =
        moves.iter().map(|m| m.score.value).max_by_key(|v| v.rank()).expect("mv is among moves");
    let keeping = moves.iter().filter(|m| m.score.value == best).count();
    Some(PlyReview {
        mv,
        side: before.side(),
        before: *before,
        value: best,
        played,
        best,
        only: played == best && keeping == 1,
        mistake: played.rank() < best.rank(),
    })
}

/// One ply that was played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Ply {
    /// Who played it.
    pub side: Side,
    /// The move.
    pub m: Move,
    /// The piece it captured.
    pub captures: Option<u8>,
    /// The position after it.
    pub next: Position,
}

/// A move of a game that could not be played: its number (from 1), its
/// text, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlayError {
    /// The move's number, from 1.
    pub number: usize,
    /// The move as written.
    pub text: String,
    /// Why it could not be played.
    pub why: Unplayable,
}

/// Why a move could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unplayable {
    /// It is not a move at all.
    Malformed(ParseMoveError),
    /// It is a move, but not a legal one in `pos`.
    Illegal {
        /// The position it was played in.
        pos: Position,
        /// The rule it breaks.
        reason: IllegalMove,
    },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let number = self.number;
        match &self.why {
            Unplayable::Malformed(e) => write!(f, "move {number}: {e}"),
            Unplayable::Illegal { pos, reason } => {
                let text = escape_control(self.text.trim());
                write!(f, "move {number} '{text}' is illegal in {pos}: ")?;
                match (reason, pos.outcome()) {
                    (IllegalMove::GameOver, Some(outcome)) => {
                        write!(f, "the game is over, {outcome}")
                    }
                    (reason, _) => reason.fmt(f),
                }
            }
        }
    }
}

/// Its message is complete: it wraps no error.
impl std::error::Error for PlayError {}

/// Plays every move of `moves` (as written: a piece number or `pass`) from
/// `start` under `rule`, checking each.
///
/// # Errors
/// The first move that is malformed or illegal.
///
/// # Examples
///
/// ```
/// use chaosclock::review::play_all;
/// use chaosclock::{PassRule, Position};
///
/// let start: Position = "2,1,4,3".parse()?;
/// let moves: Vec<String> = ["2", "pass"].map(String::from).to_vec();
/// let plies = play_all(start, &moves, PassRule::Always)?;
/// assert_eq!(plies.len(), 2);
/// let bad = play_all(start, &["9".to_string()], PassRule::Always).unwrap_err();
/// assert_eq!(bad.number, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn play_all(start: Position, moves: &[String], rule: PassRule) -> Result<Vec<Ply>, PlayError> {
    let mut pos = start;
    let mut plies = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let error = |why| PlayError { number: i + 1, text: text.clone(), why };
        let written: MoveText = text.parse().map_err(|e| error(Unplayable::Malformed(e)))?;
        let m = pos
            .parse_move(written, rule)
            .map_err(|reason| error(Unplayable::Illegal { pos, reason }))?;
        let next = pos.play_unchecked(m);
        plies.push(Ply { side: pos.side(), m, captures: pos.captured(m), next });
        pos = next;
    }
    Ok(plies)
}

/// Why a game could not be reviewed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReviewError<E> {
    /// The moves of a position could not be scored.
    Moves(E),
    /// A move played has no score among its position's moves (the source
    /// of scores disagrees with the rules).
    Unscored {
        /// The move.
        mv: Move,
        /// The position it was played in.
        pos: Position,
    },
}

impl<E: fmt::Display> fmt::Display for ReviewError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::Moves(e) => e.fmt(f),
            ReviewError::Unscored { mv, pos } => write!(f, "move {mv} has no score in {pos}"),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for ReviewError<E> {}

/// Reviews every ply of a game from `start`, with `moves` scoring the legal
/// moves of each position before a ply.
///
/// # Errors
/// What `moves` returns, or a move it does not score.
pub fn review_all<E>(
    start: &Position,
    plies: &[Ply],
    mut moves: impl FnMut(&Position) -> Result<Vec<ScoredMove>, E>,
) -> Result<Vec<PlyReview>, ReviewError<E>> {
    let mut before = *start;
    let mut out = Vec::with_capacity(plies.len());
    for ply in plies {
        let scored = moves(&before).map_err(ReviewError::Moves)?;
        let r = review_ply(&before, ply.m, &scored)
            .ok_or(ReviewError::Unscored { mv: ply.m, pos: before })?;
        out.push(r);
        before = ply.next;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::PassRule;
    use crate::solve::solve;

    #[test]
    fn the_only_move_and_a_mistake_are_marked() {
        // One placement left for each side (docs/commands.md, `solve`): placing 1
        // keeps both-win at depth 2, passing keeps it at depth 3.
        let pos: Position = "0,0,3,4;0".parse().unwrap();
        let solution = solve(&pos, PassRule::Always, None);
        let moves = solution.moves(&pos).unwrap();
        let r = review_ply(&pos, Move::Place(1), &moves).unwrap();
        assert_eq!((r.value, r.played, r.best), (Value::BothWin, Value::BothWin, Value::BothWin));
        assert!(!r.only, "the pass keeps both-win too");
        assert!(!r.mistake);
        assert_eq!(review_ply(&pos, Move::Walk(3), &moves), None);
    }

    #[test]
    fn a_losing_move_is_a_mistake() {
        let pos: Position = "4,3,7,11,5,10,12,0,0,2,0,0;0;7".parse().unwrap();
        let solution = solve(&pos, PassRule::Always, None);
        let moves = solution.moves(&pos).unwrap();
        let walk = review_ply(&pos, Move::Walk(11), &moves).unwrap();
        assert!(walk.only && !walk.mistake);
        assert_eq!(walk.best, Value::SelfWin);
        let place = review_ply(&pos, Move::Place(1), &moves).unwrap();
        assert!(place.mistake && !place.only);
        assert_eq!(place.played, Value::SelfLose);
    }
}
