//! A static-model rANS coder: the entropy coder of encoding 4's blocks
//! (docs/depths.md, "The coder"; [`super::depth_code`] uses it).
//!
//! The coder is Duda's range variant of asymmetric numeral systems with a
//! 32-bit state, frequencies quantized to [`SCALE_BITS`] = 15 bits and
//! byte-wise renormalization, as in Giesen's `rans_byte.h`:
//!
//! - the state stays in `[LOW, LOW << 8)` between symbols, with
//!   `LOW` = 2^23; a stream starts (encoder) and ends (decoder) in
//!   exactly `LOW`, so a decoder that ends elsewhere read damaged bytes;
//! - rANS is last in, first out: the [`Encoder`] takes the symbols in
//!   reverse and its bytes are reversed at the end, so the [`Decoder`]
//!   reads them forward and gets the symbols in their order. A stream is
//!   the final encoder state (4 bytes, big-endian) then the renormalization
//!   bytes;
//! - everything is integer arithmetic: the same symbols and model give the
//!   same bytes on every machine.
//!
//! A [`Model`] holds, per context (a `u32` key), the symbols seen there
//! with quantized frequencies that sum to [`SCALE`]; every present symbol
//! gets at least 1 ([`Model::new`]). A context with one symbol costs no
//! bits. The slots go to a context's symbols by decreasing frequency, so
//! that the decoder finds the likely ones first. Its bytes ([`Model::to_bytes`]) are LEB128 varints:
//!
//! ```text
//! contexts
//! per context, keys increasing:
//!     key (the first) or key - previous key - 1
//!     symbols - 1
//!     per symbol, increasing: symbol (the first) or symbol - previous - 1
//!     per symbol but the last: frequency - 1 (the last one is what is
//!         left of SCALE)
//! checksum: the low 32 bits of format::checksum of the bytes above (LE)
//! ```
//!
//! Damaged input never panics: a model that does not parse, sum or check
//! is refused; a decoder reads zeros past the end of its bytes, stops
//! renormalizing there, and [`Decoder::finish`] reports the short stream,
//! bytes left over or a final state other than `LOW`. That final check
//! is no checksum: the decoder resynchronizes, so a damaged byte that
//! changes one symbol often leaves the final state right.

use rustc_hash::FxHashMap;

use crate::table::format::checksum;

/// Bits of a quantized frequency.
pub const SCALE_BITS: u32 = 15;

/// The sum of a context's frequencies.
pub const SCALE: u32 = 1 << SCALE_BITS;

/// The key of an empty slot of [`Model::table`] (no context has it: keys
/// are below 2^27).
const EMPTY: u32 = u32::MAX;

/// The multiplier of the hash of a context key (Fibonacci hashing).
const HASH: u32 = 0x9E37_79B1;

/// The lower bound of the normalized state, and its initial and final
/// value.
const LOW: u32 = 1 << 23;

/// Counts of (context, symbol) pairs, from which a [`Model`] is made: by
/// `context << 32 | symbol` (one lookup a symbol counted).
#[derive(Debug, Default, Clone)]
pub struct Counts {
    map: FxHashMap<u64, u64>,
}

impl Counts {
    /// Counts `symbol` once in `context`.
    #[inline]
    pub fn add(&mut self, context: u32, symbol: u32) {
        *self.map.entry(u64::from(context) << 32 | u64::from(symbol)).or_default() += 1;
    }

    /// Adds the counts of `other`.
    pub fn merge(&mut self, other: Counts) {
        for (pair, count) in other.map {
            *self.map.entry(pair).or_default() += count;
        }
    }

    /// The symbols counted.
    pub fn total(&self) -> u64 {
        self.map.values().sum()
    }

    /// Per context (increasing), its symbols (increasing) and counts.
    fn by_context(&self) -> Vec<(u32, Vec<(u32, u64)>)> {
        let mut pairs: Vec<(u64, u64)> = self.map.iter().map(|(&p, &c)| (p, c)).collect();
        pairs.sort_unstable();
        let mut out: Vec<(u32, Vec<(u32, u64)>)> = Vec::new();
        for (pair, count) in pairs {
            let (context, symbol) = ((pair >> 32) as u32, pair as u32);
            match out.last_mut() {
                Some((c, symbols)) if *c == context => symbols.push((symbol, count)),
                _ => out.push((context, vec![(symbol, count)])),
            }
        }
        out
    }
}

