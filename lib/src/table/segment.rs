//! The segments of a block of encoding 4 with segments (`coded.rs`): a
//! run of boards coded as one rANS stream, so that a read decodes from the
//! start of the segment that holds its board rather than from the start
//! of the block (docs/depths.md, "Segments").
//!
//! A segment's bytes are one stream of [`super::rans`] with, per board,
//! the four symbols of a block of [`depth_code`] in this order: 甲's values
//! byte, 乙's values byte, 甲's depth symbol, 甲's rest. Their contexts
//! are those of a block, starting afresh at the segment's start (no
//! previous values byte, no earlier depth of any values byte), so the
//! models of a file are made by [`ModelCounts::add_block`] on each
//! segment.
//!
//! A block of segments of G boards (the last of a sub-table's blocks may
//! have fewer boards, and so a last segment of fewer) holds:
//!
//! ```text
//! varint × (S - 1)  the bytes of each segment but the last (S segments:
//!                   the block's boards divided by G, rounded up)
//! ...               the segments, one after the other
//! ```
//!
//! Invariants: as a block's (depth_code.rs): every symbol checked as it is
//! decoded, and a segment decoded to its end must end its stream exactly,
//! in rANS's initial state. A segment decoded in part is checked only as
//! far as decoded: its block's checksum must have been checked before.
//!
//! [`ModelCounts::add_block`]: depth_code::ModelCounts::add_block

use crate::table::depth_code::{
    self, BoardCode, DepthRecord, Models, Part, delta_key, depth_of, rest_key, values_key,
};
use crate::table::rans::{Decoder, Encoder, get_varint, put_varint};

/// The bytes of the block `boards` in segments of `segment` boards
/// (module docs).
///
/// # Errors
/// As [`encode`].
pub fn encode_block(
    boards: &[BoardCode],
    models: &Models,
    segment: usize,
) -> Result<Vec<u8>, String> {
    let segments =
        boards.chunks(segment).map(|c| encode(c, models)).collect::<Result<Vec<_>, String>>()?;
    let mut out = Vec::with_capacity(segments.iter().map(|s| s.len() + 2).sum());
    for s in segments.iter().rev().skip(1).rev() {
        put_varint(&mut out, s.len() as u64);
    }
    for s in &segments {
        out.extend_from_slice(s);
    }
    Ok(out)
}

/// Segment `s` of the block `bytes` of `boards` boards in segments of
/// `segment` boards: its bytes and its boards.
///
/// # Errors
/// No such segment, or a directory that does not fit the bytes.
pub fn segment_of(
    bytes: &[u8],
    boards: usize,
    segment: usize,
    s: usize,
) -> Result<(&[u8], usize), String> {
    let count = boards.div_ceil(segment);
    if s >= count {
        return Err(format!("segment {s} of a block of {count}"));
    }
    let (mut at, mut start, mut len) = (0, 0usize, None);
    for i in 0..count - 1 {
        let l = get_varint(bytes, &mut at)
            .and_then(|l| usize::try_from(l).ok())
            .ok_or("block: a segment directory cut short")?;
        if i < s {
            start = start.checked_add(l).ok_or("block: segments past its end")?;
        } else if i == s {
            len = Some(l);
        }
    }
    let body = &bytes[at..];
    let end = match len {
        Some(l) => start.checked_add(l),
        None => Some(body.len()),
    }
    .filter(|&e| start <= e && e <= body.len())
    .ok_or_else(|| format!("block: segment {s} past the block's {} bytes", bytes.len()))?;
    Ok((&body[start..end], (boards - s * segment).min(segment)))
}

/// Decodes the whole block `bytes` of `boards` boards in segments of
/// `segment` boards into `out`: every segment to its exact end, so the
/// directory and the segments must cover the bytes exactly.
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
    out.clear();
    if boards == 0 {
        return if bytes.is_empty() { Ok(()) } else { Err("bytes in a block of no board".into()) };
    }
    let mut part = Vec::with_capacity(segment);
    for s in 0..boards.div_ceil(segment) {
        let (seg, k) = segment_of(bytes, boards, segment, s)?;
        decode_prefix(seg, k, k, models, &mut part).map_err(|e| format!("segment {s}: {e}"))?;
        out.extend_from_slice(&part);
    }
    Ok(())
}

