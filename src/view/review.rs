//! A reviewed game as JSON: `play --analyse --json` and the server's
//! `/api/analyse`, each ply a move of [`crate::view::moves`] with its
//! review group (values are codes, for the side that moved), and the
//! whole-game report ([`chaosclock::report`]).

use chaosclock::report::{Report, SideReport};
use chaosclock::{PassRule, Position, Side};
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
    /// The whole-game report.
    report: ReportJson,
}

/// The whole-game report (docs/serve.md).
#[derive(Debug, Serialize)]
pub struct ReportJson {
    jia: SideJson,
    yi: SideJson,
    /// The move that decided the game, if a move fell.
    decisive: Option<FallJson>,
    /// Every move that fell, in order.
    falls: Vec<FallJson>,
}

/// One side's part of the report.
#[derive(Debug, Serialize)]
pub struct SideJson {
    moves: usize,
    could_fail: usize,
    kept: usize,
    /// Percent, one decimal; `null` when no move could fail.
    accuracy: Option<f64>,
    inaccuracies: usize,
    mistakes: usize,
    blunders: usize,
}

/// A move that fell.
#[derive(Debug, Serialize)]
pub struct FallJson {
    /// Its ply, from 1.
    ply: usize,
    side: &'static str,
    /// The move in the players' notation (走7吃11).
    notation: String,
    fall: &'static str,
}

fn side_json(s: &SideReport) -> SideJson {
    SideJson {
        moves: s.moves,
        could_fail: s.could_fail,
        kept: s.kept,
        accuracy: s.accuracy().map(|a| (a * 10.0).round() / 10.0),
        inaccuracies: s.inaccuracies,
        mistakes: s.mistakes,
        blunders: s.blunders,
    }
}

/// The ply of index `i` of `report`, which fell.
fn fall_json(report: &Report, i: usize) -> FallJson {
    let j = &report.plies[i];
    FallJson {
        ply: i + 1,
        side: j.review.side.name(),
        notation: chaosclock::record::notation(&j.review.before, j.review.mv),
        fall: j.fall.map_or("", |f| f.name()),
    }
}

/// The JSON of the report `report`.
pub fn report_json(report: &Report) -> ReportJson {
    ReportJson {
        jia: side_json(report.side(Side::Jia)),
        yi: side_json(report.side(Side::Yi)),
        decisive: report.decisive.map(|i| fall_json(report, i)),
        falls: (0..report.plies.len())
            .filter(|&i| report.plies[i].fall.is_some())
            .map(|i| fall_json(report, i))
            .collect(),
    }
}

/// The JSON of a reviewed game.
pub fn analyse_json(
    start: &Position,
    report: &Report,
    rule: PassRule,
    source: &'static str,
) -> AnalyseJson {
    let reviews: Vec<_> = report.plies.iter().map(|j| j.review).collect();
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
        report: report_json(report),
    }
}
