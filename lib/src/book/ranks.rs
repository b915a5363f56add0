//! The numbering of the openings of one board size, and which of them the
//! book stores.
//!
//! An opening's rank is its board's rank in the signature with no piece
//! fixed and every piece loose on the board ([`SigIndex`]): the order of
//! the tables, lexicographic by the slots of pieces 1, 2, ... The ranks are
//! `0..D(n)`, D the derangement number.
//!
//! The symmetry x -> ux (docs/symmetry.md) maps openings onto openings and
//! keeps values. The book stores the value of an opening only when its
//! rank is the smallest of its images: its **representative**. The others
//! read their representative's.

use crate::index::SigIndex;
use crate::position::MAX_SLOTS;
use crate::symmetry;
use crate::table::format::free_pieces;

/// The openings of one board size, ranked.
#[derive(Debug, Clone)]
pub struct Ranks {
    n: u8,
    index: SigIndex,
    /// The units but 1: the images besides the opening itself.
    units: Vec<u8>,
    /// Per unit of `units`, the images of the pieces under it and under
    /// its inverse.
    maps: Vec<(&'static [u8; 13], &'static [u8; 13])>,
}

/// A board: the piece of each slot, slot 1 first (`n` entries used).
pub type Board = [u8; MAX_SLOTS as usize];

impl Ranks {
    /// The openings of `n` slots.
    pub fn new(n: u8) -> Ranks {
        let units: Vec<u8> = symmetry::units(n).skip(1).collect();
        let maps = units
            .iter()
            .map(|&u| (symmetry::pieces(n, u), symmetry::pieces(n, symmetry::inverse(n, u))))
            .collect();
        Ranks { n, index: SigIndex::new(n, 0, free_pieces(n, 0)), units, maps }
    }

    /// Number of slots.
    pub fn slots(&self) -> u8 {
        self.n
    }

    /// Number of openings.
    pub fn count(&self) -> u64 {
        self.index.boards()
    }

    /// The rank of an opening's board (`n` entries, a derangement).
    #[inline]
    pub fn rank(&self, board: &[u8]) -> u64 {
        self.index.rank(board)
    }

    /// The board of rank `rank` (below [`Ranks::count`]).
    #[inline]
    pub fn board(&self, rank: u64) -> Board {
        self.index.unrank(rank)
    }

    /// The rank of the representative of `board`'s orbit: the smallest
    /// rank among its images.
    pub fn representative(&self, board: &[u8]) -> u64 {
        let own = self.rank(board);
        self.units.iter().map(|&u| self.rank(&self.image(board, u))).fold(own, u64::min)
    }

    /// Whether `board` is its orbit's representative.
    ///
    /// Ranks are lexicographic by the slots of pieces 1, 2, ..., so the
    /// images are compared as such sequences, piece by piece, which
    /// usually ends at piece 1: several times faster than ranking them.
    #[inline]
    pub fn is_representative(&self, board: &[u8]) -> bool {
        let n = usize::from(self.n);
        // slot_of[p]: the slot of piece p.
        let mut slot_of = [0u8; MAX_SLOTS as usize + 1];
        for (s, &p) in board[..n].iter().enumerate() {
            slot_of[usize::from(p)] = s as u8 + 1;
        }
        self.maps.iter().all(|&(img, inv)| {
            // In the image, piece p stands on u times the slot of piece
            // p / u.
            for p in 1..=n {
                let own = slot_of[p];
                let image = img[usize::from(slot_of[usize::from(inv[p])])];
                if own != image {
                    return own < image;
                }
            }
            true
        })
    }

    /// The number of distinct openings among `board`'s images (itself
    /// included): the openings its representative stands for.
    pub fn orbit_len(&self, board: &[u8]) -> u64 {
        let mut seen = vec![self.rank(board)];
        for &u in &self.units {
            let r = self.rank(&self.image(board, u));
            if !seen.contains(&r) {
                seen.push(r);
            }
        }
        seen.len() as u64
    }

    /// The image of `board` under unit `u`: piece p on slot s becomes
    /// piece up on slot us.
    fn image(&self, board: &[u8], u: u8) -> Board {
        let img = symmetry::pieces(self.n, u);
        let mut out = [0u8; MAX_SLOTS as usize];
        for (s, &p) in board[..usize::from(self.n)].iter().enumerate() {
            out[usize::from(img[s + 1] - 1)] = img[usize::from(p)];
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_orbit_has_one_representative() {
        for n in [4u8, 6, 8] {
            let ranks = Ranks::new(n);
            let mut reps = HashSet::new();
            for r in 0..ranks.count() {
                let b = ranks.board(r);
                let rep = ranks.representative(&b[..usize::from(n)]);
                assert!(rep <= r);
                assert_eq!(ranks.is_representative(&b[..usize::from(n)]), rep == r);
                reps.insert(rep);
            }
            // Every representative is its own.
            for &r in &reps {
                let b = ranks.board(r);
                assert_eq!(ranks.representative(&b[..usize::from(n)]), r);
            }
            assert!(reps.len() as u64 * (ranks.units.len() as u64 + 1) >= ranks.count());
        }
    }
}
