//! Hand-reasoned checks of the reference implementation (`tests/reference`)
//! on tiny positions, and the documented example game of RULES.md's source.
//!
//! Pieces on 4 slots: 甲 (side 0) owns 1 and 3, 乙 (side 1) owns 2 and 4.

mod reference;

use std::collections::HashMap;

use reference::{ref_moves, ref_solve};

/// The moves of `pos` as sorted (move, child) pairs.
fn moves(pos: &str, when_stuck: bool) -> Vec<(String, String)> {
    let mut m = ref_moves(pos, when_stuck).unwrap_or_else(|e| panic!("{pos}: {e}"));
    m.sort();
    m
}

/// Sorted owned pairs from string literals.
fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut m: Vec<(String, String)> =
        list.iter().map(|&(a, b)| (a.to_string(), b.to_string())).collect();
    m.sort();
    m
}

/// The (value, depth) of `pos` (canonical text) in the solution from `root`.
fn solved(sol: &HashMap<String, (u8, Option<u32>)>, pos: &str) -> (u8, Option<u32>) {
    *sol.get(pos).unwrap_or_else(|| panic!("{pos} not reached"))
}

#[test]
fn parsing_rejects_bad_positions() {
    for bad in [
        "1,2,3",         // 3 slots
        "1,2,3,5",       // piece 5 on a 4-slot board
        "2,2,0,0",       // piece 2 twice
        "2,x,4,3",       // not a number
        "2,1,4,3;2",     // side 2
        "2,1,4,3;0;5",   // last 5 on a 4-slot board
        "2,1,4,3;0;-3",  // last -3
        "2,1,4,3;0;0;0", // four parts
        // Piece 3 on slot 2 came from slot 3 (2 - 3 = -1 = slot 3), which
        // holds 4: inconsistent.
        "0,3,4,0;1;3",
    ] {
        assert!(ref_moves(bad, false).is_err(), "{bad} should be rejected");
    }
}

#[test]
fn defaults_and_canonical_last() {
    // No side and last: 乙 to move, no last move. 乙 walks 2 from slot 1 to
    // slot 3, capturing 4 (to 乙's hand); now 甲 is to move and 2 is banned.
    let m = moves("2,1,4,3", false);
    assert!(m.contains(&("2".to_string(), "0,1,2,3;0;2".to_string())));
    // A last piece that is fixed (2 on slot 2) or off the board (3) reads
    // as none, so the root is printed with last 0.
    let sol = ref_solve("0,2,0,0;0;2", false);
    assert!(sol.contains_key("0,2,0,0;0;0"));
    let sol = ref_solve("0,2,0,0;0;3", false);
    assert!(sol.contains_key("0,2,0,0;0;0"));
}

#[test]
fn walks_placements_and_captures() {
    // 甲 to move; 4 on slot 1, 2 on slot 3; 甲 holds 1 and 3.
    // - walk 4: piece N goes full circle and leaves the board (last none);
    // - walk 2: slot 3 + 2 = slot 1, captures 乙's 4; 2 is now banned;
    // - place 1 on slot 1 captures 乙's 4: 甲 moves again;
    // - place 3 on slot 3 captures 乙's 2: 甲 moves again;
    // - pass.
    let expected = [
        ("4", "0,0,2,0;1;0"),
        ("2", "2,0,0,0;1;2"),
        ("1", "1,0,2,0;0;0"),
        ("3", "4,0,3,0;0;0"),
        ("pass", "4,0,2,0;1;-1"),
    ];
    assert_eq!(moves("4,0,2,0;0;0", false), pairs(&expected));
    // Under when-stuck there are other moves, so no pass.
    assert_eq!(moves("4,0,2,0;0;0", true), pairs(&expected[..4]));

    // Capturing one's own piece by a placement gives no extra move: 甲
    // places 1 on slot 1 holding 甲's 3, which goes back to 甲's hand.
    // Walking 3 from slot 1 lands on slot 4.
    assert_eq!(
        moves("3,0,0,0;0;0", false),
        pairs(&[("3", "0,0,0,3;1;3"), ("1", "1,0,0,0;1;0"), ("pass", "3,0,0,0;1;-1"),])
    );

    // 乙 walks 2 from slot 4 to slot 2: it becomes fixed, last none. 乙
    // places 4 on slot 4, capturing its own 2: no extra move.
    assert_eq!(
        moves("0,0,0,2;1;0", false),
        pairs(&[("2", "0,2,0,0;0;0"), ("4", "0,0,0,4;0;0"), ("pass", "0,0,0,2;0;-1"),])
    );
}

