//! The block coder of encoding 4, "values with depths, compressed"
//! (docs/depths.md, "The coder"): the values bytes of every node of a
//! block and the depth record [`DepthRecord`] (T) of its 甲 nodes, coded
//! by [`super::rans`] with static models per file ([`Models`]): the
//! blocks of encoding 4 (`coded.rs`), which the converter
//! (`convert.rs`) and `generate` write.
//!
//! A block is a run of boards of one sub-table (4,096 nodes, 2,048 boards
//! but the last of a sub-table; node `2 × rank + side` as in
//! [`crate::table::node_number`]). Its bytes:
//!
//! ```text
//! varint   length of the values stream
//! ...      values stream (rANS): per board, 甲's values byte, then 乙's
//! ...      depth stream (rANS): per board, 甲's d - p, then 甲's rest
//! ```
//!
//! The symbols and their contexts (the keys of the three models):
//!
//! - values byte `v` given the previous values byte of the same side in
//!   the block (256 for the first) and, for 乙, 甲's byte on the board:
//!   key `side | previous << 1 | (乙: 甲's byte) << 10`;
//! - the depth `d` of `last` none of 甲's node as `d - p + 255`, where `p`
//!   is the depth of the last 甲 node of the block with the same values
//!   byte, or for the first such node the escape `511 + d`; key
//!   `v | 乙's v << 8`;
//! - the rest of T (pass and ban parts, [`DepthRecord::rest`]), key
//!   `v | min(d, 63) << 8`.
//!
//! Invariants: depths are at most [`MAX_DEPTH`] (a byte; 37 is the longest
//! at 10 slots, about 50 expected at 12); a banned walk is a piece
//! `1..=12`. A block decodes on its own from its bytes, the number of its
//! boards and the models. Decoding checks every symbol (a context the model
//! lacks, a delta where an escape must be or the reverse, a depth or walk
//! out of range) and that both streams end exactly, in rANS's initial
//! state; anything else is an error, never a panic. These checks are not
//! a checksum: the rANS decoder resynchronizes after a changed symbol, so
//! about 3% of single bit flips decode to other boards (measured in the
//! tests); the block checksum of the file's block table catches those.

use crate::moves::PassRule;
use crate::position::{Last, Position};
use crate::score::Score;
use crate::summary::Summary;
use crate::table::rans::{Counts, Decoder, Encoder, Model, get_varint, put_varint};
use crate::value::Value;

/// The largest depth a block holds.
pub const MAX_DEPTH: u16 = 255;

/// The largest piece a banned walk can be.
const MAX_WALK: u8 = 12;

/// The escape base of the depth symbol (no earlier node with the same
/// values byte).
const ESCAPE: u32 = 2 * MAX_DEPTH as u32 + 1;

/// The depth record T of a node (docs/depths.md, "Terms"): with the values
/// byte, the score of every consistent state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DepthRecord {
    /// The depth of `last` none.
    pub depth: u16,
    /// The score of `last` pass, where it differs from that of none.
    pub pass: Option<Score>,
    /// The node's only best walk and the score after banning it, where
    /// that `last` is consistent and the score differs from that of none.
    pub ban: Option<(u8, Score)>,
}

impl DepthRecord {
    /// The record of a node scored by `s` whose consistent walked pieces
    /// are `consistent` (bit p: piece p, [`consistent_walks`]); `None` if
    /// a depth is over [`MAX_DEPTH`].
    pub fn of(s: &Summary, consistent: u16, rule: PassRule) -> Option<DepthRecord> {
        let none = s.score(Last::None, rule);
        let pass = s.score(Last::Pass, rule);
        let pass = (!s.terminal && pass != none).then_some(pass);
        let walk = s.best_walk;
        let ban = (!s.terminal && walk != 0 && consistent & 1 << walk != 0)
            .then(|| (walk, s.score(Last::Piece(walk), rule)))
            .filter(|&(_, b)| b != none);
        let r = DepthRecord { depth: none.depth, pass, ban };
        r.check().ok().map(|()| r)
    }

    /// The score of the state with this `last` of a node whose value of
    /// `last` none is `value` (from its values byte), where `last` is
    /// consistent with the board (as [`DepthRecord::of`] was given).
    pub fn score(&self, value: Value, last: Last) -> Score {
        let none = Score { value, depth: self.depth };
        match (last, self.ban) {
            (Last::Pass, _) => self.pass.unwrap_or(none),
            (Last::Piece(p), Some((w, s))) if p == w => s,
            _ => none,
        }
    }

