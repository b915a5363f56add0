//! Which files make a set of tables ([`fixed_sets`]) and how many nodes
//! they hold ([`nodes_of`]): what the generator makes, and what `verify`,
//! `manifest` and `openings` check is there.

use crate::table::format::{free_pieces, sub_loose, sub_nodes};

/// The fixed sets whose files make the tables of `n` slots up to `max_live`
/// pieces not fixed: the representatives of the symmetry
/// (docs/symmetry.md), in the order they are generated (more pieces
/// fixed first, since a move only ever fixes more).
pub fn fixed_sets(n: u8, max_live: u8) -> Vec<u16> {
    let all = free_pieces(n, 0);
    let mut sets: Vec<u16> = (0..1u32 << n)
        .map(|bits| (bits << 1) as u16 & all)
        .filter(|f| n - f.count_ones() as u8 <= max_live)
        .filter(|&f| crate::symmetry::canonical_fixed(n, f).1 == f)
        .collect();
    sets.sort_by_key(|f| (std::cmp::Reverse(f.count_ones()), *f));
    sets
}

/// Number of nodes the files of `sets` hold.
pub fn nodes_of(n: u8, sets: &[u16]) -> u64 {
    sets.iter()
        .map(|&f| {
            let free = free_pieces(n, f);
            (0..1usize << free.count_ones())
                .map(|i| sub_nodes(n, f, sub_loose(free, i)))
                .sum::<u64>()
        })
        .sum()
}
