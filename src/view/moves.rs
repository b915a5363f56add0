//! One move as JSON, in the same shape wherever a move is shown: the legal
//! moves of `show`, `solve`, `query` and `/api/position`, the moves played
//! by `play`, the plies of `/api/mainline`, and the reviewed plies of
//! `play --analyse` and `/api/analyse` (issue 24).
//!
//! Every move object has the core fields, built by [`MoveJson::new`] from
//! the position before the move and the move: `move`, `kind`, `side` (who
//! plays it), `captures`, `extra_move`, `over` (how the game ends with it)
//! and `position` (the position it leads to, always the one after it).
//! A group of fields is flattened in where the context has it:
//!
//! - the score group ([`ScoreJson`]: `value`, `label`, `depth`, `best`,
//!   `keeps_value`) for a move scored among the legal moves of its
//!   position: the moves of `solve`, `query` and `/api/position`, and the
//!   plies of `/api/mainline`;
//! - the review group ([`ReviewJson`]: `before`, `played`, `best_value`,
//!   `only`, `mistake`) for a ply of a reviewed game: `play --analyse` and
//!   `/api/analyse`.
//!
//! `show` and `play` have the core alone. No key is in two groups, so a key
//! means one thing in every move object: `value` is the move's value for
//! its mover with a depth (the score group), `played` the value a played
//! move keeps, judged by values only (the review group).

use chaosclock::Score;
use chaosclock::review::PlyReview;
use chaosclock::scored::ScoredMove;
use chaosclock::{Move, Outcome, PassRule, Position};
use serde::Serialize;

/// One move in JSON: the core fields, and the groups the context has.
#[derive(Debug, Serialize)]
pub struct MoveJson {
    /// The move as written: a piece number or `pass`.
    #[serde(rename = "move")]
    text: String,
    /// `walk`, `place` or `pass`.
    kind: &'static str,
    /// Who plays it: `jia` or `yi`.
    side: &'static str,
    /// The piece it captures, if any.
    captures: Option<u8>,
    /// Whether the mover moves again (a placement capturing an opponent's
    /// piece).
    extra_move: bool,
    /// How the game is over after it, if it is.
    over: Option<&'static str>,
    /// The position it leads to.
    position: String,
    /// Its score, for a move scored among the legal moves.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    score: Option<ScoreJson>,
    /// Its review, for a ply of a reviewed game.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    review: Option<ReviewJson>,
}

/// The score group: a move's score among the legal moves of its position.
#[derive(Debug, Serialize)]
pub struct ScoreJson {
    /// Value code (0..=4) for the mover.
    value: u8,
    label: &'static str,
    /// Plies to the end, this move included; `null` for no-result and
    /// unknown depths.
    depth: Option<u16>,
    /// Its score equals the best move's.
    best: bool,
    /// Its value equals the best move's.
    keeps_value: bool,
}

/// The review group: a played move against the best one, by values only
/// ([`chaosclock::review`]); values are codes for the mover.
#[derive(Debug, Serialize)]
pub struct ReviewJson {
    /// The position before the move.
    before: String,
    /// The value the move keeps.
    played: u8,
    /// The best value any legal move keeps: the value of `before`.
    best_value: u8,
    /// The move is the only one that keeps `best_value`.
    only: bool,
    /// `played` is worse than `best_value`.
    mistake: bool,
}

impl MoveJson {
    /// The core fields of `mv` played in `before`, which must be one of
    /// its legal moves under some pass rule (so legal under
    /// [`PassRule::Always`], which allows every move the other rule does).
    pub fn new(before: &Position, mv: Move) -> MoveJson {
        let after = before.play(mv, PassRule::Always).expect("a legal move of the position");
        MoveJson {
            text: mv.to_string(),
            kind: mv.kind(),
            side: before.side().name(),
            captures: before.captured(mv),
            extra_move: after.side() == before.side(),
            over: after.outcome().map(Outcome::name),
            position: after.to_string(),
            score: None,
            review: None,
        }
    }

    /// The move `m` of `before` with its score: `m` is one of `moves`, the
    /// legal moves of `before` best first; `depths` says whether the
    /// scores have known depths.
    pub fn scored(before: &Position, m: &ScoredMove, moves: &[ScoredMove], depths: bool) -> Self {
        let best = moves.first().unwrap_or(m);
        MoveJson {
            score: Some(ScoreJson {
                value: m.score.value.code(),
                label: m.score.value.label(),
                depth: depth(m.score, depths),
                best: m.score == best.score,
                keeps_value: m.score.value == best.score.value,
            }),
            ..MoveJson::new(before, m.mv)
        }
    }

    /// A reviewed ply with its review.
    pub fn reviewed(r: &PlyReview) -> MoveJson {
        MoveJson {
            review: Some(ReviewJson {
                before: r.before.to_string(),
                played: r.played.code(),
                best_value: r.best.code(),
                only: r.only,
                mistake: r.mistake,
            }),
            ..MoveJson::new(&r.before, r.mv)
        }
    }
}

/// A depth for JSON: `null` for no-result, which has none, and when depths
/// are not `known` (tables of values only).
pub fn depth(score: Score, known: bool) -> Option<u16> {
    score.depth().filter(|_| known)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capturing_placement_moves_again() {
        // 甲 (odd) places 1 on its slot, which holds 乙's 2.
        let pos: Position = "2,0,3,4;0;0".parse().unwrap();
        let json = serde_json::to_value(MoveJson::new(&pos, Move::Place(1))).unwrap();
        assert_eq!(json["captures"], 2);
        assert_eq!(json["extra_move"], true);
        assert_eq!(json["side"], "jia");
        assert_eq!(
            json["position"],
            pos.play(Move::Place(1), PassRule::Always).unwrap().to_string()
        );
        assert!(json.get("value").is_none() && json.get("before").is_none());
    }
}
