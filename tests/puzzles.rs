//! The puzzle sets built into the binary (docs/puzzles.md): their sizes,
//! a sample of each checked against the solver by a separate, plain
//! reading of the definition, and the `puzzles` command (printing, JSON
//! by docs/json.md, CSV, `--verify`, a reproducible `--build`, bad input).

mod common;

use std::collections::HashSet;

use chaosclock::puzzle::{
    BuildConfig, Builder, CSV_HEADER, Puzzle, Theme, canonical_key, check_set, embedded,
    level_ratings, parse_csv, rate_line,
};
use chaosclock::scored::ScoredMove;
use chaosclock::solve::solve;
use chaosclock::{Move, PassRule, Position, Value};
use common::bin::{fails, json, ok, ok_in, run_in};
use common::schema::{check_object, schema};
use serde_json::json;

/// The sets, with the least each must hold.
const SETS: [(u8, usize); 3] = [(8, 2000), (10, 2000), (12, 5000)];

#[test]
fn the_sets_are_large_small_and_without_duplicates() {
    let mut bytes = 0;
    for (n, least) in SETS {
        let set = embedded(n).expect("the built-in set reads");
        assert!(set.len() >= least, "{n} slots: {} puzzles", set.len());
        let path = format!("{}/puzzles/n{n}.csv", env!("CARGO_MANIFEST_DIR"));
        bytes += std::fs::metadata(path).unwrap().len();
        let mut ids = HashSet::new();
        let mut keys = HashSet::new();
        for p in set {
            assert_eq!(p.start.slots(), n);
            assert!(ids.insert(p.id.clone()), "id {} twice", p.id);
            assert!(keys.insert(canonical_key(&p.start)), "{} repeats a position", p.id);
            assert!((1..=12).contains(&p.length()), "{}: length {}", p.id, p.length());
            assert!(
                p.themes.iter().any(|t| matches!(t, Theme::Win | Theme::BothWin | Theme::BothLose))
            );
        }
    }
    assert!(bytes <= 4_000_000, "the sets take {bytes} bytes");
}

/// The smallest image of `board` (an `n`-slot board, 0 for an empty slot)
/// under the game's symmetry: slots and pieces multiplied by a unit of
/// Z/n, 0 read as n (docs/symmetry.md).
fn board_up_to_symmetry(n: u8, board: &[u8]) -> Vec<u8> {
    let times = |u: u8, x: u8| match (u16::from(u) * u16::from(x) % u16::from(n)) as u8 {
        0 => n,
        y => y,
    };
    let gcd = |mut a: u8, mut b: u8| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    (1..n)
        .filter(|&u| gcd(u, n) == 1)
        .map(|u| {
            let mut image = vec![0u8; usize::from(n)];
            for (s, &p) in board.iter().enumerate() {
                image[usize::from(times(u, s as u8 + 1) - 1)] =
                    if p == 0 { 0 } else { times(u, p) };
            }
            image
        })
        .min()
        .unwrap()
}

/// Issue 65's rules, read off each whole shipped set: no forced move as
/// a puzzle move (first or last), no line that comes back to a position,
/// at most one one-move puzzle in four and each rated at least the
/// set's median, no two boards before the mistake the same up to
/// symmetry, no start on another puzzle's line.
#[test]
fn the_shipped_sets_keep_their_rules() {
    let choices = |pos: &Position| pos.legal_moves(PassRule::Always).len();
    for (n, _) in SETS {
        let set = embedded(n).unwrap();
        let mut boards = HashSet::new();
        let mut starts = HashSet::new();
        let mut on_lines = HashSet::new();
        for p in set {
            let solver = p.start.side();
            assert!(choices(&p.start) >= 2, "{}: its first move is forced", p.id);
            let mut pos = p.start;
            let mut seen = HashSet::from([pos]);
            let mut last_solver = 0;
            for &m in &p.line {
                if pos.side() == solver {
                    last_solver = choices(&pos);
                }
                pos = pos.play(m, PassRule::Always).unwrap();
                assert!(seen.insert(pos), "{}: its line comes back to {pos}", p.id);
                on_lines.insert(canonical_key(&pos));
            }
            assert!(last_solver >= 2, "{}: its last move is forced", p.id);
            assert!(
                boards.insert(board_up_to_symmetry(n, p.before.board())),
                "{}: its board before the mistake is another puzzle's up to symmetry",
                p.id
            );
            starts.insert((canonical_key(&p.start), p.id.clone()));
        }
        for (key, id) in &starts {
            assert!(!on_lines.contains(key), "{id} starts on another puzzle's line");
        }
        let ones: Vec<&Puzzle> = set.iter().filter(|p| p.length() == 1).collect();
        assert!(ones.len() * 4 <= set.len(), "{n} slots: {} of {} one move", ones.len(), set.len());
        let mut ratings: Vec<u16> = set.iter().map(|p| p.rating).collect();
        ratings.sort_unstable();
        let median = ratings[ratings.len() / 2];
        for p in ones {
            assert!(p.rating >= median, "{}: one move rated {} < median {median}", p.id, p.rating);
        }
    }
}