/// Quantized frequencies of the symbols of each context (module docs).
///
/// Invariant: per context every frequency is at least 1 and they sum to
/// [`SCALE`]; the slots go to the symbols by decreasing frequency, then
/// increasing symbol (so the bytes, which list symbols increasing, fix
/// them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Model {
    /// The contexts by key: an open-addressing table (linear probing) of
    /// a power of two slots, at most half of them used, each holding the
    /// context's symbols ([`Dense`]; key [`EMPTY`]: no context). Decoding
    /// looks up a context a symbol: the table is small enough (16 bytes a
    /// slot) to stay in the fastest caches, whatever the range of the keys.
    table: Vec<Dense>,
    /// `32 - log2(table.len())`: the hash of a key is its top bits.
    shift: u32,
    /// Context keys, increasing.
    keys: Vec<u32>,
    /// Per context, its first symbol in the flat arrays; one more entry at
    /// the end.
    first: Vec<u32>,
    /// The symbols of all contexts, side by side (one cache line holds 8),
    /// in the order of their slots: per context by decreasing frequency
    /// (then increasing symbol), so that the linear searches of the
    /// decoder (by slot) and the encoder (by symbol) stop early.
    ///
    /// A reader keeps the models of every file it reads (tens of millions
    /// of symbols for 12 slots), so nothing else is kept per symbol.
    entries: Vec<Entry>,
}

/// A context in [`Model::table`]: its key, where its symbols are, and its
/// most frequent symbol (the first slots), so that the decoder reads no
/// more than this entry when the slot falls in them (16 bytes, a quarter
/// of a cache line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Dense {
    /// Its key; [`EMPTY`]: a free slot.
    key: u32,
    /// Its first symbol in the flat arrays.
    first: u32,
    /// Its most frequent symbol (the first entry).
    top: u32,
    /// Its number of symbols (at most [`SCALE`]).
    symbols: u16,
    /// The frequency of `top`: the slots `0..top_freq` (below [`SCALE`],
    /// or the context has one symbol and `symbols` says so).
    top_freq: u16,
}

impl Dense {
    const FREE: Dense = Dense { key: EMPTY, first: 0, top: 0, symbols: 0, top_freq: 0 };
}

/// A symbol of a context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    symbol: u32,
    /// The sum of the frequencies before it.
    start: u16,
    /// Its frequency; `SCALE` itself (one symbol) fits in a u16.
    freq: u16,
}

/// A symbol's place in its context: its running sum and frequency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// The sum of the frequencies of the symbols before it.
    pub start: u32,
    /// Its frequency, 1..=SCALE.
    pub freq: u32,
}

impl Model {
    /// The model of `counts`: per context, each symbol gets
    /// `1 + floor(count × (SCALE - k) / total)` (k symbols), and what is
    /// left of [`SCALE`] (less than k) goes one each to the largest
    /// remainders (ties to the smaller symbol). So no present symbol gets
    /// 0, and a context with one symbol gets all of `SCALE`.
    ///
    /// # Errors
    /// A context with more than [`SCALE`] symbols.
    pub fn new(counts: &Counts) -> Result<Model, String> {
        let mut model = Model::empty();
        let mut order = Vec::new();
        for (key, symbols) in counts.by_context() {
            let k = symbols.len() as u64;
            if k > u64::from(SCALE) {
                return Err(format!("context {key} has {k} symbols, more than {SCALE}"));
            }
            let total: u64 = symbols.iter().map(|&(_, c)| c).sum();
            let spare = u64::from(SCALE) - k;
            let mut freqs: Vec<u64> = Vec::with_capacity(symbols.len());
            let mut rems: Vec<(u64, usize)> = Vec::with_capacity(symbols.len());
            for (i, &(_, c)) in symbols.iter().enumerate() {
                let scaled = u128::from(c) * u128::from(spare);
                freqs.push(1 + (scaled / u128::from(total)) as u64);
                rems.push(((scaled % u128::from(total)) as u64, i));
            }
            let left = u64::from(SCALE) - freqs.iter().sum::<u64>();
            // Largest remainder first, then the smaller symbol.
            rems.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            for &(_, i) in rems.iter().take(left as usize) {
                freqs[i] += 1;
            }
            order.clear();
            order.extend(
                symbols
                    .iter()
                    .zip(&freqs)
                    .map(|(&(s, _), &f)| (u64::from(SCALE) - f) << 32 | u64::from(s)),
            );
            model.push(key, &mut order);
        }
        Ok(model.with_table())
    }

