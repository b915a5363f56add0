//! The openings book built into the binary (docs/book.md): its counts
//! against the known counts and the 12-slot manifest, its values against
//! the solver and the independent reference, its bytes rebuilt from
//! scratch, and damaged books refused.

mod common;
mod reference;

use std::borrow::Cow;

use chaosclock::book::{Book, NoValue, write_book};
use chaosclock::draw::Draw;
use chaosclock::solve::solve_with;
use chaosclock::{PassRule, Position, Value, Variant};
use serde_json::Value as Json;

use common::bin::{check_exit, ok_in, run_in};

fn book() -> &'static Book {
    Book::embedded().expect("the built-in book opens")
}

/// The counts per value code 0..=4 of every opening, as docs/openings.md
/// and tables/n12-always.json give them.
fn known_counts(n: u8) -> [u64; 5] {
    match n {
        4 => [0, 2, 0, 0, 7],
        6 => [0, 26, 10, 99, 130],
        8 => [0, 3_212, 216, 7_284, 4_121],
        10 => [0, 511_830, 3_640, 640_490, 179_001],
        12 => {
            let text = std::fs::read_to_string(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/n12-always.json"),
            )
            .unwrap();
            let manifest: Json = serde_json::from_str(&text).unwrap();
            std::array::from_fn(|c| manifest["openings"][c.to_string()].as_u64().unwrap())
        }
        _ => unreachable!(),
    }
}

#[test]
fn counts_are_the_known_counts() {
    let sizes: Vec<u8> = book().entries().map(|e| e.slots).collect();
    for n in [4, 6, 8, 10, 12] {
        assert!(sizes.contains(&n), "the book has no {n}-slot section");
    }
    for e in book().entries() {
        assert_eq!(e.rule, PassRule::Always);
        assert_eq!(e.counts, known_counts(e.slots), "{} slots", e.slots);
        assert_eq!(e.counts.iter().sum::<u64>(), e.openings);
    }
}

/// The openings of `n` slots: all of them, or `k` drawn at random.
fn openings(n: u8, k: Option<usize>, seed: u64) -> Vec<Position> {
    if n <= 8 && k.is_none() {
        return common::openings(n);
    }
    Draw::new(n, seed).unwrap().take(k.unwrap()).collect()
}

#[test]
fn small_boards_agree_with_the_reference_on_every_opening() {
    for n in [4u8, 6] {
        let all = openings(n, None, 0);
        let texts: Vec<String> = all.iter().map(ToString::to_string).collect();
        let roots: Vec<&str> = texts.iter().map(String::as_str).collect();
        let reference = reference::ref_solve_many(&roots, false);
        for (pos, text) in all.iter().zip(&texts) {
            let want = reference[text].0;
            assert_eq!(
                book().value(pos, PassRule::Always).ok().map(Value::code),
                Some(want),
                "{pos}"
            );
        }
    }
}

#[test]
#[ignore = "slow: solves every 8-slot opening and samples of 10 and 12; scripts/test-slow.sh"]
fn values_agree_with_the_solver() {
    // Every 8-slot opening; a sample of the larger ones, solved together.
    let plan: [(u8, Option<usize>); 4] = [(8, None), (10, Some(12)), (12, Some(2)), (6, None)];
    for (n, k) in plan {
        let batch = openings(n, k, 11);
        let solution =
            solve_with(Variant::new(n, PassRule::Always).unwrap(), &batch, None, None).unwrap();
        for pos in &batch {
            let want = solution.score(pos).unwrap().value;
            assert_eq!(book().value(pos, PassRule::Always), Ok(want), "{pos}");
        }
    }
}

#[test]
fn lookups_agree_with_decoding_everything() {
    let section = book().section(8, PassRule::Always).unwrap();
    let all = section.all_values();
    let ranks = section.ranks();
    for (rank, &code) in all.iter().enumerate() {
        let board = ranks.board(rank as u64);
        assert_eq!(section.value(&board[..8]).unwrap().code(), code, "rank {rank}");
    }
}

