//! Generated tables against the solver: every state of the 4- and 6-slot
//! games and samples of 8-, 10- and 12-slot states (the larger ones within
//! partial tables), under both pass rules, for tables
//! with depths and tables of values only; the same bytes for any thread
//! count; damaged files give errors, not answers.

mod common;

use std::path::Path;

use chaosclock::generate::{Config, Limits, generate};
use chaosclock::probe;
use chaosclock::solve::{SolveError, solve_many, solve_with, terminal_value};
use chaosclock::table::{Encoding, TableError, Tablebase};
use chaosclock::{PassRule, Position, Score, Variant};
use common::{Rng, all_states, files_in, random_position};

fn make(root: &Path, n: u8, rule: PassRule, max_live: u8) -> Tablebase {
    make_as(root, n, rule, max_live, Encoding::Scores)
}

fn make_as(root: &Path, n: u8, rule: PassRule, max_live: u8, encoding: Encoding) -> Tablebase {
    let cfg =
        Config::new(root.to_path_buf(), n, rule).with_max_live(max_live).with_encoding(encoding);
    generate(&cfg, None).unwrap();
    let tb = Tablebase::new(root, n, rule);
    for f in chaosclock::table::fixed_sets(n, max_live) {
        assert!(tb.load(f).unwrap());
    }
    tb
}

fn check(tb: &Tablebase, n: u8, rule: PassRule, positions: &[Position]) {
    let sol = solve_many(Variant::new(n, rule).unwrap(), positions, None).unwrap();
    for p in positions {
        assert_eq!(Some(tb.score(p).unwrap()), sol.score(p), "{p} ({rule:?})");
    }
}

#[test]
fn every_4_and_6_slot_state() {
    let dir = tempfile::tempdir().unwrap();
    for rule in [PassRule::Always, PassRule::WhenStuck] {
        for n in [4, 6] {
            let tb = make(dir.path(), n, rule, n);
            check(&tb, n, rule, &all_states(n));
        }
    }
}

/// Values of `positions` from tables of values only against the solver's.
fn check_values(tb: &Tablebase, n: u8, rule: PassRule, positions: &[Position]) {
    let sol = solve_many(Variant::new(n, rule).unwrap(), positions, None).unwrap();
    for p in positions {
        let got = Some(tb.score(p).unwrap().value);
        assert_eq!(got, sol.score(p).map(|s| s.value), "{p} ({rule:?})");
    }
}

#[test]
fn values_only_every_4_and_6_slot_state() {
    for rule in [PassRule::Always, PassRule::WhenStuck] {
        for (n, encoding) in [(4, Encoding::Values), (6, Encoding::Values), (6, Encoding::Packed)] {
            let dir = tempfile::tempdir().unwrap();
            let tb = make_as(dir.path(), n, rule, n, encoding);
            check_values(&tb, n, rule, &all_states(n));
        }
    }
}

#[test]
fn values_only_8_slot_tables_agree_with_tables_with_depths() {
    let (values, depths) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for rule in [PassRule::Always, PassRule::WhenStuck] {
        let v = make_as(values.path(), 8, rule, 8, Encoding::Packed);
        let d = make(depths.path(), 8, rule, 8);
        let mut rng = Rng(0x5eed + rule as u64);
        for i in 0..100_000 {
            let p = random_position(&mut rng, 8, i % 9);
            let (a, b) = (v.score(&p).unwrap(), d.score(&p).unwrap());
            assert_eq!(a.value, b.value, "{p} ({rule:?})");
        }
        let sample: Vec<Position> =
            (0..1000).map(|i| random_position(&mut rng, 8, 2 + i % 4)).collect();
        check_values(&v, 8, rule, &sample);
    }
}

