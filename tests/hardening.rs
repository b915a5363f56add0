//! Bad input from the audit of issue 14, run through the built binary: each
//! case gets one line `error: ...` and exit code 2 (or works), never a hang
//! or a panic. The parsers' fuzz tests are in `tests/fuzz_parsers.rs`.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::bin::{check_fails, fails, ok, ok_in, run_in, run_with};
use serde_json::Value as Json;

/// Finding 1: a non-UTF-8 line, and a line too long to be a position, get
/// their own error lines naming the line; the lines after them are answered.
#[test]
fn query_batch_goes_on_after_non_utf8_and_long_lines() {
    let dir = tempfile::tempdir().unwrap();
    ok_in(dir.path(), &["generate", "--slots", "4"]);
    let mut input = b"2,1,4,3\n\xff\xfe,1\n\n".to_vec();
    input.extend(std::iter::repeat_n(b'1', 10_000));
    input.extend(b"\r\n0,0,3,4;0\n1,2,3,4;1;-2");
    let out = run_with(dir.path(), &["query", "-"], &input);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr, "error: 3 of 5 positions could not be answered\n");
    let lines: Vec<Json> = String::from_utf8(out.stdout)
        .expect("stdout is UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON {e}: {l}")))
        .collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0]["value"], json(dir.path(), &["query", "2,1,4,3", "--json"])["value"]);
    assert_eq!(lines[1]["line"], 2);
    assert_eq!(lines[1]["input"], "\u{fffd}\u{fffd},1");
    assert_eq!(lines[1]["error"], "line 2: not UTF-8 text (byte 1)");
    assert_eq!(lines[2]["line"], 4);
    assert_eq!(lines[2]["error"], "line 4: longer than 4096 bytes");
    assert_eq!(lines[2]["input"].as_str().unwrap().len(), 4096);
    assert_eq!(lines[3]["position"], "0,0,3,4;0;0");
    assert_eq!(lines[4]["line"], 6);
    let error = lines[4]["error"].as_str().unwrap();
    assert!(error.starts_with("line 6: position '1,2,3,4;1;-2': no game reaches"), "{error}");
}

/// The one-line JSON of a run in `dir` that must succeed.
fn json(dir: &Path, args: &[&str]) -> Json {
    serde_json::from_str(&ok_in(dir, args)).expect("one JSON document")
}

/// Finding 2: thread counts far above the machine are refused at once.
#[test]
fn absurd_thread_counts_are_refused_quickly() {
    let dir = tempfile::tempdir().unwrap();
    for threads in ["100000", "18446744073709551615", "1025"] {
        let args = ["generate", "--slots", "4", "--threads", threads];
        let start = Instant::now();
        check_fails(
            &args,
            run_in(dir.path(), &args),
            &format!("invalid value '{threads}' for '--threads <T>': too many"),
        );
        assert!(start.elapsed() < Duration::from_secs(10), "{threads}: {:?}", start.elapsed());
    }
    fails(&["generate", "--slots", "4", "--threads", "0"], "give at least one thread");
    let none =
        "invalid value '0' for '--budget <STATES>': a solve needs a budget of at least one state";
    fails(&["query", "2,1,4,3,6,5,8,7,10,9", "--budget", "0"], none);
    fails(&["serve", "--budget", "0"], none);
    assert!(!dir.path().join("tables").exists(), "nothing was generated");
    // Four per core is still allowed (at least 4).
    ok_in(dir.path(), &["generate", "--slots", "4", "--threads", "4"]);
}

/// Finding 2: when the threads cannot start (here: each asks for a 64 TiB
/// stack through `RUST_MIN_STACK`, which no machine maps), the OS error is
/// printed once.
#[test]
fn thread_start_failure_prints_the_os_error_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chaosclock"))
        .args(["generate", "--slots", "4", "--threads", "2"])
        .env("RUST_MIN_STACK", (1u64 << 46).to_string())
        .current_dir(dir.path())
        .output()
        .expect("the chaosclock binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: cannot start the worker threads: "), "{stderr}");
    assert_eq!(stderr.matches("os error").count(), 1, "{stderr}");
}

