//! Runs the built `chaosclock` binary in a temporary directory and checks
//! its output: `show` and `play`, human and JSON, on the documented opening
//! and example game, `--cfg`, `--pass-rule`, and that every kind of bad input
//! exits with code 2 and one line on stderr, never a panic.

mod common;

use std::process::{Command, Stdio};

use common::bin::{check_fails, fails, json, ok, run, run_in, stdout_of};
use serde_json::Value as Json;

/// The documented opening (乙 to move).
const OPENING: &str = "2,8,11,9,4,12,10,6,5,7,1,3";

/// The documented example game from [`OPENING`]; it ends both-win.
const GAME: &str = "6,3,10,11,8,9,2,1,6,9,12,7,10,5,4,7";

#[test]
fn show_draws_the_opening() {
    let want = "            12:3
       11:1       1:2
   10:7               2:8

   9:5                3:11

    8:6               4:9
       7:10       5:4
            6:12
(slot:piece, slots 1-12 clockwise, slot 12 at the top; [n] fixed, . empty)
position: 2,8,11,9,4,12,10,6,5,7,1,3;1;0
hands:    甲 (odd): -   乙 (even): -
to move:  乙 (even)
banned:   none
game:     goes on

legal moves for 乙 (13, pass rule always):
  walk   2  takes 11                       0,8,2,9,4,12,10,6,5,7,1,3;0;2
  walk   8  takes 7                        2,0,11,9,4,12,10,6,5,8,1,3;0;8
  walk  11  takes 8                        2,11,0,9,4,12,10,6,5,7,1,3;0;11
  walk   9  takes 2                        9,8,11,0,4,12,10,6,5,7,1,3;0;9
  walk   4  takes 5                        2,8,11,9,0,12,10,6,4,7,1,3;0;4
  walk  12  leaves the board               2,8,11,9,4,0,10,6,5,7,1,3;0;0
  walk  10  takes 4                        2,8,11,9,10,12,0,6,5,7,1,3;0;10
  walk   6  takes 8                        2,6,11,9,4,12,10,0,5,7,1,3;0;6
  walk   5  takes 8                        2,5,11,9,4,12,10,6,0,7,1,3;0;5
  walk   7  takes 4                        2,8,11,9,7,12,10,6,5,0,1,3;0;7
  walk   1  takes 3                        2,8,11,9,4,12,10,6,5,7,0,1;0;1
  walk   3  takes 11, fixed                2,8,3,9,4,12,10,6,5,7,1,0;0;0
  pass                                     2,8,11,9,4,12,10,6,5,7,1,3;0;-1
";
    assert_eq!(ok(&["show", OPENING]), want);
}

#[test]
fn show_json_of_the_opening() {
    let v = json(&["show", OPENING, "--json"]);
    assert_eq!(v["position"], "2,8,11,9,4,12,10,6,5,7,1,3;1;0");
    assert_eq!(v["side"], "yi");
    assert_eq!(v["over"], Json::Null);
    assert_eq!(v["banned"], Json::Null);
    assert_eq!(v["slots"], serde_json::json!([2, 8, 11, 9, 4, 12, 10, 6, 5, 7, 1, 3]));
    assert_eq!(v["hands"], serde_json::json!({"jia": [], "yi": []}));
    let moves = v["moves"].as_array().expect("moves is an array");
    assert_eq!(moves.len(), 13, "12 walks and a pass");
    assert!(moves.contains(&serde_json::json!({
        "move": "6", "kind": "walk", "side": "yi", "captures": 8, "extra_move": false,
        "over": null, "position": "2,6,11,9,4,12,10,0,5,7,1,3;0;6"
    })));
    assert_eq!(moves[12]["kind"], "pass");
    assert_eq!(moves[12]["position"], "2,8,11,9,4,12,10,6,5,7,1,3;0;-1");
}