#[test]
fn values_only_probe_gives_values_moves_and_a_line_to_the_right_end() {
    let dir = tempfile::tempdir().unwrap();
    for rule in [PassRule::Always, PassRule::WhenStuck] {
        make_as(dir.path(), 8, rule, 6, Encoding::Packed);
        let tb = Tablebase::new(dir.path(), 8, rule);
        let mut rng = Rng(0xcafe);
        for i in 0..300 {
            let root = random_position(&mut rng, 8, 2 + i % 5);
            let sol = solve_many(Variant::new(8, rule).unwrap(), &[root], None).unwrap();
            let a = probe::analyse(&tb, &root).unwrap();
            assert!(!a.depths);
            let want = sol.score(&root).unwrap();
            assert_eq!(a.score.value, want.value, "{root}");
            let mut moves: Vec<_> = a.moves.iter().map(|m| (m.mv, m.score.value)).collect();
            let mut solved: Vec<_> =
                sol.moves(&root).unwrap().iter().map(|m| (m.mv, m.score.value)).collect();
            moves.sort_by_key(|m| m.0.to_string());
            solved.sort_by_key(|m| m.0.to_string());
            assert_eq!(moves, solved, "{root}");
            // The line is legal, keeps the value and ends as the value says.
            let mut cur = root;
            for &mv in &a.line {
                assert!(cur.legal_moves(rule).contains(mv), "{root}: {mv} in {cur}");
                let next = cur.play(mv, rule).unwrap();
                let keep = Score::from_child(sol.score(&next).unwrap(), next.side() == cur.side());
                assert_eq!(keep.value, sol.score(&cur).unwrap().value, "{root}: {mv} in {cur}");
                cur = next;
            }
            if want.value == chaosclock::Value::NoResult {
                assert!(a.line.is_empty());
            } else {
                let end = terminal_value(&cur, cur.outcome().expect("the line ends the game"));
                let end = if cur.side() == root.side() { end } else { end.flip() };
                assert_eq!(end, want.value, "{root}: line ends at {cur}");
            }
        }
    }
}

/// One tablebase probed by many threads at once, each file opened by
/// whichever thread needs it first, answers as one thread does (issue
/// 24): scores, moves and lines, with depths and values only (compressed).
#[test]
fn many_threads_probing_one_tablebase_agree_with_one_thread() {
    let dir = tempfile::tempdir().unwrap();
    for (n, encoding) in [(8, Encoding::Scores), (8, Encoding::Packed)] {
        let root = dir.path().join(format!("e{}", encoding.code()));
        make_as(&root, n, PassRule::Always, n, encoding);
        let mut rng = Rng(u64::from(encoding.code()) * 7 + 1);
        let positions: Vec<Position> =
            (0..400).map(|i| random_position(&mut rng, n, i % 5)).collect();
        let one = Tablebase::new(&root, n, PassRule::Always);
        let want: Vec<_> =
            positions.iter().map(|p| format!("{:?}", probe::analyse(&one, p))).collect();
        // Fresh, so that the threads race to open the files.
        let shared = std::sync::Arc::new(Tablebase::new(&root, n, PassRule::Always));
        std::thread::scope(|s| {
            for t in 0..4 {
                let (shared, positions, want) = (&shared, &positions, &want);
                s.spawn(move || {
                    // Each thread in its own order.
                    for k in 0..positions.len() {
                        let i = (k * (2 * t + 1) + t * 97) % positions.len();
                        let got = format!("{:?}", probe::analyse(shared, &positions[i]));
                        assert_eq!(got, want[i], "{} (thread {t})", positions[i]);
                    }
                });
            }
        });
    }
}

#[test]
fn encodings_are_not_mixed() {
    let dir = tempfile::tempdir().unwrap();
    make_as(dir.path(), 6, PassRule::Always, 3, Encoding::Values);
    let cfg = Config::new(dir.path().to_path_buf(), 6, PassRule::Always)
        .with_max_live(4)
        .with_encoding(Encoding::Scores);
    let err = generate(&cfg, None).unwrap_err().to_string();
    assert!(err.contains("values only") && err.contains("--values-only"), "{err}");
}

