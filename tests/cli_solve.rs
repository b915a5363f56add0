//! Runs the built `chaosclock solve` and checks its output: the documented
//! mid-game position, small boards whose JSON must agree with itself, with
//! `show` (the same moves) and with `play` (the line ends as the value
//! says), finished positions, `--slots`, `--cfg`, and bad input (exit 2, one
//! line on stderr). The 12-slot opening takes seconds and is `#[ignore]`d.

mod common;

use std::path::Path;

use common::bin::{check_fails, fails, json, ok, run, run_in, stdout_of};
use serde_json::Value as Json;

/// The documented mid-game position: 甲 to move, 乙 just walked 7.
const MID_GAME: &str = "4,3,7,11,5,10,12,0,0,2,0,0;0;7";

/// The documented opening (乙 to move).
const OPENING: &str = "2,8,11,9,4,12,10,6,5,7,1,3";

/// `solve POS --json` under `rule`.
fn solve(pos: &str, rule: &str) -> Json {
    json(&["--pass-rule", rule, "solve", pos, "--json"])
}

/// A JSON integer field as u64.
fn int(v: &Json) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("{v} is not an integer"))
}

/// A move's score as (value, depth); depth `None` for no-result.
fn score(m: &Json) -> (u64, Option<u64>) {
    (int(&m["value"]), m["depth"].as_u64())
}

/// How good a score is for the mover, larger is better: the value order
/// of RULES.md (4 > 3 > 2 > 0 > 1), then the shorter win, draw or loss of
/// both, but the longer own loss.
fn preference((value, depth): (u64, Option<u64>)) -> (u64, i64) {
    let rank = [1, 0, 2, 3, 4][value as usize];
    let depth = depth.unwrap_or(0) as i64;
    (rank, if value == 1 { depth } else { -depth })
}

/// The `over` of `play` that the value of the side to move promises.
fn promised_end(value: u64, side: &str) -> &'static str {
    let (me, other) = match side {
        "jia" => ("jia-wins", "yi-wins"),
        "yi" => ("yi-wins", "jia-wins"),
        _ => panic!("side {side}"),
    };
    match value {
        4 => me,
        3 => "both-win",
        2 => "both-lose",
        1 => other,
        _ => panic!("value {value} has no end"),
    }
}

/// Solves `pos` under `rule` and checks that the JSON agrees with itself,
/// with `show` and with `play`; returns it.
fn consistent(pos: &str, rule: &str) -> Json {
    let v = solve(pos, rule);
    let moves = v["moves"].as_array().expect("moves is an array");
    assert!(!moves.is_empty(), "{pos}: a game that goes on has moves");
    assert_eq!(v["over"], Json::Null, "{pos}");
    assert_eq!(v["pass_rule"], rule);
    let (value, depth) = score(&v);
    assert!(value <= 4, "{pos}: value {value}");
    assert_eq!(v["label"], moves[0]["label"], "{pos}");

    // The value and depth are the best move's; moves come best first; the
    // marks follow the first move's score.
    assert_eq!(score(&moves[0]), (value, depth), "{pos}: the best move");
    for pair in moves.windows(2) {
        assert!(
            preference(score(&pair[0])) >= preference(score(&pair[1])),
            "{pos}: {} before {}",
            pair[0],
            pair[1]
        );
    }
    for m in moves {
        assert_eq!(m["best"], score(m) == (value, depth), "{pos}: {m}");
        assert_eq!(m["keeps_value"], int(&m["value"]) == value, "{pos}: {m}");
        assert_eq!(m["depth"].is_null(), int(&m["value"]) == 0, "{pos}: {m}");
    }

    // The same moves, leading to the same positions, as `show` lists.
    let shown = json(&["--pass-rule", rule, "show", pos, "--json"]);
    let pairs = |list: &Json| {
        let mut pairs: Vec<(String, String)> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["move"].to_string(), m["position"].to_string()))
            .collect();
        pairs.sort();
        pairs
    };
    assert_eq!(pairs(&v["moves"]), pairs(&shown["moves"]), "{pos}");
    assert_eq!(v["position"], shown["position"]);
    assert_eq!(v["side"], shown["side"]);

    // The line starts with a best move, has `depth` moves, and ends the game
    // as the value says.
    let line: Vec<&str> =
        v["line"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    if value == 0 {
        assert!(line.is_empty(), "{pos}: no-result has no line");
        return v;
    }
    assert_eq!(Some(line.len() as u64), depth, "{pos}: line {line:?}");
    assert!(
        moves.iter().any(|m| m["best"] == true && m["move"] == line[0]),
        "{pos}: the line starts with {}, not a best move",
        line[0]
    );
    let played = json(&["--pass-rule", rule, "play", pos, "--moves", &line.join(","), "--json"]);
    let side = v["side"].as_str().unwrap();
    assert_eq!(played["over"], promised_end(value, side), "{pos}: value {value}, line {line:?}");
    // Only the last move ends the game (play stops at an illegal move
    // anyway, and a move after the end is illegal).
    let positions = played["positions"].as_array().unwrap();
    let before_end = positions[positions.len() - 2].as_str().unwrap();
    assert_eq!(json(&["show", before_end, "--json"])["over"], Json::Null);
    v
}

