//! A value with its depth, and the order in which a side prefers them.

use std::cmp::Ordering;
use std::fmt;

use crate::value::Value;

/// The value of a state (from the side to move's view) and its depth: the
/// number of plies to the end of the game under best play
/// ([`Score::depth`]), which a source of values only (the openings book,
/// tables of values only) does not know.
///
/// Invariant (the preference order used everywhere): a higher
/// [`Value::rank`] is better; among equal values a smaller depth is better,
/// except for [`Value::SelfLose`], where the loser prefers to last longer.
/// [`Value::NoResult`] has no end and no depth.
///
/// # Examples
///
/// ```
/// use chaosclock::{Score, Value};
///
/// let known = Score::new(Value::BothWin, 7).ok_or("a depth a score can have")?;
/// assert_eq!((known.depth(), known.to_string()), (Some(7), format!("{} in 7", Value::BothWin)));
/// // The openings book knows values only: no depth, and none printed.
/// let book = Score::value_only(Value::BothWin);
/// assert_eq!((book.depth(), book.to_string()), (None, Value::BothWin.to_string()));
/// # Ok::<(), &str>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Score {
    /// The value.
    pub value: Value,
    /// Plies to the end; 0 for a finished game and for no-result,
    /// [`UNKNOWN_DEPTH`] when not known (read it through [`Score::depth`]
    /// outside this crate's solver and tables, which know every depth).
    pub(crate) depth: u16,
}

/// The depth of a [`Score`] whose depth is not known: above every depth a
/// score can have ([`Score::MAX_DEPTH`]), so that [`Score::from_child`]
/// keeps it unknown.
pub(crate) const UNKNOWN_DEPTH: u16 = u16::MAX;

impl Score {
    /// The deepest depth a score can have (what the tables' records store).
    pub const MAX_DEPTH: u16 = (1 << 13) - 1;

    /// The score of `value` in `depth` plies; `None` for a depth over
    /// [`Score::MAX_DEPTH`], or a depth other than 0 for
    /// [`Value::NoResult`], which has none.
    pub const fn new(value: Value, depth: u16) -> Option<Score> {
        if depth > Score::MAX_DEPTH || matches!(value, Value::NoResult) && depth != 0 {
            return None;
        }
        Some(Score { value, depth })
    }

    /// `value` with its depth unknown (the openings book's answers and
    /// those of tables of values only); [`Value::NoResult`] has no depth
    /// anyway.
    pub const fn value_only(value: Value) -> Score {
        let depth = if matches!(value, Value::NoResult) { 0 } else { UNKNOWN_DEPTH };
        Score { value, depth }
    }

    /// A finished game's score (depth 0).
    pub const fn terminal(value: Value) -> Score {
        Score { value, depth: 0 }
    }

    /// Plies to the end under best play (0 for a finished game); `None`
    /// when not known ([`Score::value_only`]) and for no-result, which has
    /// no end.
    pub const fn depth(self) -> Option<u16> {
        if self.depth == UNKNOWN_DEPTH || matches!(self.value, Value::NoResult) {
            None
        } else {
            Some(self.depth)
        }
    }

    /// Whether the depth is known (or the value is no-result, which has
    /// none): false only for [`Score::value_only`] scores.
    pub const fn has_depth(self) -> bool {
        self.depth != UNKNOWN_DEPTH
    }

    /// The score a move earns the mover when it leads to a state scored
    /// `child`; `same_side` is true when the mover moves again (an extra
    /// move), so the child's view is the mover's own. An unknown depth
    /// stays unknown.
    #[inline]
    pub fn from_child(child: Score, same_side: bool) -> Score {
        let value = if same_side { child.value } else { child.value.flip() };
        let depth = if value == Value::NoResult { 0 } else { child.depth.saturating_add(1) };
        Score { value, depth }
    }

    /// The score a child must have for the move to it to earn the mover
    /// `self` (the inverse of [`Score::from_child`]); `None` when none
    /// does, or many (no-result, whatever the child's depth; an unknown
    /// depth).
    #[inline]
    pub fn to_child(self, same_side: bool) -> Option<Score> {
        if self.value == Value::NoResult || self.depth == UNKNOWN_DEPTH {
            return None;
        }
        let value = if same_side { self.value } else { self.value.flip() };
        let child = Score { value, depth: self.depth.checked_sub(1)? };
        (Score::from_child(child, same_side) == self).then_some(child)
    }

