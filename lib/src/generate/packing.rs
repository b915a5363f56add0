//! A compressed values-only file (encoding 3) while it is written: each
//! sub-table is compressed as soon as it is solved and appended to the
//! data, so no file is ever held uncompressed as a whole.
//!
//! Reading a record back costs a decompression unless its block is in the
//! thread's cache. The sub-tables a sub-table reads most are those of its
//! own file with one loose piece less (its captures), which were solved in
//! the group just before. So each sub-table's records are also kept as
//! they are ([`Raw`]: in memory if small, else in a scratch file next to
//! the table) until the group after next starts ([`Packing::release`]):
//! at most two groups of one file at a time.

use std::fs;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

use crate::generate::GenerateError;
use crate::generate::checkpoint::{Checkpoint, Data};
use crate::generate::tmp_file::{create_tmp, open_tmp};
use crate::summary::Summary;
use crate::table::format::{Header, decode};
use crate::table::mmap::map_scratch;
use crate::table::packed::{self, Entry, NODES};
use crate::table::{BlockCache, TableError, fresh_id};

/// A compressed file being written under its temporary name: the data
/// grows as sub-tables are solved; the header and block table are written
/// last ([`Packing::finish`]).
pub(super) struct Packing {
    tmp: PathBuf,
    pub(super) header: Header,
    file: fs::File,
    /// This file's key in the cache of decompressed blocks.
    id: u64,
    /// The cache its blocks are read back through
    /// ([`Packing::cache_blocks_in`]).
    cache: Arc<BlockCache>,
    /// [`packed::first_blocks`].
    first_block: Vec<usize>,
    /// Byte offset of the data.
    data: u64,
    /// What is in the data so far.
    written: Mutex<Written>,
    /// Sub-tables compressed but not yet in the data: their numbers and
    /// blocks.
    pending: Mutex<Vec<(usize, Vec<Vec<u8>>)>>,
    /// Per sub-table, its records as they are, until released.
    raw: Vec<OnceLock<Raw>>,
    /// Sub-tables with more nodes keep them in a scratch file.
    raw_in_memory: u64,
}

/// The data of a [`Packing`] so far.
struct Written {
    /// Its length.
    len: u64,
    /// The block table (the entries of the blocks not written yet are
    /// zero).
    entries: Vec<Entry>,
}

/// A sub-table's records, uncompressed.
enum Raw {
    Memory(Vec<u8>),
    /// A scratch file (removed when dropped) and its map.
    Scratch(PathBuf, memmap2::Mmap),
}

impl Raw {
    fn records(&self) -> &[u8] {
        match self {
            Raw::Memory(v) => v,
            Raw::Scratch(_, map) => map,
        }
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        if let Raw::Scratch(path, _) = self {
            // A scratch file left behind (`.tmp`) goes at the next start.
            let _ = fs::remove_file(path);
        }
    }
}

impl Packing {
    /// Creates the temporary file of `path`, with room for the header and
    /// block table.
    pub(super) fn create(
        path: &Path,
        header: Header,
        raw_in_memory: u64,
    ) -> Result<Packing, GenerateError> {
        let (tmp, file) = create_tmp(path)?;
        let io = |e| GenerateError::io(&tmp, e);
        let first_block = packed::first_blocks(&header);
        let blocks = *first_block.last().expect("one more entry than sub-tables");
        let data = packed::data_offset(&header, blocks) as u64;
        file.set_len(data).map_err(io)?;
        let written = Written { len: 0, entries: vec![Entry::default(); blocks] };
        Ok(Packing::assemble(tmp, header, file, written, raw_in_memory))
    }

    /// A packing of `file` (the temporary file `tmp`) whose data holds
    /// `written`, with no sub-table pending and no raw copy yet.
    fn assemble(
        tmp: PathBuf,
        header: Header,
        file: fs::File,
        written: Written,
        raw_in_memory: u64,
    ) -> Packing {
        let first_block = packed::first_blocks(&header);
        let blocks = *first_block.last().expect("one more entry than sub-tables");
        let data = packed::data_offset(&header, blocks) as u64;
        let raw = header.nodes.iter().map(|_| OnceLock::new()).collect();
        Packing {
            tmp,
            header,
            file,
            id: fresh_id(),
            cache: Arc::default(),
            first_block,
            data,
            written: Mutex::new(written),
            pending: Mutex::default(),
            raw,
            raw_in_memory,
        }
    }

