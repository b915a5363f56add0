//! How much of a solve the tables answered: the states of covered
//! signatures that explored states move to ([`Solution::answered_from_tables`]).

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use crate::moves::Move;
use crate::position::{Last, Position, walk_target};
use crate::signature::signature;
use crate::solve::Solution;
use crate::variant::Variant;

impl Solution {
    /// The number of distinct states in the signatures the tables cover
    /// that some explored state moves to: the states the solve read from
    /// the tables instead of exploring (0 without tables).
    ///
    /// The states of one node (board and side) come one after another and
    /// differ only in the walk they ban, so two of them (one if it bans
    /// none) reach every child the node has; the others are skipped.
    pub fn answered_from_tables(&self) -> usize {
        let Some(tables) = &self.tables else { return 0 };
        let Variant { slots: n, rule } = self.reached.variant;
        // The fixed sets the tables cover, the images of the files' ones
        // included.
        let covered: Vec<bool> =
            (0..1usize << (n + 1)).map(|f| tables.file(f as u16).is_some()).collect();
        // Whether a fixed set or one with a piece more is covered: most states
        // have too few pieces fixed for that and are skipped at once.
        let near: Vec<bool> = (0..covered.len())
            .map(|f| covered[f] || (1..=n).any(|p| covered[f | 1 << p]))
            .collect();
        let mut states = self.iter().map(|(pos, _)| pos).peekable();
        let nodes = std::iter::from_fn(move || {
            loop {
                let first = states.next()?;
                let same = |p: &Position| p.board() == first.board() && p.side() == first.side();
                let mut second = None;
                while let Some(p) = states.next_if(same) {
                    if second.is_none() && matches!(first.last(), Last::Piece(_)) {
                        second = Some(p);
                    }
                }
                if near[usize::from(first.fixed_mask())] {
                    return Some((first, second));
                }
            }
        });
        nodes
            .par_bridge()
            .fold(FxHashSet::default, |mut set, (first, second)| {
                for pos in std::iter::once(first).chain(second) {
                    let (sig, fixed) = (signature(&pos), pos.fixed_mask());
                    // Only a move that fixes a piece leaves an uncovered fixed
                    // set; skip the others without playing them.
                    let every = covered[usize::from(fixed)];
                    for &m in pos.legal_moves(rule).iter() {
                        if !every
                            && !fixes(&pos, m).is_some_and(|p| covered[usize::from(fixed | 1 << p)])
                        {
                            continue;
                        }
                        let child = pos.play_unchecked(m);
                        if covered[usize::from(child.fixed_mask())]
                            && signature(&child) != sig
                            && child.last() != Last::DoublePass
                        {
                            set.insert(child);
                        }
                    }
                }
                set
            })
            .reduce(FxHashSet::default, |a, b| {
                let (mut big, small) = if a.len() >= b.len() { (a, b) } else { (b, a) };
                big.extend(small);
                big
            })
            .len()
    }
}

/// The piece a legal move `m` fixes in `pos`, if any: a placement, or a
/// walk that ends on the piece's own slot (piece N leaves the board).
fn fixes(pos: &Position, m: Move) -> Option<u8> {
    match m {
        Move::Place(p) => Some(p),
        Move::Walk(p) if p != pos.slots() => {
            let from = pos.slot_of(p)?;
            (walk_target(pos.slots(), from, p) == p).then_some(p)
        }
        Move::Walk(_) | Move::Pass => None,
    }
}
