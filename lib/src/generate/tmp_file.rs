//! The temporary file of a table file being written (`NAME.cctb.tmp` next
//! to `NAME.cctb`): created empty for a new file, or opened again to go on
//! from a checkpoint. Both writers, [`super::unfinished`] (encodings 1 and
//! 2) and [`super::packing`] (encoding 3), write through it and rename it
//! to the table file only when it is complete.

use std::fs;
use std::path::{Path, PathBuf};

use crate::generate::GenerateError;

/// Opens the existing temporary file of the table file `path`.
pub(super) fn open_tmp(path: &Path) -> Option<(PathBuf, fs::File)> {
    let tmp = path.with_extension("cctb.tmp");
    let file = fs::OpenOptions::new().read(true).write(true).open(&tmp).ok()?;
    Some((tmp, file))
}

/// Creates (or empties) the temporary file of the table file `path`, for
/// reading and writing; returns its name and the file.
pub(super) fn create_tmp(path: &Path) -> Result<(PathBuf, fs::File), GenerateError> {
    let tmp = path.with_extension("cctb.tmp");
    let file = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&tmp)
        .map_err(|e| GenerateError::io(&tmp, e))?;
    Ok((tmp, file))
}
