//! Choosing a set among the puzzles found (docs/puzzles.md, "How a set is
//! made"): no near-duplicates, at most one puzzle in four of a single
//! move and those only when hard, and the rules a set is checked against.
//!
//! - **Near-duplicates.** Two puzzles clash when they have the same id,
//!   the same start or the same board before the mistake up to the game's
//!   symmetry ([`board_key`]), or when one starts at a position the other's
//!   line passes through.
//! - **One-move puzzles** are at most [`ONE_MOVE_SHARE`] of the set, and
//!   each is rated at least the set's median ([`median`]).
//! - **Closing passes** (a pass after the opponent's pass, both lose,
//!   everything else loses: common in engine games and all alike) are at
//!   most one in [`CLOSING_SHARE`].

use std::collections::HashSet;

use super::definition::{MAX_LENGTH, Puzzle, board_key, canonical_key};
use crate::moves::Move;

/// At most one puzzle in this many is a single move.
pub const ONE_MOVE_SHARE: usize = 4;

/// At most one puzzle in this many is a closing pass.
pub const CLOSING_SHARE: usize = 20;

/// Whether the puzzle's answer is a pass after a pass, ending the game.
pub fn is_closing_pass(p: &Puzzle) -> bool {
    p.line == [Move::Pass] && p.mistake == Move::Pass
}

/// The median of a set's ratings: the middle one, the upper of the two
/// middle ones for an even count (0 for an empty set).
pub fn median(ratings: impl Iterator<Item = u16>) -> u16 {
    let mut r: Vec<u16> = ratings.collect();
    r.sort_unstable();
    r.get(r.len() / 2).copied().unwrap_or(0)
}

/// The keys by which puzzles clash (see the module docs).
struct Keys {
    start: u64,
    board: u64,
    line: Vec<u64>,
}

impl Keys {
    fn of(p: &Puzzle) -> Keys {
        let mut pos = p.start;
        let line = p
            .line
            .iter()
            .map(|&m| {
                pos = pos.play_unchecked(m);
                canonical_key(&pos)
            })
            .collect();
        Keys { start: canonical_key(&p.start), board: board_key(&p.before), line }
    }
}

/// The keys of the puzzles taken so far.
#[derive(Default)]
struct Taken {
    ids: HashSet<String>,
    starts: HashSet<u64>,
    boards: HashSet<u64>,
    lines: HashSet<u64>,
}

impl Taken {
    /// What `p` clashes with among those taken, if anything.
    fn clash(&self, p: &Puzzle, k: &Keys) -> Option<&'static str> {
        if self.ids.contains(&p.id) || self.starts.contains(&k.start) {
            Some("the same start up to symmetry as another puzzle")
        } else if self.boards.contains(&k.board) {
            Some("the same board before the mistake up to symmetry as another puzzle")
        } else if self.lines.contains(&k.start) {
            Some("a start that another puzzle's line passes through")
        } else if k.line.iter().any(|l| self.starts.contains(l)) {
            Some("a line that passes through another puzzle's start")
        } else {
            None
        }
    }

    fn take(&mut self, p: &Puzzle, k: &Keys) {
        self.ids.insert(p.id.clone());
        self.starts.insert(k.start);
        self.boards.insert(k.board);
        self.lines.extend(k.line.iter().copied());
    }
}

/// A set of `count` puzzles (fewer when there are not enough) chosen
/// among `found`, kept in the order found: the longer puzzles first come
/// first served, then the hardest one-move puzzles (see the module docs).
pub fn select(found: &[Puzzle], count: usize) -> Vec<Puzzle> {
    let keys: Vec<Keys> = found.iter().map(Keys::of).collect();
    // The longer puzzles, in the order found, without clashes.
    let mut taken = Taken::default();
    let mut longer = Vec::new();
    for (i, p) in found.iter().enumerate() {
        if p.length() >= 2 && taken.clash(p, &keys[i]).is_none() {
            taken.take(p, &keys[i]);
            longer.push(i);
        }
    }
    // The one-move ones, hardest first.
    let mut single: Vec<usize> = (0..found.len()).filter(|&i| found[i].length() == 1).collect();
    single.sort_by_key(|&i| std::cmp::Reverse(found[i].rating));
    // The fewest longer puzzles that make `count` with the one-move ones.
    let least = (count * (ONE_MOVE_SHARE - 1)).div_ceil(ONE_MOVE_SHARE).min(longer.len());
    let mut m = least;
    let mut chosen = with_single(found, &keys, &longer[..m], &single, count);
    while chosen.len() < count && m < longer.len() {
        m = (m + count - chosen.len()).min(longer.len());
        chosen = with_single(found, &keys, &longer[..m], &single, count);
    }
    chosen.sort_unstable();
    if chosen.len() > count {
        // Drop the easiest one-move puzzles first (neither rule breaks).
        let mut ones: Vec<usize> =
            chosen.iter().copied().filter(|&i| found[i].length() == 1).collect();
        ones.sort_by_key(|&i| (found[i].rating, std::cmp::Reverse(i)));
        let drop: HashSet<usize> = ones.into_iter().take(chosen.len() - count).collect();
        chosen.retain(|i| !drop.contains(i));
    }
    chosen.into_iter().map(|i| found[i].clone()).collect()
}