    /// A [`Summary`] that gives, for every consistent `last`, the score
    /// this record and the values byte `code` give (a summary the rest of
    /// the program reads as it reads a stored one); `None` if `code` is
    /// not a values byte of `rule` and `n` slots or no summary gives them.
    ///
    /// The summary is one of a few made of the scores of `last` none, pass
    /// and the ban, the double pass and none: one of them always fits
    /// (docs/depths.md, "Reading"), and the first that fits is taken.
    pub fn summary(&self, code: u8, rule: PassRule, n: u8) -> Option<Summary> {
        let base = crate::table::values::decode(code, rule, n)?;
        let value = base.score(Last::None, rule).value;
        // The values byte of a node whose `last` none and pass have the
        // same value reads as an ended game; with depths only a depth 0
        // (an end, or no result) and no other score make one.
        if base.terminal && self.depth == 0 && self.pass.is_none() && self.ban.is_none() {
            return Some(Summary::ended(Score { value, depth: 0 }));
        }
        let none = self.score(value, Last::None);
        let pass = self.score(value, Last::Pass);
        let simple = Summary { best: Some(none), second: Some(none), ..Summary::default() };
        if self.pass.is_none() && self.ban.is_none() && simple.score(Last::Pass, rule) == pass {
            return Some(simple);
        }
        let (walk, ban) = self.ban.map_or((0, none), |(w, s)| (w, s));
        let fits = |s: &Summary| {
            s.score(Last::None, rule) == none
                && s.score(Last::Pass, rule) == pass
                && (walk == 0 || s.score(Last::Piece(walk), rule) == ban)
        };
        let scores = [Some(none), Some(pass), Some(ban), Some(crate::summary::DOUBLE_PASS), None];
        for best in scores {
            for pass_score in scores {
                if best.is_none() && pass_score.is_none() {
                    continue; // no move at all: not a node that goes on
                }
                for second in scores {
                    let s = Summary {
                        best,
                        second,
                        pass: pass_score,
                        best_walk: walk,
                        terminal: false,
                    };
                    if fits(&s) {
                        return Some(s);
                    }
                }
            }
        }
        None
    }

    /// Whether the depths and the walk are in range (module docs).
    fn check(&self) -> Result<(), String> {
        let deep = |s: Score| s.depth > MAX_DEPTH;
        if self.depth > MAX_DEPTH || self.pass.is_some_and(deep) {
            return Err(format!("a depth over {MAX_DEPTH} in {self:?}"));
        }
        match self.ban {
            Some((w, s)) if w == 0 || w > MAX_WALK || deep(s) => {
                Err(format!("a ban out of range in {self:?}"))
            }
            _ => Ok(()),
        }
    }

    /// The rest of T as one symbol: the pass part (13 bits: flag, value
    /// code, depth - d + 256) and above it the ban part (17 bits: flag,
    /// value code, depth - d + 256, walk).
    pub(crate) fn rest(&self) -> u32 {
        let part = |s: Score| {
            1 | u32::from(s.value.code()) << 1
                | (u32::from(s.depth) + 256 - u32::from(self.depth)) << 4
        };
        let pass = self.pass.map_or(0, part);
        let ban = self.ban.map_or(0, |(w, s)| part(s) | u32::from(w) << 13);
        pass | ban << 13
    }

    /// The record of depth `depth` whose rest is `rest`.
    #[inline(always)]
    pub(crate) fn from_rest(depth: u16, rest: u32) -> Result<DepthRecord, String> {
        if rest == 0 {
            // The most frequent: no pass part, no ban part.
            return Ok(DepthRecord { depth, pass: None, ban: None });
        }
        DepthRecord::from_parts(depth, rest).ok_or_else(|| bad_rest(depth, rest))
    }

