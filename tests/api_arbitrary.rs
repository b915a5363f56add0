//! Arbitrary values into every public function and constructor (issue
//! 67): raw numbers, bytes, moves and scores that no game makes, given to
//! the crate root, `draw`, `engine`, `book`, `table`, `answer`, `review`
//! and `solve`. Each call gives a value or a typed error, never a panic;
//! what a constructor accepts is a consistent position (it prints, parses
//! back and has the key it was made from).
//!
//! `api_never_panics.rs` drives the probing entry points with consistent
//! positions and real tables; `fuzz_parsers.rs` the parsers with text.
//! Each property here runs [`CASES`] cases (docs/checking.md).

mod common;

use std::borrow::Cow;
use std::sync::OnceLock;

use chaosclock::answer::Answer;
use chaosclock::book::Book;
use chaosclock::engine::{Engine, Level, judge, opening};
use chaosclock::review::{play_all, review_ply};
use chaosclock::scored::ScoredMove;
use chaosclock::solve::solve_bounded;
use chaosclock::table::{Tablebase, dir_name, file_name};
use chaosclock::{
    Diagram, Dial, Last, Move, MoveText, PassRule, Position, SUPPORTED_SLOTS, Score, Side, Value,
    Variant, draw, escape_control, hand, last_from_number, last_to_number,
};
use common::{Rng, random_position};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Cases per property.
const CASES: u32 = 3000;

fn config() -> Config {
    Config { cases: CASES, failure_persistence: None, ..Config::default() }
}

/// An empty directory: tables of every size are missing there.
fn empty_root() -> &'static std::path::Path {
    static ROOT: OnceLock<std::path::PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| tempfile::tempdir().expect("a temporary directory").keep())
}

fn side(k: u8) -> Side {
    if k.is_multiple_of(2) { Side::Jia } else { Side::Yi }
}

fn rule(k: u8) -> PassRule {
    if k.is_multiple_of(2) { PassRule::Always } else { PassRule::WhenStuck }
}

fn last(kind: u8, piece: u8) -> Last {
    match kind % 4 {
        0 => Last::None,
        1 => Last::Pass,
        2 => Last::DoublePass,
        _ => Last::Piece(piece),
    }
}

fn a_move(kind: u8, piece: u8) -> Move {
    match kind % 3 {
        0 => Move::Walk(piece),
        1 => Move::Place(piece),
        _ => Move::Pass,
    }
}

fn value(code: u8) -> Value {
    Value::ALL[usize::from(code) % Value::ALL.len()]
}

/// What a position that a constructor accepted must be.
fn consistent(pos: &Position) -> Result<(), TestCaseError> {
    prop_assert!(SUPPORTED_SLOTS.contains(&pos.slots()));
    prop_assert_eq!(pos.board().len(), usize::from(pos.slots()));
    prop_assert_eq!(Position::from_key(pos.slots(), pos.key()), Ok(*pos));
    let again = Position::new(pos.board(), pos.side(), pos.last());
    prop_assert_eq!(again, Ok(*pos));
    Ok(())
}