#[test]
fn only_openings_are_looked_up() {
    let not_opening: Position = "2,1,4,3;0;0".parse().unwrap();
    assert_eq!(book().value(&not_opening, PassRule::Always), Err(NoValue::NotOpening));
    let fixed: Position = "1,2,4,3".parse().unwrap();
    assert_eq!(book().value(&fixed, PassRule::Always), Err(NoValue::NotOpening));
    let opening: Position = "2,1,4,3".parse().unwrap();
    assert_eq!(book().value(&opening, PassRule::WhenStuck).ok(), None);
    assert!(book().value(&opening, PassRule::Always).is_ok());
}

#[test]
fn rebuilding_gives_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok_in(dir.path(), &["book", "--build", "small.ccbk", "--slots", "4,6,8"]);
    assert!(out.contains("8 slots: 14,833 openings from the solve"), "{out}");
    let built = std::fs::read(dir.path().join("small.ccbk")).unwrap();
    let sections: Vec<_> = [4, 6, 8]
        .iter()
        .map(|&n| book().section(n, PassRule::Always).unwrap().to_built())
        .collect();
    assert_eq!(built, write_book(&sections), "the same values give the same bytes");
    assert!(!dir.path().join("small.ccbk.tmp").exists());
    // And it verifies against the solver.
    let out = ok_in(dir.path(), &["book", "--book", "small.ccbk", "--verify", "--slots", "4,6,8"]);
    assert!(out.contains("8 slots: 14,833 openings compared with the solve, no mismatch"), "{out}");
}

#[test]
fn damaged_books_are_refused() {
    let bytes = book().bytes().to_vec();
    // Every byte of a small book, flipped one at a time.
    let sections = vec![book().section(8, PassRule::Always).unwrap().to_built()];
    let small = write_book(&sections);
    assert!(Book::parse(Cow::Owned(small.clone()), "small").is_ok());
    for i in 0..small.len() {
        let mut bad = small.clone();
        bad[i] ^= 0x10;
        let err = Book::parse(Cow::Owned(bad), "small").unwrap_err();
        assert!(err.to_string().starts_with("corrupt openings book small: "), "{err}");
    }
    for len in [0, 10, 23, small.len() - 1] {
        assert!(Book::parse(Cow::Owned(small[..len].to_vec()), "cut").is_err(), "{len} bytes");
    }
    // On the command line: one line, exit code 2.
    let dir = tempfile::tempdir().unwrap();
    let mut bad = bytes;
    let last = bad.len() - 1;
    bad[last] ^= 1;
    std::fs::write(dir.path().join("bad.ccbk"), &bad).unwrap();
    let args = ["book", "--book", "bad.ccbk"];
    check_exit(
        &args,
        run_in(dir.path(), &args),
        2,
        "error: corrupt openings book bad.ccbk: section 4: the checksum of the 12-slot body",
    );
    let args = ["book", "--book", "/dev/zero"];
    check_exit(&args, run_in(dir.path(), &args), 2, "error: book /dev/zero is not a regular file");
}

#[test]
fn openings_answer_from_the_book_without_tables() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok_in(dir.path(), &["openings", "--slots", "10"]);
    assert!(
        out.starts_with("10 slots: all 1,334,961 openings, read from the openings book"),
        "{out}"
    );
    assert!(out.contains("3 共赢 both-win           640,490    47.98%"), "{out}");
    // Fair starts: proven both-win by a solve that never reads the book.
    let args = ["openings", "--slots", "10", "--both-win", "--random", "3", "--seed", "5"];
    let out = ok_in(dir.path(), &args);
    let picks: Vec<Position> = out.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(picks.len(), 3, "{out}");
    let solution =
        solve_with(Variant::new(10, PassRule::Always).unwrap(), &picks, None, None).unwrap();
    for pos in &picks {
        assert_eq!(solution.score(pos).unwrap().value, Value::BothWin, "{pos}");
    }
    // From the book alone the moves are left out.
    let args =
        ["openings", "--slots", "10", "--both-win", "--random", "3", "--seed", "5", "--json"];
    let out = ok_in(dir.path(), &args);
    assert!(out.lines().all(|l| l.contains("\"moves\":null")), "{out}");
}