    /// Reopens the temporary file of `path` as `ckpt` describes it: the
    /// data cut to its length, every block of the sub-tables it lists
    /// checked and decompressed. `None` if anything does not match.
    ///
    /// The sub-tables a run that was never stopped would still hold as they
    /// are (the group under way and the one before, [`live_groups`]) get
    /// their [`Raw`] copies back from what was decompressed, so a resumed
    /// run reads them as fast. A copy that cannot be made (a scratch file
    /// that cannot be written) is left out: those records are then read
    /// from the data, the same values more slowly.
    pub(super) fn resume(
        path: &Path,
        header: Header,
        raw_in_memory: u64,
        ckpt: &Checkpoint,
    ) -> Option<Packing> {
        let (tmp, file) = open_tmp(path)?;
        let first_block = packed::first_blocks(&header);
        let blocks = *first_block.last().expect("one more entry than sub-tables");
        let data = packed::data_offset(&header, blocks) as u64;
        if ckpt.entries.len() != blocks || file.metadata().ok()?.len() < data + ckpt.data_len {
            return None;
        }
        file.set_len(data + ckpt.data_len).ok()?;
        let written = Written { len: ckpt.data_len, entries: ckpt.entries.clone() };
        let packing = Packing::assemble(tmp, header, file, written, raw_in_memory);
        let live = live_groups(&packing.header, ckpt);
        let mut out = vec![0u8; NODES];
        let mut used = 0u64;
        for d in &ckpt.done {
            let nodes = packing.header.nodes[d.sub];
            let keep = live.contains(&d.sub.count_ones());
            let mut records = Vec::with_capacity(if keep { nodes as usize } else { 0 });
            for k in 0..(nodes as usize).div_ceil(NODES) {
                let e = ckpt.entries[packing.first_block[d.sub] + k];
                let end = e.start.checked_add(u64::from(e.len))?;
                if end > ckpt.data_len {
                    return None;
                }
                let mut bytes = vec![0u8; e.len as usize];
                packing.file.read_exact_at(&mut bytes, data + e.start).ok()?;
                let len = packed::block_len(nodes, k);
                if !e.checks(&bytes) || packed::decompress(&bytes, &mut out[..len]).is_none() {
                    return None;
                }
                if keep {
                    records.extend_from_slice(&out[..len]);
                }
                used += u64::from(e.len);
            }
            if keep && let Ok(raw) = packing.raw_copy(d.sub, records) {
                let _ = packing.raw[d.sub].set(raw);
            }
        }
        (used == ckpt.data_len).then_some(packing)
    }

