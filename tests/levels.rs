//! The engines of levels 1 to 8 (docs/levels.md): level 8 plays a best
//! move, every level is deterministic given its seed and never plays an
//! illegal move, the levels are ordered in play, and `match` and
//! `play --level` work from the command line.

mod common;

use chaosclock::engine::{Engine, GameEnd, Level, opening, play_game};
use chaosclock::solve::solve;
use chaosclock::{Outcome, PassRule, Score, Side, Value};
use common::bin::{fails, json, ok};
use common::{Rng, random_position};
use serde_json::Value as Json;

#[test]
fn levels_are_one_to_eight() {
    assert_eq!(Level::new(0), None);
    assert_eq!(Level::new(9), None);
    assert_eq!(Level::all().map(Level::get).collect::<Vec<_>>(), (1..=8).collect::<Vec<_>>());
}

#[test]
fn level_8_plays_a_best_move_and_every_level_a_legal_one() {
    let mut rng = Rng(11);
    for _ in 0..40 {
        let pos = random_position(&mut rng, 8, 2);
        if pos.outcome().is_some() {
            continue;
        }
        let solution = solve(&pos, PassRule::Always, None);
        let moves = solution.moves(&pos).unwrap();
        let best = moves[0].score;
        for level in Level::all() {
            for seed in 0..3 {
                let mv = Engine::new(level, seed).choose(&pos, &moves).expect("a move");
                let m = moves.iter().find(|m| m.mv == mv).expect("one of the legal moves");
                if level == Level::PERFECT {
                    assert_eq!(m.score, best, "{pos}: level 8 played {mv}");
                }
                // The same seed, the same move.
                assert_eq!(Engine::new(level, seed).choose(&pos, &moves), Some(mv));
            }
        }
    }
}

/// Level `a`'s score against level `b` over `openings` openings of 8
/// slots, both sides in turn, scored as `match` scores.
fn score(a: Level, b: Level, openings: u64) -> f64 {
    let mut points = 0.0;
    let mut games = 0.0;
    for o in 0..openings {
        let start = opening(8, 1000 + o, o % 2 == 0).unwrap();
        let solution = solve(&start, PassRule::Always, None);
        for a_side in [Side::Yi, Side::Jia] {
            let mut ea = Engine::new(a, o * 7 + 1);
            let mut eb = Engine::new(b, o * 7 + 2);
            let engines = if a_side == Side::Jia { [&mut ea, &mut eb] } else { [&mut eb, &mut ea] };
            let game = play_game(&solution, start, engines).unwrap();
            points += match game.end {
                GameEnd::Over(Outcome::Win(s)) if s == a_side => 1.0,
                GameEnd::Over(Outcome::Win(_)) => 0.0,
                _ => 0.5,
            };
            games += 1.0;
        }
    }
    points / games
}

#[test]
fn stronger_levels_score_more() {
    // Far apart levels, so that 60 games decide it whatever the seeds.
    let s81 = score(Level::PERFECT, Level::MIN, 30);
    assert!(s81 > 0.8, "level 8 against level 1: {s81}");
    let s61 = score(Level::new(6).unwrap(), Level::MIN, 30);
    let s36 = score(Level::new(3).unwrap(), Level::new(6).unwrap(), 30);
    assert!(s61 > 0.65 && s36 < 0.35, "6 vs 1: {s61}, 3 vs 6: {s36}");
}