/// Every query of a position with arbitrary numbers: an answer, never a
/// panic, and answers that agree with each other.
fn query(pos: &Position, r: PassRule, k: u8, kind: u8, piece: u8) -> Result<(), TestCaseError> {
    let n = pos.slots();
    match pos.piece_at(k) {
        Some(p) => prop_assert!((1..=n).contains(&k) && pos.slot_of(p) == Some(k)),
        None => prop_assert!(!(1..=n).contains(&k) || pos.board()[usize::from(k) - 1] == 0),
    }
    prop_assert_eq!(pos.is_fixed(k), pos.piece_at(k) == Some(k));
    let _ = (pos.slot_of(k), pos.hand_mask(side(k)), pos.on_board_mask(), pos.banned());
    let _ = (pos.outcome(), pos.is_opening(), pos.check_reachable(), pos.variant(r));
    let m = a_move(kind, piece);
    let legal = pos.legal_moves(r);
    let played = pos.play(m, r);
    prop_assert_eq!(played.is_ok(), legal.contains(m), "{} {}", pos, m);
    prop_assert_eq!(pos.check_move(m, r).is_ok(), legal.contains(m));
    if let Ok(next) = played {
        consistent(&next)?;
        prop_assert!(pos.children(r).any(|(c, p)| c == m && p == next));
    }
    let _ = pos.captured(m);
    let text = if kind.is_multiple_of(2) { MoveText::Piece(piece) } else { MoveText::Pass };
    if let Ok(read) = pos.parse_move(text, r) {
        prop_assert!(legal.contains(read));
    }
    let _ = (hand(pos, side(kind)), Dial::new(pos).to_string(), Diagram::new(pos).to_string());
    let _ = judge(pos, side(k));
    let _ = last_to_number(pos.last());
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    /// `Position::new` with any board (any length, any numbers), side and
    /// last move.
    #[test]
    fn positions_from_any_numbers(
        board in proptest::collection::vec(-3i64..20, 0..16),
        s in any::<u8>(), kind in any::<u8>(), piece in any::<u8>(),
        k in any::<u8>(), r in any::<u8>(),
    ) {
        if let Ok(pos) = Position::new(&board, side(s), last(kind, piece)) {
            consistent(&pos)?;
            query(&pos, rule(r), k, kind, piece)?;
        }
        let narrow: Vec<u8> = board.iter().map(|&p| p as u8).collect();
        if let Ok(pos) = Position::new(&narrow, side(s), last(kind, piece)) {
            consistent(&pos)?;
        }
    }

    /// `Position::from_key` with any size and number, and every query of
    /// a random consistent position with arbitrary slots, pieces and moves.
    #[test]
    fn keys_slots_and_moves_of_any_number(
        n in any::<u8>(), key in any::<u64>(), seed in 1u64..u64::MAX,
        k in any::<u8>(), kind in any::<u8>(), piece in any::<u8>(), r in any::<u8>(),
    ) {
        if let Ok(pos) = Position::from_key(n, key) {
            consistent(&pos)?;
            prop_assert_eq!(pos.key(), key);
        }
        let mut rng = Rng(seed);
        let size = SUPPORTED_SLOTS[rng.below(SUPPORTED_SLOTS.len() as u64) as usize];
        let fixed = rng.below(u64::from(size) + 1) as usize;
        let pos = random_position(&mut rng, size, fixed);
        query(&pos, rule(r), k, kind, piece)?;
        // A near key: one bit flipped.
        let near = pos.key() ^ (1 << (key % 64));
        if let Ok(other) = Position::from_key(size, near) {
            consistent(&other)?;
        }
    }

    /// Sizes, counts and seeds: `Variant::new`, `draw`, `engine::opening`,
    /// the tables' names and a tablebase of any size over an empty
    /// directory.
    #[test]
    fn sizes_and_seeds_of_any_number(n in any::<u8>(), seed in any::<u64>(), r in any::<u8>(), fixed in any::<u16>()) {
        let supported = SUPPORTED_SLOTS.contains(&n);
        prop_assert_eq!(Variant::new(n, rule(r)).is_ok(), supported);
        prop_assert_eq!(draw::count(n).is_ok(), supported);
        prop_assert_eq!(draw::chunks(n, draw::Order::Board).is_ok(), supported);
        match draw::Draw::new(n, seed) {
            Ok(d) => for p in d.take(3) {
                consistent(&p)?;
                prop_assert!(p.is_opening() && p.slots() == n);
            },
            Err(_) => prop_assert!(!supported),
        }
        if n <= 6 || !supported {
            prop_assert_eq!(draw::all(n).map(|a| a.len() as u64).ok(), draw::count(n).ok());
        }
        if n <= 8 || !supported {
            match opening(n, seed, seed % 2 == 0) {
                Ok(p) => prop_assert!(p.is_opening() && p.slots() == n),
                Err(_) => prop_assert!(!supported),
            }
        }
        let _ = (dir_name(n, rule(r)), file_name(fixed), draw::wilson(seed, u64::from(fixed)));
        let tb = Tablebase::new(empty_root(), n, rule(r));
        let pos: Position = "2,1,4,3".parse().unwrap();
        prop_assert!(tb.score(&pos).is_err() && tb.value(&pos).is_err());
        prop_assert!(Answer::from_tables(&tb, &pos, rule(r)).is_err());
        let _ = (tb.load_all(), tb.has_depths(), tb.values_only());
    }

    /// Numbers read as values, levels, last moves and scores.
    #[test]
    fn codes_of_any_number(code in any::<u8>(), m in any::<i64>(), depth in any::<u16>(), same in any::<bool>(), seed in any::<u64>()) {
        if let Some(v) = Value::from_code(code) {
            prop_assert_eq!(v.code(), code);
        }
        match Level::new(code) {
            Some(level) => prop_assert_eq!(level.get(), code),
            None => prop_assert!(Level::all().all(|l| l.get() != code)),
        }
        if let Ok(l) = last_from_number(m) {
            prop_assert_eq!(last_to_number(l), m);
        }
        // Any depth: the checked constructor, else a depth not known.
        let score = Score::new(value(code), depth).unwrap_or(Score::value_only(value(code)));
        prop_assert_eq!(score.depth().is_some(), Score::new(value(code), depth).is_some() && value(code) != Value::NoResult);
        let child = Score::from_child(score, same);
        if let Some(back) = child.to_child(same) {
            prop_assert_eq!(Score::from_child(back, same), child);
        }
        let _ = score.to_child(same);
        let _ = Engine::new(Level::new(1 + code % 7).unwrap(), seed).level();
    }

    /// Engines, reviews and answers given moves and scores no solve made:
    /// illegal moves, children that are not the move's, any score.
    #[test]
    fn moves_and_scores_no_solve_made(
        seed in 1u64..u64::MAX, kind in any::<u8>(), piece in any::<u8>(),
        code in any::<u8>(), depth in any::<u16>(), r in any::<u8>(),
        texts in proptest::collection::vec("[0-9a-z ]{0,4}", 0..6),
    ) {
        let mut rng = Rng(seed);
        let size = SUPPORTED_SLOTS[rng.below(3) as usize];
        let fixed = rng.below(u64::from(size) + 1) as usize;
        let pos = random_position(&mut rng, size, fixed);
        let other_n = SUPPORTED_SLOTS[rng.below(5) as usize];
        let other = random_position(&mut rng, other_n, 0);
        let score = Score::new(value(code), depth).unwrap_or(Score::value_only(value(code)));
        let made = |mv, child| ScoredMove::new(mv, child, score);
        let moves = vec![made(a_move(kind, piece), other), made(Move::Pass, pos)];
        let level = Level::new(1 + piece % 7).unwrap();
        if let Some(m) = Engine::new(level, seed).choose(&pos, &moves) {
            prop_assert!(pos.legal_moves(PassRule::Always).contains(m), "{} {}", pos, m);
        }
        if let Some(m) = Engine::new(level, seed).guess(&pos, rule(r)) {
            prop_assert!(pos.legal_moves(rule(r)).contains(m));
        }
        let _ = review_ply(&pos, a_move(kind, piece), &moves);
        let _ = review_ply(&pos, a_move(kind, piece), &[]);
        if let Ok(plies) = play_all(pos, &texts, rule(r)) {
            prop_assert!(plies.len() <= texts.len());
        }
        let _ = Answer::from_rules(&pos, rule(r));
        if let Ok(book) = Book::embedded() {
            if let Ok(a) = Answer::from_book(book, &pos, rule(r)) {
                prop_assert!(pos.is_opening() && a.pos == pos);
            }
            let _ = book.section(piece, rule(r)).map(|s| s.value(&[piece, code, kind]));
        }
    }

    /// Bytes that are no book, and block numbers past a section's end.
    #[test]
    fn books_of_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200), block in any::<usize>()) {
        let _ = Book::parse(Cow::Owned(bytes.clone()), "arbitrary bytes");
        if let Ok(book) = Book::embedded() {
            // The real book with a byte changed: refused or read, never a
            // panic (the whole book is checked when it is opened).
            if let (Some(&b), Some(file)) = (bytes.first(), book.files().next()) {
                let mut damaged = file[..file.len().min(4096)].to_vec();
                let at = block % damaged.len().max(1);
                if let Some(x) = damaged.get_mut(at) {
                    *x ^= b | 1;
                }
                let _ = Book::parse(Cow::Owned(damaged), "a damaged book");
            }
            for s in SUPPORTED_SLOTS {
                if let Some(section) = book.section(s, PassRule::Always) {
                    let _ = section.block_values(block, &mut |_, _| {});
                    let _ = section.value(&bytes);
                }
            }
        }
        let _ = escape_control(&String::from_utf8_lossy(&bytes));
        let _ = draw::opening(&bytes);
    }
}