#[test]
fn sampled_8_slot_states() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for rule in [PassRule::Always, PassRule::WhenStuck] {
        let tb = make(dir.path(), 8, rule, 6);
        let sample: Vec<Position> =
            (0..2000).map(|i| random_position(&mut rng, 8, 2 + i % 4)).collect();
        check(&tb, 8, rule, &sample);
    }
}

/// Random 10- and 12-slot states within partial tables (every state with
/// at most `max_live` pieces not fixed), both kinds and both pass rules.
#[test]
fn sampled_10_and_12_slot_states_within_max_live() {
    let mut rng = Rng(0x0fed_cba9_8765_4321);
    let cases = [
        (10, 6, PassRule::Always, Encoding::Scores),
        (10, 6, PassRule::WhenStuck, Encoding::Packed),
        (12, 5, PassRule::WhenStuck, Encoding::Scores),
        (12, 5, PassRule::Always, Encoding::Packed),
    ];
    for (n, max_live, rule, encoding) in cases {
        let dir = tempfile::tempdir().unwrap();
        let tb = make_as(dir.path(), n, rule, max_live, encoding);
        let least_fixed = usize::from(n - max_live);
        let sample: Vec<Position> =
            (0..1500).map(|i| random_position(&mut rng, n, least_fixed + i % 3)).collect();
        if encoding == Encoding::Scores {
            check(&tb, n, rule, &sample);
        } else {
            check_values(&tb, n, rule, &sample);
        }
    }
}

#[test]
fn same_bytes_for_any_thread_count() {
    let mut files = Vec::new();
    let encodings = [Encoding::Scores, Encoding::Values, Encoding::Packed];
    for (threads, encoding) in
        [1, 2, 1, 2, 1, 2].into_iter().zip(encodings.iter().flat_map(|&e| [e, e]))
    {
        let dir = tempfile::tempdir().unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| make_as(dir.path(), 6, PassRule::Always, 6, encoding));
        files.push(files_in(&dir.path().join("n6-always")));
    }
    assert_eq!(files[0], files[1]);
    assert_eq!(files[2], files[3]);
    assert_eq!(files[4], files[5]);
}

#[test]
#[ignore = "slow: the 8-slot tables six times over, with and without memory limits; scripts/test-slow.sh"]
fn memory_limits_do_not_change_the_bytes() {
    // Every sub-table big (one at a time), solved by levels, letting go of
    // the model sets and block caches before its core, every uncompressed
    // copy in a scratch file and a checkpoint after every sub-table, against
    // the defaults, which keep them all in memory for 8 slots. No scratch
    // file or checkpoint is left.
    let tiny = {
        let mut l = Limits::default();
        l.big_nodes = 0;
        l.by_levels = 0;
        l.release_nodes = 0;
        l.raw_in_memory = 0;
        l.checkpoint = std::time::Duration::ZERO;
        l
    };
    for encoding in [Encoding::Scores, Encoding::Packed, Encoding::Coded] {
        let mut files = Vec::new();
        for limits in [Limits::default(), tiny] {
            let dir = tempfile::tempdir().unwrap();
            let cfg = Config::new(dir.path().to_path_buf(), 8, PassRule::WhenStuck)
                .with_encoding(encoding)
                .with_limits(limits);
            generate(&cfg, None).unwrap();
            files.push(files_in(&dir.path().join("n8-when-stuck")));
        }
        // The representatives of the 2^8 fixed sets (and their side files).
        let per_set = if encoding == Encoding::Coded { 2 } else { 1 };
        assert_eq!(files[0].len(), 96 * per_set, "{encoding:?}");
        assert!(files[0] == files[1], "encoding {encoding:?}");
    }
}

#[test]
fn damaged_files_give_errors() {
    for encoding in [Encoding::Scores, Encoding::Values, Encoding::Packed] {
        damaged_files_give_errors_in(encoding);
    }
}

