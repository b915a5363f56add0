//! Never a panic through the public API (issue 60): every entry point
//! that takes a position, driven by `proptest` with random consistent
//! positions of every supported size, both pass rules, and tables of the
//! position's size or of another one, gives `Ok` or a typed error.
//!
//! The tables are the complete 6-slot ones under `Always` and the 4-slot
//! ones under `WhenStuck`, made once (a second or two). Solves in memory
//! run for positions of at most 6 slots, or within a small budget; roots
//! of another size than the variant, and answers from a solution for a
//! position it did not reach, are typed errors.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use chaosclock::answer::Answer;
use chaosclock::book::Book;
use chaosclock::generate::{Config, Limits, generate};
use chaosclock::policy::{AnswerError, Bounded, Policy};
use chaosclock::probe::{self, ProbeError};
use chaosclock::solve::{SolveError, solve, solve_bounded, solve_many, solve_with};
use chaosclock::table::{Encoding, TableError, Tablebase};
use chaosclock::{PassRule, SUPPORTED_SLOTS, Variant};
use common::{Rng, random_position};
use proptest::prelude::*;
use proptest::test_runner::Config as RunConfig;

/// The tables root: 6-slot `Always` and 4-slot `WhenStuck` tables.
fn root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary directory").keep();
        for (n, rule) in [(6, PassRule::Always), (4, PassRule::WhenStuck)] {
            let limits = Limits::default();
            let cfg = Config::new(dir.clone(), n, rule)
                .with_encoding(Encoding::Scores)
                .with_limits(limits);
            generate(&cfg, None).expect("tables are made");
        }
        dir
    })
}

/// A probe error that is typed: a missing file, a damaged one, another
/// size or rule, tables that disagree.
fn typed(e: &ProbeError) -> bool {
    matches!(
        e,
        ProbeError::Table(TableError::OtherSize { .. } | TableError::OtherRule { .. })
            | ProbeError::Missing { .. }
    )
}

fn rule_of(k: u8) -> PassRule {
    if k.is_multiple_of(2) { PassRule::Always } else { PassRule::WhenStuck }
}

proptest! {
    #![proptest_config(RunConfig { cases: 300, failure_persistence: None, ..RunConfig::default() })]

    #[test]
    fn every_entry_point_answers_or_errs(
        seed in 1u64..u64::MAX,
        size in 0usize..SUPPORTED_SLOTS.len(),
        tables in 0usize..SUPPORTED_SLOTS.len(),
        rule in 0u8..2,
        asked in 0u8..2,
    ) {
        let n = SUPPORTED_SLOTS[size];
        let mut rng = Rng(seed);
        let fixed = rng.below(u64::from(n) + 1) as usize;
        let pos = random_position(&mut rng, n, fixed);
        let (tables_n, rule, asked) = (SUPPORTED_SLOTS[tables], rule_of(rule), rule_of(asked));
        let tb = Tablebase::new(root(), tables_n, rule);
        // Files exist only for 6/Always and 4/WhenStuck: elsewhere a
        // position of the tables' size is a missing file.
        let covered = (tables_n, rule) == (6, PassRule::Always) || (tables_n, rule) == (4, PassRule::WhenStuck);
        let fits = n == tables_n;

        match tb.score(&pos) {
            Ok(_) => prop_assert!(fits && covered, "{pos} answered by {tables_n}-slot tables"),
            Err(e) => prop_assert!(typed(&e) && !(fits && covered), "{pos}: {e}"),
        }
        for result in [tb.value(&pos).map(drop), probe::moves(&tb, &pos).map(drop), probe::analyse(&tb, &pos).map(drop)] {
            if let Err(e) = result {
                prop_assert!(typed(&e), "{pos}: {e}");
            }
        }
        if let Ok(s) = tb.score(&pos) {
            prop_assert!(tb.score_is(&pos, s).unwrap());
        }
        match Answer::from_tables(&tb, &pos, asked) {
            Ok(a) => prop_assert!(fits && covered && asked == rule && a.rule == rule, "{pos}"),
            Err(e) => prop_assert!(typed(&e), "{pos}: {e}"),
        }
        // The book knows openings of its sizes, under both rules.
        let book = Book::embedded().unwrap();
        let _ = book.value(&pos, asked);
        let _ = Answer::from_rules(&pos, asked);
        // Solves: in full up to 6 slots, else within a small budget; with
        // tables of another size or rule, a typed error.
        // A position of another size is never reached by the solution.
        let elsewhere = random_position(&mut rng, tables_n, 0);
        if n <= 6 {
            let solution = solve(&pos, asked, None);
            let a = Answer::from_solution(&solution, &pos, asked).unwrap();
            prop_assert_eq!(a.score, solution.score(&pos).unwrap());
            // Another rule than the solve's: an error, never the other
            // rule's moves under this rule's name (issue 67).
            let other_rule = rule_of(u8::from(asked == PassRule::Always));
            let e = Answer::from_solution(&solution, &pos, other_rule);
            prop_assert!(matches!(e, Err(SolveError::OtherRule { .. })), "{pos}");
            if tables_n != n {
                let e = Answer::from_solution(&solution, &elsewhere, asked);
                prop_assert!(matches!(e, Err(SolveError::OtherSize { .. })), "{elsewhere}");
                prop_assert!(solution.moves(&elsewhere).is_err(), "{elsewhere}");
                prop_assert!(solution.line(&elsewhere).is_err(), "{elsewhere}");
            }
        }
        // Roots of another size than the variant: a typed error from every
        // solve that takes a variant, before anything is solved.
        let other = Variant::new(tables_n, asked).unwrap();
        if tables_n != n {
            let other_size = |r: Result<_, SolveError>| matches!(r, Err(SolveError::OtherSize { .. }));
            prop_assert!(other_size(solve_many(other, &[pos], None)), "{pos}");
            prop_assert!(other_size(solve_with(other, &[elsewhere, pos], None, None)), "{pos}");
            let tables = Some(Tablebase::new(root(), tables_n, rule));
            prop_assert!(other_size(solve_bounded(other, &[pos], tables, 20_000, None)), "{pos}");
        }
        let variant = Variant::new(n, asked).unwrap();
        let tables = Tablebase::new(root(), tables_n, rule);
        match solve_bounded(variant, &[pos], Some(tables), 20_000, None) {
            Ok(_) | Err(SolveError::TooLarge { .. }) => prop_assert!(fits && asked == rule),
            Err(SolveError::Table(TableError::OtherSize { .. } | TableError::OtherRule { .. })) => {
                prop_assert!(!fits || asked != rule)
            }
            Err(e) => prop_assert!(false, "{pos}: {e}"),
        }
        // The answering policy over all of them.
        let solver = Bounded::new(20_000);
        let policy = Policy::new().with_tables(Some(&tb)).with_book(Some(book)).with_solver(Some(&solver));
        match policy.answer(&pos, asked) {
            Ok(found) => prop_assert_eq!(found.answer.rule, asked),
            Err(AnswerError::Tables(e)) => prop_assert!(typed(&e), "{pos}: {e}"),
            Err(AnswerError::Unanswered { solve: Some(SolveError::TooLarge { .. }), .. }) => {}
            Err(e) => prop_assert!(false, "{pos}: {e}"),
        }
    }
}

