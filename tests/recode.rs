//! `recode`: tables with depths whose sub-tables have model sets of their
//! own are rewritten with one set a file and answer exactly as before,
//! with and without side files; `verify` passes on them; the same files
//! give the same bytes on any number of threads; a second run changes
//! nothing; a damaged file, values-only tables and a directory another
//! run holds are refused in one line and leave the files as they were.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use chaosclock::PassRule;
use chaosclock::table::{TableFile, Tablebase, file_name, fixed_sets};

use common::bin::{QUIET, check_fails, json_in, ok_in, run_in};
use common::{Rng, files_in, openings, random_position};

/// Makes the 8-slot tables with depths and side files under `root`, with a
/// model set for each sub-table of at least 1,000 甲 nodes (as the large
/// 12-slot files have).
fn make(root: &Path) {
    ok_in(
        root,
        &[
            "generate",
            "--slots",
            "8",
            "--tables",
            "t",
            "--keep-side-files",
            "--model-sets",
            "0,1000",
        ],
    );
}

/// Every opening and 3,000 random positions score the same in `a` and `b`.
fn same_scores(a: &Path, b: &Path) {
    let (a, b) = (Tablebase::new(a, 8, PassRule::Always), Tablebase::new(b, 8, PassRule::Always));
    let mut rng = Rng(0x2ec0de);
    let random = (0..3000).map(|i| random_position(&mut rng, 8, i % 6));
    for p in openings(8).into_iter().step_by(7).chain(random) {
        assert_eq!(a.score(&p).unwrap(), b.score(&p).unwrap(), "{p}");
    }
}

/// Whether `name` is a shared model set's file (`models-{sum}.cctm`).
fn is_set(name: &str) -> bool {
    name.starts_with("models-") && name.ends_with(".cctm")
}

/// Removes the side files of the 8-slot tables under `root`.
fn remove_side_files(root: &Path) {
    for e in fs::read_dir(root.join("t/n8-always")).unwrap() {
        let path = e.unwrap().path();
        if path.to_string_lossy().ends_with(".side.cctb") {
            fs::remove_file(path).unwrap();
        }
    }
}

#[test]
fn recoded_tables_answer_as_before_and_verify() {
    let (before, after) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    make(before.path());
    make(after.path());
    let args = ["recode", "--slots", "8", "--max-live", "8", "--tables", "t", "--json"];
    let report = json_in(after.path(), &args);
    // Files of more than one set (table and side files), and the rest.
    let recoded = report["files_recoded"].as_u64().unwrap();
    assert!(recoded >= 10, "{report}");
    assert_eq!(recoded + report["files_kept"].as_u64().unwrap(), 192, "{report}");
    assert!(report["bytes_after"].as_u64().unwrap() < report["bytes_before"].as_u64().unwrap());
    let dir = |d: &Path| d.join("t/n8-always");
    let (old, new) = (files_in(&dir(before.path())), files_in(&dir(after.path())));
    // The table files' shared model set, and the files.
    let (sets, tables): (Vec<_>, Vec<_>) = new.iter().partition(|(name, _)| is_set(name));
    assert_eq!(sets.len(), 1, "{:?}", sets.iter().map(|s| &s.0).collect::<Vec<_>>());
    assert_eq!(old.len(), tables.len());
    let changed = old.iter().zip(&tables).filter(|(o, n)| o != *n).count();
    assert_eq!(changed as u64, recoded);

    same_scores(&before.path().join("t"), &after.path().join("t"));
    ok_in(after.path(), &["verify", "--slots", "8", "--tables", "t", "--sample", "20000"]);
    // The query of an opening prints the same, line and depths included.
    let q = ["query", "--tables", "t", "--no-solve", "2,3,4,1,6,7,8,5"];
    assert_eq!(ok_in(before.path(), &q), ok_in(after.path(), &q));

    // Done already: nothing changes.
    let again = json_in(after.path(), &args);
    assert_eq!(again["files_recoded"], 0, "{again}");
    assert_eq!(files_in(&dir(after.path())), new);

    // Without side files, 乙's scores are derived from the table files.
    remove_side_files(before.path());
    remove_side_files(after.path());
    same_scores(&before.path().join("t"), &after.path().join("t"));

    // The same bytes from the same files, on one thread as on several.
    let out = Command::new(env!("CARGO_BIN_EXE_chaosclock"))
        .args(args)
        .current_dir(before.path())
        .env(QUIET.0, QUIET.1)
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(files_in(&dir(before.path())), files_in(&dir(after.path())));
}