/// Finding 3: every `--cfg` reader refuses devices, directories, big files
/// and files that are not UTF-8, at once.
#[test]
fn cfg_files_must_be_small_regular_text_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("big.cfg"), "#".repeat(70_000)).unwrap();
    std::fs::write(d.join("latin1.cfg"), b"# caf\xe9\nboard=0,1,-1,3\n").unwrap();
    std::fs::create_dir(d.join("dir.cfg")).unwrap();
    let cases = [
        ("/dev/zero", "cfg file /dev/zero is not a regular file"),
        ("dir.cfg", "cfg file dir.cfg is not a regular file"),
        ("big.cfg", "cfg file big.cfg is larger than 65536 bytes"),
        ("latin1.cfg", "cfg file latin1.cfg is not UTF-8 text (byte 6)"),
    ];
    for command in [&["show"][..], &["play", "--moves", "1"], &["solve"], &["query"]] {
        for (file, want) in cases {
            let mut args = command.to_vec();
            args.extend(["--cfg", file]);
            let start = Instant::now();
            check_fails(&args, run_in(d, &args), want);
            assert!(start.elapsed() < Duration::from_secs(10), "{args:?}");
        }
    }
}

/// Finding 5: input with control characters is echoed escaped, so every
/// error is one line.
#[test]
fn echoed_input_is_escaped() {
    fails(&["show", "1,2,3,\n4,5,6;;,7"], "position '1,2,3,\\n4,5,6;;,7': side ''");
    fails(&["show", "1,2,x\u{1b}[2J,4"], "board entry 'x\\u{1b}[2J' is not a number");
    fails(&["solve", "2,1,4,3;\t2\n"], "position '2,1,4,3;\\t2': side '2' must be");
    fails(&["play", "2,1,4,3", "--moves", "x\ny"], "'x\\ny' is not a move");
    fails(&["show", "--cfg", "no\nsuch.cfg"], "cannot read cfg file no\\nsuch.cfg: ");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.cfg"), "board=0,1,\r-1\u{7}x,3\n").unwrap();
    let args = ["show", "--cfg", "c.cfg"];
    check_fails(&args, run_in(dir.path(), &args), "board value '-1\\u{7}x' is not a number");
    fails(&["query", "2,1,x\n,3"], "position '2,1,x\\n,3'");
}

/// Finding 6: a byte-order mark is skipped, a wrong board length is named
/// as such, and a key read twice is an error.
#[test]
fn cfg_bom_board_length_and_duplicate_keys() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let write = |name: &str, text: &str| std::fs::write(d.join(name), text).unwrap();
    write("bom.cfg", "\u{feff}board=3, 2, 8, 11, 9, 4, 0, 10, 6, 5, 7, 1\r\nside-to-move=0\r\n");
    let shown = ok_in(d, &["show", "--cfg", "bom.cfg", "--json"]);
    assert!(shown.contains("\"position\":\"2,8,11,9,4,12,10,6,5,7,1,3;1;0\""), "{shown}");
    write("short.cfg", "board=3, 2, 8\n");
    let args = ["show", "--cfg", "short.cfg"];
    check_fails(&args, run_in(d, &args), "a board has 4, 6, 8, 10 or 12 slots, not 3");
    write("twice.cfg", "board=0,1,-1,3\nside-to-move=0\nboard=0,1,2,3\n");
    let args = ["show", "--cfg", "twice.cfg"];
    check_fails(&args, run_in(d, &args), "cfg has two 'board=' lines: keep one");
    write("twice2.cfg", "board=0,1,-1,3\nlast-move=-2\nlast-move = -1\n");
    let args = ["show", "--cfg", "twice2.cfg"];
    check_fails(&args, run_in(d, &args), "cfg has two 'last-move=' lines");
}

/// Finding 7: numbers too large for any type and numbers that merely are
/// not pieces get the same message, naming the value.
#[test]
fn huge_numbers_get_one_message() {
    let board = "1,2,3,4,5,6,7,8,9,10,11";
    for huge in ["99999999999999999999999", "4294967299", "13", "-99999999999999999999999"] {
        let pos = format!("{board},{huge}");
        fails(
            &["show", &pos],
            &format!("slot 12 holds {huge}, which is not a piece of this board"),
        );
    }
    for huge in ["99999999999999999999999", "4294967299", "300"] {
        let pos = format!("2,1,4,3;0;{huge}");
        fails(&["show", &pos], &format!("last move {huge} is not a piece of this board"));
    }
}

