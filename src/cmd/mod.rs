//! One module per subcommand, each with one `run` entry taking its
//! validated arguments ([`crate::cli::high`]), and what they share: naming
//! sides, the `generate` advice, the checks that need the tables, and
//! writing to stdout.
//!
//! The errors returned from here are about the user's input, missing or
//! damaged table files (or, rarely, a failure to write stdout); `main`
//! prints them once and exits with code 2, or with a [`Failure`]'s own code.

pub mod accuracy;
pub mod book;
pub mod code_map;
pub mod disk_full;
pub mod generate;
pub mod interrupt;
pub mod manifest;
pub mod match_;
pub mod match_checkpoint;
pub mod measured;
pub mod openings;
pub mod play;
pub mod progress;
pub mod puzzles;
pub mod query;
pub mod recode;
pub mod run_log;
pub mod show;
pub mod solve;
pub mod verify;

use std::fmt;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use chaosclock::generate::{Projection, project};
use chaosclock::probe::ProbeError;
use chaosclock::table::Tablebase;
use chaosclock::table::fixed_sets;
use chaosclock::table::{Encoding, dir_name};
use chaosclock::{PassRule, SUPPORTED_SLOTS};

use crate::cli::DEFAULT_TABLES;
pub use crate::cli::shown_path;
pub use crate::cmd::progress::{BarGuard, counting_bar, finish_bar};
pub use crate::view::{piece_column, short_name, thousands};

/// Writes `text` and a newline to stdout.
///
/// # Errors
/// Writing fails (a closed pipe included: `main` exits quietly then).
pub fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()?;
    Ok(())
}

/// Writes `value` as JSON on one line to stdout.
///
/// # Errors
/// As [`print()`].
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<()> {
    let text = serde_json::to_string(value).context("encoding JSON")?;
    print(&text)
}

/// The sizes N for which `root` holds tables of `rule`: a directory
/// `n{N}-{rule}` with at least one `.cctb` file.
pub fn sizes_in(root: &Path, rule: PassRule) -> Vec<u8> {
    SUPPORTED_SLOTS
        .iter()
        .copied()
        .filter(|&n| {
            std::fs::read_dir(root.join(dir_name(n, rule))).is_ok_and(|entries| {
                entries.flatten().any(|e| e.file_name().to_string_lossy().ends_with(".cctb"))
            })
        })
        .collect()
}

/// The `generate` command line that makes the tables of `n` slots with at
/// most `max_live` pieces not fixed under `root` and `rule` (default flags
/// left out).
pub fn generate_command(
    n: u8,
    max_live: u8,
    root: &Path,
    rule: PassRule,
    values_only: bool,
) -> String {
    let mut cmd = String::new();
    if rule != PassRule::Always {
        cmd.push_str(&format!("--pass-rule {} ", rule.name()));
    }
    cmd = format!("chaosclock {cmd}generate --slots {n} --max-live {max_live}");
    if root != Path::new(DEFAULT_TABLES) {
        cmd.push_str(&format!(" --tables {}", root.display()));
    }
    if values_only {
        cmd.push_str(" --values-only");
    }
    cmd
}

/// The size from which advice names the size and time of the `generate`
/// command it suggests (10 GB).
pub const ADVICE_BYTES: u64 = 10_000_000_000;

/// The projected size above which `generate` refuses to run without
/// `--allow-large` (20 GB).
pub const LARGE_BYTES: u64 = 20_000_000_000;

/// What `generate --slots n --max-live max_live [--values-only]` under
/// `root` and `rule` is projected to write: the files that are not there
/// already ([`chaosclock::generate::project`]).
pub fn projection(
    n: u8,
    max_live: u8,
    root: &Path,
    rule: PassRule,
    values_only: bool,
) -> Projection {
    let tb = Tablebase::new(root, n, rule);
    let todo: Vec<u16> =
        fixed_sets(n, max_live).into_iter().filter(|&f| !tb.path(f).exists()).collect();
    project(n, &todo, if values_only { Encoding::Packed } else { Encoding::Coded })
}

/// A size in bytes for people: `270 GB`, `7.1 GB`, `33.8 MB`, `21 kB`.
pub fn size_text(bytes: u64) -> String {
    let b = bytes as f64;
    match bytes {
        100_000_000_000.. => format!("{:.0} GB", b / 1e9),
        1_000_000_000.. => format!("{:.1} GB", b / 1e9),
        1_000_000.. => format!("{:.1} MB", b / 1e6),
        _ => format!("{} kB", bytes.div_ceil(1000)),
    }
}

/// A projected time for people: `about 5 h`, `about 20 min`, `under a
/// minute`.
pub fn time_text(seconds: u64) -> String {
    match seconds {
        0..60 => "under a minute".to_string(),
        60..5400 => format!("about {} min", seconds.div_ceil(60)),
        _ => format!("about {} h", (seconds + 1800) / 3600),
    }
}