/// The moves of `pos` scored by `moves`, by value only.
fn keeping(moves: &[ScoredMove]) -> (Value, Vec<Move>) {
    let best = moves.iter().map(|m| m.score.value).max().expect("moves");
    (best, moves.iter().filter(|m| m.score.value == best).map(|m| m.mv).collect())
}

/// Checks `p` against a solve of its start position, reading the
/// definition of docs/puzzles.md afresh (not through the library's
/// `puzzle::solution`).
fn check_by_definition(p: &Puzzle) {
    let rule = PassRule::Always;
    let solution = solve(&p.before, rule, None);
    // The mistake loses value and hands the move over.
    let before = solution.moves(&p.before).unwrap();
    let (best, _) = keeping(&before);
    let played = before.iter().find(|m| m.mv == p.mistake).expect("the mistake is legal");
    assert!(played.score.value < best, "{}: {} is no mistake", p.id, p.mistake);
    assert_eq!(played.child, p.start);
    assert_ne!(p.start.side(), p.before.side());
    let solver = p.start.side();
    let mut pos: Position = p.start;
    let mut seen = HashSet::from([pos]);
    let mut solver_moves = 0;
    for (i, &m) in p.line.iter().enumerate() {
        let moves = solution.moves(&pos).unwrap();
        if pos.side() == solver {
            let (value, keep) = keeping(&moves);
            assert_eq!(keep, [m], "{}: move {i} is not the only move keeping {value:?}", p.id);
            assert_eq!(value, p.value);
            if value == Value::BothLose {
                assert!(
                    moves.iter().filter(|x| x.mv != m).all(|x| x.score.value == Value::SelfLose)
                );
            } else {
                assert!(matches!(value, Value::SelfWin | Value::BothWin));
            }
            // A forced move (the only legal one) is played, not counted.
            solver_moves += usize::from(moves.len() > 1);
        } else {
            // The reply: the best value, then the longest game.
            let (value, _) = keeping(&moves);
            let longest =
                moves.iter().filter(|x| x.score.value == value).map(|x| x.score.depth()).max();
            let this = moves.iter().find(|x| x.mv == m).expect("the reply is legal");
            assert_eq!(
                (this.score.value, Some(this.score.depth())),
                (value, longest),
                "{}: reply {m}",
                p.id
            );
        }
        pos = pos.play(m, rule).unwrap();
        assert!(seen.insert(pos), "{}: the line comes back to {pos}", p.id);
    }
    assert_eq!(solver_moves, p.length());
    // It ends after the solver's last move with a choice: going on (the
    // replies, the solver's forced moves), the solver has no only move
    // keeping the value, or a position would come back, or the game is
    // over, or the line has 12 moves with a choice.
    let mut next = pos;
    while next.outcome().is_none() && solver_moves < 12 {
        let moves = solution.moves(&next).unwrap();
        let (value, keep) = keeping(&moves);
        let step = if next.side() != solver {
            moves
                .iter()
                .filter(|x| x.score.value == value)
                .min_by(|a, b| b.score.depth().cmp(&a.score.depth()))
                .unwrap()
                .child
        } else {
            let fits = value == p.value
                && keep.len() == 1
                && (value != Value::BothLose
                    || moves
                        .iter()
                        .filter(|x| x.mv != keep[0])
                        .all(|x| x.score.value == Value::SelfLose));
            if !fits {
                break;
            }
            let child = next.play(keep[0], PassRule::Always).unwrap();
            assert!(
                moves.len() == 1 || seen.contains(&child),
                "{}: the line stops before another only move",
                p.id
            );
            child
        };
        if !seen.insert(step) {
            break;
        }
        next = step;
    }
    // Themes that can be read straight off the line's moves with a choice.
    let mut cur = p.start;
    let mut extra = false;
    let mut pass = false;
    for &m in &p.line {
        let child = cur.play(m, PassRule::Always).unwrap();
        if cur.side() == solver && cur.legal_moves(PassRule::Always).len() > 1 {
            extra |= matches!(m, Move::Place(_)) && child.side() == solver;
            pass |= m == Move::Pass;
        }
        cur = child;
    }
    assert_eq!(p.themes.contains(&Theme::ExtraMove), extra, "{}", p.id);
    assert_eq!(p.themes.contains(&Theme::Pass), pass, "{}", p.id);
    assert_eq!(p.themes.contains(&Theme::Finish), cur.outcome().is_some(), "{}", p.id);
    // The rating: the engines' attempts on the levels' ratings of its size.
    let rated = rate_line(&solution, &p.start, &p.line, canonical_key(&p.start)).unwrap();
    assert_eq!(rated.stored(), (p.rating, p.deviation), "{}: rating", p.id);
}

