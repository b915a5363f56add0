//! `chaosclock query`: a position's value, depth, scored moves and line of
//! best play, printed as `solve` prints them ([`Answer`]). The answer comes
//! from one [`Source`], chosen by the library's answering policy
//! ([`chaosclock::policy`], through [`find`]): the rules for a
//! finished game; else the tablebase ([`chaosclock::probe`]) when it covers
//! the position; else (unless `--no-solve`) a solve in memory within
//! `--budget` states (by default from the machine's memory,
//! [`Budget`]), as `serve` does, with a note on stderr. An opening
//! no table covers is looked up in the openings book first: with
//! `--no-solve` that is the answer (value only, moves left out); else the
//! text output shows the book's value at once on stderr, before the
//! solve, and the solve's value must equal it.
//!
//! `query -` reads positions from stdin, one per line (blank lines are
//! skipped), and prints one JSON object per line. A line that cannot be
//! answered prints `{"input": ..., "line": ..., "error": ...}` and the others
//! go on; the exit code is 2 at the end if any line failed. Lines are read as
//! bytes: a line that is not UTF-8, or longer than [`MAX_LINE_BYTES`], is
//! such a bad line (its `input` is shown with invalid bytes replaced, and
//! cut to that length).

use std::collections::HashMap;
use std::io::{BufRead, Read, Write};
use std::path::Path;

use anyhow::{Result, anyhow};
use chaosclock::answer::{Answer, Source};
use chaosclock::book::Book;
use chaosclock::policy::{AnswerError, Answered, Bounded, Policy, Solver};
use chaosclock::probe::ProbeError;
use chaosclock::solve::SolveError;
use chaosclock::table::Tablebase;
use chaosclock::{PassRule, Position, Value, escape_control};
use serde::Serialize;

use crate::budget::Budget;
use crate::cli::high::{QueryHigh, QueryInput};
use crate::cmd::progress::{Drawn, solve_bar};
use crate::cmd::{Failure, generate_advice, print, print_json, probe_error, thousands};
use crate::view::answer::{AnswerJson, to_json, to_text};

/// The JSON output of `query`: `solve`'s fields without the statistics.
#[derive(Debug, Serialize)]
struct QueryJson {
    /// The line read (`query -` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    input: Option<String>,
    #[serde(flatten)]
    answer: AnswerJson,
    /// `rules`, `tables`, `solve` or `book` ([`Source::name`]).
    source: &'static str,
    /// The tables read (the shape of `solve --tables --json`'s `tables`);
    /// only when the answer comes from them.
    #[serde(skip_serializing_if = "Option::is_none")]
    tables: Option<TablesJson>,
    /// The states solved; only when the answer comes from a solve.
    #[serde(skip_serializing_if = "Option::is_none")]
    states: Option<usize>,
}

/// The tables `query` read.
#[derive(Debug, Serialize)]
struct TablesJson {
    /// The directory of the files read.
    dir: String,
}

/// A line of `query -` that could not be answered.
#[derive(Debug, Serialize)]
struct ErrorJson<'a> {
    input: &'a str,
    /// The line's number on stdin, from 1 (blank lines counted).
    line: usize,
    error: String,
}

/// The longest line `query -` reads, in bytes (a 12-slot position takes
/// about 40); a longer line is a bad line, and the rest of it is skipped.
pub const MAX_LINE_BYTES: usize = 4096;

