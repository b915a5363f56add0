//! An [`Answer`] as `solve` and `query` print it: its value and depth,
//! every legal move with its score, and a line of best play, as text or as
//! the common part of their JSON (also the server's `/api/position`), its
//! moves in the one move shape of [`crate::view::moves`] with their scores.
//!
//! Answers from tables of values only have no depths: every depth prints
//! as unknown (`null` in JSON).

use chaosclock::Score;
use chaosclock::answer::Answer;
use chaosclock::{Move, Outcome, Side, Value};
use serde::Serialize;

use crate::view::moves::{MoveJson, depth};
use crate::view::{piece_column, short_name};

/// The fields of the JSON output that `solve` and `query` share.
#[derive(Debug, Serialize)]
pub struct AnswerJson {
    position: String,
    side: &'static str,
    pass_rule: &'static str,
    /// How the game is over in the position, if it is.
    over: Option<&'static str>,
    value: u8,
    label: &'static str,
    depth: Option<u16>,
    moves: Vec<MoveJson>,
    line: Vec<String>,
    /// Present and true when the moves and the line were left out.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    moves_left_out: bool,
}

/// The text: position, value, depth, the moves and the best line, each
/// line ending in a newline.
pub fn to_text(a: &Answer) -> String {
    let pos = &a.pos;
    let side = pos.side();
    let mut t = String::new();
    t.push_str(&format!("position: {pos}\n"));
    t.push_str(&format!("to move:  {}\n", side.label()));
    match pos.outcome() {
        Some(outcome) => {
            t.push_str(&format!("value:    {}; game over: {outcome}\n", a.score.value))
        }
        None => {
            t.push_str(&format!("value:    {} ({})\n", a.score.value, meaning(a.score.value, side)))
        }
    }
    if a.left_out {
        t.push_str("depth:    not in the openings book\n");
        t.push_str(
            "\nmoves:    left out: the openings book holds values only (query without --no-solve solves them)\n",
        );
        return t;
    }
    match a.score.depth() {
        _ if !a.depths => t.push_str("depth:    not stored (tables of values only)\n"),
        Some(depth) if pos.outcome().is_none() => {
            t.push_str(&format!("depth:    {} to the end under best play\n", plies(depth.into())))
        }
        _ => t.push_str(&format!("depth:    {}\n", depth_text(a.score))),
    }

    // The moves, best first.
    if a.moves.is_empty() {
        t.push_str("\nno legal moves: the game is over\n");
    } else {
        t.push_str(&format!(
            "\nmoves for {} ({}, pass rule {}), best first; * best, = keeps the value:\n",
            short_name(side),
            a.moves.len(),
            a.rule.name()
        ));
        for m in &a.moves {
            let mark = if a.is_best(m) {
                '*'
            } else if a.keeps_value(m) {
                '='
            } else {
                ' '
            };
            let piece = piece_column(m.mv);
            t.push_str(&format!(
                "  {mark} {:<5} {:>2}  {:<16} {:>5}  {}\n",
                m.mv.kind(),
                piece,
                m.score.value.to_string(),
                depth_or_unknown(a, m.score),
                m.child
            ));
        }
    }

    // The line of best play.
    if a.line.is_empty() {
        if pos.outcome().is_none() {
            t.push_str("\nbest line: none, no end can be reached\n");
        }
    } else {
        let moves: Vec<String> = a.line.iter().map(Move::to_string).collect();
        let what = if a.depths { "best line" } else { "a line keeping the value" };
        t.push_str(&format!("\n{what} ({}): {}\n", plies(a.line.len()), moves.join(" ")));
        t.push_str(&format!("ends at:   {}\n", a.end));
        match a.end.outcome() {
            Some(outcome) => t.push_str(&format!("game over: {outcome}\n")),
            None => t.push_str("the game is not over there\n"),
        }
    }
    t
}

/// The shared JSON fields.
pub fn to_json(a: &Answer) -> AnswerJson {
    AnswerJson {
        position: a.pos.to_string(),
        side: a.pos.side().name(),
        pass_rule: a.rule.name(),
        over: a.pos.outcome().map(Outcome::name),
        value: a.score.value.code(),
        label: a.score.value.label(),
        depth: depth(a.score, a.depths),
        moves: a.moves.iter().map(|m| MoveJson::scored(&a.pos, m, &a.moves, a.depths)).collect(),
        line: a.line.iter().map(Move::to_string).collect(),
        moves_left_out: a.left_out,
    }
}

/// A depth for people: `-` for no-result, `?` when depths are unknown.
fn depth_or_unknown(a: &Answer, score: Score) -> String {
    if a.depths { depth_text(score) } else { "?".to_string() }
}

/// "1 ply", "2 plies".
fn plies(n: usize) -> String {
    if n == 1 { "1 ply".to_string() } else { format!("{n} plies") }
}

/// A depth for people: `-` for no-result, which has none, `?` when not
/// known.
fn depth_text(score: Score) -> String {
    match (score.value, score.depth()) {
        (Value::NoResult, _) => "-".to_string(),
        (_, Some(depth)) => depth.to_string(),
        (_, None) => "?".to_string(),
    }
}

/// What a value means for `side`, the side to move.
fn meaning(value: Value, side: Side) -> String {
    let (me, other) = (short_name(side), short_name(side.other()));
    match value {
        Value::SelfWin => format!("{me} can force its own win"),
        Value::BothWin => "nobody can force a win; both can win together".to_string(),
        Value::BothLose => {
            "nobody can force a win; both-win is out of reach, both lose".to_string()
        }
        Value::SelfLose => format!("{other} can force its win"),
        Value::NoResult => "nobody can force a win and no end can be reached".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_are_counted_in_words() {
        assert_eq!(plies(1), "1 ply");
        assert_eq!(plies(17), "17 plies");
    }
}
