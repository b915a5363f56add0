//! The `chaosclock` command: parses the arguments, runs the subcommand and
//! prints an error once, as one line, exiting with code 2.
//!
//! Exit codes: 0 success (also when stdout is a closed pipe), 2 an error
//! (bad input: a malformed or impossible position, an illegal move, an
//! unreadable cfg, bad flags — clap's usage errors also exit 2 — or a
//! missing or damaged table file), 1 when `verify` finds a mismatch.

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
use clap::Parser;

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
            // A bare `chaosclock`: the list of commands, as --help prints it.
            let _ = err.print();
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

/// Checks the arguments ([`HiArgs::from_low`]), then runs the chosen
/// subcommand with them.
fn run(cli: Cli) -> Result<()> {
    let args = HiArgs::from_low(cli)?;
    if !matches!(args, HiArgs::Generate(_)) {
        huge_pages::turn_off();
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
