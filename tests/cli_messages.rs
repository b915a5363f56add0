//! What the command line says before long work (issue 60): a `generate`
//! run projected over an hour prints its projection at once, before it
//! starts; a short one prints none.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::bin::run_in;

#[test]
fn a_generate_of_hours_prints_its_projection_before_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["generate", "--slots", "12", "--max-live", "12", "--values-only", "--tables", "t"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaosclock"))
        .args(args)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the chaosclock binary runs");
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stderr).read_line(&mut line);
        let _ = tx.send(line);
    });
    // The first line comes at once (the first progress line only after a
    // minute); then the run is stopped.
    let first = rx.recv_timeout(Duration::from_secs(20));
    let _ = child.kill();
    let _ = child.wait();
    let first = first.expect("a line on stderr within 20 s");
    assert!(
        first.starts_with(
            "note: a long run (a projection, scaled from the runs that made tables/n12-always.json"
        ),
        "{first}"
    );
    assert!(
        first.contains("33,721,885,208 nodes in 1,248 files, about 7.1 GB on disk, about "),
        "{first}"
    );
    assert!(first.contains(" on 2 cores, peak memory up to "), "{first}");
    assert_eq!(first.lines().count(), 1, "{first}");
}

#[test]
fn a_short_generate_prints_no_projection() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(dir.path(), &["generate", "--slots", "6", "--tables", "t"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("projection"), "{stderr}");
}
