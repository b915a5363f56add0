//! A level and the engine that plays at it: its horizon, fade and noise,
//! and how it chooses a move (the module docs of `engine` say how).

use std::fmt;

use crate::moves::{Move, PassRule};
use crate::position::Position;
use crate::random::Rng;
use crate::scored::ScoredMove;
use crate::value::Value;

use super::judge::judge;

/// A strength, 1 (weakest) to 8 (perfect).
///
/// Invariant: `1 ≤ level ≤ 8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The perfect engine.
    pub const PERFECT: Level = Level(8);

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=8).map(Level)
    }

    /// The level `k`, if `1 ≤ k ≤ 8`.
    pub fn new(k: u8) -> Option<Level> {
        (1..=8).contains(&k).then_some(Level(k))
    }

    /// The number 1 to 8.
    pub fn get(self) -> u8 {
        self.0
    }

    /// How the level plays: `None` for the perfect engine.
    fn params(self) -> Option<Params> {
        // Horizon (plies seen exactly), fade (plies over which the exact
        // value fades out past the horizon), noise and floor (how clearly
        // an end however far away is still seen), tuned with `match` and
        // `match --accuracy` (docs/levels.md) so that each level beats the
        // one below and the strong ones throw fewer games away early.
        let (horizon, fade, noise, floor) = match self.0 {
            1 => (0.0, 0.8, 0.60, 0.0),
            2 => (1.0, 1.2, 0.30, 0.0),
            3 => (1.5, 1.5, 0.18, 0.0),
            4 => (2.5, 2.0, 0.14, 0.03),
            5 => (3.5, 2.5, 0.10, 0.06),
            6 => (5.0, 3.0, 0.06, 0.12),
            7 => (6.0, 3.0, 0.05, 0.18),
            _ => return None,
        };
        Some(Params { horizon, fade, noise, floor })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// How a level below 8 sees moves.
///
/// Invariant: `fade > 0`, `noise ≥ 0` and `0 ≤ floor < 1`.
#[derive(Debug, Clone, Copy)]
struct Params {
    /// Plies within which an end is seen exactly.
    horizon: f64,
    /// Plies over which the exact value fades out past the horizon.
    fade: f64,
    /// The spread of the normal noise added to every move's look.
    noise: f64,
    /// The least weight of the exact value of a move with a reachable end
    /// (not 无果), however far the end: the sense of a strong player that
    /// a line is lost or won before it can be read out.
    floor: f64,
}

/// The worth of an exact value to the side that gets it, 0 to 1, in the
/// order of [`Value`].
fn worth(v: Value) -> f64 {
    match v {
        Value::SelfWin => 1.0,
        Value::BothWin => 0.6,
        Value::BothLose => 0.3,
        Value::NoResult => 0.25,
        Value::SelfLose => 0.0,
    }
}

/// An engine of one level with its own seeded generator.
#[derive(Debug, Clone)]
pub struct Engine {
    level: Level,
    rng: Rng,
}

impl Engine {
    /// An engine of `level` whose choices follow from `seed`.
    pub fn new(level: Level, seed: u64) -> Engine {
        Engine { level, rng: Rng::new(seed ^ u64::from(level.0) << 56) }
    }

    /// Its level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The move it plays in `pos` among `moves`, its legal moves with
    /// their exact scores (in any order, as [`crate::scored::scored_moves`]
    /// gives them); `None` when there are none. A move that is not legal
    /// in `pos` (under either pass rule) is never chosen.
    pub fn choose(&mut self, pos: &Position, moves: &[ScoredMove]) -> Option<Move> {
        let legal = pos.legal_moves(PassRule::Always);
        let moves = moves.iter().filter(|m| legal.contains(m.mv));
        let Some(p) = self.level.params() else {
            // The first best move in the order given (`min_by` keeps the
            // first of equals).
            return moves.min_by(|a, b| b.score.cmp(&a.score)).map(|m| m.mv);
        };
        let mut best: Option<(f64, Move)> = None;
        for m in moves {
            let seen = self.looks(pos, m, p);
            if best.is_none_or(|(b, _)| seen > b) {
                best = Some((seen, m.mv));
            }
        }
        best.map(|(_, mv)| mv)
    }

    /// The move it plays in `pos` without knowing any score: by its
    /// judgement of the positions the moves lead to alone, with its noise
    /// (the perfect engine uses level 7's). `None` for a finished game.
    /// Used where no solution is at hand yet (the first plies of a
    /// 12-slot game, docs/puzzles.md).
    pub fn guess(&mut self, pos: &Position, rule: PassRule) -> Option<Move> {
        let noise = self.level.params().map_or(0.03, |p| p.noise);
        let mut best: Option<(f64, Move)> = None;
        if pos.outcome().is_some() {
            return None;
        }
        for &mv in pos.legal_moves(rule).iter() {
            let child = pos.play_unchecked(mv);
            let seen = judge(&child, pos.side()) + noise * self.gauss();
            if best.is_none_or(|(b, _)| seen > b) {
                best = Some((seen, mv));
            }
        }
        best.map(|(_, mv)| mv)
    }

    /// How good `m`, a move of `pos`, looks to this engine (one draw of
    /// its noise).
    fn looks(&mut self, pos: &Position, m: &ScoredMove, p: Params) -> f64 {
        let value = m.score.value;
        // No end is reachable (无果), or its depth is not known (tables of
        // values only): nothing to see within any horizon, only the floor
        // for a known value with an end.
        let depth = m.score.depth().map_or(1000.0, f64::from);
        let faded = (-(depth - p.horizon).max(0.0) / p.fade).exp();
        let clear = if value == Value::NoResult { faded } else { faded.max(p.floor) };
        // Among moves seen clearly, the faster win and the slower loss.
        let tempo = match value {
            Value::SelfLose => depth,
            _ => -depth,
        } * 1e-4;
        let exact = worth(value) + tempo;
        let guess = judge(&m.child, pos.side());
        clear * exact + (1.0 - clear) * guess + p.noise * self.gauss()
    }

    /// A standard normal draw (Box–Muller).
    fn gauss(&mut self) -> f64 {
        const SCALE: f64 = 1.0 / (1u64 << 53) as f64;
        let u1 = (self.rng.below(1 << 53) as f64 + 1.0) * SCALE;
        let u2 = self.rng.below(1 << 53) as f64 * SCALE;
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }
}
