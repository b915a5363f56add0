//! Tables of record encoding 4 (values with depths, compressed; 乙's
//! scores derived from their children when read) answer every command
//! exactly as the tables of encoding 1 they were converted from: the same
//! `query` text and JSON (value, depth, every move best first, the
//! shortest line) and the same `/api/position` and `/api/mainline` answers
//! from `serve`, and `verify` finds nothing. A damaged block gives a
//! one-line error naming the file, never an answer.
//!
//! The comparison of every 8-slot state with the solver is in
//! `every_state.rs`.

mod common;

use std::path::Path;

use chaosclock::generate::{Config, generate};
use chaosclock::table::Encoding;
use chaosclock::table::Tablebase;
use chaosclock::{PassRule, Position, Score, Value};
use common::bin::run_with;

/// Makes the complete 6-slot tables with depths under `depths` and their
/// conversion to encoding 4 under `coded` (with side files if `sides`).
fn make(depths: &Path, coded: &Path) {
    make_with(depths, coded, false);
}

fn make_with(depths: &Path, coded: &Path, sides: bool) {
    let cfg =
        Config::new(depths.to_path_buf(), 6, PassRule::Always).with_encoding(Encoding::Scores);
    generate(&cfg, None).unwrap();
    common::convert_tables(depths, coded, 6, PassRule::Always, sides);
}

