//! `chaosclock solve`: solves a position exactly and prints its value and
//! depth, every legal move with its score, a line of best play to the end
//! ([`Answer`]), and statistics (states, signatures, speed, time, peak
//! memory and the bytes it took a state, by which the default budget of
//! `query` and `serve` is sized: [`crate::budget::BYTES_PER_STATE`]).
//! `solve` itself has no budget: it enumerates every reachable state.
//!
//! With `--tables DIR` (or, without it, when ./tables holds tables with
//! depths of the position's size and pass rule; `--no-tables` never uses
//! any), every table file of the position's size and pass rule is loaded
//! first and the signatures they cover are answered from
//! them instead of being explored ([`solve_with`]); the statistics then say
//! how many states were explored and how many were answered from the tables.
//!
//! The answer comes through the library's answering policy
//! ([`chaosclock::policy`]) with [`FullSolve`] as its solve step: the
//! rules for a finished game (nothing solved), else the solve, whose value
//! must equal the openings book's for an opening. The tables are not a
//! source of their own here: `solve` reports a solve, and they answer the
//! signatures it reaches.
//!
//! Nothing is written to disk, so an interrupt (Ctrl-C) simply ends the
//! program.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use chaosclock::answer::{Answer, Source};
use chaosclock::book::Book;
use chaosclock::policy::{AnswerError, Answered, Policy, Solver};
use chaosclock::solve::{SolveError, solve_with};
use chaosclock::table::Tablebase;
use chaosclock::{PassRule, Position, Value};
use serde::Serialize;

use crate::cli::high::{SolveHigh, SolveTables};
use crate::cli::{DEFAULT_TABLES, default_max_live};
use crate::cmd::progress::{Drawn, solve_bar};
use crate::cmd::{generate_advice, print, print_json, thousands};
use crate::view::answer::{self, AnswerJson};

/// The JSON output of `solve`.
#[derive(Debug, Serialize)]
struct SolveJson {
    #[serde(flatten)]
    answer: AnswerJson,
    states: usize,
    double_passes: usize,
    signatures: usize,
    /// Enumeration plus solving.
    seconds: f64,
    enumerate_seconds: f64,
    solve_seconds: f64,
    states_per_second: f64,
    /// `null` when the system does not report it.
    peak_memory_bytes: Option<u64>,
    /// The peak memory over the states (`null` without it): what
    /// [`crate::budget::BYTES_PER_STATE`] estimates.
    bytes_per_state: Option<f64>,
    /// Only when tables were used.
    #[serde(skip_serializing_if = "Option::is_none")]
    tables: Option<TablesJson>,
}

/// What the tables contributed (`solve --tables`).
#[derive(Debug, Serialize)]
struct TablesJson {
    /// The directory of the files.
    dir: String,
    /// Files loaded.
    files: usize,
    /// Distinct states outside the explored ones whose scores the explored
    /// states read from the tables.
    answered_states: usize,
}

/// What the tables contributed to a solve.
struct TablesUsed {
    dir: String,
    files: usize,
    answered: usize,
}

/// What a solve reports besides its answer (all 0 when the rules answer
/// a finished game and nothing is solved).
#[derive(Default)]
struct Stats {
    states: usize,
    double_passes: usize,
    signatures: usize,
    timing: (Duration, Duration),
    /// States outside the explored ones read from the tables.
    answered: usize,
}

/// Everything `solve` reports about one position.
struct Report {
    answer: Answer,
    states: usize,
    double_passes: usize,
    signatures: usize,
    timing: (Duration, Duration),
    peak_memory: Option<u64>,
    tables: Option<TablesUsed>,
}

/// `solve`'s solve step for the policy: every state the position reaches
/// (the signatures `tables` cover answered from them), with a progress
/// bar; keeps the solution's statistics for the report.
struct FullSolve {
    /// Taken by the one solve.
    tables: Mutex<Option<Tablebase>>,
    stats: Mutex<Stats>,
}

impl Solver for FullSolve {
    fn solve(
        &self,
        pos: &Position,
        rule: PassRule,
        _: Option<Value>,
    ) -> Result<Answered, SolveError> {
        let bar = solve_bar();
        let drawn = Drawn::of(bar.as_ref());
        let variant = pos.variant(rule);
        let solved = solve_with(
            variant,
            &[*pos],
            self.tables.lock().map_or(None, |mut t| t.take()),
            drawn.as_ref().map(Drawn::dyn_ref),
        );
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        let solution = solved?;
        let answer = Answer::from_solution(&solution, pos, rule)?;
        *self.stats.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Stats {
            states: solution.states(),
            double_passes: solution.double_passes(),
            signatures: solution.signatures(),
            timing: solution.timing,
            answered: solution.answered_from_tables(),
        };
        Ok(Answered::new(answer, Some(solution.states())))
    }
}

impl Report {
    fn seconds(&self) -> f64 {
        (self.timing.0 + self.timing.1).as_secs_f64()
    }

    /// The peak memory over the states, if both are known.
    fn bytes_per_state(&self) -> Option<f64> {
        let bytes = self.peak_memory?;
        (self.states > 0).then(|| bytes as f64 / self.states as f64)
    }

    fn states_per_second(&self) -> f64 {
        let seconds = self.seconds();
        if seconds > 0.0 { self.states as f64 / seconds } else { 0.0 }
    }
}