/// A projected run's cost for people: `7.1 GB, about 5 h on 2 cores`.
pub fn cost_text(p: &Projection) -> String {
    format!("{}, {} on 2 cores", size_text(p.bytes), time_text(p.seconds))
}

/// How to make the tables of `n` slots with at most `max_live` pieces not
/// fixed under `root` and `rule`: the `generate` command in backquotes
/// ([`generate_command`]). When its run is projected over
/// [`ADVICE_BYTES`], the advice names its size and time (and
/// `--allow-large` over [`LARGE_BYTES`]); a large table with depths for a
/// directory that holds no tables yet is suggested as values only instead
/// when that is small enough (the complete 12-slot table: 7.1 GB against
/// about 34 GB while it is made).
pub fn generate_advice(
    n: u8,
    max_live: u8,
    root: &Path,
    rule: PassRule,
    values_only: bool,
) -> String {
    let cmd = generate_command(n, max_live, root, rule, values_only);
    let p = projection(n, max_live, root, rule, values_only);
    if p.bytes <= ADVICE_BYTES {
        return format!("`{cmd}`");
    }
    if !values_only && !sizes_in(root, rule).contains(&n) {
        let v = projection(n, max_live, root, rule, true);
        if v.bytes <= ADVICE_BYTES {
            let values = generate_command(n, max_live, root, rule, true);
            return format!(
                "`{values}` (values only: {}; with depths {})",
                cost_text(&v),
                size_text(p.bytes)
            );
        }
    }
    let flag = if p.bytes > LARGE_BYTES { " --allow-large" } else { "" };
    format!("`{cmd}{flag}` ({})", cost_text(&p))
}

/// Checks, before any work (`verify`, `manifest`), that every file of
/// `tb` up to `max_live` exists.
///
/// # Errors
/// A missing file, named with the `--max-live` up to which the directory
/// is complete (if any) and the `generate` command that makes the rest.
pub fn check_complete(tb: &Tablebase, max_live: u8, root: &Path) -> Result<()> {
    let (n, rule) = (tb.slots(), tb.rule());
    let sets = fixed_sets(n, max_live);
    let live = |f: u16| n - f.count_ones() as u8;
    // The missing file with the fewest pieces not fixed: every level below
    // it is complete.
    let Some(&first) =
        sets.iter().filter(|&&f| !tb.path(f).exists()).min_by_key(|&&f| (live(f), f))
    else {
        return Ok(());
    };
    let path = tb.path(first);
    let generate = generate_advice(n, max_live, root, rule, tb.values_only());
    let complete = match live(first) {
        0 => format!("{} is not complete for any --max-live", shown_path(tb.dir())),
        k => {
            let mut verify = format!("chaosclock verify --slots {n} --max-live {}", k - 1);
            if root != Path::new(DEFAULT_TABLES) {
                verify.push_str(&format!(" --tables {}", shown_path(root)));
            }
            if rule != PassRule::Always {
                verify = verify.replacen(
                    "chaosclock ",
                    &format!("chaosclock --pass-rule {} ", rule.name()),
                    1,
                );
            }
            format!(
                "{} is complete up to --max-live {} only (`{verify}` checks that part)",
                shown_path(tb.dir()),
                k - 1
            )
        }
    };
    bail!("no table {}: run {generate}; {complete}", shown_path(&path))
}

/// A probe error as one line; a missing table names the `generate` command
/// (with the `--tables` and `--pass-rule` in use) that makes it
/// ([`generate_advice`]).
pub fn probe_error(e: ProbeError, root: &Path, rule: PassRule) -> anyhow::Error {
    match e {
        ProbeError::Missing { path, n, live, values_only } => anyhow!(
            "no table {} (signatures with {live} piece{} not fixed): run {}",
            path.display(),
            if live == 1 { "" } else { "s" },
            generate_advice(n, live, root, rule, values_only)
        ),
        e => anyhow::Error::new(e),
    }
}

/// A failure whose message is already complete and which asks for a given
/// exit code (`main` prints it like any error, then exits with `code`).
#[derive(Debug)]
pub struct Failure {
    /// The exit code.
    pub code: u8,
    /// The one-line message.
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// The exit code for an error: a [`Failure`]'s own, 2 otherwise.
pub fn exit_code(err: &anyhow::Error) -> u8 {
    err.downcast_ref::<Failure>().map_or(2, |f| f.code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0u64), "0");
        assert_eq!(thousands(999u64), "999");
        assert_eq!(thousands(1000u64), "1,000");
        assert_eq!(thousands(20_971_954u64), "20,971,954");
    }

    #[test]
    fn generate_command_leaves_defaults_out() {
        let root = Path::new(DEFAULT_TABLES);
        assert_eq!(
            generate_command(6, 4, root, PassRule::Always, false),
            "chaosclock generate --slots 6 --max-live 4"
        );
        assert_eq!(
            generate_command(8, 8, Path::new("/t"), PassRule::WhenStuck, true),
            "chaosclock --pass-rule when-stuck generate --slots 8 --max-live 8 --tables /t --values-only"
        );
    }
}
