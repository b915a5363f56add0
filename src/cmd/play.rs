//! `chaosclock play`: plays a list of moves from a position and prints every
//! position on the way (the start included), or stops at the first illegal
//! move with an error naming its number, its text and the rule it breaks.

use anyhow::{Context, Result, anyhow};
use chaosclock::{IllegalMove, Move, MoveText, PassRule, Position, Side, escape_control};
use serde::Serialize;

use crate::cli::PlayArgs;
use crate::cmd::{captured, load_position, print, print_json, short_name};

/// One ply that was played.
struct Ply {
    side: Side,
    m: Move,
    captures: Option<u8>,
    next: Position,
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
    if args.json {
        print_json(&to_json(&start, &plies, rule))
    } else {
        print(&to_text(&start, &plies))
    }
}

/// Plays every move, checking each.
fn play_all(start: Position, moves: &[String], rule: PassRule) -> Result<Vec<Ply>> {
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