    fn empty() -> Model {
        Model {
            table: Vec::new(),
            shift: 32,
            keys: Vec::new(),
            first: vec![0],
            entries: Vec::new(),
        }
    }

    /// Adds context `key` (larger than every key so far) with its symbols
    /// given as `(SCALE - frequency) << 32 | symbol` each, in any order,
    /// the frequencies summing to [`SCALE`]. Sorted, they are the slots'
    /// order (larger frequency, then smaller symbol, first): one integer a
    /// symbol, which the standard sort orders several times faster than
    /// structs by a key; the symbols differ, so the order is total.
    fn push(&mut self, key: u32, order: &mut [u64]) {
        self.keys.push(key);
        order.sort_unstable();
        let mut start = 0u32;
        for &o in order.iter() {
            let freq = SCALE - (o >> 32) as u32;
            self.entries.push(Entry { symbol: o as u32, start: start as u16, freq: freq as u16 });
            start += freq;
        }
        debug_assert_eq!(start, SCALE);
        self.first.push(self.entries.len() as u32);
    }

    /// Fills [`Model::table`] once every context is in.
    fn with_table(mut self) -> Model {
        self.keys.shrink_to_fit();
        self.first.shrink_to_fit();
        self.entries.shrink_to_fit();
        let size = (2 * self.keys.len()).next_power_of_two().max(8);
        self.shift = 32 - size.trailing_zeros();
        self.table = vec![Dense::FREE; size];
        for (c, &key) in self.keys.iter().enumerate() {
            let (first, end) = (self.first[c], self.first[c + 1]);
            let top = self.entries[first as usize];
            let mut i = self.home(key);
            while self.table[i].key != EMPTY {
                i = (i + 1) & (size - 1);
            }
            self.table[i] = Dense {
                key,
                first,
                top: top.symbol,
                // A context of one symbol has frequency SCALE, past u16:
                // its slot is never below it, so 0 does.
                symbols: (end - first) as u16,
                top_freq: if end - first == 1 { 0 } else { top.freq },
            };
        }
        self
    }

    /// The slot of [`Model::table`] where the search for `key` starts.
    #[inline(always)]
    fn home(&self, key: u32) -> usize {
        (key.wrapping_mul(HASH) >> self.shift) as usize
    }

