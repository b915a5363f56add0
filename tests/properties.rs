//! Property tests of the game core over random legal games, checked against
//! the independent reference (`tests/reference`).
//!
//! Games start from random openings (derangements, 乙 to move) and from
//! random positions, for every board size and both pass rules. At every
//! position: hands are implied by the board, print∘parse and
//! `from_key∘key` round-trip, the generated moves are legal and equal the
//! reference's moves exactly (same children), illegal moves are rejected, and
//! fixed pieces never move. Randomness comes from a fixed-seed splitmix64,
//! so failures reproduce.

mod reference;

use chaosclock::{Move, MoveText, PassRule, Position, SUPPORTED_SLOTS, Side};
use reference::{ref_has_predecessor, ref_moves};

/// The longest game played; games on a cycle would go on forever.
const MAX_PLIES: usize = 200;

/// Games per board size from openings, and as many from random positions.
const GAMES_PER_SIZE: usize = 600;

/// splitmix64: a tiny, well-mixed generator with a fixed seed.
#[derive(Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (the modulo bias is irrelevant here).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A random permutation of `1..=n`.
    fn permutation(&mut self, n: u8) -> Vec<u8> {
        let mut p: Vec<u8> = (1..=n).collect();
        for i in (1..p.len()).rev() {
            p.swap(i, self.below(i + 1));
        }
        p
    }
}

/// The interchange text of a board, side and last number.
fn text(board: &[u8], side: u8, last: i64) -> String {
    let cells: Vec<String> = board.iter().map(|p| p.to_string()).collect();
    format!("{};{side};{last}", cells.join(","))
}

/// A random opening: a derangement, 乙 to move, no last move.
fn random_opening(rng: &mut Rng, n: u8) -> Position {
    loop {
        let board = rng.permutation(n);
        if board.iter().enumerate().all(|(i, &p)| p as usize != i + 1) {
            return text(&board, 1, 0).parse().expect("a derangement is an opening");
        }
    }
}

/// A random position text: some pieces fixed, some off the board, a random
/// side and a random last number (possibly inconsistent, so both parsers
/// must agree on rejecting it).
fn random_text(rng: &mut Rng, n: u8) -> String {
    let mut board = rng.permutation(n);
    let fix_percent = rng.below(4) * 25;
    let empty_percent = rng.below(4) * 25;
    for p in 1..=n {
        if rng.below(100) < fix_percent {
            let at = board.iter().position(|&q| q == p).expect("a permutation");
            board.swap(at, p as usize - 1);
        }
    }
    for cell in board.iter_mut() {
        if rng.below(100) < empty_percent {
            *cell = 0;
        }
    }
    let last = match rng.below(5) {
        0 => 0,
        1 => -1,
        2 => -2,
        _ => 1 + rng.below(n as usize) as i64,
    };
    text(&board, rng.below(2) as u8, last)
}

/// Checks the game core at `p` under both pass rules (see the file doc).
fn check_position(p: &Position) {
    let n = p.slots();
    let shown = p.to_string();

    // Round trips.
    assert_eq!(shown.parse::<Position>().as_ref(), Ok(p), "{shown}: print∘parse");
    assert_eq!(Position::from_key(n, p.key()), Ok(*p), "{shown}: from_key∘key");

    // Every piece is on the board or in its owner's hand, exactly once.
    let mut count = vec![0u32; n as usize + 1];
    for &q in p.board() {
        assert!(q <= n, "{shown}: piece {q} out of range");
        count[q as usize] += 1;
    }
    for piece in 1..=n {
        let owner = if piece % 2 == 1 { Side::Jia } else { Side::Yi };
        let on_board = count[piece as usize] == 1;
        let in_own_hand = p.hand_mask(owner) & (1 << piece) != 0;
        let in_other_hand = p.hand_mask(owner.other()) & (1 << piece) != 0;
        assert!(count[piece as usize] <= 1, "{shown}: piece {piece} twice");
        assert!(on_board != in_own_hand, "{shown}: piece {piece} board/hand");
        assert!(!in_other_hand, "{shown}: piece {piece} in the wrong hand");
    }
    let all: u16 = ((1u32 << (n + 1)) - 2) as u16;
    for side in Side::ALL {
        assert_eq!(p.hand_mask(side) & !all, 0, "{shown}: hand of {side}");
    }

    for rule in [PassRule::Always, PassRule::WhenStuck] {
        let legal = p.legal_moves(rule);
        assert_eq!(legal.is_empty(), p.outcome().is_some(), "{shown}: moves iff not over");

        // Generated moves are legal, play as `children` plays them, keep fixed
        // pieces fixed, and equal the reference's moves exactly.
        let mut pairs = Vec::new();
        for &m in &legal {
            assert_eq!(p.check_move(m, rule), Ok(()), "{shown}: {m} generated");
            let child = p.play(m, rule).expect("a generated move plays");
            let (_, played) = p.children(rule).find(|&(c, _)| c == m).expect("a child per move");
            assert_eq!(child, played, "{shown}: {m}");
            assert_eq!(
                child.fixed_mask() & p.fixed_mask(),
                p.fixed_mask(),
                "{shown}: {m} moved a fixed piece"
            );
            let written: MoveText = m.to_string().parse().expect("moves print as text");
            assert_eq!(p.parse_move(written, rule), Ok(m), "{shown}: {m} reads back");
            pairs.push((m.to_string(), child.to_string()));
        }
        pairs.sort();
        let len = pairs.len();
        pairs.dedup();
        assert_eq!(pairs.len(), len, "{shown}: duplicate moves");
        let mut expected = ref_moves(&shown, rule == PassRule::WhenStuck)
            .unwrap_or_else(|e| panic!("{shown}: reference rejects it: {e}"));
        expected.sort();
        assert_eq!(pairs, expected, "{shown}: moves under {rule:?} vs reference");

        // Everything else is rejected.
        let candidates =
            (0..=n + 1).flat_map(|q| [Move::Walk(q), Move::Place(q)]).chain([Move::Pass]);
        for m in candidates {
            if !legal.contains(m) {
                assert!(p.play(m, rule).is_err(), "{shown}: illegal {m:?} accepted");
                assert!(p.check_move(m, rule).is_err(), "{shown}: illegal {m:?}");
            }
        }
    }
}

