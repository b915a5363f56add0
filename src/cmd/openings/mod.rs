//! `chaosclock openings`: the value for 乙 of the openings (every piece on
//! the board, none fixed, 乙 to move, no last move), counted per value,
//! with the strategy-advice statistics (`--stats`, `--plot`) and the list
//! of proven both-win openings (`--both-win`, `--random K`).
//!
//! Where the values come from:
//! - the complete tables of `--tables DIR` (every fixed set has its file),
//!   read opening by opening, when they are there;
//! - else the openings book built into the binary ([`chaosclock::book`]),
//!   whose header holds the counts: values only, so the moves that keep
//!   both-win are solved for the listed openings when asked (`--moves`,
//!   always up to 8 slots) and otherwise left out;
//! - the list of every both-win opening up to 8 slots, with its moves:
//!   one [`solve_with`](chaosclock::solve::solve_with) over all openings at once (the union of their
//!   reachable states is 5,963,762 states for 8 slots);
//! - otherwise, with `--sample K`, the first K openings of the seeded
//!   random order ([`Draw`]), read from complete tables, or solved exactly
//!   in batches of `--batch B` openings per [`solve_with`](chaosclock::solve::solve_with) call
//!   (incomplete tables, if any, answer for the signatures they cover; any
//!   board size). The shares are then estimates, with 95% Wilson
//!   intervals.
//!
//! `--random K --both-win` walks the same seeded order and keeps the first
//! K openings proven both-win: the result depends on the seed only, not on
//! the batch size.
//!
//! Files (`--output`, `--plot`) are written to `FILE.tmp` and renamed when
//! complete, so an interrupted run never leaves a file that looks
//! complete. The list on stdout is written whole lines at a time; a list
//! that stops at an error (a damaged table record, found only when read)
//! ends with a line that says so: `# incomplete: ...`, or in JSON
//! `{"incomplete": "..."}` (issue 14, finding 8).

pub use chaosclock::draw;
mod book_values;
mod cfg;
mod compare;
mod depths;
mod list;
mod report;
mod scoring;
pub mod stats;
mod tally;

use std::time::Instant;

use anyhow::{Context, Result, bail};
use chaosclock::book::Book;
use chaosclock::probe::{self, ProbeError};
use chaosclock::table::Tablebase;
use chaosclock::{PassRule, Position, Value, Variant};
use rayon::prelude::*;
use serde::Serialize;

use self::book_values::LazyBook;
use self::depths::Depths;
use self::list::ListWriter;
pub(crate) use self::list::write_atomically;
use self::report::{Report, describe};
use self::scoring::{Scored, Scorer, Work, scores, solve_scores, table_scores};
use self::stats::{Stats, to_svg};
use self::tally::Tally;
use crate::cli::high::OpeningsHigh;
use crate::cmd::code_map::CodeMap;
use crate::cmd::{BarGuard, counting_bar, generate_advice, print, print_json, thousands};
use chaosclock::draw::Draw;

/// Up to this many slots every opening is solved in one call.
const SOLVE_ALL_MAX_SLOTS: u8 = 8;

/// Openings per `solve_with` call when sampling, by default. Measured on
/// 12-slot samples (docs/benchmarks.md, `openings`): batches of 4 and 8 solve 4% and 9%
/// fewer states than one opening at a time, and take up to a seventh less
/// time, but each opening in a batch adds about 0.6 GiB.
const DEFAULT_BATCH: usize = 4;

/// Openings read from the tables per parallel chunk.
const TABLE_CHUNK: usize = 1 << 16;

/// Writes what the list holds so far.
fn flush(tally: &mut Tally) -> Result<()> {
    match &mut tally.list {
        Some(list) => list.flush(),
        None => Ok(()),
    }
}

/// Runs `chaosclock openings`.
///
/// # Errors
/// Missing or damaged tables, or a file that cannot be written.
pub fn run(args: &OpeningsHigh) -> Result<()> {
    let rule = args.rule;
    if let Some((pos, file)) = &args.cfg {
        return cfg::run(args, pos, file);
    }
    if args.compare_rules {
        return compare::run(args);
    }
    let scorer = choose_scorer(args, rule)?;
    match args.random {
        Some(k) => random(args, &scorer, k),
        None => classify(args, rule, &scorer),
    }
}

