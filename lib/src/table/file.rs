//! [`TableFile`]: one table file, mapped read-only and validated when
//! opened (header, sub-table sizes, length, header checksum; for the large
//! heads of encoding 4 the fields the blocks' checksums do not cover); each
//! record is read through bounds-checked slices after its block's checksum.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use memmap2::Mmap;

use crate::index::SigIndex;
use crate::moves::PassRule;
use crate::position::Position;
use crate::side::Side;
use crate::summary::Summary;
use crate::table::TableError;
use crate::table::coded::NodeScores;
use crate::table::depth_code::{BoardCode, Models};
use crate::table::format::{self, BLOCK, Encoding, Header, checksum, decode, free_pieces};
use crate::table::{BlockCache, coded, mmap, packed, segment, shared};

/// One mapped table file.
#[derive(Debug)]
pub struct TableFile {
    path: PathBuf,
    map: Mmap,
    header: Header,
    /// Record offset of each sub-table.
    starts: Vec<usize>,
    /// Encodings 3 and 4: per sub-table its first block, and the number
    /// of blocks ([`packed::first_blocks`], [`coded::first_blocks`]); empty
    /// otherwise.
    first_block: Vec<usize>,
    /// Where the checksummed blocks are.
    layout: Layout,
    /// The board index of each sub-table, made when first needed.
    indexes: Vec<OnceLock<SigIndex>>,
    /// One bit per payload block: its checksum has been verified.
    verified: Vec<AtomicU64>,
    /// A number no other file opened by this process has (for the cache of
    /// decompressed blocks).
    id: u64,
    /// The cache of decompressed blocks it reads through: its
    /// [`crate::table::Tablebase`]'s (its own if it was opened alone).
    cache: Arc<BlockCache>,
    /// Encoding 4: the bytes of memory of the model sets read and not
    /// forgotten, added up with other files' where they share the counter
    /// ([`TableFile::count_models_in`]).
    models_held: Arc<AtomicUsize>,
    /// The shared model sets already read, of the [`crate::table::Tablebase`]
    /// the file belongs to (its own if it was opened alone).
    shared: Arc<shared::SharedSets>,
}

/// Where a file's checksummed blocks are (byte offsets in the file).
#[derive(Debug)]
enum Layout {
    /// Encodings 1 and 2: the records from `payload` on, checksummed in
    /// blocks of [`BLOCK`] bytes, the checksums from `sums` on.
    Plain { payload: usize, sums: usize },
    /// Encoding 3 ([`packed`]): the block table from `table` on, the
    /// compressed blocks in the data from `data` to the end.
    Packed { table: usize, data: usize },
    /// Encoding 4 ([`coded`]): as encoding 3, with the model sets, read
    /// and checked when first needed, and kept until
    /// [`TableFile::forget_models`] (read, a set takes about 4 times its
    /// bytes: the 12-slot files of one fixed piece hold 331 MiB of them,
    /// 1.5 GiB read).
    Coded { layout: coded::Layout, models: Vec<Mutex<Option<Arc<Models>>>> },
}

/// What a file holds for a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Record {
    /// Its summary.
    Stored(Summary),
    /// Nothing but its values byte (a node of encoding 4 of the side whose
    /// depth records the file does not store, 乙 in a table file): its
    /// scores are read from the side file, if any, or derived from its
    /// children's (`table/derive.rs`).
    Derived(u8),
}

/// The source of [`fresh_id`]s.
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// Heads of encoding 4 (everything before the data) up to this many bytes
/// are checked in full whenever a file is opened: some microseconds (a
/// query opens tens of files). Larger ones (the largest 12-slot file's is
/// over 500 MB) are checked by [`TableFile::verify_all`] and
/// [`TableFile::check_sums`].
const FULL_HEAD_CHECK: usize = 1 << 16;

/// Whether `path` names a side file (`f{F}.side.cctb`, storing 乙's depth
/// records).
fn is_side_file(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".side.cctb"))
}

/// A number no other call in this process returns: the key of a file in
/// the caches of decompressed blocks ([`BlockCache`]).
pub(crate) fn fresh_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

