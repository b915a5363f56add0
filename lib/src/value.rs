//! The five results a state can have (docs/rules.md, "The five results").

use std::fmt;

/// The value of a state from the side to move's view.
///
/// Invariant: the order a side prefers is
/// `SelfWin > BothWin > BothLose > NoResult > SelfLose`, which is *not* the
/// order of the codes; use [`Value::rank`] (or `Ord`) to compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    /// 0 无果: nobody can force a win and no end is reachable.
    NoResult = 0,
    /// 1 己输: the opponent can force its win.
    SelfLose = 1,
    /// 2 同输: both-lose (two passes) is the best reachable end.
    BothLose = 2,
    /// 3 共赢: both-win is reachable and nobody can force a win.
    BothWin = 3,
    /// 4 己赢: the side to move can force its own win.
    SelfWin = 4,
}

impl Value {
    /// All values by code.
    pub const ALL: [Value; 5] =
        [Value::NoResult, Value::SelfLose, Value::BothLose, Value::BothWin, Value::SelfWin];

    /// The code stored in tables and printed in JSON (0..=4).
    #[inline]
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The value with this code.
    #[inline]
    pub fn from_code(code: u8) -> Option<Value> {
        Value::ALL.get(code as usize).copied()
    }

    /// Preference rank: larger is better for the side to move.
    #[inline]
    pub fn rank(self) -> u8 {
        match self {
            Value::SelfLose => 0,
            Value::NoResult => 1,
            Value::BothLose => 2,
            Value::BothWin => 3,
            Value::SelfWin => 4,
        }
    }

    /// The same outcome seen by the other side: self-win and self-lose swap.
    #[inline]
    pub fn flip(self) -> Value {
        match self {
            Value::SelfWin => Value::SelfLose,
            Value::SelfLose => Value::SelfWin,
            v => v,
        }
    }

    /// The English label used in JSON: `self-win`, `both-win`, ...
    pub fn label(self) -> &'static str {
        match self {
            Value::NoResult => "no-result",
            Value::SelfLose => "self-lose",
            Value::BothLose => "both-lose",
            Value::BothWin => "both-win",
            Value::SelfWin => "self-win",
        }
    }

    /// The Chinese label: 己赢, 共赢, 同输, 己输, 无果.
    pub fn chinese(self) -> &'static str {
        match self {
            Value::NoResult => "无果",
            Value::SelfLose => "己输",
            Value::BothLose => "同输",
            Value::BothWin => "共赢",
            Value::SelfWin => "己赢",
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    /// Preference order (see the type's invariant).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.code(), self.chinese(), self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_and_flip() {
        let mut v = Value::ALL.to_vec();
        v.sort();
        assert_eq!(
            v,
            [Value::SelfLose, Value::NoResult, Value::BothLose, Value::BothWin, Value::SelfWin]
        );
        for x in Value::ALL {
            assert_eq!(x.flip().flip(), x);
            assert_eq!(Value::from_code(x.code()), Some(x));
        }
        assert_eq!(Value::from_code(5), None);
    }
}
