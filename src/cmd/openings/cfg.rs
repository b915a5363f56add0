//! `openings --cfg FILE`: the value of the opening in a `chaosclock.cfg`
//! of the original desktop program, under that program's pass rule
//! (when-stuck, unless `--pass-rule` says otherwise), and the rule named in
//! the output. The value comes from the complete tables of `--tables` when
//! they are there, else from the openings book at once, else (a section
//! this build's book does not have yet) from a solve of that one opening.

use anyhow::{Context, Result, bail};
use chaosclock::book::Book;
use chaosclock::solve::solve_with;
use chaosclock::table::Tablebase;
use chaosclock::{PassRule, Position, Value, Variant};
use serde::Serialize;

use crate::cli::high::OpeningsHigh;
use crate::cmd::{print, print_json};

/// `openings --cfg FILE --json`.
#[derive(Debug, Serialize)]
struct CfgJson<'a> {
    position: String,
    cfg: &'a str,
    /// The value code for 乙.
    value: u8,
    pass_rule: &'static str,
    /// Whether the rule is the cfg file's (no `--pass-rule`).
    rule_from_cfg: bool,
    /// `tables`, `book` or `solve`.
    source: &'static str,
}

/// Looks up the opening `pos` read from the cfg file `file`.
///
/// # Errors
/// `pos` is not an opening, or its tables are damaged.
pub(super) fn run(args: &OpeningsHigh, pos: &Position, file: &str) -> Result<()> {
    let rule = args.rule;
    if !pos.is_opening() {
        bail!(
            "cfg file {file} holds {pos}, not an opening (every piece on the board, none fixed, 乙 to move, no last move): `chaosclock query --cfg {file}` answers any position"
        );
    }
    let (value, source) = value_of(args, pos, rule)?;
    if args.json {
        return print_json(&CfgJson {
            position: pos.to_string(),
            cfg: file,
            value: value.code(),
            pass_rule: rule.name(),
            rule_from_cfg: args.rule_from_cfg,
            source,
        });
    }
    let whose = if args.rule_from_cfg {
        "the original program's rule, as the cfg file comes from it; --pass-rule always for the written rules"
    } else {
        "given with --pass-rule"
    };
    let source = match source {
        "tables" => format!("the tables in {}", args.root.display()),
        "book" => "the openings book (nothing solved)".to_string(),
        _ => "solved (this build's openings book has no such section yet)".to_string(),
    };
    print(&format!(
        "opening:  {pos} (from {file})\nvalue:    {value} for 乙 (to move)\nrule:     {} ({whose}): {}\nsource:   {source}",
        rule.name(),
        rule.meaning(),
    ))
}

/// The value of the opening `pos` and where it came from.
fn value_of(args: &OpeningsHigh, pos: &Position, rule: PassRule) -> Result<(Value, &'static str)> {
    let n = pos.slots();
    let tb = Tablebase::new(&args.root, n, rule);
    let files = tb.load_all().with_context(|| format!("tables in {}", tb.dir().display()))?;
    if files > 0 && files == chaosclock::table::fixed_sets(n, n).len() {
        let value = chaosclock::probe::value(&tb, pos)
            .with_context(|| format!("reading the tables for {pos}"))?;
        return Ok((value, "tables"));
    }
    if let Ok(value) = Book::embedded()?.value(pos, rule) {
        return Ok((value, "book"));
    }
    eprintln!(
        "note: the openings book of this build has no {n}-slot section for pass rule {} yet; solving the opening",
        rule.name()
    );
    let solution =
        solve_with(Variant::new(n, rule)?, &[*pos], None, None).context("solving the opening")?;
    let score = chaosclock::scored::ScoreSource::score(&solution, pos)?;
    Ok((score.value, "solve"))
}
