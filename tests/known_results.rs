//! Results stated in the game's documentation and in SCALE.md, reproduced
//! by the solver, plus a few positions reasoned out by hand. The expected
//! facts are the documentation's; every value checked comes from the solver.

use chaosclock::solve::solve;
use chaosclock::{Move, PassRule, Position, Value};

fn pos(text: &str) -> Position {
    text.parse().unwrap()
}

/// The documented opening is both-win, and walking 6 is the only move that
/// keeps both-win: every other move, pass included, is a forced win for 甲.
/// An independent solver reaches 20,971,954 states from it (start and
/// terminal states counted; its count excludes the ends after two passes,
/// which this solver counts separately).
#[test]
fn documented_opening() {
    let root = pos("2,8,11,9,4,12,10,6,5,7,1,3");
    let sol = solve(&root, PassRule::Always, None);
    assert_eq!(sol.states(), 20_971_954);
    assert_eq!(sol.score(&root).unwrap().value, Value::BothWin);
    for m in sol.moves(&root).unwrap() {
        let expected = if m.mv == Move::Walk(6) { Value::BothWin } else { Value::SelfLose };
        assert_eq!(m.score.value, expected, "move {}", m.mv);
    }
    let line = sol.line(&root).unwrap();
    assert_eq!(line.len(), usize::from(sol.score(&root).unwrap().depth().unwrap_or(0)));
}

/// The documented mid-game is a self-win for 甲, by walking 11.
#[test]
fn documented_mid_game() {
    let root = pos("4,3,7,11,5,10,12,0,0,2,0,0;0;7");
    let sol = solve(&root, PassRule::Always, None);
    assert_eq!(sol.score(&root).unwrap().value, Value::SelfWin);
    let moves = sol.moves(&root).unwrap();
    let best = moves[0].score;
    assert!(moves.iter().any(|m| m.mv == Move::Walk(11) && m.score == best));
}

/// Plays the solver's line and checks where it ends.
fn line_ends(text: &str, rule: PassRule) -> (Value, Option<chaosclock::Outcome>) {
    let root = pos(text);
    let sol = solve(&root, rule, None);
    let mut cur = root;
    for m in sol.line(&root).unwrap() {
        cur = cur.play(m, rule).unwrap();
    }
    (sol.score(&root).unwrap().value, cur.outcome())
}

#[test]
fn hand_reasoned_positions() {
    use chaosclock::{Outcome, Side};
    // 乙 is complete; 甲 to move needs two placements (1 and 3) but has one
    // ply: whatever it does, 乙 wins.
    assert_eq!(
        line_ends("0,2,0,4;0;0", PassRule::Always),
        (Value::SelfLose, Some(Outcome::Win(Side::Yi)))
    );
    // Each side needs one placement: 甲 places 1, then 乙 places 2 in the
    // one ply it has left, and both have completed.
    assert_eq!(
        line_ends("0,0,3,4;0;0", PassRule::Always),
        (Value::BothWin, Some(Outcome::BothWin))
    );
    // 甲 is complete and 乙 needs two placements but has one ply.
    assert_eq!(
        line_ends("1,0,3,0;1;0", PassRule::Always),
        (Value::SelfLose, Some(Outcome::Win(Side::Jia)))
    );
    // After 甲's pass, 乙 (who cannot stop 甲 from completing next) passes
    // too and ends the game: both lose beats losing.
    let (v, end) = line_ends("1,4,2,0;1;-1", PassRule::Always);
    assert_eq!((v, end), (Value::BothLose, Some(Outcome::BothLose)));
}
