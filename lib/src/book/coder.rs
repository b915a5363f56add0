//! A binary range coder with fixed probabilities, the entropy coder of the
//! openings book.
//!
//! The coder is the carry-propagating kind of LZMA's range coder: a 32-bit
//! range, a 64-bit `low` whose carry ripples into the bytes already
//! written, and 12-bit probabilities. Unlike LZMA, the probabilities do not
//! adapt: the book stores them ([`super::model`]), so that every block
//! decodes on its own, from its first byte, with the same model.
//!
//! A stream of k bits costs about their information content plus 5 bytes
//! of flush. The decoder reads zeros past the end of its bytes, so damaged
//! or cut data decodes to some bits, never to a panic; the book's checksums
//! catch damage before any decoding.

/// Bits of a probability: `p` in `1..PROB_ONE` is the chance of a 0 bit,
/// times `PROB_ONE`.
pub const PROB_BITS: u32 = 12;

/// The probability 1 in fixed point (never stored: probabilities are kept
/// in `1..PROB_ONE`).
pub const PROB_ONE: u16 = 1 << PROB_BITS;

/// The range is renormalised when it falls below this.
const TOP: u32 = 1 << 24;

/// Writes bits into bytes.
#[derive(Debug)]
pub struct Encoder {
    low: u64,
    range: u32,
    /// The byte not yet written, which a carry may still increase.
    cache: u8,
    /// `cache` and the 0xFF bytes after it that wait for a carry.
    pending: u64,
    out: Vec<u8>,
}

impl Default for Encoder {
    fn default() -> Self {
        Encoder::new()
    }
}

impl Encoder {
    /// An empty stream.
    pub fn new() -> Encoder {
        Encoder { low: 0, range: u32::MAX, cache: 0, pending: 1, out: Vec::new() }
    }

    /// Codes `bit` (false = 0) with `p0`, the chance of a 0 bit, in
    /// `1..PROB_ONE`.
    pub fn bit(&mut self, p0: u16, bit: bool) {
        debug_assert!(p0 > 0 && p0 < PROB_ONE);
        let bound = (self.range >> PROB_BITS) * u32::from(p0);
        if bit {
            self.low += u64::from(bound);
            self.range -= bound;
        } else {
            self.range = bound;
        }
        while self.range < TOP {
            self.range <<= 8;
            self.shift_low();
        }
    }

    /// Moves the top byte of `low` out, resolving a carry.
    fn shift_low(&mut self) {
        if self.low < 0xFF00_0000 || self.low > u64::from(u32::MAX) {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            while self.pending > 0 {
                self.out.push(byte.wrapping_add(carry));
                byte = 0xFF;
                self.pending -= 1;
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.pending += 1;
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    /// Ends the stream and returns its bytes.
    pub fn finish(mut self) -> Vec<u8> {
        for _ in 0..5 {
            self.shift_low();
        }
        self.out
    }
}

/// Reads bits back from the bytes of an [`Encoder`].
#[derive(Debug)]
pub struct Decoder<'a> {
    code: u32,
    range: u32,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Decoder<'a> {
    /// Starts reading `bytes`.
    pub fn new(bytes: &'a [u8]) -> Decoder<'a> {
        let mut d = Decoder { code: 0, range: u32::MAX, bytes, at: 0 };
        // The first byte written is always the initial cache, 0.
        for _ in 0..5 {
            d.code = d.code << 8 | u32::from(d.next_byte());
        }
        d
    }

    fn next_byte(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// The next bit, coded with `p0` as [`Encoder::bit`] was.
    pub fn bit(&mut self, p0: u16) -> bool {
        let bound = (self.range >> PROB_BITS) * u32::from(p0);
        let bit = if self.code < bound {
            self.range = bound;
            false
        } else {
            self.code -= bound;
            self.range -= bound;
            true
        };
        while self.range < TOP {
            self.range <<= 8;
            self.code = self.code << 8 | u32::from(self.next_byte());
        }
        bit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    #[test]
    fn bits_come_back_in_order() {
        let mut rng = Rng::new(3);
        for len in [0usize, 1, 2, 17, 1000, 100_000] {
            let bits: Vec<(u16, bool)> = (0..len)
                .map(|_| {
                    let p = 1 + rng.below(u64::from(PROB_ONE) - 1) as u16;
                    // Mostly the likely bit, sometimes the unlikely one.
                    let likely = rng.below(10) < 8;
                    (p, if p >= PROB_ONE / 2 { !likely } else { likely })
                })
                .collect();
            let mut e = Encoder::new();
            bits.iter().for_each(|&(p, b)| e.bit(p, b));
            let bytes = e.finish();
            let mut d = Decoder::new(&bytes);
            for (i, &(p, b)) in bits.iter().enumerate() {
                assert_eq!(d.bit(p), b, "bit {i} of {len}");
            }
        }
    }

    #[test]
    fn extreme_probabilities_and_long_carries() {
        // Runs of the unlikely bit at p0 = PROB_ONE - 1 push carries
        // through many 0xFF bytes.
        for pattern in [[true, true, false], [false, false, true], [true, false, true]] {
            let bits: Vec<(u16, bool)> = (0..30_000)
                .map(|i| {
                    let p = if i % 7 == 0 { 1 } else { PROB_ONE - 1 };
                    (p, pattern[i % 3])
                })
                .collect();
            let mut e = Encoder::new();
            bits.iter().for_each(|&(p, b)| e.bit(p, b));
            let bytes = e.finish();
            let mut d = Decoder::new(&bytes);
            assert!(bits.iter().all(|&(p, b)| d.bit(p) == b));
        }
    }

    #[test]
    fn likely_bits_cost_little() {
        let mut e = Encoder::new();
        for _ in 0..80_000 {
            e.bit(PROB_ONE - 16, false);
        }
        // -log2(4080 / 4096) = 0.0056 bits each: about 57 bytes, plus flush.
        assert!(e.finish().len() < 80, "too long");
    }

    #[test]
    fn garbage_decodes_without_panic() {
        let mut d = Decoder::new(&[0xFF; 3]);
        for _ in 0..1000 {
            d.bit(PROB_ONE / 2);
        }
    }
}