/// Answers the position (or the positions on stdin) given in `args`.
///
/// # Errors
/// A table the position needs is damaged (or missing, with `--no-solve`),
/// a solve goes over the budget, or stdout cannot be written; with `-`, a
/// [`Failure`] after all lines if any line failed.
pub fn run(args: &QueryHigh) -> Result<()> {
    let (rule, budget) = (args.rule, args.budget);
    let pos = match args.input {
        QueryInput::Stdin => return batch(&args.root, rule, budget),
        QueryInput::One(pos) => pos,
    };
    let tb = Tablebase::new(&args.root, pos.slots(), rule);
    // The book's value at once on stderr, before a solve that may take a
    // while (stdout stays `solve`'s answer), and before its progress.
    let announce = |value: Value| {
        eprintln!("book:     {value} (the openings book; solving for the depth and the moves)");
    };
    let announce: Option<&(dyn Fn(Value) + Sync)> = if args.json { None } else { Some(&announce) };
    let found = find(&tb, &pos, &args.root, rule, budget, true, announce)?;
    let dir = tb.dir().display().to_string();
    if let Some(states) = found.states {
        eprintln!(
            "note: no table in {dir} covers this position; solved it in memory ({} states)",
            thousands(states as u64)
        );
    }
    if args.json {
        print_json(&found.to_json(None, &dir))
    } else {
        let source = match (found.answer.source, found.states) {
            (Source::Rules, _) => {
                "the rules: the game is over (nothing solved, no table read)".to_string()
            }
            (Source::Tables, _) => format!("tables in {dir} (nothing solved)"),
            (Source::Solve, states) => format!(
                "solved in memory, {} states (no table in {dir} covers it)",
                thousands(states.unwrap_or(0) as u64)
            ),
            (Source::Book, _) => {
                format!("the openings book (nothing solved; no table in {dir} covers it)")
            }
        };
        // A cfg file's rule is the original program's: say so.
        let rule = if args.rule_from_cfg {
            format!(
                "\nrule:      {} (the original program's, as the cfg file comes from it; --pass-rule always for the written rules)",
                rule.name()
            )
        } else {
            String::new()
        };
        print(&format!("{}\nsource:    {source}{rule}", to_text(&found.answer)))
    }
}

/// An answer, and the states solved for it.
struct Found {
    answer: Answer,
    /// The states solved ([`Source::Solve`] only).
    states: Option<usize>,
}

impl Found {
    /// The JSON, with the line read (`query -`) and the directory of the
    /// tables.
    fn to_json(&self, input: Option<String>, dir: &str) -> QueryJson {
        QueryJson {
            input,
            answer: to_json(&self.answer),
            source: self.answer.source.name(),
            tables: (self.answer.source == Source::Tables)
                .then(|| TablesJson { dir: dir.to_string() }),
            states: self.states,
        }
    }
}

/// The answer for `pos`, from the library's one answering policy
/// ([`Policy`]): the rules for a finished game, else the tables in `tb`,
/// else for an opening without `budget` the openings book, else, when
/// they do not cover it and `budget` is given, a solve in memory of at
/// most `budget` states ([`CliSolver`]: `announce` is told the book's
/// value before the solve, which must agree with it; a progress bar if
/// `progress`).
///
/// # Errors
/// A damaged table; a missing one without `budget`; a solve over the
/// budget.
fn find(
    tb: &Tablebase,
    pos: &Position,
    root: &Path,
    rule: PassRule,
    budget: Option<Budget>,
    progress: bool,
    announce: Option<&(dyn Fn(Value) + Sync)>,
) -> Result<Found> {
    let solver = budget.map(|budget| CliSolver { budget, progress, announce });
    let policy = Policy::new()
        .with_tables(Some(tb))
        .with_book(Some(Book::embedded()?))
        .with_solver(solver.as_ref().map(|s| s as &dyn Solver));
    let e = match policy.answer(pos, rule) {
        Ok(found) => return Ok(Found { answer: found.answer, states: found.states }),
        Err(e) => e,
    };
    match e {
        AnswerError::Tables(e) | AnswerError::Unanswered { missing: Some(e), solve: None, .. } => {
            Err(probe_error(e, root, rule))
        }
        AnswerError::Unanswered {
            missing: Some(ProbeError::Missing { n, live, values_only, .. }),
            solve: Some(e @ SolveError::TooLarge { .. }),
            ..
        } => Err(anyhow!(
            "no table covers {pos}, and solving it in memory stopped: {e} of {}; raise --budget, or run {}",
            budget.map_or_else(String::new, |b| b.describe()),
            generate_advice(n, live, root, rule, values_only)
        )),
        AnswerError::Unanswered { solve: Some(e), .. } => Err(anyhow::Error::new(e)),
        e => Err(anyhow::Error::new(e)),
    }
}

/// The command line's solve step: a solve in memory within `budget`
/// ([`Bounded`]), after telling `announce` the openings book's value,
/// with a progress bar if `progress` (made only then: its lines come after
/// the book's value).
struct CliSolver<'a> {
    budget: Budget,
    progress: bool,
    announce: Option<&'a (dyn Fn(Value) + Sync)>,
}

