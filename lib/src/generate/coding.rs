//! A file of encoding 4 (`table/coded.rs`) while it is written, with its
//! side file (`f{F}.side.cctb`, 乙's depth records): both under temporary
//! names, coded sub-table by sub-table as they are solved (docs/depths.md,
//! "Generation").
//!
//! The model sets follow [`coded::model_sets_with`]. A sub-table with a
//! set of its own is coded as soon as its group is solved: its models,
//! then its blocks, appended to the data of both files in the order of the
//! sub-tables' numbers. The others share set 0, which needs all their
//! boards: their records (encoding 1, 8 bytes a node) wait in a scratch
//! file (`f{F}.raw.cctb.tmp`, sparse: only what is written takes room) and
//! are coded when the file ends, set 0 first, then their blocks. So a file
//! of one set (at most [`coded::ONE_SET`] nodes) is coded at its end,
//! byte for byte as the converter codes it.
//!
//! Later sub-tables read the earlier ones back: those of set 0 from the
//! scratch file, the others from the blocks just written (甲's nodes from
//! the table file, 乙's from the side file), so no sub-table's records stay
//! in memory. A checkpoint lists both files' entries and the sub-tables
//! done; the scratch file is synced with them.

use std::fs;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::generate::GenerateError;
use crate::generate::checkpoint::{Checkpoint, Data, Done, Stored};
use crate::generate::plain::Plain;
use crate::generate::tmp_file::{create_tmp, open_tmp};
use crate::index::SigIndex;
use crate::side::Side;
use crate::summary::Summary;
use crate::table::coded::{self, BOARD_BYTES, BOARDS, NodeScores};
use crate::table::convert::{self, blocks_of, code_sets};
use crate::table::depth_code::{BoardCode, Models};
use crate::table::format::{Encoding, Header, decode, sub_loose};
use crate::table::packed::{ENTRY, Entry};
use crate::table::{BlockCache, TableError, format, fresh_id};

/// The side file of the table file `path`.
pub(crate) fn side_path(path: &Path) -> PathBuf {
    path.with_extension("side.cctb")
}

/// The scratch file of the table file `path` (its temporary name is the
/// one [`Plain`] writes).
fn raw_path(path: &Path) -> PathBuf {
    path.with_extension("raw.cctb")
}

/// One of the two files: the table file (storing 甲's depth records) or
/// the side file (乙's), by [`Side::index`].
struct Out {
    tmp: PathBuf,
    file: fs::File,
    /// Its key in the cache of decoded blocks.
    id: u64,
}

/// What one file's data holds so far. Its blocks' entries are not kept
/// here but in their places in the file's head, written there as their
/// blocks are appended (zero until then) and read from there: the 12-slot
/// file with no fixed piece has 34 million blocks a file, 1.1 GB of
/// entries for the two. The head is written in full when the file ends.
#[derive(Debug, Clone, Default)]
struct Written {
    len: u64,
    /// Per model set, its entry (zero until written).
    models: Vec<Entry>,
}

/// A coded sub-table waiting for [`Coding::flush`]: per file, its models'
/// bytes and its blocks.
struct Coded {
    sub: usize,
    parts: [convert::SetBytes; 2],
}

/// A file of encoding 4 and its side file being written.
pub(super) struct Coding {
    pub(super) header: Header,
    /// `header` with encoding 1: the records' (and the scratch file's).
    raw_header: Header,
    indexes: Vec<SigIndex>,
    /// Per sub-table, its model set.
    sub_model: Vec<u32>,
    /// Per sub-table, its first block; one more entry: the blocks.
    first_block: Vec<usize>,
    /// Bytes before the data (the same in both files).
    head_len: u64,
    /// Where the block table is in the head.
    entries_at: u64,
    outs: [Out; 2],
    written: Mutex<[Written; 2]>,
    pending: Mutex<Vec<Coded>>,
    /// Per model set and file, its models, from when it is written until
    /// [`Coding::release`]; then read again from the file when needed.
    models: Vec<[Mutex<Option<Arc<Models>>>; 2]>,
    /// The records of the sub-tables of set 0 (encoding 1).
    raw: Plain,
    /// The cache its blocks are read back through
    /// ([`Coding::cache_blocks_in`]).
    cache: Arc<BlockCache>,
}

