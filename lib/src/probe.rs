//! Answers from the tables alone: a position's score, every move's score
//! and a line of best play, the same shape as `solve` gives.
//!
//! Tables with depths give exact depths, and the line follows them. Tables
//! of values only give exact values and no depths; the line is then found
//! by a search of each signature it crosses ([`value_line`]).

use crate::moves::{Move, PassRule};
use crate::position::Position;
use crate::score::Score;
use crate::scored::{NoWayOut, ScoreSource, ScoredMove, best_line, scored_moves};
pub use crate::table::ProbeError;
use crate::table::Tablebase;
use crate::value::Value;

/// A position as the tables see it.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Analysis {
    /// The position's score (side to move's view).
    pub score: Score,
    /// Every legal move, best first.
    pub moves: Vec<ScoredMove>,
    /// Best play to the end (empty for a finished game or no-result).
    pub line: Vec<Move>,
    /// Whether the scores' depths are known (tables with depths); if not,
    /// [`Score::depth`] is `None` (but for finished games) and only values
    /// count.
    pub depths: bool,
}

/// The tables as a [`ScoreSource`], loading each file when it is first
/// needed (many threads may probe one [`Tablebase`] at once).
impl ScoreSource for Tablebase {
    type Error = ProbeError;

    fn rule(&self) -> PassRule {
        Tablebase::rule(self)
    }

    fn score(&self, pos: &Position) -> Result<Score, ProbeError> {
        Tablebase::score(self, pos)
    }

    fn cheap_value(&self, pos: &Position) -> Result<Option<Value>, ProbeError> {
        Tablebase::cheap_value(self, pos)
    }

    fn score_is(&self, pos: &Position, target: Score) -> Result<bool, ProbeError> {
        Tablebase::score_is(self, pos, target)
    }
}

/// The score of `pos` from the tables, loading the file it needs.
///
/// # Errors
/// A missing or damaged file.
pub fn score(tb: &Tablebase, pos: &Position) -> Result<Score, ProbeError> {
    ScoreSource::score(tb, pos)
}

/// The value of `pos` from the tables, loading the file it needs: from
/// its values byte where the tables derive its score (encoding 4 without
/// side files, about ten times fewer reads than the score), else from
/// its score.
///
/// # Errors
/// A missing or damaged file.
pub fn value(tb: &Tablebase, pos: &Position) -> Result<Value, ProbeError> {
    tb.value(pos)
}

/// Every legal move of `pos` with its score for the mover, best first.
///
/// # Errors
/// A missing or damaged file.
pub fn moves(tb: &Tablebase, pos: &Position) -> Result<Vec<ScoredMove>, ProbeError> {
    scored_moves(tb, pos)
}

/// The full answer for `pos`.
///
/// # Errors
/// A missing or damaged file, or depths that do not lead to the end.
pub fn analyse(tb: &Tablebase, pos: &Position) -> Result<Analysis, ProbeError> {
    let score = score(tb, pos)?;
    let moves = moves(tb, pos)?;
    let depths = tb.has_depths() != Some(false);
    if let Some(best) = moves.first()
        && (best.score != score && depths || best.score.value != score.value)
    {
        return Err(ProbeError::Inconsistent(format!(
            "{pos} is stored as {score} but its best move scores {}",
            best.score
        )));
    }
    let line = if score.value == Value::NoResult {
        Vec::new()
    } else if depths {
        // The best move, checked above, then best play from its child.
        let line = match moves.first() {
            Some(best) if pos.outcome().is_none() => {
                let mut line = vec![best.mv];
                line.extend(best_line(tb, &best.child)?);
                line
            }
            _ => Vec::new(),
        };
        if line.len() != usize::from(score.depth) {
            return Err(ProbeError::Inconsistent(format!("the line from {pos} does not end")));
        }
        line
    } else {
        value_line(tb, pos)?
    };
    Ok(Analysis { score, moves, line, depths })
}

/// A line of play from `pos` to the end of the game in which every move
/// keeps the value of the position it is played in, from the tables of
/// values alone; empty for no-result.
///
/// Such moves may go round in circles inside a signature, so the line is
/// built a signature at a time: a breadth-first search over the moves that
/// keep the value finds the nearest one that ends the game or leaves the
/// signature. It is a line that keeps the value, not the shortest one: that
/// needs depths. A solve that read tables of values only
/// ([`crate::solve::Solution::depths_known`]) gives its lines so too.
///
/// # Errors
/// A missing or damaged file, or no way out (tables that disagree).
pub fn value_line(tb: &Tablebase, pos: &Position) -> Result<Vec<Move>, ProbeError> {
    crate::scored::value_line(tb, pos)?.map_err(|NoWayOut(why)| ProbeError::Inconsistent(why))
}
