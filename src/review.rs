//! Reviewing a game move by move: for each ply, the value the mover had
//! before it, the value the move played keeps, the best value available,
//! whether the move was the only one reaching the best value, and whether
//! it was a mistake (a worse value than the best).
//!
//! Only values count here, not depths: a move that keeps the value but
//! takes longer is neither a mistake nor a best move's rival. The order of
//! values is the one of [`Value::rank`].

use crate::moves::Move;
use crate::position::Position;
use crate::scored::ScoredMove;
use crate::side::Side;
use crate::value::Value;

/// One ply of a reviewed game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
        let moves = solution.moves(&pos);
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
        let moves = solution.moves(&pos);
        let walk = review_ply(&pos, Move::Walk(11), &moves).unwrap();
        assert!(walk.only && !walk.mistake);
        assert_eq!(walk.best, Value::SelfWin);
        let place = review_ply(&pos, Move::Place(1), &moves).unwrap();
        assert!(place.mistake && !place.only);
        assert_eq!(place.played, Value::SelfLose);
    }
}