    /// Syncs the data written so far; returns its length and the block
    /// table, for a checkpoint.
    pub(super) fn synced<R>(&self, f: impl FnOnce(Data<'_>) -> R) -> Result<R, GenerateError> {
        self.file.sync_data().map_err(|e| GenerateError::io(&self.tmp, e))?;
        let written = self.written.lock().expect("no writer panicked");
        Ok(f(Data { len: written.len, entries: &written.entries, stored: None }))
    }

    /// Compresses the records of sub-table `sub` (written once, before any
    /// reader looks at them); they are appended to the data by the next
    /// [`Packing::flush`], and kept as they are until released.
    pub(super) fn write_sub(&self, sub: usize, records: Vec<u8>) -> Result<(), GenerateError> {
        assert_eq!(records.len() as u64, self.header.nodes[sub], "sub-table {sub} is complete");
        let blocks: Vec<Vec<u8>> = records.par_chunks(NODES).map(packed::compress).collect();
        self.pending.lock().expect("no writer panicked").push((sub, blocks));
        let raw = self.raw_copy(sub, records)?;
        assert!(self.raw[sub].set(raw).is_ok(), "sub-table {sub} is written once");
        Ok(())
    }

    /// The [`Raw`] copy of sub-table `sub`'s `records`: in memory if small,
    /// else in a scratch file.
    fn raw_copy(&self, sub: usize, records: Vec<u8>) -> Result<Raw, GenerateError> {
        if records.len() as u64 <= self.raw_in_memory {
            return Ok(Raw::Memory(records));
        }
        let path = self.tmp.with_extension(format!("sub{sub:04x}.tmp"));
        let io = |e| GenerateError::io(&path, e);
        fs::write(&path, &records).map_err(io)?;
        drop(records);
        // SAFETY: the scratch file was written in full just above and is
        // never written again; `Raw::drop` removes its name only as the
        // map goes.
        #[allow(unsafe_code)]
        let map = fs::File::open(&path).and_then(|f| unsafe { map_scratch(&f) }).map_err(io)?;
        Ok(Raw::Scratch(path, map))
    }

    /// Reads its blocks back through `cache` (its tablebase's) rather than
    /// a cache of its own.
    pub(super) fn cache_blocks_in(&mut self, cache: Arc<BlockCache>) {
        self.cache = cache;
    }

    /// Drops the uncompressed records of the sub-tables with `loose` loose
    /// pieces; they are read from the data from now on.
    pub(super) fn release(&mut self, loose: u32) {
        for (sub, raw) in self.raw.iter_mut().enumerate() {
            if sub.count_ones() == loose {
                raw.take();
            }
        }
    }

    /// Appends the sub-tables compressed since the last call to the data,
    /// in the order of their numbers, so that the file's bytes do not
    /// depend on which thread finished first.
    pub(super) fn flush(&self) -> Result<(), GenerateError> {
        let mut pending = std::mem::take(&mut *self.pending.lock().expect("no writer panicked"));
        pending.sort_unstable_by_key(|&(sub, _)| sub);
        let mut written = self.written.lock().expect("no writer panicked");
        let Written { len, entries } = &mut *written;
        for (sub, blocks) in pending {
            let mut bytes = Vec::with_capacity(blocks.iter().map(Vec::len).sum());
            let first = self.first_block[sub];
            for (k, b) in blocks.iter().enumerate() {
                entries[first + k] = Entry::new(*len + bytes.len() as u64, b);
                bytes.extend_from_slice(b);
            }
            self.file
                .write_all_at(&bytes, self.data + *len)
                .map_err(|e| GenerateError::io(&self.tmp, e))?;
            *len += bytes.len() as u64;
        }
        Ok(())
    }

    /// The summary of node `node` of the written sub-table `sub`.
    pub(super) fn summary(&self, sub: usize, node: u64) -> Result<Summary, TableError> {
        let nodes = self.header.nodes[sub] as usize;
        let node = node as usize;
        debug_assert!(node < nodes);
        let corrupt = |what: String| TableError::Corrupt { path: self.tmp.clone(), what };
        let decode = |code: u8| {
            decode(&[code], &self.header)
                .ok_or_else(|| corrupt(format!("invalid record {node} of sub-table {sub}")))
        };
        if let Some(raw) = self.raw[sub].get() {
            return decode(raw.records()[node]);
        }
        let b = self.first_block[sub] + node / NODES;
        let len = packed::block_len(nodes as u64, node / NODES);
        let mut error = None;
        let fill = |out: &mut [u8]| {
            let e = self.written.lock().expect("no writer panicked").entries[b];
            let mut bytes = vec![0u8; e.len as usize];
            if let Err(source) = self.file.read_exact_at(&mut bytes, self.data + e.start) {
                error = Some(TableError::Io { path: self.tmp.clone(), source });
                return false;
            }
            e.checks(&bytes) && packed::decompress(&bytes, out).is_some()
        };
        let code = self.cache.with_block(self.id, b, len, fill, |bytes| bytes[node % NODES]);
        match code {
            Some(code) => decode(code),
            None => Err(error.unwrap_or_else(|| corrupt(format!("block {b} does not read back")))),
        }
    }

    /// Writes the header and block table, syncs the file and renames it to
    /// `path`; returns its size.
    pub(super) fn finish(self, path: &Path) -> Result<u64, GenerateError> {
        self.flush()?;
        let io = |e| GenerateError::io(&self.tmp, e);
        let Written { len, entries } = self.written.into_inner().expect("no writer panicked");
        let head = packed::head_bytes(&self.header, &entries);
        debug_assert_eq!(head.len() as u64, self.data);
        self.file.write_all_at(&head, 0).map_err(io)?;
        self.file.sync_all().map_err(io)?;
        drop(self.file);
        fs::rename(&self.tmp, path).map_err(|e| GenerateError::io(path, e))?;
        Ok(self.data + len)
    }
}

/// The groups (numbers of loose pieces) whose [`Raw`] copies a run that
/// was never stopped would hold when it reached checkpoint `ckpt`: the
/// group under way (the fewest loose pieces of a stored sub-table not
/// done) and the one before it ([`Packing::release`] drops a group when
/// the one after next starts). None when every sub-table is done.
fn live_groups(header: &Header, ckpt: &Checkpoint) -> Vec<u32> {
    let under_way = (0..header.nodes.len())
        .filter(|&sub| header.nodes[sub] > 0 && !ckpt.done.iter().any(|d| d.sub == sub))
        .map(|sub| sub.count_ones())
        .min();
    match under_way {
        Some(g) => [g.checked_sub(1), Some(g)].into_iter().flatten().collect(),
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::checkpoint::Done;
    use crate::moves::PassRule;
    use crate::table::format::checksum;

    /// Which sub-tables hold [`Raw`] copies, and their bytes.
    fn raws(p: &Packing) -> Vec<(usize, Vec<u8>)> {
        let held = p.raw.iter().enumerate();
        held.filter_map(|(sub, r)| r.get().map(|r| (sub, r.records().to_vec()))).collect()
    }

    /// A file stopped inside its third group resumes with the raw copies a
    /// run that was never stopped holds there: the same sub-tables, the
    /// same bytes, in memory or in scratch files.
    #[test]
    fn resume_restores_the_live_raw_copies() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f0000.cctb");
        // Sub-tables of 1 to 3 blocks; sub-table 5 is not stored.
        let nodes: Vec<u64> = (0..16u64).map(|i| if i == 5 { 0 } else { 3000 + 700 * i }).collect();
        let header = Header {
            n: 4,
            rule: PassRule::Always,
            fixed: 0,
            encoding: crate::table::format::Encoding::Packed,
            nodes,
        };
        let records = |sub: usize| -> Vec<u8> {
            (0..header.nodes[sub]).map(|i| (i * 7 + sub as u64 * 13 % 251) as u8).collect()
        };
        let mut p = Packing::create(&path, header.clone(), 8000).unwrap();
        let mut order: Vec<usize> = (0..16).filter(|&i| header.nodes[i] > 0).collect();
        order.sort_by_key(|&i| (i.count_ones(), i));
        // Groups 0 and 1 complete, then the first two of group 2.
        let written: Vec<usize> = order.iter().copied().filter(|&i| i.count_ones() < 2).collect();
        let mut done = Vec::new();
        for group in written.chunk_by(|a, b| a.count_ones() == b.count_ones()) {
            for &sub in group {
                p.write_sub(sub, records(sub)).unwrap();
                done.push(Done { sub, counts: [0; 5], sum: checksum(&records(sub)) });
            }
            p.flush().unwrap();
            if let Some(k) = group[0].count_ones().checked_sub(1) {
                p.release(k);
            }
        }
        for &sub in order.iter().filter(|&&i| i.count_ones() == 2).take(2) {
            p.write_sub(sub, records(sub)).unwrap();
            p.flush().unwrap();
            done.push(Done { sub, counts: [0; 5], sum: checksum(&records(sub)) });
        }
        let (data_len, entries) = p.synced(|d| (d.len, d.entries.to_vec())).unwrap();
        let want = raws(&p);
        assert!(want.iter().any(|(s, _)| s.count_ones() == 1), "group 1 is held");
        assert!(want.iter().all(|(s, _)| s.count_ones() >= 1), "group 0 is released");
        drop(p);
        let ckpt = Checkpoint { done, data_len, entries, ..Checkpoint::default() };
        let q = Packing::resume(&path, header.clone(), 8000, &ckpt).expect("resumes");
        assert_eq!(raws(&q), want);
        // Both kinds of copy are there.
        let held = q.raw.iter().filter_map(OnceLock::get);
        let scratch = held.filter(|r| matches!(r, Raw::Scratch(..))).count();
        assert!(scratch > 0 && scratch < want.len(), "{scratch} of {} in scratch", want.len());
        for (sub, bytes) in &want {
            assert_eq!(bytes, &records(*sub));
        }
    }
}