    /// [`DepthRecord::from_rest`] of a rest other than 0, `None` if it
    /// is out of range; no `String` in the way of inlining.
    #[inline(always)]
    fn from_parts(depth: u16, rest: u32) -> Option<DepthRecord> {
        let part = |bits: u32| -> Option<Option<Score>> {
            if bits & 1 == 0 {
                return (bits == 0).then_some(None);
            }
            let value = Value::from_code((bits >> 1 & 7) as u8)?;
            let d = (u32::from(depth) + (bits >> 4 & 511)).checked_sub(256)?;
            (d <= u32::from(MAX_DEPTH)).then_some(Some(Score { value, depth: d as u16 }))
        };
        if rest >> 30 != 0 {
            return None;
        }
        let pass = part(rest & 0x1fff)?;
        let ban_bits = rest >> 13;
        let walk = (ban_bits >> 13) as u8;
        let ban = part(ban_bits & 0x1fff)?.map(|s| (walk, s));
        if ban.is_none() && walk != 0 || ban.is_some() && (walk == 0 || walk > MAX_WALK) {
            return None;
        }
        Some(DepthRecord { depth, pass, ban })
    }
}

/// The error of a rest symbol out of range.
#[cold]
fn bad_rest(depth: u16, rest: u32) -> String {
    format!("rest symbol {rest:#x} of depth {depth}")
}

/// The pieces whose walk may have been the last ply on `pos`'s board (bit
/// p: piece p): the loose pieces `loose` (but the piece of the last slot)
/// whose walk started on an empty slot, as the generator's states.
pub fn consistent_walks(pos: &Position, loose: &[u8]) -> u16 {
    let n = pos.slots();
    let mut mask = 0;
    for &p in loose {
        if let Some(slot) = pos.slot_of(p)
            && p != n
            && pos.piece_at(crate::walk_origin(n, slot, p)).is_none()
        {
            mask |= 1 << p;
        }
    }
    mask
}

/// One board of a block: the values bytes of its two nodes (甲's first)
/// and the depth record of 甲's node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BoardCode {
    /// The values bytes (`table/values.rs`), by side index.
    pub values: [u8; 2],
    /// T of 甲's node.
    pub jia: DepthRecord,
}

/// The three models of a file (or of a large sub-table).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Models {
    /// Values bytes.
    pub values: Model,
    /// Depths of `last` none, as differences.
    pub delta: Model,
    /// The rest of T.
    pub rest: Model,
}

/// Counts of the symbols of blocks, for [`Models::new`].
#[derive(Debug, Default, Clone)]
pub struct ModelCounts {
    /// Values bytes.
    pub values: Counts,
    /// Depths of `last` none.
    pub delta: Counts,
    /// The rest of T.
    pub rest: Counts,
}

impl ModelCounts {
    /// Counts the symbols of the block `boards`.
    ///
    /// # Errors
    /// A record out of range ([`DepthRecord`]).
    pub fn add_block(&mut self, boards: &[BoardCode]) -> Result<(), String> {
        symbols(boards, |part, key, symbol| {
            match part {
                Part::Values => &mut self.values,
                Part::Delta => &mut self.delta,
                Part::Rest => &mut self.rest,
            }
            .add(key, symbol);
        })
    }

    /// Adds the counts of `other`.
    pub fn merge(&mut self, other: ModelCounts) {
        self.values.merge(other.values);
        self.delta.merge(other.delta);
        self.rest.merge(other.rest);
    }
}

impl Models {
    /// The bytes of memory the models hold.
    pub fn heap_bytes(&self) -> usize {
        self.values.heap_bytes() + self.delta.heap_bytes() + self.rest.heap_bytes()
    }

    /// The models of `counts` ([`Model::new`]).
    ///
    /// # Errors
    /// A context with too many symbols (not possible for counts of blocks).
    pub fn new(counts: &ModelCounts) -> Result<Models, String> {
        Ok(Models {
            values: Model::new(&counts.values)?,
            delta: Model::new(&counts.delta)?,
            rest: Model::new(&counts.rest)?,
        })
    }

    /// The three models' bytes, one after the other, each with its
    /// checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.values.to_bytes();
        out.extend(self.delta.to_bytes());
        out.extend(self.rest.to_bytes());
        out
    }

    /// The models of `bytes` ([`Models::to_bytes`]).
    ///
    /// # Errors
    /// A model that does not read, or bytes left over.
    pub fn from_bytes(mut bytes: &[u8]) -> Result<Models, String> {
        let models = Models {
            values: Model::read(&mut bytes)?,
            delta: Model::read(&mut bytes)?,
            rest: Model::read(&mut bytes)?,
        };
        if !bytes.is_empty() {
            return Err(format!("{} bytes after the models", bytes.len()));
        }
        Ok(models)
    }
}

/// Which model a symbol belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    Values,
    Delta,
    Rest,
}

