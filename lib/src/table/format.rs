//! The table file format (version 3). All integers little-endian.
//!
//! One file holds every stored signature with one set F of fixed pieces,
//! for one board size and pass rule: `n{N}-{rule}/f{F:04x}.cctb` (F as a
//! bit mask, bit p = piece p). Inside, one sub-table per set B of loose
//! pieces on the board (every subset of the pieces not in F, ordered by
//! [`sub_index`]), each holding one record per node (board rank × 2 +
//! side, 甲 = 0).
//!
//! Only the representatives of the symmetry are stored
//! ([`crate::symmetry`]): a file exists only for a canonical F, and a
//! sub-table whose signature (F, B) is not canonical (possible when a unit
//! maps F onto itself) has 0 nodes ([`sub_nodes`]). Version 2 stored every
//! signature.
//!
//! ```text
//! offset  size        field
//! 0       8           magic "CCLOCKTB"
//! 8       4           format version (3)
//! 12      1           N (slots)
//! 13      1           pass rule (0 always, 1 when-stuck)
//! 14      1           record encoding (1: scores with depths, 8 bytes;
//!                     2: values only, 1 byte;
//!                     3: values only, compressed: after the header the
//!                     layout of `packed.rs`;
//!                     4: values with depths, compressed: after the
//!                     header the layout of `coded.rs`)
//! 15      1           0
//! 16      2           F (fixed pieces)
//! 18      2           0
//! 20      4           S = number of sub-tables (2^(N - |F|))
//! 24      8           total nodes
//! 32      8 × S       nodes per sub-table
//! ...     L × R       payload: R records of L bytes (8 or 1)
//! ...     8 × ceil(LR / 65536)   checksum of each 64 KiB block of the payload
//! ...     8           checksum of everything above
//! ```
//!
//! A record (encoding 1) is four u16: best, second, pass (each a packed
//! [`Score`], 0xFFFF for none) and flags (bits 0..4 the walk of `best`,
//! bit 4 the game is over). See [`Summary`] for their meaning.

use crate::moves::PassRule;
use crate::score::Score;
use crate::summary::Summary;

/// File magic.
pub const MAGIC: [u8; 8] = *b"CCLOCKTB";
/// Format version.
pub const VERSION: u32 = 3;
/// How a file stores its records (byte 14 of the header).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Summaries with depths, `RECORD` bytes a node (code 1).
    Scores,
    /// Values only, 1 byte a node (code 2).
    Values,
    /// The records of [`Encoding::Values`] in compressed blocks (code 3;
    /// see `table/packed.rs` for the layout after the header).
    Packed,
    /// Values of every node and depths of 甲's nodes, range-coded in
    /// blocks (code 4; see `table/coded.rs` for the layout after the
    /// header).
    Coded,
}

impl Encoding {
    /// The byte in the header.
    pub const fn code(self) -> u8 {
        match self {
            Encoding::Scores => 1,
            Encoding::Values => 2,
            Encoding::Packed => 3,
            Encoding::Coded => 4,
        }
    }

    /// The encoding of a header byte, if it is one.
    pub const fn from_code(code: u8) -> Option<Encoding> {
        match code {
            1 => Some(Encoding::Scores),
            2 => Some(Encoding::Values),
            3 => Some(Encoding::Packed),
            4 => Some(Encoding::Coded),
            _ => None,
        }
    }

    /// What its records hold, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Scores => "values with depths",
            Encoding::Values => "values only",
            Encoding::Packed => "values only, compressed",
            Encoding::Coded => "values with depths, compressed",
        }
    }

    /// Whether its records hold depths.
    pub const fn has_depths(self) -> bool {
        matches!(self, Encoding::Scores | Encoding::Coded)
    }

    /// Bytes per record.
    pub const fn record_len(self) -> usize {
        if self.has_depths() { RECORD } else { 1 }
    }
}

/// Bytes per record of [`Encoding::Scores`].
pub const RECORD: usize = 8;

/// Payload bytes per checksummed block.
pub const BLOCK: usize = 1 << 16;
/// Size of the fixed part of the header.
pub const FIXED_HEADER: usize = 32;

/// A packed score slot that holds no score.
const NONE: u16 = u16::MAX;

/// The file name of the table of fixed set `fixed`.
pub fn file_name(fixed: u16) -> String {
    format!("f{fixed:04x}.cctb")
}

/// The directory (under the tables root) for `n` slots and `rule`.
pub fn dir_name(n: u8, rule: PassRule) -> String {
    format!("n{n}-{}", rule.name())
}

/// The pieces that are not fixed: the ones a loose set is drawn from.
pub fn free_pieces(n: u8, fixed: u16) -> u16 {
    (((1u32 << (n + 1)) - 2) as u16) & !fixed
}

