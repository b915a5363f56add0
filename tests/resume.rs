//! Stopping `generate` inside a file and going on: a run killed (SIGKILL)
//! at several moments inside its largest file resumes from its last
//! checkpoint and ends with the bytes of a run that was never stopped;
//! a second writer on the same directory gets a clear error, and a killed
//! run leaves no lock behind; complete tables in a directory that cannot be
//! written are kept, and missing ones are refused in one line.

mod common;

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use chaosclock::PassRule;
use chaosclock::generate::{Config, Limits, generate};
use chaosclock::progress::Progress;
use chaosclock::table::Encoding;

use common::bin::{QUIET, check_fails, run_in};
use common::files_in as files;
use serde_json::Value as Json;

/// Starts `chaosclock args` in `dir` in the background.
fn spawn(dir: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_chaosclock"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the chaosclock binary runs")
}

/// Runs `args` in `dir`; it must succeed and print one line of JSON.
fn json_in(dir: &Path, args: &[&str]) -> Json {
    let out = run_in(dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

/// Waits until `path` has been written `times` more times (its
/// modification time or size changed), or `child` ended; returns whether
/// it is still running.
fn wait_for_saves(child: &mut Child, path: &Path, times: usize) -> bool {
    let stamp = || std::fs::metadata(path).ok().map(|m| (m.modified().ok(), m.len()));
    let deadline = Instant::now() + Duration::from_secs(600);
    let (mut last, mut seen) = (stamp(), 0);
    while seen < times && Instant::now() < deadline {
        if child.try_wait().expect("the child can be polled").is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
        let now = stamp();
        if now.is_some() && now != last {
            seen += 1;
            last = now;
        }
    }
    true
}

/// The 10-slot tables of values only, with at most 7 pieces not fixed (the
/// largest file, three pieces fixed, is the last one made), checkpointed
/// after every sub-table: killed three times inside that file, each run
/// going on from the last, then finished; every file under its final name
/// is always the clean run's, and at the end all of them are.
#[test]
fn killed_inside_the_largest_file_resumes_to_the_same_bytes() {
    killed_and_resumed(&["--values-only"]);
}

/// [`killed_inside_the_largest_file_resumes_to_the_same_bytes`] for the
/// tables with depths (encoding 4 and its side files), with a model set
/// for each sub-table of at least 1,000 甲 nodes, so that sub-tables are
/// coded as they are solved and others wait in the scratch file.
#[test]
fn killed_with_depths_resumes_to_the_same_bytes() {
    killed_and_resumed(&["--model-sets", "0,1000"]);
}

/// Generates the 10-slot tables of max-live 7 with `extra` arguments,
/// killed inside the largest file three times, and finished.
fn killed_and_resumed(extra: &[&str]) {
    let args: Vec<&str> =
        ["generate", "--slots", "10", "--max-live", "7", "--checkpoint", "0", "--json"]
            .into_iter()
            .chain(extra.iter().copied())
            .collect();
    let clean = tempfile::tempdir().unwrap();
    json_in(clean.path(), &args);
    let want = files(&clean.path().join("tables/n10-always"));

    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables/n10-always");
    // The largest file's checkpoint (the last file made, 3 pieces fixed).
    let (_, largest) = want
        .iter()
        .filter(|(name, _)| name.ends_with(".cctb") && !name.ends_with(".side.cctb"))
        .map(|(name, bytes)| (bytes.len(), name.trim_end_matches(".cctb")))
        .max()
        .expect("files");
    let ckpt = tables.join(format!("{largest}.ckpt"));
    let (mut kills, mut from_checkpoint) = (0, 0);
    for saves in [1, 2, 3] {
        // A run that starts with the checkpoint there goes on from it.
        from_checkpoint += usize::from(ckpt.exists());
        let mut child = spawn(dir.path(), &args);
        // Into the largest file, then `saves` checkpoints more.
        let running = wait_for_saves(&mut child, &ckpt, saves);
        let _ = child.kill();
        child.wait().unwrap();
        kills += usize::from(running);
        for (name, bytes) in files(&tables) {
            if name.ends_with(".cctb") {
                let good = want.iter().find(|(n, _)| *n == name);
                assert!(good.is_some_and(|(_, b)| *b == bytes), "after kill {saves}: {name}");
            }
        }
    }
    assert!(kills > 0, "no run was killed inside the largest file");
    // On a busy machine a killed run may have finished the file between
    // its last save and the kill; then the last run to go on from a
    // checkpoint was a killed one, and the final run keeps every file.
    let last_from_checkpoint = ckpt.exists();
    from_checkpoint += usize::from(last_from_checkpoint);
    let s = json_in(dir.path(), &args);
    assert!(from_checkpoint > 0, "no run went on from a checkpoint: {s}");
    if last_from_checkpoint {
        assert!(s["signatures_resumed"].as_u64().unwrap() > 0, "{s}");
    }
    assert_eq!(files(&tables), want, "the same bytes; no checkpoint or temporary file left");
}

/// What a [`Progress`] was told.
#[derive(Default)]
struct Told {
    length: AtomicU64,
    advanced: AtomicU64,
    /// Lengthened or shortened on the way.
    changed: AtomicU64,
}

impl Progress for Told {
    fn start(&self, total: u64, _: &str) {
        self.length.store(total, Ordering::Relaxed);
    }

    fn advance(&self, units: u64) {
        self.advanced.fetch_add(units, Ordering::Relaxed);
    }

    fn shorten(&self, units: u64) {
        self.changed.fetch_add(units, Ordering::Relaxed);
    }

    fn lengthen(&self, units: u64) {
        self.changed.fetch_add(units, Ordering::Relaxed);
    }
}

/// A run that goes on from checkpoints counts from its start only the
/// work left, for every file, those it begins later included: its bar's
/// length is what it then makes, never changed on the way (the run log's
/// speed, time left and share of the table come from it).
#[test]
fn a_resumed_run_counts_only_the_work_left_from_its_start() {
    let args =
        ["generate", "--slots", "10", "--max-live", "7", "--checkpoint", "0", "--values-only"];
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables/n10-always");
    let checkpoints = || {
        let names = std::fs::read_dir(&tables).into_iter().flatten().flatten();
        names.filter(|e| e.file_name().to_string_lossy().ends_with(".ckpt")).count()
    };
    // Killed while files are under way (a run may end a file and remove
    // its checkpoint just before the kill: then again).
    for _ in 0..20 {
        let mut child = spawn(dir.path(), &args);
        let deadline = Instant::now() + Duration::from_secs(300);
        while checkpoints() < 2 && Instant::now() < deadline && child.try_wait().unwrap().is_none()
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = child.kill();
        child.wait().unwrap();
        if checkpoints() > 0 {
            break;
        }
    }
    assert!(checkpoints() > 0, "no run was killed with a file under way");
    let limits = {
        let mut l = Limits::default();
        l.checkpoint = Duration::ZERO;
        l
    };
    let cfg = Config::new(dir.path().join("tables"), 10, PassRule::Always)
        .with_max_live(7)
        .with_encoding(Encoding::Packed)
        .with_limits(limits);
    let told = Told::default();
    let report = generate(&cfg, Some(&told)).unwrap();
    assert!(report.resumed > 0, "nothing went on from a checkpoint");
    assert_eq!(told.changed.load(Ordering::Relaxed), 0, "the length changed on the way");
    assert_eq!(told.advanced.load(Ordering::Relaxed), told.length.load(Ordering::Relaxed));
}

/// A second `generate` on the same directory fails at once with one line
/// that says why; once the first is killed, the lock is free again.
#[test]
fn one_writer_at_a_time_and_no_stuck_lock() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["generate", "--slots", "10", "--values-only"];
    let mut first = spawn(dir.path(), &args);
    let tables = dir.path().join("tables/n10-always");
    while !tables.exists() {
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(200));
    check_fails(
        &args,
        run_in(dir.path(), &args),
        "another chaosclock generate or recode is writing to",
    );
    first.kill().unwrap();
    first.wait().unwrap();
    let again = ["generate", "--slots", "10", "--max-live", "2", "--values-only", "--json"];
    let s = json_in(dir.path(), &again);
    assert!(s["files_written"].as_u64().unwrap() + s["files_kept"].as_u64().unwrap() > 0);
}

/// Makes everything under `path` read-only (`chmod -R a-w`), or writable
/// again by its owner.
fn set_read_only(path: &Path, read_only: bool) {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path).unwrap();
    if meta.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            set_read_only(&entry.unwrap().path(), read_only);
        }
    }
    let mode = meta.permissions().mode();
    let mode = if read_only { mode & !0o222 } else { mode | 0o200 };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// The command prefix that runs a program as a user the permissions of