#[test]
fn a_stale_temporary_file_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    make(dir.path());
    let tmp = dir.path().join("t/n8-always/f0000.cctb.recode");
    fs::write(&tmp, b"left by a recoding that was stopped").unwrap();
    let report = json_in(
        dir.path(),
        &["recode", "--slots", "8", "--max-live", "8", "--tables", "t", "--json"],
    );
    assert!(report["files_recoded"].as_u64().unwrap() >= 10, "{report}");
    assert!(!tmp.exists());
}

#[test]
fn a_damaged_file_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    make(dir.path());
    let path = dir.path().join("t/n8-always/f0000.cctb");
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40; // in the last block
    fs::write(&path, &bytes).unwrap();
    let args = ["recode", "--slots", "8", "--max-live", "8", "--tables", "t"];
    check_fails(&args, run_in(dir.path(), &args), "corrupt table t/n8-always/f0000.cctb: block");
    assert_eq!(fs::read(&path).unwrap(), bytes);
    assert!(!dir.path().join("t/n8-always/f0000.cctb.recode").exists());
}

#[test]
fn values_only_tables_and_a_busy_directory_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    ok_in(dir.path(), &["generate", "--slots", "6", "--tables", "v", "--values-only"]);
    let args = ["recode", "--slots", "6", "--tables", "v"];
    check_fails(
        &args,
        run_in(dir.path(), &args),
        "only tables with depths of encoding 4 are recoded",
    );

    ok_in(dir.path(), &["generate", "--slots", "6", "--tables", "d"]);
    let lock = fs::File::create(dir.path().join("d/n6-always.lock")).unwrap();
    lock.try_lock().unwrap();
    let args = ["recode", "--slots", "6", "--tables", "d"];
    check_fails(
        &args,
        run_in(dir.path(), &args),
        "another chaosclock generate or recode is writing to",
    );
    drop(lock);
    ok_in(dir.path(), &args);
}

#[test]
fn missing_tables_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["recode", "--slots", "8", "--tables", "none"];
    check_fails(&args, run_in(dir.path(), &args), "--tables none: no such directory");
    std::fs::create_dir(dir.path().join("none")).unwrap();
    check_fails(&args, run_in(dir.path(), &args), "no table none/n8-always/");
    assert!(!Path::new(&dir.path().join("none/n8-always")).exists());
}

/// `recode --file-log` adds a line with the new bytes for each table file
/// it rewrites, so that `manifest --file-log` takes the log: the same
/// states, counts and openings as before recoding, new checksums for the
/// files recoded, and `verify --manifest` passes. Without the flag, the
/// manifest names the log as one of other tables.
#[test]
fn the_manifest_takes_the_file_log_given_to_recode() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let made = ["generate", "--slots", "8", "--tables", "t", "--model-sets", "0,1000"];
    ok_in(d, &[&made[..], &["--file-log", "files.jsonl"]].concat());
    let manifest = |out: &str| {
        let args = ["manifest", "--slots", "8", "--max-live", "8", "--tables", "t"];
        run_in(d, &[&args[..], &["--file-log", "files.jsonl", "--output", out]].concat())
    };
    assert!(manifest("before.json").status.success());
    let lines = || fs::read_to_string(d.join("files.jsonl")).unwrap().lines().count();
    let logged = lines();
    let recode = ["recode", "--slots", "8", "--max-live", "8", "--tables", "t"];
    let report = json_in(d, &[&recode[..], &["--file-log", "files.jsonl", "--json"]].concat());
    // No side files here: every file recoded has a line.
    let recoded = report["files_recoded"].as_u64().unwrap();
    assert!(recoded >= 5, "{report}");
    assert_eq!(lines() as u64, logged as u64 + recoded);
    let out = manifest("after.json");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let read = |f: &str| -> serde_json::Value {
        serde_json::from_str(&fs::read_to_string(d.join(f)).unwrap()).unwrap()
    };
    let (before, after) = (read("before.json"), read("after.json"));
    for key in ["nodes", "states", "counts", "openings"] {
        assert_eq!(before[key], after[key], "{key}");
    }
    let (fb, fa) = (before["files"].as_array().unwrap(), after["files"].as_array().unwrap());
    let changed = fb.iter().zip(fa).filter(|(b, a)| b["checksum"] != a["checksum"]).count();
    assert_eq!(changed as u64, recoded);
    // The manifest counts the openings from their values bytes; `openings`
    // from their scores.
    let openings = json_in(d, &["openings", "--slots", "8", "--tables", "t", "--json"]);
    assert_eq!(openings["source"], "tables");
    assert_eq!(openings["counts"], after["openings"]);
    ok_in(
        d,
        &[
            "verify",
            "--slots",
            "8",
            "--tables",
            "t",
            "--manifest",
            "after.json",
            "--sample",
            "1000",
        ],
    );

    // The same without --file-log: the log no longer fits the files.
    let other = tempfile::tempdir().unwrap();
    let o = other.path();
    ok_in(o, &[&made[..], &["--file-log", "files.jsonl"]].concat());
    ok_in(o, &recode);
    let args = [
        "manifest",
        "--slots",
        "8",
        "--max-live",
        "8",
        "--tables",
        "t",
        "--file-log",
        "files.jsonl",
    ];
    check_fails(&args, run_in(o, &args), "the log is of other tables");
}

