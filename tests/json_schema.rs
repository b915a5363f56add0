//! Every command's JSON follows `docs/json.md`: the test reads the file's
//! tables (one per `## ` section: field path, type), runs each command on
//! small boards, and checks that every documented field is present (unless
//! optional) with its type, and that no object has an undocumented field.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::bin::{ok_in, run_with};
use common::schema::{check_object, schema};
use serde_json::Value as Json;

/// Runs `args` in `dir` with `stdin`; returns stdout (the exit code is not
/// checked: `query -` with a bad line exits with 2).
fn stdout_with(dir: &Path, args: &[&str], stdin: &str) -> String {
    let out = run_with(dir, args, stdin.as_bytes());
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// The JSON documents printed, one a line.
fn documents(text: &str) -> Vec<Json> {
    assert!(!text.is_empty(), "no output");
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON {e}: {l}")))
        .collect()
}

#[test]
fn every_command_follows_docs_json() {
    let schema = schema();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let d = dir.path();
    let mut checked: BTreeMap<&str, usize> = BTreeMap::new();
    let mut check = |section: &'static str, docs: Vec<Json>, what: String| {
        let fields = schema.get(section).unwrap_or_else(|| panic!("no section ## {section}"));
        for doc in &docs {
            check_object(doc, "", fields, &what);
        }
        *checked.entry(section).or_default() += docs.len();
    };
    let run = |args: &[&str]| documents(&ok_in(d, args));

    // Tables first: generate with and without depths.
    check("`generate --json`", run(&["generate", "--slots", "4", "--json"]), "generate".into());
    let values = ["generate", "--slots", "4", "--values-only", "--tables", "values", "--json"];
    let values: Vec<&str> = values.iter().copied().chain(["--file-log", "files.jsonl"]).collect();
    check("`generate --json`", run(&values), "generate --values-only".into());

    for pos in ["2,1,4,3", "2,0,1,3;0;1", "1,2,3,4;1;0", "0,0,3,0;0;-1", "2,1,4,3;1;-2"] {
        check("`show --json`", run(&["show", pos, "--json"]), format!("show {pos}"));
        check("`solve --json`", run(&["solve", pos, "--json"]), format!("solve {pos}"));
        let with = ["solve", pos, "--tables", "tables", "--json"];
        check("`solve --json`", run(&with), format!("solve {pos} --tables"));
        check("`query --json`", run(&["query", pos, "--json"]), format!("query {pos}"));
        let from_values = ["query", pos, "--tables", "values", "--json"];
        check("`query --json`", run(&from_values), format!("query {pos} values only"));
        // No tables there: solved in memory (or the rules for a finished game).
        let solved = ["query", pos, "--tables", "none", "--json"];
        // (a note on stderr then)
        let doc = documents(&stdout_with(d, &solved, ""));
        check("`query --json`", doc, format!("query {pos} without tables"));
    }
    for moves in ["1,pass", "1,pass,pass", "2,3"] {
        let args = ["play", "2,1,4,3", "--moves", moves, "--json"];
        check("`play --json`", run(&args), format!("play {moves}"));
        let args = ["play", "2,1,4,3", "--moves", moves, "--analyse", "--json"];
        check("`play --analyse --json`", run(&args), format!("play {moves} --analyse"));
    }

    let lines = documents(&stdout_with(
        d,
        &["query", "-"],
        "2,1,4,3\nnot a position\n\n0,0,3,4;0\n2,1,4,3,6,5\n1,2,3,4;1;0\n",
    ));
    let (bad, good): (Vec<Json>, Vec<Json>) =
        lines.into_iter().partition(|l| l.get("error").is_some());
    assert_eq!((good.len(), bad.len()), (4, 1));
    let sources: Vec<&str> = good.iter().map(|l| l["source"].as_str().unwrap()).collect();
    assert_eq!(sources, ["tables", "tables", "solve", "rules"]);
    check("`query -`, a line answered", good, "query -".into());
    check("`query -`, a line with an error", bad, "query -".into());

    let verify = ["verify", "--slots", "4", "--sample", "100", "--solves", "3", "--json"];
    check("`verify --json`", run(&verify), "verify".into());
    // A manifest without and with the logs, and verify against it.
    ok_in(d, &["manifest", "--slots", "4", "--output", "plain.json"]);
    std::fs::write(d.join("run.log"), "[0h01m00s] 1.00% done: 1 of 2 nodes, 1 nodes/s\n").unwrap();
    let logs = ["--tables", "values", "--file-log", "files.jsonl", "--run-log", "run.log"];
    ok_in(d, &[&["manifest", "--slots", "4", "--output", "logs.json"][..], &logs].concat());
    for file in ["plain.json", "logs.json"] {
        let text = std::fs::read_to_string(d.join(file)).expect("the manifest is written");
        let doc = serde_json::from_str(&text).expect("the manifest is JSON");
        check("`manifest`", vec![doc], file.into());
    }
    let against = ["verify", "--slots", "4", "--manifest", "plain.json", "--json"];
    check("`verify --json`", run(&against), "verify --manifest".into());

    for args in [
        &["openings", "--slots", "4", "--json"][..],
        &["openings", "--slots", "4", "--stats", "--plot", "p.svg", "--json"],
        &["openings", "--slots", "6", "--sample", "5", "--stats", "--json"],
        &["openings", "--slots", "6", "--both-win", "--output", "list.txt", "--json"],
    ] {
        check("`openings --json`", run(args), format!("{args:?}"));
    }
    for args in [
        &["openings", "--slots", "6", "--both-win", "--json"][..],
        &["openings", "--slots", "6", "--both-win", "--random", "2", "--json"],
    ] {
        check("`openings --both-win --json`", run(args), format!("{args:?}"));
    }
    // A list that stops at a damaged record ends with a line that says so.
    let damaged = ["generate", "--slots", "6", "--tables", "damaged", "--json"];
    check("`generate --json`", run(&damaged), "generate --slots 6".into());
    let f0000 = d.join("damaged/n6-always/f0000.cctb");
    let mut bytes = std::fs::read(&f0000).expect("the file was made");
    bytes[1000] ^= 0x10; // in the records: found when the block is read
    std::fs::write(&f0000, bytes).expect("the file is written");
    let list = ["openings", "--slots", "6", "--sample", "265", "--batch", "1", "--both-win"];
    let list: Vec<&str> = list.iter().copied().chain(["--tables", "damaged", "--json"]).collect();
    let mut lines = documents(&stdout_with(d, &list, ""));
    let last = lines.pop().expect("the last line");
    check("`openings --both-win --json`, a list that stops", vec![last], "damaged".into());
    check("`openings --both-win --json`", lines, "damaged, before it stops".into());
    let random = ["openings", "--slots", "6", "--both-win", "--random", "2", "--output", "r.txt"];
    let random: Vec<&str> = random.iter().copied().chain(["--json"]).collect();
    check(
        "`openings --both-win --random K --output FILE --json`",
        run(&random),
        "openings --random --output".into(),
    );

    // Every section of docs/json.md was run.
    for section in schema.keys().filter(|s| s.starts_with('`')) {
        assert!(checked.get(section.as_str()).is_some_and(|&n| n > 0), "## {section} was not run");
    }
}