/// `read_only` (a read-only directory) bind: none if they bind this
/// process; for root, which they do not bind, `setpriv` to `nobody`, if
/// that works and `nobody` can run the binary but not write there. `Err`
/// says why neither works.
fn bound_by_permissions(read_only: &Path) -> Result<Vec<&'static str>, String> {
    let probe = read_only.join("probe");
    if std::fs::write(&probe, b"").is_err() {
        return Ok(Vec::new());
    }
    std::fs::remove_file(&probe).unwrap();
    let setpriv = vec!["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"];
    let as_nobody = |program: &str, args: &[&str]| {
        Command::new(setpriv[0]).args(&setpriv[1..]).arg(program).args(args).output()
    };
    let runs = as_nobody(env!("CARGO_BIN_EXE_chaosclock"), &["--version"]);
    if !runs.is_ok_and(|o| o.status.success()) {
        return Err("this process can write to read-only directories (root?), and \
                    `setpriv` cannot run the binary as nobody"
            .into());
    }
    let probe = probe.to_str().unwrap();
    if as_nobody("touch", &[probe]).is_ok_and(|o| o.status.success()) || Path::new(probe).exists() {
        return Err("nobody can write to a read-only directory".into());
    }
    Ok(setpriv)
}

/// Runs `args` in `dir` after the command prefix `prefix`.
fn run_as(prefix: &[&str], dir: &Path, args: &[&str]) -> Output {
    let bin = env!("CARGO_BIN_EXE_chaosclock");
    let (program, rest) = prefix.split_first().map_or((bin, &[][..]), |(p, r)| (*p, r));
    let mut cmd = Command::new(program);
    cmd.args(rest);
    if !prefix.is_empty() {
        cmd.arg(bin);
    }
    cmd.args(args).current_dir(dir).env(QUIET.0, QUIET.1).stdin(Stdio::null());
    cmd.output().expect("the chaosclock binary runs")
}

