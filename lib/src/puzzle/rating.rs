//! Rating a puzzle from how often engines of each level solve it
//! (docs/puzzles.md, "Ratings").
//!
//! Each level 1 to 7 tries the puzzle [`ATTEMPTS`] times (seeded), level 8
//! once ([`rate_line`]): it
//! solves it when it plays every one of the solver's only moves, the
//! opponent replying as the line says. Level `k` has the rating
//! `ratings[k − 1]` of the board size's [`LevelRatings`] ([`level_ratings`]:
//! the fitted ratings of that size's round robin in docs/levels.md, so
//! that a level's rating means the same strength on each size).
//! The puzzle's rating r is the one under which the Elo curve
//! `P(solve) = 1 / (1 + 10^((r − R_k) / 400))` explains the attempts best
//! (maximum likelihood, with one solve and one miss at 1500 as a weak
//! prior so that a puzzle every level solves, or none, gets a finite
//! rating): a player of rating r solves it half the time.

use crate::engine::{Engine, Level};
use crate::moves::Move;
use crate::position::Position;
use crate::scored::{ScoreSource, ScoredMove, scored_moves};

/// Attempts per level.
pub const ATTEMPTS: u32 = 8;

/// The ratings of the levels 1 to 8 on one board size, and the match
/// they were fitted from.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct LevelRatings {
    /// The board size these ratings rate puzzles of.
    pub slots: u8,
    /// The rating of level k at index k − 1 (level 1 anchored at 800).
    pub ratings: [f64; 8],
    /// Where they come from: the match command, its seed and date.
    pub source: &'static str,
}

/// The levels' ratings per board size (docs/levels.md, docs/puzzles.md
/// "Ratings").
pub const LEVEL_RATINGS: [LevelRatings; 3] = [
    LevelRatings {
        slots: 8,
        ratings: [800.0, 851.0, 903.0, 965.0, 1052.0, 1167.0, 1234.0, 1354.0],
        source: "chaosclock match --slots 8 --openings 200 (seed 1), 2026-12-06",
    },
    LevelRatings {
        slots: 10,
        ratings: [800.0, 858.0, 918.0, 969.0, 1036.0, 1161.0, 1226.0, 1395.0],
        source: "chaosclock match --slots 10 --openings 150 (seed 1), 2026-12-06",
    },
    LevelRatings {
        slots: 12,
        ratings: [800.0, 850.0, 897.0, 957.0, 1029.0, 1154.0, 1236.0, 1421.0],
        source: "chaosclock match --slots 12 --openings 256 (seed 1), 2026-12-06",
    },
];

/// The levels' ratings with which puzzles of `slots` slots are rated: those
/// of the same size, else of the largest size below it that has them (the
/// smallest size for smaller boards).
pub fn level_ratings(slots: u8) -> &'static LevelRatings {
    LEVEL_RATINGS.iter().rev().find(|r| r.slots <= slots).unwrap_or(&LEVEL_RATINGS[0])
}

/// A rating and its standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Rated {
    /// The rating.
    pub rating: f64,
    /// Its standard error.
    pub deviation: f64,
}

impl Rated {
    /// The rating and deviation as a set stores them: rounded, the rating
    /// clamped to 500..2500.
    pub fn stored(&self) -> (u16, u16) {
        (
            self.rating.round().clamp(500.0, 2500.0) as u16,
            self.deviation.round().clamp(0.0, 4000.0) as u16,
        )
    }
}

/// The rating of the puzzle that starts at `start` with the solution
/// `line`, its moves scored by `source`: each level's attempts (seeded from
/// `key`, the start's canonical key) rated on the levels' ratings of its
/// board size ([`level_ratings`]).
///
/// # Errors
/// `source` does not know a solver position of the line.
pub fn rate_line<S: ScoreSource + ?Sized>(
    source: &S,
    start: &Position,
    line: &[Move],
    key: u64,
) -> Result<Rated, S::Error> {
    // The solver's positions with their moves.
    let mut steps = Vec::new();
    let mut pos = *start;
    for &m in line {
        if pos.side() == start.side() {
            steps.push((pos, scored_moves(source, &pos)?, m));
        }
        pos = pos.play_unchecked(m);
    }
    let n = start.slots();
    let mut tries = [ATTEMPTS; 8];
    tries[7] = 1;
    let mut solved = [0u32; 8];
    for level in Level::all() {
        let k = usize::from(level.get() - 1);
        for t in 0..u64::from(tries[k]) {
            let seed = key ^ t.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(n) << 60;
            solved[k] += u32::from(attempt(level, seed, &steps));
        }
    }
    Ok(rate(level_ratings(n), &tries, &solved))
}

