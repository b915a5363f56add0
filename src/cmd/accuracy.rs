//! `chaosclock match --accuracy`: what a player feels of each level
//! (issue 65, docs/levels.md "Accuracy and blunders"). Positions are taken
//! from engine games of every level, in every phase of the game; each
//! level is asked its move in each, and the table gives the share of its
//! moves that keep the value (its accuracy) and the share that throw away
//! a won or both-win position (its blunder rate).
//!
//! Only positions where the choice matters count: two or more legal
//! moves, not all of the same value. A blunder: the position's value is
//! 己赢 or 共赢 and the move keeps a worse one. *Early* positions are those
//! of the first [`EARLY_PLIES`] plies from the opening. At 12 slots an
//! opening costs too much to solve, so the engines first play by judgement
//! until two pieces are fixed (as the puzzle builder does) and the games go
//! on from there: no early positions.

use std::time::Instant;

use anyhow::{Result, bail};
use chaosclock::engine::{Engine, Level, opening, play_game};
use chaosclock::scored::scored_moves;
use chaosclock::solve::{Solution, solve_bounded};
use chaosclock::{PassRule, Position, Side, Value, Variant};
use rayon::prelude::*;

use crate::cli::games::MatchHigh;
use crate::cmd::print;

/// Games played on each opening, between engines of random levels 1 to 8.
const GAMES: u64 = 6;

/// The plies from the opening that are early.
pub const EARLY_PLIES: usize = 6;

/// At 12 slots, the pieces fixed before the position is solved.
const FIXED_12: u32 = 2;

/// A level's counts.
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    positions: u32,
    kept: u32,
    decisive: u32,
    blunders: u32,
    early: u32,
    early_kept: u32,
    early_decisive: u32,
    early_blunders: u32,
}

/// A position where the choice matters, with how far into the game it is.
struct Sample {
    pos: Position,
    ply: usize,
}

/// Runs `match --accuracy`.
///
/// # Errors
/// No position found (every opening over the budget), stdout.
pub fn run(args: &MatchHigh) -> Result<()> {
    let started = Instant::now();
    let variant = Variant::new(args.slots, PassRule::Always)?;
    let per_opening: Vec<Vec<Counts>> = (0..args.openings as u64)
        .into_par_iter()
        .filter_map(|o| {
            let seed = super::match_::mix(args.seed ^ o.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let start = opening(args.slots, seed, o % 2 == 0).ok()?;
            let (root, plies, solved) = root(args, variant, start, seed)?;
            let mut samples = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for g in 0..GAMES {
                let s = super::match_::mix(seed ^ (g + 1) << 40);
                let level = |x: u64| Level::new(1 + (x % 8) as u8).expect("1..=8");
                let mut a = Engine::new(level(s), s);
                let mut b = Engine::new(level(s >> 8), s.rotate_left(17));
                let game = play_game(&solved, root, [&mut a, &mut b]).expect("held");
                for (i, ply) in game.plies.iter().enumerate() {
                    if seen.insert(ply.before.key()) {
                        samples.push(Sample { pos: ply.before, ply: plies + i });
                    }
                }
            }
            let mut counts = vec![Counts::default(); args.levels.len()];
            for sample in &samples {
                let moves = scored_moves(&solved, &sample.pos).expect("held");
                let best = moves.first().map(|m| m.score.value)?;
                if moves.len() < 2 || moves.iter().all(|m| m.score.value == best) {
                    continue;
                }
                let decisive = matches!(best, Value::SelfWin | Value::BothWin);
                for (li, &level) in args.levels.iter().enumerate() {
                    let s = super::match_::mix(sample.pos.key() ^ u64::from(level.get()) << 56);
                    let mv = Engine::new(level, s).choose(&sample.pos, &moves)?;
                    let value = moves.iter().find(|m| m.mv == mv)?.score.value;
                    let c = &mut counts[li];
                    let kept = u32::from(value == best);
                    let blunder = u32::from(decisive && value < best);
                    c.positions += 1;
                    c.kept += kept;
                    c.decisive += u32::from(decisive);
                    c.blunders += blunder;
                    if sample.ply < EARLY_PLIES {
                        c.early += 1;
                        c.early_kept += kept;
                        c.early_decisive += u32::from(decisive);
                        c.early_blunders += blunder;
                    }
                }
            }
            Some(counts)
        })
        .collect();
    let mut total = vec![Counts::default(); args.levels.len()];
    for counts in &per_opening {
        for (t, c) in total.iter_mut().zip(counts) {
            t.positions += c.positions;
            t.kept += c.kept;
            t.decisive += c.decisive;
            t.blunders += c.blunders;
            t.early += c.early;
            t.early_kept += c.early_kept;
            t.early_decisive += c.early_decisive;
            t.early_blunders += c.early_blunders;
        }
    }
    if total.first().is_none_or(|c| c.positions == 0) {
        bail!("no position found: every opening was over the budget of {} states", args.budget);
    }
    let pct = |a: u32, b: u32| {
        if b == 0 {
            "–".to_string()
        } else {
            format!("{:.1}%", 100.0 * f64::from(a) / f64::from(b))
        }
    };
    let t = &total[0];
    let mut text = format!(
        "accuracy of the levels on {} slots: {} positions where the choice matters ({} won or both-win, {} early), from {} openings, {:.0} s (seed {})\n\n",
        args.slots,
        t.positions,
        t.decisive,
        t.early,
        per_opening.len(),
        started.elapsed().as_secs_f64(),
        args.seed
    );
    text.push_str("| level | accuracy | blunder rate | early accuracy | early blunder rate |\n|---|---|---|---|---|\n");
    for (level, c) in args.levels.iter().zip(&total) {
        text.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            level.get(),
            pct(c.kept, c.positions),
            pct(c.blunders, c.decisive),
            pct(c.early_kept, c.early),
            pct(c.early_blunders, c.early_decisive)
        ));
    }
    print(text.trim_end())
}

/// The position the games of an opening start from, the plies played to
/// reach it, and its solution: the opening itself below 12 slots; at 12,
/// the position after judged plies with two pieces fixed (module docs).
fn root(
    args: &MatchHigh,
    variant: Variant,
    start: Position,
    seed: u64,
) -> Option<(Position, usize, Solution)> {
    if args.slots < 12 {
        let s = solve_bounded(variant, &[start], None, args.budget, None).ok()?;
        return Some((start, 0, s));
    }
    let budget = args.budget.min(4_000_000);
    let mut a = Engine::new(Level::new(1 + (seed % 7) as u8)?, seed);
    let mut b = Engine::new(Level::new(1 + (seed >> 8) as u8 % 7)?, seed.rotate_left(9));
    let mut pos = start;
    for ply in 0..200 {
        if pos.outcome().is_some() {
            return None;
        }
        if pos.fixed_mask().count_ones() >= FIXED_12
            && let Ok(s) = solve_bounded(variant, &[pos], None, budget, None)
        {
            return Some((pos, ply, s));
        }
        let engine = if pos.side() == Side::Jia { &mut a } else { &mut b };
        pos = pos.play(engine.guess(&pos, PassRule::Always)?, PassRule::Always).ok()?;
    }
    None
}