impl Solver for CliSolver<'_> {
    fn solve(
        &self,
        pos: &Position,
        rule: PassRule,
        book: Option<Value>,
    ) -> Result<Answered, SolveError> {
        if let (Some(value), Some(announce)) = (book, self.announce) {
            announce(value);
        }
        let bar = if self.progress { solve_bar() } else { None };
        let drawn = Drawn::of(bar.as_ref());
        let progress = drawn.as_ref().map(Drawn::dyn_ref);
        let solved =
            Bounded::new(self.budget.states).with_progress(progress).solve(pos, rule, book);
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        solved
    }
}

/// How a line of stdin was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    /// The whole line (without its end of line).
    Whole,
    /// Longer than [`MAX_LINE_BYTES`]: its first bytes, the rest skipped.
    Long,
}

/// Reads line `number` of `input` into `bytes` (without `\n`), at most
/// [`MAX_LINE_BYTES`] of it, in constant memory; `None` at the end.
///
/// # Errors
/// Reading fails.
fn read_line(input: &mut impl BufRead, bytes: &mut Vec<u8>, number: usize) -> Result<Option<Line>> {
    let failed = |e: std::io::Error| anyhow!("cannot read line {number} of stdin: {e}");
    bytes.clear();
    let limit = MAX_LINE_BYTES as u64 + 1;
    input.by_ref().take(limit).read_until(b'\n', bytes).map_err(failed)?;
    if bytes.is_empty() {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        return Ok(Some(Line::Whole));
    }
    if bytes.len() <= MAX_LINE_BYTES {
        return Ok(Some(Line::Whole)); // the last line, without an end of line
    }
    // Skip the rest of the long line.
    bytes.truncate(MAX_LINE_BYTES);
    let mut rest = Vec::new();
    loop {
        rest.clear();
        input.by_ref().take(limit).read_until(b'\n', &mut rest).map_err(failed)?;
        if rest.is_empty() || rest.last() == Some(&b'\n') {
            return Ok(Some(Line::Long));
        }
    }
}

/// `query -`: one JSON line per position on stdin, each found as [`find`]
/// finds it (without a progress bar); a note on stderr at the end counts
/// the positions solved in memory.
fn batch(root: &Path, rule: PassRule, budget: Option<Budget>) -> Result<()> {
    // One tablebase per board size, so files stay open between lines.
    let mut tables: HashMap<u8, Tablebase> = HashMap::new();
    let (mut lines, mut failed, mut solved) = (0usize, 0usize, 0usize);
    let mut stdin = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let mut bytes = Vec::new();
    for number in 1.. {
        let Some(read) = read_line(&mut stdin, &mut bytes, number)? else { break };
        let text = String::from_utf8_lossy(&bytes);
        let input = text.trim().trim_start_matches('\u{feff}');
        if input.is_empty() && read != Line::Long {
            continue;
        }
        lines += 1;
        let answer = match (read, std::str::from_utf8(&bytes)) {
            (Line::Long, _) => Err(anyhow!("longer than {MAX_LINE_BYTES} bytes")),
            (_, Err(e)) => Err(anyhow!("not UTF-8 text (byte {})", e.valid_up_to() + 1)),
            (Line::Whole, Ok(_)) => input
                .parse::<Position>()
                .map_err(|e| anyhow!("position '{}': {e}", escape_control(input)))
                .and_then(|pos| {
                    let tb = tables.entry(pos.slots()).or_insert_with(|| {
                        Tablebase::new(root, pos.slots(), rule)
                            .with_model_budget(crate::budget::model_bytes())
                    });
                    let found = find(tb, &pos, root, rule, budget, false, None)?;
                    Ok((found, tb.dir().display().to_string()))
                }),
        };
        let text = match answer {
            Ok((found, dir)) => {
                solved += usize::from(found.answer.source == Source::Solve);
                serde_json::to_string(&found.to_json(Some(input.to_string()), &dir))
            }
            Err(e) => {
                failed += 1;
                let error = format!("line {number}: {}", escape_control(&format!("{e:#}")));
                serde_json::to_string(&ErrorJson { input, line: number, error })
            }
        }?;
        writeln!(out, "{text}")?;
        out.flush()?;
    }
    if solved > 0 {
        eprintln!(
            "note: no table covers {solved} of the {lines} positions; solved {} in memory",
            if solved == 1 { "it" } else { "them" }
        );
    }
    if failed > 0 {
        return Err(Failure {
            code: 2,
            message: format!("{failed} of {lines} positions could not be answered"),
        }
        .into());
    }
    Ok(())
}
