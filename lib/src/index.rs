//! Dense ranking of the boards of one signature (docs/architecture.md).
//!
//! A signature fixes the set F of fixed pieces and the set B of loose pieces
//! on the board. Its boards are the injections of B into the free slots (the
//! slots not holding a fixed piece) that put no piece on its own slot; every
//! piece of B has its own slot among the free ones. [`SigIndex::rank`] numbers
//! exactly these boards `0..boards()`, with no holes, and
//! [`SigIndex::unrank`] is its inverse.
//!
//! Ranking places the pieces of B in increasing order; a piece's choices are
//! the free slots still empty, minus its own, in increasing order, and each
//! choice counts the completions it leaves ([`completions`]).

use crate::position::MAX_SLOTS;

/// `COUNTS[k][m][f]`: injections of k items into m slots where f of the
/// items each forbid a different one of the slots (inclusion–exclusion:
/// sum over j of (-1)^j C(f, j) (m - j)! / (m - k)!).
struct Counts([[[u64; 13]; 13]; 13]);

const fn build_counts() -> Counts {
    let mut t = [[[0u64; 13]; 13]; 13];
    let mut binom = [[0i128; 13]; 13];
    let mut i = 0;
    while i < 13 {
        binom[i][0] = 1;
        let mut j = 1;
        while j <= i {
            binom[i][j] = binom[i - 1][j - 1] + binom[i - 1][j];
            j += 1;
        }
        i += 1;
    }
    let mut k = 0;
    while k <= 12 {
        let mut m = k;
        while m <= 12 {
            let mut f = 0;
            while f <= k {
                let mut sum: i128 = 0;
                let mut j = 0;
                while j <= f {
                    // (m - j)! / (m - k)!: place the k - j other items.
                    let mut falling: i128 = 1;
                    let mut x = 0;
                    while x < k - j {
                        falling *= (m - j - x) as i128;
                        x += 1;
                    }
                    let term = binom[f][j] * falling;
                    sum += if j % 2 == 0 { term } else { -term };
                    j += 1;
                }
                t[k][m][f] = sum as u64;
                f += 1;
            }
            m += 1;
        }
        k += 1;
    }
    Counts(t)
}

static COUNTS: Counts = build_counts();

/// `ROWS[k][m][f + 1]` = `COUNTS[k][m][f]`, and `ROWS[k][m][0]` = 0: the
/// rows [`SigIndex::rank`] reads, shifted so that it needs no branch.
static ROWS: [[[u64; 14]; 13]; 13] = {
    let counts = build_counts();
    let mut rows = [[[0u64; 14]; 13]; 13];
    let mut k = 0;
    while k <= 12 {
        let mut m = 0;
        while m <= 12 {
            let mut f = 0;
            while f <= 12 {
                rows[k][m][f + 1] = counts.0[k][m][f];
                f += 1;
            }
            m += 1;
        }
        k += 1;
    }
    rows
};

/// The number of ways to place `k` items into `m` slots when `f` of them
/// each forbid one distinct slot.
#[inline]
pub fn completions(k: usize, m: usize, f: usize) -> u64 {
    COUNTS.0[k][m][f]
}

/// The boards of one signature, ranked densely.
#[derive(Debug, Clone)]
pub struct SigIndex {
    n: u8,
    fixed: u16,
    /// The loose pieces, increasing.
    items: Vec<u8>,
    /// Per loose piece, what ranking it needs ([`Step`]), in the order of
    /// `items`.
    steps: [Step; MAX_SLOTS as usize],
    /// Mask (bit s-1 for slot s) of the free slots.
    free: u16,
    boards: u64,
}

/// What [`SigIndex::rank`] needs of the i-th loose piece p.
#[derive(Debug, Clone, Copy)]
struct Step {
    piece: u8,
    /// The free slots but p's own (bit s-1): p's choices.
    choices: u16,
    /// The own slots (bit s-1) of the loose pieces after p.
    own_after: u16,
    /// `counts[f + 1]`: completions left after placing p when f of the
    /// later pieces still have their own slot free (the number of free
    /// slots left is always m - i - 1); `counts[0]` is 0, so that a choice
    /// that takes a later piece's own slot reads `counts[f]` without a
    /// branch. A row of [`ROWS`].
    counts: &'static [u64; 14],
}