fn damaged_files_give_errors_in(encoding: Encoding) {
    let dir = tempfile::tempdir().unwrap();
    make_as(dir.path(), 6, PassRule::Always, 6, encoding);
    let path = dir.path().join("n6-always").join("f0000.cctb");
    let good = std::fs::read(&path).unwrap();
    let probe: Position = "2,1,4,3,6,5".parse().unwrap();
    let mut rng = Rng(99);
    for trial in 0..200 {
        let mut bad = good.clone();
        match trial % 3 {
            0 => bad.truncate(rng.below(good.len() as u64) as usize),
            1 => {
                let at = rng.below(good.len() as u64) as usize;
                bad[at] ^= 1 << rng.below(8);
            }
            _ => bad = (0..rng.below(4000)).map(|_| rng.below(256) as u8).collect(),
        }
        std::fs::write(&path, &bad).unwrap();
        let tb = Tablebase::new(dir.path(), 6, PassRule::Always);
        let what = |e| corrupt(e, &path, trial);
        match (trial % 3, tb.load(0)) {
            // A file cut short is refused when opened, for its length.
            (0, Err(e)) => {
                let what = what(e);
                let short = what.contains("shorter than its") || what.contains(" bytes, expected ");
                assert!(short, "trial {trial}: {what}");
            }
            // A flipped bit in the header or the checksums is refused when
            // the file is opened; one in the records, by its block checksum.
            (1, Err(e)) => drop(what(e)),
            (1, Ok(true)) => {
                let what = what(tb.file(0).unwrap().verify_all().unwrap_err());
                let block = what.starts_with("block ") && what.ends_with(" checksum mismatch");
                assert!(block, "trial {trial}: {what}");
                if let Err(e) = tb.score(&probe) {
                    let probe::ProbeError::Table(e) = e else { panic!("trial {trial}: {e}") };
                    assert_eq!(corrupt(e, &path, trial), what, "trial {trial}");
                }
            }
            // Random bytes are not a table.
            (2, Err(e)) => {
                let what = what(e);
                let not_a_table = what == "not a chaosclock table (bad magic)"
                    || what == "file is shorter than its header";
                assert!(not_a_table, "trial {trial}: {what}");
            }
            (kind, got) => panic!("trial {trial}: damage {kind} gave {got:?}"),
        }
    }
}

/// What `e` says is wrong, after checking that it is a corrupt-table error
/// naming `path` in the one message every reader shows.
fn corrupt(e: TableError, path: &Path, trial: usize) -> String {
    let text = e.to_string();
    let TableError::Corrupt { path: named, what } = e else {
        panic!("trial {trial}: not a corrupt table: {text}");
    };
    assert_eq!(named, path, "trial {trial}");
    let want = format!("corrupt table {}: {what} (run generate again", path.display());
    assert!(text.starts_with(&want), "trial {trial}: {text}");
    what
}

#[test]
fn solve_with_partial_tables_agrees_and_explores_less() {
    const MAX_LIVE: u32 = 5;
    let dir = tempfile::tempdir().unwrap();
    make(dir.path(), 8, PassRule::Always, MAX_LIVE as u8);
    let mut rng = Rng(0xfeed);
    for i in 0..60 {
        let root = random_position(&mut rng, 8, 1 + i % 3);
        let tb = Tablebase::new(dir.path(), 8, PassRule::Always);
        tb.load_all().unwrap();
        let with = solve_with(Variant::new(8, PassRule::Always).unwrap(), &[root], Some(tb), None)
            .unwrap();
        let without =
            solve_many(Variant::new(8, PassRule::Always).unwrap(), &[root], None).unwrap();
        // The tables hold the states with at most 5 pieces not fixed; from
        // these roots (5 to 7 not fixed) the solver reaches some of them,
        // which the tables answer instead.
        let covered =
            without.iter().filter(|(p, _)| 8 - p.fixed_mask().count_ones() <= MAX_LIVE).count();
        assert!(covered > 0, "{root}: the tables cover none of its states");
        assert!(
            with.states() < without.states(),
            "{root}: {} states with the tables, {} without, {covered} of them covered",
            with.states(),
            without.states()
        );
        assert_eq!(with.score(&root), without.score(&root), "{root}");
        let a: Vec<_> = with.moves(&root).unwrap().iter().map(|m| (m.mv, m.score)).collect();
        let b: Vec<_> = without.moves(&root).unwrap().iter().map(|m| (m.mv, m.score)).collect();
        assert_eq!(a, b, "{root}");
        assert_eq!(with.line(&root).unwrap(), without.line(&root).unwrap(), "{root}");
    }
}