/// Solves the position given in `args` under `rule` and prints the result.
///
/// # Errors
/// The `--tables` directory has no table or a damaged one, or stdout
/// cannot be written.
pub fn run(args: &SolveHigh) -> Result<()> {
    let (pos, rule) = (args.pos, args.rule);
    let n = pos.slots();
    // With the number of files loaded (one per symmetric family).
    let tables = match &args.tables {
        SolveTables::Dir(root) => Some(load_tables(root, n, rule)?),
        SolveTables::None => None,
        SolveTables::Default => default_tables(n, rule)?,
    };
    let used = tables.as_ref().map(|(tb, files)| (tb.dir().display().to_string(), *files));
    let step = FullSolve { tables: Mutex::new(tables.map(|(tb, _)| tb)), stats: Mutex::default() };
    let policy = Policy::new().with_book(Some(Book::embedded()?)).with_solver(Some(&step));
    let answer = match policy.answer(&pos, rule) {
        Ok(found) => found.answer,
        Err(AnswerError::Unanswered { solve: Some(e), .. }) => return Err(e.into()),
        Err(e) => return Err(e.into()),
    };
    let stats =
        std::mem::take(&mut *step.stats.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    let report = Report {
        answer,
        states: stats.states,
        double_passes: stats.double_passes,
        signatures: stats.signatures,
        timing: stats.timing,
        peak_memory: peak_memory(),
        tables: used.map(|(dir, files)| TablesUsed { dir, files, answered: stats.answered }),
    };
    if args.json { print_json(&to_json(&report)) } else { print(&to_text(&report)) }
}

/// The tables with depths of `n` slots and `rule` in the default place
/// (./tables), with the number of files, if there are any. Tables of
/// values only cannot give the depths `solve` prints, so they are left
/// out, with a note on stderr.
///
/// # Errors
/// A damaged file.
fn default_tables(n: u8, rule: PassRule) -> Result<Option<(Tablebase, usize)>> {
    let tb = Tablebase::new(Path::new(DEFAULT_TABLES), n, rule);
    let files = tb.load_all().with_context(|| {
        format!("tables in {} (use --no-tables to solve without them)", tb.dir().display())
    })?;
    match tb.has_depths() {
        _ if files == 0 => Ok(None),
        Some(true) => Ok(Some((tb, files))),
        _ => {
            eprintln!(
                "note: the tables in {} hold values only and solve prints depths, so it solves without them; `chaosclock query` reads them",
                tb.dir().display()
            );
            Ok(None)
        }
    }
}

/// Loads every table file of `n` slots and `rule` under `root`; returns them
/// with the number of files.
///
/// # Errors
/// There is none, or one is damaged.
fn load_tables(root: &Path, n: u8, rule: PassRule) -> Result<(Tablebase, usize)> {
    let tb = Tablebase::new(root, n, rule);
    let files = tb.load_all()?;
    if files == 0 {
        bail!(
            "no tables in {}: run {} first",
            tb.dir().display(),
            generate_advice(n, default_max_live(n), root, rule, false)
        );
    }
    if tb.has_depths() == Some(false) {
        bail!(
            "the tables in {} hold values only, and solve prints depths: use query, or generate tables with depths (without --values-only) into another --tables directory",
            tb.dir().display()
        );
    }
    Ok((tb, files))
}

/// The peak resident memory of this process in bytes (`VmHWM` in
/// `/proc/self/status`), if the system reports it.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let mut words = line["VmHWM:".len()..].split_whitespace();
    let kib: u64 = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then_some(kib * 1024)
}

fn to_text(r: &Report) -> String {
    let mut t = answer::to_text(&r.answer);

    // Statistics: none for a finished game, which the rules answer.
    if r.answer.source == Source::Rules {
        t.push_str("\nstates:      none solved: the game is over (the rules answer)");
        return t;
    }
    let ends = format!(
        "(+ {} double-pass end{})",
        thousands(r.double_passes as u64),
        if r.double_passes == 1 { "" } else { "s" }
    );
    match &r.tables {
        None => {
            t.push_str(&format!("\nstates:      {} reachable {ends}\n", thousands(r.states as u64)))
        }
        Some(tables) => {
            t.push_str(&format!("\nstates:      {} explored {ends}\n", thousands(r.states as u64)));
            t.push_str(&format!(
                "tables:      {} states answered from {} files in {}\n",
                thousands(tables.answered as u64),
                thousands(tables.files as u64),
                tables.dir
            ));
        }
    }
    t.push_str(&format!("signatures:  {}\n", thousands(r.signatures as u64)));
    t.push_str(&format!(
        "speed:       {} states/s\n",
        thousands(r.states_per_second().round() as u64)
    ));
    t.push_str(&format!(
        "time:        {:.3} s (enumerate {:.3} s + solve {:.3} s)\n",
        r.seconds(),
        r.timing.0.as_secs_f64(),
        r.timing.1.as_secs_f64()
    ));
    match (r.peak_memory, r.bytes_per_state()) {
        (Some(bytes), Some(per_state)) => t.push_str(&format!(
            "peak memory: {:.1} MiB (VmHWM), {per_state:.1} bytes a state",
            bytes as f64 / (1024.0 * 1024.0)
        )),
        (Some(bytes), None) => {
            t.push_str(&format!("peak memory: {:.1} MiB (VmHWM)", bytes as f64 / (1024.0 * 1024.0)))
        }
        (None, _) => t.push_str("peak memory: unavailable (no VmHWM in /proc/self/status)"),
    }
    t
}

fn to_json(r: &Report) -> SolveJson {
    SolveJson {
        answer: answer::to_json(&r.answer),
        states: r.states,
        double_passes: r.double_passes,
        signatures: r.signatures,
        seconds: r.seconds(),
        enumerate_seconds: r.timing.0.as_secs_f64(),
        solve_seconds: r.timing.1.as_secs_f64(),
        states_per_second: r.states_per_second(),
        peak_memory_bytes: r.peak_memory,
        bytes_per_state: r.bytes_per_state(),
        tables: r.tables.as_ref().map(|t| TablesJson {
            dir: t.dir.clone(),
            files: t.files,
            answered_states: t.answered,
        }),
    }
}
