//! What `solve` and `query` both print about a position: its value and
//! depth, every legal move with its score, and a line of best play, as text
//! or as the common part of their JSON.
//!
//! Values and depths are always from the view of the side to move in the
//! position; a move's depth counts the move itself. The best moves are those
//! whose score (value and depth) equals the best one's; a move "keeps the
//! value" if its value equals the best one's, whatever its depth.
//!
//! Answers from tables of values only have no depths: every depth prints
//! as unknown (`null` in JSON), and the best moves are those that keep the
//! value.

use chaosclock::score::Score;
use chaosclock::scored::ScoredMove;
use chaosclock::{Move, Outcome, PassRule, Position, Side, Value};
use serde::Serialize;

use crate::cmd::{piece_column, short_name};

/// A position with its score, its scored moves (best first) and a line of
/// best play, however they were found.
#[derive(Debug)]
pub struct Answer {
    /// The position.
    pub pos: Position,
    /// The pass rule the moves follow.
    pub rule: PassRule,
    /// The position's score.
    pub score: Score,
    /// Every legal move, best first.
    pub moves: Vec<ScoredMove>,
    /// Best play to the end (empty for a finished game or no-result).
    pub line: Vec<Move>,
    /// Where the line ends (the position itself for an empty line).
    pub end: Position,
    /// Whether the depths are known; if not, they are all 0 and unprinted.
    pub depths: bool,
    /// Whether the moves and the line were left out (an opening answered
    /// from the openings book, which holds values only).
    pub left_out: bool,
}

/// One legal move in the JSON output.
#[derive(Debug, Serialize)]
pub struct MoveJson {
    /// The move as written: a piece number or `pass`.
    #[serde(rename = "move")]
    text: String,
    /// `walk`, `place` or `pass`.
    kind: &'static str,
    /// Value code (0..=4) for the mover.
    value: u8,
    label: &'static str,
    /// Plies to the end, this move included; `null` for no-result.
    depth: Option<u16>,
    /// Its score equals the best move's.
    best: bool,
    /// Its value equals the best move's.
    keeps_value: bool,
    /// The position it leads to.
    position: String,
}

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

impl Answer {
    /// An answer; the end of the line is found by playing it.
    pub fn new(
        pos: Position,
        rule: PassRule,
        score: Score,
        moves: Vec<ScoredMove>,
        line: Vec<Move>,
    ) -> Answer {
        let end = line.iter().fold(pos, |p, &m| p.play_unchecked(m));
        Answer { pos, rule, score, moves, line, end, depths: true, left_out: false }
    }

    /// The answer of the openings book for the opening `pos`: its value
    /// only, the depth unknown and the moves left out.
    pub fn from_book(pos: Position, rule: PassRule, value: Value) -> Answer {
        let mut answer = Answer::new(pos, rule, Score { value, depth: 0 }, Vec::new(), Vec::new());
        answer.depths = false;
        answer.left_out = true;
        answer
    }

    /// Whether `m` is a best move: the same score as the first (best) one.
    fn is_best(&self, m: &ScoredMove) -> bool {
        self.moves.first().is_some_and(|b| b.score == m.score)
    }

    /// Whether `m` has the best move's value.
    fn keeps_value(&self, m: &ScoredMove) -> bool {
        self.moves.first().is_some_and(|b| b.score.value == m.score.value)
    }

    /// The text: position, value, depth, the moves and the best line, each
    /// line ending in a newline.
    pub fn to_text(&self) -> String {
        let pos = &self.pos;
        let side = pos.side();
        let mut t = String::new();
        t.push_str(&format!("position: {pos}\n"));
        t.push_str(&format!("to move:  {}\n", side.label()));
        match pos.outcome() {
            Some(outcome) => {
                t.push_str(&format!("value:    {}; game over: {outcome}\n", self.score.value))
            }
            None => t.push_str(&format!(
                "value:    {} ({})\n",
                self.score.value,
                meaning(self.score.value, side)
            )),
        }
        if self.left_out {
            t.push_str("depth:    not in the openings book\n");
            t.push_str(
                "\nmoves:    left out: the openings book holds values only (query without --no-solve solves them)\n",
            );
            return t;
        }
        if !self.depths {
            t.push_str("depth:    not stored (tables of values only)\n");
        } else if self.score.value == Value::NoResult || pos.outcome().is_some() {
            t.push_str(&format!("depth:    {}\n", depth_text(self.score)));
        } else {
            t.push_str(&format!(
                "depth:    {} to the end under best play\n",
                plies(self.score.depth.into())
            ));
        }

        // The moves, best first.
        if self.moves.is_empty() {
            t.push_str("\nno legal moves: the game is over\n");
        } else {
            t.push_str(&format!(
                "\nmoves for {} ({}, pass rule {}), best first; * best, = keeps the value:\n",
                short_name(side),
                self.moves.len(),
                self.rule.name()
            ));
            for m in &self.moves {
                let mark = if self.is_best(m) {
                    '*'
                } else if self.keeps_value(m) {
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
                    self.depth_text(m.score),
                    m.child
                ));
            }
        }

        // The line of best play.
        if self.line.is_empty() {
            if pos.outcome().is_none() {
                t.push_str("\nbest line: none, no end can be reached\n");
            }
        } else {
            let moves: Vec<String> = self.line.iter().map(Move::to_string).collect();
            let what = if self.depths { "best line" } else { "a line keeping the value" };
            t.push_str(&format!("\n{what} ({}): {}\n", plies(self.line.len()), moves.join(" ")));
            t.push_str(&format!("ends at:   {}\n", self.end));
            match self.end.outcome() {
                Some(outcome) => t.push_str(&format!("game over: {outcome}\n")),
                None => t.push_str("the game is not over there\n"),
            }
        }
        t
    }

    /// The shared JSON fields.
    pub fn to_json(&self) -> AnswerJson {
        AnswerJson {
            position: self.pos.to_string(),
            side: self.pos.side().name(),
            pass_rule: self.rule.name(),
            over: self.pos.outcome().map(Outcome::name),
            value: self.score.value.code(),
            label: self.score.value.label(),
            depth: self.depth_json(self.score),
            moves: self
                .moves
                .iter()
                .map(|m| MoveJson {
                    text: m.mv.to_string(),
                    kind: m.mv.kind(),
                    value: m.score.value.code(),
                    label: m.score.value.label(),
                    depth: self.depth_json(m.score),
                    best: self.is_best(m),
                    keeps_value: self.keeps_value(m),
                    position: m.child.to_string(),
                })
                .collect(),
            line: self.line.iter().map(Move::to_string).collect(),
            moves_left_out: self.left_out,
        }
    }
}

impl Answer {
    /// A depth for people: `-` for no-result, `?` when depths are unknown.
    fn depth_text(&self, score: Score) -> String {
        if self.depths { depth_text(score) } else { "?".to_string() }
    }

    /// A depth for JSON: `null` for no-result and when depths are unknown.
    fn depth_json(&self, score: Score) -> Option<u16> {
        depth_json(score).filter(|_| self.depths)
    }
}

/// "1 ply", "2 plies".
fn plies(n: usize) -> String {
    if n == 1 { "1 ply".to_string() } else { format!("{n} plies") }
}

/// A depth for people: `-` for no-result, which has none.
fn depth_text(score: Score) -> String {
    match score.value {
        Value::NoResult => "-".to_string(),
        _ => score.depth.to_string(),
    }
}

/// A depth for JSON: `null` for no-result.
fn depth_json(score: Score) -> Option<u16> {
    (score.value != Value::NoResult).then_some(score.depth)
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
