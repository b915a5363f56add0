//! Every 8-slot state, under both pass rules, answered by the tables
//! (which store one representative of each symmetric family and read the
//! others through the map) and by the solver (which knows nothing of the
//! symmetry), must agree: the value from tables of values only, the value
//! and the depth from tables with depths.
//!
//! The states are listed without the tables' code: every board of every
//! signature (`SigIndex`), both sides, every `last`, kept when the
//! position's own check (`Position::check_reachable`) accepts it. They are
//! then solved in one `solve_many`. The tables of encoding 4 (values with
//! depths, compressed; 乙's scores derived from their children) are
//! compared too, without and with their side files (乙's depths stored).

mod common;

use std::path::Path;

use chaosclock::generate::{Config, generate};
use chaosclock::internals::SigIndex;
use chaosclock::solve::solve_many;
use chaosclock::table::{Encoding, Tablebase};
use chaosclock::{Last, PassRule, Position, Side, Variant};
use rayon::prelude::*;

/// Every state of `n` slots that passes the reachability checks.
fn every_state(n: u8) -> Vec<Position> {
    let pieces: u16 = ((1u32 << (n + 1)) - 2) as u16;
    let mut out = Vec::new();
    for fixed in 0..=pieces {
        if fixed & !pieces != 0 {
            continue;
        }
        let free = pieces & !fixed;
        for loose in 0..=free {
            if loose & !free != 0 {
                continue;
            }
            let index = SigIndex::new(n, fixed, loose);
            for rank in 0..index.boards() {
                let board = index.unrank(rank);
                let cells: Vec<i64> = board[..n as usize].iter().map(|&p| i64::from(p)).collect();
                let lasts = [Last::None, Last::Pass, Last::DoublePass]
                    .into_iter()
                    .chain((1..=n).map(Last::Piece));
                for side in [Side::Jia, Side::Yi] {
                    for last in lasts.clone() {
                        if let Ok(pos) = Position::new(&cells, side, last)
                            && pos.check_reachable().is_ok()
                        {
                            out.push(pos);
                        }
                    }
                }
            }
        }
    }
    out
}

/// Makes the complete tables of `n` slots under `rule` in `dir`; those of
/// encoding 4 are converted from tables of encoding 1 (`generate` does not
/// write them yet).
fn make(dir: &Path, n: u8, rule: PassRule, encoding: Encoding) {
    make_with(dir, n, rule, encoding, false);
}

/// [`make`], with the side files of encoding 4 if `sides`.
fn make_with(dir: &Path, n: u8, rule: PassRule, encoding: Encoding, sides: bool) {
    if encoding == Encoding::Coded {
        let scores = tempfile::tempdir().unwrap();
        make(scores.path(), n, rule, Encoding::Scores);
        common::convert_tables(scores.path(), dir, n, rule, sides);
        return;
    }
    let cfg = Config::new(dir.to_path_buf(), n, rule).with_encoding(encoding);
    generate(&cfg, None).unwrap();
}

#[test]
#[ignore = "slow: 20 million states, both rules, four encodings; scripts/test-slow.sh"]
fn every_8_slot_state_from_symmetric_tables_equals_solve() {
    let n = 8;
    let states = every_state(n);
    // More than the 9,454,950 states the tables store (generate's
    // `states_covered`): the position's check accepts every `last` that
    // one ply back could explain (`none` included), and 2,882,624 ended
    // games after two passes. A table answers any `last` from its node's
    // record, so all of them are compared.
    assert_eq!(states.len(), 20_214_616);
    let ended = states.iter().filter(|p| p.last() == Last::DoublePass).count();
    assert_eq!(ended, 2_882_624);
    for rule in [PassRule::Always, PassRule::WhenStuck] {
        let solution = solve_many(Variant::new(n, rule).unwrap(), &states, None).unwrap();
        let encodings = [
            (Encoding::Packed, false, false),
            (Encoding::Scores, true, false),
            (Encoding::Coded, true, false),
            (Encoding::Coded, true, true),
        ];
        for (encoding, depths, sides) in encodings {
            let dir = tempfile::tempdir().unwrap();
            make_with(dir.path(), n, rule, encoding, sides);
            let tb = Tablebase::new(dir.path(), n, rule);
            tb.load_all().unwrap();
            let wrong: Vec<String> = states
                .par_iter()
                .filter_map(|pos| {
                    let want = solution.score(pos).expect("every root is solved");
                    let got = tb.score(pos).unwrap();
                    let same = if depths { got == want } else { got.value == want.value };
                    (!same).then(|| format!("{pos}: tables {got}, solve {want}"))
                })
                .collect();
            assert!(
                wrong.is_empty(),
                "{rule:?}, depths {depths}: {} of {} states differ, e.g. {:?}",
                wrong.len(),
                states.len(),
                &wrong[..wrong.len().min(5)]
            );
        }
    }
}
