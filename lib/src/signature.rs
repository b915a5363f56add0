//! Signatures (docs/architecture.md): the fixed pieces F and the non-fixed pieces on
//! the board B. Every move stays inside its signature or goes to one with
//! a strictly larger [`order_key`].

use crate::position::Position;

/// A signature: the fixed pieces F and the non-fixed pieces on the board
/// B, each a mask (bit p = piece p). Signatures compare as the number
/// `F << 16 | B` (the symmetry's representative of an orbit is its
/// smallest signature in this order, [`crate::symmetry::canonical`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SigKey(u32);

impl SigKey {
    /// A key no signature has (every piece fixed and loose at once), for
    /// empty cache slots.
    pub const NONE: SigKey = SigKey(u32::MAX);

    /// The signature with fixed pieces `fixed` and loose pieces `loose`.
    #[inline]
    pub const fn new(fixed: u16, loose: u16) -> SigKey {
        SigKey((fixed as u32) << 16 | loose as u32)
    }

    /// The fixed pieces.
    #[inline]
    pub const fn fixed(self) -> u16 {
        (self.0 >> 16) as u16
    }

    /// The non-fixed pieces on the board.
    #[inline]
    pub const fn loose(self) -> u16 {
        self.0 as u16
    }

    /// The number `F << 16 | B` (for hashing).
    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }
}

/// As the number `F << 16 | B`, in messages.
impl std::fmt::LowerHex for SigKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::LowerHex::fmt(&self.0, f)
    }
}

/// The signature of a position.
#[inline]
pub fn signature(pos: &Position) -> SigKey {
    let fixed = pos.fixed_mask();
    SigKey::new(fixed, pos.on_board_mask() & !fixed)
}

/// Sort key: (|F|, 16 - |B|). A move that leaves a signature goes to one
/// with a larger key: F grows, or F stays and B shrinks.
#[inline]
pub fn order_key(sig: SigKey) -> (u32, u32) {
    (sig.fixed().count_ones(), 16 - sig.loose().count_ones())
}