/// The bytes of the segment `boards`.
///
/// # Errors
/// A record out of range, or a symbol `models` lack (models made from
/// other segments).
pub fn encode(boards: &[BoardCode], models: &Models) -> Result<Vec<u8>, String> {
    let mut slots = Vec::with_capacity(4 * boards.len());
    let mut missing = None;
    depth_code::symbols(boards, |part, key, symbol| {
        let model = match part {
            Part::Values => &models.values,
            Part::Delta => &models.delta,
            Part::Rest => &models.rest,
        };
        match model.slot(key, symbol) {
            Some(slot) => slots.push(slot),
            None => missing = Some((part, key, symbol)),
        }
    })?;
    if let Some((part, key, symbol)) = missing {
        return Err(format!("symbol {symbol} of context {key:#x} is not in the {part:?} model"));
    }
    let mut enc = Encoder::new();
    for &slot in slots.iter().rev() {
        enc.put(slot);
    }
    Ok(enc.finish())
}

/// Decodes the first `upto` of the `boards` boards of the segment `bytes`
/// into `out` (cleared first); the stream's end is checked only when
/// `upto` is `boards`.
///
/// # Errors
/// Bytes that are not such a segment, as far as decoded.
pub fn decode_prefix(
    bytes: &[u8],
    boards: usize,
    upto: usize,
    models: &Models,
    out: &mut Vec<BoardCode>,
) -> Result<(), String> {
    out.clear();
    out.reserve(upto);
    let mut dec = Decoder::new(bytes);
    let mut previous = [None::<u8>; 2];
    let mut last = [None::<u16>; 256];
    let byte = |x: u32| u8::try_from(x).map_err(|_| format!("values byte {x}"));
    for _ in 0..upto {
        let jia = byte(models.values.decode(values_key(0, previous[0], 0), &mut dec)?)?;
        let yi = byte(models.values.decode(values_key(1, previous[1], jia), &mut dec)?)?;
        previous = [Some(jia), Some(yi)];
        let symbol = models.delta.decode(delta_key([jia, yi]), &mut dec)?;
        let depth = depth_of(symbol, last[usize::from(jia)])?;
        let rest = models.rest.decode(rest_key(jia, depth), &mut dec)?;
        out.push(BoardCode { values: [jia, yi], jia: DepthRecord::from_rest(depth, rest)? });
        last[usize::from(jia)] = Some(depth);
    }
    if upto < boards {
        return Ok(());
    }
    dec.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;
    use crate::score::Score;
    use crate::table::depth_code::ModelCounts;
    use crate::value::Value;

    /// Boards with values bytes from a few and depths near each other, as
    /// in a table, and some pass and ban parts.
    fn boards(rng: &mut Rng, k: usize) -> Vec<BoardCode> {
        let mut depth = 10u16;
        (0..k)
            .map(|_| {
                depth = (depth + rng.below(5) as u16).saturating_sub(2).min(60);
                let score = Score { value: Value::BothWin, depth: rng.below(61) as u16 };
                let pass = (rng.below(3) == 0).then_some(score);
                let ban = (rng.below(5) == 0).then(|| (1 + rng.below(12) as u8, score));
                let values = [rng.below(6) as u8 * 30, rng.below(40) as u8];
                BoardCode { values, jia: DepthRecord { depth, pass, ban } }
            })
            .collect()
    }

    fn models_of(segments: &[&[BoardCode]]) -> Models {
        let mut counts = ModelCounts::default();
        for s in segments {
            counts.add_block(s).unwrap();
        }
        Models::new(&counts).unwrap()
    }

    #[test]
    fn segments_round_trip_whole_and_in_part() {
        let mut rng = Rng::new(41);
        for k in [0, 1, 2, 63, 64, 300] {
            let b = boards(&mut rng, k);
            let models = models_of(&[&b]);
            let bytes = encode(&b, &models).unwrap();
            let mut out = Vec::new();
            decode_prefix(&bytes, k, k, &models, &mut out).unwrap();
            assert_eq!(out, b);
            for upto in [0, k / 3, k.saturating_sub(1)] {
                decode_prefix(&bytes, k, upto, &models, &mut out).unwrap();
                assert_eq!(out, b[..upto]);
            }
            // The same symbols as a block: the block's bytes are its two
            // streams of them, so both decode the same boards.
            let block = depth_code::encode_block(&b, &models).unwrap();
            depth_code::decode_block(&block, k, &models, &mut out).unwrap();
            assert_eq!(out, b);
        }
    }

    #[test]
    fn blocks_of_segments_round_trip_and_refuse_damage() {
        let mut rng = Rng::new(47);
        for (k, g) in [(256, 64), (255, 64), (64, 64), (1, 16), (100, 16), (256, 256)] {
            let b = boards(&mut rng, k);
            let mut counts = ModelCounts::default();
            for c in b.chunks(g) {
                counts.add_block(c).unwrap();
            }
            let models = Models::new(&counts).unwrap();
            let bytes = encode_block(&b, &models, g).unwrap();
            let mut out = Vec::new();
            decode_block(&bytes, k, &models, g, &mut out).unwrap();
            assert_eq!(out, b, "{k} boards, segments of {g}");
            for s in 0..k.div_ceil(g) {
                let (seg, n) = segment_of(&bytes, k, g, s).unwrap();
                assert_eq!(n, (k - s * g).min(g));
                decode_prefix(seg, n, n, &models, &mut out).unwrap();
                assert_eq!(out, b[s * g..s * g + n]);
            }
            assert!(segment_of(&bytes, k, g, k.div_ceil(g)).is_err());
            // Cut, longer, or read as another number of boards.
            for len in 0..bytes.len() {
                assert!(decode_block(&bytes[..len], k, &models, g, &mut out).is_err(), "{len}");
            }
            let mut longer = bytes.clone();
            longer.push(0);
            assert!(decode_block(&longer, k, &models, g, &mut out).is_err());
            assert!(decode_block(&bytes, k + 1, &models, g, &mut out).is_err());
        }
        let models = models_of(&[&boards(&mut rng, 10)]);
        let mut out = Vec::new();
        for _ in 0..20_000 {
            let len = rng.below(60) as usize;
            let junk: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
            let k = 1 + rng.below(300) as usize;
            let _ = decode_block(&junk, k, &models, 64, &mut out);
            let _ = segment_of(&junk, k, 16, rng.below(20) as usize);
        }
    }

    #[test]
    fn damaged_or_cut_segments_are_refused_or_decode_otherwise() {
        let mut rng = Rng::new(43);
        let b = boards(&mut rng, 64);
        let models = models_of(&[&b]);
        let bytes = encode(&b, &models).unwrap();
        let mut out = Vec::new();
        for len in 0..bytes.len() {
            assert!(decode_prefix(&bytes[..len], 64, 64, &models, &mut out).is_err(), "{len}");
        }
        let mut longer = bytes.clone();
        longer.push(7);
        assert!(decode_prefix(&longer, 64, 64, &models, &mut out).is_err());
        assert!(decode_prefix(&bytes, 65, 65, &models, &mut out).is_err());
        assert!(decode_prefix(&bytes, 63, 63, &models, &mut out).is_err());
        for at in 0..bytes.len() {
            for bit in 0..8 {
                let mut bad = bytes.clone();
                bad[at] ^= 1 << bit;
                if decode_prefix(&bad, 64, 64, &models, &mut out).is_ok() {
                    assert_ne!(out, b, "a flip at {at} decodes to the same boards");
                }
            }
        }
        // Random bytes never panic.
        for _ in 0..20_000 {
            let len = rng.below(40) as usize;
            let junk: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
            let k = rng.below(70) as usize;
            let _ = decode_prefix(&junk, k, rng.below(k as u64 + 1) as usize, &models, &mut out);
        }
    }
}
