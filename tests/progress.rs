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
    let empty = tempfile::tempdir().unwrap();
    let root = empty.path().to_str().unwrap();
    let args = ["query", "2,1,6,10,4,3,5,7,8,9", "--tables", root];
    // A line every millisecond: any line the process could print before
    // the book's value would be there.
    let logged = run(&args, "0.001");
    assert!(logged.status.success());
    let stderr = String::from_utf8(logged.stderr).unwrap();
    assert!(stderr.lines().any(|l| l.starts_with("[0h00m")), "{stderr}");
    assert!(stderr.contains(&format!("note: no table in {root}/n10-always")), "{stderr}");
    // The book's value comes first on stderr, before the solve's lines.
    assert!(stderr.starts_with("book:     3 共赢 both-win"), "{stderr}");
    let quiet = run(&args, "0");
    assert_eq!(logged.stdout, quiet.stdout);
}

#[test]
fn match_and_its_accuracy_count_the_openings_played() {
    // 10-slot openings solve in a fraction of a second each: 12 take
    // about a second, so lines every 50 ms show the count rising.
    for extra in [&[][..], &["--accuracy"][..]] {
        let args = [&["match", "--slots", "10", "--openings", "12", "--levels", "1,8"][..], extra]
            .concat();
        let logged = run(&args, "0.05");
        assert!(logged.status.success());
        let stderr = String::from_utf8(logged.stderr).unwrap();
        let counts: Vec<u32> = stderr
            .lines()
            .map(|l| {
                assert!(l.starts_with("[0h00m") && l.contains("/12 openings played"), "{l}");
                l.split("] ").nth(1).unwrap().split('/').next().unwrap().parse().unwrap()
            })
            .collect();
        assert!(!counts.is_empty(), "no progress line");
        assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
        let quiet = run(&args, "0");
        assert!(quiet.stderr.is_empty(), "{}", String::from_utf8_lossy(&quiet.stderr));
        // Only the time in the first line differs.
        assert_eq!(steady(&logged.stdout)[1..], steady(&quiet.stdout)[1..]);
    }
}

/// Ctrl-C on a terminal: the bar's line is ended, so what follows (here
/// "interrupted", then the shell's prompt) starts on a line of its own,
/// and the exit code is 130. The terminal is a pseudo-terminal made by
/// `script` (util-linux); Ctrl-C is the byte 0x03 typed into it, which
/// its line discipline turns into SIGINT, as a keyboard's does.
#[test]
fn ctrl_c_on_a_terminal_ends_the_progress_line() {
    use std::io::{Read, Write};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    let bin = env!("CARGO_BIN_EXE_chaosclock");
    // A 12-slot opening: several seconds of solving, a bar at once.
    let cmd = format!("{bin} solve 2,8,11,9,4,12,10,6,5,7,1,3 --no-tables");
    let mut child = Command::new("script")
        .args(["-qfec", &cmd, "/dev/null"])
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("script (util-linux) runs");
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mut stdout = child.stdout.take().unwrap();
    let reader = {
        let seen = Arc::clone(&seen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    return;
                }
                seen.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        })
    };
    let text = |seen: &Mutex<Vec<u8>>| String::from_utf8_lossy(&seen.lock().unwrap()).into_owned();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !text(&seen).contains("enumerating") {
        assert!(Instant::now() < deadline, "no bar drawn: {:?}", text(&seen));
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&[3]).unwrap();
    stdin.flush().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "Ctrl-C did not stop the solve");
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    reader.join().unwrap();
    let out = text(&seen);
    assert_eq!(status.code(), Some(130), "{out:?}");
    let tail = &out[out.rfind("enumerating").unwrap()..];
    // The bar's line, its end, then "interrupted" alone on its line.
    assert!(tail.ends_with("\ninterrupted\r\n"), "{tail:?}");
}