/// A solve that reads tables of values only gives exact values and no
/// depths, says so, and lines that keep the value to the right end (issue
/// 67: its depths were built on the tables' unknown ones, as if 0); one
/// that reads none of them keeps its depths.
#[test]
fn solve_with_values_only_tables_gives_values_without_depths() {
    const MAX_LIVE: u8 = 5;
    let dir = tempfile::tempdir().unwrap();
    let rule = PassRule::WhenStuck;
    make_as(dir.path(), 8, rule, MAX_LIVE, Encoding::Packed);
    let tb = std::sync::Arc::new(Tablebase::new(dir.path(), 8, rule));
    let variant = Variant::new(8, rule).unwrap();
    let mut rng = Rng(0x67);
    for i in 0..40 {
        let root = random_position(&mut rng, 8, 1 + i % 3);
        let with = chaosclock::Solve::new(variant).tables(tb.clone()).run(&[root]).unwrap();
        let without = solve_many(variant, &[root], None).unwrap();
        assert!(!with.depths_known() && without.depths_known(), "{root}");
        let (got, want) = (with.score(&root).unwrap(), without.score(&root).unwrap());
        assert_eq!((got.value, got.depth()), (want.value, None), "{root}");
        assert!(with.iter().all(|(p, s)| s.depth().is_none() || p.outcome().is_some()));
        let a: Vec<_> = with.moves(&root).unwrap().iter().map(|m| (m.mv, m.score.value)).collect();
        let mut b: Vec<_> = without.moves(&root).unwrap().iter().map(|m| m.mv).collect();
        b.sort_by_key(|m| m.to_string());
        let mut a_moves: Vec<_> = a.iter().map(|m| m.0).collect();
        a_moves.sort_by_key(|m| m.to_string());
        assert_eq!(a_moves, b, "{root}");
        for (mv, value) in a {
            let child = root.play(mv, rule).unwrap();
            let s = Score::from_child(without.score(&child).unwrap(), child.side() == root.side());
            assert_eq!(value, s.value, "{root}: {mv}");
        }
        let answer = chaosclock::answer::Answer::from_solution(&with, &root, rule).unwrap();
        assert!(!answer.depths, "{root}");
        // The line keeps the value and ends as the value says.
        let line = with.line(&root).unwrap();
        let mut cur = root;
        for &mv in &line {
            let next = cur.play(mv, rule).unwrap();
            let keep = Score::from_child(without.score(&next).unwrap(), next.side() == cur.side());
            assert_eq!(keep.value, without.score(&cur).unwrap().value, "{root}: {mv} in {cur}");
            cur = next;
        }
        if want.value == chaosclock::Value::NoResult {
            assert!(line.is_empty(), "{root}");
        } else {
            let end = terminal_value(&cur, cur.outcome().expect("the line ends the game"));
            let end = if cur.side() == root.side() { end } else { end.flip() };
            assert_eq!(end, want.value, "{root}: the line ends at {cur}");
        }
    }
    // A solve that reads no table file keeps its depths.
    let empty = tempfile::tempdir().unwrap();
    let root: Position = "2,1,4,3,6,5,8,7".parse().unwrap();
    let none = Tablebase::new(empty.path(), 8, rule);
    let read_none = chaosclock::Solve::new(variant).tables(none).run(&[root]).unwrap();
    assert!(read_none.depths_known());
    let want = solve_many(variant, &[root], None).unwrap().score(&root).unwrap();
    assert_eq!(read_none.score(&root), Some(want));
    assert!(want.depth().is_some());
}

