//! Puzzles: positions where one move, and only one, keeps the value, proven
//! by the solver (docs/puzzles.md).
//!
//! A position is a *puzzle position* when the side to move (the solver)
//! has exactly one move that keeps its best value, and that value is
//! 己赢 or 共赢, or 同输 with every other move 己输 ([`only_move`]). A
//! puzzle starts at such a position right after a mistake of the other
//! side, and its line ([`solution`]) is: the only move; then, unless the
//! solver moves again (an extra move after a placement that captured), the
//! opponent's best reply (its best value, then the longest game); and so on
//! while the solver again stands in a puzzle position keeping the same
//! value. It ends after the solver's last only move. Its length is the
//! number of the solver's moves.
//!
//! [`Puzzle`] is one, as a set stores it (`set.rs`, lichess's columns);
//! [`themes`] names what its moves do; `rating.rs` rates it from how often
//! engines of each level solve it; `build.rs` finds them in engine games.

mod build;
mod definition;
mod rating;
mod select;
mod set;

#[cfg(feature = "tooling")]
pub use self::build::{BuildConfig, Builder, Round};
pub use self::definition::{
    MAX_LENGTH, ParseThemeError, Puzzle, PuzzleMismatch, RULE, Theme, board_key, canonical_key,
    check, is_forced, only_move, puzzle_id, solution, themes,
};
pub use self::rating::{
    ATTEMPTS, LEVEL_RATINGS, LevelRatings, Rated, attempt, level_ratings, rate, rate_line,
};
pub use self::select::{CLOSING_SHARE, ONE_MOVE_SHARE, check_set, is_closing_pass, median, select};
pub use self::set::{CSV_HEADER, ParsePuzzleError, embedded, parse_csv, pick};
