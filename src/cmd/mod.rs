//! One module per subcommand, each with one `run` entry, and what they
//! share: reading the position (POS or `--cfg FILE`), naming sides, what a
//! move captures, and writing to stdout.
//!
//! The errors returned from here are about the user's input (or, rarely, a
//! failure to write stdout); `main` prints them once and exits with code 2.

pub mod play;
pub mod show;
pub mod solve;

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};
use chaosclock::{Move, Position, Side, parse_cfg};

use crate::cli::PositionArgs;

/// Reads the position given by POS or by `--cfg FILE` (exactly one).
pub fn load_position(args: &PositionArgs) -> Result<Position> {
    match (&args.pos, &args.cfg) {
        // Not `.context()`: ParsePositionError's message already includes
        // its source's, and `{:#}` would print that twice.
        (Some(text), None) => {
            text.parse::<Position>().map_err(|e| anyhow!("position '{}': {e}", text.trim()))
        }
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read cfg file {}", path.display()))?;
            parse_cfg(&text).with_context(|| format!("cfg file {}", path.display()))
        }
        (Some(_), Some(_)) => bail!("give the position either as POS or with --cfg FILE, not both"),
        (None, None) => {
            bail!("no position given: pass POS (e.g. 2,8,11,9,4,12,10,6,5,7,1,3) or --cfg FILE")
        }
    }
}

/// The short Chinese name of a side: 甲 or 乙.
pub fn short_name(side: Side) -> &'static str {
    match side {
        Side::Jia => "甲",
        Side::Yi => "乙",
    }
}

/// The piece a move captures in `pos`, if any (a walk onto or a placement
/// onto an occupied slot; piece N walking off the board captures nothing).
pub fn captured(pos: &Position, m: Move) -> Option<u8> {
    let slot = match m {
        Move::Walk(p) if p == pos.slots() => return None,
        Move::Walk(p) => {
            let from = pos.slot_of(p)?;
            chaosclock::walk_target(pos.slots(), from, p)
        }
        Move::Place(p) => p,
        Move::Pass => return None,
    };
    match pos.piece_at(slot) {
        0 => None,
        q => Some(q),
    }
}

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
/// As [`print`].
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<()> {
    let text = serde_json::to_string(value).context("encoding JSON")?;
    print(&text)
}
