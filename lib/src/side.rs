//! The two sides: 甲 (Jia) owns the odd pieces, 乙 (Yi) the even ones.

use std::fmt;

/// One of the two players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// 甲, owner of the odd pieces; written `0` in the interchange format.
    Jia,
    /// 乙, owner of the even pieces, who moves first; written `1`.
    Yi,
}

impl Side {
    /// Both sides, 甲 first.
    pub const ALL: [Side; 2] = [Side::Jia, Side::Yi];

    /// The owner of `piece` (odd pieces are 甲's, even pieces 乙's).
    #[inline]
    pub(crate) fn owner_of(piece: u8) -> Side {
        if piece % 2 == 1 { Side::Jia } else { Side::Yi }
    }

    /// The side to move of table node `node` (board rank × 2 + side
    /// index, [`Side::index`]).
    #[inline]
    pub(crate) fn of_node(node: u64) -> Side {
        if node.is_multiple_of(2) { Side::Jia } else { Side::Yi }
    }

    /// The opponent.
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::Jia => Side::Yi,
            Side::Yi => Side::Jia,
        }
    }

    /// Bit mask (bit p for piece p) of this side's pieces on an `n`-slot board.
    #[inline]
    pub(crate) fn pieces_mask(self, n: u8) -> u16 {
        let all: u16 = ((1u32 << (n + 1)) - 2) as u16;
        match self {
            Side::Jia => all & 0xAAAA,
            Side::Yi => all & 0x5554,
        }
    }

    /// Index 0 for 甲, 1 for 乙 (the interchange format's side number).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The lowercase ASCII name used in JSON (`"jia"` or `"yi"`).
    pub fn name(self) -> &'static str {
        match self {
            Side::Jia => "jia",
            Side::Yi => "yi",
        }
    }

    /// The Chinese name with its colour, for people (`甲 (odd)`).
    pub fn label(self) -> &'static str {
        match self {
            Side::Jia => "甲 (odd)",
            Side::Yi => "乙 (even)",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A value for each side, indexed by [`Side`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ByPlayer<T> {
    /// 甲's value.
    pub jia: T,
    /// 乙's value.
    pub yi: T,
}

impl<T> ByPlayer<T> {
    /// The value of `side`.
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::Jia => &self.jia,
            Side::Yi => &self.yi,
        }
    }

    /// The value of `side`, mutably.
    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Jia => &mut self.jia,
            Side::Yi => &mut self.yi,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_split_the_pieces() {
        assert_eq!(Side::Jia.pieces_mask(4), 0b01010);
        assert_eq!(Side::Yi.pieces_mask(4), 0b10100);
        assert_eq!(Side::Jia.pieces_mask(12) | Side::Yi.pieces_mask(12), 0b1_1111_1111_1110);
        assert_eq!(Side::owner_of(11), Side::Jia);
        assert_eq!(Side::owner_of(12), Side::Yi);
    }
}
