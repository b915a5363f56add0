//! [`BlockCache`]: the decompressed blocks of the files of encodings 3 and
//! 4 ([`crate::table::packed`], [`crate::table::coded`]) that reads keep,
//! and how many reads found their block there.
//!
//! A cache belongs to the [`crate::table::Tablebase`] whose files read
//! through it (or to whoever holds the `Arc` it was given), not to the
//! process: two tablebases of one process keep their own blocks and
//! counts. Each thread that reads through a cache keeps its own blocks
//! (no lock on the probing path), in a small per-thread list of the caches
//! it has read through, keyed by the cache's number; a thread lets go of
//! the blocks of a dropped cache when it next starts on another one, or
//! when it ends.
//!
//! Per-thread caches keyed by the owner cost the same CPU time as the
//! process-wide per-thread cache before them, within 2% (`query -` of
//! 2,000 10-slot positions, side by side; docs/benchmarks.md, "`query`").

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Weak};

/// Decompressed blocks kept per thread by default (192 MiB of blocks of
/// encoding 4, 512 MiB of values-only blocks, taken only as blocks are
/// read). The 12-slot generator's largest sub-tables read far more than
/// 64 MiB of other files' blocks: with 64 MiB they spent over half their
/// time decompressing (docs/table-12.md). A smaller cache (16 MiB) cost
/// `serve` a quarter of its requests a second on 5,745 10-slot positions
/// and queries of encoding 4 a fifth of their speed (2026-11-26).
pub const CACHED: usize = 1 << 17;

/// A thread adds its counts to its cache's every this many reads.
const COUNT_EVERY: u64 = 1 << 12;

/// The source of the caches' numbers.
static NEXT_CACHE: AtomicU64 = AtomicU64::new(0);

/// The blocks read through a cache, and those that had to be filled
/// (misses), by all threads (each thread's last few thousand reads not yet
/// counted, but the calling thread's in [`BlockCache::counts`]).
#[derive(Debug, Default)]
struct Counts {
    reads: AtomicU64,
    misses: AtomicU64,
}

/// A cache of decompressed blocks: each thread that reads through it
/// keeps up to [`BlockCache::blocks`] blocks of its own. A
/// [`crate::table::Tablebase`] makes one (or is given one to share,
/// [`crate::table::Tablebase::with_block_cache`]).
#[derive(Debug)]
pub struct BlockCache {
    /// A number no other cache of the process has: the key of each
    /// thread's blocks.
    id: u64,
    /// The blocks each thread holds ([`BlockCache::set_blocks`]): at most
    /// [`WAYS`], or a multiple of it.
    slots: AtomicUsize,
    /// Shared with each thread's blocks, which add to it; dropped with the
    /// cache, which tells the threads that their blocks can go.
    counts: Arc<Counts>,
}

impl Default for BlockCache {
    /// A cache of [`CACHED`] blocks a thread.
    fn default() -> BlockCache {
        BlockCache::new(CACHED)
    }
}

impl BlockCache {
    /// A cache of `blocks` blocks a thread, rounded up to a multiple of
    /// the ways of a set.
    pub fn new(blocks: usize) -> BlockCache {
        BlockCache {
            id: NEXT_CACHE.fetch_add(1, Ordering::Relaxed),
            slots: AtomicUsize::new(slots_for(blocks)),
            counts: Arc::default(),
        }
    }

    /// The blocks each thread keeps.
    pub fn blocks(&self) -> usize {
        self.slots.load(Ordering::Relaxed)
    }

    /// Makes each thread keep `blocks` blocks (as [`BlockCache::new`]),
    /// from its next read on; a thread's blocks are emptied then if the
    /// size changes.
    pub fn set_blocks(&self, blocks: usize) {
        self.slots.store(slots_for(blocks), Ordering::Relaxed);
    }

    /// The blocks read through this cache so far and those that had to be
    /// decompressed or decoded (misses), by all threads; the other
    /// threads' last few thousand reads may not be counted yet.
    pub fn counts(&self) -> (u64, u64) {
        let _ = HELD.try_with(|held| {
            if let Ok(mut held) = held.try_borrow_mut() {
                held.iter_mut().filter(|h| h.owner == self.id).for_each(Held::add_counts);
            }
        });
        let counts = &self.counts;
        (counts.reads.load(Ordering::Relaxed), counts.misses.load(Ordering::Relaxed))
    }

