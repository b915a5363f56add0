//! The `chaosclock` command: parses the arguments, runs the subcommand and
//! prints an error once, as one line, exiting with code 2.
//!
//! Exit codes: 0 success (also when stdout is a closed pipe), 2 an error
//! (bad input: a malformed or impossible position, an illegal move, an
//! unreadable cfg, bad flags — clap's usage errors also exit 2 — or a
//! missing or damaged table file), 1 when `verify` finds the tables wrong
//! (a damaged file or a mismatch: `cmd::verify`).

mod budget;
mod cli;
mod cmd;
mod huge_pages;
mod serve;
mod view;

use std::io;
use std::process::ExitCode;

use anyhow::Result;
use chaosclock::escape_control;
use clap::{CommandFactory, Parser};

use crate::cli::Cli;
use crate::cli::high::HiArgs;

/// mimalloc: the solver makes many short-lived tables, and glibc's
/// allocator costs it about a tenth of its time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return usage_error(&err),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // Parsers escape what they echo; this is the net for the rest
            // (a path, an OS message), so the error is always one line.
            eprintln!("error: {}", escape_control(&format!("{err:#}")));
            ExitCode::from(cmd::exit_code(&err))
        }
    }
}

/// Prints help or the version as clap does; any other parse error (bad
/// flags) as one line on stderr, exit code 2.
fn usage_error(err: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = err.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // A bare `chaosclock`: one line, as every error (README.md).
            let names: Vec<String> =
                Cli::command().get_subcommands().map(|c| c.get_name().to_string()).collect();
            eprintln!("error: no command given: use one of {} (see --help)", names.join(", "));
            ExitCode::from(2)
        }
        _ if let Some(what) = negative_value(err) => {
            // clap reads `--budget -5` as a flag -5, and its tip ("use
            // '-- -5'") would not help.
            eprintln!("error: {what} (see --help)");
            ExitCode::from(2)
        }
        _ => {
            // The first paragraph says what is wrong, and clap's tips
            // ("a similar subcommand exists", "to pass '-1' as a value, use
            // '-- -1'") help; the rest is usage.
            let text = err.render().to_string();
            let first: Vec<&str> =
                text.lines().map(str::trim).take_while(|l| !l.is_empty()).collect();
            let mut what = vec![first.join(" ")];
            what.extend(
                text.lines().map(str::trim).filter(|l| l.starts_with("tip:")).map(String::from),
            );
            let what = what.join("; ");
            let what = escape_control(what.trim_start_matches("error: "));
            eprintln!("error: {what} (see --help)");
            ExitCode::from(2)
        }
    }
}

/// A negative number given to a flag, as one line naming the problem:
/// clap reads `--budget -5` as a flag `-5` (and its tip "use '-- -5'"
/// would not help), or, where hyphen values are allowed, its number
/// parser says "invalid digit found in string". A flag that takes a count
/// never allows one; a flag that takes a path (`--tables -5`) is told how
/// to give a name that starts with '-'.
fn negative_value(err: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let text = |kind| match err.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    let (value, flag) = match err.kind() {
        ErrorKind::UnknownArgument => {
            let value = text(ContextKind::InvalidArg)?;
            // The flag before it on the command line.
            let args: Vec<String> = std::env::args().collect();
            let at = args.iter().position(|a| *a == value)?;
            let flag = args[..at].last().filter(|f| f.starts_with("--") && !f.contains('='))?;
            (value, shown_flag(flag))
        }
        ErrorKind::ValueValidation => {
            (text(ContextKind::InvalidValue)?, text(ContextKind::InvalidArg)?)
        }
        _ => return None,
    };
    if !value.starts_with('-') || value[1..].parse::<f64>().is_err() {
        return None;
    }
    let flag = escape_control(&flag);
    if let Some(name) = flag.strip_suffix(" <DIR>").or_else(|| flag.strip_suffix(" <FILE>")) {
        return Some(format!(
            "{name} {value}: a value that starts with '-' is read as a flag; write {name}=./{value} for a path of that name"
        ));
    }
    Some(format!("invalid value '{value}' for '{flag}': a negative number is never allowed here"))
}

/// `--flag` as clap shows it in its errors, with its value name
/// (`--budget <STATES>`).
fn shown_flag(flag: &str) -> String {
    let cli = Cli::command();
    let long = flag.trim_start_matches('-');
    let arg = std::iter::once(&cli)
        .chain(cli.get_subcommands())
        .flat_map(|c| c.get_arguments())
        .find(|a| a.get_long() == Some(long));
    match arg.and_then(|a| a.get_value_names()).and_then(|v| v.first()) {
        Some(value) => format!("{flag} <{value}>"),
        None => flag.to_string(),
    }
}

/// Checks the arguments ([`HiArgs::from_low`]), then runs the chosen
/// subcommand with them.
fn run(cli: Cli) -> Result<()> {
    let args = HiArgs::from_low(cli)?;
    if !matches!(args, HiArgs::Generate(_)) {
        huge_pages::turn_off();
    }
    if !matches!(args, HiArgs::Serve(_) | HiArgs::Generate(_)) {
        // `serve` stops gracefully on Ctrl-C itself, `generate` says how
        // to resume (`cmd/interrupt.rs`).
        cmd::progress::end_lines_on_ctrl_c();
    }
    match args {
        HiArgs::Show(args) => cmd::show::run(&args),
        HiArgs::Play(args) => cmd::play::run(&args),
        HiArgs::Solve(args) => cmd::solve::run(&args),
        HiArgs::Generate(args) => cmd::generate::run(&args),
        HiArgs::Query(args) => cmd::query::run(&args),
        HiArgs::Verify(args) => cmd::verify::run(&args),
        HiArgs::Manifest(args) => cmd::manifest::run(&args),
        HiArgs::Book(args) => cmd::book::run(&args),
        HiArgs::Recode(args) => cmd::recode::run(&args),
        HiArgs::Openings(args) => cmd::openings::run(&args),
        HiArgs::Serve(args) => serve::run(&args),
        HiArgs::Puzzles(args) => cmd::puzzles::run(&args),
        HiArgs::Match(args) if args.accuracy => cmd::accuracy::run(&args),
        HiArgs::Match(args) => cmd::match_::run(&args),
    }
}

/// Whether the error comes from writing to a closed pipe (`... | head`),
/// which ends the program quietly, like ripgrep.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}
