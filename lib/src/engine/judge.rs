//! A rule-of-thumb judgement of a position, as a person new to the game
//! makes it from the strategy notes (docs/openings.md, "--stats"): how
//! close each side's pieces are to their slots, and who moves next.
//!
//! A piece counts by how far it is from home: fixed 1, in hand 0.6 (one
//! placement away), on slot N 0.5 (one walk away: slot N is the only slot
//! from which a piece walks home), on the board with a way back by walking
//! (`(p − s) mod N` a multiple of `gcd(p, N)`, the notes' "way back") 0.3,
//! else 0.1. Piece N counts as having a way back (it leaves the board and
//! is placed).

use crate::position::{Outcome, Position};
use crate::side::Side;

/// The judgement of `pos` for `me`, from 0 (lost) to 1 (won); a finished
/// game gets its outcome's worth (a both-win 0.6, a both-lose 0.3).
pub fn judge(pos: &Position, me: Side) -> f64 {
    if let Some(outcome) = pos.outcome() {
        return match outcome {
            Outcome::Win(w) if w == me => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::BothWin => 0.6,
            Outcome::BothLose => 0.3,
        };
    }
    let lead = progress(pos, me) - progress(pos, me.other());
    let tempo = if pos.side() == me { 0.04 } else { 0.0 };
    (0.5 + 0.5 * (2.5 * lead).tanh() + tempo).clamp(0.0, 1.0)
}

/// How close `side`'s pieces are to their slots, 0 to 1.
fn progress(pos: &Position, side: Side) -> f64 {
    let n = pos.slots();
    let hand = pos.hand_mask(side);
    let mut sum = 0.0;
    let mut count = 0.0;
    for p in (1..=n).filter(|&p| Side::owner_of(p) == side) {
        count += 1.0;
        sum += if pos.is_fixed(p) {
            1.0
        } else if hand >> p & 1 == 1 {
            0.6
        } else {
            match pos.slot_of(p) {
                Some(s) if s == n => 0.5,
                Some(s)
                    if p == n
                        || (i32::from(p) - i32::from(s)).rem_euclid(i32::from(n))
                            % i32::from(gcd(p, n))
                            == 0 =>
                {
                    0.3
                }
                _ => 0.1,
            }
        };
    }
    sum / count
}

fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_closer_to_home_is_judged_better() {
        // 甲 has 1 and 3 fixed, 乙 nothing: good for 甲, bad for 乙.
        let pos: Position = "1,0,3,0,0,0,0,0;1;0".parse().unwrap();
        assert!(judge(&pos, Side::Jia) > 0.7);
        assert!(judge(&pos, Side::Yi) < 0.35);
        let over: Position = "1,0,3,0;0;0".parse().unwrap();
        assert_eq!(judge(&over, Side::Jia), 1.0);
    }
}