/// Issue 24: `generate` on complete tables in a directory it cannot write
/// to (its lock file included) keeps them, with the output of any complete
/// re-run; with a file missing it fails at once in one line that names the
/// directory, and writes nothing. Run as `nobody` when the test runs as
/// root, which the permissions do not bind.
#[test]
fn a_read_only_directory_is_only_read() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["generate", "--slots", "6", "--tables", "T", "--json"];
    json_in(dir.path(), &args);
    let mut want = json_in(dir.path(), &args);
    let tables = dir.path().join("T");
    let before = files(&tables.join("n6-always"));
    let (name, removed_bytes) = before.iter().find(|(n, _)| n.ends_with(".cctb")).unwrap();
    let removed = tables.join("n6-always").join(name);
    set_read_only(&tables, true);
    // `nobody` must reach the directory.
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let prefix = match bound_by_permissions(&tables.join("n6-always")) {
        Ok(prefix) => prefix,
        Err(why) => {
            set_read_only(&tables, false);
            eprintln!("skipped: {why}");
            return;
        }
    };

    // Complete: kept, the same output but for the time taken.
    let out = run_as(&prefix, dir.path(), &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed in a read-only directory: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let mut got: Json = serde_json::from_slice(&out.stdout).expect("one JSON document");
    for key in ["seconds", "states_per_second"] {
        got[key] = Json::Null;
        want[key] = Json::Null;
    }
    assert_eq!(got, want);
    assert!(got["files_kept"].as_u64().unwrap() > 0 && got["files_written"] == 0, "{got}");

    // A file missing: refused in one line naming the directory.
    set_read_only(&tables, false);
    std::fs::remove_file(&removed).unwrap();
    set_read_only(&tables, true);
    let out = run_as(&prefix, dir.path(), &args);
    set_read_only(&tables, false);
    check_fails(&args, out, "cannot write to T/n6-always: 1 file is missing or incomplete");
    std::fs::write(&removed, removed_bytes).unwrap();
    assert_eq!(files(&tables.join("n6-always")), before, "nothing written");
}