/// Solves of any small position, read under every rule and at positions
/// of every size: an answer only for the rule solved and the positions
/// reached.
#[test]
fn solutions_answer_their_own_rule_size_and_states() {
    let mut rng = Rng(0x67_67);
    for _ in 0..60 {
        let n = [4, 6][rng.below(2) as usize];
        let fixed = rng.below(u64::from(n) + 1) as usize;
        let pos = random_position(&mut rng, n, fixed);
        let solved = rule(rng.below(2) as u8);
        let s = solve_bounded(pos.variant(solved), &[pos], None, 2_000_000, None).unwrap();
        assert_eq!((s.variant().slots(), s.variant().rule()), (n, solved));
        for asked in PassRule::ALL {
            let a = Answer::from_solution(&s, &pos, asked);
            assert_eq!(a.is_ok(), asked == solved, "{pos}");
        }
        let elsewhere = random_position(&mut rng, 10 - n, 0);
        assert!(Answer::from_solution(&s, &elsewhere, solved).is_err());
        assert!(s.score(&elsewhere).is_none());
    }
}

/// Everything that answers may be shared between threads (issue 67:
/// `Policy` was neither `Send` nor `Sync`).
#[test]
fn what_answers_is_send_and_sync() {
    fn both<T: Send + Sync>() {}
    both::<chaosclock::policy::Policy<'static>>();
    both::<chaosclock::policy::Bounded<'static>>();
    both::<Tablebase>();
    both::<chaosclock::Tables>();
    both::<Book>();
    both::<chaosclock::solve::Solution>();
    both::<Answer>();
}

/// The solve builder: a cancel flag stops it, shared tables are read
/// through an `Arc`, and tables of another rule are an error.
#[test]
fn a_solve_is_cancelled_and_shares_tables() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use chaosclock::Solve;
    use chaosclock::solve::{SolveError, solve};

    let pos: Position = "2,1,4,3,6,5".parse().unwrap();
    let always = pos.variant(PassRule::Always);
    let stop = AtomicBool::new(true);
    let e = Solve::new(always).cancel(&stop).run(&[pos]);
    assert!(matches!(e, Err(SolveError::Cancelled)), "{e:?}");
    // No files under the empty root: everything is solved in memory.
    let tb = Arc::new(Tablebase::new(empty_root(), 6, PassRule::Always));
    let shared = Solve::new(always).tables(Arc::clone(&tb)).budget(1_000_000).run(&[pos]).unwrap();
    assert_eq!(shared.score(&pos), solve(&pos, PassRule::Always, None).score(&pos));
    let other = Arc::new(Tablebase::new(empty_root(), 6, PassRule::WhenStuck));
    let e = Solve::new(always).tables(other).run(&[pos]);
    assert!(matches!(e, Err(SolveError::Table(_))), "{e:?}");
}
