//! Rating a puzzle from how often engines of each level solve it
//! (docs/puzzles.md, "Ratings").
//!
//! Each level 1 to 7 tries the puzzle [`ATTEMPTS`] times (seeded): it
//! solves it when it plays every one of the solver's only moves, the
//! opponent replying as the line says. Level `k` has the rating
//! [`LEVEL_RATINGS`]`[k − 1]` (from the 8-slot match of docs/levels.md).
//! The puzzle's rating r is the one under which the Elo curve
//! `P(solve) = 1 / (1 + 10^((r − R_k) / 400))` explains the attempts best
//! (maximum likelihood, with one solve and one miss at 1500 as a weak
//! prior so that a puzzle every level solves, or none, gets a finite
//! rating): a player of rating r solves it half the time.

use crate::engine::{Engine, Level};
use crate::moves::Move;
use crate::position::Position;
use crate::scored::ScoredMove;

/// Attempts per level.
pub const ATTEMPTS: u32 = 8;

/// The rating of each level 1 to 8: the fitted ratings of the 8-slot
/// round robin of docs/levels.md (`match --slots 8 --openings 100`, level
/// 1 anchored at 800).
pub const LEVEL_RATINGS: [f64; 8] = [800.0, 856.0, 905.0, 970.0, 1046.0, 1159.0, 1210.0, 1375.0];

/// A rating and its standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rated {
    /// The rating.
    pub rating: f64,
    /// Its standard error.
    pub deviation: f64,
}

/// Whether an engine of `level` seeded with `seed` solves a puzzle whose
/// solver steps are `steps`: each solver position with its scored moves
/// and the only move.
pub fn attempt(level: Level, seed: u64, steps: &[(Position, Vec<ScoredMove>, Move)]) -> bool {
    let mut engine = Engine::new(level, seed);
    steps.iter().all(|(pos, moves, only)| engine.choose(pos, moves) == Some(*only))
}

/// The rating explaining `solved[k]` solves out of `tries[k]` attempts by
/// level k + 1 (see the module docs).
pub fn rate(tries: &[u32; 8], solved: &[u32; 8]) -> Rated {
    const C: f64 = std::f64::consts::LN_10 / 400.0;
    let p = |r: f64, rk: f64| 1.0 / (1.0 + 10f64.powf((r - rk) / 400.0));
    // The prior: one solve and one miss against 1500.
    let observations = || {
        LEVEL_RATINGS
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
        let easy = rate(&tries, &[8, 8, 8, 8, 8, 8, 8, 8]);
        let mid = rate(&tries, &[0, 1, 2, 4, 6, 7, 8, 8]);
        let hard = rate(&tries, &[0, 0, 0, 0, 0, 0, 1, 8]);
        assert!(easy.rating < mid.rating && mid.rating < hard.rating, "{easy:?} {mid:?} {hard:?}");
        // Half the attempts of level 4 (rated 950) solved: about 950.
        let half = rate(&tries, &[0, 0, 0, 4, 8, 8, 8, 8]);
        assert!((half.rating - 950.0).abs() < 100.0, "{half:?}");
    }
}