/// Blocks in segments of every size (and none) answer as the files
/// `generate` wrote, recoding from one shape to another rewrites every
/// file, and a damaged block of a file in segments is refused.
#[test]
fn segments_of_every_size_answer_the_same_and_damage_is_caught() {
    let (before, after) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    make(before.path());
    make(after.path());
    let recode = |g: &str| {
        let args = ["recode", "--slots", "8", "--tables", "t", "--json", "--segment-boards", g];
        json_in(after.path(), &args)
    };
    for g in ["0", "16", "256", "64"] {
        let report = recode(g);
        assert_eq!(report["segment_boards"].as_u64().unwrap().to_string(), g, "{report}");
        let recoded = report["files_recoded"].as_u64().unwrap();
        // From one set a file without segments, every file changes.
        assert!(recoded >= 10 && (g == "0" || recoded == 192), "{g}: {report}");
        same_scores(&before.path().join("t"), &after.path().join("t"));
        assert_eq!(recode(g)["files_recoded"], 0, "{g}: done already");
    }
    let q = ["query", "--tables", "t", "--no-solve", "2,3,4,1,6,7,8,5"];
    assert_eq!(ok_in(before.path(), &q), ok_in(after.path(), &q));
    ok_in(after.path(), &["verify", "--slots", "8", "--tables", "t", "--sample", "5000"]);
    let bad = ["recode", "--slots", "8", "--tables", "t", "--segment-boards", "32x"];
    check_fails(&bad, run_in(after.path(), &bad), "'32x' is not a number of boards");
    let bad = ["recode", "--slots", "8", "--tables", "t", "--segment-boards", "512"];
    check_fails(&bad, run_in(after.path(), &bad), "512 is not 0 or a power of two from 16 to 256");

    // A byte of the last block changed: verify names the block.
    let path = after.path().join("t/n8-always/f0000.cctb");
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x10;
    fs::write(&path, &bytes).unwrap();
    let args = ["verify", "--slots", "8", "--tables", "t", "--sample", "0"];
    let out = run_in(after.path(), &args);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("t/n8-always/f0000.cctb") && stderr.contains("block"), "{stderr}");
}

/// `generate` reads recoded files (one set, segments) as it reads its
/// own: a file made again on top of them has the bytes it had.
#[test]
fn a_file_made_again_over_recoded_files_is_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok_in(d, &["generate", "--slots", "8", "--tables", "t"]);
    let path = d.join("t/n8-always/f0000.cctb");
    let made = fs::read(&path).unwrap();
    ok_in(d, &["recode", "--slots", "8", "--tables", "t"]);
    assert_ne!(fs::read(&path).unwrap(), made, "recoded");
    fs::remove_file(&path).unwrap();
    ok_in(d, &["generate", "--slots", "8", "--tables", "t"]);
    assert_eq!(fs::read(&path).unwrap(), made);
    ok_in(d, &["verify", "--slots", "8", "--tables", "t", "--sample", "5000"]);
}