/// Finding 9: states no ply leads to are refused; reachable ones with the
/// same boards are not.
#[test]
fn unreachable_states_are_refused() {
    for pos in ["1,2,3,4;1;-2", "1,2,3,4;0;-2", "1,2,3,4;0;-1", "1,0,3,0;1;-1"] {
        fails(&["show", pos], "no game reaches this position");
        fails(&["solve", pos], "no game reaches this position");
    }
    fails(
        &["show", "0,1,0,0;1;1"],
        "piece 1 cannot have just walked: it would have come from slot 1",
    );
    fails(&["show", "1,0,3,0,5,2;1;2"], "the walk that led to it was 甲 (odd)'s");
    for pos in ["2,1,4,3;1;-2", "1,0,3,0;0;-1", "1,2,3,4;1;0", "0,0,1,0;1;1", "1,0,3,0,5,2;0;2"] {
        ok(&["show", pos]);
    }
}

/// Finding 4: without `--slots`, `verify` checks the one size the tables
/// root holds for the pass rule; several sizes, none, or only the other
/// rule's are named in the error; a directory complete up to a smaller
/// `--max-live` than the default says up to which. `generate` still makes
/// 12 slots by default, with a note when the root holds only other sizes.
#[test]
fn verify_finds_the_size_the_directory_holds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // `verify` with `extra` and a quick sample.
    let verify = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut args = vec!["verify"];
        args.extend(extra);
        args.extend(["--sample", "200", "--solves", "2"]);
        args
    };
    let fails_in = |args: &[&str], want: &str| check_fails(args, run_in(d, args), want);
    fails_in(&verify(&[]), "no tables in tables: no n{N}-always directory there holds");
    // 4-slot tables only: no --slots needed (its default would be 12).
    ok_in(d, &["generate", "--slots", "4"]);
    let v: Json = serde_json::from_str(&ok_in(d, &verify(&["--json"]))).unwrap();
    assert_eq!((v["slots"].as_u64(), v["max_live"].as_u64()), (Some(4), Some(4)), "{v}");
    assert_eq!(v["dir"], "tables/n4-always");
    fails_in(
        &verify(&["--slots", "12"]),
        "no table tables/n12-always/f1ffe.cctb: run `chaosclock generate --slots 12 --max-live 6`; \
         tables/n12-always is not complete for any --max-live",
    );
    let mut other = vec!["--pass-rule", "when-stuck"];
    other.extend(verify(&[]));
    fails_in(
        &other,
        "no tables of pass rule when-stuck in tables: it holds n4-always (add --pass-rule always)",
    );
    // A second size: both are named; --slots picks one.
    assert!(run_in(d, &["generate", "--slots", "6", "--max-live", "3"]).status.success());
    fails_in(
        &verify(&[]),
        "several sizes of tables in tables (n4-always, n6-always): choose one with --slots N",
    );
    // The 6-slot tables are complete up to --max-live 3: the default (6)
    // names the missing file, the command that makes it and what exists.
    fails_in(
        &verify(&["--slots", "6"]),
        "run `chaosclock generate --slots 6 --max-live 6`; tables/n6-always is complete up to \
         --max-live 3 only (`chaosclock verify --slots 6 --max-live 3` checks that part)",
    );
    ok_in(d, &verify(&["--slots", "6", "--max-live", "3"]));
    // generate keeps its standard default, and says so next to other sizes.
    let out = run_in(d, &["generate", "--max-live", "0"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.starts_with(
            "note: --slots not given: generating the standard 12-slot tables; tables holds \
             n4-always, n6-always (--slots N for those)\nnote: generating 1 file: the 12-slot"
        ),
        "{stderr}"
    );
}