#[test]
fn match_prints_a_table_and_json() {
    let text = ok(&["match", "--slots", "6", "--openings", "4", "--levels", "1,4,8"]);
    assert!(text.contains("score of the row against the column"), "{text}");
    assert!(text.contains("8 vs 1:"), "{text}");
    let doc = json(&["match", "--slots", "6", "--openings", "4", "--levels", "1,8", "--json"]);
    assert_eq!(doc["games"], 8);
    assert_eq!(doc["pairs"][0]["first"], 1);
    assert_eq!(doc["ratings"].as_array().unwrap().len(), 2);
    // --repeat: each pair plays each opening again, with other seeds.
    let args = ["match", "--slots", "6", "--openings", "4", "--levels", "1,8", "--repeat", "3"];
    let again = json(&[&args[..], &["--json"]].concat());
    assert_eq!((again["games"].as_u64(), again["repeat"].as_u64()), (Some(24), Some(3)));
    assert!(
        ok(&args).contains("4 openings (2 fair starts, 2 random, each played 3 times), 24 games")
    );
    // The ladder: adjacent levels only.
    let ladder = json(&["match", "--slots", "6", "--openings", "2", "--ladder", "--json"]);
    assert_eq!(ladder["pairs"].as_array().unwrap().len(), 7);
}

#[test]
fn match_accuracy_orders_the_levels() {
    // Issue 65: each level's accuracy and blunder rate in positions from
    // engine games; on 8 slots accuracy rises and the blunder rate falls
    // from each level to the next, and in the first plies from fair
    // starts levels 1 to 3 throw a won or both-win position away far more
    // often than levels 6 and 7, by more than 25 points (docs/levels.md,
    // 40 openings here: 50.6% against 19.3%; without the floors 49.6%
    // against 26.3%, which fails).
    let text = ok(&["match", "--slots", "8", "--accuracy", "--openings", "40"]);
    assert!(text.starts_with("accuracy of the levels on 8 slots: "), "{text}");
    let rows: Vec<Vec<f64>> = text
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| level"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            cells[2..7].iter().map(|c| c.trim_end_matches('%').parse::<f64>().unwrap()).collect()
        })
        .collect();
    assert_eq!(rows.len(), 8, "{text}");
    assert!(rows.windows(2).all(|w| w[0][0] < w[1][0] && w[0][1] > w[1][1]), "{text}");
    assert_eq!(rows[7], [100.0, 0.0, 100.0, 0.0, 0.0], "level 8 is perfect");
    let fair_early_blunders = |level: usize| rows[level - 1][4];
    let weakest_strong = fair_early_blunders(6).max(fair_early_blunders(7));
    for level in 1..=3 {
        assert!(fair_early_blunders(level) > weakest_strong + 25.0, "{text}");
    }
}

#[test]
fn match_skips_an_opening_over_the_budget() {
    // Openings 0 to 2 of seed 1 on 6 slots reach fewer than 3,000 states,
    // 3 to 5 more.
    let args = ["match", "--slots", "6", "--openings", "6", "--levels", "1,8", "--budget", "3000"];
    let out = common::bin::run(&args);
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let text = String::from_utf8_lossy(&out.stdout);
    for o in 3..6 {
        assert!(stderr.contains(&format!("opening {o} (")), "{stderr}");
    }
    assert_eq!(stderr.matches("skipped, more than 3000 states (at least ").count(), 3, "{stderr}");
    assert!(
        text.starts_with(
            "match: 6 slots, levels 1,8, 3 openings (2 fair starts, 1 random, 3 skipped over the budget of 3000 states), 6 games,"
        ),
        "{text}"
    );
    let out = common::bin::run(&[&args[..], &["--json"]].concat());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!((doc["openings"].as_u64(), doc["skipped"].as_u64()), (Some(3), Some(3)));
    assert_eq!(doc["games"], 6);
    // Every opening over it: an error after the notes, not an empty
    // table. At 12 slots an opening reaches millions of states.
    for (args, want) in [
        (&["match", "--slots", "6", "--openings", "6", "--budget", "100"][..], 6),
        (
            &["match", "--slots", "12", "--openings", "1", "--levels", "1,8", "--budget", "100000"],
            1,
        ),
    ] {
        let out = common::bin::run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{stderr}");
        assert_eq!(stderr.matches(": skipped, more than ").count(), want, "{stderr}");
        let budget = args[args.len() - 1];
        assert!(
            stderr.ends_with(&format!(
                "\nerror: every opening was over the budget of {budget} states: raise --budget\n"
            )),
            "{stderr}"
        );
    }
}

