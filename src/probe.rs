//! Answers from the tables alone (no search): a position's score, every
//! move's score and a line of best play, the same shape as `solve` gives.

use std::fmt;

use crate::moves::Move;
use crate::position::Position;
use crate::solve::{Score, ScoredMove};
use crate::table::{TableError, Tablebase};
use crate::value::Value;

/// A position as the tables see it.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The position's score (side to move's view).
    pub score: Score,
    /// Every legal move, best first.
    pub moves: Vec<ScoredMove>,
    /// Best play to the end (empty for a finished game or no-result).
    pub line: Vec<Move>,
}

/// Why the tables cannot answer.
#[derive(Debug)]
pub enum ProbeError {
    /// A needed table file does not exist.
    Missing {
        /// The file.
        path: std::path::PathBuf,
        /// Slots.
        n: u8,
        /// The number of pieces not fixed in it: `--max-live` to generate.
        live: u8,
    },
    /// A table file is damaged.
    Table(TableError),
    /// The stored depths do not lead to the end: the tables disagree with
    /// each other.
    Inconsistent(String),
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Missing { path, n, live } => write!(
                f,
                "no table {} (signatures with {live} pieces not fixed): run `chaosclock generate --slots {n} --max-live {live}`",
                path.display()
            ),
            ProbeError::Table(e) => e.fmt(f),
            ProbeError::Inconsistent(what) => write!(f, "tables are inconsistent: {what}"),
        }
    }
}

impl std::error::Error for ProbeError {}

impl From<TableError> for ProbeError {
    fn from(e: TableError) -> Self {
        ProbeError::Table(e)
    }
}

/// The score of `pos` from the tables, loading the file it needs.
///
/// # Errors
/// A missing or damaged file.
pub fn score(tb: &mut Tablebase, pos: &Position) -> Result<Score, ProbeError> {
    let fixed = pos.fixed_mask();
    if !tb.load(fixed)? {
        let live = tb.slots() - fixed.count_ones() as u8;
        return Err(ProbeError::Missing { path: tb.path(fixed), n: tb.slots(), live });
    }
    Ok(tb.score(pos)?.expect("file loaded"))
}

/// Every legal move of `pos` with its score for the mover, best first.
///
/// # Errors
/// A missing or damaged file.
pub fn moves(tb: &mut Tablebase, pos: &Position) -> Result<Vec<ScoredMove>, ProbeError> {
    let mut out = Vec::new();
    for &mv in pos.legal_moves(tb.rule()).iter() {
        let child = pos.play_unchecked(mv);
        let cs = score(tb, &child)?;
        out.push(ScoredMove {
            mv,
            child,
            score: Score::from_child(cs, child.side() == pos.side()),
        });
    }
    out.sort_by_key(|m| std::cmp::Reverse(m.score));
    Ok(out)
}

/// The full answer for `pos`.
///
/// # Errors
/// A missing or damaged file, or depths that do not lead to the end.
pub fn analyse(tb: &mut Tablebase, pos: &Position) -> Result<Analysis, ProbeError> {
    let score = score(tb, pos)?;
    let moves = moves(tb, pos)?;
    if let Some(best) = moves.first()
        && best.score != score
    {
        return Err(ProbeError::Inconsistent(format!(
            "{pos} is stored as {score} but its best move scores {}",
            best.score
        )));
    }
    let mut line = Vec::new();
    let mut cur = *pos;
    let mut left = score.depth;
    if score.value != Value::NoResult {
        while cur.outcome().is_none() {
            let next = moves_first(tb, &cur)?;
            // The best move's score counts itself: its depth is what is left.
            if next.score.depth != left {
                return Err(ProbeError::Inconsistent(format!("the line from {pos} does not end")));
            }
            line.push(next.mv);
            cur = next.child;
            left -= 1;
        }
    }
    Ok(Analysis { score, moves, line })
}

fn moves_first(tb: &mut Tablebase, pos: &Position) -> Result<ScoredMove, ProbeError> {
    moves(tb, pos)?
        .into_iter()
        .next()
        .ok_or_else(|| ProbeError::Inconsistent(format!("{pos} goes on but has no move")))
}