impl Default for Step {
    fn default() -> Self {
        Step { piece: 0, choices: 0, own_after: 0, counts: &ROWS[0][0] }
    }
}

impl SigIndex {
    /// The index of signature (`fixed`, `loose`) on an `n`-slot board (bit p
    /// = piece p in both masks; they must not overlap).
    pub fn new(n: u8, fixed: u16, loose: u16) -> SigIndex {
        debug_assert_eq!(fixed & loose, 0);
        let all_slots: u16 = ((1u32 << n) - 1) as u16;
        let free = all_slots & !(fixed >> 1);
        let items: Vec<u8> = (1..=n).filter(|&p| loose & 1 << p != 0).collect();
        let (k, m) = (items.len(), free.count_ones() as usize);
        let mut steps = [Step::default(); MAX_SLOTS as usize];
        for (i, &p) in items.iter().enumerate() {
            let step = &mut steps[i];
            step.piece = p;
            step.choices = free & !(1 << (p - 1));
            step.own_after = items[i + 1..].iter().fold(0, |a, &q| a | 1 << (q - 1));
            step.counts = &ROWS[k - i - 1][m - i - 1];
        }
        SigIndex { n, fixed, items, steps, free, boards: completions(k, m, k) }
    }

    /// Number of boards.
    pub fn boards(&self) -> u64 {
        self.boards
    }

    /// Number of slots.
    pub fn slots(&self) -> u8 {
        self.n
    }

    /// The loose pieces, increasing.
    pub fn items(&self) -> &[u8] {
        &self.items
    }

    /// The loose pieces (bit p = piece p).
    pub fn loose(&self) -> u16 {
        self.items.iter().fold(0, |m, &p| m | 1 << p)
    }

    /// The rank of `board` (pieces per slot, slot 1 first), which must be a
    /// board of this signature.
    ///
    /// A piece's choices below the one taken each leave `completions` of
    /// the later pieces; the count differs only by whether the choice is
    /// the own slot of a later piece, so each piece costs a few popcounts.
    #[inline]
    pub fn rank(&self, board: &[u8]) -> u64 {
        // The slot of each piece, as a bit (bit s-1 for slot s).
        let mut bit_of = [0u16; 16];
        for (i, &p) in board.iter().enumerate() {
            bit_of[usize::from(p & 15)] = 1 << i;
        }
        self.rank_bits(&bit_of)
    }

    /// [`SigIndex::rank`] of the board whose slot s holds the piece in
    /// bits 4(s-1)..4s of `nibbles` (a node key without its side bit).
    #[inline]
    pub fn rank_nibbles(&self, nibbles: u64) -> u64 {
        let mut bit_of = [0u16; 16];
        for i in 0..self.n {
            bit_of[(nibbles >> (4 * i) & 15) as usize] = 1 << i;
        }
        self.rank_bits(&bit_of)
    }

    /// The rank of the board where piece p stands on the slot of bit
    /// `bit_of[p]` (bit s-1 for slot s).
    #[inline]
    fn rank_bits(&self, bit_of: &[u16; 16]) -> u64 {
        let mut rest = self.free;
        let mut rank = 0;
        for step in &self.steps[..self.items.len()] {
            let chosen = bit_of[usize::from(step.piece & 15)];
            debug_assert!(chosen != 0 && rest & chosen != 0 && chosen & step.choices != 0);
            let own = step.own_after;
            let f_now = (rest & own).count_ones() as usize;
            let below = rest & step.choices & chosen.wrapping_sub(1);
            let taking = u64::from((below & own).count_ones());
            let other = u64::from(below.count_ones()) - taking;
            rank += other * step.counts[f_now + 1] + taking * step.counts[f_now];
            rest &= !chosen;
        }
        rank
    }

