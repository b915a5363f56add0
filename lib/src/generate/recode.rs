//! Recoding a table of encoding 4 with one model set for all its table
//! files (or one a file) and its blocks in segments
//! ([`crate::table::recode`]): every table file and side file of the
//! signatures asked for, under the lock `generate` takes, so that no run
//! writes the directory meanwhile. Each file is replaced whole when its
//! new version is checked; files coded so already are kept, so a stopped
//! recoding goes on where it stopped when run again.
//!
//! The shared set ([`crate::table::shared`]) is made from the counts of
//! every table file asked for and written before any file is coded with
//! it; a recoding of the same segments run again takes the set written,
//! so the files it codes name the same set as those coded before. Sets no
//! file names any more (of another shape) are removed at the end. Side
//! files (乙's depths, other statistics) keep sets of their own.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::generate::GenerateError;
use crate::generate::coding::side_path;
use crate::generate::lock::{Lock, lock};
use crate::moves::PassRule;
use crate::progress::Progress;
use crate::table::depth_code::{ModelCounts, Models};
use crate::table::recode::{Recoded, Shared, count_file, is_recoded, recode_file, recode_path};
use crate::table::{TableFile, Tablebase, fixed_sets, shared};

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
    /// The file of the shared model set the table files are coded with
    /// (`models-{checksum}.cctm`), if they are.
    pub shared_models: Option<String>,
}

/// Does nothing with the progress it is told.
struct Quiet;

impl Progress for Quiet {}

/// How files are recoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecodeShape {
    /// Only the signatures with at most this many pieces not fixed.
    pub max_live: u8,
    /// Boards a segment (`0`: none).
    pub segment: usize,
    /// One model set for all table files of the directory (else one a
    /// file).
    pub shared: bool,
}

/// Recodes the files of the `n`-slot tables of `rule` under `root` as
/// `shape` says (module docs), telling `progress` of the nodes decoded.
///
/// # Errors
/// Another run holds the directory, a file is missing, damaged or not of
/// encoding 4, or cannot be written; the files recoded before stay
/// recoded, the others unchanged.
pub fn recode(
    root: &Path,
    n: u8,
    rule: PassRule,
    shape: RecodeShape,
    progress: Option<&dyn Progress>,
) -> Result<RecodeReport, GenerateError> {
    recode_with(root, n, rule, shape, progress, &mut |_, _| ())
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
    shape: RecodeShape,
    progress: Option<&dyn Progress>,
    done: &mut dyn FnMut(&Path, Recoded),
) -> Result<RecodeReport, GenerateError> {
    let RecodeShape { max_live, segment, shared: share } = shape;
    let progress = progress.unwrap_or(&Quiet);
    let tb = Tablebase::new(root, n, rule);
    let Lock::Writer { _held } = lock(tb.dir())? else {
        let lock = tb.dir().with_extension("lock");
        let source = std::io::Error::other("the directory cannot be written");
        return Err(GenerateError::Io { path: lock, source });
    };
    // The set a recoding of this shape wrote before, if any.
    let mut set = match share {
        true => shared::find(tb.dir(), n, rule, segment)
            .map_err(GenerateError::Table)?
            .map(|s| Shared { models: Arc::new(s.models), sum: s.sum }),
        false => None,
    };
    let mut files: Vec<(u16, PathBuf, bool)> = Vec::new();
    for f in fixed_sets(n, max_live) {
        let path = tb.path(f);
        let side = side_path(&path);
        files.push((f, path, false));
        if side.exists() {
            files.push((f, side, true));
        }
    }
    let mut report = RecodeReport::default();
    let mut todo = Vec::new();
    let (mut nodes, mut table_nodes) = (0, 0);
    for (f, path, side) in files {
        // A stale temporary file of an interrupted recoding.
        let tmp = recode_path(&path);
        if tmp.exists() {
            fs::remove_file(&tmp).map_err(|e| GenerateError::io(&tmp, e))?;
        }
        let file = TableFile::open(&path, n, rule, f).map_err(GenerateError::Table)?;
        let Some(layout) = file.coded_layout() else {
            return Err(GenerateError::NotCoded { path, encoding: file.encoding() });
        };
        let with_shared = share && !side;
        // Without the set written yet, no file is coded with it.
        let wanted = set.as_ref().filter(|_| with_shared).map(|s: &Shared| s.sum);
        if (wanted.is_some() || !with_shared) && is_recoded(layout, segment, wanted) {
            report.files_kept += 1;
        } else {
            // Passes over the file: the shared set's, or a count and
            // then the coding.
            nodes += if with_shared { file.nodes() } else { 2 * file.nodes() };
            if with_shared {
                table_nodes += file.nodes();
            }
            todo.push((f, path, side));
        }
    }
    let count_first = set.is_none() && table_nodes > 0;
    progress.start(if count_first { table_nodes } else { 0 } + nodes, "recoding");
    if count_first {
        set = Some(make_set(&tb, n, rule, (max_live, segment), progress)?);
    }
    for (f, path, side) in todo {
        let with = set.as_ref().filter(|_| share && !side);
        if let Some(r) = recode_file(&path, n, rule, f, (segment, with), progress)
            .map_err(GenerateError::Table)?
        {
            report.files_recoded += 1;
            report.bytes_before += r.before;
            report.bytes_after += r.after;
            done(&path, r);
        }
    }
    // The sets of an earlier shape, once no file names them.
    if let Some(used) = used_sets(&tb) {
        shared::remove_unused(tb.dir(), &used).map_err(GenerateError::Table)?;
    }
    report.shared_models = set.map(|s| shared::file_name(s.sum));
    Ok(report)
}

/// The shared sets the files of `tb` name; `None` if a file cannot be
/// read (then no set is removed).
fn used_sets(tb: &Tablebase) -> Option<Vec<u64>> {
    let (n, rule) = (tb.slots(), tb.rule());
    let mut used = Vec::new();
    for f in fixed_sets(n, n) {
        let path = tb.path(f);
        for path in [side_path(&path), path] {
            if !path.exists() {
                continue;
            }
            let sum = TableFile::open(&path, n, rule, f).ok()?.shared_models();
            used.extend(sum.filter(|s| !used.contains(s)));
        }
    }
    Some(used)
}

/// Counts the symbols of every table file of `tb` with at most `max_live`
/// pieces not fixed, in segments of `segment` boards, and writes the set
/// made from them as the directory's shared set.
fn make_set(
    tb: &Tablebase,
    n: u8,
    rule: PassRule,
    (max_live, segment): (u8, usize),
    progress: &dyn Progress,
) -> Result<Shared, GenerateError> {
    let mut counts = ModelCounts::default();
    for f in fixed_sets(n, max_live) {
        let file = TableFile::open(&tb.path(f), n, rule, f).map_err(GenerateError::Table)?;
        counts.merge(count_file(&file, segment, progress).map_err(GenerateError::Table)?);
    }
    let models = Models::new(&counts).map_err(GenerateError::Unencodable)?;
    let sum = shared::write(tb.dir(), (n, rule, segment), &models).map_err(GenerateError::Table)?;
    Ok(Shared { models: Arc::new(models), sum })
}