#[test]
fn probe_agrees_with_solve_and_names_missing_tables() {
    let dir = tempfile::tempdir().unwrap();
    make(dir.path(), 8, PassRule::Always, 5);
    let tb = Tablebase::new(dir.path(), 8, PassRule::Always);
    let mut rng = Rng(0xbeef);
    for _ in 0..300 {
        let fixed = 3 + rng.below(4) as usize;
        let root = random_position(&mut rng, 8, fixed);
        let sol = solve_many(Variant::new(8, PassRule::Always).unwrap(), &[root], None).unwrap();
        let a = probe::analyse(&tb, &root).unwrap();
        assert_eq!(Some(a.score), sol.score(&root), "{root}");
        let moves: Vec<_> = a.moves.iter().map(|m| (m.mv, m.score)).collect();
        let want: Vec<_> = sol.moves(&root).unwrap().iter().map(|m| (m.mv, m.score)).collect();
        assert_eq!(moves, want, "{root}");
        assert_eq!(a.line.len(), usize::from(a.score.depth().unwrap_or(0)));
    }
    let opening: Position = "2,1,4,3,6,5,8,7".parse().unwrap();
    let err = probe::analyse(&tb, &opening).unwrap_err().to_string();
    // The library names the file and what it holds; the binary adds the
    // advice (tests/query_fallback.rs).
    assert!(
        err.contains("n8-always/f0000.cctb (8 slots, signatures with 8 pieces not fixed"),
        "{err}"
    );
}

#[test]
fn verify_finds_no_mismatch_in_good_tables() {
    for (rule, encoding) in [
        (PassRule::Always, Encoding::Scores),
        (PassRule::WhenStuck, Encoding::Scores),
        (PassRule::Always, Encoding::Packed),
        (PassRule::WhenStuck, Encoding::Values),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let tb = make_as(dir.path(), 8, rule, 6, encoding);
        let report = chaosclock::verify::verify(&tb, 6, 3000, 40, 7).unwrap();
        assert_eq!(report.mismatches, Vec::<String>::new());
        assert_eq!(report.rederived, 3000);
        assert_eq!(report.solved, 40);
        assert!(report.files > 0);
    }
}

/// One `Tablebase` may be shared by threads (issue 60).
#[test]
fn a_tablebase_is_send_and_sync() {
    fn shared<T: Send + Sync>() {}
    shared::<Tablebase>();
}

/// Files open when first probed, through `&self`: no `load` first.
#[test]
fn a_score_opens_its_file_itself() {
    let dir = tempfile::tempdir().unwrap();
    let cfg =
        Config::new(dir.path().to_path_buf(), 6, PassRule::Always).with_encoding(Encoding::Scores);
    generate(&cfg, None).unwrap();
    let tb = Tablebase::new(dir.path(), 6, PassRule::Always);
    let pos: Position = "2,1,4,3,6,5".parse().unwrap();
    assert_eq!(
        tb.score(&pos).unwrap(),
        solve_many(Variant::new(6, cfg.rule).unwrap(), &[pos], None).unwrap().score(&pos).unwrap()
    );
    assert!(tb.score_is(&pos, tb.score(&pos).unwrap()).unwrap());
    assert_eq!(tb.value(&pos).unwrap(), tb.score(&pos).unwrap().value);
}