#[test]
fn bans_and_blocks() {
    // 2 on slot 4 was walked last (from slot 2, empty): 甲 may not walk it.
    assert_eq!(moves("0,0,0,2;0;2", true), pairs(&[("1", "1,0,0,2;1;0"), ("3", "0,0,3,2;1;0")]));
    // 1 on slot 3 would land on slot 4, which holds fixed 4: blocked. 甲
    // places 3 on slot 3, capturing its own 1 (no extra move).
    assert_eq!(moves("0,0,1,4;0;0", true), pairs(&[("3", "0,0,3,4;1;0")]));
    // 甲's 3 (slot 1 -> 4) and 1 (slot 3 -> 4) are blocked by fixed 4, 2
    // and 4 are fixed, 甲's hand is empty: the pass is the only move.
    assert_eq!(moves("3,2,1,4;0;0", true), pairs(&[("pass", "3,2,1,4;1;-1")]));
    // The ban lasts one ply only: after 乙 walks 3 (slot 1 -> 4) and 甲
    // passes, 乙 may walk 3 again (slot 4 -> 3).
    let after_walk = "0,0,0,3;0;3";
    assert!(moves("3,0,0,0;1;0", false).contains(&("3".to_string(), after_walk.to_string())));
    assert!(!moves(after_walk, false).iter().any(|(m, _)| m == "3"));
    let after_pass = "0,0,0,3;1;-1";
    assert!(moves(after_walk, false).contains(&("pass".to_string(), after_pass.to_string())));
    assert!(moves(after_pass, false).contains(&("3".to_string(), "0,0,3,0;0;0".to_string())));
}

#[test]
fn passes_and_game_over() {
    // A pass after a pass ends the game both-lose: last becomes -2.
    assert_eq!(
        moves("2,1,4,3;0;-1", false).last(),
        Some(&("pass".to_string(), "2,1,4,3;1;-2".to_string()))
    );
    // No moves once the game is over: after two passes, with the mover
    // complete (甲 wins), or with both complete (both win).
    for over in ["2,1,4,3;1;-2", "1,0,3,0;0;0", "1,2,3,4;1;0", "1,2,3,4;0;-1"] {
        assert!(moves(over, false).is_empty(), "{over} is over");
        assert!(moves(over, true).is_empty(), "{over} is over");
    }
    // 甲 complete but 乙 to move: 乙 has this ply to complete; the game goes on.
    assert!(!moves("1,0,3,0;1;0", false).is_empty());
}

#[test]
fn terminal_values() {
    // The side to move is complete, the other not: it has won (4, depth 0).
    let sol = ref_solve("1,0,3,0;0;0", false);
    assert_eq!(sol.len(), 1);
    assert_eq!(solved(&sol, "1,0,3,0;0;0"), (4, Some(0)));
    // Both complete: both win (3, depth 0).
    assert_eq!(solved(&ref_solve("1,2,3,4;1;0", false), "1,2,3,4;1;0"), (3, Some(0)));
    // Two passes: both lose (2, depth 0).
    assert_eq!(solved(&ref_solve("2,1,4,3;1;-2", true), "2,1,4,3;1;-2"), (2, Some(0)));
}

#[test]
fn two_placements_short_against_a_complete_opponent_lose() {
    // 乙 is complete (2, 4 fixed); 甲 to move holds 1 and 3 and has nothing
    // to walk. Whatever 甲 does (place 1, place 3 or pass), 乙 starts the next
    // ply complete with 甲 not: 乙 wins. Value 1, depth 1 + max(0, 0, 0) = 1.
    for when_stuck in [false, true] {
        let sol = ref_solve("0,2,0,4;0;0", when_stuck);
        assert_eq!(solved(&sol, "0,2,0,4;0;0"), (1, Some(1)));
        assert_eq!(solved(&sol, "1,2,0,4;1;0"), (4, Some(0)));
    }
}

