//! `chaosclock verify`: checks generated tables ([`chaosclock::verify`]):
//! every block checksum of every file, a sample of entries derived again
//! from the stored scores of their successors, and a sample of positions
//! compared with the solver, which reads no table.
//!
//! Without `--slots`, the size is the one the tables root holds for the
//! pass rule (a `n{N}-{rule}` directory with table files); a root that
//! holds several sizes, or none, is an error that names what it holds
//! (issue 14, finding 4). Before any work, every file the run needs must
//! exist; if one does not, the error says up to which `--max-live` the
//! directory is complete.
//!
//! Exit codes: 0 when nothing disagrees; 1 when the tables are wrong: a
//! damaged file (a flipped bit, a file cut short, two files swapped: the
//! file and the block named) or a disagreement (every mismatch printed);
//! 2 when verify could not run: bad flags, no such tables, a missing or
//! unreadable file, a manifest of other tables.

use std::path::Path;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use chaosclock::book::Book;
use chaosclock::probe::ProbeError;
use chaosclock::table::dir_name;
use chaosclock::table::fixed_sets;
use chaosclock::table::{TableError, Tablebase};
use chaosclock::{PassRule, Position, Value};
use serde::Serialize;

use crate::cli::high::VerifyHigh;
use crate::cli::{DEFAULT_VERIFY_SAMPLE, MaxLive, Slots};
use crate::cmd::book::compare as compare_book;
use crate::cmd::manifest::Manifest;
use crate::cmd::progress::Drawn;
use crate::cmd::{
    Failure, check_complete, counting_bar, finish_bar, generate_advice, print, print_json,
    probe_error, shown_path, sizes_in, thousands,
};

/// The JSON output of `verify`.
#[derive(Debug, Serialize)]
struct VerifyJson {
    dir: String,
    slots: u8,
    pass_rule: &'static str,
    max_live: u8,
    /// Files whose every block checksum was verified.
    files: usize,
    /// Entries derived again from their successors.
    rederived: usize,
    /// Positions compared with the solver.
    solved: usize,
    /// States those solves covered.
    solved_states: usize,
    /// Openings compared with the openings book (complete tables of a size
    /// the book has).
    #[serde(skip_serializing_if = "Option::is_none")]
    book: Option<u64>,
    /// The manifest the files were compared with, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    manifest: Option<String>,
    /// Disagreements, one line each (empty when all is well).
    mismatches: Vec<String>,
    seconds: f64,
}

/// Verifies the tables `args` name and prints what was checked.
///
/// # Errors
/// A manifest that is not one, a size or `--max-live` that does not fit,
/// or a missing or unreadable file (exit 2); a [`Failure`] with exit code
/// 1 for a damaged file ([`damaged`]), or after printing if anything
/// disagrees.
pub fn run(args: &VerifyHigh) -> Result<()> {
    check(args).map_err(|e| {
        if damaged(&e) { Failure { code: 1, message: format!("{e:#}") }.into() } else { e }
    })
}

/// Whether `e` says the tables are wrong (exit 1) rather than that they
/// could not be checked: a file whose bytes are not the table they should
/// be (a checksum, a length, a header: [`TableError::Corrupt`]), or tables
/// that disagree with each other ([`ProbeError::Inconsistent`]).
fn damaged(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        matches!(
            cause.downcast_ref::<ProbeError>(),
            Some(ProbeError::Table(TableError::Corrupt { .. }) | ProbeError::Inconsistent(_))
        ) || matches!(cause.downcast_ref::<TableError>(), Some(TableError::Corrupt { .. }))
    })
}