#[test]
fn query_answers_openings_from_the_book() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let opening = "10,5,7,3,4,8,9,2,6,1";
    let out = common::bin::json_in(d, &["query", opening, "--no-solve", "--json"]);
    assert_eq!(out["source"], "book");
    assert_eq!(out["value"], 3);
    assert_eq!(out["depth"], Json::Null);
    assert_eq!(out["moves_left_out"], true);
    let text = ok_in(d, &["query", opening, "--no-solve"]);
    assert!(text.contains("moves:    left out: the openings book holds values only"), "{text}");
    // Without --no-solve, the book's value comes first (on stderr), then
    // the solve's answer, which agrees.
    let out = run_in(d, &["query", opening]);
    let (stdout, stderr) =
        (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap());
    assert!(stderr.starts_with("book:     3 共赢 both-win (the openings book;"), "{stderr}");
    assert!(stdout.contains("\nvalue:    3 共赢 both-win"), "{stdout}");
    let out = run_in(d, &["query", opening, "--json"]);
    let solved: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((solved["source"].as_str(), solved["value"].as_u64()), (Some("solve"), Some(3)));
    // A batch of openings, from the book; a non-opening fails alone.
    let picks = openings(10, Some(200), 3);
    let mut input: String = picks.iter().map(|p| format!("{p}\n")).collect();
    input.push_str("2,1,4,3;0;0\n");
    let out = common::bin::run_with(d, &["query", "-", "--no-solve"], input.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<Json> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 201);
    for (line, pos) in lines.iter().zip(&picks) {
        assert_eq!(line["source"], "book", "{line}");
        let want = book().value(pos, PassRule::Always).unwrap().code();
        assert_eq!(line["value"].as_u64(), Some(u64::from(want)));
    }
    assert!(lines[200]["error"].as_str().unwrap().contains("no table"), "{}", lines[200]);
}

/// `book --verify` against tables with depths that derive 乙's scores (no
/// side files), which it reads by values bytes: the built-in book agrees,
/// and a book with one orbit's value changed is caught at that opening.
#[test]
fn a_wrong_value_is_found_in_tables_that_derive_scores() {
    use chaosclock::book::{Ranks, build_section};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok_in(d, &["generate", "--slots", "8", "--tables", "t"]);
    let names: Vec<String> = std::fs::read_dir(d.join("t/n8-always"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(!names.is_empty() && names.iter().all(|n| !n.contains(".side.")), "{names:?}");
    let out = ok_in(d, &["book", "--verify", "--slots", "8", "--tables", "t"]);
    assert!(
        out.contains("8 slots: 14,833 openings compared with the tables, no mismatch"),
        "{out}"
    );

    let section = book().section(8, PassRule::Always).unwrap();
    let ranks = Ranks::new(8);
    let first = ranks.board(0);
    let bad = chaosclock::draw::opening(&first[..8]).unwrap();
    let truth = section.value(&first[..8]).unwrap();
    let other = if truth == Value::BothWin { Value::SelfWin } else { Value::BothWin };
    let value_of = |p: &Position| -> Result<Value, ()> {
        Ok(if *p == bad { other } else { section.value(p.board()).unwrap() })
    };
    let built = build_section(8, PassRule::Always, &value_of, &|_| {}).unwrap();
    std::fs::write(d.join("bad.ccbk"), write_book(&[built])).unwrap();
    let args = ["book", "--book", "bad.ccbk", "--verify", "--slots", "8", "--tables", "t"];
    let out = run_in(d, &args);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let want =
        format!("{bad} is {} in the openings book, {} in the tables", other.code(), truth.code());
    assert!(stdout.contains(&want), "{stdout}");
    assert!(stdout.contains("MISMATCHES"), "{stdout}");
}
