//! `query` answers every position (issue 21): from the tables when they
//! cover it, else solved in memory within `--budget` (a note on stderr,
//! `"source": "solve"`), a finished game from the rules; `--no-solve`
//! answers from the tables only. Advice about missing tables names the
//! size and time of a large `generate`, and `generate` refuses a run
//! projected over 20 GB at once. Small boards only (4 to 8 slots), and
//! 12 slots only where nothing is solved or written.

mod common;

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use common::bin::{json_in, ok_in, run_in, run_with};
use serde_json::Value as Json;

/// The fields `query --json` shares with `solve --json`.
const SHARED: [&str; 9] =
    ["position", "side", "pass_rule", "over", "value", "label", "depth", "moves", "line"];

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// Runs `args` in `dir`: it must fail with exit 2 and one line on stderr,
/// which is returned.
fn error_in(dir: &Path, args: &[&str]) -> String {
    let out = run_in(dir, args);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    stderr.trim_end().to_string()
}

/// Succeeds with exactly the note of a solve in memory on stderr (after
/// the openings book's value of an opening, in text).
fn solved(args: &[&str], out: &Output) -> String {
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    let stderr = match stderr.split_once('\n') {
        Some((first, rest)) if first.starts_with("book:     ") => rest.to_string(),
        _ => stderr,
    };
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("note: no table in tables/n")
            && stderr.contains("covers this position; solved it in memory ("),
        "{stderr}"
    );
    text(&out.stdout)
}

#[test]
fn without_tables_query_solves_in_memory_as_solve_does() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for pos in ["2,1,4,3", "2,1,4,3,6,5", "0,1,2,3,6,5;0;2", "2,1,4,3,6,5,8,7"] {
        let args = ["query", pos, "--json"];
        let q: Json = serde_json::from_str(&solved(&args, &run_in(d, &args))).unwrap();
        let s = json_in(d, &["solve", pos, "--json"]);
        for key in SHARED {
            assert_eq!(q[key], s[key], "{pos}: {key}");
        }
        assert_eq!(q["source"], "solve", "{pos}");
        assert_eq!(q["states"], s["states"], "{pos}");
        assert!(q.get("tables").is_none(), "{pos}");
        // The text: solve's up to its statistics, then the source.
        let args = ["query", pos];
        let qt = solved(&args, &run_in(d, &args));
        let st = ok_in(d, &["solve", pos]);
        assert_eq!(qt.split("\nsource:").next(), st.split("\nstates:").next(), "{pos}");
        assert!(qt.contains("\nsource:    solved in memory, "), "{qt}");
    }
    assert!(!d.join("tables").exists(), "a solve in memory writes nothing");
}

#[test]
fn no_solve_answers_from_the_tables_only() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Not an opening (甲 to move): the openings book cannot answer it.
    let e = error_in(d, &["query", "2,1,4,3,6,5;0;0", "--no-solve"]);
    assert!(e.ends_with("run `chaosclock generate --slots 6 --max-live 6`"), "{e}");
    // With the tables, --no-solve answers from them.
    ok_in(d, &["generate", "--slots", "6"]);
    let q = json_in(d, &["query", "2,1,4,3,6,5", "--no-solve", "--json"]);
    assert_eq!(
        (q["source"].as_str(), q["tables"]["dir"].as_str()),
        (Some("tables"), Some("tables/n6-always"))
    );
    // And without --no-solve too, quietly.
    let q = json_in(d, &["query", "2,1,4,3,6,5", "--json"]);
    assert_eq!(q["source"], "tables");
}