#[test]
fn a_sample_of_each_set_holds_by_the_definition() {
    // 8 and 12 slots solve in milliseconds; an early 10-slot position can
    // take seconds, so fewer of those.
    for (n, sample) in [(8u8, 40usize), (12, 40), (10, 8)] {
        let set = embedded(n).unwrap();
        let stride = set.len() / sample;
        for p in set.iter().step_by(stride).take(sample) {
            check_by_definition(p);
        }
    }
}

#[test]
fn puzzles_prints_one_at_once_and_follows_docs_json() {
    let text = ok(&["puzzles", "--slots", "12", "--seed", "5"]);
    assert!(text.starts_with("puzzle "), "{text}");
    assert!(text.contains("find the only move that keeps"), "{text}");
    let schema = schema();
    let fields = schema.get("Puzzles: `puzzles --json` and API `/api/puzzle`").expect("documented");
    for n in ["8", "10", "12"] {
        for theme in ["win", "both-win", "extra-move", "pass"] {
            let args = [
                "puzzles", "--slots", n, "--theme", theme, "--rating", "1100", "--json", "--seed",
                "9",
            ];
            let doc = json(&args);
            check_object(&doc, "", fields, &format!("{args:?}"));
            assert!(doc["themes"].as_array().unwrap().iter().any(|t| t == theme));
            assert_eq!(
                doc["moves"].as_array().unwrap().len(),
                doc["solver"].as_array().unwrap().len()
            );
        }
    }
    // The same seed, the same puzzle; --id finds it again.
    let a = json(&["puzzles", "--slots", "10", "--json", "--seed", "3"]);
    let b = json(&["puzzles", "--slots", "10", "--json", "--seed", "3"]);
    assert_eq!(a, b);
    let id = a["id"].as_str().unwrap();
    assert_eq!(json(&["puzzles", "--slots", "10", "--json", "--id", id]), a);
}

