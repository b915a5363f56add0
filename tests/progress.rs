//! Progress when stderr is not a terminal (`src/cmd/progress.rs`): a
//! line now and then on stderr, stdout unchanged. The interval is set to
//! a fraction of a second with `CHAOSCLOCK_PROGRESS_SECS`, so that a
//! 10-slot solve of about a second prints several lines.

use std::process::{Command, Output, Stdio};

/// Runs `chaosclock args` with `CHAOSCLOCK_PROGRESS_SECS=secs`.
fn run(args: &[&str], secs: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chaosclock"))
        .args(args)
        .current_dir(std::env::temp_dir())
        .env("CHAOSCLOCK_PROGRESS_SECS", secs)
        .stdin(Stdio::null())
        .output()
        .expect("the chaosclock binary runs")
}

/// The lines of `text` without the statistics that change from run to run.
fn steady(text: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(text)
        .lines()
        .filter(|l| !["speed:", "time:", "peak memory:"].iter().any(|p| l.starts_with(p)))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_solve_off_a_terminal_prints_progress_lines_on_stderr_only() {
    // 3,484,458 states: about a second.
    let args = ["solve", "2,1,6,10,4,3,5,7,8,9", "--no-tables"];
    let logged = run(&args, "0.05");
    assert!(logged.status.success());
    let stderr = String::from_utf8(logged.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(!lines.is_empty(), "no progress line");
    for line in &lines {
        assert!(line.starts_with("[0h00m"), "{line}");
        assert!(line.contains("] enumerating") || line.contains("] solving: "), "{line}");
    }
    let quiet = run(&args, "0");
    assert!(quiet.status.success());
    assert!(quiet.stderr.is_empty(), "{}", String::from_utf8_lossy(&quiet.stderr));
    assert_eq!(steady(&logged.stdout), steady(&quiet.stdout));
}

#[test]
fn a_query_solved_in_memory_prints_progress_lines_too() {
    let args = ["query", "2,1,6,10,4,3,5,7,8,9", "--tables", "chaosclock-no-tables-here"];
    // A line every millisecond: any line the process could print before
    // the book's value would be there.
    let logged = run(&args, "0.001");
    assert!(logged.status.success());
    let stderr = String::from_utf8(logged.stderr).unwrap();
    assert!(stderr.lines().any(|l| l.starts_with("[0h00m")), "{stderr}");
    assert!(stderr.contains("note: no table in chaosclock-no-tables-here/n10-always"), "{stderr}");
    // The book's value comes first on stderr, before the solve's lines.
    assert!(stderr.starts_with("book:     3 共赢 both-win"), "{stderr}");
    let quiet = run(&args, "0");
    assert_eq!(logged.stdout, quiet.stdout);
}
