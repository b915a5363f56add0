//! [`TableError`]: what can be wrong with a table file, for every reader of
//! tables (the path is always named).

use std::fmt;
use std::path::PathBuf;

/// What went wrong with a table file.
#[derive(Debug)]
pub enum TableError {
    /// The file could not be opened or mapped.
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file's bytes are not a valid table (or not the expected one).
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Io { path, source } => {
                write!(f, "cannot read table {}: {source}", path.display())
            }
            TableError::Corrupt { path, what } => {
                write!(
                    f,
                    "corrupt table {}: {what} (run generate again to replace it)",
                    path.display()
                )
            }
        }
    }
}

/// The message of [`TableError::Io`] shows its I/O error already, so
/// `source()` passes on that error's own source: a chain printed whole
/// (`{:#}`) names each cause once.
impl std::error::Error for TableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TableError::Io { source, .. } => source.source(),
            TableError::Corrupt { .. } => None,
        }
    }
}