#[test]
fn csv_export_reads_back_and_verify_checks() {
    let dir = tempfile::tempdir().unwrap();
    let csv = ok_in(dir.path(), &["puzzles", "--slots", "8", "--csv", "--theme", "extra-move"]);
    assert!(csv.starts_with(CSV_HEADER));
    let set = parse_csv(&csv).expect("the export reads back");
    assert!(!set.is_empty() && set.iter().all(|p| p.themes.contains(&Theme::ExtraMove)));
    let file = dir.path().join("x.csv");
    std::fs::write(&file, &csv).unwrap();
    let f = file.to_str().unwrap();
    let out = ok_in(dir.path(), &["puzzles", "--slots", "8", "--file", f, "--verify"]);
    assert!(out.starts_with(&format!("ok: {} of {}", set.len(), set.len())), "{out}");
    // A wrong solution is caught: exit code 1.
    let mut lines: Vec<String> = csv.lines().map(String::from).collect();
    let p = &set[0];
    let mut wrong = p.clone();
    wrong.line = vec![Move::Pass];
    lines[1] = wrong.to_csv();
    std::fs::write(&file, lines.join("\n")).unwrap();
    let args = ["puzzles", "--slots", "8", "--file", f, "--verify"];
    let out = run_in(dir.path(), &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("mismatch: puzzle {}: the solver's line is", p.id)),
        "{stderr}"
    );
    assert!(
        stderr.ends_with(
            "error: 1 of 176 puzzles differ from the solver\n"
                .replace("176", &set.len().to_string())
                .as_str()
        ),
        "{stderr}"
    );
    // So is a rating that is not the engines' attempts'.
    let mut wrong = p.clone();
    wrong.rating = p.rating + 1;
    lines[1] = wrong.to_csv();
    std::fs::write(&file, lines.join("\n")).unwrap();
    let out = run_in(dir.path(), &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let want = format!(
        "mismatch: puzzle {}: its rating {} ± {} is not the engines' attempts' ({} ± {})",
        p.id,
        p.rating + 1,
        p.deviation,
        p.rating,
        p.deviation
    );
    assert!(stderr.contains(&want), "{stderr}");
}

#[test]
fn each_size_is_rated_on_its_own_levels_ratings() {
    // 8 and 10 slots have their own round robins; 12 names its source.
    assert_eq!(level_ratings(8).slots, 8);
    assert_eq!(level_ratings(10).slots, 10);
    assert_ne!(level_ratings(8).ratings, level_ratings(10).ratings);
    assert!(level_ratings(12).source.contains("--slots 1"), "{:?}", level_ratings(12));
    // A puzzle that only the perfect engine solves rates above level 7
    // and near level 8 of its size.
    for (n, _) in SETS {
        let set = embedded(n).unwrap();
        let top = set.iter().map(|p| p.rating).max().unwrap();
        let r = level_ratings(n).ratings;
        assert!(f64::from(top) > r[6] && f64::from(top) < r[7] + 400.0, "{n}: {top} {r:?}");
    }
}

#[test]
fn the_built_in_sets_pass_verify_on_a_sample() {
    let out = ok(&["puzzles", "--slots", "12", "--verify", "--sample", "30", "--seed", "2"]);
    assert!(out.starts_with("ok: 30 of "), "{out}");
}

#[test]
fn build_is_reproducible_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |out: &str, count: &str| {
        let args =
            ["puzzles", "--slots", "8", "--build", "--count", count, "--seed", "7", "--out", out];
        let o = run_in(d, &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(d.join(out)).unwrap()
    };
    let a = run("a.csv", "120");
    let b = run("b.csv", "120");
    assert_eq!(a, b, "the same seed makes the same set");
    let set = parse_csv(&a).unwrap();
    assert_eq!(set.len(), 120);
    assert!(check_set(&set, true).is_empty(), "{:?}", check_set(&set, true));
    // An interrupted build: its state files (the puzzles found by the
    // first rounds, the next round) make the next run go on to the same set.
    let builder = Builder::new(BuildConfig { slots: 8, seed: 7, budget: 4_000_000 });
    let mut partial = format!("{CSV_HEADER}\n");
    let mut keys = HashSet::new();
    for r in 0..5 {
        for p in builder.round(r).puzzles {
            if keys.insert(canonical_key(&p.start)) {
                partial.push_str(&format!("{}\n", p.to_csv()));
            }
        }
    }
    std::fs::write(d.join("c.csv.partial"), partial).unwrap();
    std::fs::write(d.join("c.csv.rounds"), "slots 8 seed 7 budget 4000000\nnext 5\n").unwrap();
    let c = run("c.csv", "120");
    assert!(!d.join("c.csv.rounds").exists() && !d.join("c.csv.partial").exists());
    assert_eq!(c, a, "the resumed build makes the same set");
}

