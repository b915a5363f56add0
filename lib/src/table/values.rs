//! The values-only record: one byte per node that gives the value (not the
//! depth) of every state of the node (docs/tables.md).
//!
//! A state's moves are its node's moves minus the banned walk, plus the
//! pass. So a node's states have at most three values: `last` none (every
//! move allowed), `last` pass (a second pass ends the game), and `last` the
//! node's only best walk (banned, if that changes the value). Every other
//! `last` has the value of none. The byte is
//! - `0..10`: no banned walk matters; the pair (value of none, value of
//!   pass) is [`PAIRS`]`[code]`;
//! - `10..250`: `10 + (a × 4 + k) × 12 + (w - 1)`: the value of none is
//!   `a`, walk `w` is banned after walking it, and the value of that state
//!   is the k-th value code other than `a`'s. The value of pass
//!   follows from `a` and the pass rule (see `pass_value`);
//! - `250..=255`: never written.
//!
//! Values do not depend on depths (the retrograde phases of
//! [`crate::solve`] decide values by attractors and reachability only), so
//! tables of values are exact, and a value-only record decodes into a
//! [`Summary`] whose depths are all 0 but whose value for every `last` is
//! right.

use std::sync::OnceLock;

use crate::moves::PassRule;
use crate::position::Last;
use crate::score::Score;
use crate::summary::Summary;
use crate::value::Value;

/// The (value of none, value of pass) pairs a node without a banned walk
/// that matters can have, under either pass rule (value codes).
pub const PAIRS: [(u8, u8); 10] =
    [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (0, 2), (1, 2), (3, 2), (4, 2), (4, 3)];

/// First code of a banned walk that matters.
const WALKS: u8 = PAIRS.len() as u8;

/// Walks per value pair in the code (pieces 1..=12).
const PIECES: u8 = 12;

/// The value of `last` pass in a node whose banned walk matters and whose
/// value of none is `a`: the pass after a pass ends the game in both-lose,
/// and the node has a walk (its best), so under when-stuck that walk is
/// played, under always the better of the two.
fn pass_value(a: Value, rule: PassRule) -> Value {
    match rule {
        PassRule::Always => a.max(Value::BothLose),
        PassRule::WhenStuck => a,
    }
}

/// The record of a node whose states are scored by `s`; `None` if `s` is
/// not a summary the solver makes (a node that goes on has a pass).
pub fn encode(s: &Summary, rule: PassRule) -> Option<u8> {
    if !s.terminal && s.pass.is_none() {
        return None;
    }
    let value = |last: Last| s.score(last, rule).value.code();
    let (a, p) = (value(Last::None), value(Last::Pass));
    let walk = s.best_walk;
    if !s.terminal && walk != 0 && value(Last::Piece(walk)) != a {
        let banned = value(Last::Piece(walk));
        if walk > PIECES || Value::from_code(p) != Some(pass_value(Value::from_code(a)?, rule)) {
            return None;
        }
        let k = if banned < a { banned } else { banned - 1 };
        return Some(WALKS + (a * 4 + k) * PIECES + (walk - 1));
    }
    PAIRS.iter().position(|&pair| pair == (a, p)).map(|c| c as u8)
}

/// A summary with the values `code` stands for (all depths 0), or `None`
/// for a byte that is not a record of `rule` for `n` slots.
///
/// Looked up in a table of all 256 bytes (made on first use): the
/// generator decodes a record for every child it reads.
#[inline]
pub fn decode(code: u8, rule: PassRule, n: u8) -> Option<Summary> {
    type Decoded = [Option<Summary>; 256];
    const SIZES: usize = crate::position::MAX_SLOTS as usize + 1;
    static TABLES: [[OnceLock<Box<Decoded>>; SIZES]; 2] =
        [const { [const { OnceLock::new() }; SIZES] }; 2];
    let rule_at = usize::from(rule == PassRule::WhenStuck);
    let Some(table) = TABLES[rule_at].get(usize::from(n)) else {
        return decode_slow(code, rule, n);
    };
    table.get_or_init(|| Box::new(std::array::from_fn(|c| decode_slow(c as u8, rule, n))))
        [usize::from(code)]
}

