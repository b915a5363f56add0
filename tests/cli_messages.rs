//! What the command line says before long work (issue 60): a `generate`
//! run projected over an hour prints its projection at once, before it
//! starts; a short one prints none. And what it says of a value that
//! looks like a negative number (`--budget -5`, `--tables -5`): one line
//! naming the problem, not clap's tip "use '-- -5'".

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

/// `openings --slots 12 --both-win | head -3`: the list from the book is
/// streamed, so its first lines come within seconds (they came after 47 to
/// 87 s and 377 MB when the whole book section was decoded first), and
/// the closed pipe ends the run quietly.
#[test]
fn the_both_win_list_from_the_book_starts_at_once() {
    use chaosclock::book::Book;
    use chaosclock::{PassRule, Position, Value};

    let mut child = Command::new(env!("CARGO_BIN_EXE_chaosclock"))
        .args(["openings", "--slots", "12", "--both-win"])
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the chaosclock binary runs");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(stdout).lines();
        let first: Vec<String> = lines.by_ref().take(3).map_while(Result::ok).collect();
        let _ = tx.send(first);
        // Dropping the reader closes the pipe, as `head` does.
    });
    let first = rx.recv_timeout(Duration::from_secs(20));
    let first = match first {
        Ok(first) => first,
        Err(e) => {
            let _ = child.kill();
            panic!("no three lines within 20 s: {e}");
        }
    };
    assert_eq!(first.len(), 3, "{first:?}");
    let book = Book::embedded().unwrap();
    for line in &first {
        let pos: Position = line.parse().unwrap();
        assert!(pos.is_opening(), "{line}");
        assert_eq!(book.value(&pos, PassRule::Always), Ok(Value::BothWin), "{line}");
    }
    assert_eq!(first[0], "2,1,4,3,6,5,8,7,10,9,12,11;1;0");
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `--budget -5` and `--tables -5` (and the other flags of counts and
/// paths): one `error:` line naming the problem, exit 2, no clap tip; a
/// directory named `-5` given as the message says is read as a directory.
#[test]
fn a_value_that_looks_negative_gets_one_line_naming_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let err = |args: &[&str]| {
        let out = run_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8(out.stderr).unwrap();
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(!e.contains("tip") && !e.contains("'-- -5'"), "{e}");
        e
    };
    for args in [&["query", "2,1,4,3", "--budget", "-5"][..], &["serve", "--budget", "-5"]] {
        assert_eq!(
            err(args),
            "error: invalid value '-5' for '--budget <STATES>': a negative number is never allowed here (see --help)\n",
        );
    }
    let path = |flag: &str| {
        format!(
            "error: {flag} -5: a value that starts with '-' is read as a flag; write {flag}=./-5 for a path of that name (see --help)\n"
        )
    };
    for args in [
        &["query", "2,1,4,3", "--tables", "-5"][..],
        &["solve", "2,1,4,3", "--tables", "-5"],
        &["serve", "--tables", "-5"],
        &["generate", "--slots", "4", "--tables", "-5"],
    ] {
        assert_eq!(err(args), path("--tables"), "{args:?}");
    }
    assert_eq!(err(&["show", "--cfg", "-5"]), path("--cfg"));
    // As the message says: a directory of that name.
    std::fs::create_dir(dir.path().join("-5")).unwrap();
    let out = run_in(dir.path(), &["query", "2,1,4,3", "--tables=./-5", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}