#[test]
fn bad_input_is_one_line() {
    fails(&["puzzles", "--slots", "6"], "puzzles exist for 8, 10 and 12 slots");
    fails(&["puzzles", "--slots", "8", "--theme", "mate"], "unknown theme 'mate'");
    fails(&["puzzles", "--slots", "8", "--id", "nope00"], "no puzzle with id 'nope00'");
    fails(&["puzzles", "--slots", "8", "--file", "/nonexistent.csv"], "cannot read puzzle set");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.csv"),
        format!("{CSV_HEADER}\nabc123,\"2,1,4,3\",9,1,1,win\n"),
    )
    .unwrap();
    let args = ["puzzles", "--slots", "8", "--file", "bad.csv"];
    common::bin::check_fails(&args, run_in(dir.path(), &args), "line 2");
}

#[test]
fn the_server_serves_puzzles_and_engine_moves() {
    let dir = tempfile::tempdir().unwrap();
    let server = common::server::Server::start(dir.path(), &[]);
    let schema = schema();
    let fields = schema.get("Puzzles: `puzzles --json` and API `/api/puzzle`").unwrap();
    let doc = server.ok("/api/puzzle?slots=10&theme=block&rating=1000&seed=4");
    check_object(&doc, "", fields, "/api/puzzle");
    assert!(doc["themes"].as_array().unwrap().iter().any(|t| t == "block"));
    // The same puzzle as the command prints.
    let cli = json(&[
        "puzzles", "--slots", "10", "--theme", "block", "--rating", "1000", "--seed", "4", "--json",
    ]);
    assert_eq!(doc, cli);
    // An id alone is found in its set, whatever its size.
    for n in [8, 10, 12] {
        let p = server.ok(&format!("/api/puzzle?slots={n}&seed=2"));
        let id = p["id"].as_str().unwrap();
        assert_eq!(server.ok(&format!("/api/puzzle?id={id}")), p, "{n} slots");
    }
    let (status, err) = server.json("/api/puzzle?id=nope00");
    assert_eq!(status, 400, "{err}");
    assert!(err.to_string().contains("no puzzle with id 'nope00'"), "{err}");
    assert_eq!((&err["code"], &err["args"]), (&json!("puzzle.id"), &json!(["nope00"])));
    // Each refusal has its code and arguments, for the page to word
    // (issue 66; docs/json.md).
    for (query, code, args) in [
        ("slots=6", "puzzle.slots", json!(["6"])),
        ("slots=8&theme=mate", "puzzle.theme", json!(["mate"])),
        ("slots=8&rating=x", "puzzle.number", json!(["rating", "x"])),
    ] {
        let (status, err) = server.json(&format!("/api/puzzle?{query}"));
        assert_eq!(status, 400, "{err}");
        assert_eq!((&err["code"], &err["args"]), (&json!(code), &args), "{query}: {err}");
    }
    let moves = schema.get("API `/api/engine-move`").unwrap();
    let m = server.ok("/api/engine-move?pos=2,1,4,3,6,5,8,7&level=8&seed=1");
    check_object(&m, "", moves, "/api/engine-move");
    // Level 8 plays the command's move.
    let play = json(&["play", "2,1,4,3,6,5,8,7", "--level", "8", "--json"]);
    assert_eq!(m["move"], play["engine"]["move"]);
    let over = server.ok("/api/engine-move?pos=1,0,3,0;0;0&level=3&seed=1");
    assert!(over["move"].is_null());
    for bad in ["level=9", "level=x", "pos=1,1&level=2"] {
        let query =
            if bad.starts_with("pos") { bad.to_string() } else { format!("pos=2,1,4,3&{bad}") };
        let (status, err) = server.json(&format!("/api/engine-move?{query}"));
        assert_eq!(status, 400, "{bad}: {err}");
        let code = if bad.starts_with("pos") { "position.slots" } else { "engine.level" };
        assert_eq!(err["code"], json!(code), "{bad}: {err}");
    }
}
