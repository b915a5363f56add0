//! The symmetry of the game: multiplying every piece number and every slot
//! number by a unit u of Z/N (reading 0 as N) maps the game onto itself.
//!
//! A walk of piece k from slot s lands on s + k; its image, piece uk from
//! slot us, lands on us + uk = u(s + k), the image of the target. Piece N
//! stays piece N and still walks a full circle. Piece k sits on slot k
//! exactly when uk sits on uk, so fixing is kept. Every unit of Z/N is odd
//! (N is even), so uk has the parity of k: owners and hands are kept. The
//! side to move does not change, and `last` maps with its piece. So the
//! legal moves of a state map one to one onto those of its image, the ends
//! of the game are kept, and every state has the value of its images
//! (tested on every state of small boards and on random 12-slot states).
//!
//! The tables store one representative of each orbit of signatures (F, B):
//! the one with the smallest key `F << 16 | B` ([`canonical`]). For 12
//! slots the units are 1, 5, 7 and 11.

use crate::moves::Move;
use crate::position::{Last, MAX_SLOTS, Position};
use crate::signature::SigKey;

use std::sync::OnceLock;

/// The units of Z/`n` (1 first), the multipliers of the symmetry.
pub fn units(n: u8) -> impl Iterator<Item = u8> {
    (1..n).filter(move |&u| gcd(u, n) == 1)
}

/// The images of every piece and every set of pieces under each unit of
/// one board size, looked up rather than computed: the generator maps a
/// signature for every child it reads.
struct Images {
    /// The units but 1.
    units: Vec<u8>,
    /// `pieces[k][p]`: the image of piece p under `units[k]` (p = 0 maps
    /// to 0).
    pieces: Vec<[u8; 13]>,
    /// `sets[k][m]`: the image of the set m (bits 1..=n) under `units[k]`.
    sets: Vec<Vec<u16>>,
}

impl Images {
    fn new(n: u8) -> Images {
        let units: Vec<u8> = units(n).skip(1).collect();
        let image = |u: u8, p: u8| if p == 0 { 0 } else { slow_piece(n, u, p) };
        let pieces: Vec<[u8; 13]> =
            units.iter().map(|&u| std::array::from_fn(|p| image(u, p as u8))).collect();
        let sets = pieces
            .iter()
            .map(|img| {
                (0..1u32 << (n + 1))
                    .map(|m| {
                        (1..=n)
                            .filter(|&p| m >> p & 1 == 1)
                            .fold(0u16, |acc, p| acc | 1 << img[usize::from(p)])
                    })
                    .collect()
            })
            .collect();
        Images { units, pieces, sets }
    }

    /// The tables of `n` slots (made on first use).
    fn of(n: u8) -> &'static Images {
        static ALL: [OnceLock<Images>; 13] = [const { OnceLock::new() }; 13];
        ALL[usize::from(n)].get_or_init(|| Images::new(n))
    }

    /// The index of unit `u` in the tables.
    fn at(&self, u: u8) -> usize {
        self.units.iter().position(|&v| v == u).expect("a unit other than 1")
    }
}

/// [`piece`] by arithmetic.
fn slow_piece(n: u8, u: u8, p: u8) -> u8 {
    match (u16::from(u) * u16::from(p) % u16::from(n)) as u8 {
        0 => n,
        q => q,
    }
}

fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The inverse of unit `u` modulo `n`.
pub fn inverse(n: u8, u: u8) -> u8 {
    (1..n).find(|&v| u16::from(u) * u16::from(v) % u16::from(n) == 1).expect("u is a unit")
}

/// The image of piece (or slot) `p` in `1..=n` under unit `u`.
#[inline]
pub fn piece(n: u8, u: u8, p: u8) -> u8 {
    debug_assert!((1..=n).contains(&p));
    pieces(n, u)[usize::from(p)]
}

/// The images of the pieces under unit `u`: entry p is the image of piece
/// p in `1..=n` (entry 0 is 0), looked up rather than computed.
pub fn pieces(n: u8, u: u8) -> &'static [u8; 13] {
    static IDENTITY: [u8; 13] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    if u == 1 {
        return &IDENTITY;
    }
    let images = Images::of(n);
    &images.pieces[images.at(u)]
}

/// The image of a set of pieces (bit p = piece p, for p in 1..=n) under
/// unit `u`.
#[inline]
pub fn mask(n: u8, u: u8, set: u16) -> u16 {
    if u == 1 {
        return set;
    }
    let images = Images::of(n);
    images.sets[images.at(u)][usize::from(set)]
}

/// The image of `pos` under unit `u`.
pub fn position(pos: &Position, u: u8) -> Position {
    let n = pos.n;
    if u == 1 {
        return *pos;
    }
    let img = pieces(n, u);
    let board = board(n, img, &pos.board);
    let last = match pos.last {
        Last::Piece(p) => Last::Piece(img[usize::from(p)]),
        other => other,
    };
    Position { n, board, side: pos.side, last }
}

