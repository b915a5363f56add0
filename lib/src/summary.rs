//! What a node must keep so that the score of each of its states can be
//! read off it (docs/tables.md).
//!
//! A state's moves are its node's walks and placements minus the banned
//! walk, plus the pass, whose child depends only on whether the previous
//! ply was a pass. So the best non-pass move (and which walk it is, if it
//! is the only best one), the second best, and the pass suffice.

use crate::moves::PassRule;
use crate::position::Last;
use crate::score::Score;
use crate::value::Value;

/// Scores of a node's moves, from the mover's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    /// The best walk or placement (or the end, for a finished game).
    pub best: Option<Score>,
    /// The piece whose walk `best` is; 0 if it is a placement. When two
    /// moves tie for best, `second` equals `best`, so a ban changes nothing.
    pub best_walk: u8,
    /// The best walk or placement other than `best`'s move.
    pub second: Option<Score>,
    /// The pass from a state whose previous ply was not a pass (a pass
    /// after a pass ends the game: both lose in 1).
    pub pass: Option<Score>,
    /// Whether the game is over in this node (`best` is its end).
    pub terminal: bool,
}

/// The score of a pass that ends the game with two passes.
pub const DOUBLE_PASS: Score = Score { value: Value::BothLose, depth: 1 };

impl Summary {
    /// A finished game.
    pub fn ended(score: Score) -> Summary {
        Summary { best: Some(score), terminal: true, ..Summary::default() }
    }

    /// Adds a walk of `piece` (0: a placement) scoring `score`.
    pub fn offer(&mut self, score: Score, piece: u8) {
        match self.best {
            Some(b) if b >= score => {
                if self.second.is_none_or(|s| s < score) {
                    self.second = Some(score);
                }
            }
            _ => {
                self.second = self.best;
                self.best = Some(score);
                self.best_walk = piece;
            }
        }
    }

    /// The best walk or placement a state with this `last` may play.
    #[inline]
    pub fn best_unbanned(&self, last: Last) -> Option<Score> {
        match last {
            Last::Piece(p) if self.best_walk != 0 && self.best_walk == p => self.second,
            _ => self.best,
        }
    }

    /// The score of the state with this `last`.
    ///
    /// The state must be one whose moves were all scored (a reached state).
    #[inline]
    pub fn score(&self, last: Last, rule: PassRule) -> Score {
        if self.terminal {
            return self.best.expect("an ended game has its score");
        }
        let moves = self.best_unbanned(last);
        let pass = if last == Last::Pass { Some(DOUBLE_PASS) } else { self.pass };
        let best = match rule {
            PassRule::Always => moves.max(pass),
            PassRule::WhenStuck => moves.or(pass),
        };
        best.expect("a state that goes on has a move")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(value: Value, depth: u16) -> Score {
        Score { value, depth }
    }

    #[test]
    fn bans_and_passes() {
        let mut sum = Summary::default();
        sum.offer(s(Value::SelfLose, 3), 5);
        sum.offer(s(Value::SelfWin, 7), 6);
        sum.offer(s(Value::BothWin, 2), 0);
        sum.pass = Some(s(Value::SelfLose, 9));
        let a = PassRule::Always;
        assert_eq!(sum.score(Last::None, a), s(Value::SelfWin, 7));
        assert_eq!(sum.score(Last::Piece(6), a), s(Value::BothWin, 2));
        assert_eq!(sum.score(Last::Piece(5), a), s(Value::SelfWin, 7));
        assert_eq!(sum.score(Last::Pass, a), s(Value::SelfWin, 7));
        // A tie for best survives the ban of either move.
        let mut tie = Summary::default();
        tie.offer(s(Value::BothWin, 4), 3);
        tie.offer(s(Value::BothWin, 4), 5);
        assert_eq!(tie.best_unbanned(Last::Piece(3)), Some(s(Value::BothWin, 4)));
        // Only a pass left: the pass decides, after a pass it ends the game.
        let mut one = Summary::default();
        one.offer(s(Value::SelfLose, 1), 3);
        one.pass = Some(s(Value::NoResult, 0));
        assert_eq!(one.score(Last::Piece(3), PassRule::WhenStuck), s(Value::NoResult, 0));
        assert_eq!(one.score(Last::Piece(3), a), s(Value::NoResult, 0));
        assert_eq!(one.score(Last::None, PassRule::WhenStuck), s(Value::SelfLose, 1));
        assert_eq!(one.score(Last::Pass, a), DOUBLE_PASS);
    }
}
