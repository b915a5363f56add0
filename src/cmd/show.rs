//! `chaosclock show`: a position drawn as a clock face (or as JSON) with
//! every legal move and the position it leads to.

use anyhow::Result;
use chaosclock::{Diagram, Last, Move, PassRule, Position, Side, hand};
use serde::Serialize;

use crate::cli::high::ShowHigh;
use crate::cmd::{piece_column, print, print_json, short_name};
use crate::view::moves::MoveJson;

/// Both hands in the JSON output.
#[derive(Debug, Serialize)]
struct HandsJson {
    jia: Vec<u8>,
    yi: Vec<u8>,
}

/// The JSON output of `show`.
#[derive(Debug, Serialize)]
struct ShowJson {
    position: String,
    side: &'static str,
    over: Option<&'static str>,
    slots: Vec<u8>,
    fixed: Vec<u8>,
    banned: Option<u8>,
    last: &'static str,
    hands: HandsJson,
    pass_rule: &'static str,
    moves: Vec<MoveJson>,
}

/// One legal move and what it does.
struct Child {
    m: Move,
    next: Position,
    captures: Option<u8>,
}

impl Child {
    fn extra_move(&self, pos: &Position) -> bool {
        self.next.side() == pos.side()
    }

    /// A short note for people: what the move captures, fixes or ends.
    fn note(&self, pos: &Position) -> String {
        let mut notes = Vec::new();
        if let Some(q) = self.captures {
            notes.push(format!("takes {q}"));
        }
        match self.m {
            Move::Walk(p) if p == pos.slots() => notes.push("leaves the board".to_string()),
            Move::Walk(p) if self.next.is_fixed(p) => notes.push("fixed".to_string()),
            _ => {}
        }
        if self.extra_move(pos) {
            notes.push("moves again".to_string());
        }
        if let Some(outcome) = self.next.outcome() {
            notes.push(format!("ends: {outcome}"));
        }
        notes.join(", ")
    }
}

/// Prints the position given in `args` and its legal moves under its pass
/// rule.
///
/// # Errors
/// Stdout cannot be written.
pub fn run(args: &ShowHigh) -> Result<()> {
    let (pos, rule) = (args.pos, args.rule);
    let children: Vec<Child> =
        pos.children(rule).map(|(m, next)| Child { m, next, captures: pos.captured(m) }).collect();
    if args.json {
        print_json(&to_json(&pos, &children, rule))
    } else {
        print(&to_text(&pos, &children, rule))
    }
}

fn to_text(pos: &Position, children: &[Child], rule: PassRule) -> String {
    let mut text = Diagram::new(pos).to_string();
    text.push_str("\n\n");
    if children.is_empty() {
        text.push_str("no legal moves: the game is over");
        return text;
    }
    text.push_str(&format!(
        "legal moves for {} ({}, pass rule {}):",
        short_name(pos.side()),
        children.len(),
        rule.name()
    ));
    for child in children {
        let piece = piece_column(child.m);
        text.push_str(&format!(
            "\n  {:<5} {:>2}  {:<30} {}",
            child.m.kind(),
            piece,
            child.note(pos),
            child.next
        ));
    }
    text
}

fn to_json(pos: &Position, children: &[Child], rule: PassRule) -> ShowJson {
    let last = match pos.last() {
        Last::None => "none",
        Last::Pass => "pass",
        Last::DoublePass => "double-pass",
        Last::Piece(_) => "walk",
    };
    ShowJson {
        position: pos.to_string(),
        side: pos.side().name(),
        over: pos.outcome().map(|o| o.name()),
        slots: pos.board().to_vec(),
        fixed: (1..=pos.slots()).filter(|&p| pos.is_fixed(p)).collect(),
        banned: pos.banned(),
        last,
        hands: HandsJson { jia: hand(pos, Side::Jia), yi: hand(pos, Side::Yi) },
        pass_rule: rule.name(),
        moves: children.iter().map(|c| MoveJson::new(pos, c.m)).collect(),
    }
}
