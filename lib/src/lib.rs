//! chaosclock: an exact solver and tablebase for the board game Chaos Clock
//! (混乱时钟).
//!
//! The rules are those of `docs/rules.md`:
//! [`Position`] holds a state, [`Position::legal_moves`] and
//! [`Position::play`] implement a ply, [`Position::outcome`] the end of the
//! game, and [`Value`] the five results. An [`answer::Answer`] is what is
//! known of a position: its score, every legal move scored (best first)
//! and a line of best play, from a solve in memory ([`solve`]), from tables
//! ([`table::Tablebase`], made by [`generate`]) or, for an opening, from
//! the openings book ([`book`]).
//!
//! # What the library offers
//!
//! - The game, at the crate root: [`Position`] (with [`Position::legal_moves`],
//!   [`Position::play`], [`Position::outcome`] and the interchange notation
//!   through `FromStr`/`Display`), [`Move`], [`PassRule`], [`Variant`],
//!   [`Side`], [`Value`] and [`Score`]; [`parse_cfg`] reads a
//!   `chaosclock.cfg`, [`Dial`] and [`Diagram`] draw a position as text.
//! - Answers: [`answer::Answer`] from any source; [`solve`] (in memory),
//!   [`probe`] (tables alone), [`book::Book`] (openings) and
//!   [`scored`] (the legal moves of a position scored by any of them).
//! - Tables: [`Tables`] opens every size and rule under a tables
//!   root once and answers `value`, `score` and `best_move` through
//!   `&self`; [`table::Tablebase`] is one size and rule of them, with
//!   [`table::TableError`]; [`generate`] makes them and [`verify`]
//!   checks them. Their byte format is private (docs/tables.md describes
//!   it); [`table::Encoding`], [`table::dir_name`] and [`table::file_name`]
//!   name what a run writes and where.
//! - Around them: [`review`] (a game judged move by move), [`draw`] (every
//!   opening, or a seeded random order) and [`progress::Progress`], through
//!   which long calls report how far they have come.
//!
//! Everything else is private. No public function panics, on any input,
//! and none answers for another rule, size or position than the one asked
//! (a [`solve::Solution`] knows its [`Variant`]).
//!
//! # Cargo features
//!
//! - `book` (default): the openings book compiled in
//!   ([`book::Book::embedded`]); without it the built-in book is empty,
//!   and everything else works.
//! - `tooling`: the command line's build tooling (making books, puzzle
//!   sets, tables' internals) and the hidden `internals` module of the
//!   crate's own tests: no part of the API, may change in any release.
//!
//! # Examples
//!
//! Solve a position in memory. `2,1,4,3,6,5` is a 6-slot opening, 乙 to
//! move: 乙 can force its own win in 12 plies, with four best moves.
//!
//! ```
//! use chaosclock::answer::Answer;
//! use chaosclock::solve::solve;
//! use chaosclock::{PassRule, Position, Value};
//!
//! let pos: Position = "2,1,4,3,6,5".parse()?;
//! let solution = solve(&pos, PassRule::Always, None);
//! let answer = Answer::from_solution(&solution, &pos, PassRule::Always)?;
//! assert_eq!((answer.score.value, answer.score.depth()), (Value::SelfWin, Some(12)));
//! let best: Vec<String> =
//!     answer.moves.iter().filter(|m| answer.is_best(m)).map(|m| m.mv.to_string()).collect();
//! assert_eq!(best, ["2", "4", "6", "5"]);
//! assert_eq!(answer.line.len(), 12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Generate the complete 6-slot tables in a directory, then answer from
//! them: the same answer, now read from the files. A [`table::Tablebase`]
//! opens each file when first needed and may be shared by many threads.
//!
//! ```
//! use chaosclock::answer::{Answer, Source};
//! use chaosclock::generate::{Config, generate};
//! use chaosclock::table::Tablebase;
//! use chaosclock::table::Encoding;
//! use chaosclock::{PassRule, Position, Value};
//!
//! let dir = tempfile::tempdir()?;
//! let rule = PassRule::Always;
//! let cfg = Config::new(dir.path(), 6, rule).with_encoding(Encoding::Scores);
//! let report = generate(&cfg, None)?;
//! assert!(report.files_written > 0);
//!
//! let tb = Tablebase::new(dir.path(), 6, rule);
//! let pos: Position = "2,1,4,3,6,5".parse()?;
//! let answer = Answer::from_tables(&tb, &pos, rule)?;
//! assert_eq!(answer.source, Source::Tables);
//! assert_eq!((answer.score.value, answer.score.depth()), (Value::SelfWin, Some(12)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The value of any opening of 4 to 12 slots from the openings book
//! compiled into the library, at once:
//!
//! ```
//! use chaosclock::book::Book;
//! use chaosclock::{PassRule, Position, Value};
//!
//! let opening: Position = "2,1,4,3,6,5".parse()?;
//! assert_eq!(Book::embedded()?.value(&opening, PassRule::Always), Ok(Value::SelfWin));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs, missing_debug_implementations)]
#![deny(unsafe_code)]
// A public item's types can be named from outside (issue 24).
#![warn(unnameable_types)]
// Without the build tooling (cargo feature `tooling`) its helpers are
// unused; the full build (the command line's) lints them.
#![cfg_attr(not(feature = "tooling"), allow(dead_code, unused_imports, unnameable_types))]

/// A method public only with the cargo feature `tooling` (for the
/// `chaosclock` command and the crate's tests, hidden from the docs), and
/// `pub(crate)` otherwise: a default build's API has no hidden items.
macro_rules! tooling_pub {
    ($(#[$attr:meta])* fn $($rest:tt)*) => {
        #[cfg(feature = "tooling")]
        #[doc(hidden)]
        $(#[$attr])*
        pub fn $($rest)*

        #[cfg(not(feature = "tooling"))]
        $(#[$attr])*
        pub(crate) fn $($rest)*
    };
}

pub mod answer;
pub mod book;
mod desktop_cfg;
pub mod draw;
pub mod engine;
mod escape;
pub mod generate;
mod index;
mod input;
#[cfg(feature = "tooling")]
#[doc(hidden)]
pub mod internals;
mod moves;
mod notation;
pub mod policy;
mod position;
pub mod probe;
pub mod progress;
pub mod puzzle;
mod random;
pub mod record;
mod render;
pub mod report;
pub mod review;
mod score;
pub mod scored;
mod side;
mod signature;
pub mod solve;
mod summary;
mod symmetry;
pub mod table;
mod tables;
mod value;
mod variant;
pub mod verify;

pub use crate::desktop_cfg::{CfgError, parse_cfg};
pub use crate::escape::escape_control;
pub use crate::input::{InputError, PositionText, read_position};
pub use crate::moves::{
    IllegalMove, Move, MoveError, MoveList, MoveText, ParseMoveError, ParsePassRuleError, PassRule,
};
pub use crate::notation::{ParsePositionError, last_from_number, last_to_number};
pub(crate) use crate::position::walk_origin;
pub use crate::position::{Last, MAX_SLOTS, Outcome, Position, PositionError, SUPPORTED_SLOTS};
pub use crate::render::{Diagram, Dial, hand};
pub use crate::score::Score;
pub use crate::side::{ByPlayer, Side};
pub use crate::solve::builder::Solve;
pub use crate::tables::Tables;
pub use crate::value::Value;
pub use crate::variant::Variant;

/// The README's example, run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