#[test]
fn mid_game_is_a_win_for_jia_walking_11() {
    let v = consistent(MID_GAME, "always");
    assert_eq!(v["position"], MID_GAME);
    assert_eq!(v["side"], "jia");
    assert_eq!(v["value"], 4);
    assert_eq!(v["label"], "self-win");
    let walk_11 = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "11")
        .expect("walking 11 is legal");
    assert_eq!(walk_11["kind"], "walk");
    assert_eq!(walk_11["best"], true);
    assert_eq!(walk_11["value"], 4);
    assert_eq!(walk_11["position"], "4,3,11,0,5,10,12,0,0,2,0,0;1;11");
    assert!(int(&v["states"]) > 0 && int(&v["signatures"]) > 0);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);

    let text = ok(&["solve", MID_GAME]);
    assert!(text.contains("\nvalue:    4 己赢 self-win (甲 can force its own win)\n"), "{text}");
    assert!(text.contains("\n  * walk  11  4 己赢 self-win "), "{text}");
    assert!(text.contains("\ngame over: 甲 (odd) wins\n"), "{text}");
}

#[test]
fn small_positions_of_every_value_are_consistent() {
    // (position, pass rule, value): every value but no-result, which no
    // 4- or 6-slot opening has under either rule.
    let cases = [
        ("2,1,4,3", "always", 4),
        ("2,4,1,3", "always", 1),
        ("2,1,4,6,3,5", "always", 3),
        ("2,1,5,6,4,3", "always", 2),
        ("2,1,4,3,6,5", "always", 4),
        ("2,3,5,1,6,4", "always", 1),
        ("2,1,6,5,4,3", "when-stuck", 2),
        ("2,1,4,6,3,5", "when-stuck", 3),
        ("2,3,4,6,1,5", "when-stuck", 1),
    ];
    for (pos, rule, value) in cases {
        let v = consistent(pos, rule);
        assert_eq!(v["value"], value, "{pos} under {rule}");
    }
}

#[test]
fn every_four_slot_opening_is_consistent() {
    let mut openings = 0;
    for a in 1..=4u8 {
        for b in 1..=4 {
            for c in 1..=4 {
                let d = 10 - a - b - c;
                let board = [a, b, c, d];
                let distinct = (1..=4).all(|p| board.contains(&p));
                let deranged = board.iter().zip(1..).all(|(&p, slot)| p != slot);
                if distinct && deranged {
                    openings += 1;
                    let pos = format!("{a},{b},{c},{d}");
                    for rule in ["always", "when-stuck"] {
                        consistent(&pos, rule);
                    }
                }
            }
        }
    }
    assert_eq!(openings, 9, "the derangements of 4");
}

