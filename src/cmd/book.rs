//! `chaosclock book`: what the openings book holds, building a book file
//! from complete tables (`--build FILE`), and comparing a book with
//! complete tables opening by opening (`--verify`).
//!
//! A size is built from the complete tables of `--tables` when they are
//! there; up to 8 slots, without tables, from one solve of every opening;
//! otherwise its section is copied unchanged from the book read (the
//! built-in one, or `--book FILE`), and the output says so.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use chaosclock::book::{Book, Built, Section, build_section, write_book};
use chaosclock::solve::solve_with;
use chaosclock::table::Tablebase;
use chaosclock::{PassRule, Position, Value, Variant};
use rayon::prelude::*;
use serde::Serialize;

use crate::cli::files::{OutputPath, SmallFile};
use crate::cli::high::BookHigh;
use crate::cmd::code_map::CodeMap;
use crate::cmd::openings::{draw, write_atomically};
use crate::cmd::{BarGuard, Failure, counting_bar, print, print_json, shown_path, thousands};

/// Up to this many slots a size is solved when it has no tables.
const SOLVE_MAX_SLOTS: u8 = 8;

/// Runs `chaosclock book`.
///
/// # Errors
/// A damaged book or table, or a file that cannot be written; `--verify`
/// gives a [`Failure`] with code 1 on a mismatch.
pub fn run(args: &BookHigh) -> Result<()> {
    let rule = args.rule;
    let book = load(args.book.as_ref())?;
    match (&args.build, args.verify) {
        (Some(out), _) => build(args, rule, book, out),
        (None, true) => verify(args, rule, book),
        (None, false) => info(book, args.json),
    }
}

/// The book of `--book FILE` (its bytes read), or the built-in one.
pub fn load(file: Option<&SmallFile>) -> Result<&'static Book> {
    let Some(file) = file else {
        return Ok(Book::embedded()?);
    };
    let shown = shown_path(&file.path);
    let book = Book::parse(Cow::Owned(file.bytes.clone()), &shown)?;
    // One book per process: leaking it gives it the built-in book's type.
    Ok(Box::leak(Box::new(book)))
}

/// A section of `info`.
#[derive(Debug, Serialize)]
struct SectionJson {
    slots: u8,
    pass_rule: &'static str,
    openings: u64,
    stored: u64,
    bytes: u64,
    bits_per_opening: f64,
    counts: CodeMap<u64>,
}

/// Lists the sections of `book`.
fn info(book: &Book, json: bool) -> Result<()> {
    let sections: Vec<SectionJson> = book
        .entries()
        .map(|e| {
            let s = book.section(e.slots, e.rule).expect("an entry's section");
            let bytes = s.coded_bytes();
            SectionJson {
                slots: e.slots,
                pass_rule: e.rule.name(),
                openings: e.openings,
                stored: e.representatives,
                bytes,
                bits_per_opening: 8.0 * bytes as f64 / e.openings as f64,
                counts: CodeMap::from_fn(|c| e.counts[c]),
            }
        })
        .collect();
    if json {
        return print_json(&serde_json::json!({
            "bytes": book.size(),
            "files": book.files().count(),
            "sections": sections,
        }));
    }
    let mut out = format!(
        "openings book: {} bytes in {} file{}, {} section{}\n\nslots  rule          openings       stored        bytes  bits an opening",
        thousands(book.size()),
        book.files().count(),
        if book.files().count() == 1 { "" } else { "s" },
        sections.len(),
        if sections.len() == 1 { "" } else { "s" }
    );
    for s in &sections {
        out.push_str(&format!(
            "\n{:>5}  {:<10} {:>11} {:>12} {:>12} {:>16.3}",
            s.slots,
            s.pass_rule,
            thousands(s.openings),
            thousands(s.stored),
            thousands(s.bytes),
            s.bits_per_opening,
        ));
    }
    out.push_str("\n\nthe counts per value: `chaosclock openings --slots N`, or `book --json`");
    print(&out)
}