    /// The context of `key`, if the model has it.
    #[inline(always)]
    fn find(&self, key: u32) -> Option<&Dense> {
        let mask = self.table.len() - 1;
        let mut i = self.home(key);
        loop {
            let d = &self.table[i];
            if d.key == key {
                return Some(d);
            }
            if d.key == EMPTY {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// Contexts of the model.
    pub fn contexts(&self) -> usize {
        self.keys.len()
    }

    /// The bytes of memory the model holds.
    pub fn heap_bytes(&self) -> usize {
        self.table.capacity() * size_of::<Dense>()
            + (self.keys.capacity() + self.first.capacity()) * size_of::<u32>()
            + self.entries.capacity() * size_of::<Entry>()
    }

    /// (context, symbol) pairs of the model.
    pub fn pairs(&self) -> usize {
        self.entries.len()
    }

    /// The range of context `key`'s symbols in the flat arrays.
    #[inline]
    fn range(&self, key: u32) -> Option<std::ops::Range<usize>> {
        let d = self.find(key)?;
        Some(d.first as usize..d.first as usize + usize::from(d.symbols))
    }

    /// The slot of `symbol` in context `key`, or `None` if the model does
    /// not have it.
    #[inline]
    pub fn slot(&self, key: u32, symbol: u32) -> Option<Slot> {
        let r = self.range(key)?;
        // Most frequent first: the symbols coded most are found first.
        let i = r.start + self.entries[r].iter().position(|e| e.symbol == symbol)?;
        Some(Slot { start: self.entries[i].start.into(), freq: self.freq(i) })
    }

    #[inline]
    fn freq(&self, i: usize) -> u32 {
        u32::from(self.entries[i].freq)
    }

    /// Decodes one symbol of context `key` from `dec`.
    ///
    /// # Errors
    /// A context the model does not have.
    // Inlined into the decoding loops, with the hash path out of line: it
    // was a call a symbol with the decoder's state in memory (part of the
    // 54 -> 39 µs a 10-slot block of this change, with the top symbol).
    #[inline(always)]
    pub fn decode(&self, key: u32, dec: &mut Decoder<'_>) -> Result<u32, String> {
        let d = self.find(key).ok_or_else(|| missing_context(key))?;
        if d.symbols == 1 {
            // Frequency SCALE: the state does not change.
            return Ok(d.top);
        }
        if dec.slot() < u32::from(d.top_freq) {
            // The most frequent symbol, without reading its entries: one
            // dependent load a symbol less on the decoder's critical path.
            dec.advance(0, d.top_freq.into());
            return Ok(d.top);
        }
        let r = d.first as usize..d.first as usize + usize::from(d.symbols);
        if r.len() == 1 {
            // Frequency SCALE: the state does not change.
            return Ok(self.entries[r.start].symbol);
        }
        let slot = dec.slot();
        let entries = &self.entries[r];
        // The symbols whose start is at most the slot. The most frequent
        // come first, so a linear search mostly stops after a step or two;
        // it measured 3 to 4 times faster than a binary search on contexts
        // of 9 to 64 symbols (the binary search mispredicts its branches).
        let below = if entries.len() <= 256 {
            let mut i = 1;
            while i < entries.len() && u32::from(entries[i].start) <= slot {
                i += 1;
            }
            i
        } else {
            entries.partition_point(|e| u32::from(e.start) <= slot)
        };
        let e = entries[below - 1];
        dec.advance(e.start.into(), e.freq.into());
        Ok(e.symbol)
    }

    /// The model's bytes (module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        put_varint(&mut out, self.keys.len() as u64);
        for (c, &key) in self.keys.iter().enumerate() {
            let key_code = if c == 0 { key } else { key - self.keys[c - 1] - 1 };
            put_varint(&mut out, key_code.into());
            let r = self.first[c] as usize..self.first[c + 1] as usize;
            put_varint(&mut out, (r.len() - 1) as u64);
            let mut symbols: Vec<(u32, u32)> =
                r.map(|i| (self.entries[i].symbol, self.freq(i))).collect();
            symbols.sort_unstable();
            for (k, &(symbol, _)) in symbols.iter().enumerate() {
                let code = if k == 0 { symbol } else { symbol - symbols[k - 1].0 - 1 };
                put_varint(&mut out, code.into());
            }
            for &(_, f) in &symbols[..symbols.len() - 1] {
                put_varint(&mut out, u64::from(f) - 1);
            }
        }
        let sum = checksum(&out) as u32;
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a model from the front of `bytes` and moves `bytes` past it.
    ///
    /// # Errors
    /// Bytes that are not a model: cut short, keys or symbols out of
    /// order or out of range, frequencies that do not sum to [`SCALE`],
    /// a bad checksum.
    pub fn read(bytes: &mut &[u8]) -> Result<Model, String> {
        let whole = *bytes;
        let mut at = 0usize;
        let mut next = |what: &str| -> Result<u64, String> {
            get_varint(whole, &mut at).ok_or_else(|| format!("model: bad or missing {what}"))
        };
        let contexts = next("context count")?;
        if contexts > whole.len() as u64 {
            return Err(format!("model: {contexts} contexts in {} bytes", whole.len()));
        }
        let mut model = Model::empty();
        model.keys.reserve(contexts as usize);
        model.first.reserve(contexts as usize);
        let mut key: u64 = 0;
        let mut order: Vec<u64> = Vec::new();
        for c in 0..contexts {
            let code = next("context key")?;
            key = if c == 0 { code } else { key + code + 1 };
            let k = next("symbol count")? + 1;
            if key > u64::from(u32::MAX) || k > u64::from(SCALE) {
                return Err(format!("model: context {key} with {k} symbols"));
            }
            // The symbols, then their frequencies as `push` takes them.
            order.clear();
            let mut symbol: u64 = 0;
            for i in 0..k {
                let code = next("symbol")?;
                symbol = if i == 0 { code } else { symbol + code + 1 };
                if symbol > u64::from(u32::MAX) {
                    return Err(format!("model: symbol {symbol} of context {key}"));
                }
                order.push(symbol);
            }
            let mut sum: u64 = 0;
            for o in order.iter_mut().take(k as usize - 1) {
                let f = next("frequency")? + 1;
                sum += f;
                if sum >= u64::from(SCALE) {
                    return Err(format!("model: frequencies of context {key} over {SCALE}"));
                }
                *o |= (u64::from(SCALE) - f) << 32;
            }
            // The last frequency is SCALE - sum.
            *order.last_mut().expect("k >= 1") |= sum << 32;
            model.push(key as u32, &mut order);
        }
        let sum = whole
            .get(at..at + 4)
            .ok_or("model: no checksum")?
            .iter()
            .rev()
            .fold(0u32, |x, &b| x << 8 | u32::from(b));
        if sum != checksum(&whole[..at]) as u32 {
            return Err("model: bad checksum".to_string());
        }
        *bytes = &whole[at + 4..];
        Ok(model.with_table())
    }
}

/// The error of a context the model does not have.
#[cold]
fn missing_context(key: u32) -> String {
    format!("context {key:#x} is not in the model")
}

/// Writes symbols given in reverse (module docs).
#[derive(Debug)]
pub struct Encoder {
    x: u32,
    /// Bytes in reverse order.
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
        Encoder { x: LOW, out: Vec::new() }
    }

    /// Codes a symbol at `slot`; symbols must come last first.
    #[inline]
    pub fn put(&mut self, slot: Slot) {
        let Slot { start, freq } = slot;
        debug_assert!(freq >= 1 && start + freq <= SCALE);
        let x_max = ((LOW >> SCALE_BITS) << 8) * freq;
        while self.x >= x_max {
            self.out.push(self.x as u8);
            self.x >>= 8;
        }
        self.x = ((self.x / freq) << SCALE_BITS) + self.x % freq + start;
    }

    /// The stream: the final state, then the bytes in the order the
    /// decoder reads them.
    pub fn finish(mut self) -> Vec<u8> {
        self.out.extend_from_slice(&self.x.to_le_bytes());
        self.out.reverse();
        self.out
    }
}

/// Reads the symbols of a stream in their order (module docs).
#[derive(Debug)]
pub struct Decoder<'a> {
    x: u32,
    bytes: &'a [u8],
    at: usize,
    /// The stream was shorter than its renormalizations, or its first
    /// state out of range.
    bad: Option<&'static str>,
}

impl<'a> Decoder<'a> {
    /// A decoder of the stream `bytes`.
    pub fn new(bytes: &'a [u8]) -> Decoder<'a> {
        let Some(head) = bytes.get(..4) else {
            return Decoder { x: LOW, bytes, at: bytes.len(), bad: Some("shorter than a state") };
        };
        let x = u32::from_be_bytes(head.try_into().expect("4 bytes"));
        if !(LOW..LOW << 8).contains(&x) {
            return Decoder { x: LOW, bytes, at: 4, bad: Some("first state out of range") };
        }
        Decoder { x, bytes, at: 4, bad: None }
    }

    /// The slot the next symbol is in, `0..SCALE`.
    #[inline]
    pub fn slot(&self) -> u32 {
        self.x & (SCALE - 1)
    }

    /// Moves past a symbol at (`start`, `freq`), the one [`Decoder::slot`]
    /// falls in.
    #[inline]
    pub fn advance(&mut self, start: u32, freq: u32) {
        debug_assert!((start..start + freq).contains(&self.slot()));
        self.x = freq * (self.x >> SCALE_BITS) + (self.slot() - start);
        while self.x < LOW {
            match self.bytes.get(self.at) {
                Some(&b) => {
                    self.x = self.x << 8 | u32::from(b);
                    self.at += 1;
                }
                None => {
                    self.bad = Some("the stream ends early");
                    self.x = LOW;
                }
            }
        }
    }

    /// Checks that the stream was read exactly: every byte used, none
    /// missing, and the state back at its initial value.
    ///
    /// # Errors
    /// What is wrong.
    pub fn finish(self) -> Result<(), String> {
        if let Some(bad) = self.bad {
            return Err(format!("rANS stream: {bad}"));
        }
        if self.at != self.bytes.len() {
            return Err(format!("rANS stream: {} bytes left over", self.bytes.len() - self.at));
        }
        if self.x != LOW {
            return Err(format!("rANS stream: final state {:#x}, not {LOW:#x}", self.x));
        }
        Ok(())
    }
}

/// Appends `x` as a LEB128 varint.
pub fn put_varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push(x as u8 | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// The LEB128 varint at `*at` (at most 10 bytes), moving `at` past it.
// Inlined with a path of its own for one byte: most of a model's numbers
// are below 128, and reading models is most of what a new `query`
// position costs (docs/depths.md, "Queries on the 12-slot table").
#[inline]
pub fn get_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let &b = bytes.get(*at)?;
    if b < 0x80 {
        *at += 1;
        return Some(u64::from(b));
    }
    get_long_varint(bytes, at)
}

/// [`get_varint`] of two bytes or more.
#[inline(never)]
fn get_long_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut x = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        x |= u64::from(b & 0x7f).checked_shl(shift)?;
        if b < 0x80 {
            return Some(x);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    fn model_of(symbols: &[(u32, u32)]) -> Model {
        let mut counts = Counts::default();
        for &(c, s) in symbols {
            counts.add(c, s);
        }
        Model::new(&counts).expect("a model")
    }

    fn encode(model: &Model, symbols: &[(u32, u32)]) -> Vec<u8> {
        let mut enc = Encoder::new();
        for &(c, s) in symbols.iter().rev() {
            enc.put(model.slot(c, s).expect("in the model"));
        }
        enc.finish()
    }

    fn decode(model: &Model, contexts: &[u32], bytes: &[u8]) -> Result<Vec<u32>, String> {
        let mut dec = Decoder::new(bytes);
        let out = contexts.iter().map(|&c| model.decode(c, &mut dec)).collect::<Result<_, _>>()?;
        dec.finish()?;
        Ok(out)
    }

    fn round_trip(symbols: &[(u32, u32)]) -> usize {
        let model = model_of(symbols);
        let bytes = encode(&model, symbols);
        let contexts: Vec<u32> = symbols.iter().map(|&(c, _)| c).collect();
        let back = decode(&model, &contexts, &bytes).expect("decodes");
        assert_eq!(back, symbols.iter().map(|&(_, s)| s).collect::<Vec<_>>());
        let mut at = &model.to_bytes()[..];
        assert_eq!(Model::read(&mut at).expect("model bytes"), model);
        assert!(at.is_empty());
        bytes.len()
    }

    #[test]
    fn quantization_sums_to_scale_and_keeps_every_symbol() {
        let mut rng = Rng::new(7);
        for _ in 0..50 {
            let mut counts = Counts::default();
            let k = 1 + rng.below(3000) as u32;
            for s in 0..k {
                // Very skewed counts: a few huge, many 1.
                let c = if rng.below(10) == 0 { 1 + rng.below(1 << 40) } else { 1 };
                for _ in 0..c.min(3) {
                    counts.add(9, s * 7);
                }
                if c > 3 {
                    *counts.map.get_mut(&(9 << 32 | u64::from(s * 7))).unwrap() += c;
                }
            }
            let m = Model::new(&counts).unwrap();
            assert_eq!(m.pairs() as u32, k);
            let sum: u32 = (0..m.pairs()).map(|i| m.freq(i)).sum();
            assert_eq!(sum, SCALE);
            assert!((0..m.pairs()).all(|i| m.freq(i) >= 1));
        }
        // Exactly SCALE symbols: each gets 1; one more is refused.
        let mut counts = Counts::default();
        for s in 0..SCALE {
            counts.add(0, s);
        }
        let m = Model::new(&counts).unwrap();
        assert!((0..m.pairs()).all(|i| m.freq(i) == 1));
        counts.add(0, SCALE);
        assert!(Model::new(&counts).is_err());
    }

    #[test]
    fn random_streams_round_trip() {
        let mut rng = Rng::new(1);
        for len in [0usize, 1, 2, 5, 100, 10_000] {
            let symbols: Vec<(u32, u32)> = (0..len)
                .map(|_| {
                    let c = rng.below(4) as u32;
                    // Skewed: small symbols common.
                    let s = (rng.below(1 << (1 + c * 3)) as u32).min(rng.below(300) as u32);
                    (c, s)
                })
                .collect();
            round_trip(&symbols);
        }
    }

    #[test]
    fn adversarial_streams_round_trip() {
        // One symbol only: no bits, just the state.
        assert_eq!(round_trip(&vec![(0, 42); 10_000]), 4);
        // Every symbol once, in one context: SCALE symbols of frequency 1.
        let every: Vec<(u32, u32)> = (0..SCALE).map(|s| (3, s * 3 + 1)).collect();
        round_trip(&every);
        // Extreme keys and symbols.
        round_trip(&[(u32::MAX, u32::MAX), (u32::MAX, 0), (0, u32::MAX), (u32::MAX, u32::MAX)]);
        // A symbol of frequency 1 next to one of SCALE - 1, many times.
        let mut skew = vec![(0, 0); 100_000];
        skew.push((0, 1));
        round_trip(&skew);
    }

    #[test]
    fn a_damaged_stream_is_mostly_an_error() {
        let mut rng = Rng::new(3);
        let symbols: Vec<(u32, u32)> =
            (0..400).map(|_| (rng.below(2) as u32, rng.below(20) as u32)).collect();
        let model = model_of(&symbols);
        let bytes = encode(&model, &symbols);
        let contexts: Vec<u32> = symbols.iter().map(|&(c, _)| c).collect();
        let want: Vec<u32> = symbols.iter().map(|&(_, s)| s).collect();
        let mut silent = 0;
        for at in 0..bytes.len() {
            for bit in 0..8 {
                let mut bad = bytes.clone();
                bad[at] ^= 1 << bit;
                match decode(&model, &contexts, &bad) {
                    Err(_) => {}
                    Ok(got) => {
                        assert_ne!(got, want, "a flip at {at} decodes to the same symbols");
                        silent += 1;
                    }
                }
            }
        }
        // The decoder resynchronizes: a flip that changes one symbol's slot
        // often changes just that symbol and leaves the state as it would
        // have been (3% of the flips here), so the final state misses it.
        // The block checksum catches those (depth_code).
        assert!(silent * 10 <= bytes.len() * 8, "{silent} flips decoded");
        for len in 0..bytes.len() {
            assert!(decode(&model, &contexts, &bytes[..len]).is_err(), "cut at {len}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&model, &contexts, &longer).is_err());
    }

    #[test]
    fn damaged_model_bytes_are_refused() {
        let mut rng = Rng::new(5);
        let symbols: Vec<(u32, u32)> =
            (0..2000).map(|_| (rng.below(30) as u32, rng.below(50) as u32)).collect();
        let bytes = model_of(&symbols).to_bytes();
        for at in 0..bytes.len() {
            for bit in 0..8 {
                let mut bad = bytes.clone();
                bad[at] ^= 1 << bit;
                assert!(Model::read(&mut &bad[..]).is_err(), "flip at {at} bit {bit}");
            }
        }
        for len in 0..bytes.len() {
            assert!(Model::read(&mut &bytes[..len]).is_err(), "cut at {len}");
        }
    }

    #[test]
    fn random_bytes_as_model_or_stream_never_panic() {
        let mut rng = Rng::new(11);
        let model = model_of(&[(0, 1), (0, 2), (0, 2), (1, 5)]);
        for _ in 0..5000 {
            let len = rng.below(40) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
            let _ = Model::read(&mut &bytes[..]);
            let _ = decode(&model, &[0, 1, 0, 0, 2], &bytes);
        }
    }
}
