//! Bytes shared by threads, eight to an atomic word, so that a scan for
//! one byte value reads a word at a time.
//!
//! [`crate::solve::levels`] scans every state's depth byte once a level
//! (about 50 levels for 12 slots) to find the few whose depth is that
//! level; a byte at a time, with an atomic load and its bounds check
//! each, that loop was about 6% of the 12-slot run's time (a profile of
//! the files of one fixed piece, 2026-11-28). Here a word of eight bytes
//! is tested for the value at once and skipped when none matches.
//!
//! Byte `i` is bits `8 * (i % 8)..` of word `i / 8`; the bytes past the
//! last of the last word are [`Bytes::FILL`] and never reported by
//! [`Bytes::each_equal`] (its value is below `FILL`).

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes, eight to an atomic word.
#[derive(Debug, Default)]
pub(super) struct Bytes(Vec<AtomicU64>);

/// A word with every byte `b`.
#[inline]
fn splat(b: u8) -> u64 {
    u64::from(b) * 0x0101_0101_0101_0101
}

/// The high bit of each byte of `x` that is zero, and no other bit (exact:
/// no carry crosses a byte, unlike the shorter test with a subtraction).
#[inline]
fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    !(((x & LOW7) + LOW7) | x) & !LOW7
}

impl Bytes {
    /// The byte every place starts with, and the padding of the last word.
    pub(super) const FILL: u8 = u8::MAX;

    /// Makes `len` bytes, each [`Bytes::FILL`], reusing the memory.
    pub(super) fn reset(&mut self, len: usize) {
        self.0.clear();
        self.0.resize_with(len.div_ceil(8), || AtomicU64::new(splat(Self::FILL)));
    }

    /// The word of byte `i` and the byte's shift in it.
    #[inline]
    fn at(&self, i: usize) -> (&AtomicU64, u32) {
        (&self.0[i / 8], 8 * (i % 8) as u32)
    }

    /// Starts loading the cache line of byte `i` ([`crate::table::mmap::prefetch`]).
    #[inline]
    pub(super) fn prefetch(&self, i: usize) {
        crate::table::mmap::prefetch(&self.0[i / 8]);
    }

    /// Byte `i` (a relaxed load: the callers order their reads by other
    /// atomics).
    #[inline]
    pub(super) fn get(&self, i: usize) -> u8 {
        let (word, shift) = self.at(i);
        (word.load(Ordering::Relaxed) >> shift) as u8
    }

    /// Sets byte `i` to `f` of its old value, unless `f` gives `None`.
    #[inline]
    fn update(&self, i: usize, f: impl Fn(u8) -> Option<u8>) {
        let (word, shift) = self.at(i);
        let mask = 0xff << shift;
        let mut old = word.load(Ordering::Relaxed);
        loop {
            let Some(b) = f((old >> shift) as u8) else { return };
            let new = old & !mask | u64::from(b) << shift;
            match word.compare_exchange_weak(old, new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return,
                Err(now) => old = now,
            }
        }
    }

    /// Sets byte `i` to `b`.
    #[inline]
    pub(super) fn set(&self, i: usize, b: u8) {
        self.update(i, |_| Some(b));
    }

    /// Lowers byte `i` to `b` if it is larger.
    #[inline]
    pub(super) fn fetch_min(&self, i: usize, b: u8) {
        self.update(i, |old| (b < old).then_some(b));
    }

    /// Raises byte `i` to `b` if it is smaller.
    #[inline]
    pub(super) fn fetch_max(&self, i: usize, b: u8) {
        self.update(i, |old| (b > old).then_some(b));
    }

    /// Calls `f` with each `i` of `range` whose byte is `b` (below
    /// [`Bytes::FILL`]) when its word is read, in increasing order. Bytes
    /// that change meanwhile may or may not be reported.
    pub(super) fn each_equal(&self, range: Range<usize>, b: u8, mut f: impl FnMut(usize)) {
        debug_assert!(b < Self::FILL, "the padding is never asked for");
        if range.is_empty() {
            return;
        }
        let want = splat(b);
        let words = &self.0[range.start / 8..range.end.div_ceil(8)];
        for (w, word) in (range.start / 8..).zip(words) {
            let mut hits = zero_bytes(word.load(Ordering::Relaxed) ^ want);
            while hits != 0 {
                let i = 8 * w + hits.trailing_zeros() as usize / 8;
                hits &= hits - 1;
                if range.contains(&i) {
                    f(i);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    /// Every byte operation and scan agrees with a plain byte array, at
    /// lengths and ranges that end anywhere in a word.
    #[test]
    fn agrees_with_a_byte_array() {
        let mut rng = Rng::new(5);
        let mut bytes = Bytes::default();
        for round in 0..300 {
            let len = rng.below(100) as usize;
            bytes.reset(len);
            let mut plain = vec![Bytes::FILL; len];
            for _ in 0..rng.below(200) {
                if len == 0 {
                    break;
                }
                let i = rng.below(len as u64) as usize;
                // Few values, so that scans find several, and the extremes.
                let b = [0, 1, 2, 3, 127, 128, 254, 255][rng.below(8) as usize];
                match rng.below(3) {
                    0 => (bytes.set(i, b), plain[i] = b),
                    1 => (bytes.fetch_min(i, b), plain[i] = plain[i].min(b)),
                    _ => (bytes.fetch_max(i, b), plain[i] = plain[i].max(b)),
                };
            }
            let got: Vec<u8> = (0..len).map(|i| bytes.get(i)).collect();
            assert_eq!(got, plain, "round {round}");
            let start = rng.below(len as u64 + 1) as usize;
            let end = start + rng.below((len - start) as u64 + 1) as usize;
            for b in [0, 1, 2, 3, 127, 128, 254] {
                let mut found = Vec::new();
                bytes.each_equal(start..end, b, |i| found.push(i));
                let want: Vec<usize> = (start..end).filter(|&i| plain[i] == b).collect();
                assert_eq!(found, want, "round {round}, byte {b}, {start}..{end} of {len}");
            }
        }
    }

    /// The zero-byte test is exact on every byte value, next to any other.
    #[test]
    fn zero_bytes_is_exact() {
        for a in 0..=255u64 {
            for b in [0u64, 1, 0x7f, 0x80, 0xff] {
                let x = a | b << 8 | a << 56 | b << 48;
                let mut want = 0;
                for k in 0..8 {
                    if x >> (8 * k) & 0xff == 0 {
                        want |= 0x80 << (8 * k);
                    }
                }
                assert_eq!(zero_bytes(x), want, "{x:#x}");
            }
        }
    }
}