/// The nodes a file stores for signature (`fixed`, `loose`) on `n` slots:
/// two per board if the signature is its orbit's representative, else
/// none.
pub fn sub_nodes(n: u8, fixed: u16, loose: u16) -> u64 {
    let sig = crate::signature::SigKey::new(fixed, loose);
    if crate::symmetry::is_stored(n, sig) {
        2 * crate::index::SigIndex::new(n, fixed, loose).boards()
    } else {
        0
    }
}

/// The position of loose set `loose` among the subsets of `free` (bit i of
/// the result is whether the i-th free piece is loose).
#[inline]
pub fn sub_index(free: u16, loose: u16) -> usize {
    let mut idx = 0;
    let mut bit = 0;
    let mut f = free;
    while f != 0 {
        let low = f & f.wrapping_neg();
        if loose & low != 0 {
            idx |= 1 << bit;
        }
        bit += 1;
        f &= f - 1;
    }
    idx
}

/// The loose set at position `idx` among the subsets of `free`.
pub fn sub_loose(free: u16, idx: usize) -> u16 {
    let mut loose = 0;
    let mut f = free;
    let mut bit = 0;
    while f != 0 {
        let low = f & f.wrapping_neg();
        if idx >> bit & 1 == 1 {
            loose |= low;
        }
        bit += 1;
        f &= f - 1;
    }
    loose
}

fn pack_score(s: Option<Score>) -> u16 {
    s.map_or(NONE, Score::pack)
}

/// Encodes a summary as a record of `encoding` into `out` (its length);
/// `None` if the summary has no record (not one the solver makes).
pub fn encode(s: &Summary, encoding: Encoding, rule: PassRule, out: &mut [u8]) -> Option<()> {
    if !encoding.has_depths() {
        out[0] = crate::table::values::encode(s, rule)?;
    } else {
        out.copy_from_slice(&encode_scores(s));
    }
    Some(())
}

/// Decodes a record of the file with `header`; `None` if it is not one
/// [`encode`] can produce for that file.
pub fn decode(rec: &[u8], header: &Header) -> Option<Summary> {
    if !header.encoding.has_depths() {
        crate::table::values::decode(rec[0], header.rule, header.n)
    } else {
        decode_scores(rec, header.n)
    }
}

/// Encodes a summary as a record of encoding 1.
pub fn encode_scores(s: &Summary) -> [u8; RECORD] {
    let flags = u16::from(s.best_walk) | u16::from(s.terminal) << 4;
    let mut out = [0u8; RECORD];
    for (i, w) in
        [pack_score(s.best), pack_score(s.second), pack_score(s.pass), flags].iter().enumerate()
    {
        out[2 * i..2 * i + 2].copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// Decodes a record of encoding 1; `None` if it is not one
/// [`encode_scores`] can produce for an `n`-slot board.
pub fn decode_scores(rec: &[u8], n: u8) -> Option<Summary> {
    let word = |i: usize| u16::from_le_bytes([rec[2 * i], rec[2 * i + 1]]);
    let score = |w: u16| {
        if w == NONE { Some(None) } else { Score::unpack(w).map(Some) }
    };
    let flags = word(3);
    let best_walk = (flags & 15) as u8;
    if flags >> 5 != 0 || best_walk > n {
        return None;
    }
    let s = Summary {
        best: score(word(0))?,
        second: score(word(1))?,
        pass: score(word(2))?,
        best_walk,
        terminal: flags >> 4 & 1 == 1,
    };
    // A node that goes on always has a move; an ended one has its end only.
    let sane = if s.terminal {
        s.best.is_some() && s.second.is_none() && s.pass.is_none()
    } else {
        s.best.is_some() || s.pass.is_some()
    };
    sane.then_some(s)
}

/// A 64-bit checksum of `bytes` (four multiply–rotate lanes over 8-byte
/// words, then the tail); not cryptographic, it catches damaged files.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut sum = Checksum::default();
    sum.update(bytes);
    sum.finish()
}

/// [`checksum`] of bytes given piece by piece: the same value as of all
/// of them at once, however they are cut (so a large file can be summed
/// as it is written or read).
#[derive(Debug, Clone)]
pub struct Checksum {
    lanes: [u64; 4],
    /// Bytes summed so far.
    len: u64,
    /// The bytes of an unfinished 32-byte chunk (`len % 32` of them).
    tail: [u8; 32],
}

impl Default for Checksum {
    fn default() -> Self {
        Checksum { lanes: [1, 2, 3, 4], len: 0, tail: [0; 32] }
    }
}

impl Checksum {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;

    /// Adds `bytes`.
    pub fn update(&mut self, mut bytes: &[u8]) {
        let held = (self.len % 32) as usize;
        self.len += bytes.len() as u64;
        if held > 0 {
            let take = bytes.len().min(32 - held);
            self.tail[held..held + take].copy_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if held + take < 32 {
                return;
            }
            let chunk = self.tail;
            self.chunk(&chunk);
        }
        let mut chunks = bytes.chunks_exact(32);
        for c in &mut chunks {
            self.chunk(c);
        }
        let rest = chunks.remainder();
        self.tail[..rest.len()].copy_from_slice(rest);
    }

    #[inline]
    fn chunk(&mut self, c: &[u8]) {
        for (i, lane) in self.lanes.iter_mut().enumerate() {
            let w = u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().expect("8 bytes"));
            *lane = (lane.rotate_left(23) ^ w).wrapping_mul(Self::K);
        }
    }

    /// The checksum of everything added.
    pub fn finish(&self) -> u64 {
        let mut h = self.len;
        for lane in self.lanes {
            h = (h.rotate_left(27) ^ lane).wrapping_mul(Self::K);
        }
        for &b in &self.tail[..(self.len % 32) as usize] {
            h = (h.rotate_left(8) ^ u64::from(b)).wrapping_mul(Self::K);
        }
        h ^ h >> 29
    }
}