impl Coding {
    /// Creates the temporary files of `path` (and of its side and scratch
    /// files) for `header`, with model sets by `sets` (the limits of
    /// [`coded::model_sets_with`]).
    pub(super) fn create(
        path: &Path,
        header: Header,
        sets: (u64, u64),
    ) -> Result<Coding, GenerateError> {
        let raw = Plain::create(&raw_path(path), raw_header(&header))?;
        let mut outs = Vec::with_capacity(2);
        for p in [path.to_path_buf(), side_path(path)] {
            let (tmp, file) = create_tmp(&p)?;
            outs.push(Out { tmp, file, id: fresh_id() });
        }
        let coding = Coding::assemble(header, sets, outs, raw);
        for out in &coding.outs {
            out.file.set_len(coding.head_len).map_err(|e| GenerateError::io(&out.tmp, e))?;
        }
        Ok(coding)
    }

    /// A coding of `header` into `outs` with nothing written.
    fn assemble(header: Header, sets: (u64, u64), outs: Vec<Out>, raw: Plain) -> Coding {
        let sub_model = coded::model_sets_with(&header, sets.0, sets.1);
        let first_block = coded::first_blocks(&header, BOARDS);
        let blocks = *first_block.last().expect("one more entry than sub-tables");
        let sets = sub_model.iter().max().map_or(1, |&m| m as usize + 1);
        let written = Written { len: 0, models: vec![Entry::default(); sets] };
        let head_len = coded::head_len(&header, sets, blocks) as u64;
        let (n, fixed) = (header.n, header.fixed);
        let free = format::free_pieces(n, fixed);
        let indexes =
            (0..header.nodes.len()).map(|i| SigIndex::new(n, fixed, sub_loose(free, i))).collect();
        let outs: [Out; 2] = outs.try_into().ok().expect("two files");
        Coding {
            raw_header: raw_header(&header),
            header,
            indexes,
            sub_model,
            first_block,
            head_len,
            entries_at: head_len - 8 - (ENTRY * blocks) as u64,
            outs,
            written: Mutex::new([written.clone(), written]),
            pending: Mutex::default(),
            models: (0..sets).map(|_| Default::default()).collect(),
            raw,
            cache: Arc::default(),
        }
    }

    /// Reopens the temporary files of `path` as `ckpt` describes them:
    /// the data cut to its length, every entry of the sub-tables it lists
    /// checked against its bytes, the scratch file's records against their
    /// checksums. `None` if anything does not match.
    pub(super) fn resume(
        path: &Path,
        header: Header,
        sets: (u64, u64),
        ckpt: &Checkpoint,
    ) -> Option<Coding> {
        let mut outs = Vec::with_capacity(2);
        for p in [path.to_path_buf(), side_path(path)] {
            let (tmp, file) = open_tmp(&p)?;
            outs.push(Out { tmp, file, id: fresh_id() });
        }
        let sub_model = coded::model_sets_with(&header, sets.0, sets.1);
        let in_raw = |d: &&Done| sub_model[d.sub] == 0;
        let raw_done = Checkpoint {
            done: ckpt.done.iter().filter(in_raw).copied().collect(),
            ..Checkpoint::default()
        };
        let raw = Plain::resume(&raw_path(path), raw_header(&header), &raw_done)?;
        let coding = Coding::assemble(header, sets, outs, raw);
        let sides = [(ckpt.data_len, &ckpt.entries), (ckpt.side_len, &ckpt.side_entries)];
        let mut written = coding.written.lock().expect("no writer panicked");
        let blocks = coding.blocks();
        for (s, (len, entries)) in sides.into_iter().enumerate() {
            let w = &mut written[s];
            let sets = w.models.len();
            if entries.len() != sets + blocks {
                return None;
            }
            let out = &coding.outs[s];
            if out.file.metadata().ok()?.len() < coding.head_len + len {
                return None;
            }
            out.file.set_len(coding.head_len + len).ok()?;
            w.len = len;
            w.models.copy_from_slice(&entries[..sets]);
            let blocks = &entries[sets..];
            // All of them: those of blocks written after the checkpoint
            // go back to zero.
            for (k, run) in blocks.chunks(1 << 16).enumerate() {
                write_entries(out, coding.entries_at, k << 16, run).ok()?;
            }
            // Every entry the done sub-tables use holds its bytes, and the
            // data holds nothing else.
            let mut used = 0u64;
            let mut check = |e: Entry| -> Option<Vec<u8>> {
                let end = e.start.checked_add(u64::from(e.len))?;
                let mut bytes = vec![0u8; e.len as usize];
                if end > len
                    || out.file.read_exact_at(&mut bytes, coding.head_len + e.start).is_err()
                    || !e.checks(&bytes)
                {
                    return None;
                }
                used += u64::from(e.len);
                Some(bytes)
            };
            // A model set is only checked here: it is read when a block
            // needs it ([`Coding::models`]), as after a release.
            for d in ckpt.done.iter().filter(|d| coding.sub_model[d.sub] != 0) {
                let set = coding.sub_model[d.sub] as usize;
                check(w.models[set])?;
                let run = coding.first_block[d.sub]..coding.first_block[d.sub + 1];
                for &e in &blocks[run] {
                    check(e)?;
                }
            }
            if used != len {
                return None;
            }
        }
        drop(written);
        Some(coding)
    }

