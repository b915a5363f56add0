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
//! of the first [`EARLY_PLIES`] plies from the opening; the last column
//! counts the early blunders of games from fair starts (the even-numbered
//! openings, both-win by the book) alone. Each opening is
//! solved whole, as `match` solves it, within `--budget` states at 12
//! slots: an opening over it is skipped and said so.

use std::time::Instant;

use anyhow::{Result, bail};
use chaosclock::engine::{Engine, Level, play_game};
use chaosclock::scored::scored_moves;
use chaosclock::solve::Solution;
use chaosclock::{Position, Value};
use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cli::games::MatchHigh;
use crate::cmd::match_::{Opening, solve_opening};
use crate::cmd::{BarGuard, counting_bar, print};

/// Games played on each opening, between engines of random levels 1 to 8.
const GAMES: u64 = 6;

/// The plies from the opening that are early.
pub const EARLY_PLIES: usize = 6;

/// A level's counts.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
struct Counts {
    positions: u32,
    kept: u32,
    decisive: u32,
    blunders: u32,
    early: u32,
    early_kept: u32,
    early_decisive: u32,
    early_blunders: u32,
    fair_early_decisive: u32,
    fair_early_blunders: u32,
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
    let checkpoint = super::match_checkpoint::of(args)?;
    let bar = BarGuard(counting_bar(args.openings as u64, "openings played"));
    let per_opening: Vec<Option<Vec<Counts>>> = (0..args.openings as u64)
        .into_par_iter()
        .map(|o| {
            super::match_checkpoint::played(checkpoint.as_ref(), bar.0.as_ref(), o, || {
                sample_opening(args, o, bar.0.as_ref())
            })
        })
        .collect::<Result<_>>()?;
    drop(bar);
    let skipped = per_opening.iter().filter(|c| c.is_none()).count();
    let per_opening: Vec<Vec<Counts>> = per_opening.into_iter().flatten().collect();
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
            t.fair_early_decisive += c.fair_early_decisive;
            t.fair_early_blunders += c.fair_early_blunders;
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
        "accuracy of the levels on {} slots: {} positions where the choice matters ({} won or both-win, {} early), from {} openings{}, {:.0} s (seed {})\n\n",
        args.slots,
        t.positions,
        t.decisive,
        t.early,
        per_opening.len(),
        if skipped == 0 {
            String::new()
        } else {
            format!(" ({skipped} skipped over the budget of {} states)", args.budget)
        },
        started.elapsed().as_secs_f64(),
        args.seed
    );
    text.push_str("| level | accuracy | blunder rate | early accuracy | early blunder rate | early blunder rate from fair starts |\n|---|---|---|---|---|---|\n");
    for (level, c) in args.levels.iter().zip(&total) {
        text.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            level.get(),
            pct(c.kept, c.positions),
            pct(c.blunders, c.decisive),
            pct(c.early_kept, c.early),
            pct(c.early_blunders, c.early_decisive),
            pct(c.fair_early_blunders, c.fair_early_decisive)
        ));
    }
    print(text.trim_end())
}

/// Each level's counts on the positions of games from opening `o`,
/// `None` when it is over the budget.
///
/// # Errors
/// The opening cannot be drawn or solved.
fn sample_opening(
    args: &MatchHigh,
    o: u64,
    bar: Option<&ProgressBar>,
) -> Result<Option<Vec<Counts>>> {
    let Some(Opening { seed, fair, start, solution: solved }) = solve_opening(args, o, bar)? else {
        return Ok(None);
    };
    let mut samples = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for g in 0..GAMES {
        let s = super::match_::mix(seed ^ (g + 1) << 40);
        let level = |x: u64| Level::new(1 + (x % 8) as u8).expect("1..=8");
        let mut a = Engine::new(level(s), s);
        let mut b = Engine::new(level(s >> 8), s.rotate_left(17));
        let game = play_game(&solved, start, [&mut a, &mut b])?;
        for (i, ply) in game.plies.iter().enumerate() {
            if seen.insert(ply.before.key()) {
                samples.push(Sample { pos: ply.before, ply: i });
            }
        }
    }
    Ok(Some(counts(args, &solved, &samples, fair)))
}

/// Each level's counts over `samples`, positions of games from an opening
/// that `solved` answers.
fn counts(args: &MatchHigh, solved: &Solution, samples: &[Sample], fair: bool) -> Vec<Counts> {
    let mut counts = vec![Counts::default(); args.levels.len()];
    for sample in samples {
        let moves = scored_moves(solved, &sample.pos).expect("a position of a solved game");
        let Some(best) = moves.first().map(|m| m.score.value) else { continue };
        if moves.len() < 2 || moves.iter().all(|m| m.score.value == best) {
            continue;
        }
        let decisive = matches!(best, Value::SelfWin | Value::BothWin);
        for (c, &level) in counts.iter_mut().zip(&args.levels) {
            let s = super::match_::mix(sample.pos.key() ^ u64::from(level.get()) << 56);
            let mv = Engine::new(level, s).choose(&sample.pos, &moves).expect("a legal move");
            let value = moves.iter().find(|m| m.mv == mv).expect("a scored move").score.value;
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
                if fair {
                    c.fair_early_decisive += u32::from(decisive);
                    c.fair_early_blunders += blunder;
                }
            }
        }
    }
    counts
}