/// A size the engine does not support is a typed error before anything
/// is written.
#[test]
fn generate_refuses_what_it_cannot_make() {
    for (n, max_live) in [(0, 0), (3, 3), (5, 2), (13, 2), (16, 1), (200, 4)] {
        let dir = tempfile::tempdir().unwrap();
        let limits = Limits::default();
        let cfg = Config::new(dir.path(), n, PassRule::Always)
            .with_max_live(max_live)
            .with_encoding(Encoding::Scores)
            .with_limits(limits);
        let e = generate(&cfg, None).map(|r| r.files_written);
        assert!(e.is_err(), "{n} slots, max_live {max_live}: {e:?}");
    }
}

/// The book's and the draws' readers of a board: any bytes give a value
/// or `None` (a board that is no opening of the size), never a panic.
#[test]
fn the_book_and_the_draws_refuse_what_is_no_opening() {
    let book = Book::embedded().expect("the built-in book reads");
    let mut rng = Rng(0x5eed_b00c);
    for n in SUPPORTED_SLOTS {
        let section = book.section(n, PassRule::Always).expect("the built-in book has every size");
        let opening: Vec<u8> = (1..=n).map(|p| p % n + 1).collect();
        assert!(section.value(&opening).is_some(), "{opening:?}");
        assert!(chaosclock::draw::opening(&opening).is_some(), "{opening:?}");
        for _ in 0..200 {
            let len = rng.below(14) as usize;
            // Half of them a shuffle of 1..=n, so that some are openings.
            let board: Vec<u8> = if rng.below(2) == 0 {
                let mut b: Vec<u8> = (1..=n).collect();
                for i in (1..b.len()).rev() {
                    b.swap(i, rng.below(i as u64 + 1) as usize);
                }
                b
            } else {
                (0..len).map(|_| rng.below(16) as u8).collect()
            };
            let derangement = board.len() == usize::from(n)
                && board
                    .iter()
                    .enumerate()
                    .all(|(i, &p)| p >= 1 && p <= n && usize::from(p) != i + 1)
                && (1..=n).all(|p| board.contains(&p));
            assert_eq!(section.value(&board).is_some(), derangement, "{n}: {board:?}");
            if board.len() == usize::from(n) {
                assert_eq!(chaosclock::draw::opening(&board).is_some(), derangement, "{board:?}");
            }
        }
        assert!(!section.block_values(section.blocks(), &mut |_, _| panic!("no such block")));
    }
}
