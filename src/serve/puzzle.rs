//! The puzzles and the engines of every level on the API (docs/json.md):
//! `/api/puzzle` serves a puzzle of the sets built into the binary, and
//! `/api/engine-move` the move an engine of a level plays in a position,
//! from the tables or a (kept or new) solve, as `/api/position`.

use std::sync::Arc;

use axum::Json;
use axum::extract::{RawQuery, State};
use chaosclock::engine::{Engine, Level};
use chaosclock::puzzle::{Theme, embedded, pick};
use chaosclock::{Position, escape_control};
use serde::Serialize;

use crate::serve::api::AppState;
use crate::serve::error_code::{PuzzleError, position_text_code};
use crate::serve::errors::ServeError;
use crate::serve::query::Query;
use crate::view::puzzle::PuzzleJson;

/// A whole number parameter `key` of `q`, if given.
fn number<T: std::str::FromStr>(q: &Query, key: &'static str) -> Result<Option<T>, ServeError> {
    q.get(key)
        .map(|text| text.parse::<T>().map_err(|_| PuzzleError::Number(key, shown(text)).into()))
        .transpose()
}

/// Request text as an error quotes it: control characters escaped, at
/// most 60 characters.
fn shown(text: &str) -> String {
    escape_control(&text.chars().take(60).collect::<String>()).into_owned()
}

/// A seed from the clock.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(1, |d| d.as_nanos() as u64)
}

/// `GET /api/puzzle?slots=N[&theme=T][&rating=R][&seed=S]`, or
/// `&id=ID`: a puzzle of the built-in set of N slots (8, 10 or 12); an id
/// without `slots` is looked up in every set.
pub async fn puzzle_handler(RawQuery(raw): RawQuery) -> Result<Json<PuzzleJson>, ServeError> {
    let q = Query::parse(raw.as_deref().unwrap_or(""), &["slots", "theme", "rating", "seed", "id"])
        .map_err(ServeError::bad)?;
    let asked: Option<u8> = number(&q, "slots")?;
    if let Some(n) = asked.filter(|n| !matches!(n, 8 | 10 | 12)) {
        return Err(PuzzleError::Slots(n.to_string()).into());
    }
    // An id alone is looked up in every set (the board's links name only
    // the id): its board size is part of what the id hashes.
    if let (None, Some(id)) = (asked, q.get("id")) {
        for n in [8, 10, 12] {
            let set = embedded(n).map_err(|e| ServeError::Internal(e.to_string()))?;
            if let Some(p) = set.iter().find(|p| p.id == id) {
                return Ok(Json(PuzzleJson::new(p)));
            }
        }
        return Err(PuzzleError::Id(shown(id)).into());
    }
    let slots = asked.unwrap_or(12);
    let theme = q.get("theme").map(str::parse::<Theme>).transpose();
    let theme = theme.map_err(|_| PuzzleError::Theme(shown(q.get("theme").unwrap_or(""))))?;
    let rating: Option<u16> = number(&q, "rating")?;
    let seed = number(&q, "seed")?.unwrap_or_else(clock_seed);
    let set = embedded(slots).map_err(|e| ServeError::Internal(e.to_string()))?;
    let found = match q.get("id") {
        Some(id) => set.iter().find(|p| p.id == id),
        None => pick(set, theme, rating, seed),
    };
    match found {
        Some(p) => Ok(Json(PuzzleJson::new(p))),
        None => Err(match q.get("id") {
            Some(id) => PuzzleError::Id(shown(id)),
            None => PuzzleError::NoneFound(slots, theme.map_or(String::new(), |t| t.name().into())),
        }
        .into()),
    }
}

/// `/api/engine-move`.
#[derive(Debug, Serialize)]
pub struct EngineMoveJson {
    level: u8,
    seed: u64,
    /// The move, `null` when the game is over.
    #[serde(rename = "move")]
    mv: Option<String>,
    /// The position after it, `null` when the game is over.
    position: Option<String>,
}

/// `GET /api/engine-move?pos=POS&level=K[&seed=S]`: the move an engine of
/// level K (1 to 8, docs/levels.md) plays in POS.
pub async fn engine_move_handler(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> Result<Json<EngineMoveJson>, ServeError> {
    let q = Query::parse(raw.as_deref().unwrap_or(""), &["pos", "level", "seed"])
        .map_err(ServeError::bad)?;
    let text = q.require("pos").map_err(ServeError::bad)?;
    let pos: Position = text.parse().map_err(|e| {
        let shown = escape_control(text.trim());
        ServeError::coded(format!("position '{shown}': {e}"), position_text_code(&shown, &e))
    })?;
    let level = q.get("level").unwrap_or("");
    let k = level.parse::<u8>().ok().filter(|&k| Level::new(k).is_some());
    let k = k.ok_or_else(|| PuzzleError::Level(shown(level)))?;
    let level = Level::new(k).expect("a level from 1 to 8");
    let seed = number(&q, "seed")?.unwrap_or_else(clock_seed);
    let rule = state.rule;
    let none = EngineMoveJson { level: k, seed, mv: None, position: None };
    if pos.outcome().is_some() {
        return Ok(Json(none));
    }
    let engine = Arc::clone(&state.engine);
    let from_tables = tokio::task::spawn_blocking(move || engine.table_moves(&pos, rule))
        .await
        .map_err(|e| ServeError::Internal(format!("a request stopped: {e}")))??;
    let moves = match from_tables {
        // Tables of values only give no depths, through which levels 1 to
        // 7 see values (docs/levels.md): a small solve gives them if it can.
        Some(m) if k < 8 && m.iter().any(|m| !m.score.has_depth()) => {
            let engine = Arc::clone(&state.engine);
            tokio::task::spawn_blocking(move || engine.depth_moves(&pos, rule).unwrap_or(m))
                .await
                .map_err(|e| ServeError::Internal(format!("a request stopped: {e}")))?
        }
        Some(m) => m,
        None => {
            let solved = state.engine.solved(&pos, rule).await?;
            tokio::task::spawn_blocking(move || solved.solution().moves(&pos))
                .await
                .map_err(|e| ServeError::Internal(format!("a request stopped: {e}")))?
                .map_err(|e| ServeError::Internal(e.to_string()))?
        }
    };
    let chosen = Engine::new(level, seed).choose(&pos, &moves);
    let after = chosen.map(|mv| pos.play(mv, rule)).transpose();
    let after = after.map_err(|e| ServeError::Internal(format!("{pos}: {e}")))?;
    Ok(Json(match (chosen, after) {
        (Some(mv), Some(after)) => {
            EngineMoveJson { mv: Some(mv.to_string()), position: Some(after.to_string()), ..none }
        }
        _ => none,
    }))
}
