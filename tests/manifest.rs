//! `manifest` and `verify --manifest`: a manifest describes the files it
//! was made from (lengths, nodes, checksums, the states of the file log
//! over several runs, the runs of the run log, the openings counted
//! independently by the solver), tables made again on another thread count
//! match it, and any difference or bad input is named.
//!
//! `tables/n8-always.json` and `tests/golden/n8-always-depths.json` are
//! committed manifests: generating the 8-slot tables must give exactly the
//! same bytes on any machine, in any later version of the generator.

mod common;

use std::path::Path;

use common::bin::{check_exit, json_in, ok_in, run_in};
use serde_json::Value as Json;

/// Runs `args` in `dir`; it must fail with exit `code` and `want` in its
/// one-line error.
fn fails(dir: &Path, args: &[&str], code: i32, want: &str) {
    check_exit(args, run_in(dir, args), code, want);
}

/// Runs `args` in `dir`, which must succeed (notes on stderr allowed);
/// returns stdout.
fn ok_noted(dir: &Path, args: &[&str]) -> String {
    let out = run_in(dir, args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

fn int(v: &Json) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("{v} is not an integer"))
}

fn read_json(path: &Path) -> Json {
    let text = std::fs::read_to_string(path).expect("the manifest is written");
    serde_json::from_str(&text).expect("the manifest is JSON")
}

/// A run log of two runs, as scripts/make-table-12.sh writes it.
const RUN_LOG: &str = "\
=== run started 2026-11-23 14:00:00 UTC, commit abc
[0h01m00s] 10.00% done: 1 of 10 nodes, 1 nodes/s, about 0h00m09s left
=== run started 2026-11-23 15:00:00 UTC, commit abc
[0h01m00s] 50.00% done: 5 of 10 nodes, 1 nodes/s, about 0h00m05s left, peak memory 100 MiB, anonymous 60 MiB
run ended: exit 0, wall 75.20 s, peak memory 90000 KiB
";

#[test]
fn manifest_describes_tables_made_over_two_runs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Two runs: the second keeps the files of the first.
    let gen6 = |k: &str| {
        let args = ["generate", "--slots", "6", "--max-live", k, "--values-only", "--json"];
        let mut args = args.to_vec();
        args.extend(["--file-log", "files.jsonl"]);
        serde_json::from_str::<Json>(&ok_noted(d, &args)).expect("a JSON summary")
    };
    let first = gen6("3");
    let second = gen6("6");
    assert!(int(&second["files_kept"]) > 0);
    std::fs::write(d.join("run.log"), RUN_LOG).unwrap();
    let args = ["manifest", "--slots", "6", "--file-log", "files.jsonl", "--run-log", "run.log"];
    let text = ok_in(d, &[&args[..], &["--output", "m.json"]].concat());
    assert!(text.is_empty(), "--output writes nothing on stdout: {text}");
    let m = read_json(&d.join("m.json"));
    // The same manifest on stdout.
    let printed: Json = serde_json::from_str(&ok_in(d, &args)).unwrap();
    assert_eq!(printed, m);

    assert_eq!((int(&m["slots"]), int(&m["max_live"])), (6, 6));
    assert_eq!((m["pass_rule"].as_str(), m["values_only"].as_bool()), (Some("always"), Some(true)));
    // Every file, sorted, with its length on disk.
    let files = m["files"].as_array().unwrap();
    assert_eq!(files.len(), 40);
    let names: Vec<&str> = files.iter().map(|f| f["file"].as_str().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
    for f in files {
        let path = d.join("tables/n6-always").join(f["file"].as_str().unwrap());
        assert_eq!(int(&f["bytes"]), std::fs::metadata(path).unwrap().len());
        assert_eq!(f["checksum"].as_str().unwrap().len(), 16);
    }
    let sum = |key: &str| files.iter().map(|f| int(&f[key])).sum::<u64>();
    assert_eq!(int(&m["bytes"]), sum("bytes"));
    assert_eq!(int(&m["nodes"]), sum("nodes"));
    // The states of both runs add up.
    assert_eq!(int(&m["states"]), int(&first["states"]) + int(&second["states"]));
    assert_eq!(int(&m["states"]), sum("states"));
    for code in ["4", "3", "2", "1", "0"] {
        let both = int(&first["counts"][code]) + int(&second["counts"][code]);
        assert_eq!(int(&m["counts"][code]), both, "value {code}");
    }
    // The runs of the run log.
    let run = &m["run"];
    assert_eq!((int(&run["runs"]), int(&run["wall_seconds"])), (2, 60 + 75));
    assert_eq!((int(&run["peak_memory_kib"]), int(&run["runs_with_memory"])), (102_400, 1));
    assert_eq!(int(&run["peak_anonymous_mib"]), 60);
    // The openings, read from the tables, as the solver counts them.
    let solved = json_in(d, &["openings", "--slots", "6", "--json"]);
    assert_eq!(m["openings"], solved["counts"]);

    // The tables verify against their manifest, and so do tables made
    // again on one thread.
    let verify = ["verify", "--manifest", "m.json", "--sample", "200", "--solves", "2", "--json"];
    let report = json_in(d, &verify);
    assert_eq!(report["manifest"], "m.json");
    assert_eq!(report["mismatches"], Json::Array(vec![]));
    let again = ["generate", "--slots", "6", "--values-only", "--threads", "1", "--tables", "t1"];
    ok_in(d, &[&again[..], &["--json"]].concat());
    json_in(d, &[&verify[..], &["--tables", "t1"]].concat());
}

