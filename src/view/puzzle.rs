//! The JSON of a puzzle, as `puzzles --json` prints it and `/api/puzzle`
//! answers (docs/json.md, "puzzles").

use chaosclock::Move;
use chaosclock::puzzle::Puzzle;
use serde::Serialize;

/// The JSON of one puzzle.
#[derive(Debug, Serialize)]
pub struct PuzzleJson {
    id: String,
    slots: u8,
    /// The position before the mistake.
    before: String,
    /// The mistake.
    mistake: String,
    /// The puzzle position: the solver to move.
    position: String,
    /// `jia` or `yi`: the solver.
    side: &'static str,
    /// The value the solver keeps (code and label).
    value: u8,
    label: &'static str,
    /// The solution: the solver's only moves and the replies between them.
    moves: Vec<String>,
    /// For each of `moves`, whether it is the solver's.
    solver: Vec<bool>,
    /// For each of `moves`, whether it is a forced move of the solver
    /// (its only legal move: played for the player, not a puzzle move).
    forced: Vec<bool>,
    /// The number of the solver's moves with a choice.
    length: usize,
    rating: u16,
    rating_deviation: u16,
    themes: Vec<&'static str>,
}

impl PuzzleJson {
    /// The JSON of `p`.
    pub fn new(p: &Puzzle) -> PuzzleJson {
        let steps = p.steps();
        PuzzleJson {
            id: p.id.clone(),
            slots: p.start.slots(),
            before: p.before.to_string(),
            mistake: p.mistake.to_string(),
            position: p.start.to_string(),
            side: p.start.side().name(),
            value: p.value.code(),
            label: p.value.label(),
            moves: p.line.iter().map(Move::to_string).collect(),
            solver: steps.iter().map(|(pos, _)| pos.side() == p.start.side()).collect(),
            forced: p.forced(),
            length: p.length(),
            rating: p.rating,
            rating_deviation: p.deviation,
            themes: p.themes.iter().map(|t| t.name()).collect(),
        }
    }
}
