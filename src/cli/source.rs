//! Where a position comes from: POS or `--cfg FILE` (exactly one), read
//! into a [`Position`] when the arguments are checked, so that every
//! command that takes a position reads it the same way and its errors are
//! one line.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use chaosclock::{Position, PositionText, read_position};

use super::files::TextFile;

/// The largest `chaosclock.cfg` read, in bytes: the original program writes
/// a few hundred.
pub const MAX_CFG_BYTES: u64 = 64 * 1024;

/// The position given by POS (`pos`) or by `--cfg FILE` (`cfg`).
///
/// # Errors
/// Neither or both given, a malformed or impossible position, or a cfg
/// file that cannot be read ([`TextFile::read`]) or parsed.
pub fn position(pos: Option<&str>, cfg: Option<PathBuf>) -> Result<Position> {
    match (pos, cfg) {
        // The library's one reader of position text (the server's too).
        (Some(text), None) => Ok(read_position(PositionText::Notation(text))?),
        (None, Some(path)) => {
            let file = TextFile::read(path, "cfg file", MAX_CFG_BYTES)?;
            let shown = super::files::shown_path(&file.path);
            read_position(PositionText::Cfg(&file.text))
                .with_context(|| format!("cfg file {shown}"))
        }
        (Some(_), Some(_)) => bail!("give the position either as POS or with --cfg FILE, not both"),
        (None, None) => {
            bail!("no position given: pass POS (e.g. 2,8,11,9,4,12,10,6,5,7,1,3) or --cfg FILE")
        }
    }
}
