//! Checking generated tables: each sampled entry is derived again from its
//! successors (as tb's `rtbver` does) and sampled positions are compared
//! with the solver, which uses no table. Tables of values only are compared
//! on values, tables with depths on values and depths.

use crate::progress::Progress;

use crate::position::{Last, Position};
use crate::random::{Rng, random_position};
use crate::score::Score;
use crate::solve::solve;
use crate::table::fixed_sets;
use crate::table::{Tablebase, rederive};

/// What a verification found.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct VerifyReport {
    /// Files whose every block checksum was verified.
    pub files: usize,
    /// Entries derived again from their successors.
    pub rederived: usize,
    /// Positions compared with the solver.
    pub solved: usize,
    /// States those solves covered.
    pub solved_states: usize,
    /// Disagreements, as readable lines (empty when all is well).
    pub mismatches: Vec<String>,
}

/// Verifies every block of every file of `tb` for `max_live`, derives
/// `sample` random entries again, and compares `solves` random positions
/// (with at most 6 pieces not fixed) with the solver.
///
/// # Errors
/// A missing or damaged file.
///
/// # Examples
///
/// ```
/// use chaosclock::generate::{Config, generate};
/// use chaosclock::table::{Encoding, Tablebase};
/// use chaosclock::verify::verify;
/// use chaosclock::PassRule;
///
/// let dir = tempfile::tempdir()?;
/// let rule = PassRule::WhenStuck;
/// let cfg = Config::new(dir.path(), 4, rule).with_encoding(Encoding::Scores);
/// generate(&cfg, None)?;
/// let report = verify(&Tablebase::new(dir.path(), 4, rule), 4, 100, 10, 7)?;
/// assert!(report.files > 0 && report.mismatches.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify(
    tb: &Tablebase,
    max_live: u8,
    sample: usize,
    solves: usize,
    seed: u64,
) -> Result<VerifyReport, crate::probe::ProbeError> {
    verify_with_progress(tb, max_live, sample, solves, seed, None)
}

/// [`verify`], counting its work on `bar`, if given: one phase after the
/// other (files, entries re-derived, positions solved), each with its own
/// length and a message naming it.
///
/// # Errors
/// A missing or damaged file.
pub fn verify_with_progress(
    tb: &Tablebase,
    max_live: u8,
    sample: usize,
    solves: usize,
    seed: u64,
    bar: Option<&dyn Progress>,
) -> Result<VerifyReport, crate::probe::ProbeError> {
    let phase = |len: usize, msg: &'static str| {
        if let Some(p) = bar {
            p.start(len as u64, msg);
        }
    };
    let step = || {
        if let Some(p) = bar {
            p.advance(1);
        }
    };
    let n = tb.slots();
    let rule = tb.rule();
    let sets = fixed_sets(n, max_live);
    let mut report = VerifyReport::default();
    phase(sets.len(), "files checked");
    for &f in &sets {
        let file = if tb.load(f)? { tb.file(f) } else { None };
        file.ok_or_else(|| tb.missing(f))?.verify_all()?;
        report.files += 1;
        step();
    }
    // Tables of values only are checked on values; others on depths too.
    let depths = tb.has_depths() != Some(false);
    let same = |a: Score, b: Score| if depths { a == b } else { a.value == b.value };
    let mut rng = Rng::new(seed);
    phase(sample, "entries re-derived");
    for _ in 0..sample {
        let f = sets[rng.below(sets.len() as u64) as usize];
        let pos = random_position(&mut rng, n, f);
        let stored = tb.summary(&pos)?.ok_or_else(|| tb.missing(f))?;
        let derived = rederive(tb, &pos)?;
        for last in lasts(&pos) {
            let p = Position { last, ..pos };
            if !same(stored.score(last, rule), derived.score(last, rule)) {
                report.mismatches.push(format!(
                    "{p}: stored {} but its moves give {}",
                    stored.score(last, rule),
                    derived.score(last, rule)
                ));
            }
        }
        report.rederived += 1;
        step();
    }
    // Positions with few live pieces keep the solves small.
    let small: Vec<u16> = sets.iter().copied().filter(|f| n - f.count_ones() as u8 <= 6).collect();
    phase(if small.is_empty() { 0 } else { solves }, "positions solved");
    for _ in 0..solves {
        let Some(&f) = small.get(rng.below(small.len().max(1) as u64) as usize) else { break };
        let pos = random_position(&mut rng, n, f);
        let sol = solve(&pos, rule, None);
        // A solution scores its root.
        let Some(want) = sol.score(&pos) else { continue };
        let got = tb.score(&pos)?;
        if !same(got, want) {
            report.mismatches.push(format!("{pos}: table says {got}, solve says {want}"));
        }
        report.solved += 1;
        report.solved_states += sol.states();
        step();
    }
    Ok(report)
}

/// Every consistent `last` of `pos`'s node.
fn lasts(pos: &Position) -> Vec<Last> {
    let mut out = vec![Last::None, Last::Pass];
    for p in 1..=pos.slots() {
        let cells: Vec<i64> = pos.board().iter().map(|&x| i64::from(x)).collect();
        if let Ok(q) = Position::new(&cells, pos.side(), Last::Piece(p))
            && q.last() == Last::Piece(p)
        {
            out.push(q.last());
        }
    }
    out
}
