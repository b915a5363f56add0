//! Finding puzzles in games between engines (docs/puzzles.md, "How a set
//! is made").
//!
//! The work comes in *rounds*, numbered from 0, each a pure function of the
//! seed and its number (so rounds run in parallel and a stopped build
//! resumes at the next round): a round draws an opening (even rounds a fair
//! start, a both-win opening by the openings book; odd rounds any
//! opening), solves it once in memory, and plays [`GAMES_PER_ROUND`] games
//! on it between engines of random levels 1 to 7. Every mistake that hands
//! the move to the other side in a puzzle position gives a puzzle, rated
//! by engines' attempts on the scale of the levels' ratings of its board
//! size (`rating.rs`).
//!
//! 12-slot openings cost tens of seconds and GBs to solve, so on 12 slots
//! the engines first play by judgement alone ([`Engine::guess`]) until
//! [`FIXED_12`] pieces are fixed, and the position reached is solved
//! (within [`BuildConfig::budget`] states; one more ply is guessed when it
//! is over): its games are the rest of a game from an opening.

use crate::engine::{Engine, Level, opening, play_game};
use crate::position::Position;
use crate::random::Rng;
use crate::solve::{Solution, solve_bounded};

use super::definition::{Puzzle, RULE, canonical_key, puzzle_id, solution, themes};
use super::rating::rate_line;

/// Games played on each round's solved position.
pub const GAMES_PER_ROUND: u64 = 24;

/// On 12 slots, the pieces fixed before a position is solved.
pub const FIXED_12: u32 = 2;

/// What a build makes.
#[derive(Debug, Clone, Copy)]
pub struct BuildConfig {
    /// The board size.
    pub slots: u8,
    /// The seed: the same seed gives the same set.
    pub seed: u64,
    /// The most states one solve may take (12 slots).
    pub budget: usize,
}

/// What a round found.
#[derive(Debug, Clone, Default)]
pub struct Round {
    /// The puzzles, in the order found (not yet told apart from those of
    /// other rounds).
    pub puzzles: Vec<Puzzle>,
    /// Games played.
    pub games: u64,
    /// States solved.
    pub states: usize,
}

/// Makes the rounds of one build.
#[derive(Debug, Clone, Copy)]
pub struct Builder {
    cfg: BuildConfig,
}

impl Builder {
    /// A builder for `cfg`.
    pub fn new(cfg: BuildConfig) -> Builder {
        Builder { cfg }
    }

    /// The round `round` (see the module docs).
    pub fn round(&self, round: u64) -> Round {
        let mut rng = Rng::new(self.cfg.seed ^ round.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let Ok(opening) = self.opening(round, &mut rng) else { return Round::default() };
        let Some((root, solved)) = self.solve_root(opening, &mut rng) else {
            return Round::default();
        };
        let mut out = Round { states: solved.states(), ..Round::default() };
        for _ in 0..GAMES_PER_ROUND {
            let levels = [1 + rng.below(7) as u8, 1 + rng.below(7) as u8];
            let mut a = Engine::new(Level::new(levels[0]).expect("1..=7"), rng.below(u64::MAX));
            let mut b = Engine::new(Level::new(levels[1]).expect("1..=7"), rng.below(u64::MAX));
            let game =
                play_game(&solved, root, [&mut a, &mut b]).expect("a solution holds its games");
            out.games += 1;
            for ply in game.plies.iter().filter(|p| p.is_mistake()) {
                let start = ply.before.play_unchecked(ply.mv);
                if start.side() == ply.before.side() {
                    continue;
                }
                if let Some(p) = make(&solved, ply.before, ply.mv, start) {
                    out.puzzles.push(p);
                }
            }
        }
        out
    }

    /// The opening of a round: a fair start for even rounds, any
    /// opening for odd ones.
    fn opening(&self, round: u64, rng: &mut Rng) -> Result<Position, crate::PositionError> {
        opening(self.cfg.slots, rng.below(u64::MAX), round.is_multiple_of(2))
    }

    /// The position a round's games start from, solved: the opening, or
    /// on 12 slots the position after guessed plies (module docs).
    fn solve_root(&self, opening: Position, rng: &mut Rng) -> Option<(Position, Solution)> {
        let variant = opening.variant(RULE);
        let mut pos = opening;
        if self.cfg.slots < 12 {
            return Some((pos, solve_bounded(variant, &[pos], None, usize::MAX, None).ok()?));
        }
        let mut a = Engine::new(Level::new(1 + rng.below(7) as u8)?, rng.below(u64::MAX));
        let mut b = Engine::new(Level::new(1 + rng.below(7) as u8)?, rng.below(u64::MAX));
        for _ in 0..200 {
            if pos.outcome().is_some() {
                return None;
            }
            if pos.fixed_mask().count_ones() >= FIXED_12
                && let Ok(s) = solve_bounded(variant, &[pos], None, self.cfg.budget, None)
            {
                return Some((pos, s));
            }
            let engine = if pos.side() == crate::side::Side::Jia { &mut a } else { &mut b };
            pos = pos.play_unchecked(engine.guess(&pos, RULE)?);
        }
        None
    }
}

/// The puzzle after the mistake `mv` in `before` leading to `start`, if
/// `start` is a puzzle position, rated.
fn make(solved: &Solution, before: Position, mv: crate::Move, start: Position) -> Option<Puzzle> {
    let (line, value) = solution(solved, &start).expect("a solution holds its games")?;
    let rated = rate_line(solved, &start, &line, canonical_key(&start)).expect("held");
    let (rating, deviation) = rated.stored();
    Some(Puzzle {
        id: puzzle_id(&start),
        before,
        mistake: mv,
        start,
        themes: themes(&start, &line, value),
        line,
        value,
        rating,
        deviation,
    })
}
