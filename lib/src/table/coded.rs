//! Record encoding 4, "values with depths, compressed" (docs/depths.md):
//! the values byte of every node and the depth record T of every 甲 node,
//! in blocks of B boards (a power of two, [`BOARDS`] when written by this
//! program) coded by [`depth_code`] with static
//! models. A 乙 node's scores are not stored: the reader derives them from
//! its children by a one-ply search (`table/derive.rs`).
//!
//! ```text
//! offset  size      field
//! 0       H         the header of format.rs (encoding 4)
//! H       4         B, boards a block (a power of two, 16 to 4,096), in
//!                   the low 16 bits; in the high 16, G, boards a segment
//!                   (0: blocks of two streams, depth_code.rs; else a
//!                   power of two, 16 to B: blocks of segments,
//!                   segment.rs)
//! H+4     4         the side whose depth records the file stores: 0 甲
//!                   (a table file), 1 乙 (a side file, `f{F}.side.cctb`),
//!                   in the low 16 bits; G again in the high 16 (the head's
//!                   checksum is not checked when a large file is opened,
//!                   and G read wrong would decode blocks wrong: the two
//!                   copies must agree)
//! H+8     4         M, the number of model sets
//! H+12    4 × S     per sub-table, the model set its blocks are coded with
//! ...     16 × M    per model set an [`Entry`] (where its bytes are in the
//!                   data, their length and checksum; [`Models::to_bytes`])
//! ...     16 × K    per block an [`Entry`]
//! ...     8         checksum of everything above
//! D       ...       the data: the model sets and the blocks, in any order
//! ```
//!
//! A side file holds the same boards with the sides' parts swapped: per
//! board 乙's values byte first, then 甲's, and 乙's depth record as
//! [`BoardCode::jia`]. Where a table file has one next to it, 乙 nodes are
//! read from it instead of derived.
//!
//! Blocks are numbered sub-table after sub-table as in encoding 3
//! ([`first_blocks`]); each holds B boards (2B nodes) but the last of its
//! sub-table. The data holds every model set and
//! every block once and nothing else, so the file ends at D plus the sum
//! of their lengths ([`Layout::check_head`]).
//!
//! A block is checked against its checksum, then decoded as a whole into
//! the thread's cache of blocks ([`crate::table::BlockCache`]), 6 bytes a board
//! ([`pack_board`]: what a read of the stored node needs); or, where only
//! values bytes are asked for (a 乙 node's), its values stream alone, 2
//! bytes a board, cached apart.

use crate::moves::PassRule;
use crate::position::Last;
use crate::score::Score;
use crate::side::Side;
use crate::summary::Summary;
use crate::table::depth_code::{self, BoardCode, DepthRecord, ModelCounts, Models};
use crate::table::format::{Header, checksum};
use crate::table::packed::{self, ENTRY, Entry};
use crate::table::segment;
use crate::value::Value;

/// Boards a block in the files this program writes: blocks of 512 nodes,
/// for queries under 1 ms at 10 slots (docs/depths.md, "The reader,
/// measured").
pub const BOARDS: usize = 256;

/// The sizes of blocks a file may have (boards, powers of two).
const BLOCK_SIZES: std::ops::RangeInclusive<usize> = 16..=4096;

/// A block read for a board is decoded up to it, rounded up to a multiple
/// of this many boards (the rest when a later read needs it).
pub const PREFIX: usize = 64;

/// A segment read for a board is decoded up to it, rounded up to a
/// multiple of this many boards.
pub const SEGMENT_PREFIX: usize = 16;

/// Boards a segment in the files `recode` writes by default: a read
/// decodes about 40 boards instead of about 160, for about 6% more bytes
/// (docs/depths.md, "Segments").
pub const SEGMENT: usize = 64;

/// Bytes of a decoded board in the cache ([`pack_board`]).
pub const BOARD_BYTES: usize = 6;

/// Nodes of a file above which its large sub-tables get model sets of
/// their own (docs/depths.md, "The coder").
pub const ONE_SET: u64 = 1 << 26;

/// Nodes of 甲 a sub-table needs to get its own model set in a file of
/// more than [`ONE_SET`] nodes.
pub const OWN_SET: u64 = 1 << 16;

/// Per sub-table of `header`, its model set: one for the whole file if it
/// has at most [`ONE_SET`] nodes; else one for each sub-table with at
/// least [`OWN_SET`] 甲 nodes, in order, after set 0 shared by the others.
pub fn model_sets(header: &Header) -> Vec<u32> {
    model_sets_with(header, ONE_SET, OWN_SET)
}