/// Whether an engine of `level` seeded with `seed` solves a puzzle whose
/// solver steps are `steps`: each solver position with its scored moves
/// and the only move.
pub fn attempt(level: Level, seed: u64, steps: &[(Position, Vec<ScoredMove>, Move)]) -> bool {
    let mut engine = Engine::new(level, seed);
    steps.iter().all(|(pos, moves, only)| engine.choose(pos, moves) == Some(*only))
}

/// The rating explaining `solved[k]` solves out of `tries[k]` attempts by
/// level k + 1, rated `levels.ratings[k]` (see the module docs).
pub fn rate(levels: &LevelRatings, tries: &[u32; 8], solved: &[u32; 8]) -> Rated {
    const C: f64 = std::f64::consts::LN_10 / 400.0;
    let p = |r: f64, rk: f64| 1.0 / (1.0 + 10f64.powf((r - rk) / 400.0));
    // The prior: one solve and one miss against 1500.
    let observations = || {
        levels
            .ratings
            .iter()
            .zip(tries.iter().zip(solved))
            .map(|(&rk, (&t, &s))| (rk, f64::from(t), f64::from(s)))
            .chain(std::iter::once((1500.0, 2.0, 1.0)))
    };
    // d(log-likelihood)/dr ∝ Σ (t·P − s), increasing in r ... decreasing:
    // P falls as r grows, so the root is found by bisection.
    let slope = |r: f64| observations().map(|(rk, t, s)| t * p(r, rk) - s).sum::<f64>();
    let (mut lo, mut hi) = (-1000.0, 4000.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if slope(mid) > 0.0 { lo = mid } else { hi = mid }
    }
    let rating = 0.5 * (lo + hi);
    let info: f64 =
        observations().map(|(rk, t, _)| t * p(rating, rk) * (1.0 - p(rating, rk))).sum();
    Rated { rating, deviation: 1.0 / (C * info.sqrt()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn harder_puzzles_rate_higher() {
        let tries = [ATTEMPTS; 8];
        let levels = level_ratings(8);
        let rate = |solved: &[u32; 8]| rate(levels, &tries, solved);
        let easy = rate(&[8, 8, 8, 8, 8, 8, 8, 8]);
        let mid = rate(&[0, 1, 2, 4, 6, 7, 8, 8]);
        let hard = rate(&[0, 0, 0, 0, 0, 0, 1, 8]);
        assert!(easy.rating < mid.rating && mid.rating < hard.rating, "{easy:?} {mid:?} {hard:?}");
        // Half the attempts of level 4 (rated 960) solved: about 960.
        let half = rate(&[0, 0, 0, 4, 8, 8, 8, 8]);
        assert!((half.rating - 960.0).abs() < 100.0, "{half:?}");
    }

    #[test]
    fn each_size_has_its_levels_ratings() {
        assert_eq!(level_ratings(8).slots, 8);
        assert_eq!(level_ratings(10).slots, 10);
        assert_eq!(level_ratings(12).slots, 12);
        assert_eq!(level_ratings(9).slots, 8);
        assert_eq!(level_ratings(4).slots, 8);
        for r in &LEVEL_RATINGS {
            assert_eq!(r.ratings[0], 800.0, "{r:?}");
            assert!(r.ratings.windows(2).all(|w| w[0] < w[1]), "{r:?}");
            assert!(r.source.contains("chaosclock match --slots"), "{r:?}");
        }
        // The same attempts rate lower where the levels are rated lower.
        let tries = [ATTEMPTS; 8];
        let solved = [0, 0, 0, 0, 0, 0, 0, 1];
        assert!(
            rate(level_ratings(8), &tries, &solved).rating
                < rate(level_ratings(10), &tries, &solved).rating
        );
    }
}