/// [`run`]'s work; every error exits 2 unless [`damaged`].
fn check(args: &VerifyHigh) -> Result<()> {
    let (root, rule) = (&args.root, args.rule);
    let manifest = args.manifest.as_ref().map(Manifest::parse).transpose()?;
    let slots = match (args.slots, &manifest) {
        (Some(slots), _) => slots,
        (None, Some(m)) => Slots::try_from(m.slots).map_err(|e| {
            anyhow!("the manifest {}: {e}", shown_path(&args.manifest.as_ref().expect("read").path))
        })?,
        (None, None) => size_in(root, rule)?,
    };
    let n = slots.get();
    // A manifest of another size is named as such by `compare`.
    let same_size = manifest.as_ref().filter(|m| m.slots == n);
    let max_live = args.max_live.or(same_size.map(|m| m.max_live.min(n)));
    let max_live = MaxLive::new(max_live, slots)?.get();
    let start = Instant::now();
    let tb = Tablebase::new(root, n, rule);
    check_complete(&tb, max_live, root)?;
    let differences = match (&manifest, &args.manifest) {
        (Some(m), Some(file)) => compare(m, &file.path, &tb, max_live)?,
        _ => Vec::new(),
    };
    // More entries than the tables store would only draw the same ones
    // again (and run for hours): the sample stops at the stored nodes.
    let sets = fixed_sets(n, max_live);
    let nodes = chaosclock::table::nodes_of(n, &sets);
    let sample = args.sample.min(usize::try_from(nodes).unwrap_or(usize::MAX));
    if sample < args.sample && args.sample != DEFAULT_VERIFY_SAMPLE {
        eprintln!(
            "note: --sample {} is more than the {} nodes the tables store; {} entries are re-derived",
            thousands(args.sample as u64),
            thousands(nodes),
            thousands(sample as u64)
        );
    }
    let bar = counting_bar(sets.len() as u64, "files checked");
    let drawn = Drawn::of(bar.as_ref());
    let report = chaosclock::verify::verify_with_progress(
        &tb,
        max_live,
        sample,
        args.solves,
        args.seed,
        drawn.as_ref().map(Drawn::dyn_ref),
    );
    finish_bar(bar);
    let report = report.map_err(|e| match e {
        // The library names the file's own size; name the run that makes
        // every file this verification needs.
        ProbeError::Missing { path, values_only, .. } => anyhow!(
            "no table {}: run {}",
            path.display(),
            generate_advice(n, max_live, root, rule, values_only)
        ),
        e => probe_error(e, root, rule),
    })?;
    // Complete tables: every opening against the openings book.
    let section = (max_live == n).then(|| Book::embedded().map(|b| b.section(n, rule)));
    let (book, book_differences) = match section.transpose()?.flatten() {
        Some(section) => {
            let tb = &tb;
            let value_of = |pos: &Position| -> Result<Value> {
                chaosclock::probe::value(tb, pos).map_err(|e| probe_error(e, root, rule))
            };
            let (compared, lines) = compare_book(section, &value_of, "tables")?;
            (Some(compared), lines)
        }
        None => (None, Vec::new()),
    };
    let out = VerifyJson {
        dir: tb.dir().display().to_string(),
        slots: n,
        pass_rule: rule.name(),
        max_live,
        files: report.files,
        rederived: report.rederived,
        solved: report.solved,
        solved_states: report.solved_states,
        book,
        manifest: args.manifest.as_ref().map(|f| f.path.display().to_string()),
        mismatches: differences
            .into_iter()
            .chain(report.mismatches)
            .chain(book_differences)
            .collect(),
        seconds: start.elapsed().as_secs_f64(),
    };
    if args.json {
        print_json(&out)?;
    } else {
        print(&to_text(&out))?;
    }
    match out.mismatches.len() {
        0 => Ok(()),
        k => Err(Failure {
            code: 1,
            message: format!(
                "{k} mismatch{} in {}: the tables disagree with their moves, the solver or the manifest",
                if k == 1 { "" } else { "es" },
                out.dir
            ),
        }
        .into()),
    }
}

