//! An open-addressing hash table from node keys to the `last` bits of
//! their states and, once solved, their [`Summary`].
//!
//! Key, bits and summary share one 16-byte slot, so a lookup touches one
//! cache line. Slot numbers are stable once the table stops growing.

use crate::score::Score;
use crate::summary::Summary;

/// Marks an empty slot (no node key has all bits set).
const EMPTY: u64 = u64::MAX;

/// The bits of [`Entry::word`] that hold the node key.
const KEY: u64 = (1 << 49) - 1;

/// The bit of [`Entry::word`] that marks a node expanded.
const EXPANDED: u64 = 1 << 62;

/// A packed score slot that holds no score.
const NO_SCORE: u16 = u16::MAX;

/// One slot. `word` holds the key in its low 49 bits, the summary's
/// `best_walk` in bits 56..60 and its `terminal` flag in bit 60; before
/// the summary is stored, bit 62 is the enumeration's mark
/// ([`NodeTable::set_expanded`]).
#[derive(Debug, Clone, Copy)]
struct Entry {
    word: u64,
    mask: u16,
    best: u16,
    second: u16,
    pass: u16,
}

const VACANT: Entry =
    Entry { word: EMPTY, mask: 0, best: NO_SCORE, second: NO_SCORE, pass: NO_SCORE };

/// Node keys ([`crate::solve::node::node_key`]) with the `last` bits of the
/// states present and their summaries.
#[derive(Debug, Clone)]
pub struct NodeTable {
    entries: Vec<Entry>,
    len: usize,
    shift: u32,
}

impl Default for NodeTable {
    fn default() -> Self {
        NodeTable::with_capacity(8)
    }
}

#[inline]
fn hash(key: u64, shift: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
}

fn pack(s: Option<Score>) -> u16 {
    s.map_or(NO_SCORE, Score::pack)
}

fn unpack(bits: u16) -> Option<Score> {
    if bits == NO_SCORE { None } else { Score::unpack(bits) }
}

impl NodeTable {
    /// An empty table for about `n` nodes.
    pub fn with_capacity(n: usize) -> NodeTable {
        let slots = (n * 2).next_power_of_two().max(16);
        NodeTable { entries: vec![VACANT; slots], len: 0, shift: 64 - slots.trailing_zeros() }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Number of slots (node ids are `0..slots()`; empty ones have mask 0).
    pub fn slots(&self) -> usize {
        self.entries.len()
    }

    /// The key in slot `i` (meaningful only where `mask(i) != 0`).
    #[inline]
    pub fn key(&self, i: usize) -> u64 {
        self.entries[i].word & KEY
    }

    /// The `last` bits in slot `i`.
    #[inline]
    pub fn mask(&self, i: usize) -> u16 {
        self.entries[i].mask
    }

    /// Whether slot `i` is marked as expanded ([`NodeTable::set_expanded`]).
    #[inline]
    pub fn expanded(&self, i: usize) -> bool {
        self.entries[i].word & EXPANDED != 0
    }

    /// Marks slot `i` as expanded: the enumeration has added every child
    /// its states can reach. Storing a summary clears the mark.
    #[inline]
    pub fn set_expanded(&mut self, i: usize) {
        self.entries[i].word |= EXPANDED;
    }

    /// The summary in slot `i` (default until stored).
    #[inline]
    pub fn summary(&self, i: usize) -> Summary {
        let e = &self.entries[i];
        Summary {
            best: unpack(e.best),
            best_walk: (e.word >> 56 & 15) as u8,
            second: unpack(e.second),
            pass: unpack(e.pass),
            terminal: e.word >> 60 & 1 == 1,
        }
    }

    /// Stores the summary of slot `i`.
    pub fn set_summary(&mut self, i: usize, s: &Summary) {
        let e = &mut self.entries[i];
        e.word = e.word & KEY | u64::from(s.best_walk) << 56 | u64::from(s.terminal) << 60;
        e.best = pack(s.best);
        e.second = pack(s.second);
        e.pass = pack(s.pass);
    }

    /// The slot of `key`, if present.
    #[inline]
    pub fn find(&self, key: u64) -> Option<usize> {
        let m = self.entries.len() - 1;
        let mut i = hash(key, self.shift);
        loop {
            let w = self.entries[i].word;
            if w & KEY == key && w != EMPTY {
                return Some(i);
            }
            if w == EMPTY {
                return None;
            }
            i = (i + 1) & m;
        }
    }

    /// Asks the processor to start loading the home slot of `key` into
    /// the cache, without waiting for it: a lookup soon after finds it
    /// there, and the loads of many keys overlap.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::table::mmap::prefetch(&self.entries[hash(key, self.shift)]);
    }

