//! Signatures (docs/architecture.md): the fixed pieces F and the non-fixed pieces on
//! the board B. Every move stays inside its signature or goes to one with
//! a strictly larger [`order_key`].

use crate::position::Position;

/// A signature packed as `F << 16 | B` (bit p = piece p).
pub type SigKey = u32;

/// The signature of a position.
#[inline]
pub fn signature(pos: &Position) -> SigKey {
    let fixed = pos.fixed_mask();
    (u32::from(fixed) << 16) | u32::from(pos.on_board_mask() & !fixed)
}

/// The fixed pieces of a signature.
#[inline]
pub fn fixed(sig: SigKey) -> u16 {
    (sig >> 16) as u16
}

/// The non-fixed pieces on the board of a signature.
#[inline]
pub fn loose(sig: SigKey) -> u16 {
    sig as u16
}

/// Builds a signature from its two masks.
#[inline]
pub fn make(fixed: u16, loose: u16) -> SigKey {
    u32::from(fixed) << 16 | u32::from(loose)
}

/// Sort key: (|F|, 16 - |B|). A move that leaves a signature goes to one
/// with a larger key: F grows, or F stays and B shrinks.
#[inline]
pub fn order_key(sig: SigKey) -> (u32, u32) {
    (fixed(sig).count_ones(), 16 - loose(sig).count_ones())
}