#[test]
fn show_json_after_eleven_moves_of_the_game() {
    let v = json(&["show", "1,2,3,0,10,6,0,8,9,7,11,12;0;0", "--json"]);
    assert_eq!(v["side"], "jia");
    assert_eq!(v["hands"], serde_json::json!({"jia": [5], "yi": [4]}));
    assert_eq!(v["fixed"], serde_json::json!([1, 2, 3, 6, 8, 9, 11, 12]));
    let moves: Vec<(String, String)> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["move"].as_str().unwrap().into(), m["kind"].as_str().unwrap().into()))
        .collect();
    let want = [("7", "walk"), ("5", "place"), ("pass", "pass")];
    assert_eq!(moves, want.map(|(a, b)| (a.to_string(), b.to_string())));
    // Placing 5 captures 乙's 10: 甲 moves again.
    assert_eq!(v["moves"][1]["extra_move"], true);
    assert_eq!(v["moves"][1]["position"], "1,2,3,0,5,6,0,8,9,7,11,12;0;0");
}

#[test]
fn play_the_example_game() {
    let want = "  0  start                    2,8,11,9,4,12,10,6,5,7,1,3;1;0
  1  乙 walk 6 takes 8        2,6,11,9,4,12,10,0,5,7,1,3;0;6
  2  甲 walk 3 takes 11       2,6,3,9,4,12,10,0,5,7,1,0;1;0
  3  乙 walk 10 takes 4       2,6,3,9,10,12,0,0,5,7,1,0;0;10
  4  甲 place 11 takes 1      2,6,3,9,10,12,0,0,5,7,11,0;1;0
  5  乙 place 8               2,6,3,9,10,12,0,8,5,7,11,0;0;0
  6  甲 walk 9 takes 2        9,6,3,0,10,12,0,8,5,7,11,0;1;9
  7  乙 place 2 takes 6       9,2,3,0,10,12,0,8,5,7,11,0;0;0
  8  甲 place 1 takes 9       1,2,3,0,10,12,0,8,5,7,11,0;1;0
  9  乙 place 6 takes 12      1,2,3,0,10,6,0,8,5,7,11,0;0;0
 10  甲 place 9 takes 5       1,2,3,0,10,6,0,8,9,7,11,0;1;0
 11  乙 place 12              1,2,3,0,10,6,0,8,9,7,11,12;0;0
 12  甲 walk 7 takes 10       1,2,3,0,7,6,0,8,9,0,11,12;1;7
 13  乙 place 10              1,2,3,0,7,6,0,8,9,10,11,12;0;0
 14  甲 place 5 takes 7       1,2,3,0,5,6,0,8,9,10,11,12;1;0
 15  乙 place 4               1,2,3,4,5,6,0,8,9,10,11,12;0;0
 16  甲 place 7               1,2,3,4,5,6,7,8,9,10,11,12;1;0
game over: both win (共赢)
";
    assert_eq!(ok(&["play", OPENING, "--moves", GAME]), want);
}

#[test]
fn play_json_of_the_example_game() {
    let v = json(&["play", OPENING, "--moves", GAME, "--json"]);
    let positions = v["positions"].as_array().expect("positions is an array");
    assert_eq!(positions.len(), 17, "the start and one per move");
    assert_eq!(positions[0], "2,8,11,9,4,12,10,6,5,7,1,3;1;0");
    assert_eq!(positions[1], "2,6,11,9,4,12,10,0,5,7,1,3;0;6");
    assert_eq!(positions[11], "1,2,3,0,10,6,0,8,9,7,11,12;0;0");
    assert_eq!(positions[16], "1,2,3,4,5,6,7,8,9,10,11,12;1;0");
    assert_eq!(v["over"], "both-win");
    assert_eq!(
        v["moves"][0],
        serde_json::json!({
            "move": "6", "kind": "walk", "side": "yi", "captures": 8, "extra_move": false,
            "over": null, "position": "2,6,11,9,4,12,10,0,5,7,1,3;0;6"
        })
    );
    assert_eq!(v["moves"][4]["kind"], "place");
    // Each move leads to the next position, and the last one ends the game.
    let moves = v["moves"].as_array().expect("moves is an array");
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["position"], positions[i + 1], "move {}", i + 1);
    }
    assert_eq!(moves[15]["over"], "both-win");
    // Every position printed is one `show` accepts, and it agrees on the end.
    let end = json(&["show", positions[16].as_str().unwrap(), "--json"]);
    assert_eq!(end["over"], "both-win");
    assert_eq!(end["moves"], serde_json::json!([]));
}

