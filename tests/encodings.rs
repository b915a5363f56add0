//! Tables of values only (compressed) against tables with depths, record
//! by record: for every node of every file, every `last` must have the
//! same value.
//!
//! The test generates both for 8 slots. The ignored one compares two
//! directories made by `generate` (e.g. the complete 10-slot tables):
//! `CC_VALUES=DIR CC_DEPTHS=DIR CC_SLOTS=10 cargo test --release --test
//! encodings -- --ignored`.

use std::path::Path;

use chaosclock::generate::{Config, Limits, generate};
use chaosclock::internals::RawFile;
use chaosclock::table::{Encoding, Tablebase, fixed_sets};
use chaosclock::{Last, PassRule};
use rayon::prelude::*;

/// Compares every record of the `n`-slot tables under `values` and
/// `depths`; returns the number of nodes compared.
fn compare(values: &Path, depths: &Path, n: u8, rule: PassRule) -> u64 {
    let (v, d) = (Tablebase::new(values, n, rule), Tablebase::new(depths, n, rule));
    let mut nodes = 0;
    for f in fixed_sets(n, n) {
        assert!(v.load(f).unwrap() && d.load(f).unwrap(), "file {f:#x} in both");
        let (fv, fd) = (v.file(f).unwrap(), d.file(f).unwrap());
        assert_eq!(fv.header().nodes, fd.header().nodes);
        assert!(!fv.has_depths() && fd.has_depths());
        for (sub, &count) in fv.header().nodes.iter().enumerate() {
            (0..count).into_par_iter().for_each(|node| {
                let (a, b) = (fv.record(sub, node).unwrap(), fd.record(sub, node).unwrap());
                let lasts = [Last::None, Last::Pass].into_iter().chain((1..=n).map(Last::Piece));
                for last in lasts {
                    assert_eq!(
                        a.score(last, rule).value,
                        b.score(last, rule).value,
                        "file {f:#x} sub-table {sub} node {node} last {last:?}"
                    );
                }
            });
            nodes += count;
        }
    }
    nodes
}

#[test]
fn values_only_records_match_records_with_depths_for_8_slots() {
    for rule in [PassRule::Always, PassRule::WhenStuck] {
        let (v, d) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        for (dir, encoding) in [(&v, Encoding::Packed), (&d, Encoding::Scores)] {
            let limits = Limits::default();
            let cfg = Config::new(dir.path().to_path_buf(), 8, rule)
                .with_encoding(encoding)
                .with_limits(limits);
            let report = generate(&cfg, None).unwrap();
            // Every 8-slot state (SCALE.md), through its representative.
            assert_eq!(report.covered, 9_454_950);
        }
        // The nodes of the stored signatures (every orbit once).
        assert_eq!(compare(v.path(), d.path(), 8, rule), 1_018_936);
    }
}

#[test]
#[ignore = "compares two directories given by CC_VALUES, CC_DEPTHS and CC_SLOTS"]
fn values_only_records_match_records_with_depths_in_given_directories() {
    let var = |k: &str| std::env::var(k).unwrap_or_else(|_| panic!("set {k}"));
    let n: u8 = var("CC_SLOTS").parse().unwrap();
    let nodes =
        compare(Path::new(&var("CC_VALUES")), Path::new(&var("CC_DEPTHS")), n, PassRule::Always);
    println!("{nodes} nodes compared");
}
