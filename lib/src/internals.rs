//! Hooks into the file format and the numbering of states, for the crate's
//! own integration tests (which craft damaged files and read raw records)
//! and for `research/examples/depth_study.rs` (which studies raw tables).
//!
//! This module is hidden from the documentation and is **not** part of the
//! library's API: anything in it may change or go in any release. A
//! program that embeds the library uses the items of the crate root and of
//! its public modules instead.

use crate::table::{TableError, TableFile};

/// The bytes of a table file: header, records, checksums.
pub mod format {
    pub use crate::table::format::*;
}

/// The compressed blocks of values-only files.
pub mod packed {
    pub use crate::table::packed::*;
}

/// The values-only byte of a record.
pub mod values {
    pub use crate::table::values::*;
}

/// The range coder of the compact depth blocks (record encoding 4).
pub mod rans {
    pub use crate::table::rans::*;
}

/// The compact blocks of values and depths (record encoding 4).
pub mod depth_code {
    pub use crate::table::depth_code::*;
}

/// The segments of blocks of encoding 4 with segments.
pub mod segment {
    pub use crate::table::segment::*;
}

/// The layout of files of record encoding 4.
pub mod coded {
    pub use crate::table::coded::*;
}

/// Converting files with depths of encoding 1 into encoding 4 (until
/// `generate` writes encoding 4 itself).
pub mod convert {
    pub use crate::table::convert::*;
}

/// The symmetry of signatures.
pub mod symmetry {
    pub use crate::symmetry::*;
}

pub use crate::index::SigIndex;
pub use crate::position::{walk_origin, walk_target};
pub use crate::random::{Rng, random_position};
pub use crate::signature::{SigKey, signature};
pub use crate::summary::Summary;

/// The bit mask (bit p for piece p) of `side`'s pieces on an `n`-slot
/// board (`n` at most 14).
pub fn pieces_mask(side: crate::Side, n: u8) -> u16 {
    side.pieces_mask(n)
}

/// The owner of the piece `piece` (at least 1).
pub fn owner_of(piece: u8) -> crate::Side {
    crate::Side::owner_of(piece)
}

/// A score in 16 bits: value in the top 3, depth (at most 8191) below.
pub fn pack(score: crate::Score) -> u16 {
    score.pack()
}

/// [`Position::play`] without the check: `m` must be one of
/// [`Position::legal_moves`] (a fast path for the research programs).
///
/// [`Position::play`]: crate::Position::play
/// [`Position::legal_moves`]: crate::Position::legal_moves
pub fn play_unchecked(pos: &crate::Position, m: crate::Move) -> crate::Position {
    pos.play_unchecked(m)
}

/// Opens a table file as [`TableFile::open`] opens the largest ones: the
/// head of an encoding-4 file that [`coded::Layout::is_standard`] accepts
/// is not checked until [`TableFile::verify_all`] or
/// [`TableFile::check_sums`].
///
/// # Errors
/// As [`TableFile::open`].
pub fn open_unchecked_head(
    path: &std::path::Path,
    n: u8,
    rule: crate::PassRule,
    fixed: u16,
) -> Result<TableFile, TableError> {
    TableFile::open_with(path, n, rule, fixed, 0)
}

/// The raw parts of a [`TableFile`]: its header, its records and the
/// numbering of its nodes.
pub trait RawFile {
    /// The header.
    fn header(&self) -> &format::Header;

    /// The summary of node `node` of sub-table `sub`.
    ///
    /// # Errors
    /// A damaged block or record.
    fn record(&self, sub: usize, node: u64) -> Result<Summary, TableError>;

    /// The summary of node `node` of sub-table `sub` if the file stores
    /// it; `None` for a node whose scores are derived from its children
    /// (a 乙 node of record encoding 4).
    ///
    /// # Errors
    /// A damaged block or record.
    fn stored(&self, sub: usize, node: u64) -> Result<Option<Summary>, TableError>;

    /// The board index of sub-table `sub`.
    fn board_index(&self, sub: usize) -> &SigIndex;
}

impl RawFile for TableFile {
    fn header(&self) -> &format::Header {
        TableFile::header(self)
    }

    fn record(&self, sub: usize, node: u64) -> Result<Summary, TableError> {
        TableFile::record(self, sub, node)
    }

    fn stored(&self, sub: usize, node: u64) -> Result<Option<Summary>, TableError> {
        Ok(match TableFile::lookup(self, sub, node)? {
            crate::table::Record::Stored(s) => Some(s),
            crate::table::Record::Derived(_) => None,
        })
    }

    fn board_index(&self, sub: usize) -> &SigIndex {
        TableFile::board_index(self, sub)
    }
}