#[test]
fn verify_names_every_difference_from_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok_in(d, &["generate", "--slots", "4", "--json"]);
    ok_in(d, &["manifest", "--slots", "4", "--output", "m.json"]);
    let m = std::fs::read_to_string(d.join("m.json")).unwrap();
    let manifest = read_json(&d.join("m.json"));
    assert_eq!(manifest["values_only"], false);
    assert_eq!((manifest["states"].clone(), manifest["run"].clone()), (Json::Null, Json::Null));
    let first = &manifest["files"][0];
    let (name, sum) = (first["file"].as_str().unwrap(), first["checksum"].as_str().unwrap());
    let other = format!("{:016x}", u64::from_str_radix(sum, 16).unwrap() ^ 1);
    std::fs::write(d.join("sum.json"), m.replacen(sum, &other, 1)).unwrap();
    let bytes = format!("\"bytes\":{}", first["bytes"]);
    std::fs::write(d.join("len.json"), m.replacen(&bytes, "\"bytes\":1", 1)).unwrap();
    let gone = m.replacen(&format!("\"file\":\"{name}\""), "\"file\":\"elsewhere\"", 1);
    std::fs::write(d.join("gone.json"), gone).unwrap();
    for (file, want) in [
        ("sum.json", format!("{name}: checksum {sum}, the manifest says {other}")),
        ("len.json", format!("{name}: {} bytes, the manifest says 1", first["bytes"])),
        ("gone.json", format!("{name}: not in the manifest")),
    ] {
        let args = ["verify", "--manifest", file, "--sample", "10", "--solves", "1"];
        let out = run_in(d, &args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{file}: {stdout}");
        assert!(stdout.contains(&want), "{file}: {stdout} lacks {want}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("1 mismatch in"));
    }
    // Tables of another kind, size or rule: named, exit 2.
    ok_in(d, &["generate", "--slots", "4", "--values-only", "--tables", "v", "--json"]);
    let values = ["verify", "--manifest", "m.json", "--tables", "v"];
    fails(
        d,
        &values,
        2,
        "is of 4 slots, pass rule always, values with depths, --max-live 4; the tables checked are 4 slots, pass rule always, values only",
    );
    ok_in(d, &["generate", "--slots", "6", "--json"]);
    fails(d, &["verify", "--manifest", "m.json", "--slots", "6"], 2, "is of 4 slots");
    ok_in(d, &["--pass-rule", "when-stuck", "generate", "--slots", "4", "--json"]);
    let stuck = ["--pass-rule", "when-stuck", "verify", "--manifest", "m.json"];
    fails(d, &stuck, 2, "pass rule always");
}

#[test]
fn bad_manifest_input_fails_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fails(d, &["manifest", "--slots", "4"], 2, "no table tables/n4-always/");
    ok_in(d, &["generate", "--slots", "4", "--values-only", "--file-log", "log", "--json"]);
    let lines = std::fs::read_to_string(d.join("log")).unwrap();
    let mut lines: Vec<&str> = lines.lines().collect();
    let first = lines.remove(0);
    std::fs::write(d.join("short"), lines.join("\n")).unwrap();
    let name = serde_json::from_str::<Json>(first).unwrap()["file"].as_str().unwrap().to_string();
    fails(
        d,
        &["manifest", "--slots", "4", "--file-log", "short"],
        2,
        &format!("no line for {name}"),
    );
    let wrong = lines.iter().map(|l| l.replace("\"bytes\":", "\"bytes\":1")).collect::<Vec<_>>();
    std::fs::write(
        d.join("wrong"),
        [first.to_string()].into_iter().chain(wrong).collect::<Vec<_>>().join("\n"),
    )
    .unwrap();
    fails(d, &["manifest", "--slots", "4", "--file-log", "wrong"], 2, "the log is of other tables");
    std::fs::write(d.join("junk"), "{\"file\": 3}\n").unwrap();
    fails(
        d,
        &["manifest", "--slots", "4", "--file-log", "junk"],
        2,
        "junk line 1: not a file log line",
    );
    fails(
        d,
        &["manifest", "--slots", "4", "--file-log", "nowhere"],
        2,
        "cannot read --file-log nowhere",
    );
    std::fs::write(d.join("empty.log"), "nothing ran\n").unwrap();
    fails(d, &["manifest", "--slots", "4", "--run-log", "empty.log"], 2, "no run in it");
    fails(d, &["verify", "--manifest", "nowhere.json"], 2, "cannot read the manifest nowhere.json");
    fails(d, &["verify", "--manifest", "junk"], 2, "junk is not a table manifest");
    let no_dir = "no directory no/such/dir";
    fails(d, &["manifest", "--slots", "4", "--output", "no/such/dir/m.json"], 2, no_dir);
    // Checked before any file: the tables need not exist.
    fails(d, &["manifest", "--slots", "6", "--output", "no/such/dir/m.json"], 2, no_dir);
    fails(d, &["manifest", "--slots", "6", "--file-log", "junk"], 2, "junk line 1");
    assert!(!d.join("no").exists());
}