#[test]
fn play_level_plays_a_move() {
    let text = ok(&["play", "2,1,4,3,6,5,8,7", "--moves", "2", "--level", "3"]);
    assert!(text.trim_end().lines().last().unwrap().starts_with("level 3 plays "), "{text}");
    let doc = json(&["play", "2,1,4,3,6,5,8,7", "--level", "8", "--json"]);
    assert_eq!(doc["engine"]["level"], 8);
    assert!(doc["engine"]["move"].is_string());
    let over = ok(&["play", "1,0,3,0;0;0", "--level", "8"]);
    assert!(over.trim_end().ends_with("level 8: the game is over"), "{over}");
}

#[test]
fn bad_levels_are_one_line() {
    fails(&["play", "2,1,4,3", "--level", "9"], "9");
    fails(&["play", "2,1,4,3", "--level", "0"], "0");
    fails(&["match", "--levels", "3"], "at least two different levels");
    fails(&["match", "--openings", "0"], "at least 1");
}

/// Issue 65: levels 1 to 7 see a value through its depth, which tables of
/// values only do not give. With such tables `/api/engine-move` gets the
/// depths from a small solve, so every level plays the move it plays on a
/// server that solves, on random 8-slot positions of every phase.
#[test]
fn engine_moves_with_values_only_tables_are_those_of_a_server_that_solves() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    common::bin::ok_in(d, &["generate", "--slots", "8", "--values-only", "--tables", "values"]);
    std::fs::create_dir(d.join("none")).unwrap();
    let values = common::server::Server::start(d, &["--tables", "values"]);
    let solving = common::server::Server::start(d, &["--tables", "none"]);
    let mut rng = Rng(65);
    let (mut compared, mut choices) = (0, 0);
    for k in 0..30 {
        let pos = random_position(&mut rng, 8, k % 4);
        if pos.outcome().is_some() {
            continue;
        }
        let answer = values.ok(&format!("/api/position?pos={pos}"));
        assert_eq!((&answer["source"], &answer["depth"]), (&"tables".into(), &Json::Null));
        for level in 1..=7 {
            let query = format!("/api/engine-move?pos={pos}&level={level}&seed={k}");
            let (a, b) = (values.ok(&query), solving.ok(&query));
            assert_eq!(a["move"], b["move"], "{query}");
            compared += 1;
        }
        choices += usize::from(pos.legal_moves(PassRule::Always).len() > 1);
    }
    assert!(
        compared >= 140 && choices >= 15,
        "{compared} moves, {choices} positions with a choice"
    );
}

#[test]
fn with_values_only_the_strong_levels_still_see_the_values_dimly() {
    // Tables of values only give no depths. Levels 4 to 7 then weigh the
    // exact value at their floor (docs/levels.md): a won or both-win
    // position is thrown away less often by level 7 than by level 3,
    // whose floor is 0 (judgement and noise alone), and an unknown depth
    // never makes a loss look better than a win.
    let mut rng = Rng(65);
    let (mut decisive, mut thrown) = (0u32, [0u32; 8]);
    for _ in 0..300 {
        let pos = random_position(&mut rng, 8, 2);
        if pos.outcome().is_some() {
            continue;
        }
        let solution = solve(&pos, PassRule::Always, None);
        let mut moves = solution.moves(&pos).unwrap();
        let best = moves[0].score.value;
        if !matches!(best, Value::SelfWin | Value::BothWin)
            || moves.iter().all(|m| m.score.value == best)
        {
            continue;
        }
        for m in &mut moves {
            m.score = Score::value_only(m.score.value);
        }
        for seed in 0..4 {
            decisive += 1;
            for level in Level::all() {
                let mv = Engine::new(level, seed).choose(&pos, &moves).expect("a move");
                let value = moves.iter().find(|m| m.mv == mv).unwrap().score.value;
                thrown[usize::from(level.get()) - 1] += u32::from(value < best);
            }
        }
    }
    let [_, _, l3, _, _, l6, l7, l8] = thrown;
    assert!(decisive >= 200, "only {decisive} decisive choices");
    assert_eq!(l8, 0);
    assert!(l7 < l6 && l6 < l3, "thrown away of {decisive}: {thrown:?}");
}

