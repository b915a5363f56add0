//! `chaosclock verify`: checks generated tables ([`chaosclock::verify`]):
//! every block checksum of every file, a sample of entries derived again
//! from the stored scores of their successors, and a sample of positions
//! compared with the solver, which reads no table.
//!
//! Exit codes: 0 when nothing disagrees, 1 when something does (every
//! mismatch is printed), 2 when a file is missing or damaged.

use std::time::Instant;

use anyhow::{Result, anyhow};
use chaosclock::PassRule;
use chaosclock::probe::ProbeError;
use chaosclock::table::Tablebase;
use clap::Args;
use serde::Serialize;

use crate::cmd::generate::TablesArgs;
use crate::cmd::{Failure, generate_command, print, print_json, probe_error, thousands};

/// Arguments of `verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Which tables (all the files `generate` makes with the same flags).
    #[command(flatten)]
    pub tables: TablesArgs,

    /// Random entries to derive again from their successors.
    #[arg(long, value_name = "K", default_value_t = 100_000)]
    pub sample: usize,

    /// Random positions (with at most 6 pieces not fixed) to solve and
    /// compare with the tables.
    #[arg(long, value_name = "J", default_value_t = 50)]
    pub solves: usize,

    /// Seed of the random choices (the same seed checks the same entries).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Print JSON (one line) instead of text.
    #[arg(long)]
    pub json: bool,
}

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
    /// Disagreements, one line each (empty when all is well).
    mismatches: Vec<String>,
    seconds: f64,
}

/// Verifies the tables `args` name under `rule` and prints what was checked.
///
/// # Errors
/// Bad arguments or a missing or damaged file (exit 2); a [`Failure`] with
/// exit code 1 after printing if anything disagrees.
pub fn run(args: &VerifyArgs, rule: PassRule) -> Result<()> {
    let (n, max_live) = args.tables.checked()?;
    let root = &args.tables.tables;
    let start = Instant::now();
    let mut tb = Tablebase::new(root, n, rule);
    let report = chaosclock::verify::verify(&mut tb, max_live, args.sample, args.solves, args.seed)
        .map_err(|e| match e {
            // The library names the file's own size; name the run that makes
            // every file this verification needs.
            ProbeError::Missing { path, values_only, .. } => anyhow!(
                "no table {}: run `{}`",
                path.display(),
                generate_command(n, max_live, root, rule, values_only)
            ),
            e => probe_error(e, root, rule),
        })?;
    let out = VerifyJson {
        dir: tb.dir().display().to_string(),
        slots: n,
        pass_rule: rule.name(),
        max_live,
        files: report.files,
        rederived: report.rederived,
        solved: report.solved,
        solved_states: report.solved_states,
        mismatches: report.mismatches,
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
                "{k} mismatch{} in {}: the tables disagree with their moves or with the solver",
                if k == 1 { "" } else { "es" },
                out.dir
            ),
        }
        .into()),
    }
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