/// The longer puzzles `longer` (indices into `found`) and as many of the
/// one-move `single` ones (hardest first) as the rules let in.
fn with_single(
    found: &[Puzzle],
    keys: &[Keys],
    longer: &[usize],
    single: &[usize],
    count: usize,
) -> Vec<usize> {
    let mut taken = Taken::default();
    for &i in longer {
        taken.take(&found[i], &keys[i]);
    }
    let mut ratings: Vec<u16> = longer.iter().map(|&i| found[i].rating).collect();
    ratings.sort_unstable();
    let mut chosen = longer.to_vec();
    let mut ones = 0;
    let mut closing = 0;
    for &i in single {
        let p = &found[i];
        if (ones + 1) * ONE_MOVE_SHARE > chosen.len() + 1 {
            break;
        }
        let closes = is_closing_pass(p);
        if closes && closing >= count / CLOSING_SHARE {
            continue;
        }
        if taken.clash(p, &keys[i]).is_some() {
            continue;
        }
        let at = ratings.partition_point(|&r| r < p.rating);
        ratings.insert(at, p.rating);
        if p.rating < ratings[ratings.len() / 2] {
            ratings.remove(at);
            continue;
        }
        taken.take(p, &keys[i]);
        chosen.push(i);
        ones += 1;
        closing += usize::from(closes);
    }
    chosen
}

/// What is wrong with `set` by the rules of the module docs, one line
/// each: each puzzle's line (at least one move with a choice, no forced
/// move first or last, no position twice), no clashes and, for a `whole`
/// set (not a part of one), the one-move share and their ratings.
pub fn check_set(set: &[Puzzle], whole: bool) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut taken = Taken::default();
    for p in set {
        let k = Keys::of(p);
        if let Some(what) = taken.clash(p, &k) {
            wrong.push(format!("puzzle {}: {what}", p.id));
        }
        taken.take(p, &k);
        if !(1..=MAX_LENGTH).contains(&p.length()) {
            wrong.push(format!("puzzle {}: {} moves with a choice", p.id, p.length()));
        }
        let forced = p.forced();
        let solver: Vec<bool> =
            p.steps().iter().map(|(pos, _)| pos.side() == p.start.side()).collect();
        let last_solver = solver.iter().rposition(|&s| s);
        if forced.first() == Some(&true) || last_solver.is_some_and(|i| forced[i]) {
            wrong.push(format!("puzzle {}: its line starts or ends with a forced move", p.id));
        }
        let mut seen = HashSet::from([p.start.key()]);
        let mut pos = p.start;
        for &m in &p.line {
            pos = pos.play_unchecked(m);
            if !seen.insert(pos.key()) {
                wrong.push(format!("puzzle {}: its line comes back to a position", p.id));
                break;
            }
        }
    }
    if !whole {
        return wrong;
    }
    let ones: Vec<&Puzzle> = set.iter().filter(|p| p.length() == 1).collect();
    if ones.len() * ONE_MOVE_SHARE > set.len() {
        wrong.push(format!("{} of {} puzzles are one move", ones.len(), set.len()));
    }
    let mid = median(set.iter().map(|p| p.rating));
    for p in ones.iter().filter(|p| p.rating < mid) {
        wrong.push(format!(
            "puzzle {}: a one-move puzzle rated {} below the set's median {mid}",
            p.id, p.rating
        ));
    }
    wrong
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::embedded;

    #[test]
    fn the_median_is_the_middle_one() {
        assert_eq!(median([3u16, 1, 2].into_iter()), 2);
        assert_eq!(median([4u16, 1, 3, 2].into_iter()), 3);
        assert_eq!(median(std::iter::empty()), 0);
    }

    #[test]
    fn a_set_chosen_keeps_the_rules() {
        // Chosen again among a built-in set: the size asked for, the rules
        // kept, the puzzles in the order found.
        let found = embedded(8).unwrap();
        for count in [100, 700] {
            let set = select(found, count);
            assert_eq!(set.len(), count);
            assert_eq!(check_set(&set, true), Vec::<String>::new());
            let at = |p: &Puzzle| found.iter().position(|q| q.id == p.id).unwrap();
            assert!(set.windows(2).all(|w| at(&w[0]) < at(&w[1])));
        }
        // A clash is found: the same puzzle twice.
        let twice = [found[0].clone(), found[0].clone()];
        assert!(check_set(&twice, false)[0].contains("the same start"));
    }
}