#[test]
fn each_move_scores_as_its_child_solved_alone() {
    let pos = "2,1,4,6,3,5";
    let v = solve(pos, "always");
    for m in v["moves"].as_array().unwrap() {
        let child = solve(m["position"].as_str().unwrap(), "always");
        let again = child["side"] == v["side"];
        let value = match int(&child["value"]) {
            4 if !again => 1,
            1 if !again => 4,
            x => x,
        };
        assert_eq!(int(&m["value"]), value, "{m} vs {child}");
        let depth = child["depth"].as_u64().map(|d| d + 1);
        assert_eq!(m["depth"].as_u64(), depth, "{m} vs {child}");
    }
}

#[test]
fn human_output_of_a_small_opening() {
    let text = ok(&["solve", "2,1,4,3"]);
    let want = "position: 2,1,4,3;1;0
to move:  乙 (even)
value:    4 己赢 self-win (乙 can force its own win)
depth:    7 plies to the end under best play

moves for 乙 (5, pass rule always), best first; * best, = keeps the value:
  * walk   2  4 己赢 self-win        7  0,1,2,3;0;2
    walk   3  2 同输 both-lose       3  2,1,3,0;0;0
    walk   4  1 己输 self-lose       7  2,1,0,3;0;0
    pass      1 己输 self-lose       7  2,1,4,3;0;-1
    walk   1  1 己输 self-lose       4  2,0,1,3;0;1

best line (7 plies): 2 pass 3 pass 4 pass 2
ends at:   0,2,3,4;1;0
game over: 乙 (even) wins

states:      174 reachable (+ 70 double-pass ends)
signatures:  38
";
    assert!(text.starts_with(want), "{text}");
    let stats: Vec<&str> = text[want.len()..].lines().collect();
    assert_eq!(stats.len(), 3, "{text}");
    assert!(stats[0].starts_with("speed:       ") && stats[0].ends_with(" states/s"));
    assert!(stats[1].starts_with("time:        ") && stats[1].contains(" s (enumerate "));
    assert!(stats[2].starts_with("peak memory: "), "{text}");
    if Path::new("/proc/self/status").exists() {
        assert!(stats[2].contains(" MiB (VmHWM), "), "{text}");
        assert!(stats[2].ends_with(" bytes a state"), "{text}");
        let v = solve("2,1,4,3", "always");
        assert!(int(&v["peak_memory_bytes"]) > 0);
        assert!(v["bytes_per_state"].as_f64().is_some_and(|b| b > 0.0), "{v}");
    }

    // Several best moves are all marked.
    let text = ok(&["solve", "0,2,0,4;0"]);
    assert!(text.contains("\nvalue:    1 己输 self-lose (乙 can force its win)\n"));
    assert!(text.contains("\ndepth:    1 ply to the end under best play\n"));
    assert_eq!(text.matches("\n  * ").count(), 3, "{text}");
}

#[test]
fn finished_positions_have_depth_0_and_no_moves() {
    // (position, value, label, over)
    let cases = [
        ("1,2,3,4", 3, "both-win", "both-win"),
        ("1,0,3,0;0", 4, "self-win", "jia-wins"),
        ("1,2,3,0;0", 4, "self-win", "jia-wins"),
        ("2,1,4,3;1;-2", 2, "both-lose", "both-lose"),
        ("1,2,3,4,5,6;0", 3, "both-win", "both-win"),
    ];
    for (pos, value, label, over) in cases {
        let v = solve(pos, "always");
        assert_eq!(v["value"], value, "{pos}");
        assert_eq!(v["label"], label, "{pos}");
        assert_eq!(v["depth"], 0, "{pos}");
        assert_eq!(v["over"], over, "{pos}");
        assert_eq!(v["moves"], serde_json::json!([]), "{pos}");
        assert_eq!(v["line"], serde_json::json!([]), "{pos}");
        let text = ok(&["solve", pos]);
        assert!(text.contains("\ndepth:    0\n"), "{text}");
        assert!(text.contains("; game over: "), "{text}");
        assert!(text.contains("\nno legal moves: the game is over\n"), "{text}");
        assert!(!text.contains("best line"), "{text}");
        // The rules answer: nothing solved (the policy's first source).
        assert!(
            text.ends_with("\nstates:      none solved: the game is over (the rules answer)\n"),
            "{text}"
        );
        assert_eq!((v["states"].as_u64(), v["signatures"].as_u64()), (Some(0), Some(0)), "{pos}");
    }
    let text = ok(&["solve", "1,2,3,4"]);
    assert!(text.contains("\nvalue:    3 共赢 both-win; game over: both win (共赢)\n"));
}