    /// Adds `bits` to node `key` (inserting it); returns the old bits.
    #[inline]
    pub fn insert(&mut self, key: u64, bits: u16) -> u16 {
        if (self.len + 1) * 8 > self.entries.len() * 5 {
            self.grow();
        }
        let m = self.entries.len() - 1;
        let mut i = hash(key, self.shift);
        loop {
            let e = &mut self.entries[i];
            if e.word == EMPTY {
                *e = Entry { word: key, mask: bits, ..VACANT };
                self.len += 1;
                return 0;
            }
            if e.word & KEY == key {
                let old = e.mask;
                e.mask = old | bits;
                return old;
            }
            i = (i + 1) & m;
        }
    }

    fn grow(&mut self) {
        let mut bigger = NodeTable::with_capacity(self.entries.len());
        let m = bigger.entries.len() - 1;
        for e in self.entries.iter().filter(|e| e.word != EMPTY) {
            let mut i = hash(e.word & KEY, bigger.shift);
            while bigger.entries[i].word != EMPTY {
                i = (i + 1) & m;
            }
            bigger.entries[i] = *e;
        }
        bigger.len = self.len;
        *self = bigger;
    }

    /// Fills `first` with, per slot, the id of its first state when the
    /// states are numbered densely slot by slot; returns the number of
    /// states.
    pub fn first_states(&self, first: &mut Vec<u32>) -> usize {
        first.clear();
        let mut total = 0u32;
        first.extend(self.entries.iter().map(|e| {
            let id = total;
            total += e.mask.count_ones();
            id
        }));
        total as usize
    }

    /// Number of states.
    pub fn states(&self) -> usize {
        self.entries.iter().map(|e| e.mask.count_ones() as usize).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    #[test]
    fn insert_find_grow_summaries() {
        let mut t = NodeTable::default();
        for k in 0..1000u64 {
            assert_eq!(t.insert(k * 7919, 1), 0);
        }
        assert_eq!(t.insert(7919, 2), 1);
        assert_eq!(t.len(), 1000);
        let slot = t.find(7919).unwrap();
        assert_eq!(t.mask(slot), 3);
        assert!(t.find(3).is_none());
        assert_eq!(t.states(), 1001);
        let mut s = Summary::default();
        s.offer(Score { value: Value::BothWin, depth: 12 }, 11);
        s.pass = Some(Score { value: Value::SelfLose, depth: 3 });
        t.set_summary(slot, &s);
        assert_eq!(t.summary(slot), s);
        assert_eq!(t.find(7919), Some(slot));
        assert_eq!(t.key(slot), 7919);
    }

    /// Marks survive growth, leave keys and bits alone, and a stored
    /// summary clears them.
    #[test]
    fn expanded_marks() {
        let mut t = NodeTable::default();
        for k in 0..10u64 {
            t.insert(k * 31, 1 << (k % 14));
            if k % 3 == 0 {
                t.set_expanded(t.find(k * 31).unwrap());
            }
        }
        let slots = t.slots();
        for k in 10..1000u64 {
            t.insert(k * 31, 1 << (k % 14));
        }
        assert!(t.slots() > slots, "the table grew");
        for k in 0..1000u64 {
            let slot = t.find(k * 31).unwrap();
            assert_eq!(t.key(slot), k * 31);
            assert_eq!(t.mask(slot), 1 << (k % 14));
            assert_eq!(t.expanded(slot), k < 10 && k % 3 == 0, "node {k}");
        }
        assert_eq!(t.len(), 1000);
        let slot = t.find(0).unwrap();
        t.set_summary(slot, &Summary::default());
        assert!(!t.expanded(slot));
        assert_eq!(t.find(0), Some(slot));
    }
}
