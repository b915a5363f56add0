//! Engines of eight strengths (docs/levels.md). Level 8 is the perfect
//! engine: the first best move by [`Score`](crate::Score)'s order (best value, fastest
//! win, slowest loss). Levels 1 to 7 play as a person who sees the result
//! of a move clearly only when it comes soon, and otherwise judges the
//! position the move leads to by the strategy notes' rules of thumb:
//!
//! - each legal move has its exact score from a
//!   [`ScoreSource`](crate::scored::ScoreSource);
//! - the engine sees a move's exact value in full when the game ends
//!   within its horizon (`depth ≤ horizon` plies, the move included), and
//!   less and less of it beyond, blending in its judgement ([`judge`]) of
//!   the position the move leads to;
//! - from level 4 up, a floor keeps some of the exact value of a move
//!   whose game has an end however far it is: a stronger player senses
//!   a lost line before reading it out;
//! - a little noise, drawn from a seeded generator, stands for the
//!   attention a person pays;
//! - it plays the move that looks best.
//!
//! A higher level has a longer horizon, less noise and a higher floor. Given its seed an
//! engine always plays the same moves ([`Engine::new`]).

mod game;
mod judge;
mod level;

pub use self::game::{Game, GameEnd, GamePly, MAX_PLIES, opening, play_game};
pub use self::judge::judge;
pub use self::level::{Engine, Level};
