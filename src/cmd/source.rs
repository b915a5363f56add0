//! Where an answer comes from, and the ways to get one that `query` and
//! `serve` share: the rules (a finished game), the tables, or a solve in
//! memory that stops past a budget of states.
//!
//! `query` chooses among them in one place (`query::find`), with the
//! openings book ([`chaosclock::book`]) for openings no table covers.

use chaosclock::probe::{self, ProbeError};
use chaosclock::score::Score;
use chaosclock::solve::{Solution, SolveError, solve_bounded, terminal_value};
use chaosclock::table::Tablebase;
use chaosclock::{PassRule, Position, Variant};
use indicatif::ProgressBar;

use crate::cmd::answer::Answer;

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

/// The answer for a finished game, as `solve` gives it: the value of the
/// outcome for the side to move, depth 0, no moves, no line; `None` while
/// the game goes on.
pub fn from_rules(pos: &Position, rule: PassRule) -> Option<Answer> {
    let outcome = pos.outcome()?;
    let score = Score::terminal(terminal_value(pos, outcome));
    Some(Answer::new(*pos, rule, score, Vec::new(), Vec::new()))
}

/// The answer for `pos` from `tb`.
///
/// # Errors
/// A file it needs is missing ([`ProbeError::Missing`]) or damaged.
pub fn from_tables(tb: &Tablebase, pos: &Position, rule: PassRule) -> Result<Answer, ProbeError> {
    let a = probe::analyse(tb, pos)?;
    let mut answer = Answer::new(*pos, rule, a.score, a.moves, a.line);
    answer.depths = a.depths;
    Ok(answer)
}

/// Solves `pos` in memory without tables, stopping once more than
/// `budget` states are enumerated; `bar` shows the progress.
///
/// # Errors
/// Over the budget ([`SolveError::TooLarge`]).
pub fn solve(
    pos: &Position,
    rule: PassRule,
    budget: usize,
    bar: Option<&ProgressBar>,
) -> Result<Solution, SolveError> {
    solve_bounded(Variant::new(pos.slots(), rule), &[*pos], None, budget, bar)
}

/// The answer for `pos` from a solution that reached it.
///
/// # Panics
/// If `solution` did not reach `pos`.
pub fn from_solution(solution: &Solution, pos: &Position, rule: PassRule) -> Answer {
    let score = solution.score(pos).expect("a solution holding pos scores it");
    Answer::new(*pos, rule, score, solution.moves(pos), solution.line(pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finished_games_are_answered_by_the_rules() {
        let over: Position = "1,0,3,0;0;0".parse().unwrap();
        let a = from_rules(&over, PassRule::Always).expect("甲 has won");
        assert_eq!(a.score.value, chaosclock::Value::SelfWin);
        assert_eq!(a.score.depth, 0);
        assert!(a.moves.is_empty() && a.line.is_empty());
        let going_on: Position = "1,0,3,0;1;0".parse().unwrap();
        assert!(from_rules(&going_on, PassRule::Always).is_none());
    }
}
