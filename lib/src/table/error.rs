//! [`TableError`]: what can be wrong with a table file, or with tables
//! asked about a position they are not for, for every reader of tables (the
//! path is always named); [`ProbeError`]: why the tables cannot answer.

use std::fmt;
use std::path::PathBuf;

use crate::moves::PassRule;

/// What went wrong with a table file.
#[derive(Debug)]
#[non_exhaustive]
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
    /// A position of another size than the tables'.
    OtherSize {
        /// The directory of the tables.
        dir: PathBuf,
        /// The tables' slots.
        tables: u8,
        /// The position's slots.
        position: u8,
    },
    /// A request under another pass rule than the tables'.
    OtherRule {
        /// The directory of the tables.
        dir: PathBuf,
        /// The tables' rule.
        tables: PassRule,
        /// The rule asked for.
        asked: PassRule,
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
            TableError::OtherSize { dir, tables, position } => write!(
                f,
                "the tables in {} are for {tables} slots, not for a position of {position}",
                dir.display()
            ),
            TableError::OtherRule { dir, tables, asked } => write!(
                f,
                "the tables in {} are for the pass rule {}, not {}",
                dir.display(),
                tables.name(),
                asked.name()
            ),
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
            TableError::Corrupt { .. }
            | TableError::OtherSize { .. }
            | TableError::OtherRule { .. } => None,
        }
    }
}

/// Why the tables cannot answer.
#[derive(Debug)]
#[non_exhaustive]
pub enum ProbeError {
    /// A needed table file does not exist.
    Missing {
        /// The file.
        path: PathBuf,
        /// Slots.
        n: u8,
        /// The number of pieces not fixed in it: `--max-live` to generate.
        live: u8,
        /// The other tables are values only (`--values-only` to generate).
        values_only: bool,
    },
    /// A table file is damaged, or the tables are for another size or
    /// rule ([`TableError::OtherSize`], [`TableError::OtherRule`]).
    Table(TableError),
    /// The stored depths do not lead to the end: the tables disagree with
    /// each other.
    Inconsistent(String),
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Missing { path, n, live, values_only } => write!(
                f,
                "no table {} ({n} slots, signatures with {live} piece{} not fixed, {})",
                path.display(),
                if *live == 1 { "" } else { "s" },
                if *values_only { "values only" } else { "with depths" }
            ),
            ProbeError::Table(e) => e.fmt(f),
            ProbeError::Inconsistent(what) => write!(f, "tables are inconsistent: {what}"),
        }
    }
}

/// The message of [`ProbeError::Table`] is its table error's, so
/// `source()` passes on that error's own source.
impl std::error::Error for ProbeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProbeError::Table(e) => std::error::Error::source(e),
            ProbeError::Missing { .. } | ProbeError::Inconsistent(_) => None,
        }
    }
}

impl From<TableError> for ProbeError {
    fn from(e: TableError) -> Self {
        ProbeError::Table(e)
    }
}
