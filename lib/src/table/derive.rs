//! A node's summary derived from its children's scores by a one-ply
//! search: what `verify` checks stored records against, and how the
//! reader of encoding 4 answers for the 乙 nodes it does not store
//! (docs/depths.md, "Reading").
//!
//! The recursion ends: a child is a 甲 node (stored) unless the move was
//! a placement that earns an extra move, and each placement fixes a piece.

use crate::moves::{Move, PassRule};
use crate::position::{Last, Position};
use crate::score::Score;
use crate::summary::Summary;
use crate::table::TableError;
use crate::value::Value;

/// What a derivation reads: the tables (a [`crate::table::Tablebase`]),
/// their files opened on demand.
pub(crate) trait Reader {
    /// The pass rule of the tables.
    fn rule(&self) -> PassRule;

    /// Opens the file of fixed set `fixed`; whether it exists.
    ///
    /// # Errors
    /// A damaged file.
    fn load(&self, fixed: u16) -> Result<bool, TableError>;

    /// The score of `pos`, `None` if its file is not open.
    ///
    /// # Errors
    /// A damaged record.
    fn loaded_score(&self, pos: &Position) -> Result<Option<Score>, TableError>;

    /// The value of `pos`, `None` if its file is not open.
    ///
    /// # Errors
    /// A damaged record.
    fn loaded_value(&self, pos: &Position) -> Result<Option<Value>, TableError>;

    /// The path of the file of fixed set `fixed`.
    fn path(&self, fixed: u16) -> std::path::PathBuf;
}

/// The summary of `pos`'s node derived from its children's stored (or
/// derived) scores.
///
/// # Errors
/// A damaged record, or a child's file that is missing.
pub(crate) fn rederive(tb: &impl Reader, pos: &Position) -> Result<Summary, TableError> {
    let node = Position { last: Last::None, ..*pos };
    if let Some(outcome) = node.outcome() {
        return Ok(Summary::ended(Score::terminal(outcome.value_for(node.side()))));
    }
    let mut s = Summary::default();
    let child_score = |c: &Position| -> Result<Score, TableError> {
        load(tb, c)?;
        let cs = tb.loaded_score(c)?.ok_or_else(|| missing(tb, c))?;
        Ok(Score::from_child(cs, c.side() == node.side()))
    };
    for &m in node.legal_moves(PassRule::Always).iter() {
        let piece = match m {
            Move::Walk(p) => p,
            Move::Place(_) => 0,
            Move::Pass => continue,
        };
        s.offer(child_score(&node.play_unchecked(m))?, piece);
    }
    s.pass = Some(child_score(&node.play_unchecked(Move::Pass))?);
    Ok(s)
}

/// The score of the state `pos` whose value is `value` (from its stored
/// values byte), from its children: the best of the moves whose child's
/// value keeps `value`, the others skipped on their values alone. What
/// [`rederive`] gives for `pos.last()`, at the cost of the children that
/// matter.
///
/// # Errors
/// A damaged record, a child's file that is missing, or no move that keeps
/// `value` (the values byte disagrees with the children).
pub(crate) fn derive_score(
    tb: &impl Reader,
    pos: &Position,
    value: Value,
    path: impl FnOnce() -> std::path::PathBuf,
) -> Result<Score, TableError> {
    if let Some(outcome) = pos.outcome() {
        return Ok(Score::terminal(outcome.value_for(pos.side())));
    }
    let mut best: Option<Score> = None;
    kept_moves(tb, pos, value, path, |s| {
        best = best.max(Some(s));
        true
    })?;
    Ok(best.expect("a move keeps the value"))
}

/// Whether [`derive_score`] gives `target`, stopping at the first move
/// that keeps `value` and scores better than `target` (so a line of best
/// play rejects a child that does not keep the score without reading all
/// of that child's children).
///
/// # Errors
/// As [`derive_score`], for the moves read.
pub(crate) fn derive_score_is(
    tb: &impl Reader,
    pos: &Position,
    value: Value,
    target: Score,
    path: impl FnOnce() -> std::path::PathBuf,
) -> Result<bool, TableError> {
    if let Some(outcome) = pos.outcome() {
        return Ok(Score::terminal(outcome.value_for(pos.side())) == target);
    }
    let (mut reached, mut beaten) = (false, false);
    kept_moves(tb, pos, value, path, |s| {
        reached |= s == target;
        beaten = s > target;
        !beaten
    })?;
    Ok(reached && !beaten)
}

/// Calls `f` with the score for the mover of each move of `pos` (not
/// finished) whose child's value keeps `value`, in move order, while `f`
/// returns true.
///
/// # Errors
/// A damaged record, a child's file that is missing, or no move that keeps
/// `value`.
fn kept_moves(
    tb: &impl Reader,
    pos: &Position,
    value: Value,
    path: impl FnOnce() -> std::path::PathBuf,
    mut f: impl FnMut(Score) -> bool,
) -> Result<(), TableError> {
    let mut kept = false;
    for &m in pos.legal_moves(tb.rule()).iter() {
        let c = pos.play_unchecked(m);
        load(tb, &c)?;
        let same_side = c.side() == pos.side();
        let v = tb.loaded_value(&c)?.ok_or_else(|| missing(tb, &c))?;
        if (if same_side { v } else { v.flip() }) != value {
            continue;
        }
        kept = true;
        let cs = tb.loaded_score(&c)?.ok_or_else(|| missing(tb, &c))?;
        let cs = Score::from_child(cs, same_side);
        if !f(cs) {
            break;
        }
    }
    if !kept {
        return Err(TableError::Corrupt {
            path: path(),
            what: format!("{pos} is stored as {value:?} but no move keeps it"),
        });
    }
    Ok(())
}

/// Loads the file of `c`; an error if it is missing.
fn load(tb: &impl Reader, c: &Position) -> Result<(), TableError> {
    if !tb.load(c.fixed_mask())? {
        return Err(missing(tb, c));
    }
    Ok(())
}

/// The error for the file of `c`, which is missing.
fn missing(tb: &impl Reader, c: &Position) -> TableError {
    let source = std::io::Error::new(
        std::io::ErrorKind::NotFound,
        "missing, and the scores of other tables are derived from it",
    );
    TableError::Io { path: tb.path(c.fixed_mask()), source }
}