#[test]
fn play_without_moves_prints_the_start() {
    assert_eq!(
        ok(&["play", OPENING]),
        "  0  start                    2,8,11,9,4,12,10,6,5,7,1,3;1;0\n乙 (even) to move\n"
    );
    let v = json(&["play", "2,1,4,3;0", "--json"]);
    assert_eq!(v["positions"], serde_json::json!(["2,1,4,3;0;0"]));
    assert_eq!(v["over"], Json::Null);
    assert_eq!(v["side"], "jia");
}

#[test]
fn two_passes_end_the_game_both_lose() {
    let v = json(&["play", "2,1,4,3", "--moves", "pass,PASS", "--json"]);
    assert_eq!(v["positions"], serde_json::json!(["2,1,4,3;1;0", "2,1,4,3;0;-1", "2,1,4,3;1;-2"]));
    assert_eq!(v["over"], "both-lose");
    let text = ok(&["play", "2,1,4,3", "--moves", "1,pass,pass"]);
    assert!(text.contains("\n  2  甲 pass                  2,0,1,3;1;-1\n"), "{text}");
    assert!(text.ends_with("\ngame over: both lose (同输)\n"), "{text}");
    let v = json(&["show", "2,1,4,3;1;-2", "--json"]);
    assert_eq!(v["over"], "both-lose");
    assert_eq!(v["last"], "double-pass");
    assert!(ok(&["show", "2,1,4,3;1;-2"]).ends_with("no legal moves: the game is over\n"));
}

#[test]
fn cfg_file_is_read_like_the_interchange_format() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = "# written by the desktop program\nplayer-even=human\nside-to-move=0\n\
               board=3, 2, 8, 11, 9, 4, 0, 10, 6, 5, 7, 1\nlast-move=-2\n\
               even-has-won=0\nodd-has-won=0\n";
    std::fs::write(dir.path().join("chaosclock.cfg"), cfg).unwrap();
    // A cfg file comes from the original program: its rule, when-stuck, by
    // default, and always when asked for.
    let args = ["show", "--cfg", "chaosclock.cfg"];
    let stuck = ok(&["show", OPENING, "--pass-rule", "when-stuck"]);
    assert_eq!(stdout_of(&args, run_in(dir.path(), &args)), stuck);
    let args = ["show", "--cfg", "chaosclock.cfg", "--pass-rule", "always"];
    assert_eq!(stdout_of(&args, run_in(dir.path(), &args)), ok(&["show", OPENING]));
    let args = ["play", "--cfg", "chaosclock.cfg", "--moves", "6", "--json"];
    let v: Json = serde_json::from_str(&stdout_of(&args, run_in(dir.path(), &args))).unwrap();
    assert_eq!(v["positions"][1], "2,6,11,9,4,12,10,0,5,7,1,3;0;6");
    // 甲 to move after a pass (cfg side 1 = odd, last -1 = pass).
    std::fs::write(dir.path().join("pass.cfg"), "board=0,1,-1,3\nside-to-move=1\nlast-move=-1\n")
        .unwrap();
    let args = ["show", "--json", "--cfg", "pass.cfg"];
    let v: Json = serde_json::from_str(&stdout_of(&args, run_in(dir.path(), &args))).unwrap();
    assert_eq!(v["position"], "1,0,3,4;0;-1");
    for command in ["show", "solve", "play"] {
        let args = [command, "--json", "--cfg", "pass.cfg"];
        let v: Json = serde_json::from_str(&stdout_of(&args, run_in(dir.path(), &args))).unwrap();
        assert_eq!(v["pass_rule"], "when-stuck", "{command} --cfg");
    }
}

#[test]
fn pass_rule_when_stuck() {
    let v = json(&["--pass-rule", "when-stuck", "show", OPENING, "--json"]);
    assert_eq!(v["pass_rule"], "when-stuck");
    assert_eq!(v["moves"].as_array().unwrap().len(), 12, "no pass while walks exist");
    // 甲's 3 and 1 would both land on fixed 4 and its hand is empty: stuck.
    // 乙 is complete, so after the pass 乙 wins.
    let v = json(&["show", "3,2,1,4;0", "--pass-rule", "when-stuck", "--json"]);
    assert_eq!(
        v["moves"],
        serde_json::json!([{
            "move": "pass", "kind": "pass", "side": "jia", "captures": null,
            "extra_move": false, "over": "yi-wins", "position": "3,2,1,4;1;-1"
        }])
    );
    ok(&["play", "3,2,1,4;0", "--moves", "pass", "--pass-rule", "when-stuck"]);
}