#[test]
fn a_partial_table_has_no_openings() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok_noted(d, &["generate", "--max-live", "2", "--values-only", "--json"]);
    let m: Json = serde_json::from_str(&ok_in(d, &["manifest", "--max-live", "2"])).unwrap();
    assert_eq!((int(&m["slots"]), int(&m["max_live"])), (12, 2));
    assert_eq!(m["openings"], Json::Null);
    // --max-live defaults to the manifest's.
    std::fs::write(d.join("m.json"), m.to_string()).unwrap();
    json_in(d, &["verify", "--manifest", "m.json", "--sample", "10", "--solves", "1", "--json"]);
}

/// Generates the 8-slot tables of `kind` and checks them against the
/// committed manifest `path` (relative to the repository).
fn same_as_committed(kind: &[&str], path: &str) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let generate = ["generate", "--slots", "8", "--file-log", "log", "--json"];
    ok_in(d, &[&generate[..], kind].concat());
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let committed = committed.to_str().unwrap();
    let report = json_in(d, &["verify", "--manifest", committed, "--sample", "1000", "--json"]);
    assert_eq!(report["mismatches"], Json::Array(vec![]), "{path}");
    // And the manifest made now is the committed one, openings included.
    let manifest = ["manifest", "--slots", "8", "--file-log", "log"];
    let now: Json = serde_json::from_str(&ok_in(d, &manifest)).unwrap();
    let then = read_json(Path::new(committed));
    for key in ["files", "bytes", "nodes", "states", "counts", "openings", "values_only"] {
        assert_eq!(now[key], then[key], "{path}: {key}");
    }
}

#[test]
fn eight_slot_values_only_tables_are_the_committed_bytes() {
    same_as_committed(&["--values-only"], "tables/n8-always.json");
}

#[test]
fn eight_slot_tables_with_depths_are_the_committed_bytes() {
    same_as_committed(&[], "tests/golden/n8-always-depths.json");
}

/// The manifest names the record encoding of its files, and `verify`
/// refuses tables of another one.
#[test]
fn the_manifest_names_the_encoding() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok_in(d, &["generate", "--slots", "4", "--json"]);
    let text = ok_in(d, &["manifest", "--slots", "4"]);
    let m: Json = serde_json::from_str(&text).unwrap();
    assert_eq!(m["encoding"], 4, "{m}");
    std::fs::write(d.join("m.json"), text.replace("\"encoding\": 4", "\"encoding\": 1")).unwrap();
    fails(d, &["verify", "--manifest", "m.json"], 2, "of tables of record encoding 1");
}

/// The manifests of the two kinds of one table (values only, and with
/// depths) describe the same game: the same files with the same nodes and
/// states, the same states of each value and the same openings of each
/// value. Only the bytes differ.
fn kinds_agree(values_only: &str, depths: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (v, d) = (read_json(&root.join(values_only)), read_json(&root.join(depths)));
    assert_eq!((&v["values_only"], &d["values_only"]), (&Json::Bool(true), &Json::Bool(false)));
    for key in ["slots", "pass_rule", "max_live", "format_version", "nodes", "states", "counts"] {
        assert_eq!(v[key], d[key], "{values_only} and {depths}: {key}");
    }
    assert!(v["openings"].is_object(), "{values_only} counts the openings");
    assert_eq!(v["openings"], d["openings"], "{values_only} and {depths}: openings");
    let files = |m: &Json| m["files"].as_array().expect("a list of files").clone();
    let (fv, fd) = (files(&v), files(&d));
    assert_eq!(fv.len(), fd.len(), "{values_only} and {depths}: the number of files");
    for (a, b) in fv.iter().zip(&fd) {
        for key in ["file", "nodes", "states"] {
            assert_eq!(a[key], b[key], "{values_only} and {depths}: {key} of {}", a["file"]);
        }
    }
}

#[test]
fn eight_slot_manifests_of_both_kinds_agree() {
    kinds_agree("tables/n8-always.json", "tests/golden/n8-always-depths.json");
}

/// The 12-slot table with depths (`tables/n12-always-depths.json`, written
/// by `scripts/make-table-12.sh finish`, 2026-11-28) against the
/// values-only table's manifest: issue 23 asks for the same openings
/// counts.
#[test]
fn twelve_slot_manifests_of_both_kinds_agree() {
    kinds_agree("tables/n12-always.json", "tables/n12-always-depths.json");
}