/// The context of a values byte: `side` (0 甲, 1 乙), the previous byte
/// of the side in the block (`None` for the first) and, for 乙, 甲's byte.
#[inline]
pub(crate) fn values_key(side: u32, previous: Option<u8>, jia: u8) -> u32 {
    let previous = previous.map_or(256, u32::from);
    side | previous << 1 | if side == 1 { u32::from(jia) << 10 } else { 0 }
}

#[inline]
pub(crate) fn delta_key(values: [u8; 2]) -> u32 {
    u32::from(values[0]) | u32::from(values[1]) << 8
}

#[inline]
pub(crate) fn rest_key(value: u8, depth: u16) -> u32 {
    u32::from(value) | u32::from(depth.min(63)) << 8
}

/// Calls `f(part, key, symbol)` for every symbol of the block, board by
/// board: 甲's values byte, 乙's, 甲's depth symbol, 甲's rest (a block's
/// two streams take them in this order, each its own; a segment's one
/// stream all of them, `table/segment.rs`).
pub(crate) fn symbols(
    boards: &[BoardCode],
    mut f: impl FnMut(Part, u32, u32),
) -> Result<(), String> {
    let mut previous = [None::<u8>; 2];
    let mut last = [None::<u16>; 256];
    for b in boards {
        for (side, prev) in previous.iter_mut().enumerate() {
            let v = b.values[side];
            f(Part::Values, values_key(side as u32, *prev, b.values[0]), v.into());
            *prev = Some(v);
        }
        let r = &b.jia;
        r.check()?;
        let v = b.values[0];
        let symbol = match last[usize::from(v)] {
            Some(p) => u32::from(r.depth) + u32::from(MAX_DEPTH) - u32::from(p),
            None => ESCAPE + u32::from(r.depth),
        };
        f(Part::Delta, delta_key(b.values), symbol);
        f(Part::Rest, rest_key(v, r.depth), r.rest());
        last[usize::from(v)] = Some(r.depth);
    }
    Ok(())
}

/// The depth that the depth symbol `symbol` gives after `last`, the depth
/// of the last node with the same values byte before it (if any).
#[inline]
pub(crate) fn depth_of(symbol: u32, last: Option<u16>) -> Result<u16, String> {
    match last {
        Some(p) if symbol < ESCAPE => (u32::from(p) + symbol).checked_sub(MAX_DEPTH.into()),
        None if symbol >= ESCAPE => Some(symbol - ESCAPE),
        _ => None,
    }
    .filter(|&d| d <= u32::from(MAX_DEPTH))
    .map(|d| d as u16)
    .ok_or_else(|| format!("depth symbol {symbol} after {last:?}"))
}

/// The bytes of the block `boards` (module docs).
///
/// # Errors
/// A record out of range, or a symbol `models` lack (models made from
/// other blocks).
pub fn encode_block(boards: &[BoardCode], models: &Models) -> Result<Vec<u8>, String> {
    let mut slots = [Vec::new(), Vec::new()];
    let mut missing = None;
    symbols(boards, |part, key, symbol| {
        let (model, stream) = match part {
            Part::Values => (&models.values, 0),
            Part::Delta => (&models.delta, 1),
            Part::Rest => (&models.rest, 1),
        };
        match model.slot(key, symbol) {
            Some(slot) => slots[stream].push(slot),
            None => missing = Some((part, key, symbol)),
        }
    })?;
    if let Some((part, key, symbol)) = missing {
        return Err(format!("symbol {symbol} of context {key:#x} is not in the {part:?} model"));
    }
    let streams = slots.map(|s| {
        let mut enc = Encoder::new();
        for &slot in s.iter().rev() {
            enc.put(slot);
        }
        enc.finish()
    });
    let mut out = Vec::with_capacity(5 + streams[0].len() + streams[1].len());
    put_varint(&mut out, streams[0].len() as u64);
    out.extend_from_slice(&streams[0]);
    out.extend_from_slice(&streams[1]);
    Ok(out)
}

/// The two streams of a block.
fn split(bytes: &[u8]) -> Result<(&[u8], &[u8]), String> {
    let mut at = 0;
    let len = get_varint(bytes, &mut at).ok_or("block: no length of the values stream")?;
    let end = usize::try_from(len)
        .ok()
        .and_then(|l| at.checked_add(l))
        .filter(|&e| e <= bytes.len())
        .ok_or_else(|| format!("block: values stream of {len} bytes in {}", bytes.len()))?;
    Ok((&bytes[at..end], &bytes[end..]))
}

