//! chaosclock: an exact solver and tablebase for the board game Chaos Clock
//! (混乱时钟).
//!
//! The rules are those of `docs/rules.md`:
//! [`Position`] holds a state, [`Position::legal_moves`] and
//! [`Position::play`] implement a ply, [`Position::outcome`] the end of the
//! game, and [`Value`] the five results.

#![warn(missing_docs, missing_debug_implementations)]
#![deny(unsafe_code)]

pub mod answer;
pub mod book;
mod desktop_cfg;
pub mod draw;
mod escape;
pub mod generate;
pub mod index;
mod moves;
mod notation;
mod position;
pub mod probe;
pub mod random;
mod render;
pub mod review;
pub mod score;
pub mod scored;
mod side;
pub mod signature;
pub mod solve;
pub mod summary;
pub mod symmetry;
pub mod table;
mod value;
mod variant;
pub mod verify;

pub use crate::desktop_cfg::{CfgError, parse_cfg};
pub use crate::escape::escape_control;
pub use crate::moves::{IllegalMove, Move, MoveList, MoveText, ParseMoveError, PassRule};
pub use crate::notation::{ParsePositionError, last_from_number, last_to_number};
pub use crate::position::{
    Last, MAX_SLOTS, Outcome, Position, PositionError, SUPPORTED_SLOTS, walk_origin, walk_target,
};
pub use crate::render::{Diagram, Dial, hand};
pub use crate::side::{ByPlayer, Side};
pub use crate::value::Value;
pub use crate::variant::Variant;