/// [`model_sets`] with other limits (tests make files of many sets with
/// small ones).
pub fn model_sets_with(header: &Header, one_set: u64, own_set: u64) -> Vec<u32> {
    if header.records() <= one_set {
        return vec![0; header.nodes.len()];
    }
    let mut next = 0;
    header
        .nodes
        .iter()
        .map(|&nodes| {
            if nodes > 0 && nodes / 2 >= own_set {
                next += 1;
                next
            } else {
                0
            }
        })
        .collect()
}

/// Where the parts of an encoding-4 file are, and which model set each
/// sub-table uses; read from its head by [`Layout::parse`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Boards a block (B).
    pub boards: usize,
    /// Boards a segment (G); 0: blocks without segments.
    pub segment: usize,
    /// The side whose depth records the file stores.
    pub stored: Side,
    /// Per sub-table, its model set.
    pub sub_model: Vec<u32>,
    /// Per model set, where it is in the data.
    pub models: Vec<Entry>,
    /// Byte offset of the block table.
    pub table: usize,
    /// Number of blocks.
    pub blocks: usize,
    /// Byte offset of the data.
    pub data: usize,
}

/// Per sub-table of `header`, the number of its first block of `boards`
/// boards; one more entry at the end: the number of blocks.
pub fn first_blocks(header: &Header, boards: usize) -> Vec<usize> {
    packed::first_blocks_of(header, 2 * boards)
}

/// The number of boards in block `k` (of `per` boards) of a sub-table of
/// `nodes` nodes.
pub fn block_boards(nodes: u64, k: usize, per: usize) -> usize {
    (nodes as usize / 2 - k * per).min(per)
}

impl Layout {
    /// Reads the layout of the file `bytes` with `header` (parsed from
    /// them): the sizes and the model indices; the checksum of the head
    /// and the file's length are [`Layout::check_head`]'s.
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn parse(bytes: &[u8], header: &Header) -> Result<Layout, String> {
        let short = || format!("{} bytes, shorter than its head", bytes.len());
        let u32_at = |at: usize| {
            bytes
                .get(at..at + 4)
                .map(|b| u32::from_le_bytes(b.try_into().expect("4")))
                .ok_or_else(short)
        };
        let word = u32_at(header.len())?;
        let (boards, segment) = ((word & 0xFFFF) as usize, (word >> 16) as usize);
        if !boards.is_power_of_two() || !BLOCK_SIZES.contains(&boards) {
            return Err(format!("blocks of {boards} boards"));
        }
        if segment != 0 && (!segment.is_power_of_two() || !(16..=boards).contains(&segment)) {
            return Err(format!("segments of {segment} boards in blocks of {boards}"));
        }
        let word = u32_at(header.len() + 4)?;
        let stored = match word & 0xFFFF {
            0 => Side::Jia,
            1 => Side::Yi,
            s => return Err(format!("stored side {s}")),
        };
        if (word >> 16) as usize != segment {
            return Err(format!("segments of {segment} and {} boards", word >> 16));
        }
        let at = header.len() + 8;
        let m = u32_at(at)? as usize;
        let subs = header.nodes.len();
        if m == 0 || m > subs {
            return Err(format!("{m} model sets for {subs} sub-tables"));
        }
        let sub_model =
            (0..subs).map(|i| u32_at(at + 4 + 4 * i)).collect::<Result<Vec<u32>, String>>()?;
        if let Some(i) = sub_model.iter().position(|&k| k as usize >= m) {
            return Err(format!("sub-table {i} uses model set {}, of {m}", sub_model[i]));
        }
        let models_at = at + 4 + 4 * subs;
        let blocks = *first_blocks(header, boards).last().expect("one more entry than sub-tables");
        let table = models_at + ENTRY * m;
        let data = table + ENTRY * blocks + 8;
        let head = bytes.get(..data).ok_or_else(short)?;
        let models: Vec<Entry> = head[models_at..table].chunks(ENTRY).map(Entry::parse).collect();
        Ok(Layout { boards, segment, stored, sub_model, models, table, blocks, data })
    }