#[test]
fn on_move_one_of_a_fair_start_the_strong_levels_keep_the_both_win() {
    // Issue 65's example: the 10-slot fair start 2,4,1,6,7,8,5,9,10,3,
    // where 2 of 11 moves keep both-win. Before the floors every level 1
    // to 7 kept it with 12 to 20 of 100 seeds; now levels 6 and 7 keep it
    // with 48 and 75, levels 1 to 3 with 12 to 16 (docs/levels.md).
    let pos: chaosclock::Position = "2,4,1,6,7,8,5,9,10,3".parse().unwrap();
    let moves = solve(&pos, PassRule::Always, None).moves(&pos).unwrap();
    assert_eq!(moves[0].score.value, Value::BothWin);
    let kept = |k: u8| {
        let level = Level::new(k).unwrap();
        (0..100)
            .filter(|&seed| {
                let mv = Engine::new(level, seed).choose(&pos, &moves).unwrap();
                moves.iter().any(|m| m.mv == mv && m.score.value == Value::BothWin)
            })
            .count()
    };
    let kept: Vec<usize> = (1..=8).map(kept).collect();
    assert!(kept[..3].iter().all(|&k| k <= 25), "{kept:?}");
    assert!(kept[5] >= 40 && kept[6] >= 60 && kept[7] == 100, "{kept:?}");
}

#[test]
fn a_match_killed_resumes_from_its_checkpoint_and_prints_the_same_tables() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("match.ckpt");
    let path = file.to_str().unwrap();
    let args = ["match", "--slots", "10", "--openings", "16", "--levels", "1,4,8"];
    let fresh = ok(&args);
    // Killed (SIGKILL) once 3 openings are in the file, mid-match.
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaosclock"))
        .args(args)
        .args(["--checkpoint", path])
        .env(common::bin::QUIET.0, common::bin::QUIET.1)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let began = Instant::now();
    let lines = || std::fs::read_to_string(&file).map_or(0, |t| t.lines().count());
    while lines() < 4 && began.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let held = lines() - 1;
    assert!((3..16).contains(&held), "{held} openings when killed");
    // A line cut short, as a kill while writing leaves it.
    std::fs::OpenOptions::new().append(true).open(&file).unwrap().write_all(b"{\"open").unwrap();
    let out = common::bin::run(&[&args[..], &["--checkpoint", path]].concat());
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with(&format!("resuming from {path}: ")), "{stderr}");
    // The same tables but for the time in the first line.
    let resumed = String::from_utf8(out.stdout).unwrap();
    let body = |t: &str| t.split_once('\n').unwrap().1.to_string();
    assert_eq!(body(&resumed), body(&fresh));
    assert_eq!(lines(), 17, "the header and every opening once");
    // Another match, or a file that is not a checkpoint: an error, and
    // the file is left as it is.
    let other = [&args[..], &["--seed", "2", "--checkpoint", path]].concat();
    fails(&other, "is the checkpoint of another match (10 slots, levels 1,4,8");
    // `--accuracy` resumes the same way, from a file of its own.
    let acc = ["match", "--slots", "8", "--accuracy", "--openings", "30"];
    let fresh = ok(&acc);
    let file = dir.path().join("accuracy.ckpt");
    let ckpt = ["--checkpoint", file.to_str().unwrap()];
    ok(&[&acc[..4], &["--openings", "12"], &ckpt].concat());
    let out = common::bin::run(&[&acc[..], &ckpt].concat());
    assert!(out.status.success(), "{out:?}");
    assert_eq!(body(&String::from_utf8(out.stdout).unwrap()), body(&fresh));
    fails(&[&acc[..], &["--checkpoint", path]].concat(), "this one is accuracy, 8 slots");
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "my notes").unwrap();
    fails(
        &["match", "--slots", "6", "--checkpoint", notes.to_str().unwrap()],
        "is not a match checkpoint",
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes");
}
