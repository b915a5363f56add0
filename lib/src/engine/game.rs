//! A game between two engines: each ply the side to move's engine chooses
//! among the legal moves scored by a [`ScoreSource`], until the game ends
//! or [`MAX_PLIES`] plies are played.

use crate::moves::Move;
use crate::position::{Outcome, Position};
use crate::score::Score;
use crate::scored::{ScoreSource, scored_moves};
use crate::side::Side;

use super::level::Engine;

/// The most plies a game lasts; one that has not ended by then is
/// unfinished (a no-result game can go on forever).
pub const MAX_PLIES: usize = 300;

/// One ply of a game: the position before it, the move, the score the
/// move keeps for its mover and the best score it could have kept.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct GamePly {
    /// The position before the move.
    pub before: Position,
    /// The move played.
    pub mv: Move,
    /// Its exact score for the mover.
    pub played: Score,
    /// The best score of any legal move.
    pub best: Score,
}

impl GamePly {
    /// Whether the move lost value (a mistake, as [`crate::review`] calls
    /// it): a worse value than the best.
    pub fn is_mistake(&self) -> bool {
        self.played.value < self.best.value
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEnd {
    /// By the rules.
    Over(Outcome),
    /// Not within [`MAX_PLIES`] plies.
    Unfinished,
}

/// A game played by engines.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Game {
    /// Where it started.
    pub start: Position,
    /// Every ply, in order.
    pub plies: Vec<GamePly>,
    /// How it ended.
    pub end: GameEnd,
}

/// Plays a game from `start`: `engines[side.index()]` moves for `side`
/// (甲 first, as [`Side::index`]), with the moves scored by `source`.
///
/// # Errors
/// The source does not know a position on the way.
pub fn play_game<S: ScoreSource + ?Sized>(
    source: &S,
    start: Position,
    engines: [&mut Engine; 2],
) -> Result<Game, S::Error> {
    let [jia, yi] = engines;
    let mut plies = Vec::new();
    let mut pos = start;
    loop {
        if let Some(outcome) = pos.outcome() {
            return Ok(Game { start, plies, end: GameEnd::Over(outcome) });
        }
        if plies.len() == MAX_PLIES {
            return Ok(Game { start, plies, end: GameEnd::Unfinished });
        }
        let moves = scored_moves(source, &pos)?;
        let engine = if pos.side() == Side::Jia { &mut *jia } else { &mut *yi };
        let mv = engine.choose(&pos, &moves).expect("a game that goes on has moves");
        let m = moves.iter().find(|m| m.mv == mv).expect("the engine chose among the moves");
        plies.push(GamePly { before: pos, mv, played: m.score, best: moves[0].score });
        pos = m.child;
    }
}

/// An opening of `n` slots drawn by `seed`: with `fair`, the first
/// both-win opening (a fair start, by the openings book) of the seeded
/// order among its first 10,000, else the first opening of the order.
///
/// # Errors
/// [`PositionError::UnsupportedSlots`](crate::PositionError::UnsupportedSlots):
/// `n` is not a supported size.
pub fn opening(n: u8, seed: u64, fair: bool) -> Result<Position, crate::PositionError> {
    let mut draw = crate::draw::Draw::new(n, seed)?;
    let Some(first) = draw.next() else {
        return Err(crate::PositionError::UnsupportedSlots(n.into()));
    };
    if !fair {
        return Ok(first);
    }
    let book = crate::book::Book::embedded()
        .ok()
        .and_then(|b| b.section(n, crate::moves::PassRule::Always));
    let Some(section) = book else { return Ok(first) };
    Ok(std::iter::once(first)
        .chain(draw)
        .take(10_000)
        .find(|o| section.value(o.board()) == Some(crate::value::Value::BothWin))
        .unwrap_or(first))
}