/// Where the values of one size come from.
enum Values {
    /// Complete tables.
    Tables(Tablebase),
    /// One solve of every opening, by key.
    Solved(HashMap<u64, Value>),
}

impl Values {
    fn name(&self) -> &'static str {
        match self {
            Values::Tables(_) => "tables",
            Values::Solved(_) => "solve",
        }
    }

    /// The value for 乙 of the opening `pos`.
    fn of(&self, pos: &Position) -> Result<Value> {
        match self {
            Values::Tables(tb) => chaosclock::probe::value(tb, pos)
                .with_context(|| format!("reading the tables for {pos}")),
            Values::Solved(map) => map
                .get(&pos.key())
                .copied()
                .ok_or_else(|| anyhow!("the solve has no value for {pos}")),
        }
    }
}

/// The values of the `n`-slot openings: complete tables in `root`, else
/// a solve up to [`SOLVE_MAX_SLOTS`], else none.
fn values_for(n: u8, rule: PassRule, root: &Path) -> Result<Option<Values>> {
    let tb = Tablebase::new(root, n, rule);
    let files = tb.load_all().with_context(|| format!("tables in {}", tb.dir().display()))?;
    if files > 0 && files == chaosclock::table::fixed_sets(n, n).len() {
        return Ok(Some(Values::Tables(tb)));
    }
    if n > SOLVE_MAX_SLOTS {
        return Ok(None);
    }
    let openings = draw::all(n)?;
    let solution = solve_with(Variant::new(n, rule)?, &openings, None, None)
        .context("solving every opening")?;
    let mut map = HashMap::new();
    for pos in &openings {
        let score = chaosclock::scored::ScoreSource::score(&solution, pos)?;
        map.insert(pos.key(), score.value);
    }
    Ok(Some(Values::Solved(map)))
}

/// Builds the section of `n` slots from `values`, with a bar.
fn build_one(n: u8, rule: PassRule, values: &Values) -> Result<Built> {
    let bar = counting_bar(draw::count(n)?, "openings coded");
    let _clear = BarGuard(bar.clone());
    let done = AtomicU64::new(0);
    let progress = |k: u64| {
        let d = done.fetch_add(k, Ordering::Relaxed) + k;
        if let Some(b) = &bar {
            b.set_position(d);
        }
    };
    build_section(n, rule, &|pos| values.of(pos), &progress)
}

/// `book --build FILE`.
fn build(args: &BookHigh, rule: PassRule, book: &Book, out: &OutputPath) -> Result<()> {
    let start = Instant::now();
    let mut sizes: Vec<u8> = args.slots.iter().map(|s| s.get()).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut sections = Vec::new();
    let mut lines = Vec::new();
    for n in sizes {
        let t = Instant::now();
        if let Some(values) = values_for(n, rule, &args.root)? {
            let built = build_one(n, rule, &values)?;
            lines.push(format!(
                "{n:>2} slots: {} openings from the {}, {} bytes ({:.1} s)",
                thousands(built.entry.openings),
                values.name(),
                thousands(built.blocks.iter().map(|b| b.len() as u64).sum::<u64>()),
                t.elapsed().as_secs_f64()
            ));
            sections.push(built);
        } else if let Some(s) = book.section(n, rule) {
            lines.push(format!(
                "{n:>2} slots: copied from the book read (no complete tables in {})",
                shown_path(&args.root)
            ));
            sections.push(s.to_built());
        } else {
            lines.push(format!(
                "{n:>2} slots: left out (no complete tables in {}, and not in the book read)",
                shown_path(&args.root)
            ));
        }
    }
    let bytes = write_book(&sections);
    // Read back before it is kept: a book that does not open is not written.
    Book::parse(Cow::Owned(bytes.clone()), "being written")?;
    write_atomically(out, &bytes)?;
    lines.push(format!(
        "book: {} bytes written to {} in {:.1} s",
        thousands(bytes.len() as u64),
        shown_path(out.path()),
        start.elapsed().as_secs_f64()
    ));
    print(&lines.join("\n"))
}