/// Complete tables if `--tables` has them for this size, else the solver
/// (with the incomplete tables, if any) where that is allowed.
fn choose_scorer(args: &OpeningsHigh, rule: PassRule) -> Result<Scorer> {
    let n = args.slots.get();
    let variant = Variant::new(n, rule)?;
    let everything = args.random.is_none() && args.sample.is_none();
    if n <= SOLVE_ALL_MAX_SLOTS && everything && args.both_win {
        return Ok(Scorer::Solve { variant, tables: None });
    }
    // Every file is opened (its header checked) before anything is
    // written; a damaged record shows only when it is read.
    let tb = Tablebase::new(&args.root, n, rule);
    let files = tb.load_all().with_context(|| format!("tables in {}", tb.dir().display()))?;
    // Files exist for the representatives of the symmetry only.
    let all = chaosclock::table::fixed_sets(n, n).len();
    if files == all {
        if args.depths && tb.has_depths() == Some(false) {
            bail!(
                "--depths: the tables in {} hold values only; make them with depths (`generate` without --values-only) or solve a sample (--sample K)",
                tb.dir().display()
            );
        }
        return Ok(Scorer::Tables(tb));
    }
    // The book has no depths: up to 8 slots every opening is solved, else
    // a sample.
    if args.depths && n <= SOLVE_ALL_MAX_SLOTS && everything {
        return Ok(Scorer::Solve { variant, tables: None });
    }
    if args.depths && args.sample.is_none() {
        bail!(
            "--depths needs the depth of every opening, and the openings book holds values only: give complete tables with depths (--tables DIR; {} has {files} of their {} files) or solve a sample (--sample K)",
            tb.dir().display(),
            thousands(all as u64)
        );
    }
    // With --depths the sample is solved.
    if let Some(section) = Book::embedded()?.section(n, rule).filter(|_| !args.depths) {
        let moves = args.moves || n <= SOLVE_ALL_MAX_SLOTS;
        return Ok(Scorer::Book { section, variant, moves });
    }
    let missing = not_in_book(n, rule);
    if args.sample.is_some() || args.random.is_some() {
        if let Some(missing) = missing.filter(|_| !args.depths) {
            eprintln!("note: {missing}; solving the openings drawn instead");
        }
        let tables = (files > 0).then(|| args.root.to_path_buf());
        return Ok(Scorer::Solve { variant: Variant::new(n, rule)?, tables });
    }
    let generate = generate_advice(n, n, &args.root, rule, tb.values_only());
    if let Some(missing) = missing.filter(|_| !args.depths) {
        let make = if n == 12 {
            format!(
                "make its table with `CHAOSCLOCK_RULE={0} scripts/make-table-12.sh start` (values only: 7.1 GB, about 5 h on 2 cores) and build the section with `CHAOSCLOCK_RULE={0} scripts/make-table-12.sh finish`",
                rule.name()
            )
        } else {
            format!(
                "make its table with {generate} and build the section with `chaosclock book --build`"
            )
        };
        bail!(
            "{missing}: {make}; or give the complete table with --tables DIR, or estimate from a sample with --sample K"
        );
    }
    bail!(
        "every {n}-slot opening needs the complete tables, but {} has {files} of their {} files: run {generate}, or estimate from a sample with --sample K",
        tb.dir().display(),
        thousands(all as u64)
    )
}

/// Why the openings book cannot answer for `n` slots under `rule`, when
/// this build's book has no such section (the 12-slot when-stuck section
/// until its table is made).
fn not_in_book(n: u8, rule: PassRule) -> Option<String> {
    let book = Book::embedded().ok()?;
    book.section(n, rule).is_none().then(|| {
        format!(
            "the openings book of this build has no {n}-slot section for pass rule {} yet",
            rule.name()
        )
    })
}