#[test]
fn a_solve_over_the_budget_is_one_line_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let e = error_in(dir.path(), &["query", "2,1,4,3,6,5,8,7;0;0", "--budget", "1000"]);
    assert!(e.contains("more than 1000 states are reachable (at least "), "{e}");
    assert!(e.contains("raise --budget"), "{e}");
    assert!(e.ends_with("run `chaosclock generate --slots 8 --max-live 8`"), "{e}");
    // --budget is for solving.
    let out = run_in(dir.path(), &["query", "2,1,4,3", "--no-solve", "--budget", "5"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn finished_games_need_no_table() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 甲 won, both won, a double pass (both lose).
    for pos in ["1,0,3,0,5,0;0;0", "1,2,3,4", "2,1,4,3,6,5;0;-2"] {
        let q = json_in(d, &["query", pos, "--json", "--no-solve"]);
        let s = json_in(d, &["solve", pos, "--json"]);
        for key in SHARED {
            assert_eq!(q[key], s[key], "{pos}: {key}");
        }
        assert_eq!((q["source"].as_str(), q["depth"].as_u64()), (Some("rules"), Some(0)), "{pos}");
        assert!(q.get("tables").is_none() && q.get("states").is_none(), "{pos}");
        let qt = ok_in(d, &["query", pos]);
        let st = ok_in(d, &["solve", pos]);
        assert_eq!(qt.split("\nsource:").next(), st.split("\nstates:").next(), "{pos}");
        assert!(
            qt.ends_with(
                "source:    the rules: the game is over (nothing solved, no table read)\n"
            )
        );
    }
}

#[test]
fn batch_falls_back_line_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok_in(d, &["generate", "--slots", "4"]);
    let input = b"2,1,4,3\n2,1,4,3,6,5\n1,2,3,4,5,6\nnot a position\n";
    let out = run_with(d, &["query", "-"], input);
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr,
        "note: no table covers 1 of the 4 positions; solved it in memory\n\
         error: 1 of 4 positions could not be answered\n"
    );
    let lines: Vec<Json> =
        text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let sources: Vec<Option<&str>> = lines.iter().map(|l| l["source"].as_str()).collect();
    assert_eq!(sources, [Some("tables"), Some("solve"), Some("rules"), None]);
    assert_eq!(lines[1]["value"], json_in(d, &["solve", "2,1,4,3,6,5", "--json"])["value"]);
    // --no-solve: the opening without a table comes from the openings
    // book, its value only.
    let out = run_with(d, &["query", "-", "--no-solve"], input);
    assert_eq!(text(&out.stderr), "error: 1 of 4 positions could not be answered\n");
    let second: Json = serde_json::from_str(text(&out.stdout).lines().nth(1).unwrap()).unwrap();
    assert_eq!((second["source"].as_str(), &second["value"]), (Some("book"), &lines[1]["value"]));
    assert_eq!(second["moves_left_out"], true);
    // A position that is not an opening is an error line.
    let out = run_with(d, &["query", "-", "--no-solve"], b"2,1,4,3,6,5;0;0\n");
    assert!(text(&out.stdout).contains("\"error\":\"line 1: no table tables/n6-always/f0000.cctb"));
}

#[test]
fn advice_for_twelve_slots_names_size_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let values_only = "run `chaosclock generate --slots 12 --max-live 12 --values-only` \
                       (values only: 7.1 GB, about 5 h on 2 cores; with depths 33.7 GB)";
    // Not an opening (甲 to move), so not in the book.
    let e = error_in(d, &["query", "2,8,11,9,4,12,10,6,5,7,1,3;0;0", "--no-solve"]);
    assert!(e.ends_with(values_only), "{e}");
    let e = error_in(d, &["verify", "--slots", "12", "--max-live", "12"]);
    assert!(e.contains(values_only), "{e}");
    // Small runs are named as before.
    let e = error_in(d, &["verify", "--slots", "12"]);
    assert!(e.contains("run `chaosclock generate --slots 12 --max-live 6`; "), "{e}");
}

#[test]
fn generate_refuses_a_run_over_20_gb_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let start = Instant::now();
    let e = error_in(d, &["generate", "--slots", "12", "--max-live", "12"]);
    assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
    assert!(e.starts_with("error: this run would write about 33.7 GB ("), "{e}");
    assert!(e.contains("--values-only") && e.contains("add --allow-large"), "{e}");
    assert!(e.ends_with("(tables/n12-always)"), "{e}");
    // Nothing large written: at most empty directories.
    assert!(dir_bytes(d) < 64 * 1024, "{} bytes", dir_bytes(d));
    assert!(!d.join("tables/n12-always").exists());
}

/// The bytes of the files under `dir`.
fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| {
            let meta = e.metadata().unwrap();
            if meta.is_dir() { dir_bytes(&e.path()) } else { meta.len() }
        })
        .sum()
}
