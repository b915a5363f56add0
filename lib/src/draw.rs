//! The openings of `chaosclock openings`: every derangement of the pieces
//! (docs/rules.md, "The start") in the order of the boards or in the order
//! of the tables, a seeded random order of them, and the Wilson interval
//! used for estimates from a sample.
//!
//! The random order is a property of the seed alone: the first K openings
//! of seed S are the same whatever K and however they are batched, so a
//! sample of K is a prefix of a sample of K + 1. Up to 10 slots it is a
//! lazy Fisher–Yates shuffle of the list of all openings in board order
//! (the list is never made: entry i is the inverse of the board of rank i
//! in the tables' order, and the swaps made so far are kept in a map, so
//! a draw costs microseconds, not the list's 0.2 s); for 12 slots
//! (176,214,841 openings) each one is a uniform random permutation drawn
//! again until it is a derangement not drawn before (rejection sampling,
//! about e draws per opening), so nothing is enumerated.

use std::collections::{HashMap, HashSet};

use crate::index::SigIndex;
use crate::position::check_slots;
use crate::random::Rng;
use crate::table::format::free_pieces;
use crate::{Last, Position, PositionError, Side};

/// The number of openings (derangements) of an `n`-slot board.
///
/// # Errors
/// [`PositionError::UnsupportedSlots`]: `n` is not a supported size.
pub fn count(n: u8) -> Result<u64, PositionError> {
    Ok(derangement_count(check_slots(n)?))
}

/// The number of derangements of `n` elements, `n` at most 20.
fn derangement_count(n: u8) -> u64 {
    // D(0) = 1, D(1) = 0, D(k) = (k - 1) (D(k - 1) + D(k - 2)).
    let (mut a, mut b) = (1u64, 0u64);
    for k in 2..=u64::from(n) {
        (a, b) = (b, (k - 1) * (a + b));
    }
    if n == 0 { a } else { b }
}

/// The opening with `board[i]` on slot `i + 1` (乙 to move, no last move).
///
/// `None` if `board` is not a derangement of a supported size.
pub fn opening(board: &[u8]) -> Option<Position> {
    let cells: Vec<i64> = board.iter().map(|&p| i64::from(p)).collect();
    Position::new(&cells, Side::Yi, Last::None).ok().filter(Position::is_opening)
}

/// The opening on `board`, a derangement this module made.
fn derangement(board: &[u8]) -> Position {
    opening(board).expect("the derangements made here are openings")
}

/// Calls `f` with every derangement of 1..=`n` that starts with `prefix`
/// (entry i is not i + 1), in lexicographic order.
fn derangements(n: u8, prefix: &mut Vec<u8>, f: &mut dyn FnMut(&[u8])) {
    let at = prefix.len() as u8 + 1;
    if at > n {
        f(prefix);
        return;
    }
    for p in 1..=n {
        if p != at && !prefix.contains(&p) {
            prefix.push(p);
            derangements(n, prefix, f);
            prefix.pop();
        }
    }
}

/// Every opening of an `n`-slot board, in lexicographic order (for 12
/// slots, 176,214,841 of them: see [`chunks`]).
///
/// # Errors
/// [`PositionError::UnsupportedSlots`]: `n` is not a supported size.
pub fn all(n: u8) -> Result<Vec<Position>, PositionError> {
    let mut out = Vec::with_capacity(count(n)? as usize);
    derangements(n, &mut Vec::with_capacity(n as usize), &mut |b| out.push(derangement(b)));
    Ok(out)
}

/// The order of [`chunks`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Lexicographic by the pieces on slots 1, 2, ... (as [`all`]).
    Board,
    /// Lexicographic by the slots of pieces 1, 2, ...: the order of the
    /// openings in the tables (the boards of the signature with every
    /// piece loose on the board, by rank), so that reading them in turn
    /// decompresses each block of the tables once instead of once per
    /// opening: 12 slots have about 86,000 such blocks, 16,384 of which fit
    /// in a thread's cache.
    Table,
}

