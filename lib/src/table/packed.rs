//! Record encoding 3: the one-byte value records of encoding 2
//! ([`crate::table::values`]) in blocks of at most [`NODES`] nodes, each
//! block compressed on its own with DEFLATE (RFC 1951, no wrapper).
//!
//! ```text
//! offset  size      field
//! 0       H         the header of format.rs (encoding 3)
//! H       16 × K    per block (an [`Entry`]): where its compressed bytes
//!                   start in the data (u64), their length (u32) and the
//!                   low 32 bits of their checksum (u32)
//! H+16K   8         checksum of the header and the block table
//! D       ...       the data: the compressed blocks, in any order
//! ```
//!
//! Each sub-table's records are cut into blocks of [`NODES`], its last
//! block shorter; the blocks are numbered sub-table after sub-table
//! ([`first_blocks`]), K in all. The data holds every block once and
//! nothing else, so the file ends at D plus the sum of the lengths. The
//! generator writes each sub-table's blocks as soon as it is solved, so
//! the data is in the order the sub-tables were solved, and no file is
//! ever held uncompressed.
//!
//! A record is read by decompressing its block into a small cache per
//! thread ([`with_block`]).
//!
//! The block size and level trade space for query time. Measured on the
//! first 64 MiB of the largest complete 10-slot file (values only, release
//! build): blocks of 4 Ki nodes at level 6 take 2.14 bits a node and 15 µs
//! to decompress; 16 Ki nodes 2.09 bits and 41 µs; level 9 saves under 1%
//! and compresses half as fast (13 against 25 MB/s a core); level 1 takes
//! 25% more space.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::table::format::{Header, checksum};

/// Nodes (bytes before compression) per block, but the last of each
/// sub-table.
pub const NODES: usize = 1 << 12;

/// DEFLATE level used for writing (0..=10 in miniz_oxide).
const LEVEL: u8 = 6;

/// Bytes of an [`Entry`] in the block table.
pub const ENTRY: usize = 16;

/// Where a block is and its checksum.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Entry {
    /// Offset of its compressed bytes in the data.
    pub start: u64,
    /// Their length.
    pub len: u32,
    /// The low 32 bits of their [`checksum`].
    pub sum: u32,
}

impl Entry {
    /// The entry of the compressed block `bytes` placed at `start`.
    pub fn new(start: u64, bytes: &[u8]) -> Entry {
        Entry { start, len: bytes.len() as u32, sum: checksum(bytes) as u32 }
    }

    /// Whether `bytes` have this entry's checksum.
    pub fn checks(&self, bytes: &[u8]) -> bool {
        checksum(bytes) as u32 == self.sum
    }

    /// The entry stored in `bytes` ([`ENTRY`] of them).
    pub fn parse(bytes: &[u8]) -> Entry {
        let word = |at: usize, len: usize| {
            bytes[at..at + len].iter().rev().fold(0u64, |x, &b| x << 8 | u64::from(b))
        };
        Entry { start: word(0, 8), len: word(8, 4) as u32, sum: word(12, 4) as u32 }
    }

    /// Its [`ENTRY`] bytes.
    pub fn to_bytes(self) -> [u8; ENTRY] {
        let mut out = [0u8; ENTRY];
        out[..8].copy_from_slice(&self.start.to_le_bytes());
        out[8..12].copy_from_slice(&self.len.to_le_bytes());
        out[12..].copy_from_slice(&self.sum.to_le_bytes());
        out
    }
}

/// Per sub-table of `header`, the number of its first block; one more
/// entry at the end: the number of blocks.
pub fn first_blocks(header: &Header) -> Vec<usize> {
    first_blocks_of(header, NODES)
}

/// [`first_blocks`] for blocks of `per_block` nodes (encoding 4's are
/// smaller, `coded.rs`).
pub fn first_blocks_of(header: &Header, per_block: usize) -> Vec<usize> {
    let mut first = Vec::with_capacity(header.nodes.len() + 1);
    let mut total = 0;
    for &nodes in &header.nodes {
        first.push(total);
        total += (nodes as usize).div_ceil(per_block);
    }
    first.push(total);
    first
}