    /// The board of rank `rank` (< `boards()`): pieces per slot, with the
    /// fixed pieces on their slots.
    pub fn unrank(&self, mut rank: u64) -> [u8; MAX_SLOTS as usize] {
        let mut board = [0u8; MAX_SLOTS as usize];
        for p in 1..=self.n {
            if self.fixed & 1 << p != 0 {
                board[p as usize - 1] = p;
            }
        }
        let mut rest = self.free;
        for step in &self.steps[..self.items.len()] {
            // Each choice leaves one of two counts: whether it takes the
            // own slot of a later piece or not.
            let own = step.own_after;
            let f_now = (rest & own).count_ones() as usize;
            let (other, taking) = (step.counts[f_now + 1], step.counts[f_now]);
            let mut options = rest & step.choices;
            loop {
                debug_assert!(options != 0, "rank below boards()");
                let bit = options & options.wrapping_neg();
                options ^= bit;
                let c = if own & bit != 0 { taking } else { other };
                if rank < c {
                    board[bit.trailing_zeros() as usize] = step.piece;
                    rest &= !bit;
                    break;
                }
                rank -= c;
            }
        }
        board
    }
}

/// The boards of a range of ranks, one after the other
/// ([`SigIndex::walk`]): each next board is the last one with its last
/// pieces moved on, cheaper than [`SigIndex::unrank`] of every rank.
#[derive(Debug)]
pub(crate) struct Walk<'a> {
    index: &'a SigIndex,
    board: [u8; MAX_SLOTS as usize],
    /// The slot (bit s-1 for slot s) of each loose piece, in the order of
    /// the index's items.
    slots: [u16; MAX_SLOTS as usize],
    rank: u64,
    end: u64,
}

impl SigIndex {
    /// The boards of ranks `range` in order.
    pub(crate) fn walk(&self, range: std::ops::Range<u64>) -> Walk<'_> {
        let end = range.end.min(self.boards);
        let start = range.start.min(end);
        let board = if start < end { self.unrank(start) } else { [0; MAX_SLOTS as usize] };
        let mut slots = [0u16; MAX_SLOTS as usize];
        for (i, &p) in self.items.iter().enumerate() {
            if let Some(s) = board.iter().position(|&q| q == p) {
                slots[i] = 1 << s;
            }
        }
        Walk { index: self, board, slots, rank: start, end }
    }

    /// The lowest choice of piece `i` (an index of `items`) above the
    /// slot bits `above` that leaves completions, given the slots `rest`
    /// still empty.
    #[inline]
    fn next_choice(&self, i: usize, rest: u16, above: u16) -> Option<u16> {
        let step = &self.steps[i];
        let own = step.own_after;
        let f_now = (rest & own).count_ones() as usize;
        let (other, taking) = (step.counts[f_now + 1], step.counts[f_now]);
        let mut options = rest & step.choices & !(above | above.wrapping_sub(1));
        if above == 0 {
            options = rest & step.choices;
        }
        while options != 0 {
            let bit = options & options.wrapping_neg();
            options ^= bit;
            if (if own & bit != 0 { taking } else { other }) > 0 {
                return Some(bit);
            }
        }
        None
    }
}

impl Walk<'_> {
    /// Moves to the board of the next rank (the caller knows there is one).
    fn advance(&mut self) {
        let index = self.index;
        let k = index.items.len();
        let mut rest = index.free;
        for &bit in &self.slots[..k] {
            rest &= !bit;
        }
        // The last piece that can move on to a later choice does; the
        // pieces after it take their first choices.
        let mut i = k;
        while i > 0 {
            i -= 1;
            let old = self.slots[i];
            rest |= old;
            self.board[old.trailing_zeros() as usize] = 0;
            if let Some(bit) = index.next_choice(i, rest, old) {
                self.take(i, bit);
                rest &= !bit;
                for j in i + 1..k {
                    let bit = index.next_choice(j, rest, 0).expect("a completion left");
                    self.take(j, bit);
                    rest &= !bit;
                }
                return;
            }
        }
        unreachable!("a board after the last");
    }

    /// Puts the `i`-th loose piece on the slot of `bit`.
    #[inline]
    fn take(&mut self, i: usize, bit: u16) {
        self.slots[i] = bit;
        self.board[bit.trailing_zeros() as usize] = self.index.items[i];
    }
}