    /// Checks the checksum of the head (everything before the data) and
    /// that the file ends where the entries say: a pass over the whole
    /// block table, 16 bytes a block (over 500 MB for the largest 12-slot
    /// file).
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn check_head(&self, bytes: &[u8]) -> Result<(), String> {
        let head = &bytes[..self.data];
        let sum = u64::from_le_bytes(head[self.data - 8..].try_into().expect("8 bytes"));
        if checksum(&head[..self.data - 8]) != sum {
            return Err("header checksum mismatch".into());
        }
        let data_len: u64 = self
            .models
            .iter()
            .copied()
            .chain(head[self.table..self.data - 8].chunks(ENTRY).map(Entry::parse))
            .map(|e| u64::from(e.len))
            .sum();
        let expected = self.data as u64 + data_len;
        if bytes.len() as u64 != expected {
            return Err(format!("{} bytes, expected {expected}", bytes.len()));
        }
        Ok(())
    }

    /// Whether the fields of the head that the blocks' own checksums do not
    /// cover are what this program writes for `header`: the model set of
    /// every sub-table by [`model_sets`] (as `generate` writes) or one set
    /// for all (as `recode` rewrites, `table/recode.rs`), and the side
    /// `stored`. Then the
    /// head need not be checked before reading (see
    /// [`Layout::check_head`]): every block is read through its entry
    /// and checked against the checksum in it, and every model set
    /// likewise, so a damaged entry or block table gives an error, never
    /// a wrong answer.
    pub fn is_standard(&self, header: &Header, stored: Side) -> bool {
        let sets = self.sub_model.iter().max().map_or(1, |&m| m as usize + 1);
        self.stored == stored
            && self.models.len() == sets
            && (sets == 1 || self.sub_model == model_sets(header))
    }
}