/// A position of another size, or a request under another rule, is a typed
/// error, never a panic nor an answer (issue 60: a 6-slot position on the
/// 8-slot tables panicked in `symmetry.rs`; `WhenStuck` against `Always`
/// tables answered, labelled `WhenStuck`).
#[test]
fn another_size_or_rule_is_a_typed_error() {
    let dir = tempfile::tempdir().unwrap();
    let tb = make(dir.path(), 6, PassRule::Always, 6);
    let empty = tempfile::tempdir().unwrap();
    let eight = Tablebase::new(empty.path(), 8, PassRule::Always);
    for (tb, pos) in [(&tb, "2,1,4,3"), (&tb, "2,8,7,4,6,3,1,5"), (&eight, "2,1,4,3,6,5")] {
        let pos: Position = pos.parse().unwrap();
        let other = |e: &probe::ProbeError| {
            matches!(e, probe::ProbeError::Table(TableError::OtherSize { tables, position, .. })
                if *tables == tb.slots() && *position == pos.slots())
        };
        assert!(other(&tb.score(&pos).unwrap_err()), "{pos}");
        assert!(other(&tb.value(&pos).unwrap_err()), "{pos}");
        assert!(other(&probe::moves(tb, &pos).unwrap_err()), "{pos}");
        assert!(other(&probe::analyse(tb, &pos).unwrap_err()), "{pos}");
        let e = chaosclock::answer::Answer::from_tables(tb, &pos, PassRule::Always).unwrap_err();
        assert!(other(&e), "{pos}");
        assert!(e.to_string().contains("are for"), "{e}");
    }
    let pos: Position = "2,1,4,3,6,5".parse().unwrap();
    let e = chaosclock::answer::Answer::from_tables(&tb, &pos, PassRule::WhenStuck).unwrap_err();
    let rule = |e: &probe::ProbeError| {
        matches!(
            e,
            probe::ProbeError::Table(TableError::OtherRule {
                tables: PassRule::Always,
                asked: PassRule::WhenStuck,
                ..
            })
        )
    };
    assert!(rule(&e), "{e}");
    let when_stuck = Variant::new(6, PassRule::WhenStuck).unwrap();
    let tables = Tablebase::new(dir.path(), 6, PassRule::Always);
    assert!(matches!(
        solve_with(when_stuck, &[pos], Some(tables), None),
        Err(SolveError::Table(TableError::OtherRule { .. }))
    ));
}

/// Two tablebases of one process (other sizes, other directories) keep
/// their own caches of decompressed blocks: each answers right while the
/// other is probed between its probes, and the reads of one are counted
/// by it alone; a tablebase given another's cache shares it.
#[test]
fn two_tablebases_keep_their_own_block_caches() {
    let (six_dir, eight_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let rule = PassRule::Always;
    let six = make_as(six_dir.path(), 6, rule, 6, Encoding::Packed);
    let eight = make_as(eight_dir.path(), 8, PassRule::WhenStuck, 6, Encoding::Packed);
    assert!(!std::sync::Arc::ptr_eq(six.block_cache(), eight.block_cache()));
    let reads = |tb: &Tablebase| tb.block_cache().counts().0;
    assert_eq!((reads(&six), reads(&eight)), (0, 0), "nothing probed yet");

    check_values(&six, 6, rule, &all_states(6));
    let six_reads = reads(&six);
    assert!(six_reads > 0, "the 6-slot probes are counted");
    assert_eq!(reads(&eight), 0, "not by the 8-slot tablebase");

    let mut rng = Rng(0xcac4e);
    let sample: Vec<Position> = (0..500).map(|i| random_position(&mut rng, 8, 2 + i % 4)).collect();
    check_values(&eight, 8, PassRule::WhenStuck, &sample);
    assert!(reads(&eight) > 0, "the 8-slot probes are counted");
    assert_eq!(reads(&six), six_reads, "not by the 6-slot tablebase");

    // Probes of both, interleaved, still answer right.
    let states = all_states(6);
    let solved = solve_many(Variant::new(6, rule).unwrap(), &states, None).unwrap();
    let other = solve_many(Variant::new(8, PassRule::WhenStuck).unwrap(), &sample, None).unwrap();
    for (p, q) in states.iter().zip(sample.iter().cycle()) {
        assert_eq!(Some(six.score(p).unwrap().value), solved.score(p).map(|s| s.value), "{p}");
        assert_eq!(Some(eight.score(q).unwrap().value), other.score(q).map(|s| s.value), "{q}");
    }

    // A cache handed over is shared: the reads of a second 6-slot
    // tablebase are counted with the first one's.
    let shared =
        Tablebase::new(six_dir.path(), 6, rule).with_block_cache(six.block_cache().clone());
    let before = reads(&six);
    check_values(&shared, 6, rule, &states);
    assert!(reads(&six) > before, "counted in the shared cache");
    assert_eq!(reads(&shared), reads(&six));
}