/// The parsed fixed header and sub-table sizes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Slots.
    pub n: u8,
    /// Pass rule.
    pub rule: PassRule,
    /// Fixed pieces.
    pub fixed: u16,
    /// Record encoding ([`Encoding::Scores`] or [`Encoding::Values`]).
    pub encoding: Encoding,
    /// Nodes per sub-table.
    pub nodes: Vec<u64>,
}

impl Header {
    /// Total records.
    pub fn records(&self) -> u64 {
        self.nodes.iter().sum()
    }

    /// Bytes of the header (fixed part and sub-table sizes).
    pub fn len(&self) -> usize {
        FIXED_HEADER + 8 * self.nodes.len()
    }

    /// Whether there are no sub-tables (never, for a valid header).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Bytes per record.
    pub fn record_len(&self) -> usize {
        self.encoding.record_len()
    }

    /// Bytes of the payload.
    pub fn payload_len(&self) -> usize {
        self.records() as usize * self.record_len()
    }

    /// Number of checksummed payload blocks (encodings 1 and 2).
    pub fn blocks(&self) -> usize {
        self.payload_len().div_ceil(BLOCK)
    }

    /// The whole file's length (encodings 1 and 2).
    pub fn file_len(&self) -> usize {
        self.len() + self.payload_len() + 8 * self.blocks() + 8
    }

