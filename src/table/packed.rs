//! Record encoding 3: the one-byte value records of encoding 2
//! ([`crate::table::values`]) in blocks of [`NODES`] nodes, each block
//! compressed on its own with DEFLATE (RFC 1951, no wrapper).
//!
//! ```text
//! offset  size          field
//! 0       H             the header of format.rs (encoding 3)
//! H       8 × (K + 1)   start of each compressed block in the data, then
//!                       the data's length (K = ceil(R / NODES) blocks)
//! D       ...           the compressed blocks, one after another
//! ...     8 × K         checksum of each compressed block
//! ...     8             checksum of the header, the starts and the block
//!                       checksums
//! ```
//!
//! Every block but the last decompresses to exactly [`NODES`] bytes, the
//! last to the rest. A record is read by decompressing its block into a
//! small cache per thread ([`with_block`]).
//!
//! The block size and level trade space for query time. Measured on the
//! first 64 MiB of the largest complete 10-slot file (values only, release
//! build): blocks of 4 Ki nodes at level 6 take 2.14 bits a node and 15 µs
//! to decompress; 16 Ki nodes 2.09 bits and 41 µs; level 9 saves under 1%
//! and compresses half as fast (13 against 25 MB/s a core); level 1 takes
//! 25% more space.

use std::cell::RefCell;
use std::io::{self, Seek, SeekFrom, Write};

use crate::table::format::{Header, checksum};

/// Nodes (bytes before compression) per block.
pub const NODES: usize = 1 << 12;

/// DEFLATE level used for writing (0..=10 in miniz_oxide).
const LEVEL: u8 = 6;

/// Number of blocks for `records` records.
pub fn blocks(records: u64) -> usize {
    (records as usize).div_ceil(NODES)
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

/// Writes the file of encoding 3 for `header` (which must say encoding 3)
/// and the one-byte records `payload` to `out`, compressing `batch` blocks
/// at a time in parallel; returns the file's length.
///
/// # Errors
/// Writing fails.
pub fn write(header: &Header, payload: &[u8], out: &mut (impl Write + Seek)) -> io::Result<u64> {
    use rayon::prelude::*;
    debug_assert_eq!(payload.len() as u64, header.records());
    let head = header.to_bytes();
    let blocks = blocks(header.records());
    let mut starts = Vec::with_capacity(8 * (blocks + 1));
    let mut sums = Vec::with_capacity(8 * blocks + 8);
    // Room for the starts, filled in at the end.
    out.write_all(&head)?;
    out.write_all(&vec![0u8; 8 * (blocks + 1)])?;
    let mut at = 0u64;
    // A batch bounds the memory: its compressed blocks wait to be written.
    for batch in payload.chunks(NODES * 1024) {
        let packed: Vec<Vec<u8>> = batch.par_chunks(NODES).map(compress).collect();
        for p in packed {
            starts.extend_from_slice(&at.to_le_bytes());
            sums.extend_from_slice(&checksum(&p).to_le_bytes());
            out.write_all(&p)?;
            at += p.len() as u64;
        }
    }
    starts.extend_from_slice(&at.to_le_bytes());
    let mut whole = head.clone();
    whole.extend_from_slice(&starts);
    whole.extend_from_slice(&sums);
    sums.extend_from_slice(&checksum(&whole).to_le_bytes());
    out.write_all(&sums)?;
    out.seek(SeekFrom::Start(head.len() as u64))?;
    out.write_all(&starts)?;
    Ok((whole.len() + 8) as u64 + at)
}

/// Decompressed blocks kept per thread (4 MiB).
const CACHED: usize = 1024;

/// One cached block: which file (a [`crate::table::TableFile`] id) and
/// block, and its bytes.
struct Cached {
    file: u64,
    block: usize,
    bytes: Vec<u8>,
}

std::thread_local! {
    /// A direct-mapped cache of decompressed blocks.
    static CACHE: RefCell<Vec<Option<Cached>>> =
        RefCell::new((0..CACHED).map(|_| None).collect());
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
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let slot = (file.wrapping_mul(0x9E37_79B9) as usize ^ block) % CACHED;
        let hit = matches!(&cache[slot], Some(c) if c.file == file && c.block == block);
        if !hit {
            let mut bytes = cache[slot].take().map(|c| c.bytes).unwrap_or_default();
            bytes.resize(len, 0);
            if !fill(&mut bytes) {
                return None;
            }
            cache[slot] = Some(Cached { file, block, bytes });
        }
        cache[slot].as_ref().map(|c| f(&c.bytes))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