    /// Empties the blocks of this cache on every thread of the current
    /// thread pool (and on the calling thread), adding their counts first,
    /// so that their memory goes back. A thread that is reading a block at
    /// the moment keeps its blocks.
    pub fn empty(&self) {
        let empty = || {
            let _ = HELD.try_with(|held| {
                if let Ok(mut held) = held.try_borrow_mut() {
                    held.retain(|h| h.owner != self.id);
                }
            });
        };
        rayon::broadcast(|_| empty());
        empty();
    }

    /// Calls `f` with the decompressed bytes of block `block` of file
    /// `file` (`len` bytes), decompressing them with `fill` unless this
    /// thread has them cached. `fill` returns `false` for a damaged block,
    /// which is then not cached.
    pub(crate) fn with_block<T>(
        &self,
        file: u64,
        block: usize,
        len: usize,
        fill: impl FnOnce(&mut [u8]) -> bool,
        f: impl FnOnce(&[u8]) -> T,
    ) -> Option<T> {
        self.with_block_where(file, block, len, |_| true, |out, _| fill(out), f)
    }

    /// [`BlockCache::with_block`] where a cached block is used only if
    /// `usable` says so of its bytes (a block decoded in part, `coded.rs`);
    /// else it is filled again, and `fill` is told whether the cache held
    /// that block already (then the reads are moving on through it, and
    /// it had better be filled in full).
    pub(crate) fn with_block_where<T>(
        &self,
        file: u64,
        block: usize,
        len: usize,
        usable: impl FnOnce(&[u8]) -> bool,
        fill: impl FnOnce(&mut [u8], bool) -> bool,
        f: impl FnOnce(&[u8]) -> T,
    ) -> Option<T> {
        HELD.with(|held| {
            let held = &mut *held.borrow_mut();
            let cache = self.held(held);
            let size = self.slots.load(Ordering::Relaxed);
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
            let (entry, found) = cache.sets.first(tag);
            let bytes = &mut cache.sets.bytes[cache.sets.slots[entry] as usize];
            if !(found && usable(bytes)) {
                cache.misses += 1;
                bytes.resize(len, 0);
                if !fill(bytes, found) {
                    // A damaged block is not kept.
                    cache.sets.tags[entry] = EMPTY;
                    return None;
                }
            }
            Some(f(bytes))
        })
    }

    /// This thread's blocks of this cache in `held`, made empty if there
    /// are none (then the blocks of dropped caches go).
    fn held<'a>(&self, held: &'a mut Vec<Held>) -> &'a mut Held {
        let at = match held.iter().position(|h| h.owner == self.id) {
            Some(at) => at,
            None => {
                held.retain(|h| h.counts.strong_count() > 0);
                held.push(Held {
                    owner: self.id,
                    counts: Arc::downgrade(&self.counts),
                    sets: Sets::default(),
                    reads: 0,
                    misses: 0,
                });
                held.len() - 1
            }
        };
        &mut held[at]
    }
}

/// The blocks one thread holds of one [`BlockCache`], and the reads and
/// misses not yet added to its counts.
struct Held {
    /// The cache's number.
    owner: u64,
    /// The cache's counts, gone with the cache.
    counts: Weak<Counts>,
    sets: Sets,
    reads: u64,
    misses: u64,
}

impl Held {
    /// Adds the reads and misses counted here to the cache's counts (if
    /// it is still there).
    fn add_counts(&mut self) {
        let (reads, misses) = (std::mem::take(&mut self.reads), std::mem::take(&mut self.misses));
        if let Some(counts) = self.counts.upgrade() {
            counts.reads.fetch_add(reads, Ordering::Relaxed);
            counts.misses.fetch_add(misses, Ordering::Relaxed);
        }
    }
}

impl Drop for Held {
    /// Counts what was read since the last count.
    fn drop(&mut self) {
        self.add_counts();
    }
}

