//! Running the built `chaosclock` binary from the CLI tests.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value as Json;

/// No progress lines on stderr, however long a command takes on a loaded
/// machine (`src/cmd/progress.rs`): the tests expect a quiet stderr.
pub const QUIET: (&str, &str) = ("CHAOSCLOCK_PROGRESS_SECS", "0");

/// Runs the binary with `args` in `dir`, with no standard input.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chaosclock"))
        .args(args)
        .current_dir(dir)
        .env(QUIET.0, QUIET.1)
        .stdin(Stdio::null())
        .output()
        .expect("the chaosclock binary runs")
}

/// Runs the binary with `args` in `dir`, with `stdin` as its input.
pub fn run_with(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaosclock"))
        .args(args)
        .current_dir(dir)
        .env(QUIET.0, QUIET.1)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the chaosclock binary runs");
    child.stdin.take().expect("piped").write_all(stdin).expect("stdin is written");
    child.wait_with_output().expect("the chaosclock binary ends")
}

/// Runs the binary with `args` in a fresh temporary directory.
pub fn run(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().expect("a temporary directory");
    run_in(dir.path(), args)
}

/// Checks that a run succeeded quietly (stderr is not a terminal here, so
/// no progress bar) and returns its stdout.
pub fn stdout_of(args: &[&str], out: Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    assert!(stderr.is_empty(), "{args:?} wrote to stderr: {stderr}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// Runs `args` in a fresh directory; it must succeed; returns stdout.
pub fn ok(args: &[&str]) -> String {
    stdout_of(args, run(args))
}

/// Runs `args` in `dir`; it must succeed; returns stdout.
pub fn ok_in(dir: &Path, args: &[&str]) -> String {
    stdout_of(args, run_in(dir, args))
}

/// Runs `args`, which must succeed and print one JSON document on one line.
pub fn json(args: &[&str]) -> Json {
    one_json(args, &ok(args))
}

/// [`json`] run in `dir`.
pub fn json_in(dir: &Path, args: &[&str]) -> Json {
    one_json(args, &ok_in(dir, args))
}

/// The one JSON document on the one line of `text`, printed by `args`.
fn one_json(args: &[&str], text: &str) -> Json {
    assert_eq!(text.lines().count(), 1, "{args:?}: not one line: {text}");
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{args:?}: bad JSON {e}: {text}"))
}

/// Checks a run that must fail as bad input: exit code 2, nothing on
/// stdout, one line `error: ...` on stderr containing `want`, no panic.
pub fn check_fails(args: &[&str], out: Output, want: &str) {
    check_exit(args, out, 2, want);
}

/// [`check_fails`] for a run that must exit with `code`.
pub fn check_exit(args: &[&str], out: Output, code: i32, want: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed {:?}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(stderr.lines().count(), 1, "{args:?}: not one line: {stderr}");
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    assert!(stderr.contains(want), "{args:?}: {stderr:?} does not contain {want:?}");
}

/// Runs `args`, which must fail as bad input with `want` in the message.
pub fn fails(args: &[&str], want: &str) {
    check_fails(args, run(args), want);
}

/// The `generate` flags a long fault run takes from its environment:
/// `--values-only` with `CHAOSCLOCK_FAULT_VALUES_ONLY` set, and
/// `--max-live K` with `CHAOSCLOCK_FAULT_MAX_LIVE=K` (a partial table, for
/// a busy machine).
pub fn fault_generate_flags() -> Vec<String> {
    let mut flags = Vec::new();
    if std::env::var_os("CHAOSCLOCK_FAULT_VALUES_ONLY").is_some() {
        flags.push("--values-only".into());
    }
    if let Ok(k) = std::env::var("CHAOSCLOCK_FAULT_MAX_LIVE") {
        flags.extend(["--max-live".into(), k]);
    }
    flags
}