#[test]
fn slots_must_match_the_position() {
    assert_eq!(solve("2,1,4,3", "always")["value"], 4);
    let v = json(&["solve", "2,1,4,3", "--slots", "4", "--json"]);
    assert_eq!(v["value"], 4);
    fails(
        &["solve", "2,1,4,3", "--slots", "6"],
        "--slots 6 does not match the position 2,1,4,3;1;0, which has 4 slots",
    );
    fails(&["solve", OPENING, "--slots", "10", "--json"], "which has 12 slots");
    // Not a number: clap's usage error, also exit 2.
    let out = run(&["solve", "2,1,4,3", "--slots", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_input_exits_2_with_one_line() {
    fails(&["solve", "1,2,3"], "a board has 4, 6, 8, 10 or 12 slots, not 3");
    fails(&["solve", "2,2,4,3", "--json"], "piece 2 stands on two slots");
    fails(&["solve", "2,1,4,3;0;5"], "last move 5 is not a piece");
    fails(&["solve", "0,3,4,0;1;3"], "its origin slot 3 holds piece 4");
    fails(&["solve"], "no position given");
    fails(&["solve", "--cfg", "missing.cfg"], "cannot read cfg file missing.cfg");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.cfg"), "board=0,1,-1,3\n").unwrap();
    let args = ["solve", "2,1,4,3", "--cfg", "c.cfg"];
    check_fails(&args, run_in(dir.path(), &args), "not both");
    let out = run(&["solve", "2,1,4,3", "--pass-rule", "never"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn cfg_file_solves_like_pos() {
    let dir = tempfile::tempdir().unwrap();
    // 乙 to move (cfg side 0 = even): 甲 complete, 乙 must place 2.
    std::fs::write(dir.path().join("c.cfg"), "board=0,1,-1,3\nside-to-move=0\n").unwrap();
    let args = ["solve", "--cfg", "c.cfg", "--json"];
    let from_cfg: Json =
        serde_json::from_str(&stdout_of(&args, run_in(dir.path(), &args))).unwrap();
    assert_eq!(from_cfg["position"], "1,0,3,4;1;0");
    // A cfg file is the original program's: its rule, when-stuck.
    let from_pos = solve("1,0,3,4;1;0", "when-stuck");
    for key in ["pass_rule", "value", "depth", "moves", "line", "states"] {
        assert_eq!(from_cfg[key], from_pos[key], "{key}");
    }
}

/// The documented opening: both-win, reached only by walking 6 (5-10 s).
#[test]
#[ignore = "solves the 12-slot opening (about 21 million states, seconds)"]
fn the_opening_is_both_win_by_walking_6() {
    let v = consistent(OPENING, "always");
    assert_eq!(v["value"], 3);
    assert_eq!(v["states"], 20_971_954);
    let best: Vec<&Json> =
        v["moves"].as_array().unwrap().iter().filter(|m| m["keeps_value"] == true).collect();
    assert_eq!(best.len(), 1, "only walking 6 keeps both-win");
    assert_eq!(best[0]["move"], "6");
}
