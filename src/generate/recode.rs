//! Recoding a table of encoding 4 with one model set a file and its
//! blocks in segments ([`crate::table::recode`]): every table file and
//! side file of the signatures asked for, under the lock `generate` takes,
//! so that no run writes the directory meanwhile. Each file is replaced
//! whole when its new version is checked; files coded so already are
//! kept, so a stopped recoding goes on where it stopped when run again.

use std::fs;
use std::path::{Path, PathBuf};

use crate::generate::coding::side_path;
use crate::generate::{GenerateError, Lock, lock};
use crate::moves::PassRule;
use crate::progress::Progress;
use crate::table::recode::{Recoded, is_recoded, recode_file, recode_path};
use crate::table::{TableFile, Tablebase, fixed_sets};

/// What a recoding did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecodeReport {
    /// Files rewritten.
    pub files_recoded: usize,
    /// Files (table and side files) coded so already.
    pub files_kept: usize,
    /// Bytes of the files rewritten, before.
    pub bytes_before: u64,
    /// Their bytes after.
    pub bytes_after: u64,
}

/// Does nothing with the progress it is told.
struct Quiet;

impl Progress for Quiet {}

/// Recodes the files of the `n`-slot tables of `rule` under `root` with at
/// most `max_live` pieces not fixed (module docs) with one model set a
/// file and segments of `segment` boards (`0`: none), telling `progress`
/// of the nodes decoded (each file's twice).
///
/// # Errors
/// Another run holds the directory, a file is missing, damaged or not of
/// encoding 4, or cannot be written; the files recoded before stay
/// recoded, the others unchanged.
pub fn recode(
    root: &Path,
    n: u8,
    rule: PassRule,
    (max_live, segment): (u8, usize),
    progress: Option<&dyn Progress>,
) -> Result<RecodeReport, GenerateError> {
    recode_with(root, n, rule, (max_live, segment), progress, &mut |_, _| ())
}

/// [`recode`] that calls `done` with each file's path and sizes as soon as
/// it is replaced (so that a log of the files survives a run that is
/// stopped).
///
/// # Errors
/// As [`recode`].
pub fn recode_with(
    root: &Path,
    n: u8,
    rule: PassRule,
    (max_live, segment): (u8, usize),
    progress: Option<&dyn Progress>,
    done: &mut dyn FnMut(&Path, Recoded),
) -> Result<RecodeReport, GenerateError> {
    let progress = progress.unwrap_or(&Quiet);
    let tb = Tablebase::new(root, n, rule);
    let Lock::Writer { _held } = lock(tb.dir())? else {
        let lock = tb.dir().with_extension("lock");
        let source = std::io::Error::other("the directory cannot be written");
        return Err(GenerateError::Io { path: lock, source });
    };
    let mut files: Vec<(u16, PathBuf)> = Vec::new();
    for f in fixed_sets(n, max_live) {
        let path = tb.path(f);
        let side = side_path(&path);
        files.push((f, path));
        if side.exists() {
            files.push((f, side));
        }
    }
    let mut report = RecodeReport::default();
    let mut todo = Vec::new();
    let mut nodes = 0;
    for (f, path) in files {
        // A stale temporary file of an interrupted recoding.
        let tmp = recode_path(&path);
        if tmp.exists() {
            fs::remove_file(&tmp).map_err(|e| GenerateError::io(&tmp, e))?;
        }
        let file = TableFile::open(&path, n, rule, f).map_err(GenerateError::Table)?;
        match file.coded_layout() {
            None => return Err(GenerateError::NotCoded { path, encoding: file.encoding() }),
            Some(layout) if is_recoded(layout, segment) => report.files_kept += 1,
            Some(_) => {
                nodes += file.nodes();
                todo.push((f, path));
            }
        }
    }
    progress.start(2 * nodes, "recoding");
    for (f, path) in todo {
        if let Some(r) =
            recode_file(&path, n, rule, f, segment, progress).map_err(GenerateError::Table)?
        {
            report.files_recoded += 1;
            report.bytes_before += r.before;
            report.bytes_after += r.after;
            done(&path, r);
        }
    }
    Ok(report)
}