/// [`decode`] by arithmetic.
fn decode_slow(code: u8, rule: PassRule, n: u8) -> Option<Summary> {
    let score = |v: u8| Value::from_code(v).map(Score::terminal);
    if code < WALKS {
        let (a, p) = PAIRS[usize::from(code)];
        if a == p {
            return Some(Summary::ended(score(a)?));
        }
        // The pass value differs: pass p is the value after a pass.
        let pass = score(a);
        return match rule {
            // No walk or placement, or none better than both-lose: the
            // state after a pass ends in both-lose (p = 2).
            PassRule::Always if p == Value::BothLose.code() => {
                Some(Summary { pass, ..Summary::default() })
            }
            // A best move scoring p, and a better pass.
            PassRule::Always if Value::from_code(a) > Value::from_code(p) => {
                Some(Summary { best: score(p), pass, ..Summary::default() })
            }
            // Only the pass: after a pass, the game ends.
            PassRule::WhenStuck if p == Value::BothLose.code() => {
                Some(Summary { pass, ..Summary::default() })
            }
            _ => None,
        };
    }
    let rest = code - WALKS;
    let (pair, walk) = (rest / PIECES, rest % PIECES + 1);
    let (a, k) = (pair / 4, pair % 4);
    if a > 4 || walk > n {
        return None;
    }
    let banned = if k < a { k } else { k + 1 };
    if rule == PassRule::Always && Value::from_code(banned) > Value::from_code(a) {
        return None; // under always the pass is there after the ban too
    }
    let (best, banned) = (score(a), score(banned));
    let s = match rule {
        // The banned state plays its second move or passes, both `banned`.
        PassRule::Always => {
            Summary { best, best_walk: walk, second: banned, pass: banned, terminal: false }
        }
        // The banned state passes (its only other move).
        PassRule::WhenStuck => {
            Summary { best, best_walk: walk, second: None, pass: banned, terminal: false }
        }
    };
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table [`decode`] reads is [`decode_slow`] for every byte, rule
    /// and size.
    #[test]
    fn decode_table_is_decode_by_arithmetic() {
        for rule in [PassRule::Always, PassRule::WhenStuck] {
            for n in 0..=crate::position::MAX_SLOTS + 1 {
                for code in 0..=255u8 {
                    assert_eq!(decode(code, rule, n), decode_slow(code, rule, n), "{code} {n}");
                }
            }
        }
    }

    fn lasts() -> Vec<Last> {
        let mut v = vec![Last::None, Last::Pass];
        v.extend((1..=12).map(Last::Piece));
        v
    }

    fn values(s: &Summary, rule: PassRule) -> Vec<Value> {
        lasts().into_iter().map(|l| s.score(l, rule).value).collect()
    }

    /// Every summary the solver can make: values and depths of best,
    /// second and pass, the best walk, and ended nodes.
    fn summaries() -> Vec<Summary> {
        let scores: Vec<Score> = Value::ALL
            .iter()
            .flat_map(|&value| [0, 3, 8].map(|depth| Score { value, depth }))
            .filter(|s| s.value != Value::NoResult || s.depth == 0)
            .collect();
        let mut out: Vec<Summary> = scores.iter().map(|&s| Summary::ended(s)).collect();
        let options: Vec<Option<Score>> =
            std::iter::once(None).chain(scores.iter().copied().map(Some)).collect();
        for &best in &options {
            for &second in &options {
                if best.is_none() && second.is_some() || second > best {
                    continue;
                }
                for &pass in &scores {
                    for walk in 0..=12 {
                        if best.is_none() && walk != 0 {
                            continue;
                        }
                        out.push(Summary {
                            best,
                            second,
                            pass: Some(pass),
                            best_walk: walk,
                            terminal: false,
                        });
                    }
                }
            }
        }
        out
    }

    #[test]
    fn every_summary_has_a_byte_with_the_same_values() {
        for rule in [PassRule::Always, PassRule::WhenStuck] {
            let mut used = [false; 256];
            for s in summaries() {
                let code = encode(&s, rule).unwrap_or_else(|| panic!("{s:?} under {rule:?}"));
                used[usize::from(code)] = true;
                let back = decode(code, rule, 12).expect("written bytes decode");
                assert_eq!(values(&back, rule), values(&s, rule), "{s:?} under {rule:?}");
                assert_eq!(encode(&back, rule), Some(code), "decoding is canonical");
            }
            assert!(used[250..].iter().all(|&u| !u));
        }
    }

    #[test]
    fn bytes_that_are_no_record_are_refused() {
        for rule in [PassRule::Always, PassRule::WhenStuck] {
            for code in 250..=255 {
                assert_eq!(decode(code, rule, 12), None);
            }
        }
        // A ban of walk 11 on 10 slots.
        let code = WALKS + 4 * 4 * PIECES + 10;
        assert!(decode(code, PassRule::Always, 12).is_some());
        assert_eq!(decode(code, PassRule::Always, 10), None);
        // Under always, a banned walk never gains (the pass stays).
        let gain = WALKS + 3 * PIECES;
        assert!(decode(gain, PassRule::WhenStuck, 12).is_some());
        assert_eq!(decode(gain, PassRule::Always, 12), None);
    }
}