#[test]
fn smaller_boards_are_drawn_too() {
    let text = ok(&["show", "1,0,3,0;1"]);
    assert!(text.starts_with("         4:.\n\n  3:[3]       1:[1]\n\n         2:.\n"), "{text}");
    assert!(text.contains("game:     goes on; 甲 (odd) is complete"), "{text}");
    for pos in ["2,1,4,3,6,5", "2,1,4,3,6,5,8,7", "2,1,4,3,6,5,8,7,10,9"] {
        let v = json(&["show", pos, "--json"]);
        assert_eq!(v["over"], Json::Null, "{pos}");
        ok(&["show", pos]);
    }
}

#[test]
fn bad_positions_exit_2_with_one_line() {
    fails(&["show", "1,2,3"], "a board has 4, 6, 8, 10 or 12 slots, not 3");
    fails(&["show", "2,8,11,9,4,12,10,6,5,7,1"], "not 11");
    fails(&["show", "2,2,11,9,4,12,10,6,5,7,1,3"], "piece 2 stands on two slots");
    fails(&["show", "2,8,13,9,4,12,10,6,5,7,1,3"], "slot 3 holds 13");
    fails(&["show", "2,8,-3,9,4,12,10,6,5,7,1,3"], "slot 3 holds -3");
    fails(&["show", "2,8,11,9,4,12,10,6,5,7,1,3;2"], "side '2' must be 0");
    fails(&["show", "2,1,4,3;yi"], "side 'yi' must be 0");
    fails(&["show", "0,3,4,0;1;3"], "its origin slot 3 holds piece 4");
    fails(&["show", "2,1,4,3;0;5"], "last move 5 is not a piece");
    fails(&["show", "2,1,4,3;0;-3"], "last move -3");
    fails(&["show", "2,8,x,9,4,12,10,6,5,7,1,3"], "board entry 'x' is not a number");
    fails(&["show", "2,1,4,3;0;z"], "last entry 'z' is not a number");
    fails(&["show", "2,1,4,3;0;0;0"], "found 4 parts");
    fails(&["show", ""], "board entry '' is not a number");
    fails(
        &["play", "99999999999999999999,1,4,3"],
        "slot 1 holds 99999999999999999999, which is not a piece",
    );
    // The message names the position once, not twice.
    let out = run(&["show", "2,2,4,3"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("stands on two slots").count(), 1, "{stderr}");
}

#[test]
fn missing_or_double_position_exits_2() {
    fails(&["show"], "no position given");
    fails(&["play", "--moves", "6"], "no position given");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.cfg"), "board=0,1,-1,3\n").unwrap();
    let args = ["show", "2,1,4,3", "--cfg", "c.cfg"];
    check_fails(&args, run_in(dir.path(), &args), "not both");
}

#[test]
fn bad_cfg_files_exit_2() {
    fails(&["show", "--cfg", "missing.cfg"], "cannot read cfg file missing.cfg");
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("no-board.cfg", "depth=3\n", "cfg has no 'board=' line"),
        ("nan.cfg", "board=0,1,x,3\n", "cfg board value 'x' is not a number"),
        ("range.cfg", "board=4,1,-1,3\n", "cfg board=4 is out of range"),
        (
            "twice.cfg",
            "board=0,1,1,3\n",
            "cfg file twice.cfg: cfg board: piece 1 stands on two slots",
        ),
        ("side.cfg", "board=0,1,-1,3\nside-to-move=2\n", "cfg side-to-move=2 is out of range"),
        ("won.cfg", "board=0,2,-1,-1\nodd-has-won=1\n", "odd-has-won=1"),
        ("size.cfg", "board=0,1,2\n", "not 3"),
    ];
    for (name, text, want) in cases {
        std::fs::write(dir.path().join(name), text).unwrap();
        let args = ["show", "--cfg", name];
        check_fails(&args, run_in(dir.path(), &args), want);
        let args = ["show", "--cfg", name];
        let out = run_in(dir.path(), &args);
        assert!(String::from_utf8_lossy(&out.stderr).contains(name), "names the file");
    }
    // Not UTF-8.
    std::fs::write(dir.path().join("bin.cfg"), [0xff, 0xfe, 0x00, 0x80]).unwrap();
    let args = ["show", "--cfg", "bin.cfg"];
    check_fails(&args, run_in(dir.path(), &args), "cfg file bin.cfg is not UTF-8 text (byte 1)");
}

