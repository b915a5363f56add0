//! The answer for a position, wherever it comes from: its score, every
//! legal move with its score (best first), a line of best play, and its
//! [`Source`]. The rules ([`Answer::from_rules`]), the tables
//! ([`Answer::from_tables`]), a solution in memory
//! ([`Answer::from_solution`]) and the openings book
//! ([`Answer::from_book`]) each give one; programs render it (the
//! `chaosclock` binary as text and as JSON).
//!
//! Values and depths are always from the view of the side to move in the
//! position; a move's depth counts the move itself. The best moves are those
//! whose score (value and depth) equals the best one's; a move "keeps the
//! value" if its value equals the best one's, whatever its depth.
//!
//! Answers from tables of values only have no depths (`depths` is false and
//! [`Score::depth`] is `None`), and their best moves are those that keep
//! the value.

use crate::book::{Book, NoValue};
use crate::moves::{Move, PassRule};
use crate::position::Position;
use crate::probe::{self, ProbeError};
use crate::score::Score;
use crate::scored::ScoredMove;
use crate::solve::{Solution, SolveError, terminal_value};
use crate::value::Value;

/// Where an answer came from (`source` in JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The game is over: the rules give the value, nothing is read.
    Rules,
    /// The tables.
    Tables,
    /// A solve in memory.
    Solve,
    /// The openings book: the value of an opening, nothing else.
    Book,
}

impl Source {
    /// The name in JSON: `rules`, `tables`, `solve` or `book`.
    pub fn name(self) -> &'static str {
        match self {
            Source::Rules => "rules",
            Source::Tables => "tables",
            Source::Solve => "solve",
            Source::Book => "book",
        }
    }
}

/// A position with its score, its scored moves (best first) and a line of
/// best play, and where they come from.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Answer {
    /// The position.
    pub pos: Position,
    /// The pass rule the moves follow.
    pub rule: PassRule,
    /// The position's score.
    pub score: Score,
    /// Every legal move, best first.
    pub moves: Vec<ScoredMove>,
    /// Best play to the end (empty for a finished game or no-result); from
    /// tables of values only, a line that keeps the value.
    pub line: Vec<Move>,
    /// Where the line ends (the position itself for an empty line).
    pub end: Position,
    /// Whether the depths are known; if not, every [`Score::depth`] but
    /// those of finished games is `None`.
    pub depths: bool,
    /// Whether the moves and the line were left out (an opening answered
    /// from the openings book, which holds values only).
    pub left_out: bool,
    /// Where it comes from.
    pub source: Source,
}

impl Answer {
    /// An answer from `source`; the end of the line is found by playing it
    /// (`line` must be of legal moves).
    pub(crate) fn new(
        pos: Position,
        rule: PassRule,
        score: Score,
        moves: Vec<ScoredMove>,
        line: Vec<Move>,
        source: Source,
    ) -> Answer {
        let end = line.iter().fold(pos, |p, &m| p.play_unchecked(m));
        Answer { pos, rule, score, moves, line, end, depths: true, left_out: false, source }
    }

    /// The answer for a finished game, as a solve gives it: the value of
    /// the outcome for the side to move, depth 0, no moves, no line; `None`
    /// while the game goes on.
    pub fn from_rules(pos: &Position, rule: PassRule) -> Option<Answer> {
        let outcome = pos.outcome()?;
        let score = Score::terminal(terminal_value(pos, outcome));
        Some(Answer::new(*pos, rule, score, Vec::new(), Vec::new(), Source::Rules))
    }

    /// The answer for `pos` under `rule` from the tables `tb`.
    ///
    /// # Errors
    /// A file it needs is missing ([`ProbeError::Missing`]) or damaged;
    /// tables of another size or rule than `pos` and `rule`
    /// ([`crate::table::TableError::OtherSize`],
    /// [`crate::table::TableError::OtherRule`]).
    pub fn from_tables(
        tb: &crate::table::Tablebase,
        pos: &Position,
        rule: PassRule,
    ) -> Result<Answer, ProbeError> {
        tb.check_rule(rule)?;
        let a = probe::analyse(tb, pos)?;
        let mut answer = Answer::new(*pos, rule, a.score, a.moves, a.line, Source::Tables);
        answer.depths = a.depths;
        Ok(answer)
    }