/// Every opening and a spread of other positions, one a line.
fn positions() -> String {
    let mut rng = common::Rng(7);
    let mut lines: Vec<String> = common::openings(6).iter().map(|p| p.to_string()).collect();
    while lines.len() < 565 {
        let p = common::random_position(&mut rng, 6, 2);
        if p.check_reachable().is_ok() {
            lines.push(p.to_string());
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn query_answers_as_the_tables_it_was_converted_from() {
    for sides in [false, true] {
        query_answers_as_encoding_1(sides);
    }
}

/// `query_answers_as_the_tables_it_was_converted_from`, with side files
/// or without.
fn query_answers_as_encoding_1(sides: bool) {
    let (d, c) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    make_with(d.path(), c.path(), sides);
    let input = positions();
    for json in [false, true] {
        let answer = |root: &Path| {
            let root = root.to_str().unwrap();
            let mut args = vec!["query", "-", "--tables", root, "--no-solve"];
            if json {
                args.push("--json");
            }
            let out = run_with(Path::new("."), &args, input.as_bytes());
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            // The tables' directory is named in every answer.
            String::from_utf8(out.stdout).unwrap().replace(root, "ROOT")
        };
        let (want, got) = (answer(d.path()), answer(c.path()));
        assert!(want.contains("depth"), "answers with depths");
        let differ = want.lines().zip(got.lines()).find(|(a, b)| a != b);
        assert!(differ.is_none(), "json {json}, side files {sides}: {differ:?}");
        assert_eq!(got.lines().count(), want.lines().count());
    }
}

/// `Tablebase::score_is`, which stops a derived score at the first child
/// that beats the target, answers as comparing the score: for every
/// position, true for its score and false for scores next to it (one ply
/// longer or shorter, another value).
#[test]
fn score_is_answers_as_the_score() {
    let (d, c) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    make(d.path(), c.path());
    let tb = Tablebase::new(c.path(), 6, PassRule::Always);
    tb.load_all().unwrap();
    let positions: Vec<Position> = positions().lines().map(|l| l.parse().unwrap()).collect();
    let values =
        [Value::SelfWin, Value::BothWin, Value::BothLose, Value::SelfLose, Value::NoResult];
    let mut falses = 0;
    for p in &positions {
        let s = tb.score(p).unwrap();
        assert!(tb.score_is(p, s).unwrap(), "{p}");
        let d = s.depth().unwrap_or(0);
        let near =
            [d.wrapping_sub(1), d + 1, d + 2].into_iter().filter_map(|d| Score::new(s.value, d));
        let others = values.map(|value| Score::new(value, d).unwrap_or(Score::terminal(value)));
        for t in near.into_iter().chain(others).filter(|&t| t != s) {
            assert!(!tb.score_is(p, t).unwrap(), "{p}: {t:?} against {s:?}");
            falses += 1;
        }
    }
    assert!(falses > 5 * positions.len());
}

/// Model sets dropped by `forget_models` are read again when a block
/// needs them: the same scores, from threads whose block caches are
/// empty (so every block is decoded again).
#[test]
fn forgotten_model_sets_are_read_again() {
    let (d, c) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    make(d.path(), c.path());
    let tb = Tablebase::new(c.path(), 6, PassRule::Always);
    tb.load_all().unwrap();
    let positions: Vec<Position> = positions().lines().map(|l| l.parse().unwrap()).collect();
    let scores = || {
        std::thread::scope(|s| {
            s.spawn(|| positions.iter().map(|p| tb.score(p).ok()).collect::<Vec<_>>())
                .join()
                .unwrap()
        })
    };
    let first = scores();
    assert!(first.iter().filter(|s| s.is_some()).count() > 500, "the tables answer");
    tb.forget_models();
    assert_eq!(scores(), first);
}

/// Tables that may keep no model set between reads (a budget of 0 bytes)
/// forget them all before each read and give the same scores; with the
/// default budget they keep what they read, and say how much.
#[test]
fn a_budget_of_model_memory_bounds_what_is_kept() {
    let (d, c) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    make(d.path(), c.path());
    let positions: Vec<Position> = positions().lines().map(|l| l.parse().unwrap()).collect();
    let kept = Tablebase::new(c.path(), 6, PassRule::Always);
    let none = Tablebase::new(c.path(), 6, PassRule::Always).with_model_budget(0);
    kept.load_all().unwrap();
    none.load_all().unwrap();
    let mut most = 0;
    for p in &positions {
        assert_eq!(none.score(p).unwrap(), kept.score(p).unwrap(), "{p}");
        most = most.max(none.models_held());
    }
    // The 6-slot files have one model set each; a read needs a few files.
    let all = kept.models_held();
    assert!(all > 0 && most > 0, "model sets are counted");
    assert!(most < all / 2, "at most the sets of one read kept: {most} of {all} bytes");
    kept.forget_models();
    assert_eq!(kept.models_held(), 0);
}

#[test]
fn verify_passes_and_damage_is_an_error() {
    let (d, c) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    make(d.path(), c.path());
    let root = c.path().to_str().unwrap();
    let verify = |args: &[&str]| run_with(Path::new("."), args, b"");
    let out = verify(&["verify", "--slots", "6", "--tables", root, "--sample", "2000"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // A byte of the last block of the largest file changed: its checksum
    // no longer matches.
    let path = c.path().join("n6-always/f0000.cctb");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let out = verify(&["verify", "--slots", "6", "--tables", root]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("f0000.cctb") && err.contains("checksum"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn serve_answers_as_the_tables_it_was_converted_from() {
    let (d, c) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    make(d.path(), c.path());
    let servers = [d.path(), c.path()].map(|root| {
        common::server::Server::start(Path::new("."), &["--tables", root.to_str().unwrap()])
    });
    let positions = positions();
    for pos in positions.lines().step_by(7) {
        for path in ["/api/position?pos=", "/api/mainline?pos="] {
            let path = format!("{path}{}", common::server::esc(pos));
            let [want, got] = [&servers[0], &servers[1]].map(|s| s.ok(&path));
            assert_eq!(got, want, "{path}");
        }
    }
}

#[test]
fn a_side_file_of_the_wrong_side_is_an_error() {
    let (d, c) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    make(d.path(), c.path());
    let dir = c.path().join("n6-always");
    std::fs::copy(dir.join("f0000.cctb"), dir.join("f0000.side.cctb")).unwrap();
    let root = c.path().to_str().unwrap();
    let out =
        run_with(Path::new("."), &["query", "2,1,4,3,6,5", "--tables", root, "--no-solve"], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("f0000.side.cctb") && err.contains("does not store"), "{err}");
}