#[test]
fn illegal_moves_exit_2_naming_number_move_and_rule() {
    // Fixed piece: 3 stands on slot 3.
    fails(
        &["play", "1,0,3,0;1", "--moves", "3"],
        "move 1 '3' is illegal in 1,0,3,0;1;0: piece 3 is fixed",
    );
    // Banned piece: 乙 walked 6, 甲 may not walk it back.
    fails(
        &["play", OPENING, "--moves", "6,6"],
        "move 2 '6' is illegal in 2,6,11,9,4,12,10,0,5,7,1,3;0;6: piece 6 was walked on the previous ply",
    );
    // Walk onto a fixed piece: 1 on slot 3 would land on slot 4, holding 4.
    fails(
        &["play", "0,0,1,4;0", "--moves", "1"],
        "piece 1 would land on slot 4, which holds a fixed piece",
    );
    // Placing the opponent's piece: 2 is in 乙's hand, 甲 to move.
    fails(&["play", "0,0,3,0;0", "--moves", "2"], "piece 2 is in the opponent's hand");
    // A move after the game is over (after the example game, and after two passes).
    let moves = format!("{GAME},1");
    fails(&["play", OPENING, "--moves", &moves], "move 17 '1' is illegal");
    fails(&["play", OPENING, "--moves", &moves], "the game is over, both win");
    fails(
        &["play", "2,1,4,3", "--moves", "pass,pass,2"],
        "move 3 '2' is illegal in 2,1,4,3;1;-2: the game is over, both lose",
    );
    // Pass under when-stuck while walks exist.
    fails(
        &["play", OPENING, "--moves", "pass", "--pass-rule", "when-stuck"],
        "move 1 'pass' is illegal",
    );
    fails(
        &["--pass-rule", "when-stuck", "play", OPENING, "--moves", "6,pass"],
        "passing is allowed only when no other move is legal",
    );
    // No such piece, and texts that are not moves.
    fails(&["play", OPENING, "--moves", "13"], "there is no piece 13 on this board");
    fails(&["play", OPENING, "--moves", "6,x"], "move 2: 'x' is not a move");
    fails(&["play", OPENING, "--moves", "0"], "move 1: '0' is not a move");
    fails(&["play", OPENING, "--moves", "-1"], "move 1: '-1' is not a move");
    fails(&["play", OPENING, "--moves", "6,,3"], "move 2: '' is not a move");
}

#[test]
fn bad_flags_exit_2_without_panic() {
    for args in [
        &["show", OPENING, "--pass-rule", "never"][..],
        &["show", OPENING, "--frobnicate"],
        &["dance"],
        &[],
        &["play", OPENING, "--moves"],
    ] {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.is_empty(), "{args:?}: clap says what is wrong");
    }
    let help = ok(&["--help"]);
    assert!(help.contains("show") && help.contains("play") && help.contains("--pass-rule"));
}

#[test]
fn closed_stdout_exits_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaosclock"))
        .args(["play", OPENING, "--moves", GAME])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the chaosclock binary runs");
    // Close the read end at once: the write fails with a broken pipe (or, if
    // the child was quicker, succeeds into the pipe buffer); both are quiet.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

/// Issue 24's audit: a byte-order mark is skipped, a bare `chaosclock`
/// lists the commands, an output that is a directory leaves nothing
/// behind, and `--slots 0` is named as a bad size.
#[test]
fn audit_leftovers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bom = "\u{feff}2,1,4,3";
    let out = common::bin::run_in(d, &["show", bom]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out =
        common::bin::run_with(d, &["query", "-", "--no-solve"], "\u{feff}2,1,4,3\n".as_bytes());
    let line = String::from_utf8(out.stdout).unwrap();
    assert!(line.starts_with("{\"input\":\"2,1,4,3\",\"position\":\"2,1,4,3;1;0\""), "{line}");
    let out = common::bin::run_in(d, &[]);
    assert_eq!(out.status.code(), Some(2));
    let help = String::from_utf8_lossy(&out.stderr);
    assert_eq!(help.lines().count(), 1, "{help}");
    assert!(help.starts_with("error: no command given: use one of show, play,"), "{help}");
    assert!(help.contains("openings") && help.ends_with(" (see --help)\n"), "{help}");
    std::fs::create_dir(d.join("list")).unwrap();
    let args = ["openings", "--slots", "6", "--both-win", "--output", "list"];
    let out = common::bin::run_in(d, &args);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: cannot write list: it is a directory\n"
    );
    assert!(!d.join("list.tmp").exists());
    let out = common::bin::run_in(d, &["solve", "2,1,4,3", "--slots", "0"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: invalid value '0' for '--slots <N>': a board has 4, 6, 8, 10 or 12 slots, not 0 (see --help)\n"
    );
}