    /// The answer for `pos` under `rule` from a solution that reached it.
    ///
    /// # Errors
    /// [`SolveError::OtherRule`]: `solution` was solved under another rule
    /// than `rule`; [`SolveError::OtherSize`]: `pos` has another size than
    /// the solution's; [`SolveError::NotReached`]: `solution` did not
    /// reach `pos`.
    pub fn from_solution(
        solution: &Solution,
        pos: &Position,
        rule: PassRule,
    ) -> Result<Answer, SolveError> {
        let variant = solution.variant();
        if variant.rule() != rule {
            return Err(SolveError::OtherRule { solved: variant.rule(), asked: rule });
        }
        if variant.slots() != pos.slots() {
            return Err(SolveError::OtherSize { slots: variant.slots(), root: *pos });
        }
        let not_reached = |_| SolveError::NotReached { pos: *pos };
        let score = solution.score(pos).ok_or(SolveError::NotReached { pos: *pos })?;
        let moves = solution.moves(pos).map_err(not_reached)?;
        let line = solution.line(pos).map_err(not_reached)?;
        let mut answer = Answer::new(*pos, rule, score, moves, line, Source::Solve);
        answer.depths = solution.depths_known();
        Ok(answer)
    }

    /// The answer of the openings book for the opening `pos` under
    /// `rule`: its value only, the depth unknown and the moves left out.
    ///
    /// # Errors
    /// Why the book has no value for `pos` ([`Book::value`]).
    pub fn from_book(book: &Book, pos: &Position, rule: PassRule) -> Result<Answer, NoValue> {
        Ok(Answer::book_value(*pos, rule, book.value(pos, rule)?))
    }

    /// The answer of the openings book for the opening `pos`, whose value
    /// the book gives as `value`.
    pub(crate) fn book_value(pos: Position, rule: PassRule, value: Value) -> Answer {
        let score = Score::value_only(value);
        let mut answer = Answer::new(pos, rule, score, Vec::new(), Vec::new(), Source::Book);
        answer.depths = false;
        answer.left_out = true;
        answer
    }

    /// Whether `m` is a best move: the same score as the first (best) one.
    pub fn is_best(&self, m: &ScoredMove) -> bool {
        self.moves.first().is_some_and(|b| b.score == m.score)
    }

    /// Whether `m` has the best move's value.
    pub fn keeps_value(&self, m: &ScoredMove) -> bool {
        self.moves.first().is_some_and(|b| b.score.value == m.score.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finished_games_are_answered_by_the_rules() {
        let over: Position = "1,0,3,0;0;0".parse().unwrap();
        let a = Answer::from_rules(&over, PassRule::Always).expect("甲 has won");
        assert_eq!((a.score.value, a.source), (Value::SelfWin, Source::Rules));
        assert!(a.moves.is_empty() && a.line.is_empty());
        let going: Position = "2,1,4,3".parse().unwrap();
        assert!(Answer::from_rules(&going, PassRule::Always).is_none());
    }

    /// A solution answers only under its own rule and size (issue 67: an
    /// `Always` solution read under `WhenStuck` gave the `Always` moves,
    /// pass included, as self-win in 12; the `WhenStuck` answer is
    /// self-win in 9).
    #[test]
    fn a_solution_answers_under_its_own_rule_only() {
        let pos: Position = "2,1,4,3,6,5".parse().unwrap();
        let always = crate::solve::solve(&pos, PassRule::Always, None);
        let e = Answer::from_solution(&always, &pos, PassRule::WhenStuck).unwrap_err();
        assert!(matches!(e, SolveError::OtherRule { .. }), "{e}");
        let a = Answer::from_solution(&always, &pos, PassRule::Always).unwrap();
        assert_eq!((a.score.value, a.score.depth()), (Value::SelfWin, Some(12)));
        let stuck = crate::solve::solve(&pos, PassRule::WhenStuck, None);
        let a = Answer::from_solution(&stuck, &pos, PassRule::WhenStuck).unwrap();
        assert_eq!((a.score.value, a.score.depth()), (Value::SelfWin, Some(9)));
        let four: Position = "2,1,4,3".parse().unwrap();
        let e = Answer::from_solution(&stuck, &four, PassRule::WhenStuck).unwrap_err();
        assert!(matches!(e, SolveError::OtherSize { .. }), "{e}");
    }

    /// The book's answer says why it has none.
    #[test]
    fn the_book_answers_openings_only() {
        let Ok(book) = Book::embedded() else { return };
        let opening: Position = "2,1,4,3,6,5".parse().unwrap();
        let a = Answer::from_book(book, &opening, PassRule::Always).unwrap();
        assert_eq!((a.score.value, a.source, a.left_out), (Value::SelfWin, Source::Book, true));
        // Its depth is unknown, not 0 (issue 67: "共赢 in 0").
        assert_eq!((a.score.depth(), a.depths), (None, false));
        assert_eq!(a.score.to_string(), Value::SelfWin.to_string());
        let later: Position = "2,1,4,3,6,5;0;0".parse().unwrap();
        let e = Answer::from_book(book, &later, PassRule::Always).unwrap_err();
        assert_eq!(e, NoValue::NotOpening);
    }
}
