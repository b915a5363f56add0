//! Random numbers and random positions for sampling and tests: a small
//! deterministic generator, so that a seed always gives the same sample.

use crate::index::SigIndex;
use crate::position::{Last, Position};
use crate::side::Side;
use crate::table::format::{free_pieces, sub_loose};

/// A small deterministic generator (xorshift64*).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number below `k` (k > 0).
    pub fn below(&mut self, k: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % k
    }
}

/// A random position of fixed set `fixed` (a random loose set, board, side
/// and consistent last).
pub fn random_position(rng: &mut Rng, n: u8, fixed: u16) -> Position {
    let free = free_pieces(n, fixed);
    // Some loose sets have no board (a single loose piece with only its own
    // slot free): draw again. The empty loose set always has one.
    let index = loop {
        let loose = sub_loose(free, rng.below(1 << free.count_ones()) as usize);
        let index = SigIndex::new(n, fixed, loose);
        if index.boards() > 0 {
            break index;
        }
    };
    let board = index.unrank(rng.below(index.boards()));
    let side = if rng.below(2) == 0 { Side::Jia } else { Side::Yi };
    let items = index.items();
    let last = match rng.below(3) {
        0 => Last::Pass,
        1 if !items.is_empty() => Last::Piece(items[rng.below(items.len() as u64) as usize]),
        _ => Last::None,
    };
    let cells: Vec<i64> = board[..n as usize].iter().map(|&p| i64::from(p)).collect();
    Position::new(&cells, side, last)
        .unwrap_or(Position::new(&cells, side, Last::None).expect("a board of the index"))
}