/// Decodes the values bytes of the first `upto` of the `boards` boards of
/// the block `bytes` into `out` (two a board, 甲's first): all a query of
/// values needs. The end of the values stream is checked only when `upto`
/// is `boards`: the block's checksum must have been checked before.
///
/// # Errors
/// Bytes that are not such a block (module docs), as far as decoded.
pub fn decode_values(
    bytes: &[u8],
    boards: usize,
    upto: usize,
    models: &Models,
    out: &mut Vec<[u8; 2]>,
) -> Result<(), String> {
    let (values, _) = split(bytes)?;
    decode_values_prefix(values, boards, upto, models, out)
}

/// The values bytes of the first `upto` of the `boards` boards of the
/// values stream `stream`; the stream's end is checked only when `upto`
/// is `boards`.
fn decode_values_prefix(
    stream: &[u8],
    boards: usize,
    upto: usize,
    models: &Models,
    out: &mut Vec<[u8; 2]>,
) -> Result<(), String> {
    out.clear();
    out.reserve(upto);
    let mut dec = Decoder::new(stream);
    let mut previous = [None::<u8>; 2];
    for _ in 0..upto {
        let jia = models.values.decode(values_key(0, previous[0], 0), &mut dec)?;
        let jia = u8::try_from(jia).map_err(|_| format!("values byte {jia}"))?;
        let yi = models.values.decode(values_key(1, previous[1], jia), &mut dec)?;
        let yi = u8::try_from(yi).map_err(|_| format!("values byte {yi}"))?;
        previous = [Some(jia), Some(yi)];
        out.push([jia, yi]);
    }
    if upto < boards {
        return Ok(());
    }
    dec.finish().map_err(|e| format!("values {e}"))
}

/// Decodes the block `bytes` of `boards` boards into `out`.
///
/// # Errors
/// Bytes that are not such a block (module docs).
pub fn decode_block(
    bytes: &[u8],
    boards: usize,
    models: &Models,
    out: &mut Vec<BoardCode>,
) -> Result<(), String> {
    decode_block_prefix(bytes, boards, boards, models, out)
}