/// Classifies every opening, or the sample, and prints the result.
fn classify(args: &OpeningsHigh, rule: PassRule, scorer: &Scorer) -> Result<()> {
    let n = args.slots.get();
    let start = Instant::now();
    let list = args.both_win.then(|| ListWriter::new(args.output.as_ref(), args.json));
    let list = list.transpose()?;
    let stats = args.stats.then(|| Stats::new(n));
    let depths = args.depths.then(Depths::default);
    let mut tally = Tally { counts: [0; 5], stats, depths, list };
    let mut work = Work::default();
    // A list on stdout that stops early says so on its last line.
    if let Err(e) = fill(args, rule, scorer, &mut tally, &mut work) {
        if let Some(list) = tally.list.take() {
            list.abort(&e);
        }
        return Err(e);
    }
    let elapsed = start.elapsed();
    let listed = match tally.list.take() {
        Some(list) => Some(list.finish()?),
        None => None,
    };
    // The list alone goes to stdout when it has no file.
    if args.both_win && args.output.is_none() {
        return Ok(());
    }
    if let (Some(path), Some(stats)) = (&args.plot, &tally.stats) {
        let subtitle = describe(args, scorer, tally.total(), None);
        write_atomically(path, to_svg(stats, &subtitle).as_bytes())?;
    }
    let report = Report { args, scorer, tally: &tally, work, elapsed, listed };
    if args.json { print_json(&report.to_json()) } else { print(&report.to_text()) }
}

/// Scores every opening, or the sample, into `tally` (the list, if any,
/// is written as it goes).
fn fill(
    args: &OpeningsHigh,
    rule: PassRule,
    scorer: &Scorer,
    tally: &mut Tally,
    work: &mut Work,
) -> Result<()> {
    let n = args.slots.get();
    let want = args.both_win;
    match (args.sample, scorer) {
        (None, Scorer::Tables(tb)) => {
            for_each_from_tables(tb, want, &mut |chunk| {
                chunk.iter().try_for_each(|s| tally.add(s))?;
                flush(tally)
            })?;
        }
        (None, Scorer::Book { section, .. }) => {
            if tally.stats.is_none() && tally.list.is_none() && tally.depths.is_none() {
                // The header holds the counts.
                tally.counts = section.entry().counts;
                return Ok(());
            }
            // Streamed: a few openings at first, so that the list's first
            // lines come at once (`openings --slots 12 --both-win | head`).
            let mut book = LazyBook::new(section);
            let mut first = 256;
            let order = if want { draw::Order::Board } else { draw::Order::Table };
            for chunk in draw::chunks(n, order)? {
                let mut at = 0;
                for len in book_values::pieces(chunk.len(), &mut first) {
                    let part = &chunk[at..at + len];
                    at += len;
                    for (&pos, value) in part.iter().zip(book.values(part)) {
                        tally.add(&Scored { pos, value, depth: None, keep: None })?;
                    }
                    flush(tally)?;
                }
            }
        }
        (None, Scorer::Solve { .. }) => {
            // Every opening at once, with the solver's own bar: the states
            // enumerated, then the share of them solved.
            let openings = draw::all(n)?;
            let bar = crate::cmd::progress::solve_bar();
            let _clear = BarGuard(bar.clone());
            for s in
                solve_scores(Variant::new(n, rule)?, &openings, None, want, bar.as_ref(), work)?
            {
                tally.add(&s)?;
            }
        }
        (Some(k), _) => {
            let sample: Vec<Position> = Draw::new(n, args.seed)?.take(k as usize).collect();
            let bar = counting_bar(k, "solving the sample");
            let _clear = BarGuard(bar.clone());
            let size = batch_size(args, scorer, k as usize);
            for batch in sample.chunks(size) {
                for s in scores(scorer, batch, want, work)? {
                    tally.add(&s)?;
                }
                if let Some(b) = &bar {
                    b.inc(batch.len() as u64);
                }
                flush(tally)?;
            }
        }
    }
    Ok(())
}

/// Scores every opening from the complete tables `tb` in parallel chunks,
/// with a bar: `each` gets the chunks in order.
fn for_each_from_tables(
    tb: &Tablebase,
    want: bool,
    each: &mut dyn FnMut(&[Scored]) -> Result<()>,
) -> Result<()> {
    // The list is in the order of the boards; counts in the tables' order.
    let order = if want { draw::Order::Board } else { draw::Order::Table };
    for_each_chunk(tb, order, &mut |chunk| each(&table_scores(tb, chunk, want)?))
}