/// The bytes from the header to the data (module docs): `header`, the
/// boards a block and a segment and the stored side, the model set of
/// each sub-table, the entries of the model sets and of the blocks, and
/// their checksum.
pub fn head_bytes(
    header: &Header,
    (boards, segment, stored): (usize, usize, Side),
    sub_model: &[u32],
    models: &[Entry],
    blocks: &[Entry],
) -> Vec<u8> {
    let mut out = header.to_bytes();
    debug_assert!(boards < 1 << 16 && segment < 1 << 16);
    out.extend_from_slice(&(boards as u32 | (segment as u32) << 16).to_le_bytes());
    out.extend_from_slice(&(stored.index() as u32 | (segment as u32) << 16).to_le_bytes());
    out.extend_from_slice(&(models.len() as u32).to_le_bytes());
    for &k in sub_model {
        out.extend_from_slice(&k.to_le_bytes());
    }
    for e in models.iter().chain(blocks) {
        out.extend_from_slice(&e.to_bytes());
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The length of [`head_bytes`] for `header` with `models` model sets
/// and `blocks` blocks.
pub fn head_len(header: &Header, models: usize, blocks: usize) -> usize {
    header.to_bytes().len() + 12 + 4 * header.nodes.len() + ENTRY * (models + blocks) + 8
}

/// What the cache keeps of a decoded board: the stored node's values byte
/// and depth record. (The other node's values byte is read from the
/// values stream alone, `decode_values_into`.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stored {
    /// The stored node's values byte (`table/values.rs`).
    pub values: u8,
    /// Its depth record.
    pub record: DepthRecord,
}

impl Stored {
    /// The score of the stored node's state with previous ply `last`
    /// (consistent with the board), as [`DepthRecord::summary`] of its
    /// values byte gives it; `None` if the values byte is not one of `rule`
    /// and `n` slots.
    pub fn score(&self, last: Last, rule: PassRule, n: u8) -> Option<Score> {
        Some(self.scores(rule, n)?.score(last, rule))
    }

    /// The scores of every state of the stored node ([`NodeScores`]);
    /// `None` as for [`Stored::score`].
    pub fn scores(&self, rule: PassRule, n: u8) -> Option<NodeScores> {
        let base = crate::table::values::decode(self.values, rule, n)?;
        Some(NodeScores::Record { value: base.score(Last::None, rule).value, record: self.record })
    }
}

/// The scores of every state of one node, read once: its summary, or, for
/// a node whose depth record is stored (encoding 4), its value of `last`
/// none and that record. A reader that wants several of a node's states
/// (the generator's exits, one a parent) looks the node up once.
#[derive(Debug, Clone, Copy)]
pub enum NodeScores {
    /// A summary, as the other encodings and derivations give it.
    Summary(Summary),
    /// A stored depth record and the node's value of `last` none.
    Record {
        /// The value of `last` none, from the node's values byte.
        value: Value,
        /// The depth record.
        record: DepthRecord,
    },
}

impl NodeScores {
    /// The score of the node's state with previous ply `last` (consistent
    /// with the board).
    #[inline]
    pub fn score(&self, last: Last, rule: PassRule) -> Score {
        match self {
            NodeScores::Summary(s) => s.score(last, rule),
            NodeScores::Record { value, record } => record.score(*value, last),
        }
    }
}

/// A decoded board as the cache holds it ([`BOARD_BYTES`]): the stored
/// node's values byte, its depth of `last` none (at most
/// [`depth_code::MAX_DEPTH`], a byte) and the rest of its T.
pub fn pack_board(b: &BoardCode, out: &mut [u8]) {
    out[0] = b.values[0];
    out[1] = b.jia.depth as u8;
    out[2..6].copy_from_slice(&b.jia.rest().to_le_bytes());
}

/// The board [`pack_board`] packed; `None` if the bytes are not one.
pub fn unpack_board(bytes: &[u8]) -> Option<Stored> {
    let rest = u32::from_le_bytes(bytes[2..6].try_into().expect("4 bytes"));
    let record = DepthRecord::from_rest(u16::from(bytes[1]), rest).ok()?;
    Some(Stored { values: bytes[0], record })
}

/// The bytes of the block `boards` coded with `models`: in segments of
/// `segment` boards (`segment.rs`), or without (`0`, `depth_code.rs`).
///
/// # Errors
/// A record out of range, or a symbol `models` lack.
pub fn encode_block(
    boards: &[BoardCode],
    models: &Models,
    segment: usize,
) -> Result<Vec<u8>, String> {
    match segment {
        0 => depth_code::encode_block(boards, models),
        g => segment::encode_block(boards, models, g),
    }
}

/// Decodes the whole block `bytes` of `boards` boards (in segments of
/// `segment` boards, or `0`) into `out`.
///
/// # Errors
/// Bytes that are not such a block.
pub fn decode_block(
    bytes: &[u8],
    boards: usize,
    models: &Models,
    segment: usize,
    out: &mut Vec<BoardCode>,
) -> Result<(), String> {
    match segment {
        0 => depth_code::decode_block(bytes, boards, models, out),
        g => segment::decode_block(bytes, boards, models, g, out),
    }
}

/// Counts the symbols of the block `boards` into `counts` as a block in
/// segments of `segment` boards (or `0`) codes them: each segment's
/// contexts start afresh.
///
/// # Errors
/// A record out of range.
pub fn count_block(
    counts: &mut ModelCounts,
    boards: &[BoardCode],
    segment: usize,
) -> Result<(), String> {
    match segment {
        0 => counts.add_block(boards),
        g => boards.chunks(g).try_for_each(|c| counts.add_block(c)),
    }
}

/// Decodes the block `bytes` of `boards` boards with `models` into `out`
/// (`boards` × [`BOARD_BYTES`] bytes), as [`pack_board`] packs them.
///
/// # Errors
/// Bytes that are not such a block.
pub fn decode_into(
    bytes: &[u8],
    boards: usize,
    models: &Models,
    segment: usize,
    out: &mut [u8],
) -> Result<(), String> {
    let mut decoded = Vec::with_capacity(boards);
    decode_block(bytes, boards, models, segment, &mut decoded)?;
    pack(&decoded, true, out);
    Ok(())
}

/// Packs `decoded` into `out`: [`pack_board`] each (`whole`), or its two
/// values bytes, 甲's first.
pub fn pack(decoded: &[BoardCode], whole: bool, out: &mut [u8]) {
    if whole {
        for (b, chunk) in decoded.iter().zip(out.chunks_exact_mut(BOARD_BYTES)) {
            pack_board(b, chunk);
        }
    } else {
        for (b, chunk) in decoded.iter().zip(out.chunks_exact_mut(2)) {
            chunk.copy_from_slice(&b.values);
        }
    }
}

/// Decodes the first `upto` of the `boards` boards of the block `bytes`
/// (without segments) into `out` as [`pack`] packs them: whole, or (where
/// only values bytes are asked for, a 乙 node's) from the values stream
/// alone. The ends of the streams are checked only when `upto` is
/// `boards`: the block's checksum must have been checked before.
///
/// # Errors
/// Bytes that are not such a block, as far as decoded.
pub fn decode_prefix_into(
    bytes: &[u8],
    boards: usize,
    upto: usize,
    models: &Models,
    whole: bool,
    out: &mut [u8],
) -> Result<(), String> {
    if whole {
        let mut decoded = Vec::with_capacity(upto);
        depth_code::decode_block_prefix(bytes, boards, upto, models, &mut decoded)?;
        pack(&decoded, true, out);
    } else {
        let mut pairs = Vec::with_capacity(upto);
        depth_code::decode_values(bytes, boards, upto, models, &mut pairs)?;
        for (pair, chunk) in pairs.iter().zip(out.chunks_exact_mut(2)) {
            chunk.copy_from_slice(pair);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_len_is_the_length_of_the_head() {
        let header = Header {
            n: 6,
            rule: crate::moves::PassRule::Always,
            fixed: 0,
            encoding: crate::table::format::Encoding::Coded,
            nodes: vec![4, 0, 10, 100],
        };
        let (models, blocks) = (vec![Entry::default(); 3], vec![Entry::default(); 7]);
        let head = head_bytes(&header, (BOARDS, 0, Side::Yi), &[0, 0, 1, 2], &models, &blocks);
        assert_eq!(head_len(&header, 3, 7), head.len());
        // The boards a segment share the word of the boards a block.
        let blocks = vec![Entry::default(); *first_blocks(&header, BOARDS).last().unwrap()];
        for segment in [0, 16, SEGMENT, BOARDS] {
            let head = head_bytes(&header, (BOARDS, segment, Side::Yi), &[0; 4], &models, &blocks);
            let layout = Layout::parse(&head, &header).unwrap();
            assert_eq!((layout.boards, layout.segment, layout.stored), (BOARDS, segment, Side::Yi));
        }
        // The second copy of G changed: refused.
        let mut head = head_bytes(&header, (BOARDS, SEGMENT, Side::Yi), &[0; 4], &models, &blocks);
        head[header.len() + 6] ^= 1;
        let e = Layout::parse(&head, &header).unwrap_err();
        assert!(e.contains("segments of 64 and 65 boards"), "{e}");
        for segment in [8, 48, 2 * BOARDS] {
            let head = head_bytes(&header, (BOARDS, segment, Side::Yi), &[0; 4], &models, &blocks);
            let e = Layout::parse(&head, &header).unwrap_err();
            assert!(e.contains(&format!("segments of {segment} boards")), "{e}");
        }
    }

    #[test]
    fn a_standard_head_has_the_default_model_sets_or_one_and_the_side_expected() {
        // A file of more than ONE_SET nodes: sub-tables 1 and 3 have
        // their own sets, 0 and 2 share set 0.
        let header = Header {
            n: 12,
            rule: crate::moves::PassRule::Always,
            fixed: 0,
            encoding: crate::table::format::Encoding::Coded,
            nodes: vec![10, ONE_SET, 2 * OWN_SET - 2, 2 * OWN_SET],
        };
        let sub_model = model_sets(&header);
        assert_eq!(sub_model, [0, 1, 0, 2]);
        let layout = Layout {
            boards: BOARDS,
            segment: 0,
            stored: Side::Jia,
            sub_model,
            models: vec![Entry::default(); 3],
            table: 0,
            blocks: 0,
            data: 0,
        };
        assert!(layout.is_standard(&header, Side::Jia));
        assert!(!layout.is_standard(&header, Side::Yi));
        let swapped = Layout { sub_model: vec![0, 2, 0, 1], ..layout.clone() };
        assert!(!swapped.is_standard(&header, Side::Jia));
        let fewer = Layout { models: vec![Entry::default(); 2], ..layout.clone() };
        assert!(!fewer.is_standard(&header, Side::Jia));
        let partial = Layout {
            sub_model: vec![0, 1, 0, 0],
            models: vec![Entry::default(); 2],
            ..layout.clone()
        };
        assert!(!partial.is_standard(&header, Side::Jia));
        // One set for the whole file (`recode`), with one set's entry only.
        let zeros = Layout { sub_model: vec![0; 4], ..layout.clone() };
        assert!(!zeros.is_standard(&header, Side::Jia));
        let one_set = Layout { sub_model: vec![0; 4], models: vec![Entry::default()], ..layout };
        assert!(one_set.is_standard(&header, Side::Jia));
        assert!(!one_set.is_standard(&header, Side::Yi));
    }

    #[test]
    fn boards_pack_and_unpack() {
        let jia = DepthRecord {
            depth: 37,
            pass: Some(Score { value: Value::SelfLose, depth: 12 }),
            ban: Some((11, Score { value: Value::BothWin, depth: 40 })),
        };
        let b = BoardCode { values: [3, 200], jia };
        let mut bytes = [0u8; BOARD_BYTES];
        pack_board(&b, &mut bytes);
        assert_eq!(unpack_board(&bytes), Some(Stored { values: 3, record: jia }));
        bytes[5] = 0xff;
        assert_eq!(unpack_board(&bytes), None);
    }
}