/// Decodes the first `upto` of the `boards` boards of the block `bytes`
/// into `out`; the ends of the streams (and so the whole block's
/// soundness) are checked only when `upto` is `boards`: the block's
/// checksum must have been checked before.
///
/// # Errors
/// Bytes that are not such a block (module docs), as far as decoded.
pub fn decode_block_prefix(
    bytes: &[u8],
    boards: usize,
    upto: usize,
    models: &Models,
    out: &mut Vec<BoardCode>,
) -> Result<(), String> {
    let (values, depths) = split(bytes)?;
    let mut pairs = Vec::new();
    decode_values_prefix(values, boards, upto, models, &mut pairs)?;
    out.clear();
    out.reserve(upto);
    let mut dec = Decoder::new(depths);
    let mut last = [None::<u16>; 256];
    for &pair in &pairs {
        let v = pair[0];
        let symbol = models.delta.decode(delta_key(pair), &mut dec)?;
        let depth = depth_of(symbol, last[usize::from(v)])?;
        let rest = models.rest.decode(rest_key(v, depth), &mut dec)?;
        out.push(BoardCode { values: pair, jia: DepthRecord::from_rest(depth, rest)? });
        last[usize::from(v)] = Some(depth);
    }
    if upto < boards {
        return Ok(());
    }
    dec.finish().map_err(|e| format!("depths {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;
    use crate::table::format::checksum;

    fn score(rng: &mut Rng, max: u64) -> Score {
        let value = Value::ALL[rng.below(5) as usize];
        Score { value, depth: rng.below(max + 1) as u16 }
    }

    /// Random boards: values bytes from a few, depths near each other
    /// (as in a table) or anywhere up to `max`.
    fn random_boards(rng: &mut Rng, boards: usize, max: u64) -> Vec<BoardCode> {
        (0..boards)
            .map(|_| {
                let values = [rng.below(12) as u8 * 20, rng.below(250) as u8];
                let depth = rng.below(max + 1) as u16;
                let pass = (rng.below(3) == 0).then(|| score(rng, max));
                let ban = (rng.below(4) == 0).then(|| (1 + rng.below(12) as u8, score(rng, max)));
                BoardCode { values, jia: DepthRecord { depth, pass, ban } }
            })
            .collect()
    }

    fn models_of(blocks: &[&[BoardCode]]) -> Models {
        let mut counts = ModelCounts::default();
        for b in blocks {
            counts.add_block(b).unwrap();
        }
        Models::new(&counts).unwrap()
    }

    fn round_trip(boards: &[BoardCode]) -> Vec<u8> {
        let models = models_of(&[boards]);
        let bytes = encode_block(boards, &models).unwrap();
        let mut out = Vec::new();
        decode_block(&bytes, boards.len(), &models, &mut out).unwrap();
        assert_eq!(out, boards);
        let mut values = Vec::new();
        decode_values(&bytes, boards.len(), boards.len(), &models, &mut values).unwrap();
        assert_eq!(values, boards.iter().map(|b| b.values).collect::<Vec<_>>());
        let half = boards.len() / 2;
        decode_values(&bytes, boards.len(), half, &models, &mut values).unwrap();
        assert_eq!(values, boards[..half].iter().map(|b| b.values).collect::<Vec<_>>());
        assert_eq!(Models::from_bytes(&models.to_bytes()).unwrap(), models);
        bytes
    }

    #[test]
    fn random_blocks_round_trip() {
        let mut rng = Rng::new(17);
        for (boards, max) in [(0, 5), (1, 5), (7, 40), (2048, 40), (2048, 255), (333, 3)] {
            round_trip(&random_boards(&mut rng, boards, max));
        }
    }

    #[test]
    fn adversarial_blocks_round_trip() {
        // All one board: a few bytes.
        let one =
            BoardCode { values: [3, 4], jia: DepthRecord { depth: 9, pass: None, ban: None } };
        assert!(round_trip(&[one; 2048]).len() < 16);
        // Every values byte once on each side, every depth, both extremes.
        let deepest = Score { value: Value::SelfLose, depth: MAX_DEPTH };
        let shallow = Score { value: Value::NoResult, depth: 0 };
        let every: Vec<BoardCode> = (0..=255u8)
            .map(|v| BoardCode {
                values: [v, 255 - v],
                jia: DepthRecord {
                    depth: if v % 2 == 0 { u16::from(v) } else { MAX_DEPTH - u16::from(v) },
                    pass: Some(if v % 3 == 0 { deepest } else { shallow }),
                    ban: Some((1 + v % 12, if v % 5 == 0 { shallow } else { deepest })),
                },
            })
            .collect();
        round_trip(&every);
        // Depths jumping between 0 and MAX_DEPTH with the same values byte.
        let jumps: Vec<BoardCode> = (0..4096u16)
            .map(|i| BoardCode {
                values: [7, 7],
                jia: DepthRecord {
                    depth: if i % 2 == 0 { 0 } else { MAX_DEPTH },
                    pass: Some(if i % 2 == 0 { deepest } else { shallow }),
                    ban: Some((12, if i % 2 == 0 { deepest } else { shallow })),
                },
            })
            .collect();
        round_trip(&jumps);
    }

    #[test]
    fn records_out_of_range_are_refused() {
        let models = models_of(&[&[BoardCode::default()]]);
        let deep = Score { value: Value::SelfWin, depth: MAX_DEPTH + 1 };
        for jia in [
            DepthRecord { depth: MAX_DEPTH + 1, pass: None, ban: None },
            DepthRecord { depth: 0, pass: Some(deep), ban: None },
            DepthRecord { depth: 0, pass: None, ban: Some((3, deep)) },
            DepthRecord { depth: 0, pass: None, ban: Some((0, Score::terminal(Value::SelfWin))) },
            DepthRecord { depth: 0, pass: None, ban: Some((13, Score::terminal(Value::SelfWin))) },
        ] {
            let b = [BoardCode { values: [0, 0], jia }];
            assert!(ModelCounts::default().add_block(&b).is_err(), "{jia:?}");
            assert!(encode_block(&b, &models).is_err(), "{jia:?}");
        }
        // A symbol the models lack.
        let other = [BoardCode { values: [1, 0], ..BoardCode::default() }];
        assert!(encode_block(&other, &models).is_err());
    }

    #[test]
    fn the_rest_symbol_round_trips_and_refuses_junk() {
        let mut rng = Rng::new(2);
        for b in random_boards(&mut rng, 5000, 255) {
            let r = b.jia;
            assert_eq!(DepthRecord::from_rest(r.depth, r.rest()), Ok(r));
        }
        // A ban walk without its flag, values 5..=7, depths below 0.
        assert!(DepthRecord::from_rest(3, 5 << 26).is_err());
        assert!(DepthRecord::from_rest(3, 1 | 6 << 1 | 256 << 4).is_err());
        assert!(DepthRecord::from_rest(3, 1 | 250 << 4).is_err());
        assert!(DepthRecord::from_rest(3, 1 << 30).is_err());
    }

    /// Flipping any bit of a block: the decoder refuses it (a context or
    /// symbol the models do not allow, a stream that does not end in the
    /// initial state) or, rarely, it decodes to other boards; the block's
    /// checksum (the file's block table) refuses every flip.
    #[test]
    fn a_damaged_block_is_refused() {
        let mut rng = Rng::new(23);
        let boards = random_boards(&mut rng, 300, 30);
        let models = models_of(&[&boards]);
        let bytes = encode_block(&boards, &models).unwrap();
        let sum = checksum(&bytes) as u32;
        let (mut refused, mut silent) = (0, 0);
        let mut out = Vec::new();
        for at in 0..bytes.len() {
            for bit in 0..8 {
                let mut bad = bytes.clone();
                bad[at] ^= 1 << bit;
                assert_ne!(checksum(&bad) as u32, sum, "the checksum misses a flip at {at}");
                match decode_block(&bad, boards.len(), &models, &mut out) {
                    Err(_) => refused += 1,
                    Ok(()) => {
                        assert_ne!(out, boards, "a flip at {at} decodes to the same boards");
                        silent += 1;
                    }
                }
            }
        }
        // What the decoder alone catches (docs/depths.md, "The coder,
        // measured"); the checksum above catches every flip.
        eprintln!("flips refused by the decoder: {refused}, decoded to other boards: {silent}");
        assert!(silent * 10 <= refused, "{silent} flips decoded, {refused} refused");
        // Cut short, longer, too many or too few boards.
        for len in 0..bytes.len() {
            assert!(decode_block(&bytes[..len], boards.len(), &models, &mut out).is_err());
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode_block(&longer, boards.len(), &models, &mut out).is_err());
        assert!(decode_block(&bytes, boards.len() + 1, &models, &mut out).is_err());
        assert!(decode_block(&bytes, boards.len() - 1, &models, &mut out).is_err());
        // Other models.
        let others = models_of(&[&random_boards(&mut rng, 300, 30)]);
        assert!(decode_block(&bytes, boards.len(), &others, &mut out).is_err());
    }

    #[test]
    fn random_bytes_as_a_block_never_panic() {
        let mut rng = Rng::new(29);
        let boards = random_boards(&mut rng, 50, 10);
        let models = models_of(&[&boards]);
        let mut out = Vec::new();
        for _ in 0..20_000 {
            let len = rng.below(64) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
            let _ = decode_block(&bytes, rng.below(60) as usize, &models, &mut out);
        }
    }

    #[test]
    fn a_record_of_a_summary() {
        let win = |depth| Score { value: Value::SelfWin, depth };
        let s = Summary {
            best: Some(win(5)),
            best_walk: 4,
            second: Some(win(9)),
            pass: Some(win(7)),
            terminal: false,
        };
        let r = DepthRecord::of(&s, 1 << 4, PassRule::Always).unwrap();
        assert_eq!(r, DepthRecord { depth: 5, pass: None, ban: Some((4, win(7))) });
        // The walk's `last` is not consistent: no ban part.
        let r = DepthRecord::of(&s, 0, PassRule::Always).unwrap();
        assert_eq!(r, DepthRecord { depth: 5, pass: None, ban: None });
        for last in [Last::None, Last::Pass, Last::Piece(4), Last::Piece(2)] {
            let consistent = (1 << 4) | (1 << 2);
            let r = DepthRecord::of(&s, consistent, PassRule::Always).unwrap();
            assert_eq!(r.score(Value::SelfWin, last), s.score(last, PassRule::Always), "{last:?}");
        }
        let deep = Summary { best: Some(win(MAX_DEPTH + 1)), ..s };
        assert_eq!(DepthRecord::of(&deep, 0, PassRule::Always), None);
    }
}
