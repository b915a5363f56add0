//! A reviewed game as JSON: `play --analyse --json` and the server's
//! `/api/analyse`, each ply a move of [`crate::view::moves`] with its
//! review group (values are codes, for the side that moved).

use chaosclock::review::PlyReview;
use chaosclock::{PassRule, Position};
use serde::Serialize;

use crate::view::moves::MoveJson;

/// `play --analyse --json` and `/api/analyse`.
#[derive(Debug, Serialize)]
pub struct AnalyseJson {
    /// The start.
    position: String,
    pass_rule: &'static str,
    /// Where the values come from: `solve` or `tables`.
    source: &'static str,
    plies: Vec<MoveJson>,
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
    let end = reviews.last().map_or(*start, |r| {
        r.before.play(r.mv, rule).expect("a reviewed move was played under the rule")
    });
    AnalyseJson {
        position: start.to_string(),
        pass_rule: rule.name(),
        source,
        plies: reviews.iter().map(MoveJson::reviewed).collect(),
        end: end.to_string(),
        over: end.outcome().map(|o| o.name()),
        mistakes: reviews.iter().filter(|r| r.mistake).count(),
    }
}
