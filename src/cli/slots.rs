//! Board sizes and `--max-live`: [`Slots`], a board size the game has,
//! and [`MaxLive`], at most the pieces of a board of that size. Each is
//! checked here only, with one message: `--slots` by its clap parser
//! ([`slots_parser`]), the message being the library's
//! ([`PositionError::UnsupportedSlots`]); `--max-live` against the size
//! once the size is known ([`MaxLive::new`]).

use std::fmt;

use anyhow::{Result, bail};
use chaosclock::{PositionError, SUPPORTED_SLOTS};
use clap::builder::TypedValueParser;

/// A board size the game has: 4, 6, 8, 10 or 12 slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slots(u8);

impl Slots {
    /// The standard game, the board size of `generate` without `--slots`.
    pub const STANDARD: Slots = Slots(12);

    /// The number of slots.
    pub fn get(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for Slots {
    type Error = PositionError;

    /// # Errors
    /// `n` is not a size of [`SUPPORTED_SLOTS`].
    fn try_from(n: u8) -> Result<Slots, PositionError> {
        if SUPPORTED_SLOTS.contains(&n) {
            Ok(Slots(n))
        } else {
            Err(PositionError::UnsupportedSlots(n.into()))
        }
    }
}

impl fmt::Display for Slots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// `--slots N`: a number read as clap reads a `u8`, then a [`Slots`].
pub fn slots_parser() -> impl TypedValueParser<Value = Slots> {
    clap::value_parser!(u8).try_map(Slots::try_from)
}

/// The default `--max-live` of `generate`, `verify` and `manifest` for a
/// board of `n` slots: the complete table up to 10 slots, the signatures
/// with at most 6 pieces not fixed for 12 (the complete 12-slot table takes
/// hours, values only).
pub fn default_max_live(n: u8) -> u8 {
    if n <= 10 { n } else { 6 }
}

/// `--max-live K` of a board: the signatures with at most K pieces not
/// fixed, K at most the board's pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaxLive(u8);

impl MaxLive {
    /// `--max-live k` for a board of `slots`, or its default
    /// ([`default_max_live`]) when not given.
    ///
    /// # Errors
    /// `k` is more than the board's pieces.
    pub fn new(k: Option<u8>, slots: Slots) -> Result<MaxLive> {
        let n = slots.get();
        let k = k.unwrap_or(default_max_live(n));
        if k > n {
            bail!("--max-live {k} is more than the {n} pieces of a {n}-slot board");
        }
        Ok(MaxLive(k))
    }

    /// The number K.
    pub fn get(self) -> u8 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_max_live_are_checked_once() {
        assert_eq!(Slots::try_from(6).map(Slots::get), Ok(6));
        assert_eq!(
            Slots::try_from(7).unwrap_err().to_string(),
            "a board has 4, 6, 8, 10 or 12 slots, not 7"
        );
        let twelve = Slots::STANDARD;
        assert_eq!(MaxLive::new(None, twelve).unwrap().get(), 6);
        assert_eq!(MaxLive::new(None, Slots(8)).unwrap().get(), 8);
        assert_eq!(
            MaxLive::new(Some(9), Slots(8)).unwrap_err().to_string(),
            "--max-live 9 is more than the 8 pieces of a 8-slot board"
        );
    }
}