/// Plays one random game from `start` under `rule`, checking every position.
/// Returns the number of plies played.
fn play_random_game(rng: &mut Rng, start: Position, rule: PassRule) -> usize {
    let mut p = start;
    for ply in 0..MAX_PLIES {
        check_position(&p);
        let legal = p.legal_moves(rule);
        if legal.is_empty() {
            return ply;
        }
        // Mostly avoid passing, so that games get long: two passes end them.
        let walks_and_places: Vec<Move> =
            legal.iter().copied().filter(|&m| m != Move::Pass).collect();
        let m = if !walks_and_places.is_empty() && rng.below(10) != 0 {
            walks_and_places[rng.below(walks_and_places.len())]
        } else {
            legal.as_slice()[rng.below(legal.len())]
        };
        p = p.play(m, rule).expect("a generated move plays");
    }
    check_position(&p);
    MAX_PLIES
}

/// A pass rule chosen by a coin flip.
fn random_rule(rng: &mut Rng) -> PassRule {
    if rng.below(2) == 0 { PassRule::Always } else { PassRule::WhenStuck }
}

#[test]
fn random_games_from_openings() {
    let mut rng = Rng(0x0C4A_05C1_0C4A_05C1);
    for n in SUPPORTED_SLOTS {
        let mut plies = 0;
        for _ in 0..GAMES_PER_SIZE {
            let start = random_opening(&mut rng, n);
            assert!(start.is_opening());
            let rule = random_rule(&mut rng);
            plies += play_random_game(&mut rng, start, rule);
        }
        assert!(plies > GAMES_PER_SIZE, "{n} slots: games too short ({plies} plies)");
    }
}

#[test]
fn random_games_from_random_positions() {
    let mut rng = Rng(0x5EED_0000_0000_0001);
    for n in SUPPORTED_SLOTS {
        let (mut games, mut rejected) = (0, 0);
        while games < GAMES_PER_SIZE {
            let t = random_text(&mut rng, n);
            let ours = t.parse::<Position>();
            // The parser also rejects states that no ply leads to
            // (Position::check_reachable), and its checks are exactly the
            // reference's search for a predecessor one ply back.
            let theirs = ref_moves(&t, false);
            let reachable = ref_has_predecessor(&t).unwrap_or(false);
            assert_eq!(
                ours.is_ok(),
                theirs.is_ok() && reachable,
                "{t}: parse {ours:?} vs {theirs:?}, predecessor {reachable}"
            );
            let Ok(start) = ours else {
                rejected += 1;
                continue;
            };
            let rule = random_rule(&mut rng);
            play_random_game(&mut rng, start, rule);
            games += 1;
        }
        // Inconsistent last moves occur, so rejection was exercised too.
        assert!(rejected > 0, "{n} slots: no text was rejected");
    }
}

#[test]
fn texts_are_canonical_after_parsing() {
    // Lenient input (spaces, omitted parts, a last piece that is fixed or
    // off the board) prints canonically, and printing is stable.
    for (input, canonical) in [
        (" 2,1,4,3 ", "2,1,4,3;1;0"),
        ("2,1,4,3;0", "2,1,4,3;0;0"),
        ("0,2,0,0;0;2", "0,2,0,0;0;0"),
        ("0,2,0,0;0;3", "0,2,0,0;0;0"),
        ("2,1,4,3;1;-2", "2,1,4,3;1;-2"),
    ] {
        let p: Position = input.parse().expect("valid text");
        assert_eq!(p.to_string(), canonical);
        check_position(&p);
    }
}