/// The table files share one model set (`models-{sum}.cctm`, named by
/// each file), side files keep their own. A file put back as `generate`
/// wrote it is recoded with the set written before, to the same bytes.
/// Without the set, or with it damaged, a query is refused in one line;
/// the manifest lists it and `verify --manifest` checks it. With
/// `--file-models` each file gets a set of its own again, answering the
/// same, and the unused set is removed.
#[test]
fn the_table_files_share_one_model_set() {
    let (before, after) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (b, a) = (before.path(), after.path());
    make(b);
    make(a);
    let args = ["recode", "--slots", "8", "--tables", "t", "--json"];
    let report = json_in(a, &args);
    assert_eq!(report["shared_models"], true, "{report}");
    let dir = a.join("t/n8-always");
    let names: Vec<String> = files_in(&dir).into_iter().map(|(name, _)| name).collect();
    let sets: Vec<&String> = names.iter().filter(|n| is_set(n)).collect();
    assert_eq!(sets.len(), 1, "{names:?}");
    assert_eq!(report["models_file"], sets[0].as_str(), "{report}");
    let set = dir.join(sets[0]);
    let sum = u64::from_str_radix(&sets[0]["models-".len()..sets[0].len() - 5], 16).unwrap();
    let mut files = 0;
    for f in fixed_sets(8, 8) {
        let path = dir.join(file_name(f));
        let file = TableFile::open(&path, 8, PassRule::Always, f).unwrap();
        assert_eq!(file.shared_models(), Some(sum), "{}", path.display());
        let side = dir.join(file_name(f).replace(".cctb", ".side.cctb"));
        let side = TableFile::open(&side, 8, PassRule::Always, f).unwrap();
        assert_eq!(side.shared_models(), None, "side files keep sets of their own");
        files += 1;
    }
    same_scores(&b.join("t"), &a.join("t"));
    let q = ["query", "--tables", "t", "--no-solve", "2,3,4,1,6,7,8,5"];
    assert_eq!(ok_in(b, &q), ok_in(a, &q));
    let recoded = files_in(&dir);

    // Resumed: only the file put back is recoded, with the same set.
    fs::copy(b.join("t/n8-always/f0000.cctb"), dir.join("f0000.cctb")).unwrap();
    let again = json_in(a, &args);
    assert_eq!(again["files_recoded"], 1, "{again}");
    assert_eq!(files_in(&dir), recoded);

    // The manifest lists the set; verify checks it.
    let manifest = ["manifest", "--slots", "8", "--max-live", "8", "--tables", "t"];
    ok_in(a, &[&manifest[..], &["--no-openings", "--output", "m.json"]].concat());
    let m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(a.join("m.json")).unwrap()).unwrap();
    assert_eq!(m["models"]["file"], sets[0].as_str(), "{m}");
    assert_eq!(m["models"]["checksum"], format!("{sum:016x}"), "{m}");
    let listed: u64 =
        m["files"].as_array().unwrap().iter().map(|f| f["bytes"].as_u64().unwrap()).sum();
    assert_eq!(m["bytes"].as_u64().unwrap(), listed + fs::metadata(&set).unwrap().len());
    let verify = ["verify", "--slots", "8", "--tables", "t", "--sample", "2000", "--solves", "2"];
    ok_in(a, &[&verify[..], &["--manifest", "m.json"]].concat());

    // A damaged set, and no set: refused in one line.
    let good = fs::read(&set).unwrap();
    let mut bad = good.clone();
    bad[good.len() / 2] ^= 0x08;
    fs::write(&set, &bad).unwrap();
    let shown = format!("t/n8-always/{}", sets[0]);
    check_fails(&q, run_in(a, &q), &format!("corrupt table {shown}: checksum mismatch"));
    let out = run_in(a, &["verify", "--slots", "8", "--tables", "t", "--sample", "0"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains(&shown), "{out:?}");
    fs::remove_file(&set).unwrap();
    check_fails(&q, run_in(a, &q), "a model set this table's files are coded with");
    fs::write(&set, &good).unwrap();

    // A set of its own for each file again: the same answers, no set left.
    let own = json_in(a, &[&args[..], &["--file-models"]].concat());
    assert_eq!(own["shared_models"], false, "{own}");
    assert_eq!(own["models_file"], serde_json::Value::Null, "{own}");
    assert_eq!(own["files_recoded"], files, "{own}");
    assert!(!set.exists());
    same_scores(&b.join("t"), &a.join("t"));
    assert_eq!(ok_in(b, &q), ok_in(a, &q));
}
