//! `chaosclock query`: a position's value, depth, scored moves and line of
//! best play read from the tablebase alone ([`chaosclock::probe`]), printed
//! as `solve` prints them ([`Answer`]) but without solving anything.
//!
//! `query -` reads positions from stdin, one per line (blank lines are
//! skipped), and prints one JSON object per line. A line that cannot be
//! answered prints `{"input": ..., "error": ...}` and the others go on; the
//! exit code is 2 at the end if any line failed.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};
use chaosclock::table::Tablebase;
use chaosclock::{PassRule, Position, probe};
use clap::Args;
use serde::Serialize;

use crate::cli::PositionArgs;
use crate::cmd::answer::{Answer, AnswerJson};
use crate::cmd::{DEFAULT_TABLES, Failure, load_position, print, print_json, probe_error};

/// Arguments of `query`.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// The position in the interchange format, e.g.
    /// '2,6,11,9,4,12,10,0,5,7,1,3;0;6'; `-` reads positions from stdin, one
    /// per line, and prints one JSON object per line.
    #[arg(value_name = "POS", allow_hyphen_values = true)]
    pub pos: Option<String>,

    /// Read the position from a chaosclock.cfg file of the original desktop
    /// program instead of POS.
    #[arg(long, value_name = "FILE")]
    pub cfg: Option<PathBuf>,

    /// The tables root directory (made by `generate`): the files are in
    /// DIR/n{N}-{rule}/.
    #[arg(long, value_name = "DIR", default_value = DEFAULT_TABLES)]
    pub tables: PathBuf,

    /// Print JSON (one line) instead of text.
    #[arg(long)]
    pub json: bool,
}

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
    /// The directory of the files read.
    tables: String,
}

/// A line of `query -` that could not be answered.
#[derive(Debug, Serialize)]
struct ErrorJson<'a> {
    input: &'a str,
    error: String,
}

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
            tables: dir,
        })
    } else {
        print(&format!("{}\nsource:    tables in {dir} (nothing solved)", answer.to_text()))
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
    let stdin = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    for line in stdin.lines() {
        let line = line.map_err(|e| anyhow!("cannot read stdin: {e}"))?;
        let input = line.trim();
        if input.is_empty() {
            continue;
        }
        lines += 1;
        let answer = input
            .parse::<Position>()
            .map_err(|e| anyhow!("position '{input}': {e}"))
            .and_then(|pos| {
                let tb = tables
                    .entry(pos.slots())
                    .or_insert_with(|| Tablebase::new(root, pos.slots(), rule));
                analyse(tb, &pos, root, rule).map(|a| (a, tb.dir().display().to_string()))
            });
        let text = match answer {
            Ok((answer, dir)) => serde_json::to_string(&QueryJson {
                input: Some(input.to_string()),
                answer: answer.to_json(),
                source: "tables",
                tables: dir,
            }),
            Err(e) => {
                failed += 1;
                serde_json::to_string(&ErrorJson { input, error: format!("{e:#}") })
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