    /// Syncs what was flushed, then calls `f` with each file's data (its
    /// length and entries: model sets, then blocks), for a checkpoint.
    pub(super) fn synced<R>(&self, f: impl FnOnce([Data<'_>; 2]) -> R) -> Result<R, GenerateError> {
        self.raw.sync()?;
        for out in &self.outs {
            out.file.sync_data().map_err(|e| GenerateError::io(&out.tmp, e))?;
        }
        let written = self.written.lock().expect("no writer panicked");
        let count = self.blocks();
        Ok(f([0, 1].map(|s| {
            let w = &written[s];
            let stored = Stored { file: &self.outs[s].file, at: self.entries_at, count };
            Data { len: w.len, entries: &w.models, stored: Some(stored) }
        })))
    }

    /// Adds the records (encoding 1) of sub-table `sub` (once): to the
    /// scratch file if it shares set 0, else coded, to be appended by the
    /// next [`Coding::flush`].
    pub(super) fn write_sub(&self, sub: usize, records: Vec<u8>) -> Result<(), GenerateError> {
        if !self.own_set(sub) {
            return self.raw.write_sub(sub, &records);
        }
        let record = |node: u64| {
            let at = node as usize * format::RECORD;
            decode(&records[at..at + format::RECORD], &self.raw_header)
                .ok_or_else(|| format!("record {node} of sub-table {sub} does not decode"))
        };
        self.code_sub(sub, &record)
    }

    /// Whether sub-table `sub` has a model set of its own (else it waits
    /// in the scratch file for set 0).
    pub(super) fn own_set(&self, sub: usize) -> bool {
        self.sub_model[sub] != 0
    }

    /// Codes sub-table `sub`, which has a model set of its own, from each
    /// node's summary, as [`Coding::write_sub`] codes its records (each
    /// summary goes through its record, so the bytes are the same): the
    /// solver need not keep a sub-table's records, 8 bytes a node.
    pub(super) fn write_summaries(
        &self,
        sub: usize,
        summary: &(dyn Fn(u64) -> Summary + Sync),
    ) -> Result<(), GenerateError> {
        let record = |node: u64| {
            let s = summary(node);
            let mut rec = [0u8; format::RECORD];
            format::encode(&s, Encoding::Scores, self.header.rule, &mut rec)
                .and_then(|()| decode(&rec, &self.raw_header))
                .ok_or_else(|| format!("node {node} of sub-table {sub} has no record: {s:?}"))
        };
        self.code_sub(sub, &record)
    }

    /// Codes sub-table `sub` (a set of its own) from each node's summary
    /// (`record`), to be appended by the next [`Coding::flush`].
    fn code_sub(
        &self,
        sub: usize,
        record: &(dyn Fn(u64) -> Result<Summary, String> + Sync),
    ) -> Result<(), GenerateError> {
        let set = self.sub_model[sub] as usize;
        let blocks: Vec<(usize, usize)> =
            (0..blocks_of(&self.header, sub, BOARDS)).map(|k| (sub, k)).collect();
        let parts = code_sets(&blocks, |sub, k| self.boards(sub, k, record))
            .map_err(GenerateError::Unencodable)?;
        for (s, part) in parts.iter().enumerate() {
            let models = Models::from_bytes(&part.0).map_err(GenerateError::Unencodable)?;
            let mut held = self.models[set][s].lock().expect("no reader panicked");
            assert!(held.replace(Arc::new(models)).is_none(), "set {set} is coded once");
        }
        self.pending.lock().expect("no writer panicked").push(Coded { sub, parts });
        Ok(())
    }

    /// The boards of block `k` of sub-table `sub`, coded for the table
    /// file (甲's depth records) and the side file (乙's), from `record` (a
    /// node's summary).
    fn boards(
        &self,
        sub: usize,
        k: usize,
        record: &(dyn Fn(u64) -> Result<Summary, String> + Sync),
    ) -> Result<[Vec<BoardCode>; 2], String> {
        let boards = coded::block_boards(self.header.nodes[sub], k, BOARDS);
        let ranks = (k * BOARDS) as u64..(k * BOARDS + boards) as u64;
        convert::board_codes(&self.indexes[sub], self.header.rule, Side::ALL, ranks, record)
    }

    /// Appends the sub-tables coded since the last call to the data of
    /// both files, in the order of their numbers, so that the bytes do not
    /// depend on which thread finished first.
    pub(super) fn flush(&self) -> Result<(), GenerateError> {
        let mut pending = std::mem::take(&mut *self.pending.lock().expect("no writer panicked"));
        pending.sort_unstable_by_key(|c| c.sub);
        let mut written = self.written.lock().expect("no writer panicked");
        for c in pending {
            let set = self.sub_model[c.sub] as usize;
            for (s, (models, blocks)) in c.parts.iter().enumerate() {
                let w = &mut written[s];
                append(
                    &self.outs[s],
                    (self.head_len, self.entries_at),
                    w,
                    Some((set, models)),
                    self.first_block[c.sub],
                    blocks,
                )?;
            }
        }
        Ok(())
    }

    /// The scores of every state of node `node` of the written sub-table
    /// `sub`, read once.
    pub(super) fn scores(&self, sub: usize, node: u64) -> Result<NodeScores, TableError> {
        let set = self.sub_model[sub] as usize;
        let s = node as usize % 2;
        let out = &self.outs[s];
        let corrupt = |what: String| TableError::Corrupt { path: out.tmp.clone(), what };
        let rule = self.header.rule;
        if set == 0 {
            return self.raw_summary(sub, node).map(NodeScores::Summary).map_err(corrupt);
        }
        let board = node as usize / 2;
        let k = board / BOARDS;
        let b = self.first_block[sub] + k;
        let boards = coded::block_boards(self.header.nodes[sub], k, BOARDS);
        let mut error = None;
        let fill = |buf: &mut [u8]| {
            let models = match self.models(set, s) {
                Ok(models) => models,
                Err(e) => {
                    error = Some(e);
                    return false;
                }
            };
            let mut e = [0u8; ENTRY];
            let read = out.file.read_exact_at(&mut e, self.entries_at + (ENTRY * b) as u64);
            let e = Entry::parse(&e);
            let mut bytes = vec![0u8; e.len as usize];
            let read =
                read.and_then(|()| out.file.read_exact_at(&mut bytes, self.head_len + e.start));
            if let Err(source) = read {
                error = Some(TableError::Io { path: out.tmp.clone(), source });
                return false;
            }
            e.checks(&bytes) && coded::decode_into(&bytes, boards, &models, 0, buf).is_ok()
        };
        let at = |bytes: &[u8]| {
            coded::unpack_board(&bytes[board % BOARDS * BOARD_BYTES..][..BOARD_BYTES])
        };
        let code = self.cache.with_block(out.id, b, boards * BOARD_BYTES, fill, at);
        let Some(code) = code else {
            return Err(error.unwrap_or_else(|| corrupt(format!("block {b} does not read back"))));
        };
        code.and_then(|c| c.scores(rule, self.header.n))
            .ok_or_else(|| corrupt(format!("invalid board {board} of sub-table {sub}")))
    }

    /// The number of blocks of each file.
    fn blocks(&self) -> usize {
        *self.first_block.last().expect("one more entry than sub-tables")
    }

    /// Model set `set` of file `s` (written), read again from the file if
    /// it was released.
    fn models(&self, set: usize, s: usize) -> Result<Arc<Models>, TableError> {
        let mut held = self.models[set][s].lock().expect("no reader panicked");
        if let Some(m) = &*held {
            return Ok(Arc::clone(m));
        }
        let out = &self.outs[s];
        let e = self.written.lock().expect("no writer panicked")[s].models[set];
        let mut bytes = vec![0u8; e.len as usize];
        out.file
            .read_exact_at(&mut bytes, self.head_len + e.start)
            .map_err(|source| TableError::Io { path: out.tmp.clone(), source })?;
        let corrupt = |what: String| TableError::Corrupt { path: out.tmp.clone(), what };
        if !e.checks(&bytes) {
            return Err(corrupt(format!("model set {set} does not read back")));
        }
        let m = Arc::new(Models::from_bytes(&bytes).map_err(corrupt)?);
        *held = Some(Arc::clone(&m));
        Ok(m)
    }

    /// Reads its blocks back through `cache` (its tablebase's) rather than
    /// a cache of its own.
    pub(super) fn cache_blocks_in(&mut self, cache: Arc<BlockCache>) {
        self.cache = cache;
    }

    /// Drops the model sets of the sub-tables of `loose` loose pieces
    /// (later groups read them less; they are read again when needed).
    pub(super) fn release(&mut self, loose: u32) {
        for (sub, &set) in self.sub_model.iter().enumerate() {
            if set != 0 && sub.count_ones() == loose {
                for m in &mut self.models[set as usize] {
                    m.get_mut().expect("no reader panicked").take();
                }
            }
        }
    }

    /// The summary of node `node` of sub-table `sub` of set 0 (in the
    /// scratch file).
    fn raw_summary(&self, sub: usize, node: u64) -> Result<Summary, String> {
        decode(self.raw.record(sub, node), &self.raw_header)
            .ok_or_else(|| format!("record {node} of sub-table {sub} does not decode"))
    }

    /// Codes set 0 from the scratch file, writes both heads, syncs both
    /// files and renames them (the side file first, so that a table file
    /// is never without its side file); the scratch file goes. Returns
    /// the bytes of the table file and of the side file.
    pub(super) fn finish(self, path: &Path) -> Result<(u64, u64), GenerateError> {
        self.flush()?;
        let shared: Vec<(usize, usize)> = (0..self.header.nodes.len())
            .filter(|&sub| self.sub_model[sub] == 0)
            .flat_map(|sub| (0..blocks_of(&self.header, sub, BOARDS)).map(move |k| (sub, k)))
            .collect();
        let parts =
            code_sets(&shared, |sub, k| self.boards(sub, k, &|node| self.raw_summary(sub, node)))
                .map_err(GenerateError::Unencodable)?;
        let count = self.blocks();
        let mut written = self.written.into_inner().expect("no writer panicked");
        let mut bytes = [0; 2];
        for side in [Side::Yi, Side::Jia] {
            let s = side.index();
            let w = &mut written[s];
            // Set 0's models, then its blocks in the order of the
            // sub-tables (one run per sub-table).
            let (models, blocks) = &parts[s];
            let at = (self.head_len, self.entries_at);
            append(&self.outs[s], at, w, Some((0, models)), 0, &[])?;
            let mut next = 0;
            for run in shared.chunk_by(|a, b| a.0 == b.0) {
                let end = next + run.len();
                let first = self.first_block[run[0].0];
                append(&self.outs[s], at, w, None, first, &blocks[next..end])?;
                next = end;
            }
            let out = &self.outs[s];
            let io = |e| GenerateError::io(&out.tmp, e);
            let mut table = vec![0u8; ENTRY * count];
            out.file.read_exact_at(&mut table, self.entries_at).map_err(io)?;
            let blocks: Vec<Entry> = table.chunks(ENTRY).map(Entry::parse).collect();
            drop(table);
            let head = coded::head_bytes(
                &self.header,
                (BOARDS, 0, side),
                &self.sub_model,
                &w.models,
                &blocks,
            );
            drop(blocks);
            debug_assert_eq!(head.len() as u64, self.head_len);
            out.file.write_all_at(&head, 0).map_err(io)?;
            out.file.sync_all().map_err(io)?;
            let dest = if side == Side::Jia { path.to_path_buf() } else { side_path(path) };
            fs::rename(&out.tmp, &dest).map_err(|e| GenerateError::io(&dest, e))?;
            bytes[s] = self.head_len + w.len;
        }
        self.raw.discard()?;
        Ok((bytes[0], bytes[1]))
    }
}

/// Appends model set `models` (its number and bytes), if any, then
/// `blocks` (numbered from `first`) to the data of `out`, which `w`
/// describes, and writes the blocks' entries to the block table in the
/// head; `at`: where the data and the block table are.
fn append(
    out: &Out,
    (head_len, entries_at): (u64, u64),
    w: &mut Written,
    models: Option<(usize, &[u8])>,
    first: usize,
    blocks: &[Vec<u8>],
) -> Result<(), GenerateError> {
    let mut bytes = Vec::new();
    if let Some((set, models)) = models {
        w.models[set] = Entry::new(w.len, models);
        bytes.extend_from_slice(models);
    }
    let mut entries = Vec::with_capacity(blocks.len());
    for b in blocks {
        entries.push(Entry::new(w.len + bytes.len() as u64, b));
        bytes.extend_from_slice(b);
    }
    let io = |e| GenerateError::io(&out.tmp, e);
    out.file.write_all_at(&bytes, head_len + w.len).map_err(io)?;
    write_entries(out, entries_at, first, &entries).map_err(io)?;
    w.len += bytes.len() as u64;
    Ok(())
}

/// Writes `entries`, of the blocks numbered from `first`, to their places
/// in the block table of `out` (at `entries_at`).
fn write_entries(
    out: &Out,
    entries_at: u64,
    first: usize,
    entries: &[Entry],
) -> std::io::Result<()> {
    let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
    out.file.write_all_at(&bytes, entries_at + (ENTRY * first) as u64)
}

/// The header of the records a sub-table is solved into: encoding 1.
fn raw_header(header: &Header) -> Header {
    Header { encoding: Encoding::Scores, ..header.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::checkpoint;
    use crate::generate::{Config, Limits, generate};
    use crate::moves::PassRule;
    use crate::position::Last;
    use crate::table::TableFile;

    /// Sub-tables whose model sets were released, or left unread by a
    /// resume, read back as before, from a thread whose cache of decoded
    /// blocks is empty (so their model sets are read again from the file).
    #[test]
    fn released_model_sets_are_read_again() {
        let (n, rule) = (6, PassRule::Always);
        let dir = tempfile::tempdir().unwrap();
        let cfg = Config {
            root: dir.path().to_path_buf(),
            n,
            rule,
            max_live: n,
            encoding: Encoding::Scores,
            limits: Limits::default(),
        };
        generate(&cfg, None).unwrap();
        let source = crate::table::Tablebase::new(dir.path(), n, rule).path(0);
        let source = TableFile::open(&source, n, rule, 0).unwrap();
        let header = Header { encoding: Encoding::Coded, ..source.header().clone() };
        let path = dir.path().join("coded.cctb");
        let mut coding = Coding::create(&path, header.clone(), (0, 2)).unwrap();
        // The sub-tables of sets of their own (the others wait for the
        // file's end in the scratch file).
        let order: Vec<usize> =
            (0..header.nodes.len()).filter(|&i| header.nodes[i] > 0 && coding.own_set(i)).collect();
        assert!(order.len() > 30);
        for &sub in &order {
            coding.write_summaries(sub, &|node| source.record(sub, node).unwrap()).unwrap();
        }
        coding.flush().unwrap();
        let scores = |coding: &Coding| {
            std::thread::scope(|s| {
                s.spawn(|| {
                    let mut all = Vec::new();
                    for &sub in &order {
                        for node in 0..header.nodes[sub] {
                            all.push(
                                coding
                                    .scores(sub, node)
                                    .ok()
                                    .map(|s| s.score(Last::None, header.rule)),
                            );
                        }
                    }
                    all
                })
                .join()
                .unwrap()
            })
        };
        let before = scores(&coding);
        assert!(before.iter().filter(|s| s.is_some()).count() > 1000, "scores are read");
        for loose in 0..=u32::from(n) {
            coding.release(loose);
        }
        assert!(coding.models.iter().flatten().all(|m| m.lock().unwrap().is_none()));
        assert_eq!(scores(&coding), before);

        // So do they after a resume, which reads no model set.
        let done: Vec<Done> =
            order.iter().map(|&sub| Done { sub, counts: [0; 5], sum: 0 }).collect();
        coding.synced(|d| checkpoint::save(&path, &header, &done, d)).unwrap().unwrap();
        drop(coding);
        let ckpt = Checkpoint::load(&path, &header).unwrap();
        let resumed = Coding::resume(&path, header.clone(), (0, 2), &ckpt).unwrap();
        assert!(resumed.models.iter().flatten().all(|m| m.lock().unwrap().is_none()));
        assert_eq!(scores(&resumed), before);
    }
}
