//! Fast move expansion for the solvers: every walk and placement of a node
//! with the child it leads to and the child's signature, computed in one
//! pass over the board (no allocation, no search for a piece's slot).

use crate::moves::Move;
use crate::position::{Last, Position, walk_target};
use crate::side::Side;
use crate::signature::SigKey;

/// A move and where it leads.
#[derive(Debug, Clone, Copy)]
pub struct Child {
    /// The move (never a pass).
    pub mv: Move,
    /// The position after it.
    pub pos: Position,
    /// Its signature.
    pub sig: SigKey,
    /// Its node key ([`crate::solve::node::node_key`]).
    pub key: u64,
    /// Whether it stays in the parent's signature (a walk into an empty
    /// slot that does not fix the piece).
    pub inside: bool,
}

/// Calls `f` for every walk and placement of the non-terminal `pos` (whose
/// signature is `sig` and node key `key`), ignoring any ban; passes are left
/// to the caller.
#[inline]
pub fn expand(pos: &Position, sig: SigKey, key: u64, mut f: impl FnMut(Child)) {
    let n = pos.slots();
    // Slot s (1-based) sits at bits 4s - 3 .. 4s + 1 of a node key.
    let at = |slot: u8, piece: u8| u64::from(piece) << (4 * slot - 3);
    let flip = key ^ 1;
    let (fx, lo) = (sig.fixed(), sig.loose());
    for s in 1..=n {
        let p = pos.board[s as usize - 1];
        if p == 0 || p == s {
            continue;
        }
        let mut child = *pos;
        child.side = pos.side.other();
        child.board[s as usize - 1] = 0;
        child.last = Last::None;
        let key = flip ^ at(s, p);
        if p == n {
            let sig = SigKey::new(fx, lo & !(1 << p));
            f(Child { mv: Move::Walk(p), pos: child, sig, key, inside: false });
            continue;
        }
        let t = walk_target(n, s, p);
        let q = pos.board[t as usize - 1];
        if q == t {
            continue; // a fixed piece blocks the walk
        }
        child.board[t as usize - 1] = p;
        let key = key ^ at(t, q) ^ at(t, p);
        let lo2 = lo & !(1 << q) & !1;
        let (sig, inside) = if t == p {
            (SigKey::new(fx | 1 << p, lo2 & !(1 << p)), false)
        } else {
            child.last = Last::Piece(p);
            (SigKey::new(fx, lo2), q == 0)
        };
        f(Child { mv: Move::Walk(p), pos: child, sig, key, inside });
    }
    let mut hand = pos.side.pieces_mask(n) & !(fx | lo);
    while hand != 0 {
        let p = hand.trailing_zeros() as u8;
        hand &= hand - 1;
        let q = pos.board[p as usize - 1];
        let mut child = *pos;
        child.board[p as usize - 1] = p;
        child.last = Last::None;
        let mut key = key ^ at(p, q) ^ at(p, p);
        if q == 0 || Side::owner_of(q) == pos.side {
            child.side = pos.side.other();
            key ^= 1;
        }
        let sig = SigKey::new(fx | 1 << p, lo & !(1 << q) & !1);
        f(Child { mv: Move::Place(p), pos: child, sig, key, inside: false });
    }
}

/// Whether the side to move in a position of signature `sig` is complete
/// (then the game is over: docs/rules.md, "The end of the game").
#[inline]
pub fn mover_complete(pos: &Position, sig: SigKey) -> bool {
    let mine = pos.side.pieces_mask(pos.slots());
    sig.fixed() & mine == mine
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::PassRule;

    /// `expand` agrees with `legal_moves` + `play_unchecked` + `signature`.
    #[test]
    fn agrees_with_the_rules() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut rnd = move |k: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % k
        };
        for _ in 0..3000 {
            let n = [4u8, 6, 8, 10, 12][rnd(5) as usize];
            let mut board: Vec<i64> = (0..=i64::from(n)).collect();
            for i in (1..board.len()).rev() {
                board.swap(i, rnd(i as u64 + 1) as usize);
            }
            board.truncate(n as usize);
            for b in &mut board {
                if rnd(3) == 0 {
                    *b = 0;
                }
            }
            let side = if rnd(2) == 0 { Side::Jia } else { Side::Yi };
            let Ok(pos) = Position::new(&board, side, Last::None) else {
                continue;
            };
            let sig = crate::signature::signature(&pos);
            if mover_complete(&pos, sig) {
                assert!(pos.outcome().is_some());
                continue;
            }
            let mut got = Vec::new();
            expand(&pos, sig, crate::solve::node::node_key(&pos), |c| {
                assert_eq!(c.sig, crate::signature::signature(&c.pos), "{pos} {}", c.mv);
                assert_eq!(c.key, crate::solve::node::node_key(&c.pos), "{pos} {}", c.mv);
                assert_eq!(c.inside, c.sig == sig);
                got.push((c.mv, c.pos));
            });
            let want: Vec<_> = pos
                .legal_moves(PassRule::Always)
                .iter()
                .filter(|&&m| m != Move::Pass)
                .map(|&m| (m, pos.play_unchecked(m)))
                .collect();
            assert_eq!(got, want, "{pos}");
        }
    }
}
