//! The bytes of the openings book (docs/book.md): a header that lists the
//! sections, each section's model and blocks, and the checksums that are
//! checked before anything is decoded.
//!
//! ```text
//! offset  bytes        field (little-endian)
//! 0       8            magic "CCLKBOOK"
//! 8       4            version (1)
//! 12      4            sections S
//! 16      88 × S       one entry per section:
//!           1  slots N          1  pass rule (0 always, 1 when-stuck)
//!           2  reserved (0)     4  ranks per block R
//!           8  openings D(N)    8  representatives stored
//!          40  openings per value code 0..=4 (u64 each)
//!           8  offset of the section's body   8  its length
//!           8  checksum of the body
//! 16+88S  8            checksum of everything above
//! body:   2 × CONTEXTS × QUESTIONS   probabilities (u16)
//!         4 × (B + 1)                offsets of the blocks in the data,
//!                                    from 0 up to the data's length
//!                                    (B = ceil(D / R))
//!         ...                        the data: block b codes the values of
//!                                    the representatives of ranks
//!                                    bR..(b+1)R, in rank order
//! ```

use std::ops::Range;

use crate::PassRule;
use crate::book::model::{CONTEXTS, Probabilities, QUESTIONS};
use crate::book::ranks::Ranks;
use crate::position::SUPPORTED_SLOTS;
use crate::table::format::checksum;

/// Ranks per block: a lookup decodes at most this many openings' worth of
/// one block.
pub const BLOCK_RANKS: u32 = 4096;

/// The first bytes of a book.
pub const MAGIC: [u8; 8] = *b"CCLKBOOK";
/// The version this code reads and writes.
pub const VERSION: u32 = 1;
/// Bytes of a section's entry in the header.
const ENTRY: usize = 88;
/// Bytes before the first entry.
const START: usize = 16;

/// A section's entry in the header.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Entry {
    /// Board size.
    pub slots: u8,
    /// Pass rule.
    pub rule: PassRule,
    /// Ranks per block.
    pub block_ranks: u32,
    /// Openings of the size.
    pub openings: u64,
    /// Representatives stored (openings coded).
    pub representatives: u64,
    /// Openings per value code.
    pub counts: [u64; 5],
}

/// A section as found in the bytes: its entry and where its parts are.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The header's entry.
    pub entry: Entry,
    /// The probabilities.
    pub probs: Probabilities,
    /// The block offsets, relative to `data`.
    pub offsets: Vec<u32>,
    /// The data, in the book's bytes.
    pub data: Range<usize>,
}

/// The code of a pass rule in the header.
fn rule_code(rule: PassRule) -> u8 {
    match rule {
        PassRule::Always => 0,
        PassRule::WhenStuck => 1,
    }
}

/// Reads a little-endian integer of `N` bytes at `at` (checked before).
fn le<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    bytes[at..at + N].try_into().expect("a range checked before")
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(le(bytes, at))
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(le(bytes, at))
}

/// Number of blocks of `openings` ranks, `block_ranks` a block.
pub fn blocks(openings: u64, block_ranks: u32) -> usize {
    openings.div_ceil(u64::from(block_ranks)) as usize
}

/// Checks `bytes` and finds its sections; the error says what is wrong.
///
/// # Errors
/// Any field out of range, a checksum that differs, or a length that does
/// not add up.
pub fn parse(bytes: &[u8]) -> Result<Vec<Layout>, String> {
    if bytes.len() < START + 8 {
        return Err(format!("{} bytes, too short for a book", bytes.len()));
    }
    if le::<8>(bytes, 0) != MAGIC {
        return Err("not an openings book (wrong magic)".into());
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(format!("version {version}, this build reads version {VERSION}"));
    }
    let sections = u32_at(bytes, 12) as usize;
    let header = START + ENTRY * sections;
    if sections > 16 || bytes.len() < header + 8 {
        return Err(format!("{sections} sections do not fit in {} bytes", bytes.len()));
    }
    if checksum(&bytes[..header]) != u64_at(bytes, header) {
        return Err("the header's checksum differs".into());
    }
    let mut out: Vec<Layout> = Vec::with_capacity(sections);
    for i in 0..sections {
        let layout = section(bytes, START + ENTRY * i).map_err(|e| format!("section {i}: {e}"))?;
        let e = &layout.entry;
        if out.iter().any(|o| o.entry.slots == e.slots && o.entry.rule == e.rule) {
            return Err(format!("two sections for {} slots, pass rule {}", e.slots, e.rule.name()));
        }
        out.push(layout);
    }
    Ok(out)
}

