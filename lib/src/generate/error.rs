//! [`GenerateError`]: why generation failed.

use std::path::{Path, PathBuf};

use crate::table::TableError;
use crate::table::format::Encoding;

/// Why generation failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum GenerateError {
    /// Reading or writing a file.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A table needed as input is damaged.
    Table(TableError),
    /// A complete table of another record encoding is in the directory.
    Mixed {
        /// The file.
        path: PathBuf,
        /// Its encoding.
        encoding: Encoding,
        /// The encoding the run writes.
        writing: Encoding,
    },
    /// The solver made a summary that has no record (a bug).
    Unencodable(String),
    /// A configuration no run can make: a size the engine does not
    /// support.
    Config(String),
    /// A sub-table's depths do not fit the core that solves it (over 254
    /// plies, `crate::solve::levels`), or disagree with its values.
    Depth(String),
    /// Another run is writing to the directory.
    Busy(PathBuf),
    /// `recode` found a file that is not of encoding 4.
    NotCoded {
        /// The file.
        path: PathBuf,
        /// Its encoding.
        encoding: Encoding,
    },
    /// Files are missing or incomplete in a directory this process cannot
    /// write to.
    ReadOnly {
        /// The directory.
        dir: PathBuf,
        /// The lock file that could not be written.
        lock: PathBuf,
        /// Why.
        source: std::io::Error,
        /// Files missing or incomplete.
        missing: usize,
    },
}

impl GenerateError {
    /// An I/O error on `path`.
    pub(super) fn io(path: &Path, source: std::io::Error) -> GenerateError {
        GenerateError::Io { path: path.to_path_buf(), source }
    }
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateError::Io { path, source } => {
                write!(f, "cannot write {}: {source}", path.display())
            }
            GenerateError::Table(e) => e.fmt(f),
            GenerateError::Mixed { path, encoding, writing } => write!(
                f,
                "{} holds {}, which cannot be mixed with the tables asked for: remove it if it does not belong (generate makes it again), use another --tables directory{}",
                path.display(),
                encoding.name(),
                match (encoding.has_depths(), writing.has_depths()) {
                    (true, false) => " or drop --values-only",
                    (false, true) => " or add --values-only",
                    // Encoding 1, which earlier versions wrote: read, not
                    // written any more.
                    _ =>
                        " (tables of 8 bytes a node, from an earlier version, are read but no longer made)",
                }
            ),
            GenerateError::Unencodable(what) => write!(f, "internal error: {what}"),
            GenerateError::Config(what) => write!(f, "cannot generate: {what}"),
            GenerateError::Depth(what) => write!(f, "cannot store the depths of {what}"),
            GenerateError::Busy(dir) => write!(
                f,
                "another chaosclock generate or recode is writing to {} (it holds {}): wait for it to end or stop it",
                dir.display(),
                dir.with_extension("lock").display()
            ),
            GenerateError::NotCoded { path, encoding } => write!(
                f,
                "{} holds {}: only tables with depths of encoding 4 are recoded",
                path.display(),
                encoding.name()
            ),
            GenerateError::ReadOnly { dir, lock, source, missing } => write!(
                f,
                "cannot write to {}: {} file{} missing or incomplete, and {} cannot be written ({source}); make the directory writable or use another --tables directory",
                dir.display(),
                missing,
                if *missing == 1 { " is" } else { "s are" },
                lock.display()
            ),
        }
    }
}

/// The messages of [`GenerateError::Io`] and [`GenerateError::Table`] show
/// the error they wrap, so `source()` passes on that error's own source: a
/// chain printed whole (`{:#}`) names each cause once.
impl std::error::Error for GenerateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GenerateError::Io { source, .. } | GenerateError::ReadOnly { source, .. } => {
                source.source()
            }
            GenerateError::Table(e) => e.source(),
            GenerateError::Mixed { .. }
            | GenerateError::Unencodable(_)
            | GenerateError::Config(_)
            | GenerateError::Depth(_)
            | GenerateError::Busy(_)
            | GenerateError::NotCoded { .. } => None,
        }
    }
}