/// Every opening of an `n`-slot board in `order`, in chunks: one per
/// choice of the first two entries (at most 10!/e, about 1.3 million
/// openings, for 12 slots), so that they never all are in memory.
///
/// # Errors
/// [`PositionError::UnsupportedSlots`]: `n` is not a supported size.
pub fn chunks(n: u8, order: Order) -> Result<impl Iterator<Item = Vec<Position>>, PositionError> {
    check_slots(n)?;
    let firsts =
        (2..=n).flat_map(move |a| (1..=n).filter(move |&b| b != 2 && b != a).map(move |b| [a, b]));
    Ok(firsts.map(move |prefix| {
        let mut out = Vec::new();
        derangements(n, &mut prefix.to_vec(), &mut |d| match order {
            Order::Board => out.push(derangement(d)),
            Order::Table => {
                // `d` gives the slot of each piece: the board is its inverse.
                let mut board = [0u8; 12];
                for (i, &slot) in d.iter().enumerate() {
                    board[usize::from(slot) - 1] = i as u8 + 1;
                }
                out.push(derangement(&board[..d.len()]));
            }
        });
        out
    }))
}

/// The opening of rank `k` in board order (as [`all`]): board order
/// ranks the pieces of slots 1, 2, ..., the tables' order the slots of
/// pieces 1, 2, ..., so it is the inverse of the board of rank `k` in the
/// tables' order.
fn board_order(index: &SigIndex, k: u64) -> Position {
    let n = usize::from(index.slots());
    let table = index.unrank(k);
    let mut board = [0u8; 12];
    for (slot, &piece) in table[..n].iter().enumerate() {
        board[usize::from(piece) - 1] = slot as u8 + 1;
    }
    derangement(&board[..n])
}

/// The openings of one size in a seeded random order, each once.
#[derive(Debug)]
pub struct Draw {
    n: u8,
    rng: Rng,
    how: How,
}

#[derive(Debug)]
enum How {
    /// Every opening, in board order: entry i of the list is `moved[i]`'s
    /// entry of the unshuffled list if a swap moved one there, else its
    /// own; the first `next` are drawn already.
    Shuffle { index: Box<SigIndex>, moved: HashMap<u64, u64>, next: u64 },
    /// Random permutations, kept if they are new derangements.
    Reject { seen: HashSet<u64> },
}

/// Above this many slots the openings are drawn without a list.
const LIST_MAX_SLOTS: u8 = 10;

impl Draw {
    /// The random order of the `n`-slot openings for `seed`.
    ///
    /// # Errors
    /// [`PositionError::UnsupportedSlots`]: `n` is not a supported size.
    pub fn new(n: u8, seed: u64) -> Result<Draw, PositionError> {
        check_slots(n)?;
        let how = if n <= LIST_MAX_SLOTS {
            let index = SigIndex::new(n, 0, free_pieces(n, 0));
            How::Shuffle { index: Box::new(index), moved: HashMap::new(), next: 0 }
        } else {
            How::Reject { seen: HashSet::new() }
        };
        Ok(Draw { n, rng: Rng::new(seed), how })
    }
}

impl Iterator for Draw {
    type Item = Position;

    fn next(&mut self) -> Option<Position> {
        match &mut self.how {
            How::Shuffle { index, moved, next } => {
                let (i, len) = (*next, index.boards());
                if i == len {
                    return None;
                }
                let j = i + self.rng.below(len - i);
                // Swap entries i and j; entry i is drawn and never read again.
                let at_j = moved.get(&j).copied().unwrap_or(j);
                let at_i = moved.remove(&i).unwrap_or(i);
                if j != i {
                    moved.insert(j, at_i);
                }
                *next += 1;
                Some(board_order(index, at_j))
            }
            How::Reject { seen } => {
                if seen.len() as u64 == derangement_count(self.n) {
                    return None;
                }
                let n = self.n as usize;
                let mut board: Vec<u8> = (1..=self.n).collect();
                loop {
                    for i in (1..n).rev() {
                        board.swap(i, self.rng.below(i as u64 + 1) as usize);
                    }
                    if board.iter().enumerate().all(|(i, &p)| p as usize != i + 1) {
                        let pos = derangement(&board);
                        if seen.insert(pos.key()) {
                            return Some(pos);
                        }
                    }
                }
            }
        }
    }
}