/// Checks and reads the section whose entry starts at `at`.
fn section(bytes: &[u8], at: usize) -> Result<Layout, String> {
    let slots = bytes[at];
    if !SUPPORTED_SLOTS.contains(&slots) {
        return Err(format!("{slots} slots"));
    }
    let rule = match bytes[at + 1] {
        0 => PassRule::Always,
        1 => PassRule::WhenStuck,
        r => return Err(format!("pass rule code {r}")),
    };
    let block_ranks = u32_at(bytes, at + 4);
    let openings = u64_at(bytes, at + 8);
    let representatives = u64_at(bytes, at + 16);
    let counts: [u64; 5] = std::array::from_fn(|c| u64_at(bytes, at + 24 + 8 * c));
    let (offset, len, sum) =
        (u64_at(bytes, at + 64), u64_at(bytes, at + 72), u64_at(bytes, at + 80));
    if block_ranks == 0 {
        return Err("0 ranks per block".into());
    }
    if openings != Ranks::new(slots).count() {
        return Err(format!(
            "{openings} openings, {slots} slots have {}",
            Ranks::new(slots).count()
        ));
    }
    if counts.iter().sum::<u64>() != openings || representatives > openings {
        return Err("the counts per value do not add up to the openings".into());
    }
    let end = offset.checked_add(len).filter(|&e| e <= bytes.len() as u64);
    let Some(end) = end else {
        return Err(format!("the body ({len} bytes at {offset}) lies past the end"));
    };
    let body = &bytes[offset as usize..end as usize];
    if checksum(body) != sum {
        return Err(format!("the checksum of the {slots}-slot body differs"));
    }
    let n_probs = CONTEXTS * QUESTIONS;
    let n_blocks = blocks(openings, block_ranks);
    let head = 2 * n_probs + 4 * (n_blocks + 1);
    if body.len() < head {
        return Err(format!("a body of {} bytes, its tables need {head}", body.len()));
    }
    let probs = Probabilities((0..n_probs).map(|i| u16::from_le_bytes(le(body, 2 * i))).collect());
    if !probs.is_valid() {
        return Err("a probability out of range".into());
    }
    let offsets: Vec<u32> = (0..=n_blocks).map(|b| u32_at(body, 2 * n_probs + 4 * b)).collect();
    let data_len = body.len() - head;
    if offsets[0] != 0
        || offsets.windows(2).any(|w| w[0] > w[1])
        || offsets[n_blocks] as usize != data_len
    {
        return Err("the block offsets are not in order up to the data's length".into());
    }
    let start = offset as usize + head;
    Ok(Layout {
        entry: Entry { slots, rule, block_ranks, openings, representatives, counts },
        probs,
        offsets,
        data: start..start + data_len,
    })
}

/// A section ready to be written: its entry and its body's parts.
#[derive(Debug, Clone)]
pub struct Built {
    /// The header's entry.
    pub entry: Entry,
    /// The probabilities.
    pub(crate) probs: Probabilities,
    /// The coded blocks, in order.
    pub blocks: Vec<Vec<u8>>,
}

/// The bytes of a book holding `sections`, in the order given.
pub fn write(sections: &[Built]) -> Vec<u8> {
    let header = START + ENTRY * sections.len();
    let bodies: Vec<Vec<u8>> = sections.iter().map(body).collect();
    let mut out = Vec::new();
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(sections.len() as u32).to_le_bytes());
    let mut offset = (header + 8) as u64;
    for (s, b) in sections.iter().zip(&bodies) {
        let e = &s.entry;
        out.push(e.slots);
        out.push(rule_code(e.rule));
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&e.block_ranks.to_le_bytes());
        out.extend_from_slice(&e.openings.to_le_bytes());
        out.extend_from_slice(&e.representatives.to_le_bytes());
        e.counts.iter().for_each(|c| out.extend_from_slice(&c.to_le_bytes()));
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&(b.len() as u64).to_le_bytes());
        out.extend_from_slice(&checksum(b).to_le_bytes());
        offset += b.len() as u64;
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    bodies.iter().for_each(|b| out.extend_from_slice(b));
    out
}

/// A section's body: probabilities, block offsets, data.
fn body(s: &Built) -> Vec<u8> {
    let mut out = Vec::new();
    s.probs.0.iter().for_each(|p| out.extend_from_slice(&p.to_le_bytes()));
    let mut at = 0u32;
    out.extend_from_slice(&at.to_le_bytes());
    for b in &s.blocks {
        at += u32::try_from(b.len()).expect("a block under 4 GiB");
        out.extend_from_slice(&at.to_le_bytes());
    }
    s.blocks.iter().for_each(|b| out.extend_from_slice(b));
    out
}
