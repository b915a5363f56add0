//! Every command's JSON follows `docs/json.md`: the test reads the file's
//! tables (one per `## ` section: field path, type), runs each command on
//! small boards, and checks that every documented field is present (unless
//! optional) with its type, and that no object has an undocumented field.
//! And a move has one shape everywhere (issue 24): every move object of
//! every command and endpoint, and every documented one, has exactly the
//! core fields and those of its group.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::bin::{json_in, ok_in, run_with};
use common::schema::{check_object, schema};
use common::server::{Server, esc};
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
        let solved = ["query", pos, "--tables", ".", "--json"];
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

    let recode = ["recode", "--slots", "4", "--json"];
    check("`recode --json`", run(&recode), "recode".into());
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
        &["openings", "--slots", "6", "--depths", "--json"],
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
    let at = bytes.len() - 50;
    bytes[at] ^= 0x10; // in the last block: found when it is read
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

/// The fields of every move object (`src/view/moves.rs`).
const CORE: [&str; 7] = ["move", "kind", "side", "captures", "extra_move", "over", "position"];

/// The score group: a move scored among the legal moves of its position.
const SCORE: [&str; 5] = ["value", "label", "depth", "best", "keeps_value"];

/// The review group: a ply of a reviewed game.
const REVIEW: [&str; 5] = ["before", "played", "best_value", "only", "mistake"];

/// The group a move object has besides the core.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Group {
    /// The core alone.
    None,
    Score,
    Review,
}

impl Group {
    /// The exact keys of a move object with this group.
    fn keys(self) -> BTreeSet<&'static str> {
        let extra: &[&str] = match self {
            Group::None => &[],
            Group::Score => &SCORE,
            Group::Review => &REVIEW,
        };
        CORE.iter().chain(extra).copied().collect()
    }
}

/// Checks that every element of `doc[list]` has exactly the keys of
/// `group`; returns how many there are.
fn check_moves(doc: &Json, list: &str, group: Group, what: &str) -> usize {
    let moves = doc[list].as_array().unwrap_or_else(|| panic!("{what}: no array {list}: {doc}"));
    for m in moves {
        let keys: BTreeSet<&str> = m
            .as_object()
            .unwrap_or_else(|| panic!("{what}: {m}"))
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(keys, group.keys(), "{what}: {list}[] has other keys than {group:?}: {m}");
    }
    moves.len()
}

#[test]
fn every_move_has_one_shape() {
    // The groups share no key, so a key means one thing in every move.
    let all: Vec<&str> = CORE.iter().chain(&SCORE).chain(&REVIEW).copied().collect();
    assert_eq!(all.iter().collect::<BTreeSet<_>>().len(), all.len(), "a key in two groups");

    // Every move documented in docs/json.md: the rows `a[].b` of an array
    // `a` whose elements have a `move`.
    let mut documented = 0;
    for (section, fields) in schema() {
        let lists: BTreeSet<&str> =
            fields.iter().filter_map(|f| f.path.strip_suffix("[].move")).collect();
        for list in lists {
            let prefix = format!("{list}[].");
            let keys: BTreeSet<&str> =
                fields.iter().filter_map(|f| f.path.strip_prefix(prefix.as_str())).collect();
            let group = [Group::None, Group::Score, Group::Review]
                .into_iter()
                .find(|g| g.keys() == keys)
                .unwrap_or_else(|| panic!("## {section}: {list}[] is no move shape: {keys:?}"));
            assert_eq!(
                group == Group::None,
                section.contains("show") || section.contains("play --json")
            );
            documented += 1;
        }
    }
    assert_eq!(documented, 9, "the sections with moves");

    // Every command and endpoint that prints moves, with a capture, an
    // extra move and a game's end among them.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let d = dir.path();
    ok_in(d, &["generate", "--slots", "4"]);
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut count = |what: &'static str, n: usize| *seen.entry(what).or_default() += n;
    for pos in ["2,1,4,3", "2,0,3,4;0;0", "3,2,1,0;0;0"] {
        let doc = json_in(d, &["show", pos, "--json"]);
        count("show", check_moves(&doc, "moves", Group::None, pos));
        let doc = json_in(d, &["solve", pos, "--json"]);
        count("solve", check_moves(&doc, "moves", Group::Score, pos));
        let doc = json_in(d, &["query", pos, "--json"]);
        count("query", check_moves(&doc, "moves", Group::Score, pos));
    }
    let server = Server::start(d, &["--tables", "tables"]);
    for (pos, moves) in [("2,1,4,3", "1,pass,pass"), ("2,1,4,3", "2,3"), ("2,0,3,4;0;0", "1")] {
        let what = format!("{pos} {moves}");
        let doc = json_in(d, &["play", pos, "--moves", moves, "--json"]);
        count("play", check_moves(&doc, "moves", Group::None, &what));
        let doc = json_in(d, &["play", pos, "--moves", moves, "--analyse", "--json"]);
        count("play --analyse", check_moves(&doc, "plies", Group::Review, &what));
        // Each ply leads to the position the next one is played in.
        let plies = doc["plies"].as_array().unwrap();
        for pair in plies.windows(2) {
            assert_eq!(pair[0]["position"], pair[1]["before"], "{what}");
        }
        assert_eq!(plies.last().unwrap()["position"], doc["end"], "{what}");
        let path = format!("/api/analyse?pos={}&moves={moves}", esc(pos));
        let doc = server.ok(&path);
        count("/api/analyse", check_moves(&doc, "plies", Group::Review, &path));
    }
    for pos in ["2,1,4,3", "2,0,3,4;0;0", "3,2,1,0;0;0"] {
        let path = format!("/api/position?pos={}", esc(pos));
        count("/api/position", check_moves(&server.ok(&path), "moves", Group::Score, &path));
        let path = format!("/api/mainline?pos={}", esc(pos));
        count("/api/mainline", check_moves(&server.ok(&path), "line", Group::Score, &path));
    }
    let want = [
        "/api/analyse",
        "/api/mainline",
        "/api/position",
        "play",
        "play --analyse",
        "query",
        "show",
        "solve",
    ];
    assert_eq!(seen.keys().copied().collect::<Vec<_>>(), want);
    assert!(seen.values().all(|&n| n > 0), "no moves seen: {seen:?}");
}