    /// The header bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(self.len());
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.push(self.n);
        b.push(u8::from(self.rule == PassRule::WhenStuck));
        b.push(self.encoding.code());
        b.push(0);
        b.extend_from_slice(&self.fixed.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&(self.nodes.len() as u32).to_le_bytes());
        b.extend_from_slice(&self.records().to_le_bytes());
        for &c in &self.nodes {
            b.extend_from_slice(&c.to_le_bytes());
        }
        b
    }

    /// Parses a header, checking every field that can be checked alone.
    ///
    /// # Errors
    /// A message naming the first field that is wrong.
    pub fn parse(bytes: &[u8]) -> Result<Header, String> {
        let get = |range: std::ops::Range<usize>| {
            bytes.get(range).ok_or_else(|| "file is shorter than its header".to_string())
        };
        let u16_at = |at: usize| get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
        let u32_at =
            |at: usize| get(at..at + 4).map(|b| u32::from_le_bytes(b.try_into().expect("4")));
        let u64_at =
            |at: usize| get(at..at + 8).map(|b| u64::from_le_bytes(b.try_into().expect("8")));
        if get(0..8)? != MAGIC {
            return Err("not a chaosclock table (bad magic)".into());
        }
        let version = u32_at(8)?;
        if version != VERSION {
            return Err(format!("format version {version}, this program reads {VERSION}"));
        }
        let fields = get(12..16)?;
        let (n, rule, encoding) = (fields[0], fields[1], fields[2]);
        if !crate::position::SUPPORTED_SLOTS.contains(&n) {
            return Err(format!("header says {n} slots"));
        }
        let rule = match rule {
            0 => PassRule::Always,
            1 => PassRule::WhenStuck,
            r => return Err(format!("unknown pass rule {r}")),
        };
        let Some(encoding) = Encoding::from_code(encoding) else {
            return Err(format!("unknown record encoding {encoding}"));
        };
        if fields[3] != 0 || u16_at(18)? != 0 {
            return Err("reserved header bytes are not 0".into());
        }
        let fixed = u16_at(16)?;
        if fixed & !free_pieces(n, 0) != 0 {
            return Err(format!("fixed set {fixed:#x} has pieces above {n}"));
        }
        if crate::symmetry::canonical_fixed(n, fixed).1 != fixed {
            return Err(format!("fixed set {fixed:#x} is not one the tables store"));
        }
        let subs = u32_at(20)? as usize;
        let expected = 1usize << (n as u32 - fixed.count_ones());
        if subs != expected {
            return Err(format!("{subs} sub-tables, expected {expected}"));
        }
        let total = u64_at(24)?;
        let nodes =
            (0..subs).map(|i| u64_at(FIXED_HEADER + 8 * i)).collect::<Result<Vec<_>, _>>()?;
        // Checked: the sizes are any 64-bit numbers here.
        if nodes.iter().try_fold(0u64, |sum, &k| sum.checked_add(k)) != Some(total) {
            return Err("sub-table sizes do not add up to the total".into());
        }
        Ok(Header { n, rule, fixed, encoding, nodes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    #[test]
    fn records_round_trip_and_reject_garbage() {
        let mut s = Summary::default();
        s.offer(Score { value: Value::SelfWin, depth: 5 }, 7);
        s.offer(Score { value: Value::BothLose, depth: 2 }, 0);
        s.pass = Some(Score { value: Value::SelfLose, depth: 9 });
        assert_eq!(decode_scores(&encode_scores(&s), 12), Some(s));
        let end = Summary::ended(Score::terminal(Value::BothWin));
        assert_eq!(decode_scores(&encode_scores(&end), 4), Some(end));
        assert_eq!(decode_scores(&[0xff; 8], 12), None);
        assert!(decode_scores(&[0; 8], 12).is_some());
        assert_eq!(decode_scores(&encode_scores(&s), 6), None, "walk 7 on 6 slots");
    }

    /// The checksum as first written, all bytes at once: every file
    /// written so far carries it, so [`Checksum`] must give the same.
    fn checksum_at_once(bytes: &[u8]) -> u64 {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut lanes = [1u64, 2, 3, 4];
        let mut chunks = bytes.chunks_exact(32);
        for c in &mut chunks {
            for (i, lane) in lanes.iter_mut().enumerate() {
                let w = u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().unwrap());
                *lane = (lane.rotate_left(23) ^ w).wrapping_mul(K);
            }
        }
        let mut h = bytes.len() as u64;
        for lane in lanes {
            h = (h.rotate_left(27) ^ lane).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(8) ^ u64::from(b)).wrapping_mul(K);
        }
        h ^ h >> 29
    }

    #[test]
    fn checksum_is_the_same_however_the_bytes_are_cut() {
        let mut rng = crate::random::Rng::new(5);
        for len in (0..200).chain([1000, 4099]) {
            let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
            let want = checksum_at_once(&bytes);
            assert_eq!(checksum(&bytes), want, "length {len}");
            for _ in 0..20 {
                let mut sum = Checksum::default();
                let mut rest = &bytes[..];
                while !rest.is_empty() {
                    let take = rng.below(rest.len() as u64 + 1) as usize;
                    sum.update(&rest[..take]);
                    rest = &rest[take..];
                }
                assert_eq!(sum.finish(), want, "length {len}, cut");
            }
        }
    }

    #[test]
    fn sub_index_round_trips() {
        let free = free_pieces(8, 0b1010_0100);
        for idx in 0..1 << free.count_ones() {
            assert_eq!(sub_index(free, sub_loose(free, idx)), idx);
        }
    }

    #[test]
    fn header_round_trips_and_checks() {
        let h = Header {
            n: 4,
            rule: PassRule::WhenStuck,
            fixed: 0b100,
            encoding: Encoding::Values,
            nodes: vec![2, 4, 6, 8, 1, 1, 1, 1],
        };
        let b = h.to_bytes();
        assert_eq!(Header::parse(&b), Ok(h.clone()));
        let mut bad = b.clone();
        bad[0] = b'X';
        assert!(Header::parse(&bad).is_err());
        assert!(Header::parse(&b[..20]).is_err());
        let mut bad = b.clone();
        bad[12] = 5;
        assert!(Header::parse(&bad).is_err());
        for reserved in [15, 18, 19] {
            let mut bad = b.clone();
            bad[reserved] = 1;
            assert_eq!(Header::parse(&bad), Err("reserved header bytes are not 0".into()));
        }
        // Sizes whose sum does not fit 64 bits are an error, not an overflow.
        let mut bad = b.clone();
        bad[32..40].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(Header::parse(&bad).is_err());
        assert_ne!(checksum(&b), checksum(&bad));
    }
}
