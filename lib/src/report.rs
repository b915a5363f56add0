//! The whole-game report (docs/serve.md, "The whole-game report"), as
//! lichess's computer analysis gives one: per side its accuracy and its
//! inaccuracies, mistakes and blunders, and the move that decided the
//! game, from the review of each ply ([`crate::review`]).
//!
//! Definitions (values in the order of [`Value::rank`]):
//! - A move **keeps the value** when it keeps the best value its position
//!   offered. A move **could fail** when some legal move there keeps less
//!   than the best. **Accuracy** is the share of a side's moves that could
//!   fail and kept the value, in percent; a side with no such move has no
//!   accuracy (a forced move, or one where every move keeps the value,
//!   says nothing of the player).
//! - A move that keeps less than the best **falls**: a **blunder** when it
//!   falls to a loss (己输) from anything better, a **mistake** when it
//!   falls from a win (己赢 or 共赢) to no win (同输 or 无果), an
//!   **inaccuracy** otherwise (己赢 to 共赢, 同输 to 无果).
//! - The **decisive move** is the last move that fell: the game's value
//!   has not changed since it, so it set the result the game has (or is
//!   heading for under best play). A game in which no move fell has none:
//!   its start decided it.

use crate::Position;
use crate::review::Ply;
use crate::review::{PlyReview, ReviewError};
use crate::scored::ScoredMove;
use crate::side::{ByPlayer, Side};
use crate::value::Value;

/// How far a move's value fell below the best (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fall {
    /// 己赢 to 共赢, or 同输 to 无果.
    Inaccuracy,
    /// From a win (己赢, 共赢) to no win (同输, 无果).
    Mistake,
    /// To a loss (己输).
    Blunder,
}

impl Fall {
    /// The fall from `best` to `played`, if `played` is worse.
    pub fn of(best: Value, played: Value) -> Option<Fall> {
        if played.rank() >= best.rank() {
            return None;
        }
        let win = |v: Value| matches!(v, Value::SelfWin | Value::BothWin);
        Some(if played == Value::SelfLose {
            Fall::Blunder
        } else if win(best) && !win(played) {
            Fall::Mistake
        } else {
            Fall::Inaccuracy
        })
    }

    /// The JSON name: `inaccuracy`, `mistake` or `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Fall::Inaccuracy => "inaccuracy",
            Fall::Mistake => "mistake",
            Fall::Blunder => "blunder",
        }
    }

    /// The annotation lichess writes: `?!`, `?` or `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            Fall::Inaccuracy => "?!",
            Fall::Mistake => "?",
            Fall::Blunder => "??",
        }
    }
}

/// One ply judged: its review, and whether it could fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Judged {
    /// The review of the ply.
    pub review: PlyReview,
    /// Some legal move of its position keeps less than the best.
    pub could_fail: bool,
    /// How far the move fell, if it did.
    pub fall: Option<Fall>,
}

impl Judged {
    /// Judges the ply reviewed `review`, whose position's legal moves are
    /// scored in `moves`.
    pub fn new(review: PlyReview, moves: &[ScoredMove]) -> Judged {
        let could_fail = moves.iter().any(|m| m.score.value.rank() < review.best.rank());
        Judged { review, could_fail, fall: Fall::of(review.best, review.played) }
    }
}

/// One side's part of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct SideReport {
    /// Its moves.
    pub moves: usize,
    /// Its moves that could fail.
    pub could_fail: usize,
    /// Its moves that could fail and kept the value.
    pub kept: usize,
    /// Its inaccuracies.
    pub inaccuracies: usize,
    /// Its mistakes.
    pub mistakes: usize,
    /// Its blunders.
    pub blunders: usize,
}

impl SideReport {
    /// The accuracy in percent, if any of its moves could fail.
    pub fn accuracy(&self) -> Option<f64> {
        (self.could_fail > 0).then(|| 100.0 * self.kept as f64 / self.could_fail as f64)
    }
}

/// The report of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// Each ply judged, in order.
    pub plies: Vec<Judged>,
    /// Each side's counts.
    pub sides: ByPlayer<SideReport>,
    /// The index in `plies` of the decisive move, if a move fell.
    pub decisive: Option<usize>,
}

impl Report {
    /// The report of the plies judged `plies`.
    pub fn new(plies: Vec<Judged>) -> Report {
        let mut sides = ByPlayer::<SideReport>::default();
        for j in &plies {
            let s = sides.get_mut(j.review.side);
            s.moves += 1;
            if j.could_fail {
                s.could_fail += 1;
                s.kept += usize::from(j.fall.is_none());
            }
            match j.fall {
                Some(Fall::Inaccuracy) => s.inaccuracies += 1,
                Some(Fall::Mistake) => s.mistakes += 1,
                Some(Fall::Blunder) => s.blunders += 1,
                None => {}
            }
        }
        let decisive = plies.iter().rposition(|j| j.fall.is_some());
        Report { plies, sides, decisive }
    }

    /// The counts of `side`.
    pub fn side(&self, side: Side) -> &SideReport {
        self.sides.get(side)
    }
}

/// Judges every ply of a game from `start`, with `moves` scoring the legal
/// moves of each position before a ply (called once a position), and
/// reports on it.
///
/// # Errors
/// What `moves` returns, or a move it does not score.
pub fn report_all<E>(
    start: &Position,
    plies: &[Ply],
    mut moves: impl FnMut(&Position) -> Result<Vec<ScoredMove>, E>,
) -> Result<Report, ReviewError<E>> {
    let mut before = *start;
    let mut judged = Vec::with_capacity(plies.len());
    for ply in plies {
        let scored = moves(&before).map_err(ReviewError::Moves)?;
        let r = crate::review::review_ply(&before, ply.m, &scored)
            .ok_or(ReviewError::Unscored { mv: ply.m, pos: before })?;
        judged.push(Judged::new(r, &scored));
        before = ply.next;
    }
    Ok(Report::new(judged))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PassRule;
    use crate::review::play_all;
    use crate::solve::solve;

    #[test]
    fn falls_by_how_far_the_value_fell() {
        use Value::*;
        assert_eq!(Fall::of(SelfWin, SelfWin), None);
        assert_eq!(Fall::of(SelfWin, BothWin), Some(Fall::Inaccuracy));
        assert_eq!(Fall::of(BothLose, NoResult), Some(Fall::Inaccuracy));
        assert_eq!(Fall::of(BothWin, BothLose), Some(Fall::Mistake));
        assert_eq!(Fall::of(SelfWin, NoResult), Some(Fall::Mistake));
        assert_eq!(Fall::of(NoResult, SelfLose), Some(Fall::Blunder));
        assert_eq!(Fall::of(SelfWin, SelfLose), Some(Fall::Blunder));
        assert_eq!(Fall::of(SelfLose, SelfLose), None);
    }

    #[test]
    fn a_losing_placement_is_a_blunder_and_decides() {
        // The documented mid-game: 甲 wins only by walking 11 (review.rs).
        let start: Position = "4,3,7,11,5,10,12,0,0,2,0,0;0;7".parse().unwrap();
        let solution = solve(&start, PassRule::Always, None);
        let plies = play_all(start, &["1".to_string()], PassRule::Always).unwrap();
        let report = report_all(&start, &plies, |p| solution.moves(p)).unwrap();
        let jia = report.side(Side::Jia);
        assert_eq!((jia.moves, jia.could_fail, jia.kept, jia.blunders), (1, 1, 0, 1));
        assert_eq!(jia.accuracy(), Some(0.0));
        assert_eq!(report.side(Side::Yi).accuracy(), None);
        assert_eq!(report.decisive, Some(0));
    }
}