#[test]
fn one_placement_each_gives_both_win() {
    // 甲 needs 3, 乙 needs 4, nothing can walk; 甲 to move.
    // - 甲 places 3: 乙 to move, 甲 complete. 乙 places 4 (both win) or
    //   passes (甲 wins): 乙 takes both-win, so that state is 3, depth 1.
    // - 甲 passes: 乙 places 4 (then 甲 likewise chooses between completing,
    //   both win, and passing, 乙 wins: 3 at depth 1) or passes again (both
    //   lose): 3 at depth 2.
    // Nobody can force a win; the root is 3 at depth 1 + min(1, 2) = 2.
    let sol = ref_solve("1,2,0,0;0;0", false);
    assert_eq!(solved(&sol, "1,2,0,0;0;0"), (3, Some(2)));
    assert_eq!(solved(&sol, "1,2,3,0;1;0"), (3, Some(1)));
    assert_eq!(solved(&sol, "1,2,3,0;0;-1"), (4, Some(0)));
    assert_eq!(solved(&sol, "1,2,0,0;1;-1"), (3, Some(2)));
    assert_eq!(solved(&sol, "1,2,0,4;0;0"), (3, Some(1)));
    assert_eq!(solved(&sol, "1,2,0,0;0;-2"), (2, Some(0)));
    assert_eq!(solved(&sol, "1,2,3,4;1;0"), (3, Some(0)));
}

#[test]
fn yi_prefers_both_lose_to_losing() {
    // 乙 to move after a pass; 1 fixed, 4 on slot 2, 2 on slot 3, 甲 holds 3.
    // 乙's hand is empty; 2 would land on fixed 1; so 乙 can walk 4 (it
    // leaves the board) or pass (both lose).
    // After walk 4, 甲 places 3 on slot 3 capturing 乙's 2: an extra move
    // that starts with 甲 complete and 乙 not, so 甲 wins (4 at depth 1 for
    // 甲, seen as 1 by 乙). So 乙 passes: 2 at depth 1.
    let sol = ref_solve("1,4,2,0;1;-1", false);
    assert_eq!(
        moves("1,4,2,0;1;-1", false),
        pairs(&[("4", "1,0,2,0;0;0"), ("pass", "1,4,2,0;0;-2")])
    );
    assert_eq!(solved(&sol, "1,4,2,0;1;-1"), (2, Some(1)));
    assert_eq!(solved(&sol, "1,0,2,0;0;0"), (4, Some(1)));
    assert_eq!(solved(&sol, "1,0,3,0;0;0"), (4, Some(0)));

    // Without the previous pass, 乙's pass gives 甲 the same winning
    // placement, so 乙 loses: depth 1 + max(1, 1) = 2.
    let sol = ref_solve("1,4,2,0;1;0", false);
    assert_eq!(solved(&sol, "1,4,2,0;1;0"), (1, Some(2)));
    assert_eq!(solved(&sol, "1,4,2,0;0;-1"), (4, Some(1)));
}

#[test]
fn endless_cycle_is_no_result_when_passing_only_when_stuck() {
    // 8 slots, when-stuck pass rule. 甲 to move; 2, 5, 6, 8 fixed, 1 on slot
    // 4, 4 on slot 7; 甲 holds 3 and 7, 乙 holds nothing.
    // - 1 would land on slot 5 (fixed 5): never walkable here.
    // - 甲 walks 4 (slot 7 -> 3): 乙 has nothing but the banned 4, so passes;
    //   甲 then walks 4 back (slot 3 -> 7), 乙 passes again, and so on forever.
    // - 甲 places 3 (or 7, capturing 4 with an extra move): 甲 is then left
    //   with only 1 on slot 4, stuck, and after the passes 乙 places 4 on slot
    //   4 capturing 1, completing with an extra move: 乙 wins.
    // So 甲 keeps cycling: no end is reachable without a forced loss: 0.
    let root = "0,2,0,1,5,6,4,8;0;-1";
    assert_eq!(
        moves(root, true),
        pairs(&[
            ("4", "0,2,4,1,5,6,0,8;1;4"),
            ("3", "0,2,3,1,5,6,4,8;1;0"),
            ("7", "0,2,0,1,5,6,7,8;0;0"),
        ])
    );
    assert_eq!(moves("0,2,4,1,5,6,0,8;1;4", true), pairs(&[("pass", "0,2,4,1,5,6,0,8;0;-1")]));
    let sol = ref_solve(root, true);
    assert_eq!(solved(&sol, root), (0, None));
    assert_eq!(solved(&sol, "0,2,4,1,5,6,0,8;1;4"), (0, None));
    assert_eq!(solved(&sol, "0,2,4,1,5,6,0,8;0;-1"), (0, None));
    assert_eq!(solved(&sol, "0,2,0,1,5,6,4,8;1;4"), (0, None));
    assert_eq!(solved(&sol, "0,2,3,1,5,6,4,8;1;0").0, 4);
    assert_eq!(solved(&sol, "0,2,0,1,5,6,7,8;0;0").0, 1);
    assert_eq!(solved(&sol, "0,2,3,4,5,6,7,8;1;0"), (4, Some(0)));
}

