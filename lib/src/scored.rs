//! Scoring moves, one way for every source of scores: each legal move of a
//! position with the score it gives the mover, best first
//! ([`scored_moves`]), and a line of best play ([`best_line`]).
//!
//! A source ([`ScoreSource`]) is anything that knows the score of the
//! positions it is asked about: a solution in memory
//! ([`crate::solve::Solution`]) or the tables ([`crate::table::Tablebase`],
//! see [`crate::probe`]).

use crate::moves::{Move, PassRule};
use crate::position::Position;
use crate::score::Score;
use crate::value::Value;

/// A legal move with the state it leads to and its score for the mover.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// The position it leads to.
    pub child: Position,
    /// Its score from the mover's view (depth counts this move).
    pub score: Score,
}

impl ScoredMove {
    /// The move `mv` leading to `child`, scored `score` for the mover.
    pub fn new(mv: Move, child: Position, score: Score) -> ScoredMove {
        ScoredMove { mv, child, score }
    }
}

/// Something that knows the score of positions.
pub trait ScoreSource {
    /// Why a score is not known (a state the source does not hold, a
    /// missing or damaged table).
    type Error;

    /// The pass rule the scores are for.
    fn rule(&self) -> PassRule;

    /// The score of `pos` from its side to move's view.
    ///
    /// # Errors
    /// The source does not know `pos`.
    fn score(&self, pos: &Position) -> Result<Score, Self::Error>;

    /// The value of `pos` where the source knows it at less cost than its
    /// score (tables that derive some scores from their children); `None`
    /// otherwise. Never another value than [`ScoreSource::score`]'s.
    ///
    /// # Errors
    /// The source does not know `pos`.
    fn cheap_value(&self, _pos: &Position) -> Result<Option<Value>, Self::Error> {
        Ok(None)
    }

    /// Whether the score of `pos` is `target`: never another answer than
    /// `score(pos)? == target`, at less cost where the source can (tables
    /// that derive a score stop at the first child that beats `target`).
    ///
    /// # Errors
    /// The source does not know `pos`.
    fn score_is(&self, pos: &Position, target: Score) -> Result<bool, Self::Error> {
        Ok(self.score(pos)? == target)
    }
}

/// Every legal move of `pos` with its score for the mover, best first
/// (stable among equals, in move order).
///
/// # Errors
/// The source does not know a child of `pos`.
pub fn scored_moves<S: ScoreSource + ?Sized>(
    source: &S,
    pos: &Position,
) -> Result<Vec<ScoredMove>, S::Error> {
    let mut out = Vec::new();
    for &mv in pos.legal_moves(source.rule()).iter() {
        let child = pos.play_unchecked(mv);
        let score = Score::from_child(source.score(&child)?, child.side() == pos.side());
        out.push(ScoredMove { mv, child, score });
    }
    out.sort_by_key(|m| std::cmp::Reverse(m.score));
    Ok(out)
}

/// A line of best play from `pos`: at each position, the first move (in
/// move order) whose score is the score of the position, which is the best
/// move [`scored_moves`] lists first when the source is consistent (as
/// every source with depths is). Each such move lowers the depth by one,
/// so the line ends, and it reaches the end of the game unless the source
/// disagrees with itself. Empty for a finished game and for a no-result
/// position, which has no end. For scores without depths (tables of
/// values only) see [`crate::probe::value_line`].
///
/// Children are scored only up to that move, those whose value
/// ([`ScoreSource::cheap_value`]) cannot keep the score are skipped, and
/// the others are asked whether they have the score needed
/// ([`ScoreSource::score_is`]) rather than for their score: with tables
/// that derive some scores from their children (encoding 4), every score
/// costs reads, and a derived child that falls short is rejected at its
/// first child that shows it.
///
/// # Errors
/// The source does not know a position on the way.
pub fn best_line<S: ScoreSource + ?Sized>(
    source: &S,
    pos: &Position,
) -> Result<Vec<Move>, S::Error> {
    let mut line = Vec::new();
    let mut cur = *pos;
    let mut score = source.score(pos)?;
    'line: while score.value != Value::NoResult && cur.outcome().is_none() {
        for &mv in cur.legal_moves(source.rule()).iter() {
            let child = cur.play_unchecked(mv);
            let same_side = child.side() == cur.side();
            if let Some(v) = source.cheap_value(&child)?
                && (if same_side { v } else { v.flip() }) != score.value
            {
                continue; // cannot keep the score
            }
            let Some(child_score) = score.to_child(same_side) else { continue };
            if source.score_is(&child, child_score)? {
                line.push(mv);
                (cur, score) = (child, child_score);
                continue 'line;
            }
        }
        break;
    }
    Ok(line)
}
