//! A reviewed game as JSON: `play --analyse --json` and the server's
//! `/api/analyse` (values are codes, for the side that moved).

use chaosclock::review::PlyReview;
use chaosclock::{PassRule, Position};
use serde::Serialize;

/// One reviewed ply in JSON (values are codes, for the mover).
#[derive(Debug, Serialize)]
pub struct ReviewJson {
    #[serde(rename = "move")]
    text: String,
    side: &'static str,
    /// The position before the move.
    position: String,
    value: u8,
    played: u8,
    best: u8,
    only: bool,
    mistake: bool,
}

/// `play --analyse --json` and `/api/analyse`.
#[derive(Debug, Serialize)]
pub struct AnalyseJson {
    /// The start.
    position: String,
    pass_rule: &'static str,
    /// Where the values come from: `solve` or `tables`.
    source: &'static str,
    plies: Vec<ReviewJson>,
    /// The position after the last move.
    end: String,
    over: Option<&'static str>,
    /// Plies marked as mistakes.
    mistakes: usize,
}

/// The JSON of a reviewed game.
pub fn analyse_json(
    start: &Position,
    reviews: &[PlyReview],
    rule: PassRule,
    source: &'static str,
) -> AnalyseJson {
    let end = reviews.last().map_or(*start, |r| r.before.play_unchecked(r.mv));
    AnalyseJson {
        position: start.to_string(),
        pass_rule: rule.name(),
        source,
        plies: reviews
            .iter()
            .map(|r| ReviewJson {
                text: r.mv.to_string(),
                side: r.side.name(),
                position: r.before.to_string(),
                value: r.value.code(),
                played: r.played.code(),
                best: r.best.code(),
                only: r.only,
                mistake: r.mistake,
            })
            .collect(),
        end: end.to_string(),
        over: end.outcome().map(|o| o.name()),
        mistakes: reviews.iter().filter(|r| r.mistake).count(),
    }
}