impl Iterator for Walk<'_> {
    /// A rank and its board (pieces per slot, the fixed ones included).
    type Item = (u64, [u8; MAX_SLOTS as usize]);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.rank >= self.end {
            return None;
        }
        let item = (self.rank, self.board);
        self.rank += 1;
        if self.rank < self.end {
            self.advance();
        }
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_known_numbers() {
        // Derangements of 12 are the 12-slot openings.
        assert_eq!(completions(12, 12, 12), 176_214_841);
        assert_eq!(completions(4, 4, 4), 9);
        assert_eq!(completions(0, 5, 0), 1);
        assert_eq!(completions(2, 3, 0), 6);
    }

    #[test]
    fn rank_unrank_are_inverse_and_dense() {
        for (n, fixed, loose) in
            [(4u8, 0u16, 0b11110u16), (6, 0b100, 0b1011010), (8, 0, 0b1_1110_1010)]
        {
            let idx = SigIndex::new(n, fixed, loose);
            let mut seen = std::collections::HashSet::new();
            for r in 0..idx.boards() {
                let b = idx.unrank(r);
                assert_eq!(idx.rank(&b[..n as usize]), r);
                let nibbles = b.iter().rev().fold(0u64, |k, &p| k << 4 | u64::from(p));
                assert_eq!(idx.rank_nibbles(nibbles), r);
                for (i, &p) in b[..n as usize].iter().enumerate() {
                    let fixed_here = p as usize == i + 1;
                    assert_eq!(fixed_here, p != 0 && fixed & 1 << p != 0, "{b:?}");
                }
                assert!(seen.insert(b));
            }
        }
    }

    /// Walking a range of ranks gives the boards [`SigIndex::unrank`]
    /// gives, in order, whatever the range.
    #[test]
    fn walks_give_the_unranked_boards() {
        for (n, fixed, loose) in [
            (4u8, 0u16, 0b11110u16),
            (6, 0b100, 0b1011010),
            (8, 0, 0b1_1110_1010),
            (8, 0b1000_0010, 0b1_0111_0100),
            (10, 0, 0b111_1111_1110),
            (10, 0b100, 0b10),
            (6, 0b111_1110, 0),
        ] {
            let idx = SigIndex::new(n, fixed, loose);
            let all: Vec<_> = idx.walk(0..idx.boards()).collect();
            assert_eq!(all.len() as u64, idx.boards());
            for (r, b) in all {
                assert_eq!(b, idx.unrank(r), "{n} {fixed:#b} {loose:#b} rank {r}");
            }
            let b = idx.boards();
            #[allow(clippy::reversed_empty_ranges)]
            for range in [b / 3..b / 2, b - 1..b + 5, 7..3] {
                let got: Vec<_> = idx.walk(range.clone()).collect();
                let want: Vec<_> =
                    range.clone().filter(|&r| r < b).map(|r| (r, idx.unrank(r))).collect();
                assert_eq!(got, want, "{range:?}");
            }
        }
    }

    /// Summed over all signatures, the boards are all partial injections
    /// (docs/tables.md, "Sizes").
    #[test]
    fn signatures_cover_every_board() {
        for (n, total) in [(4u8, 209u64), (6, 13_327), (8, 1_441_729)] {
            let mut sum = 0;
            for fixed in 0..1u32 << n {
                let rest = ((1u32 << n) - 1) & !fixed;
                let mut loose = rest;
                loop {
                    sum += SigIndex::new(n, (fixed << 1) as u16, (loose << 1) as u16).boards();
                    if loose == 0 {
                        break;
                    }
                    loose = (loose - 1) & rest;
                }
            }
            assert_eq!(sum, total, "n = {n}");
        }
    }
}