/// The image of the `n`-slot board `board` (the piece on each slot, 0
/// for none) under the unit whose images of the pieces are `img`
/// ([`pieces`]): the piece on slot s goes, as its image, to the image of
/// s.
#[inline]
pub fn board(n: u8, img: &[u8; 13], board: &[u8; MAX_SLOTS as usize]) -> [u8; MAX_SLOTS as usize] {
    let mut out = [0u8; MAX_SLOTS as usize];
    for s in 1..=n {
        out[usize::from(img[usize::from(s)] - 1)] = img[usize::from(board[usize::from(s - 1)])];
    }
    out
}

/// The image of move `mv` (on an `n`-slot board) under unit `u`.
pub fn mv(n: u8, u: u8, mv: Move) -> Move {
    match mv {
        Move::Walk(p) => Move::Walk(piece(n, u, p)),
        Move::Place(p) => Move::Place(piece(n, u, p)),
        Move::Pass => Move::Pass,
    }
}

/// The image of signature `sig` under unit `u`.
#[inline]
pub fn signature(n: u8, u: u8, sig: SigKey) -> SigKey {
    SigKey::new(mask(n, u, sig.fixed()), mask(n, u, sig.loose()))
}

/// The representative of `sig`'s orbit (its smallest image) and the unit
/// that maps `sig` onto it (the smallest such unit).
#[inline]
pub fn canonical(n: u8, sig: SigKey) -> (u8, SigKey) {
    let images = Images::of(n);
    let (fixed, loose) = (usize::from(sig.fixed()), usize::from(sig.loose()));
    let mut best = (1, sig);
    for (k, sets) in images.sets.iter().enumerate() {
        let image = SigKey::new(sets[fixed], sets[loose]);
        if image < best.1 {
            best = (images.units[k], image);
        }
    }
    best
}

/// The representative of fixed set `fixed`'s orbit and the unit that maps
/// `fixed` onto it.
pub fn canonical_fixed(n: u8, fixed: u16) -> (u8, u16) {
    let (u, sig) = canonical(n, SigKey::new(fixed, 0));
    (u, sig.fixed())
}

/// The number of distinct images of signature `sig` (the size of its
/// orbit): how many signatures its sub-table stands for.
pub fn orbit_len(n: u8, sig: SigKey) -> u64 {
    let mut images: Vec<SigKey> = units(n).map(|u| signature(n, u, sig)).collect();
    images.sort_unstable();
    images.dedup();
    images.len() as u64
}

/// Whether the tables store signature `sig` (it is its orbit's
/// representative).
#[inline]
pub fn is_stored(n: u8, sig: SigKey) -> bool {
    canonical(n, sig).1 == sig
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::PassRule;
    use crate::random::{Rng, random_position};
    use crate::signature::signature as sig_of;

    #[test]
    fn units_of_each_size() {
        let all: Vec<Vec<u8>> = [4, 6, 8, 10, 12].iter().map(|&n| units(n).collect()).collect();
        assert_eq!(
            all,
            [vec![1, 3], vec![1, 5], vec![1, 3, 5, 7], vec![1, 3, 7, 9], vec![1, 5, 7, 11]]
        );
        for n in [4, 6, 8, 10, 12] {
            for u in units(n) {
                assert_eq!(piece(n, inverse(n, u), piece(n, u, 1)), 1);
                assert_eq!(piece(n, u, n), n);
            }
        }
    }

    /// The map is a game automorphism: the legal moves of the image are the
    /// images of the legal moves, each child maps to the child of the
    /// mapped move, and outcomes are kept.
    #[test]
    fn legal_moves_map_onto_legal_moves() {
        let mut rng = Rng::new(11);
        for n in [4, 6, 8, 10, 12] {
            for _ in 0..2000 {
                let fixed =
                    (rng.below(1 << n) as u16) << 1 & crate::table::format::free_pieces(n, 0);
                let pos = random_position(&mut rng, n, fixed);
                for u in units(n) {
                    let img = position(&pos, u);
                    assert_eq!(position(&img, inverse(n, u)), pos);
                    assert_eq!(img.outcome(), pos.outcome());
                    assert_eq!(sig_of(&img), signature(n, u, sig_of(&pos)));
                    for rule in [PassRule::Always, PassRule::WhenStuck] {
                        let mut want: Vec<Move> =
                            pos.legal_moves(rule).iter().map(|&m| mv(n, u, m)).collect();
                        let mut got: Vec<Move> = img.legal_moves(rule).iter().copied().collect();
                        want.sort_by_key(|m| format!("{m:?}"));
                        got.sort_by_key(|m| format!("{m:?}"));
                        assert_eq!(got, want, "{pos} under {u}");
                    }
                    for &m in pos.legal_moves(PassRule::Always).iter() {
                        assert_eq!(
                            img.play_unchecked(mv(n, u, m)),
                            position(&pos.play_unchecked(m), u)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_orbit_has_one_representative() {
        for n in [6, 8, 12] {
            let free = crate::table::format::free_pieces(n, 0);
            for f in 0..1u32 << n {
                let fixed = (f << 1) as u16 & free;
                let (u, c) = canonical_fixed(n, fixed);
                assert_eq!(mask(n, u, fixed), c);
                assert!(c <= fixed);
                assert_eq!(canonical_fixed(n, c), (1, c));
            }
        }
    }
}
