//! The fast solver against the deliberately simple reference solver
//! (tests/reference): every reachable state must get the same value and the
//! same depth. Disagreement is a release blocker.

mod reference;

use std::collections::HashMap;

use chaosclock::solve::{Solution, solve, solve_many};
use chaosclock::{Last, PassRule, Position, Side, Value};

const RULES: [PassRule; 2] = [PassRule::Always, PassRule::WhenStuck];

/// Solves `roots` with both solvers and compares every reachable state;
/// returns the number of states compared.
fn compare(n: u8, roots: &[Position], rule: PassRule) -> usize {
    let fast = solve_many(n, roots, rule, None);
    let texts: Vec<String> = roots.iter().map(|p| p.to_string()).collect();
    let text_refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let slow = reference::ref_solve_many(&text_refs, rule == PassRule::WhenStuck);
    compare_solutions(&fast, &slow, rule);
    slow.len()
}

fn compare_solutions(fast: &Solution, slow: &HashMap<String, (u8, Option<u32>)>, rule: PassRule) {
    let mut seen = 0;
    for (pos, score) in fast.iter() {
        let text = pos.to_string();
        let &(value, depth) = slow
            .get(&text)
            .unwrap_or_else(|| panic!("{text} ({rule:?}) reached by the fast solver only"));
        let fast_depth = (score.value != Value::NoResult).then_some(u32::from(score.depth));
        assert_eq!(
            (score.value.code(), fast_depth),
            (value, depth),
            "{text} ({rule:?}): fast (value, depth) vs reference"
        );
        seen += 1;
    }
    let double_passes = slow.keys().filter(|k| k.ends_with(";-2")).count();
    assert_eq!(
        seen + double_passes,
        slow.len(),
        "same reachable states ({rule:?})"
    );
    assert_eq!(
        fast.double_passes(),
        double_passes,
        "same double passes ({rule:?})"
    );
}

/// Every derangement of 1..=n (the openings, 乙 to move).
fn openings(n: u8) -> Vec<Position> {
    fn extend(n: u8, board: &mut Vec<i64>, used: u16, out: &mut Vec<Position>) {
        let slot = board.len() as i64 + 1;
        if slot > i64::from(n) {
            out.push(Position::new(board, Side::Yi, Last::None).unwrap());
            return;
        }
        for p in 1..=i64::from(n) {
            if p != slot && used & 1 << p == 0 {
                board.push(p);
                extend(n, board, used | 1 << p, out);
                board.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(n, &mut Vec::new(), 0, &mut out);
    out
}

/// Every consistent state of an `n`-slot board that is not a double pass.
fn all_states(n: u8) -> Vec<Position> {
    fn boards(n: u8, board: &mut Vec<i64>, used: u16, out: &mut Vec<Vec<i64>>) {
        if board.len() == n as usize {
            out.push(board.clone());
            return;
        }
        for p in 0..=i64::from(n) {
            if p == 0 || used & 1 << p == 0 {
                board.push(p);
                boards(n, board, used | if p == 0 { 0 } else { 1 << p }, out);
                board.pop();
            }
        }
    }
    let mut all = Vec::new();
    boards(n, &mut Vec::new(), 0, &mut all);
    let mut out = Vec::new();
    for board in &all {
        for side in Side::ALL {
            let lasts = [Last::None, Last::Pass]
                .into_iter()
                .chain((1..=n).map(Last::Piece));
            for last in lasts {
                if let Ok(p) = Position::new(board, side, last) {
                    // A last piece that reads as none is the same state.
                    if p.last() == last {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

#[test]
fn all_4_slot_openings_one_by_one_and_together() {
    let roots = openings(4);
    assert_eq!(roots.len(), 9);
    for rule in RULES {
        for root in &roots {
            compare(4, std::slice::from_ref(root), rule);
        }
        compare(4, &roots, rule);
    }
}

#[test]
fn all_6_slot_openings_one_by_one() {
    let roots = openings(6);
    assert_eq!(roots.len(), 265);
    for rule in RULES {
        for root in &roots {
            compare(6, std::slice::from_ref(root), rule);
        }
    }
}

#[test]
fn every_4_and_6_slot_state() {
    for n in [4, 6] {
        let roots = all_states(n);
        for rule in RULES {
            let compared = compare(n, &roots, rule);
            assert!(compared >= roots.len());
        }
    }
}

/// A small xorshift generator: the same positions every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, k: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % k
    }
}

/// A random consistent position with `fixed` fixed pieces, the other
/// pieces on random free slots or in hand.
fn random_position(rng: &mut Rng, n: u8, fixed: usize) -> Position {
    loop {
        let mut pieces: Vec<u8> = (1..=n).collect();
        for i in (1..pieces.len()).rev() {
            pieces.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut board = vec![0i64; n as usize];
        for &p in &pieces[..fixed] {
            board[p as usize - 1] = i64::from(p);
        }
        for &p in &pieces[fixed..] {
            if rng.below(4) == 0 {
                continue; // in hand
            }
            let free: Vec<usize> = (0..n as usize)
                .filter(|&i| board[i] == 0 && i + 1 != p as usize)
                .collect();
            if !free.is_empty() {
                board[free[rng.below(free.len() as u64) as usize]] = i64::from(p);
            }
        }
        let side = if rng.below(2) == 0 {
            Side::Jia
        } else {
            Side::Yi
        };
        let last = match rng.below(4) {
            0 => Last::Pass,
            1 => Last::Piece(1 + rng.below(u64::from(n)) as u8),
            _ => Last::None,
        };
        if let Ok(p) = Position::new(&board, side, last) {
            return p;
        }
    }
}

#[test]
fn random_8_and_12_slot_positions_with_many_fixed_pieces() {
    let mut rng = Rng(0x5eed_c4a0_5c10_c4a1);
    let mut compared = 0;
    for (n, fixed, count) in [(8u8, 2usize, 150), (8, 4, 150), (12, 6, 100), (12, 8, 100)] {
        for i in 0..count {
            let root = random_position(&mut rng, n, fixed);
            let rule = RULES[i % 2];
            // Keep the reference's naive sweeps quick.
            if solve(&root, rule, None).states() > 60_000 {
                continue;
            }
            compare(n, &[root], rule);
            compared += 1;
        }
    }
    assert!(
        compared >= 300,
        "only {compared} positions were small enough"
    );
}
