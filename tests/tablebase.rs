//! Generated tables against the solver: every state of the 4- and 6-slot
//! games and a sample of 8-slot states, under both pass rules; the same
//! bytes for any thread count; damaged files give errors, not answers.

mod common;

use std::path::Path;

use chaosclock::generate::{Config, generate};
use chaosclock::solve::solve_many;
use chaosclock::table::Tablebase;
use chaosclock::{PassRule, Position};
use common::{Rng, all_states, random_position};

fn make(root: &Path, n: u8, rule: PassRule, max_live: u8) -> Tablebase {
    let cfg = Config { root: root.to_path_buf(), n, rule, max_live };
    generate(&cfg, None).unwrap();
    let mut tb = Tablebase::new(root, n, rule);
    for f in chaosclock::generate::fixed_sets(n, max_live) {
        assert!(tb.load(f).unwrap());
    }
    tb
}

fn check(tb: &Tablebase, n: u8, rule: PassRule, positions: &[Position]) {
    let sol = solve_many(n, positions, rule, None);
    for p in positions {
        assert_eq!(tb.score(p).unwrap(), sol.score(p), "{p} ({rule:?})");
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

#[test]
fn same_bytes_for_any_thread_count() {
    let mut files = Vec::new();
    for threads in [1, 2] {
        let dir = tempfile::tempdir().unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| make(dir.path(), 6, PassRule::Always, 6));
        let sub = dir.path().join("n6-always");
        let mut all: Vec<(String, Vec<u8>)> = std::fs::read_dir(&sub)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.file_name().into_string().unwrap(), std::fs::read(e.path()).unwrap())
            })
            .collect();
        all.sort();
        files.push(all);
    }
    assert_eq!(files[0], files[1]);
}

#[test]
fn damaged_files_give_errors() {
    let dir = tempfile::tempdir().unwrap();
    make(dir.path(), 6, PassRule::Always, 6);
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
        let mut tb = Tablebase::new(dir.path(), 6, PassRule::Always);
        // Either the file is refused, or every record read verifies: a
        // flipped payload bit is caught by its block checksum.
        if let Ok(true) = tb.load(0) {
            let file = tb.file(0).unwrap();
            assert!(file.verify_all().is_err() || bad == good, "trial {trial}");
            let _ = tb.score(&probe);
        }
    }
}
