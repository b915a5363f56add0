//! The game a position is played under: the board size and the pass rule.
//! Both travel together wherever a whole game is solved, so they are one
//! value.

use crate::moves::PassRule;
use crate::position::{Position, PositionError, check_slots};

/// A board size (4, 6, 8, 10 or 12 slots) and a pass rule.
///
/// Made by [`Variant::new`], which checks the size, or by
/// [`Position::variant`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Variant {
    pub(crate) slots: u8,
    pub(crate) rule: PassRule,
}

impl Variant {
    /// The game of `slots` slots under `rule`.
    ///
    /// # Errors
    /// [`PositionError::UnsupportedSlots`]: `slots` is not one of
    /// [`SUPPORTED_SLOTS`](crate::SUPPORTED_SLOTS).
    pub fn new(slots: u8, rule: PassRule) -> Result<Variant, PositionError> {
        Ok(Variant { slots: check_slots(slots)?, rule })
    }

    /// Number of slots (and pieces).
    pub fn slots(self) -> u8 {
        self.slots
    }

    /// When a side may pass.
    pub fn rule(self) -> PassRule {
        self.rule
    }
}

impl Position {
    /// The game this position is played in under `rule`: its size and
    /// `rule`.
    pub fn variant(&self, rule: PassRule) -> Variant {
        Variant { slots: self.slots(), rule }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_supported_sizes() {
        for n in 0..=u8::MAX {
            let made = Variant::new(n, PassRule::Always);
            assert_eq!(made.is_ok(), crate::SUPPORTED_SLOTS.contains(&n), "{n}");
        }
    }
}
