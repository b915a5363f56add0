//! A table file of encoding 1 or 2 (records as they are) while it is
//! written; also the scratch file in which a file of encoding 4 keeps the
//! records of the sub-tables it codes when it ends (`coding.rs`).

use std::fs;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::generate::GenerateError;
use crate::generate::checkpoint::Checkpoint;
use crate::generate::tmp_file::{create_tmp, open_tmp};
use crate::table::format::{BLOCK, Header, checksum};
use crate::table::mmap::map_unfinished;

/// A file of encoding 1 or 2 being written under its temporary name: the header is in
/// place, sub-tables are added as they are solved and read back through a
/// map ([`map_unfinished`] states what that relies on).
pub(super) struct Plain {
    tmp: PathBuf,
    pub(super) header: Header,
    file: Mutex<fs::File>,
    map: memmap2::Mmap,
    /// Byte offset of the payload.
    payload: usize,
    /// Per sub-table, its first record.
    starts: Vec<u64>,
}

impl Plain {
    /// Creates the temporary file of `path` at its final length, with the
    /// header written.
    pub(super) fn create(path: &Path, header: Header) -> Result<Plain, GenerateError> {
        let (tmp, mut file) = create_tmp(path)?;
        let io = |e| GenerateError::io(&tmp, e);
        file.set_len(header.file_len() as u64).map_err(io)?;
        let head = header.to_bytes();
        file.write_all(&head).map_err(io)?;
        // SAFETY: the file has its final length (set above) and is never
        // truncated; each sub-table is written once before it is read
        // (`write_sub`), and the checksums only after the map is dropped
        // (`finish`).
        #[allow(unsafe_code)]
        let map = unsafe { map_unfinished(&file) }.map_err(io)?;
        let starts = starts(&header);
        Ok(Plain { tmp, header, file: Mutex::new(file), map, payload: head.len(), starts })
    }

    /// Reopens the temporary file of `path`, checking the records of every
    /// sub-table `ckpt` lists against their checksums.
    pub(super) fn resume(path: &Path, header: Header, ckpt: &Checkpoint) -> Option<Plain> {
        let (tmp, file) = open_tmp(path)?;
        if file.metadata().ok()?.len() != header.file_len() as u64
            || !ckpt.entries.is_empty()
            || ckpt.data_len != 0
        {
            return None;
        }
        // SAFETY: the length was checked to be final just above, and from
        // here on the file is written as `Plain::create`'s is.
        #[allow(unsafe_code)]
        let map = unsafe { map_unfinished(&file) }.ok()?;
        let payload = header.len();
        let starts = starts(&header);
        let plain = Plain { tmp, header, file: Mutex::new(file), map, payload, starts };
        let len = plain.header.record_len();
        let sound = ckpt.done.iter().all(|d| {
            let at = plain.offset(d.sub, 0);
            checksum(&plain.map[at..at + plain.header.nodes[d.sub] as usize * len]) == d.sum
        });
        sound.then_some(plain)
    }

    /// Syncs the records written so far.
    pub(super) fn sync(&self) -> Result<(), GenerateError> {
        let file = self.file.lock().expect("no writer panicked");
        file.sync_data().map_err(|e| GenerateError::io(&self.tmp, e))
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

    /// Removes the temporary file (a scratch file no longer needed).
    pub(super) fn discard(self) -> Result<(), GenerateError> {
        drop(self.map);
        fs::remove_file(&self.tmp).map_err(|e| GenerateError::io(&self.tmp, e))
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

/// The first record of each sub-table of `header`.
fn starts(header: &Header) -> Vec<u64> {
    header
        .nodes
        .iter()
        .scan(0, |total, &nodes| {
            let start = *total;
            *total += nodes;
            Some(start)
        })
        .collect()
}
