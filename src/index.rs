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
    /// Mask (bit s-1 for slot s) of the free slots.
    free: u16,
    /// Per item, the own slots (bit s-1) of the items after it.
    own_after: Vec<u16>,
    /// `counts[i * 13 + f]`: completions left after placing item i when f
    /// of the later items still have their own slot free (the number of
    /// free slots left is always m - i - 1).
    counts: Vec<u64>,
    boards: u64,
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
        let own_after =
            (0..k).map(|i| items[i + 1..].iter().fold(0, |a, &p| a | 1 << (p - 1))).collect();
        let counts = (0..k * 13)
            .map(|x| {
                let (i, f) = (x / 13, x % 13);
                if f < k - i { completions(k - i - 1, m - i - 1, f) } else { 0 }
            })
            .collect();
        SigIndex { n, fixed, items, free, own_after, counts, boards: completions(k, m, k) }
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
        let mut slot_of = [0u8; MAX_SLOTS as usize + 1];
        for (i, &p) in board.iter().enumerate() {
            slot_of[p as usize] = i as u8 + 1;
        }
        let mut rest = self.free;
        let mut rank = 0;
        for (i, &p) in self.items.iter().enumerate() {
            let chosen = slot_of[p as usize];
            debug_assert!(chosen != 0 && rest & 1 << (chosen - 1) != 0 && chosen != p);
            let own = self.own_after[i];
            let f_now = (rest & own).count_ones() as usize;
            let below = rest & !(1 << (p - 1)) & ((1 << (chosen - 1)) - 1);
            let taking = u64::from((below & own).count_ones());
            let other = u64::from(below.count_ones()) - taking;
            let row = &self.counts[i * 13..];
            rank += other * row[f_now];
            if taking > 0 {
                rank += taking * row[f_now - 1];
            }
            rest &= !(1 << (chosen - 1));
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
        let k = self.items.len();
        for (i, &p) in self.items.iter().enumerate() {
            let own = self.own_after[i];
            let f_now = (rest & own).count_ones() as usize;
            let m_after = rest.count_ones() as usize - 1;
            let mut options = rest & !(1 << (p - 1));
            loop {
                let s = options.trailing_zeros() as u8 + 1;
                options &= options - 1;
                let c =
                    completions(k - i - 1, m_after, f_now - usize::from(own >> (s - 1) & 1 == 1));
                if rank < c {
                    board[s as usize - 1] = p;
                    rest &= !(1 << (s - 1));
                    break;
                }
                rank -= c;
            }
        }
        board
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
                for (i, &p) in b[..n as usize].iter().enumerate() {
                    let fixed_here = p as usize == i + 1;
                    assert_eq!(fixed_here, p != 0 && fixed & 1 << p != 0, "{b:?}");
                }
                assert!(seen.insert(b));
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
