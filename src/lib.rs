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
//! let answer = Answer::from_solution(&solution, &pos, PassRule::Always);
//! assert_eq!((answer.score.value, answer.score.depth), (Value::SelfWin, 12));
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
//! use chaosclock::generate::{Config, Limits, generate};
//! use chaosclock::table::Tablebase;
//! use chaosclock::table::format::Encoding;
//! use chaosclock::{PassRule, Position, Value};
//!
//! let dir = tempfile::tempdir()?;
//! let rule = PassRule::Always;
//! let limits = Limits::default();
//! let cfg = Config { root: dir.path().into(), n: 6, rule, max_live: 6, encoding: Encoding::Scores, limits };
//! let report = generate(&cfg, None)?;
//! assert!(report.files_written > 0);
//!
//! let tb = Tablebase::new(dir.path(), 6, rule);
//! let pos: Position = "2,1,4,3,6,5".parse()?;
//! let answer = Answer::from_tables(&tb, &pos, rule)?;
//! assert_eq!(answer.source, Source::Tables);
//! assert_eq!((answer.score.value, answer.score.depth), (Value::SelfWin, 12));
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
//! assert_eq!(Book::embedded()?.value(&opening, PassRule::Always), Some(Value::SelfWin));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

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
pub mod progress;
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
pub use crate::moves::{
    IllegalMove, Move, MoveList, MoveText, ParseMoveError, ParsePassRuleError, PassRule,
};
pub use crate::notation::{ParsePositionError, last_from_number, last_to_number};
pub use crate::position::{
    Last, MAX_SLOTS, Outcome, Position, PositionError, SUPPORTED_SLOTS, walk_origin, walk_target,
};
pub use crate::render::{Diagram, Dial, hand};
pub use crate::side::{ByPlayer, Side};
pub use crate::value::Value;
pub use crate::variant::Variant;
