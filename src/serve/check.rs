//! `GET /api/check?pos=POS`: whether POS is a position, and its facts,
//! without asking the tables or the solver (the board editor checks every
//! edit with it: a 12-slot position can take tens of seconds and
//! gigabytes to solve). POS is read by the library's one reader, so a bad
//! one gets the CLI's message as a 400, as `/api/position` says it.

use axum::Json;
use axum::extract::RawQuery;
use chaosclock::{Last, Position, PositionText, Side, read_position};
use serde::Serialize;

use crate::serve::errors::ServeError;
use crate::serve::query::Query;

/// The answer: the position written as the server writes positions, and
/// what a board editor shows about it.
#[derive(Debug, Serialize)]
pub struct CheckJson {
    /// The position, normalized (all three parts; a last piece that
    /// restricts nothing reads as 0).
    position: String,
    /// The number of slots.
    slots: u8,
    /// The side to move, `jia` or `yi`.
    side: &'static str,
    /// The piece that may not walk now, if any.
    banned: Option<u8>,
    /// Whether the previous ply was a pass (`-1`) or two (`-2`).
    passes: u8,
    /// How the game has ended, or `None` while it goes on.
    over: Option<&'static str>,
    /// The pieces in 甲's hand (odd) and in 乙's hand (even).
    hand_jia: Vec<u8>,
    /// The pieces in 乙's hand.
    hand_yi: Vec<u8>,
    /// Whether it is an opening (every piece on the board, none fixed).
    opening: bool,
}

/// The facts of `pos`.
pub fn check_json(pos: &Position) -> CheckJson {
    let hand = |side: Side| -> Vec<u8> {
        let mask = pos.hand_mask(side);
        (1..=pos.slots()).filter(|&p| mask & (1 << p) != 0).collect()
    };
    CheckJson {
        position: pos.to_string(),
        slots: pos.slots(),
        side: pos.side().name(),
        banned: pos.banned(),
        passes: match pos.last() {
            Last::Pass => 1,
            Last::DoublePass => 2,
            _ => 0,
        },
        over: pos.outcome().map(|o| o.name()),
        hand_jia: hand(Side::Jia),
        hand_yi: hand(Side::Yi),
        opening: pos.is_opening(),
    }
}

/// `GET /api/check?pos=POS`: the facts of POS, or a 400 naming what is
/// wrong with it.
pub async fn check_handler(RawQuery(raw): RawQuery) -> Result<Json<CheckJson>, ServeError> {
    let q = Query::parse(raw.as_deref().unwrap_or(""), &["pos"]).map_err(ServeError::bad)?;
    let text = q.get("pos").ok_or_else(|| ServeError::bad("missing parameter 'pos'"))?;
    let pos = read_position(PositionText::Notation(text)).map_err(|e| ServeError::input(&e, &e))?;
    Ok(Json(check_json(&pos)))
}