/// The number of records in block `k` of a sub-table of `nodes` nodes.
pub fn block_len(nodes: u64, k: usize) -> usize {
    (nodes as usize - k * NODES).min(NODES)
}

/// The byte offset of the data in a file of `header` with `blocks` blocks.
pub fn data_offset(header: &Header, blocks: usize) -> usize {
    header.len() + ENTRY * blocks + 8
}

/// The bytes from the header to the data: the header, the block table of
/// `entries` and its checksum.
pub fn head_bytes(header: &Header, entries: &[Entry]) -> Vec<u8> {
    let mut out = header.to_bytes();
    out.reserve(ENTRY * entries.len() + 8);
    for e in entries {
        out.extend_from_slice(&e.to_bytes());
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Compresses one block.
pub fn compress(raw: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec(raw, LEVEL)
}

/// Decompresses one block into `out`, which must be exactly its length;
/// `None` if the bytes are not such a block.
pub fn decompress(block: &[u8], out: &mut [u8]) -> Option<()> {
    let len = miniz_oxide::inflate::decompress_slice_iter_to_slice(
        out,
        std::iter::once(block),
        false,
        true,
    )
    .ok()?;
    (len == out.len()).then_some(())
}

/// Decompressed blocks kept per thread by default (192 MiB of blocks of
/// encoding 4, 512 MiB of values-only blocks, taken only as blocks are
/// read). The 12-slot generator's largest sub-tables read far more than
/// 64 MiB of other files' blocks: with 64 MiB they spent over half their
/// time decompressing (docs/table-12.md). A smaller cache (16 MiB) cost
/// `serve` a quarter of its requests a second on 5,745 10-slot positions
/// and queries of encoding 4 a fifth of their speed (2026-11-26).
pub const CACHED: usize = 1 << 17;

/// The blocks each thread's cache holds ([`set_cached_blocks`]): at most
/// [`WAYS`], or a multiple of it.
static SLOTS: AtomicUsize = AtomicUsize::new(CACHED);

/// Blocks read through the caches and blocks that had to be filled
/// (misses), by all threads, counted in batches of [`COUNT_EVERY`] reads.
static READS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);

/// A thread adds its counts to [`READS`] and [`MISSES`] every this many
/// reads.
const COUNT_EVERY: u64 = 1 << 12;

/// Makes each thread's cache hold `blocks` blocks, rounded up to a
/// multiple of `WAYS` (whole sets), from its next read on; a cache of
/// another size is emptied then.
pub fn set_cached_blocks(blocks: usize) {
    SLOTS.store(slots_for(blocks), Ordering::Relaxed);
}

/// The slots of a cache asked to hold `blocks` blocks.
fn slots_for(blocks: usize) -> usize {
    if blocks <= WAYS { blocks.max(1) } else { blocks.next_multiple_of(WAYS) }
}

/// The blocks read through the caches so far and those that had to be
/// decompressed or decoded, by all threads (each thread's last few
/// thousand reads not yet counted).
pub fn cache_counts() -> (u64, u64) {
    (READS.load(Ordering::Relaxed), MISSES.load(Ordering::Relaxed))
}

/// Empties the caches of every thread of the current thread pool (and of
/// the calling thread), adding their counts to [`cache_counts`] first, so
/// that their memory goes back. A thread that is reading a block at the
/// moment keeps its cache.
pub fn empty_caches() {
    let empty = || {
        CACHE.with(|cache| {
            if let Ok(mut cache) = cache.try_borrow_mut() {
                cache.add_counts();
                *cache = Cache::default();
            }
        });
    };
    rayon::broadcast(|_| empty());
    empty();
}

/// The blocks of a set of the cache: a block may be held in any of the
/// [`WAYS`] slots of the set its number falls in. Eight ways missed 34%
/// fewer reads than one slot a block (direct mapping), and 5% fewer than
/// four ways, on the 10-slot file with no fixed piece read through a small
/// cache (docs/depths.md).
const WAYS: usize = 8;

/// The tag of an entry that names no block.
const EMPTY: u64 = u64::MAX;

/// Bits of a tag for the block's number; the file's id takes the rest.
const BLOCK_BITS: u32 = 40;

/// The tag of block `block` of file `file` (a [`crate::table::fresh_id`]),
/// if it has one: blocks numbered below 2^40 of files numbered below
/// 2^24, but for the one tag that is [`EMPTY`]. Others are not cached.
fn tag_of(file: u64, block: usize) -> Option<u64> {
    let block = block as u64;
    let fits = file < 1 << (64 - BLOCK_BITS) && block < 1 << BLOCK_BITS;
    let tag = file << BLOCK_BITS | block;
    (fits && tag != EMPTY).then_some(tag)
}

/// The blocks a thread holds decompressed, in sets of [`Sets::ways`]
/// entries: a lookup reads its set's tags (one cache line of memory for
/// eight ways), then the bytes of the one block it needs.
///
/// Invariants: `tags` and `slots` are cut into sets of [`Sets::ways`]
/// consecutive entries, each set in the order its blocks were last read,
/// the most recent first; entry `i` names the block of `tags[i]` (a
/// [`tag_of`], or [`EMPTY`]), whose bytes are `bytes[slots[i]]`; `slots`
/// holds every index of `bytes` once.
#[derive(Default)]
struct Sets {
    tags: Vec<u64>,
    slots: Vec<u32>,
    bytes: Vec<Vec<u8>>,
}

impl Sets {
    /// An empty cache of `size` blocks ([`slots_for`]).
    fn new(size: usize) -> Sets {
        Sets {
            tags: vec![EMPTY; size],
            slots: (0..size as u32).collect(),
            bytes: (0..size).map(|_| Vec::new()).collect(),
        }
    }

    /// The entries of a set: [`WAYS`], or the whole cache if it is smaller.
    fn ways(&self) -> usize {
        WAYS.min(self.tags.len())
    }

    /// Puts the block of `tag` first in its set and returns that entry's
    /// index, and whether the cache held the block. A block it did not
    /// hold takes the entry (and the bytes) of the one read longest ago in
    /// the set, for the caller to fill.
    fn first(&mut self, tag: u64) -> (usize, bool) {
        let ways = self.ways();
        let sets = (self.tags.len() / ways) as u64;
        // The file's id spread over the bits, the block's number as it is:
        // consecutive blocks of a file fall in consecutive sets.
        let key = (tag >> BLOCK_BITS).wrapping_mul(0x9E37_79B9) + (tag & ((1 << BLOCK_BITS) - 1));
        let set = if sets.is_power_of_two() { key & (sets - 1) } else { key % sets };
        let at = set as usize * ways;
        let tags = &mut self.tags[at..at + ways];
        let found = tags.iter().position(|&t| t == tag);
        let end = found.unwrap_or(ways - 1) + 1;
        tags[..end].rotate_right(1);
        tags[0] = tag;
        self.slots[at..at + end].rotate_right(1);
        (at, found.is_some())
    }
}

/// A thread's cache of decompressed blocks, and the reads and misses not
/// yet added to [`READS`] and [`MISSES`].
#[derive(Default)]
struct Cache {
    sets: Sets,
    reads: u64,
    misses: u64,
}

impl Cache {
    /// Adds the reads and misses counted here to [`READS`] and [`MISSES`].
    fn add_counts(&mut self) {
        READS.fetch_add(std::mem::take(&mut self.reads), Ordering::Relaxed);
        MISSES.fetch_add(std::mem::take(&mut self.misses), Ordering::Relaxed);
    }
}

std::thread_local! {
    static CACHE: RefCell<Cache> = RefCell::default();
}

/// Calls `f` with the decompressed bytes of block `block` of file `file`
/// (`len` bytes), decompressing them with `fill` unless this thread has
/// them cached. `fill` returns `false` for a damaged block, which is then
/// not cached.
pub fn with_block<T>(
    file: u64,
    block: usize,
    len: usize,
    fill: impl FnOnce(&mut [u8]) -> bool,
    f: impl FnOnce(&[u8]) -> T,
) -> Option<T> {
    with_block_where(file, block, len, |_| true, |out, _| fill(out), f)
}

/// [`with_block`] where a cached block is used only if `usable` says so
/// of its bytes (a block decoded in part, `coded.rs`); else it is filled
/// again, and `fill` is told whether the cache held that block already
/// (then the reads are moving on through it, and it had better be filled
/// in full).
pub fn with_block_where<T>(
    file: u64,
    block: usize,
    len: usize,
    usable: impl FnOnce(&[u8]) -> bool,
    fill: impl FnOnce(&mut [u8], bool) -> bool,
    f: impl FnOnce(&[u8]) -> T,
) -> Option<T> {
    CACHE.with(|cache| {
        let cache = &mut *cache.borrow_mut();
        let size = SLOTS.load(Ordering::Relaxed);
        if cache.sets.tags.len() != size {
            cache.sets = Sets::new(size);
        }
        cache.reads += 1;
        if cache.reads == COUNT_EVERY {
            cache.add_counts();
        }
        let Some(tag) = tag_of(file, block) else {
            // Not cached: filled for this read alone.
            cache.misses += 1;
            let mut bytes = vec![0; len];
            return fill(&mut bytes, false).then(|| f(&bytes));
        };
        let (entry, held) = cache.sets.first(tag);
        let bytes = &mut cache.sets.bytes[cache.sets.slots[entry] as usize];
        if !(held && usable(bytes)) {
            cache.misses += 1;
            bytes.resize(len, 0);
            if !fill(bytes, held) {
                // A damaged block is not kept.
                cache.sets.tags[entry] = EMPTY;
                return None;
            }
        }
        Some(f(bytes))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block the cache holds but cannot use is filled again, and `fill`
    /// is told so; any other fill is not.
    #[test]
    fn a_block_filled_again_is_said_to_be() {
        let file = crate::table::fresh_id();
        let mut seen = Vec::new();
        let mut read = |block: usize, need: u8| {
            with_block_where(
                file,
                block,
                4,
                |bytes| bytes[0] >= need,
                |out, again| {
                    seen.push((block, again));
                    out[0] = need;
                    true
                },
                |bytes| bytes[0],
            )
        };
        assert_eq!(read(7, 1), Some(1));
        assert_eq!(read(7, 1), Some(1), "cached");
        assert_eq!(read(7, 3), Some(3), "filled again");
        assert_eq!(read(8, 1), Some(1));
        assert_eq!(seen, [(7, false), (7, true), (8, false)]);
    }

    /// A set keeps the blocks read most recently: with two sets, the block
    /// one more than a set holds evicts the one read longest ago, not one
    /// read again since.
    #[test]
    fn a_set_evicts_the_block_read_longest_ago() {
        let mut sets = Sets::new(2 * WAYS);
        let file = 3;
        let read = |sets: &mut Sets, block: usize| {
            let (entry, held) = sets.first(tag_of(file, block).expect("a tag"));
            let bytes = &mut sets.bytes[sets.slots[entry] as usize];
            if held {
                assert_eq!(*bytes, [block as u8], "the bytes of block {block}");
            }
            *bytes = vec![block as u8];
            held
        };
        // Even blocks fall in one set, odd ones in the other.
        let even: Vec<usize> = (0..WAYS).map(|i| 2 * i).collect();
        for &block in &even {
            assert!(!read(&mut sets, block), "block {block} read for the first time");
        }
        assert!(read(&mut sets, 0), "{WAYS} blocks fit in a set");
        let (next, oldest) = (2 * WAYS, even[1]);
        assert!(!read(&mut sets, next));
        assert!(read(&mut sets, 0), "read again since: kept");
        assert!(!read(&mut sets, oldest), "read longest ago: evicted");
        assert!(!read(&mut sets, 1), "the other set");
        // The set now holds 0, the new block, block 2 read again, and the
        // even blocks after the one it evicted to take block 2 back.
        for block in [0, next, oldest].into_iter().chain(even[3..].iter().copied()) {
            assert!(read(&mut sets, block), "block {block} kept");
        }
        let mut one = Sets::new(1);
        assert!(!read(&mut one, 5) && read(&mut one, 5) && !read(&mut one, 6));
        // Three sets (not a power of two): 3 × WAYS blocks read in turn
        // are all kept, each with its own bytes.
        let mut three = Sets::new(slots_for(3 * WAYS - 5));
        assert_eq!(three.tags.len(), 3 * WAYS);
        let blocks = 3 * WAYS;
        assert!((0..blocks).all(|b| !read(&mut three, b)));
        assert!((0..blocks).all(|b| read(&mut three, b)), "every block kept");
        assert!(!read(&mut three, blocks), "one more evicts one");
    }

    /// Blocks without a tag are read all the same, filled for each read.
    #[test]
    fn blocks_without_a_tag_are_filled_for_each_read() {
        assert_eq!(tag_of(1 << 24, 0), None);
        assert_eq!(tag_of(0, 1 << 40), None);
        assert_eq!(tag_of((1 << 24) - 1, (1 << 40) - 1), None, "the empty tag");
        assert_eq!(tag_of(2, 3), Some(2 << 40 | 3));
        let mut fills = 0;
        for _ in 0..3 {
            let fill = |out: &mut [u8]| {
                fills += 1;
                out[0] = 4;
                true
            };
            assert_eq!(with_block(1 << 30, 9, 1, fill, |bytes| bytes[0]), Some(4));
        }
        assert_eq!(fills, 3);
        assert_eq!(with_block(1 << 30, 9, 1, |_| false, |bytes| bytes[0]), None, "damaged");
    }

    /// Emptied caches hold nothing, on every thread of the pool, and keep
    /// their counts.
    #[test]
    fn emptied_caches_fill_again() {
        let file = crate::table::fresh_id();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let fills = AtomicU64::new(0);
        let read_everywhere = || {
            pool.broadcast(|_| {
                let fill = |out: &mut [u8]| {
                    fills.fetch_add(1, Ordering::Relaxed);
                    out[0] = 9;
                    true
                };
                with_block(file, 0, 1, fill, |bytes| bytes[0])
            })
        };
        assert_eq!(read_everywhere(), [Some(9); 2]);
        assert_eq!(read_everywhere(), [Some(9); 2]);
        assert_eq!(fills.load(Ordering::Relaxed), 2, "one fill a thread, then cached");
        let (reads, _) = cache_counts();
        pool.install(empty_caches);
        assert!(cache_counts().0 >= reads + 4, "the four reads are counted");
        assert_eq!(read_everywhere(), [Some(9); 2]);
        assert_eq!(fills.load(Ordering::Relaxed), 4, "filled again on both threads");
    }

    /// Every read is counted, and every block read for the first time is
    /// a miss (other tests' threads may add to the counts meanwhile).
    #[test]
    fn reads_and_misses_are_counted() {
        let file = crate::table::fresh_id();
        let (reads, misses) = cache_counts();
        let n = 3 * COUNT_EVERY as usize;
        for block in 0..n {
            with_block(
                file,
                block,
                1,
                |out| {
                    out[0] = 1;
                    true
                },
                |bytes| bytes[0],
            );
        }
        let (reads_now, misses_now) = cache_counts();
        assert!(reads_now - reads >= n as u64 - COUNT_EVERY, "{reads} then {reads_now}");
        assert!(misses_now - misses >= n as u64 - COUNT_EVERY, "{misses} then {misses_now}");
    }

    #[test]
    fn blocks_round_trip_and_damage_is_refused() {
        let raw: Vec<u8> = (0..NODES).map(|i| (i * i % 7) as u8).collect();
        let packed = compress(&raw);
        assert!(packed.len() < raw.len() / 4);
        let mut out = vec![0u8; NODES];
        assert_eq!(decompress(&packed, &mut out), Some(()));
        assert_eq!(out, raw);
        let mut short = vec![0u8; NODES + 1];
        assert_eq!(decompress(&packed, &mut short), None, "a block of the wrong length");
        assert_eq!(decompress(&packed[..packed.len() / 2], &mut out), None);
        let e = Entry::new(1 << 40 | 5, &packed);
        assert_eq!(Entry::parse(&e.to_bytes()), e);
        assert!(e.checks(&packed) && !e.checks(&packed[1..]));
    }
}
