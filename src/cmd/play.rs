//! `chaosclock play`: plays a list of moves from a position and prints every
//! position on the way (the start included), or stops at the first illegal
//! move with an error naming its number, its text and the rule it breaks.
//!
//! `--analyse` solves the start and marks each move with the value it keeps
//! for its mover, the best value it had ([`chaosclock::review`]): the only
//! move that keeps the best value, or a mistake. The server's
//! `/api/analyse` answers with the same JSON ([`AnalyseJson`]).

use anyhow::{Context, Result, anyhow};
use chaosclock::review::{PlyReview, review_ply};
use chaosclock::scored::ScoredMove;
use chaosclock::solve::solve;
use chaosclock::{IllegalMove, Move, MoveText, PassRule, Position, Side, escape_control};
use serde::Serialize;

use crate::cli::PlayArgs;
use crate::cmd::{captured, load_position, print, print_json, short_name};

/// One ply that was played.
#[derive(Debug, Clone, Copy)]
pub struct Ply {
    /// Who played it.
    pub side: Side,
    /// The move.
    pub m: Move,
    /// The piece it captured.
    pub captures: Option<u8>,
    /// The position after it.
    pub next: Position,
}

/// One played move in the JSON output.
#[derive(Debug, Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    text: String,
    kind: &'static str,
    side: &'static str,
    captures: Option<u8>,
}

/// The JSON output of `play`.
#[derive(Debug, Serialize)]
struct PlayJson {
    /// The start and the position after each move.
    positions: Vec<String>,
    over: Option<&'static str>,
    /// The side to move at the end.
    side: &'static str,
    /// The pass rule the moves were checked under.
    pass_rule: &'static str,
    moves: Vec<MoveJson>,
}

/// Plays `args.moves` from the position given in `args` under `rule`.
///
/// # Errors
/// The position cannot be read, a move is malformed or illegal (nothing is
/// printed then), or stdout cannot be written.
pub fn run(args: &PlayArgs, rule: PassRule) -> Result<()> {
    let start = load_position(&args.position)?;
    let plies = play_all(start, &args.moves, rule)?;
    if args.analyse {
        let solution = solve(&start, rule, None);
        let reviews = review_all(&start, &plies, |pos| Ok(solution.moves(pos)))?;
        return if args.json {
            print_json(&analyse_json(&start, &reviews, rule, "solve"))
        } else {
            print(&analyse_text(&start, &plies, &reviews))
        };
    }
    if args.json {
        print_json(&to_json(&start, &plies, rule))
    } else {
        print(&to_text(&start, &plies))
    }
}

/// Plays every move, checking each.
///
/// # Errors
/// A move is malformed or illegal: the message names its number, its text,
/// the position and the rule it breaks.
pub fn play_all(start: Position, moves: &[String], rule: PassRule) -> Result<Vec<Ply>> {
    let mut pos = start;
    let mut plies = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let number = i + 1;
        let written: MoveText = text.parse().with_context(|| format!("move {number}"))?;
        let m = pos.parse_move(written, rule).map_err(|e| {
            let reason = match (e, pos.outcome()) {
                (IllegalMove::GameOver, Some(outcome)) => format!("the game is over, {outcome}"),
                (e, _) => e.to_string(),
            };
            anyhow!("move {number} '{}' is illegal in {pos}: {reason}", escape_control(text.trim()))
        })?;
        let next = pos.play_unchecked(m);
        plies.push(Ply { side: pos.side(), m, captures: captured(&pos, m), next });
        pos = next;
    }
    Ok(plies)
}

/// The status after the last position: how the game ended, or who moves.
fn status(pos: &Position) -> String {
    match pos.outcome() {
        Some(outcome) => format!("game over: {outcome}"),
        None => format!("{} to move", pos.side().label()),
    }
}

fn to_text(start: &Position, plies: &[Ply]) -> String {
    let mut text = format!("{:>3}  {:<24} {}", 0, "start", start);
    for (i, ply) in plies.iter().enumerate() {
        let mut what = match ply.m {
            Move::Pass => format!("{} pass", short_name(ply.side)),
            m => format!("{} {} {m}", short_name(ply.side), m.kind()),
        };
        if let Some(q) = ply.captures {
            what.push_str(&format!(" takes {q}"));
        }
        if ply.next.side() == ply.side {
            what.push_str(", again");
        }
        // The side name is one wide character: pad one column less.
        text.push_str(&format!("\n{:>3}  {:<23} {}", i + 1, what, ply.next));
    }
    let last = plies.last().map_or(start, |p| &p.next);
    text.push('\n');
    text.push_str(&status(last));
    text
}

/// Reviews every ply of a game from `start`, with `moves` scoring the legal
/// moves of each position before a ply.
///
/// # Errors
/// What `moves` returns.
pub fn review_all(
    start: &Position,
    plies: &[Ply],
    mut moves: impl FnMut(&Position) -> Result<Vec<ScoredMove>>,
) -> Result<Vec<PlyReview>> {
    let mut before = *start;
    let mut out = Vec::with_capacity(plies.len());
    for ply in plies {
        let scored = moves(&before)?;
        let r = review_ply(&before, ply.m, &scored)
            .ok_or_else(|| anyhow!("move {} has no score in {before}", ply.m))?;
        out.push(r);
        before = ply.next;
    }
    Ok(out)
}

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

/// The text of `play --analyse`: each ply as `play` prints it, then the
/// value the move keeps for its mover, and `only move` or `mistake`.
fn analyse_text(start: &Position, plies: &[Ply], reviews: &[PlyReview]) -> String {
    let plain = to_text(start, plies);
    // Every ply line has one wide character (the side), so counting
    // characters aligns the marks.
    let width = plain.lines().skip(1).take(plies.len()).map(|l| l.chars().count()).max();
    let width = width.unwrap_or(0);
    let mut lines = plain.lines();
    let mut text = lines.next().unwrap_or_default().to_string();
    // Reviews first: zip stops on them without taking the line after the
    // last ply (the end of the game) from `lines`.
    for (r, line) in reviews.iter().zip(lines.by_ref()) {
        let mut mark = format!("{} {}", r.played.chinese(), r.played.label());
        if r.only {
            mark.push_str(", only move");
        }
        if r.mistake {
            mark.push_str(&format!(", mistake (best {} {})", r.best.chinese(), r.best.label()));
        }
        text.push_str(&format!("\n{line:<width$}  {mark}"));
    }
    for line in lines {
        text.push('\n');
        text.push_str(line);
    }
    let mistakes = reviews.iter().filter(|r| r.mistake).count();
    text.push_str(&format!("\nmistakes: {mistakes}"));
    text
}

fn to_json(start: &Position, plies: &[Ply], rule: PassRule) -> PlayJson {
    let last = plies.last().map_or(start, |p| &p.next);
    PlayJson {
        positions: std::iter::once(start)
            .chain(plies.iter().map(|p| &p.next))
            .map(|p| p.to_string())
            .collect(),
        over: last.outcome().map(|o| o.name()),
        side: last.side().name(),
        pass_rule: rule.name(),
        moves: plies
            .iter()
            .map(|p| MoveJson {
                text: p.m.to_string(),
                kind: p.m.kind(),
                side: p.side.name(),
                captures: p.captures,
            })
            .collect(),
    }
}