/// Compares every opening of `section` with `value_of` (named `what`),
/// and the header's counts with the values, with a bar. Returns the
/// openings compared and what differs, one line each: the first opening
/// that differs, the number of the others, the counts.
///
/// # Errors
/// The first error of `value_of`.
pub fn compare(
    section: &Section,
    value_of: &(dyn Fn(&Position) -> Result<Value> + Sync),
    what: &str,
) -> Result<(u64, Vec<String>)> {
    let n = section.entry().slots;
    let bar = counting_bar(draw::count(n)?, "openings compared with the book");
    let _clear = BarGuard(bar.clone());
    let stored = section.all_values();
    let ranks = section.ranks();
    let len = usize::from(n);
    let done = AtomicU64::new(0);
    // Per chunk of ranks: the openings that differ and the first one.
    let per_chunk = stored
        .par_chunks(1 << 16)
        .enumerate()
        .map(|(c, chunk)| -> Result<(u64, Option<u64>)> {
            let (mut wrong, mut first) = (0u64, None);
            for (i, &code) in chunk.iter().enumerate() {
                let rank = (c << 16 | i) as u64;
                let board = ranks.board(rank);
                if value_of(&draw::opening(&board[..len]).expect("a derangement is an opening"))?
                    .code()
                    != code
                {
                    wrong += 1;
                    first.get_or_insert(rank);
                }
            }
            let d = done.fetch_add(chunk.len() as u64, Ordering::Relaxed);
            if let Some(b) = &bar {
                b.set_position(d + chunk.len() as u64);
            }
            Ok((wrong, first))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut lines = Vec::new();
    let wrong: u64 = per_chunk.iter().map(|p| p.0).sum();
    if let Some(rank) = per_chunk.iter().find_map(|p| p.1) {
        let board = ranks.board(rank);
        let pos = draw::opening(&board[..len]).expect("a derangement is an opening");
        lines.push(format!(
            "{pos} is {} in the openings book, {} in the {what}",
            stored[rank as usize],
            value_of(&pos)?.code()
        ));
        if wrong > 1 {
            lines.push(format!("and {} other openings differ", thousands(wrong - 1)));
        }
    }
    let mut counts = [0u64; 5];
    stored.iter().for_each(|&c| counts[usize::from(c)] += 1);
    if counts != section.entry().counts {
        lines.push(format!(
            "the {n}-slot counts in the openings book's header differ from its values"
        ));
    }
    Ok((stored.len() as u64, lines))
}

/// `book --verify`: every opening of each size that has complete tables
/// (or, up to 8 slots, a solve).
fn verify(args: &BookHigh, rule: PassRule, book: &Book) -> Result<()> {
    let start = Instant::now();
    let mut lines = Vec::new();
    let mut mismatches = 0u64;
    let mut checked = 0usize;
    for n in args.slots.iter().map(|s| s.get()) {
        let Some(section) = book.section(n, rule) else {
            lines.push(format!("{n:>2} slots: not in the book"));
            continue;
        };
        let Some(values) = values_for(n, rule, &args.root)? else {
            lines.push(format!("{n:>2} slots: no complete tables to compare with"));
            continue;
        };
        let (compared, differences) = compare(section, &|pos| values.of(pos), values.name())?;
        let wrong = differences.len() as u64;
        lines.extend(differences.iter().map(|d| format!("{n:>2} slots: {d}")));
        checked += 1;
        mismatches += wrong;
        lines.push(format!(
            "{n:>2} slots: {} openings compared with the {}, {}",
            thousands(compared),
            values.name(),
            if wrong == 0 { "no mismatch" } else { "MISMATCHES" }
        ));
    }
    lines.push(format!("time: {:.1} s", start.elapsed().as_secs_f64()));
    print(&lines.join("\n"))?;
    if mismatches > 0 {
        return Err(Failure { code: 1, message: format!("{mismatches} mismatches") }.into());
    }
    if checked == 0 {
        bail!(
            "nothing to compare: no size of --slots has complete tables in {}",
            shown_path(&args.root)
        );
    }
    Ok(())
}