std::thread_local! {
    /// This thread's blocks, per cache it has read through.
    static HELD: RefCell<Vec<Held>> = const { RefCell::new(Vec::new()) };
}

/// The slots of a cache asked to hold `blocks` blocks.
fn slots_for(blocks: usize) -> usize {
    if blocks <= WAYS { blocks.max(1) } else { blocks.next_multiple_of(WAYS) }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A block the cache holds but cannot use is filled again, and `fill`
    /// is told so; any other fill is not.
    #[test]
    fn a_block_filled_again_is_said_to_be() {
        let cache = BlockCache::default();
        let file = crate::table::fresh_id();
        let mut seen = Vec::new();
        let mut read = |block: usize, need: u8| {
            cache.with_block_where(
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
        let cache = BlockCache::default();
        let mut fills = 0;
        for _ in 0..3 {
            let fill = |out: &mut [u8]| {
                fills += 1;
                out[0] = 4;
                true
            };
            assert_eq!(cache.with_block(1 << 30, 9, 1, fill, |bytes| bytes[0]), Some(4));
        }
        assert_eq!(fills, 3);
        assert_eq!(cache.with_block(1 << 30, 9, 1, |_| false, |bytes| bytes[0]), None, "damaged");
    }

    /// Emptied caches hold nothing, on every thread of the pool, and keep
    /// their counts.
    #[test]
    fn emptied_caches_fill_again() {
        let cache = BlockCache::default();
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
                cache.with_block(file, 0, 1, fill, |bytes| bytes[0])
            })
        };
        assert_eq!(read_everywhere(), [Some(9); 2]);
        assert_eq!(read_everywhere(), [Some(9); 2]);
        assert_eq!(fills.load(Ordering::Relaxed), 2, "one fill a thread, then cached");
        assert_eq!(cache.counts().0, 0, "counted in batches");
        pool.install(|| cache.empty());
        assert_eq!(cache.counts(), (4, 2), "the four reads and two fills are counted");
        assert_eq!(read_everywhere(), [Some(9); 2]);
        assert_eq!(fills.load(Ordering::Relaxed), 4, "filled again on both threads");
    }

    /// Every read is counted, and every block read for the first time is
    /// a miss; another cache counts its own.
    #[test]
    fn reads_and_misses_are_counted() {
        let (cache, other) = (BlockCache::default(), BlockCache::default());
        let file = crate::table::fresh_id();
        let (reads, misses) = cache.counts();
        let n = 3 * COUNT_EVERY as usize;
        for block in 0..n {
            cache.with_block(
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
        assert_eq!((reads, misses), (0, 0));
        assert_eq!(cache.counts(), (n as u64, n as u64));
        assert_eq!(other.counts(), (0, 0));
    }

    /// Two caches keep their own blocks: the same file and block read
    /// through each is filled once in each, with its own bytes, and a
    /// dropped cache's blocks go when the thread starts on another.
    #[test]
    fn two_caches_keep_their_own_blocks() {
        let (one, two) = (BlockCache::default(), BlockCache::new(16));
        let read = |cache: &BlockCache, byte: u8| {
            let mut filled = false;
            let fill = |out: &mut [u8]| {
                filled = true;
                out[0] = byte;
                true
            };
            let got = cache.with_block(5, 0, 1, fill, |bytes| bytes[0]);
            (got, filled)
        };
        assert_eq!(read(&one, 1), (Some(1), true));
        assert_eq!(read(&two, 2), (Some(2), true), "not the other cache's block");
        assert_eq!(read(&one, 9), (Some(1), false), "cached in the first");
        assert_eq!(read(&two, 9), (Some(2), false), "cached in the second");
        assert_eq!((one.counts(), two.counts()), ((2, 1), (2, 1)));
        assert_eq!(two.blocks(), 16);
        let held = || HELD.with(|held| held.borrow().len());
        let before = held();
        drop(two);
        let three = BlockCache::new(8);
        assert_eq!(read(&three, 3), (Some(3), true));
        assert_eq!(held(), before, "the dropped cache's blocks went, the new one's came");
    }
}