/// The board size `verify` checks when `--slots` is not given: the one
/// size `root` holds tables of for `rule`.
///
/// # Errors
/// `root` holds no tables of `rule` (naming those of the other rule, if
/// any), or several sizes.
fn size_in(root: &Path, rule: PassRule) -> Result<Slots> {
    let names = |sizes: &[u8], rule: PassRule| {
        sizes.iter().map(|&n| dir_name(n, rule)).collect::<Vec<_>>().join(", ")
    };
    let shown = shown_path(root);
    let sizes = sizes_in(root, rule);
    match sizes[..] {
        [n] => Ok(Slots::try_from(n).expect("sizes_in finds supported sizes")),
        [] => {
            let other =
                if rule == PassRule::Always { PassRule::WhenStuck } else { PassRule::Always };
            let theirs = sizes_in(root, other);
            if theirs.is_empty() {
                bail!(
                    "no tables in {shown}: no n{{N}}-{} directory there holds table files (make them with `chaosclock generate --slots N`, or give --tables DIR)",
                    rule.name()
                )
            }
            bail!(
                "no tables of pass rule {} in {shown}: it holds {} (add --pass-rule {})",
                rule.name(),
                names(&theirs, other),
                other.name()
            )
        }
        _ => bail!(
            "several sizes of tables in {shown} ({}): choose one with --slots N",
            names(&sizes, rule)
        ),
    }
}

/// Compares the files of `tb` up to `max_live` with `manifest` (read from
/// `path`): one line per file that differs.
///
/// # Errors
/// The manifest is of other tables (size, pass rule, kind or a smaller
/// `--max-live`), or a file is damaged.
fn compare(manifest: &Manifest, path: &Path, tb: &Tablebase, max_live: u8) -> Result<Vec<String>> {
    let (n, rule) = (tb.slots(), tb.rule());
    let mut sets = fixed_sets(n, max_live);
    sets.sort_unstable();
    for &f in &sets {
        tb.load(f)?;
    }
    let kind = |values_only: bool| if values_only { "values only" } else { "values with depths" };
    let theirs = (manifest.slots, manifest.pass_rule.as_str(), manifest.values_only);
    let ours = (n, rule.name(), tb.values_only());
    if theirs != ours || manifest.max_live < max_live {
        bail!(
            "the manifest {} is of {} slots, pass rule {}, {}, --max-live {}; the tables checked are {} slots, pass rule {}, {}, --max-live {max_live}",
            shown_path(path),
            theirs.0,
            theirs.1,
            kind(theirs.2),
            manifest.max_live,
            ours.0,
            ours.1,
            kind(ours.2)
        )
    }
    let encoding = sets.first().and_then(|&f| tb.file(f)).map(|t| t.encoding());
    if let (Some(want), Some(got)) = (manifest.encoding, encoding)
        && want != got.code()
    {
        bail!(
            "the manifest {} is of tables of record encoding {want}; the tables checked are of encoding {} ({})",
            shown_path(path),
            got.code(),
            got.name()
        )
    }
    Ok(manifest.differences(tb, &sets))
}

fn to_text(v: &VerifyJson) -> String {
    let mut t = String::new();
    t.push_str(&format!(
        "tables:      {} ({} slots, pass rule {}, at most {} pieces not fixed)\n",
        v.dir, v.slots, v.pass_rule, v.max_live
    ));
    t.push_str(&format!(
        "files:       {} checked (every block checksum)\n",
        thousands(v.files as u64)
    ));
    t.push_str(&format!(
        "re-derived:  {} entries from their successors' stored scores\n",
        thousands(v.rederived as u64)
    ));
    t.push_str(&format!(
        "solved:      {} positions with the solver ({} states)\n",
        thousands(v.solved as u64),
        thousands(v.solved_states as u64)
    ));
    if let Some(k) = v.book {
        t.push_str(&format!(
            "book:        {} openings compared with the openings book\n",
            thousands(k)
        ));
    }
    if let Some(m) = &v.manifest {
        t.push_str(&format!("manifest:    {m} (every file's length and checksum compared)\n"));
    }
    if v.mismatches.is_empty() {
        t.push_str("mismatches:  none\n");
    } else {
        t.push_str(&format!("mismatches:  {}\n", thousands(v.mismatches.len() as u64)));
        for m in &v.mismatches {
            t.push_str(&format!("  {m}\n"));
        }
    }
    t.push_str(&format!("time:        {:.1} s", v.seconds));
    t
}
