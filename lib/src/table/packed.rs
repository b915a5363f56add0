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
//! A record is read by decompressing its block into the cache of its
//! tablebase ([`crate::table::BlockCache`]).
//!
//! The block size and level trade space for query time. Measured on the
//! first 64 MiB of the largest complete 10-slot file (values only, release
//! build): blocks of 4 Ki nodes at level 6 take 2.14 bits a node and 15 µs
//! to decompress; 16 Ki nodes 2.09 bits and 41 µs; level 9 saves under 1%
//! and compresses half as fast (13 against 25 MB/s a core); level 1 takes
//! 25% more space.

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
        let e = Entry::new(1 << 40 | 5, &packed);
        assert_eq!(Entry::parse(&e.to_bytes()), e);
        assert!(e.checks(&packed) && !e.checks(&packed[1..]));
    }
}
