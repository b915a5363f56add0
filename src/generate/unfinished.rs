//! A table file while it is written: under its temporary name, one
//! sub-table at a time, readable back through a map.

use std::fs;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::generate::GenerateError;
use crate::table::format::{BLOCK, Header, checksum};

/// A table file being written under its temporary name: the header is in
/// place, sub-tables are added as they are solved and read back through a
/// map ([`crate::table::mmap::map_unfinished`] states what that relies on).
pub(super) struct Unfinished {
    tmp: PathBuf,
    pub(super) header: Header,
    file: Mutex<fs::File>,
    map: memmap2::Mmap,
    /// Byte offset of the payload.
    payload: usize,
    /// Per sub-table, its first record.
    starts: Vec<u64>,
}

impl Unfinished {
    /// Creates the temporary file of `path` at its final length, with the
    /// header written.
    pub(super) fn create(path: &Path, header: Header) -> Result<Unfinished, GenerateError> {
        let tmp = path.with_extension("cctb.tmp");
        let io = |e| GenerateError::io(&tmp, e);
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)
            .map_err(io)?;
        file.set_len(header.file_len() as u64).map_err(io)?;
        let head = header.to_bytes();
        file.write_all(&head).map_err(io)?;
        let map = crate::table::mmap::map_unfinished(&file).map_err(io)?;
        let mut starts = Vec::with_capacity(header.nodes.len());
        let mut total = 0;
        for &nodes in &header.nodes {
            starts.push(total);
            total += nodes;
        }
        Ok(Unfinished { tmp, header, file: Mutex::new(file), map, payload: head.len(), starts })
    }

    /// The byte offset of record `node` of sub-table `sub`.
    pub(super) fn offset(&self, sub: usize, node: u64) -> usize {
        self.payload + (self.starts[sub] + node) as usize * self.header.record_len()
    }

    /// Writes the records of sub-table `sub` (written once, before any
    /// reader looks at them).
    pub(super) fn write_sub(&self, sub: usize, records: &[u8]) -> Result<(), GenerateError> {
        let len = self.header.nodes[sub] as usize * self.header.record_len();
        assert_eq!(records.len(), len, "sub-table {sub} is complete");
        let io = |e| GenerateError::io(&self.tmp, e);
        let mut file = self.file.lock().expect("no writer panicked");
        file.seek(SeekFrom::Start(self.offset(sub, 0) as u64)).map_err(io)?;
        file.write_all(records).map_err(io)
    }

    /// Record `node` of the written sub-table `sub`.
    pub(super) fn record(&self, sub: usize, node: u64) -> &[u8] {
        debug_assert!(node < self.header.nodes[sub]);
        let at = self.offset(sub, node);
        &self.map[at..at + self.header.record_len()]
    }

    /// Adds the block checksums and the final checksum, syncs the file and
    /// renames it to `path`; returns its size.
    pub(super) fn finish(self, path: &Path) -> Result<u64, GenerateError> {
        let io = |e| GenerateError::io(&self.tmp, e);
        let end = self.payload + self.header.payload_len();
        let mut sums = Vec::with_capacity(8 * self.header.blocks());
        for block in self.map[self.payload..end].chunks(BLOCK) {
            sums.extend_from_slice(&checksum(block).to_le_bytes());
        }
        let mut whole = self.header.to_bytes();
        whole.extend_from_slice(&sums);
        sums.extend_from_slice(&checksum(&whole).to_le_bytes());
        drop(self.map);
        let mut file = self.file.into_inner().expect("no writer panicked");
        file.seek(SeekFrom::Start(end as u64)).map_err(io)?;
        file.write_all(&sums).map_err(io)?;
        file.sync_all().map_err(io)?;
        drop(file);
        fs::rename(&self.tmp, path).map_err(|e| GenerateError::io(path, e))?;
        Ok(self.header.file_len() as u64)
    }
}
