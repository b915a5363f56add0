//! The game a position is played under: the board size and the pass rule.
//! Both travel together wherever a whole game is solved, so they are one
//! value.

use crate::moves::PassRule;

/// A board size (4, 6, 8, 10 or 12 slots) and a pass rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Number of slots (and pieces).
    pub slots: u8,
    /// When a side may pass.
    pub rule: PassRule,
}

impl Variant {
    /// The game of `slots` slots under `rule`.
    pub fn new(slots: u8, rule: PassRule) -> Variant {
        Variant { slots, rule }
    }
}