/// The 95% Wilson score interval of a proportion with `hits` of `total`
/// (as fractions; `(0, 1)` for an empty sample).
pub fn wilson(hits: u64, total: u64) -> (f64, f64) {
    if total == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let n = total as f64;
    let p = hits as f64 / n;
    let z2 = Z * Z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((center - half).max(0.0), (center + half).min(1.0))
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn counts_are_derangement_numbers() {
        assert_eq!(
            [4, 6, 8, 10, 12].map(|n| count(n).unwrap()),
            [9, 265, 14_833, 1_334_961, 176_214_841]
        );
        // Sizes the engine does not support: errors, never a panic.
        for n in [0, 1, 5, 7, 13, 200] {
            assert!(count(n).is_err() && all(n).is_err() && chunks(n, Order::Board).is_err());
            assert!(Draw::new(n, 1).is_err());
        }
        for n in [4, 6, 8] {
            let list = all(n).unwrap();
            assert_eq!(list.len() as u64, count(n).unwrap());
            assert!(list.iter().all(Position::is_opening));
            assert!(list.windows(2).all(|w| w[0].board() < w[1].board()));
            assert_eq!(chunks(n, Order::Board).unwrap().flatten().collect::<Vec<_>>(), list);
        }
    }

    #[test]
    fn table_order_is_every_opening_by_rank() {
        for n in [4, 6, 8] {
            let index = SigIndex::new(n, 0, crate::table::format::free_pieces(n, 0));
            assert_eq!(index.boards(), count(n).unwrap());
            let ranks: Vec<u64> = chunks(n, Order::Table)
                .unwrap()
                .flatten()
                .map(|pos| index.rank(&pos.board()[..usize::from(n)]))
                .collect();
            assert_eq!(ranks, (0..count(n).unwrap()).collect::<Vec<_>>(), "{n} slots");
        }
    }

    #[test]
    fn board_order_is_the_list() {
        for n in [4, 6, 8] {
            let index = SigIndex::new(n, 0, free_pieces(n, 0));
            let lazy: Vec<Position> =
                (0..count(n).unwrap()).map(|k| board_order(&index, k)).collect();
            assert_eq!(lazy, all(n).unwrap(), "{n} slots");
        }
    }

    #[test]
    fn lazy_shuffle_is_the_list_shuffle() {
        // The shuffle of the whole list, as it was made before the lazy one.
        for (n, seed) in [(6u8, 7u64), (8, 1), (8, 99)] {
            let mut list = all(n).unwrap();
            let mut rng = Rng::new(seed);
            for i in 0..list.len() {
                let j = i + rng.below((list.len() - i) as u64) as usize;
                list.swap(i, j);
            }
            assert_eq!(
                Draw::new(n, seed).unwrap().collect::<Vec<_>>(),
                list,
                "{n} slots, seed {seed}"
            );
        }
    }

    #[test]
    fn draws_are_seeded_distinct_and_complete() {
        let a: Vec<Position> = Draw::new(6, 7).unwrap().collect();
        let b: Vec<Position> = Draw::new(6, 7).unwrap().take(10).collect();
        assert_eq!(a.len(), 265);
        assert_eq!(&a[..10], &b[..]);
        let set: HashSet<u64> = a.iter().map(Position::key).collect();
        assert_eq!(set.len(), 265);
        assert_ne!(a, Draw::new(6, 8).unwrap().collect::<Vec<_>>());
        let c: Vec<Position> = Draw::new(12, 3).unwrap().take(50).collect();
        assert_eq!(c, Draw::new(12, 3).unwrap().take(50).collect::<Vec<_>>());
        assert!(c.iter().all(Position::is_opening));
        assert_eq!(c.iter().map(Position::key).collect::<HashSet<_>>().len(), 50);
    }

    #[test]
    fn wilson_matches_known_values() {
        // 5 of 20: the textbook interval 0.112 .. 0.469.
        let (lo, hi) = wilson(5, 20);
        assert!((lo - 0.1119).abs() < 1e-3 && (hi - 0.4687).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson(0, 2);
        assert!(lo == 0.0 && (hi - 0.6576).abs() < 1e-3, "{hi}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }
}
