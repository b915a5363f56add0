//! `chaosclock query`: a position's value, depth, scored moves and line of
//! best play read from the tablebase alone ([`chaosclock::probe`]), printed
//! as `solve` prints them ([`Answer`]) but without solving anything.
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
use chaosclock::table::Tablebase;
use chaosclock::{PassRule, Position, escape_control, probe};
use serde::Serialize;

use crate::cli::{PositionArgs, QueryArgs};
use crate::cmd::answer::{Answer, AnswerJson};
use crate::cmd::{Failure, load_position, print, print_json, probe_error};

/// The JSON output of `query`: `solve`'s fields without the statistics.
#[derive(Debug, Serialize)]
struct QueryJson {
    /// The line read (`query -` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    input: Option<String>,
    #[serde(flatten)]
    answer: AnswerJson,
    /// Always `tables`: nothing was solved.
    source: &'static str,
    /// The tables read (the shape of `solve --tables --json`'s `tables`).
    tables: TablesJson,
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

/// Answers the position (or the positions on stdin) given in `args` from
/// the tables for `rule`.
///
/// # Errors
/// The position cannot be read, a table it needs is missing or damaged, or
/// stdout cannot be written; with `-`, a [`Failure`] after all lines if any
/// line failed.
pub fn run(args: &QueryArgs, rule: PassRule) -> Result<()> {
    if args.pos.as_deref() == Some("-") && args.cfg.is_none() {
        return batch(&args.tables, rule);
    }
    let position = PositionArgs { pos: args.pos.clone(), cfg: args.cfg.clone() };
    let pos = load_position(&position)?;
    let mut tb = Tablebase::new(&args.tables, pos.slots(), rule);
    let answer = analyse(&mut tb, &pos, &args.tables, rule)?;
    let dir = tb.dir().display().to_string();
    if args.json {
        print_json(&QueryJson {
            input: None,
            answer: answer.to_json(),
            source: "tables",
            tables: TablesJson { dir },
        })
    } else {
        print(&format!("{}\nsource:    tables in {dir} (nothing solved)", answer.to_text()))
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

/// The answer for `pos` from `tb`.
fn analyse(tb: &mut Tablebase, pos: &Position, root: &Path, rule: PassRule) -> Result<Answer> {
    let a = probe::analyse(tb, pos).map_err(|e| probe_error(e, root, rule))?;
    let mut answer = Answer::new(*pos, rule, a.score, a.moves, a.line);
    answer.depths = a.depths;
    Ok(answer)
}

/// `query -`: one JSON line per position on stdin.
fn batch(root: &Path, rule: PassRule) -> Result<()> {
    // One tablebase per board size, so files stay open between lines.
    let mut tables: HashMap<u8, Tablebase> = HashMap::new();
    let (mut lines, mut failed) = (0usize, 0usize);
    let mut stdin = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let mut bytes = Vec::new();
    for number in 1.. {
        let Some(read) = read_line(&mut stdin, &mut bytes, number)? else { break };
        let text = String::from_utf8_lossy(&bytes);
        let input = text.trim();
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
                    let tb = tables
                        .entry(pos.slots())
                        .or_insert_with(|| Tablebase::new(root, pos.slots(), rule));
                    analyse(tb, &pos, root, rule).map(|a| (a, tb.dir().display().to_string()))
                }),
        };
        let text = match answer {
            Ok((answer, dir)) => serde_json::to_string(&QueryJson {
                input: Some(input.to_string()),
                answer: answer.to_json(),
                source: "tables",
                tables: TablesJson { dir },
            }),
            Err(e) => {
                failed += 1;
                let error = format!("line {number}: {}", escape_control(&format!("{e:#}")));
                serde_json::to_string(&ErrorJson { input, line: number, error })
            }
        }?;
        writeln!(out, "{text}")?;
        out.flush()?;
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