#[test]
fn example_game_is_legal_and_ends_both_win() {
    // The documented example game from the opening 2,8,11,9,4,12,10,6,5,7,1,3.
    let game = ["6", "3", "10", "11", "8", "9", "2", "1", "6", "9", "12", "7", "10", "5", "4", "7"];
    let mut pos = "2,8,11,9,4,12,10,6,5,7,1,3".to_string();
    for (ply, m) in game.iter().enumerate() {
        let next = moves(&pos, false)
            .into_iter()
            .find(|(t, _)| t == m)
            .unwrap_or_else(|| panic!("ply {}: {m} is not legal in {pos}", ply + 1))
            .1;
        pos = next;
        match ply + 1 {
            // 乙 walks 6 from slot 8 to slot 2, capturing its own 8.
            1 => assert_eq!(pos, "2,6,11,9,4,12,10,0,5,7,1,3;0;6"),
            11 => assert_eq!(pos, "1,2,3,0,10,6,0,8,9,7,11,12;0;0"),
            _ => {}
        }
    }
    // Every piece fixed: both win, the game is over.
    assert_eq!(pos, "1,2,3,4,5,6,7,8,9,10,11,12;1;0");
    assert!(moves(&pos, false).is_empty());
    assert_eq!(solved(&ref_solve(&pos, false), &pos), (3, Some(0)));
}

/// The derangements of 1..=n as interchange text (乙 to move).
fn openings(n: u8) -> Vec<String> {
    fn extend(n: u8, prefix: &mut Vec<u8>, out: &mut Vec<String>) {
        if prefix.len() == n as usize {
            let text: Vec<String> = prefix.iter().map(|p| p.to_string()).collect();
            out.push(text.join(","));
            return;
        }
        let slot = prefix.len() as u8 + 1;
        for p in 1..=n {
            if p != slot && !prefix.contains(&p) {
                prefix.push(p);
                extend(n, prefix, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(n, &mut Vec::new(), &mut out);
    out
}

#[test]
fn solutions_are_consistent_from_every_root() {
    // All 9 openings of 4 slots under both pass rules (ref_solve asserts its
    // own one-ply equations). Solving again from any reached state must give
    // the same value and depth for everything reachable from it: a value
    // depends only on the states below.
    assert_eq!(openings(4).len(), 9);
    for when_stuck in [false, true] {
        for root in openings(4) {
            let sol = ref_solve(&root, when_stuck);
            assert!(sol.contains_key(&format!("{root};1;0")));
            let mut keys: Vec<&String> = sol.keys().collect();
            keys.sort();
            for key in keys.iter().step_by(7) {
                for (k, v) in ref_solve(key, when_stuck) {
                    assert_eq!(sol[&k], v, "{k} from {root} vs from {key}");
                }
            }
        }
    }
}

#[test]
fn six_slot_openings_solve() {
    // Every opening of 6 slots (265 derangements) solves with all internal
    // checks passing. The root value counts (by code 0..=4) were recorded
    // from this reference, not reasoned by hand: a regression anchor.
    assert_eq!(openings(6).len(), 265);
    for (when_stuck, expected) in [(false, [0, 26, 10, 99, 130]), (true, [0, 36, 10, 81, 138])] {
        let mut roots = [0usize; 5];
        for root in openings(6) {
            let sol = ref_solve(&root, when_stuck);
            roots[sol[&format!("{root};1;0")].0 as usize] += 1;
        }
        assert_eq!(roots, expected, "when_stuck = {when_stuck}");
    }
}