/// Calls `each` with every opening of `tb`'s size in chunks of `order`,
/// with a bar counting them.
fn for_each_chunk(
    tb: &Tablebase,
    order: draw::Order,
    each: &mut dyn FnMut(&[Position]) -> Result<()>,
) -> Result<()> {
    let n = tb.slots();
    let bar = counting_bar(draw::count(n)?, "reading the tables");
    let _clear = BarGuard(bar.clone());
    for chunk in draw::chunks(n, order)? {
        each(&chunk)?;
        if let Some(b) = &bar {
            b.inc(chunk.len() as u64);
        }
    }
    Ok(())
}

/// The openings per value code for 乙, read from the complete tables `tb`:
/// values only, so from the values byte where the tables store one for a
/// node whose depths they derive (encoding 4 without side files: ten
/// times fewer reads than deriving each opening's score).
///
/// # Errors
/// A damaged record.
pub fn count_from_tables(tb: &Tablebase) -> Result<[u64; 5]> {
    let value = |pos: &Position| probe::value(tb, pos);
    let mut counts = [0u64; 5];
    for_each_chunk(tb, draw::Order::Table, &mut |chunk| {
        let values = chunk
            .par_iter()
            .map(value)
            .collect::<Result<Vec<Value>, ProbeError>>()
            .with_context(|| format!("reading the tables in {}", tb.dir().display()))?;
        values.iter().for_each(|v| counts[v.code() as usize] += 1);
        Ok(())
    })?;
    Ok(counts)
}

/// Picks `k` proven both-win openings from the seeded order and writes them.
fn random(args: &OpeningsHigh, scorer: &Scorer, k: u64) -> Result<()> {
    let n = args.slots.get();
    let start = Instant::now();
    let size = batch_size(args, scorer, usize::MAX);
    let mut order = Draw::new(n, args.seed)?;
    let mut found: Vec<Scored> = Vec::new();
    let mut counts = [0u64; 5];
    let mut checked = 0u64;
    let mut work = Work::default();
    let bar = counting_bar(k, "both-win openings found");
    let clear = BarGuard(bar.clone());
    while (found.len() as u64) < k {
        // Never more candidates than openings still wanted.
        let want = size.min((k - found.len() as u64) as usize);
        let batch: Vec<Position> = order.by_ref().take(want).collect();
        if batch.is_empty() {
            break;
        }
        for s in scores(scorer, &batch, true, &mut work)? {
            checked += 1;
            counts[s.value.code() as usize] += 1;
            if s.value == Value::BothWin && (found.len() as u64) < k {
                found.push(s);
            }
        }
        if let Some(b) = &bar {
            b.set_position(found.len() as u64);
            b.set_message(format!("both-win openings found, {checked} checked"));
        }
    }
    drop(clear);
    if (found.len() as u64) < k {
        bail!(
            "only {} of the {} openings of {n} slots are both-win, fewer than --random {k}",
            found.len(),
            draw::count(n)?
        );
    }
    let mut list = ListWriter::new(args.output.as_ref(), args.json)?;
    for s in &found {
        list.line(s)?;
    }
    list.finish()?;
    let Some(output) = &args.output else { return Ok(()) };
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        print_json(&RandomJson {
            slots: n,
            random: k,
            seed: args.seed,
            checked,
            counts: CodeMap::from_fn(|c| counts[c]),
            seconds,
            states: work.states,
            output: output.display().to_string(),
        })
    } else {
        print(&format!(
            "{k} both-win opening{} of {n} slots (seed {}) written to {}: {checked} checked in {seconds:.1} s",
            if k == 1 { "" } else { "s" },
            args.seed,
            output.display()
        ))
    }
}

/// `--random` in JSON, when the list went to a file.
#[derive(Debug, Serialize)]
struct RandomJson {
    slots: u8,
    random: u64,
    seed: u64,
    /// Openings solved to find them (the seeded order's first ones).
    checked: u64,
    /// The values of the checked openings.
    counts: CodeMap<u64>,
    seconds: f64,
    states: u64,
    output: String,
}

/// Openings per batch: `--batch`, else the default for the solver; all of
/// them at once from tables.
fn batch_size(args: &OpeningsHigh, scorer: &Scorer, all: usize) -> usize {
    match scorer {
        Scorer::Tables(_) | Scorer::Book { .. } => {
            args.batch.unwrap_or(TABLE_CHUNK).min(all.max(1))
        }
        Scorer::Solve { .. } => args.batch.unwrap_or(DEFAULT_BATCH),
    }
}
