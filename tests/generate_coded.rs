//! `generate` writing encoding 4 (values with depths, compressed) and its
//! side files directly: byte for byte what the converter makes of the
//! tables of encoding 1 when every file has one model set; and, with files
//! of many model sets (coded sub-table by sub-table as they are solved,
//! and read back from those blocks while the file is written), the same
//! score for every state as the tables of encoding 1.

mod common;

use std::path::Path;

use chaosclock::PassRule;
use chaosclock::Position;
use chaosclock::generate::{Config, Limits, generate};
use chaosclock::table::{Encoding, Tablebase};
use rayon::prelude::*;

/// Generates the complete `n`-slot tables of `encoding` under `dir`.
fn make(dir: &Path, n: u8, rule: PassRule, encoding: Encoding, limits: Limits) {
    let cfg = Config::new(dir.to_path_buf(), n, rule).with_encoding(encoding).with_limits(limits);
    generate(&cfg, None).unwrap();
}

#[test]
fn generated_files_are_the_converted_files() {
    for (n, rule) in [(6, PassRule::Always), (8, PassRule::Always), (8, PassRule::WhenStuck)] {
        let scores = tempfile::tempdir().unwrap();
        make(scores.path(), n, rule, Encoding::Scores, Limits::default());
        let converted = tempfile::tempdir().unwrap();
        common::convert_tables(scores.path(), converted.path(), n, rule, true);
        let generated = tempfile::tempdir().unwrap();
        make(generated.path(), n, rule, Encoding::Coded, Limits::default());
        let dir = |root: &Path| Tablebase::new(root, n, rule).dir().to_path_buf();
        let (want, got) =
            (common::files_in(&dir(converted.path())), common::files_in(&dir(generated.path())));
        assert!(want.iter().any(|(name, _)| name.ends_with(".side.cctb")));
        let names = |files: &[(String, Vec<u8>)]| -> Vec<String> {
            files.iter().map(|(name, _)| name.clone()).collect()
        };
        assert_eq!(names(&got), names(&want), "{n} slots, {rule:?}");
        for ((name, a), (_, b)) in got.iter().zip(&want) {
            assert!(a == b, "{n} slots, {rule:?}: {name} differs from the converted file");
        }
    }
}

/// Every state of `n` slots (6), or `sample` random ones: the scores of
/// the tables under `a` and `b` are the same.
fn same_scores(a: &Tablebase, b: &Tablebase, states: &[Position]) {
    let wrong: Vec<String> = states
        .par_iter()
        .filter_map(|pos| {
            let (x, y) = (a.score(pos).unwrap(), b.score(pos).unwrap());
            (x != y).then(|| format!("{pos}: {x:?} and {y:?}"))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {} differ, e.g. {:?}",
        wrong.len(),
        states.len(),
        &wrong[..5.min(wrong.len())]
    );
}

#[test]
fn files_of_many_model_sets_give_every_score() {
    for (n, own) in [(6u8, 2u64), (8, 64)] {
        let rule = PassRule::Always;
        let scores = tempfile::tempdir().unwrap();
        make(scores.path(), n, rule, Encoding::Scores, Limits::default());
        // Every file of many sets; big sub-tables solved one at a time.
        let limits = {
            let mut l = Limits::default();
            l.sets = (0, own);
            l.big_nodes = 1 << 12;
            l
        };
        let coded = tempfile::tempdir().unwrap();
        make(coded.path(), n, rule, Encoding::Coded, limits);
        let (a, b) =
            (Tablebase::new(scores.path(), n, rule), Tablebase::new(coded.path(), n, rule));
        a.load_all().unwrap();
        b.load_all().unwrap();
        let states = if n == 6 {
            common::all_states(n)
        } else {
            let mut rng = common::Rng(23);
            (0..200_000).map(|i| common::random_position(&mut rng, n, i % 7)).collect()
        };
        same_scores(&a, &b, &states);
        // The files are not those of one set.
        let converted = tempfile::tempdir().unwrap();
        common::convert_tables(scores.path(), converted.path(), n, rule, true);
        let dir = |root: &Path| Tablebase::new(root, n, rule).dir().to_path_buf();
        assert_ne!(common::files_in(&dir(coded.path())), common::files_in(&dir(converted.path())));
    }
}

/// A damaged side file is removed by the next run, which keeps the table
/// files; without it, 乙's scores are derived and stay the same.
#[test]
fn a_damaged_side_file_goes() {
    let (n, rule) = (6, PassRule::Always);
    let dir = tempfile::tempdir().unwrap();
    make(dir.path(), n, rule, Encoding::Coded, Limits::default());
    let tables = Tablebase::new(dir.path(), n, rule).dir().to_path_buf();
    let side = tables.join("f0000.side.cctb");
    let mut bytes = std::fs::read(&side).unwrap();
    let at = bytes.len() - 20;
    bytes[at] ^= 0x40;
    std::fs::write(&side, &bytes).unwrap();
    let before = common::files_in(&tables);
    let cfg = Config::new(dir.path().to_path_buf(), n, rule).with_encoding(Encoding::Coded);
    let report = generate(&cfg, None).unwrap();
    assert_eq!((report.files_kept, report.files_written), (40, 0));
    let after = common::files_in(&tables);
    let gone: Vec<&String> =
        before.iter().filter(|f| !after.contains(f)).map(|(name, _)| name).collect();
    assert_eq!(gone, ["f0000.side.cctb"]);
    let scores = tempfile::tempdir().unwrap();
    make(scores.path(), n, rule, Encoding::Scores, Limits::default());
    let (a, b) = (Tablebase::new(scores.path(), n, rule), Tablebase::new(dir.path(), n, rule));
    a.load_all().unwrap();
    b.load_all().unwrap();
    same_scores(&a, &b, &common::all_states(n));
}