/// Finding 8: a `--both-win` list that stops at a damaged record (found
/// only when its block is read) ends with a line that says so, in text and
/// in JSON; a list for `--output` leaves no file; a damaged header stops
/// the run before anything is written. The complete 8-slot tables (a few
/// seconds) are read one opening at a time (`--sample` of them all,
/// `--batch 1`); block 60 of f0000 is first read after six both-win
/// openings are listed.
#[test]
fn a_list_that_stops_says_it_is_incomplete() {
    use chaosclock::internals::format::{BLOCK, Header};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Tables of encoding 1 (8 bytes a node), whose block 60 is known.
    let cfg = chaosclock::generate::Config::new(d.join("tables"), 8, chaosclock::PassRule::Always)
        .with_encoding(chaosclock::table::Encoding::Scores);
    chaosclock::generate::generate(&cfg, None).unwrap();
    let path = d.join("tables/n8-always/f0000.cctb");
    let good = std::fs::read(&path).unwrap();
    let mut flipped = good.clone();
    flipped[Header::parse(&good).unwrap().len() + 60 * BLOCK + 7] ^= 0x10;
    std::fs::write(&path, &flipped).unwrap();
    let list = ["openings", "--slots", "8", "--sample", "14833", "--batch", "1", "--both-win"];
    let why = "reading the tables for ";
    let corrupt = "corrupt table tables/n8-always/f0000.cctb: block 60 checksum mismatch";
    for json_lines in [false, true] {
        let mut args = list.to_vec();
        if json_lines {
            args.push("--json");
        }
        let out = run_in(d, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("error: ") && stderr.contains(corrupt), "{stderr}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = stdout.lines().collect();
        let (last, listed) = lines.split_last().expect("a last line");
        assert!(!listed.is_empty(), "some openings come before the damaged block");
        let k = listed.len();
        let want = format!("stopped after {k} openings: {why}");
        if json_lines {
            let last: Json = serde_json::from_str(last).unwrap();
            let fields = last.as_object().unwrap();
            assert_eq!(fields.len(), 1, "{last}");
            let text = fields["incomplete"].as_str().unwrap();
            assert!(text.starts_with(&want) && text.contains(corrupt), "{text}");
            assert!(listed.iter().all(|l| l.starts_with("{\"position\":")), "{stdout}");
        } else {
            assert!(last.starts_with(&format!("# incomplete: {want}")), "{last}");
            assert!(last.contains(corrupt), "{last}");
            assert!(listed.iter().all(|l| l.contains(";1;0 ")), "{stdout}");
        }
    }
    // To a file: no file at all, and nothing on stdout.
    let mut args = list.to_vec();
    args.extend(["--output", "list.txt"]);
    check_fails(&args, run_in(d, &args), corrupt);
    assert!(!d.join("list.txt").exists() && !d.join("list.txt.tmp").exists());
    // A bad header is found when the files are opened, before any line.
    let mut bad_header = good.clone();
    bad_header[13] = 7;
    std::fs::write(&path, &bad_header).unwrap();
    check_fails(&list, run_in(d, &list), "corrupt table tables/n8-always/f0000.cctb");
    // The good file again: the whole list, no marker.
    std::fs::write(&path, &good).unwrap();
    let all = ok_in(d, &list);
    assert_eq!(all.lines().count(), 7284);
    assert!(!all.contains('#'));
}

/// Runs the binary with `args` in `dir` with a terminal as its stdout and
/// stderr (through util-linux `script`), and returns all it wrote there;
/// `None` where `script` cannot run (the caller skips its checks).
fn on_terminal(dir: &Path, args: &[&str]) -> Option<String> {
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let mut line = quote(env!("CARGO_BIN_EXE_chaosclock"));
    for a in args {
        line.push(' ');
        line.push_str(&quote(a));
    }
    let out = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Finding 11: on a terminal, `openings --slots 8 --both-win` (solved,
/// for the moves) shows the solver's
/// states (never `0/0`), and `verify` counts files, then entries, then
/// positions, each against its own length.
#[test]
fn progress_bars_have_real_lengths() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let list = ["openings", "--slots", "8", "--both-win", "--output", "fair.txt"];
    let Some(screen) = on_terminal(d, &list) else {
        eprintln!("skipped: util-linux `script` cannot run here");
        return;
    };
    assert!(screen.contains("% of 5,963,762 states"), "{screen}");
    assert!(!screen.contains("0/0"), "{screen}");
    assert!(screen.contains("all 14,833 openings"), "{screen}");
    ok_in(d, &["generate", "--slots", "6"]);
    let args = ["verify", "--slots", "6", "--sample", "12000", "--solves", "20"];
    let screen = on_terminal(d, &args).expect("script ran before");
    assert!(!screen.contains("0/0"), "{screen}");
    // Each frame's count is against its phase's length.
    let mut shown = 0;
    for (label, len) in
        [(" files checked", "40"), (" entries re-derived", "12,000"), (" positions solved", "20")]
    {
        for (at, _) in screen.match_indices(label) {
            let count = screen[..at].rsplit(' ').next().unwrap_or_default();
            assert!(count.ends_with(&format!("/{len}")), "{count}{label}: {screen}");
            shown += 1;
        }
    }
    assert!(shown > 0, "no progress shown: {screen}");
    assert!(screen.contains("re-derived:  12,000 entries"), "{screen}");
}