impl TableFile {
    /// Maps and validates the file at `path`, expected to hold fixed set
    /// `fixed` for `n` slots and `rule`: header fields, every sub-table size
    /// against the board index, the file length and the checksum of the
    /// header and block checksums (of encoding 4 with a head over
    /// [`FULL_HEAD_CHECK`] bytes, only what [`coded::Layout::is_standard`]
    /// checks). Records are checked block by block when first read
    /// ([`TableFile::verify_all`] checks them all, and the head).
    ///
    /// # Errors
    /// [`TableError`] naming what is wrong.
    pub fn open(path: &Path, n: u8, rule: PassRule, fixed: u16) -> Result<TableFile, TableError> {
        TableFile::open_with(path, n, rule, fixed, FULL_HEAD_CHECK)
    }

    /// [`TableFile::open`] checking the heads of encoding 4 in full up to
    /// `full_head_check` bytes (tests open small files as the largest are
    /// opened).
    pub(crate) fn open_with(
        path: &Path,
        n: u8,
        rule: PassRule,
        fixed: u16,
        full_head_check: usize,
    ) -> Result<TableFile, TableError> {
        let corrupt = |what: String| TableError::Corrupt { path: path.to_path_buf(), what };
        let file = File::open(path)
            .map_err(|source| TableError::Io { path: path.to_path_buf(), source })?;
        // SAFETY: `path` is a finished table: `generate` renames a table
        // into place only when complete and never writes it again, so it
        // does not change while mapped (`mmap` module docs).
        #[allow(unsafe_code)]
        let map = unsafe { mmap::map_table(&file) }
            .map_err(|source| TableError::Io { path: path.to_path_buf(), source })?;
        let header = Header::parse(&map).map_err(corrupt)?;
        if (header.n, header.rule, header.fixed) != (n, rule, fixed) {
            return Err(corrupt(format!(
                "holds {} slots, {} passes, fixed {:#x}; expected {n}, {}, {fixed:#x}",
                header.n,
                header.rule.name(),
                header.fixed,
                rule.name()
            )));
        }
        let free = free_pieces(n, fixed);
        let mut starts = Vec::with_capacity(header.nodes.len());
        let mut at = 0usize;
        for (i, &nodes) in header.nodes.iter().enumerate() {
            let expected = format::sub_nodes(n, fixed, format::sub_loose(free, i));
            if nodes != expected {
                return Err(corrupt(format!(
                    "sub-table {i} has {nodes} nodes, expected {expected}"
                )));
            }
            starts.push(at);
            at += nodes as usize;
        }
        let (layout, first_block, blocks) = if header.encoding == Encoding::Coded {
            let layout = coded::Layout::parse(&map, &header).map_err(corrupt)?;
            // A large head is checked by `verify` and `generate`, not by
            // every query that opens the file (docs/tables.md, "Damaged and
            // missing files").
            let side = if is_side_file(path) { Side::Yi } else { Side::Jia };
            if layout.data <= full_head_check || !layout.is_standard(&header, side) {
                layout.check_head(&map).map_err(corrupt)?;
            }
            let first_block = coded::first_blocks(&header, layout.boards);
            let blocks = layout.blocks;
            let models = layout.models.iter().map(|_| Mutex::default()).collect();
            (Layout::Coded { layout, models }, first_block, blocks)
        } else if header.encoding == Encoding::Packed {
            let first_block = packed::first_blocks(&header);
            let blocks = *first_block.last().expect("one more entry than sub-tables");
            let data = packed::data_offset(&header, blocks);
            let short = || corrupt(format!("{} bytes, shorter than its block table", map.len()));
            let stored = read_u64(&map, data - 8).ok_or_else(short)?;
            if checksum(&map[..data - 8]) != stored {
                return Err(corrupt("header checksum mismatch".into()));
            }
            let table = header.len();
            let data_len: u64 = map[table..data - 8]
                .chunks(packed::ENTRY)
                .map(|e| u64::from(packed::Entry::parse(e).len))
                .sum();
            let expected = data as u64 + data_len;
            if map.len() as u64 != expected {
                return Err(corrupt(format!("{} bytes, expected {expected}", map.len())));
            }
            (Layout::Packed { table, data }, first_block, blocks)
        } else {
            let payload = header.len();
            let sums = payload + header.payload_len();
            let expected = header.file_len();
            if map.len() != expected {
                return Err(corrupt(format!("{} bytes, expected {expected}", map.len())));
            }
            let end = map.len() - 8;
            let stored = read_u64(&map, end).expect("the length is checked");
            let mut whole = map[..payload].to_vec();
            whole.extend_from_slice(&map[sums..end]);
            if checksum(&whole) != stored {
                return Err(corrupt("header checksum mismatch".into()));
            }
            (Layout::Plain { payload, sums }, Vec::new(), header.blocks())
        };
        let indexes = (0..header.nodes.len()).map(|_| OnceLock::new()).collect();
        let verified = (0..blocks.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        Ok(TableFile {
            path: path.to_path_buf(),
            map,
            header,
            starts,
            first_block,
            layout,
            indexes,
            verified,
            id: fresh_id(),
            cache: Arc::default(),
            models_held: Arc::default(),
            shared: Arc::default(),
        })
    }

    /// Adds the memory of the model sets this file reads to `counter`
    /// (and takes it off when they are forgotten) instead of a counter
    /// of its own.
    pub(crate) fn count_models_in(&mut self, counter: Arc<AtomicUsize>) {
        self.models_held = counter;
    }

    /// Reads its blocks through `cache`, with the other files of one
    /// tablebase.
    pub(crate) fn cache_blocks_in(&mut self, cache: Arc<BlockCache>) {
        self.cache = cache;
    }

    /// Reads the directory's shared model sets through `sets`, with the
    /// other files of one tablebase.
    pub(crate) fn share_sets_with(&mut self, sets: Arc<shared::SharedSets>) {
        self.shared = sets;
    }

    /// The checksum the file ends its header part with: it covers the
    /// header and the checksum of every block, so with the blocks verified
    /// ([`TableFile::verify_all`]) it stands for the whole file. Two files
    /// with the same length and checksum hold the same tables.
    pub fn checksum(&self) -> u64 {
        let at = match &self.layout {
            Layout::Packed { data, .. } => data - 8,
            Layout::Coded { layout, .. } => layout.data - 8,
            Layout::Plain { .. } => self.map.len() - 8,
        };
        read_u64(&self.map, at).expect("checked when opened")
    }

    /// Encoding 4: the checksum of the shared model set of the directory
    /// ([`shared`]) the file is coded with, if it is.
    pub fn shared_models(&self) -> Option<u64> {
        self.coded_layout()?.models.iter().find_map(|&e| shared::referenced(e))
    }

    /// The file's length in bytes.
    pub fn byte_len(&self) -> u64 {
        self.map.len() as u64
    }

    /// The path it was opened from.
    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// The header.
    pub(crate) fn header(&self) -> &Header {
        &self.header
    }

    /// Its record encoding.
    pub fn encoding(&self) -> Encoding {
        self.header.encoding
    }

    /// The nodes (records) the file holds, over all its sub-tables.
    pub fn nodes(&self) -> u64 {
        self.header.nodes.iter().sum()
    }

    /// Whether the records hold depths (not only values).
    pub fn has_depths(&self) -> bool {
        self.header.encoding.has_depths()
    }

    fn corrupt(&self, what: String) -> TableError {
        TableError::Corrupt { path: self.path.clone(), what }
    }

    /// The bytes of checksummed block `b` (as stored) and whether they
    /// match their stored checksum (computed only when asked: `check`).
    fn block(&self, b: usize, check: bool) -> Result<(&[u8], bool), TableError> {
        let (table, data) = match &self.layout {
            Layout::Plain { payload, sums } => {
                let (payload, sums) = (*payload, *sums);
                let end = sums.min(payload + (b + 1) * BLOCK);
                let bytes = &self.map[payload + b * BLOCK..end];
                let stored = || read_u64(&self.map, sums + 8 * b).expect("in the checksums");
                return Ok((bytes, check && checksum(bytes) == stored()));
            }
            Layout::Packed { table, data } => (*table, *data),
            Layout::Coded { layout, .. } => (layout.table, layout.data),
        };
        let at = table + packed::ENTRY * b;
        let e = packed::Entry::parse(&self.map[at..at + packed::ENTRY]);
        let bytes = self
            .data_bytes(data, e)
            .ok_or_else(|| self.corrupt(format!("block {b} is out of place")))?;
        Ok((bytes, check && e.checks(bytes)))
    }

    /// The bytes of the data entry `e` (data from `data` on), if they are
    /// inside the file.
    fn data_bytes(&self, data: usize, e: packed::Entry) -> Option<&[u8]> {
        usize::try_from(e.start)
            .ok()
            .and_then(|s| data.checked_add(s))
            .and_then(|s| Some((s, s.checked_add(e.len as usize)?)))
            .filter(|&(_, end)| end <= self.map.len())
            .map(|(s, end)| &self.map[s..end])
    }

    /// Encoding 4: the model set `k`, checked and read when first needed.
    fn models(&self, k: usize) -> Result<Arc<Models>, TableError> {
        let Layout::Coded { layout, models } = &self.layout else {
            unreachable!("models of an encoding-4 file only");
        };
        // Held while the set is read, so that it is read once.
        let mut held = models[k].lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(m) = &*held {
            return Ok(Arc::clone(m));
        }
        if let Some(sum) = shared::referenced(layout.models[k]) {
            // The directory's set: read once a tablebase, held by the
            // files that use it; not counted here, as it is not the file's.
            let path = shared::path_beside(&self.path, sum);
            let m = self.shared.load(&path, self.header.n, self.header.rule, sum)?;
            *held = Some(Arc::clone(&m));
            return Ok(m);
        }
        // Each model checks its own checksum as it is read, and the set
        // must end where its entry says: the entry's checksum of the same
        // bytes ([`TableFile::check_sums`]) would add nothing here.
        let m = self
            .data_bytes(layout.data, layout.models[k])
            .ok_or_else(|| "out of place".to_string())
            .and_then(Models::from_bytes)
            .map(Arc::new)
            .map_err(|e| self.corrupt(format!("model set {k}: {e}")))?;
        self.models_held.fetch_add(m.heap_bytes(), Ordering::Relaxed);
        *held = Some(Arc::clone(&m));
        Ok(m)
    }

    /// Encoding 4: drops the model sets read so far (those in use stay
    /// until their readers are done); they are read again when needed.
    /// `generate` calls it between groups of sub-tables, which read other
    /// files' sub-tables of about their own size: so a run keeps the sets
    /// of the sub-tables it reads now, not of every one it has read.
    pub fn forget_models(&self) {
        if let Layout::Coded { layout, models } = &self.layout {
            for (k, m) in models.iter().enumerate() {
                let Some(m) = m.lock().unwrap_or_else(PoisonError::into_inner).take() else {
                    continue;
                };
                // A shared set is not counted (`TableFile::models`).
                if shared::referenced(layout.models[k]).is_none() {
                    // Saturating: sets read before the counter was shared
                    // were added to another.
                    let less = |held: usize| Some(held.saturating_sub(m.heap_bytes()));
                    let _ =
                        self.models_held.fetch_update(Ordering::Relaxed, Ordering::Relaxed, less);
                }
            }
        }
    }

    /// The bytes of model set `k`, their checksum verified.
    fn model_bytes(&self, layout: &coded::Layout, k: usize) -> Result<&[u8], String> {
        let e = layout.models[k];
        let bytes = self.data_bytes(layout.data, e).ok_or("out of place")?;
        if !e.checks(bytes) {
            return Err("checksum mismatch".to_string());
        }
        Ok(bytes)
    }

    /// The bytes of block `b`, their checksum verified (once).
    fn checked_block(&self, b: usize) -> Result<&[u8], TableError> {
        let word = &self.verified[b / 64];
        if word.load(Ordering::Relaxed) >> (b % 64) & 1 == 1 {
            return Ok(self.block(b, false)?.0);
        }
        let (bytes, sound) = self.block(b, true)?;
        if !sound {
            return Err(self.corrupt(format!("block {b} checksum mismatch")));
        }
        word.fetch_or(1 << (b % 64), Ordering::Relaxed);
        Ok(bytes)
    }

    /// Checks every block's checksum and, for encoding 4, every model set,
    /// without decoding the blocks ([`TableFile::verify_all`] does): what
    /// `generate` checks of the files it keeps, at disk speed.
    ///
    /// # Errors
    /// The first damaged block or model set.
    pub fn check_sums(&self) -> Result<(), TableError> {
        let blocks = match &self.layout {
            Layout::Plain { .. } => self.header.blocks(),
            Layout::Packed { .. } => *self.first_block.last().expect("one more entry"),
            Layout::Coded { layout, .. } => {
                layout.check_head(&self.map).map_err(|e| self.corrupt(e))?;
                // Checked, not read: a model set takes far more memory
                // read than as bytes, and a run may never need it. (A
                // shared set is read: it is one for all files.)
                (0..layout.models.len()).try_for_each(|k| {
                    if shared::referenced(layout.models[k]).is_some() {
                        return self.models(k).map(drop);
                    }
                    self.model_bytes(layout, k)
                        .map(drop)
                        .map_err(|e| self.corrupt(format!("model set {k}: {e}")))
                })?;
                layout.blocks
            }
        };
        (0..blocks).try_for_each(|b| self.checked_block(b).map(drop))
    }

    /// Verifies every block (and, for compressed blocks, that each
    /// decompresses to its length).
    ///
    /// # Errors
    /// The first damaged block.
    pub fn verify_all(&self) -> Result<(), TableError> {
        match &self.layout {
            Layout::Coded { layout, .. } => {
                layout.check_head(&self.map).map_err(|e| self.corrupt(e))?;
                let per = layout.boards;
                let mut out = vec![0u8; per * coded::BOARD_BYTES];
                for (sub, &nodes) in self.header.nodes.iter().enumerate() {
                    if nodes == 0 {
                        continue;
                    }
                    let models = self.models(layout.sub_model[sub] as usize)?;
                    let models = &*models;
                    for k in 0..(nodes as usize).div_ceil(2 * per) {
                        let b = self.first_block[sub] + k;
                        let boards = coded::block_boards(nodes, k, per);
                        let out = &mut out[..boards * coded::BOARD_BYTES];
                        let bytes = self.checked_block(b)?;
                        coded::decode_into(bytes, boards, models, layout.segment, out)
                            .map_err(|e| self.corrupt(format!("block {b} does not decode: {e}")))?;
                    }
                }
                Ok(())
            }
            Layout::Plain { .. } => {
                (0..self.header.blocks()).try_for_each(|b| self.checked_block(b).map(drop))
            }
            Layout::Packed { .. } => {
                let mut out = vec![0u8; packed::NODES];
                for (sub, &nodes) in self.header.nodes.iter().enumerate() {
                    for k in 0..(nodes as usize).div_ceil(packed::NODES) {
                        let b = self.first_block[sub] + k;
                        let len = packed::block_len(nodes, k);
                        packed::decompress(self.checked_block(b)?, &mut out[..len]).ok_or_else(
                            || self.corrupt(format!("block {b} does not decompress")),
                        )?;
                    }
                }
                Ok(())
            }
        }
    }

    /// The summary of node `node` of sub-table `sub`, where the file
    /// stores it (every node but a 乙 node of encoding 4: [`Record`]).
    ///
    /// # Errors
    /// A damaged block or record, or a node whose summary is not stored.
    pub(crate) fn record(&self, sub: usize, node: u64) -> Result<Summary, TableError> {
        match self.lookup(sub, node)? {
            Record::Stored(s) => Ok(s),
            Record::Derived(_) => Err(self.corrupt(format!(
                "node {node} of sub-table {sub} is not stored: it is derived from its children"
            ))),
        }
    }

    /// The scores of every state of node `node` of sub-table `sub`, as
    /// [`TableFile::score`] gives them, read once.
    ///
    /// # Errors
    /// As [`TableFile::record`].
    pub(crate) fn scores(&self, sub: usize, node: u64) -> Result<NodeScores, TableError> {
        let Layout::Coded { layout, .. } = &self.layout else {
            return Ok(NodeScores::Summary(self.record(sub, node)?));
        };
        if node % 2 != layout.stored.index() as u64 {
            return Ok(NodeScores::Summary(self.record(sub, node)?));
        }
        let at = |bytes: &[u8], board: usize| {
            coded::unpack_board(&bytes[board * coded::BOARD_BYTES..][..coded::BOARD_BYTES])
        };
        let invalid = || self.corrupt(format!("invalid record {node} of sub-table {sub}"));
        let board = self.coded_block(sub, node, true, at)?.ok_or_else(invalid)?;
        board.scores(self.header.rule, self.header.n).ok_or_else(invalid)
    }

    /// What the file holds for node `node` of sub-table `sub`.
    ///
    /// # Errors
    /// A damaged block or record.
    pub(crate) fn lookup(&self, sub: usize, node: u64) -> Result<Record, TableError> {
        let nodes = self.header.nodes[sub];
        if node >= nodes {
            return Err(self.corrupt(format!("node {node} past the {nodes} of sub-table {sub}")));
        }
        let invalid = || self.corrupt(format!("invalid record {node} of sub-table {sub}"));
        let record = self.starts[sub] + node as usize;
        match &self.layout {
            Layout::Plain { payload, .. } => {
                let len = self.header.record_len();
                let at = payload + record * len;
                self.checked_block(record * len / BLOCK)?;
                decode(&self.map[at..at + len], &self.header)
                    .map(Record::Stored)
                    .ok_or_else(invalid)
            }
            Layout::Packed { .. } => {
                let node = node as usize;
                let b = self.first_block[sub] + node / packed::NODES;
                let len = packed::block_len(nodes, node / packed::NODES);
                let fill = |out: &mut [u8]| {
                    self.checked_block(b)
                        .is_ok_and(|bytes| packed::decompress(bytes, out).is_some())
                };
                let code = self
                    .cache
                    .with_block(self.id, b, len, fill, |bytes| bytes[node % packed::NODES]);
                let Some(code) = code else {
                    self.checked_block(b)?;
                    return Err(self.corrupt(format!("block {b} does not decompress")));
                };
                decode(&[code], &self.header).map(Record::Stored).ok_or_else(invalid)
            }
            Layout::Coded { layout, .. } if node % 2 != layout.stored.index() as u64 => {
                Ok(Record::Derived(self.values_byte(sub, node)?))
            }
            Layout::Coded { .. } => {
                let at = |bytes: &[u8], board: usize| {
                    coded::unpack_board(&bytes[board * coded::BOARD_BYTES..][..coded::BOARD_BYTES])
                };
                let board = self.coded_block(sub, node, true, at)?.ok_or_else(invalid)?;
                let (n, rule) = (self.header.n, self.header.rule);
                board.record.summary(board.values, rule, n).map(Record::Stored).ok_or_else(invalid)
            }
        }
    }

    /// Encoding 4: the values byte of node `node` (of either side) of
    /// sub-table `sub`, from its block's values stream alone.
    ///
    /// # Errors
    /// A damaged block.
    fn values_byte(&self, sub: usize, node: u64) -> Result<u8, TableError> {
        let Layout::Coded { layout, .. } = &self.layout else {
            unreachable!("values bytes of an encoding-4 file only");
        };
        // The stored side's byte first.
        let other = usize::from(node % 2 != layout.stored.index() as u64);
        self.coded_block(sub, node, false, |bytes, board| bytes[2 * board + other])
    }

    /// Encoding 4: the side whose depth records the file stores (`None`
    /// for other encodings).
    pub(crate) fn stored_side(&self) -> Option<Side> {
        match &self.layout {
            Layout::Coded { layout, .. } => Some(layout.stored),
            _ => None,
        }
    }

    /// Encoding 4: calls `f` with the decoded boards that hold node `node`
    /// of sub-table `sub` and the node's board among them: the block that
    /// holds it, or in a file of segments the segment. `whole`: decoded
    /// as [`coded::pack`] packs whole boards; else their values bytes
    /// alone (two a board), cached apart.
    ///
    /// # Errors
    /// A damaged block.
    fn coded_block<T>(
        &self,
        sub: usize,
        node: u64,
        whole: bool,
        f: impl FnOnce(&[u8], usize) -> T,
    ) -> Result<T, TableError> {
        let Layout::Coded { layout, .. } = &self.layout else {
            unreachable!("blocks of an encoding-4 file only");
        };
        let (board, per) = (node as usize / 2, layout.boards);
        let k = board / per;
        let b = self.first_block[sub] + k;
        let set = layout.sub_model[sub] as usize;
        let boards = coded::block_boards(self.header.nodes[sub], k, per);
        // The unit decoded and cached: the block, or its segment `s`, of
        // `unit` boards, the board `at` in it.
        let g = layout.segment;
        let (s, unit, at, prefix) = match g {
            0 => (0, boards, board % per, coded::PREFIX),
            g => {
                let s = board % per / g;
                (s, (boards - s * g).min(g), board % g, coded::SEGMENT_PREFIX)
            }
        };
        // Units are decoded up to the board asked for (rounded up), the
        // number of boards decoded in the first two bytes; a unit read
        // again past that is decoded to its end (decoding starts from the
        // unit's start each time, and reads that move on through a block,
        // as generation's do, would decode it up to 4 times).
        let upto = |again: bool| {
            if again { unit } else { (at + 1).next_multiple_of(prefix).min(unit) }
        };
        let decode = |models: &Models, bytes: &[u8], out: &mut [u8], upto: usize| {
            out[..2].copy_from_slice(&(upto as u16).to_le_bytes());
            if g == 0 {
                return coded::decode_prefix_into(
                    bytes,
                    boards,
                    upto,
                    models,
                    whole,
                    &mut out[2..],
                );
            }
            let (bytes, unit) = segment::segment_of(bytes, boards, g, s)?;
            let mut decoded = Vec::with_capacity(upto);
            segment::decode_prefix(bytes, unit, upto, models, &mut decoded)?;
            coded::pack(&decoded, whole, &mut out[2..]);
            Ok(())
        };
        let len = 2 + unit * if whole { coded::BOARD_BYTES } else { 2 };
        let usable = |bytes: &[u8]| usize::from(u16::from_le_bytes([bytes[0], bytes[1]])) > at;
        // The model set is looked for only when a unit is decoded, not
        // when a cached one is read.
        let fill = |out: &mut [u8], again: bool| {
            let Ok(models) = self.models(set) else { return false };
            self.checked_block(b)
                .is_ok_and(|bytes| decode(&models, bytes, out, upto(again)).is_ok())
        };
        let units = per.checked_div(g).unwrap_or(1);
        let key = 2 * (b * units + s) + usize::from(!whole);
        if let Some(x) =
            self.cache.with_block_where(self.id, key, len, usable, fill, |bytes| f(&bytes[2..], at))
        {
            return Ok(x);
        }
        let models = self.models(set)?;
        let bytes = self.checked_block(b)?;
        let e = decode(&models, bytes, &mut vec![0; len], upto(true)).err().unwrap_or_default();
        Err(self.corrupt(format!("block {b} does not decode: {e}")))
    }

    /// Encoding 4: where the parts of the file are and which model set
    /// each sub-table uses; `None` for other encodings.
    pub(crate) fn coded_layout(&self) -> Option<&coded::Layout> {
        match &self.layout {
            Layout::Coded { layout, .. } => Some(layout),
            _ => None,
        }
    }

    /// Encoding 4: the boards of block `b` (numbered over the file),
    /// its checksum checked, decoded whole with its sub-table's model set
    /// into `out`.
    ///
    /// # Errors
    /// A damaged block or model set.
    ///
    /// # Panics
    /// If the file is not of encoding 4 or has no block `b`.
    pub(crate) fn block_codes(&self, b: usize, out: &mut Vec<BoardCode>) -> Result<(), TableError> {
        let layout = self.coded_layout().expect("blocks of an encoding-4 file only");
        let sub = self.first_block.partition_point(|&s| s <= b) - 1;
        let boards =
            coded::block_boards(self.header.nodes[sub], b - self.first_block[sub], layout.boards);
        let models = self.models(layout.sub_model[sub] as usize)?;
        let bytes = self.checked_block(b)?;
        coded::decode_block(bytes, boards, &models, layout.segment, out)
            .map_err(|e| self.corrupt(format!("block {b} does not decode: {e}")))
    }

    /// The board index of sub-table `sub`.
    pub(crate) fn board_index(&self, sub: usize) -> &SigIndex {
        self.indexes[sub].get_or_init(|| {
            let loose = format::sub_loose(free_pieces(self.header.n, self.header.fixed), sub);
            SigIndex::new(self.header.n, self.header.fixed, loose)
        })
    }
}

/// The little-endian u64 at `at`, if the bytes are there.
fn read_u64(bytes: &[u8], at: usize) -> Option<u64> {
    bytes.get(at..at.checked_add(8)?).map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
}

/// The node number of `pos` in its sub-table, given that sub-table's index.
#[inline]
pub(crate) fn node_number(index: &SigIndex, pos: &Position) -> u64 {
    index.rank(pos.board()) * 2 + pos.side().index() as u64
}