/// Issue 24: clap's tips survive the one-line error, and flags that read
/// a file refuse what is not a small regular file at once.
#[test]
fn tips_and_files_that_are_not_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let err = |args: &[&str]| {
        let out = common::bin::run_in(d, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8(out.stderr).unwrap();
        assert_eq!(e.lines().count(), 1, "{e}");
        e
    };
    assert!(err(&["sovle"]).contains("tip: some similar subcommands exist: 'serve', 'solve'"));
    assert!(err(&["show", "-1,2,3,4"]).contains("use '-- -1'"));
    // A negative number after a flag that takes one: the problem named,
    // not clap's tip to write '-- -5'.
    for (flag, cmd) in
        [("--budget <STATES>", "query"), ("--queue <N>", "serve"), ("--sample <K>", "openings")]
    {
        let e = err(&[cmd, flag.split(' ').next().unwrap(), "-5"]);
        assert_eq!(
            e,
            format!(
                "error: invalid value '-5' for '{flag}': a negative number is never allowed here (see --help)\n"
            )
        );
    }
    let start = std::time::Instant::now();
    for args in [
        &["verify", "--manifest", "/dev/zero"][..],
        &["book", "--book", "/dev/zero"],
        &["manifest", "--slots", "4", "--file-log", "/dev/zero"],
        &["manifest", "--slots", "4", "--run-log", "/dev/zero"],
    ] {
        assert!(err(args).contains("/dev/zero is not a regular file"), "{args:?}");
    }
    assert!(start.elapsed().as_secs() < 10);
    // A tables root that is a file is refused by every command that takes
    // one, before any work.
    std::fs::write(d.join("afile"), "x").unwrap();
    for args in [
        &["generate", "--slots", "4", "--tables", "afile"][..],
        &["query", "2,1,4,3", "--tables", "afile"],
        &["solve", "2,1,4,3", "--tables", "afile"],
        &["verify", "--tables", "afile"],
        &["openings", "--slots", "4", "--tables", "afile"],
        &["serve", "--tables", "afile"],
    ] {
        let e = err(args);
        assert!(e.contains("invalid value 'afile' for '--tables <DIR>': not a directory"), "{e}");
    }
}

/// Issue 24: a values-only file copied into a directory of tables with
/// depths is the file named, not the healthy file opened after it.
#[test]
fn a_foreign_file_is_the_one_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    common::bin::ok_in(d, &["generate", "--slots", "6", "--tables", "a"]);
    common::bin::ok_in(d, &["generate", "--slots", "6", "--values-only", "--tables", "b"]);
    std::fs::copy(d.join("b/n6-always/f0000.cctb"), d.join("a/n6-always/f0000.cctb")).unwrap();
    let want = "error: corrupt table a/n6-always/f0000.cctb: it holds values only, compressed but the other 39 tables of a/n6-always hold depths";
    for args in [
        &["query", "2,1,4,3,6,5", "--tables", "a", "--no-solve"][..],
        &["verify", "--slots", "6", "--tables", "a"],
    ] {
        let out = common::bin::run_in(d, args);
        // `verify` says the tables are wrong (1); `query` cannot answer (2).
        assert_eq!(out.status.code(), Some(if args[0] == "verify" { 1 } else { 2 }), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with(want), "{args:?}: {err}");
    }
    let out = common::bin::run_in(d, &["generate", "--slots", "6", "--tables", "a"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("f0000.cctb holds values only") && err.contains("remove it"), "{err}");
}
