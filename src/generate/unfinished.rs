//! A table file while it is written: under its temporary name, one
//! sub-table at a time, readable back as it grows, and saved from time to
//! time with a [`Checkpoint`] from which a later run goes on.

use std::fs;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::generate::GenerateError;
use crate::generate::checkpoint::{self, Checkpoint, Done};
use crate::generate::packing::Packing;
use crate::generate::tmp_file::{create_tmp, open_tmp};
use crate::summary::Summary;
use crate::table::TableError;
use crate::table::format::{BLOCK, Encoding, Header, checksum, decode};
use crate::table::mmap::map_unfinished;

/// A table file being written: records as they are (encodings 1 and 2) or
/// compressed (encoding 3).
pub(super) enum Unfinished {
    Plain(Plain),
    Packed(Packing),
}

impl Unfinished {
    /// Creates the temporary file of `path` for `header` ([`Packing`]
    /// keeps sub-tables of at most `raw_in_memory` nodes in memory).
    pub(super) fn create(
        path: &Path,
        header: Header,
        raw_in_memory: u64,
    ) -> Result<Unfinished, GenerateError> {
        Ok(if header.encoding == Encoding::Packed {
            Unfinished::Packed(Packing::create(path, header, raw_in_memory)?)
        } else {
            Unfinished::Plain(Plain::create(path, header)?)
        })
    }

    /// The header.
    pub(super) fn header(&self) -> &Header {
        match self {
            Unfinished::Plain(f) => &f.header,
            Unfinished::Packed(f) => &f.header,
        }
    }

    /// Adds the records of sub-table `sub` (once); readers may look at
    /// them after the next [`Unfinished::flush`].
    pub(super) fn write_sub(&self, sub: usize, records: Vec<u8>) -> Result<(), GenerateError> {
        match self {
            Unfinished::Plain(f) => f.write_sub(sub, &records),
            Unfinished::Packed(f) => f.write_sub(sub, records),
        }
    }

    /// Drops what helps reading the sub-tables of `loose` loose pieces
    /// quickly (no reader may look at them meanwhile; they stay readable).
    pub(super) fn release(&mut self, loose: u32) {
        if let Unfinished::Packed(f) = self {
            f.release(loose);
        }
    }

    /// Makes the sub-tables written so far readable (no other thread may
    /// write meanwhile).
    pub(super) fn flush(&self) -> Result<(), GenerateError> {
        match self {
            Unfinished::Plain(_) => Ok(()),
            Unfinished::Packed(f) => f.flush(),
        }
    }

    /// The summary of node `node` of the written sub-table `sub`.
    pub(super) fn summary(&self, sub: usize, node: u64) -> Result<Summary, TableError> {
        match self {
            Unfinished::Plain(f) => {
                Ok(decode(f.record(sub, node), &f.header).expect("records this run encoded decode"))
            }
            Unfinished::Packed(f) => f.summary(sub, node),
        }
    }

    /// Completes the file, syncs it and renames it to `path`; returns its
    /// size. Its checkpoint, if any, goes.
    pub(super) fn finish(self, path: &Path) -> Result<u64, GenerateError> {
        let len = match self {
            Unfinished::Plain(f) => f.finish(path),
            Unfinished::Packed(f) => f.finish(path),
        }?;
        let ckpt = checkpoint::path_of(path);
        match fs::remove_file(&ckpt) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(GenerateError::io(&ckpt, e)),
            _ => Ok(len),
        }
    }

    /// Reopens the temporary file of `path` as `ckpt` describes it, after
    /// reading back every sub-table it lists; `None` if the file is not
    /// there or does not match.
    pub(super) fn resume(
        path: &Path,
        header: &Header,
        raw_in_memory: u64,
        ckpt: &Checkpoint,
    ) -> Option<Unfinished> {
        if header.encoding == Encoding::Packed {
            Packing::resume(path, header.clone(), raw_in_memory, ckpt).map(Unfinished::Packed)
        } else {
            Plain::resume(path, header.clone(), ckpt).map(Unfinished::Plain)
        }
    }

    /// Syncs what was flushed and saves a checkpoint that lists `done`
    /// (every sub-table flushed so far, in order).
    pub(super) fn checkpoint(&self, path: &Path, done: &[Done]) -> Result<(), GenerateError> {
        let mut ckpt = Checkpoint { done: done.to_vec(), ..Checkpoint::default() };
        match self {
            Unfinished::Plain(f) => f.sync()?,
            Unfinished::Packed(f) => (ckpt.data_len, ckpt.entries) = f.sync()?,
        }
        ckpt.save(path, self.header())
    }
}

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
    fn resume(path: &Path, header: Header, ckpt: &Checkpoint) -> Option<Plain> {
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
    fn sync(&self) -> Result<(), GenerateError> {
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
