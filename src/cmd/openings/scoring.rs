//! Where the openings' values come from: complete tables read in
//! parallel, the openings book, or the solver over a batch of openings at
//! once. Tables and solver are [`ScoreSource`]s, scored the same way
//! ([`score_opening`]); the book has values only, and the moves of its
//! both-win openings come from the solver when they are asked for.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use chaosclock::book::Section;
use chaosclock::scored::{ScoreSource, scored_moves};
use chaosclock::solve::solve_with;
use chaosclock::table::Tablebase;
use chaosclock::{Move, Position, Value, Variant};
use indicatif::ProgressBar;
use rayon::prelude::*;

use crate::cmd::progress::Drawn;

/// One opening with its value for 乙 and, if it is both-win and the list
/// was asked for, the moves that keep both-win (best first); `None` when
/// they were left out (values from the book, moves not asked for).
#[derive(Debug, Clone)]
pub(super) struct Scored {
    pub(super) pos: Position,
    pub(super) value: Value,
    /// Its depth, where the source has depths (tables with depths, the
    /// solver; not the book, not tables of values only).
    pub(super) depth: Option<u16>,
    pub(super) keep: Option<Vec<Move>>,
}

/// How openings get their values.
pub(super) enum Scorer {
    /// Complete tables.
    Tables(Tablebase),
    /// The openings book; the moves of both-win openings are solved if
    /// `moves`, else left out.
    Book {
        /// The book's section of this size and rule.
        section: &'static Section,
        /// The board size and pass rule.
        variant: Variant,
        /// Whether to solve the moves that keep both-win.
        moves: bool,
    },
    /// The solver; `tables` holds incomplete tables it may use, if any.
    Solve {
        /// The board size and pass rule.
        variant: Variant,
        /// Incomplete tables the solver may use.
        tables: Option<PathBuf>,
    },
}

/// What the solver did so far.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Work {
    /// Reachable states solved (over all calls).
    pub(super) states: u64,
    /// `solve_with` calls.
    pub(super) calls: u64,
}

/// Scores a batch of openings.
pub(super) fn scores(
    scorer: &Scorer,
    batch: &[Position],
    want: bool,
    work: &mut Work,
) -> Result<Vec<Scored>> {
    match scorer {
        Scorer::Tables(tb) => table_scores(tb, batch, want),
        Scorer::Solve { variant, tables } => {
            solve_scores(*variant, batch, tables.as_deref(), want, None, work)
        }
        Scorer::Book { section, variant, moves } => {
            let mut out = book_scores(section, batch);
            if want && *moves {
                // The moves of the both-win ones, from one solve.
                let fair: Vec<Position> =
                    out.iter().filter(|s| s.value == Value::BothWin).map(|s| s.pos).collect();
                if !fair.is_empty() {
                    let solved = solve_scores(*variant, &fair, None, true, None, work)?;
                    let mut solved = solved.into_iter();
                    for s in out.iter_mut().filter(|s| s.value == Value::BothWin) {
                        s.keep = solved.next().and_then(|t| t.keep);
                    }
                }
            }
            Ok(out)
        }
    }
}

/// The values of openings from the book, in parallel (moves left out).
pub(super) fn book_scores(section: &Section, batch: &[Position]) -> Vec<Scored> {
    batch
        .par_iter()
        .map(|pos| {
            // The batch holds openings of the section's size (`Draw`).
            let value = section.value(pos.board()).expect("an opening of the section's size");
            Scored { pos: *pos, value, depth: None, keep: None }
        })
        .collect()
}

/// The value of `pos` from `source` and, if `want` and it is both-win,
/// the moves that keep both-win, best first.
fn score_opening<S: ScoreSource>(
    source: &S,
    pos: &Position,
    want: bool,
) -> Result<Scored, S::Error> {
    let score = source.score(pos)?;
    let value = score.value;
    let keep = if want && value == Value::BothWin {
        let moves = scored_moves(source, pos)?;
        Some(moves.iter().filter(|m| m.score.value == Value::BothWin).map(|m| m.mv).collect())
    } else {
        None
    };
    // No-result has no depth; counted as 0 as before (`openings --depths`).
    let depth = score.has_depth().then(|| score.depth().unwrap_or(0));
    Ok(Scored { pos: *pos, value, depth, keep })
}

/// Scores openings from complete tables, in parallel.
pub(super) fn table_scores(tb: &Tablebase, batch: &[Position], want: bool) -> Result<Vec<Scored>> {
    let depths = tb.has_depths() == Some(true);
    batch
        .par_iter()
        .map(|pos| {
            let s = score_opening(tb, pos, want)
                .with_context(|| format!("reading the tables for {pos}"))?;
            Ok(Scored { depth: s.depth.filter(|_| depths), ..s })
        })
        .collect()
}

/// Solves a batch of openings in one call.
pub(super) fn solve_scores(
    variant: Variant,
    batch: &[Position],
    tables: Option<&Path>,
    want: bool,
    bar: Option<&ProgressBar>,
    work: &mut Work,
) -> Result<Vec<Scored>> {
    let tb = match tables {
        Some(dir) => {
            let tb = Tablebase::new(dir, variant.slots(), variant.rule());
            tb.load_all().with_context(|| format!("tables in {}", tb.dir().display()))?;
            Some(tb)
        }
        None => None,
    };
    let drawn = Drawn::of(bar);
    let solution = solve_with(variant, batch, tb, drawn.as_ref().map(Drawn::dyn_ref))
        .context("solving with the tables")?;
    work.states += solution.states() as u64;
    work.calls += 1;
    batch.iter().map(|pos| Ok(score_opening(&solution, pos, want)?)).collect()
}