    /// Packs into 16 bits: value in the top 3, depth (at most 8191) below.
    #[inline]
    pub(crate) fn pack(self) -> u16 {
        debug_assert!(self.depth < 1 << 13, "depth {} does not fit", self.depth);
        u16::from(self.value.code()) << 13 | self.depth.min((1 << 13) - 1)
    }

    /// The inverse of [`Score::pack`] (`None` for the codes 5..=7).
    #[inline]
    pub(crate) fn unpack(bits: u16) -> Option<Score> {
        Value::from_code((bits >> 13) as u8).map(|value| Score { value, depth: bits & 0x1fff })
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Score {
    /// Preference order; see the type's invariant.
    fn cmp(&self, other: &Self) -> Ordering {
        self.value.cmp(&other.value).then_with(|| match self.value {
            Value::SelfLose => self.depth.cmp(&other.depth),
            _ => other.depth.cmp(&self.depth),
        })
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.depth() {
            Some(depth) => write!(f, "{} in {}", self.value, depth),
            None => write!(f, "{}", self.value),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preference() {
        let s = |v, d| Score { value: v, depth: d };
        assert!(s(Value::SelfWin, 9) > s(Value::BothWin, 1));
        assert!(s(Value::SelfWin, 3) > s(Value::SelfWin, 5));
        assert!(s(Value::SelfLose, 7) > s(Value::SelfLose, 3));
        assert!(s(Value::NoResult, 0) > s(Value::SelfLose, 99));
        assert!(s(Value::BothLose, 2) > s(Value::NoResult, 0));
        assert_eq!(Score::from_child(s(Value::SelfWin, 4), false), s(Value::SelfLose, 5));
        assert_eq!(Score::from_child(s(Value::SelfWin, 4), true), s(Value::SelfWin, 5));
        assert_eq!(Score::unpack(s(Value::BothWin, 77).pack()), Some(s(Value::BothWin, 77)));
    }

    #[test]
    fn to_child_inverts_from_child() {
        let values = [Value::SelfWin, Value::BothWin, Value::BothLose, Value::SelfLose];
        for same_side in [false, true] {
            for value in values {
                for depth in 0..300 {
                    let child = Score { value, depth };
                    let score = Score::from_child(child, same_side);
                    assert_eq!(score.to_child(same_side), Some(child), "{child:?} {same_side}");
                }
                // A depth no move gives (0: a finished game).
                assert_eq!(Score { value, depth: 0 }.to_child(same_side), None);
            }
            // No-result comes from a child of any depth.
            assert_eq!(Score::terminal(Value::NoResult).to_child(same_side), None);
        }
    }

    /// An unknown depth stays unknown through a move, and never prints as
    /// a number (issue 67: a book answer read "共赢 in 0").
    #[test]
    fn unknown_depths_stay_unknown() {
        for value in [Value::SelfWin, Value::BothWin, Value::BothLose, Value::SelfLose] {
            let s = Score::value_only(value);
            assert_eq!((s.depth(), s.has_depth()), (None, false));
            assert_eq!(s.to_string(), value.to_string());
            for same_side in [false, true] {
                let moved = Score::from_child(s, same_side);
                assert_eq!((moved.depth(), moved.has_depth()), (None, false));
                assert_eq!(s.to_child(same_side), None);
            }
            assert_eq!(Score::new(value, 0).map(Score::depth), Some(Some(0)));
            assert_eq!(Score::new(value, Score::MAX_DEPTH + 1), None);
        }
        let none = Score::value_only(Value::NoResult);
        assert_eq!((none, none.depth()), (Score::terminal(Value::NoResult), None));
        assert_eq!(Score::new(Value::NoResult, 3), None);
        assert_eq!(Score::terminal(Value::SelfWin).to_string(), format!("{} in 0", Value::SelfWin));
    }
}
