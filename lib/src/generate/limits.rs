//! [`Limits`]: where generation trades time for memory, and how often it
//! saves its work (the files are the same bytes whatever they are).

use std::time::Duration;

use crate::table::coded;

/// Sizes above which generation saves memory at some cost in time, and how
/// often it saves its work. The files are the same bytes whatever they are
/// (tested).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Sub-tables with more nodes are solved one at a time (per file),
    /// each with all threads, so that at most one is in memory.
    pub big_nodes: u64,
    /// Tables with depths: sub-tables with more states are solved values
    /// first, then depths level by level (2 bytes a state, all threads;
    /// `crate::solve::levels`), not by the core with depths (about 11
    /// bytes a state and one thread). The scores are the same.
    pub by_levels: usize,
    /// Sub-tables with more nodes let go of what their moves read (the
    /// model sets of the other files and every worker's cache of decoded
    /// blocks) once their moves are read, before the rest of their graph
    /// and their retrograde core, which need the memory: for
    /// the largest 12-slot sub-tables that is 1.5 GB of model sets and
    /// the caches (0.5 GB by default). The next sub-table reads them again,
    /// seconds against the minutes these take.
    pub release_nodes: u64,
    /// While a compressed file is written, sub-tables with more nodes keep
    /// their uncompressed records for the next group in a scratch file
    /// rather than in memory.
    pub raw_in_memory: u64,
    /// A file being written saves a checkpoint (after a sub-table or a
    /// batch of small ones) when the last one is at least this old; a
    /// stopped run loses at most about this much work (plus the sub-table
    /// under way).
    pub checkpoint: Duration,
    /// Encoding 4: the model sets of a file, by the limits of
    /// `model_sets_with` of the tables (one for files of at
    /// most `.0` nodes; else one for each sub-table of at least `.1` 甲
    /// nodes, and one for the rest). Unlike the others, these change the
    /// bytes of the files: anything but the default is for tests.
    pub sets: (u64, u64),
    /// Tables with depths: score each sub-table's exits by streaming the
    /// sub-tables they lead to (`stream`), not by reading each child.
    /// The bytes are the same.
    pub stream: bool,
}

/// [`Limits::checkpoint`] by default.
pub const CHECKPOINT: Duration = Duration::from_secs(120);

impl Default for Limits {
    fn default() -> Self {
        Limits {
            big_nodes: 1 << 20,
            by_levels: 1 << 22,
            release_nodes: 1 << 26,
            raw_in_memory: 1 << 18,
            checkpoint: CHECKPOINT,
            sets: (coded::ONE_SET, coded::OWN_SET),
            stream: true,
        }
    }
}
