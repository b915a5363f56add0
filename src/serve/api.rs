//! The JSON API: one handler per endpoint. Each parses its query string
//! into typed values (with the CLI's messages for bad input), asks the
//! [`Engine`] off the async threads, and serializes a typed answer.
//!
//! Errors are [`ServeError`]s (`errors.rs` gives each its status and its
//! `{"error": "..."}` body): bad input, an unknown path, a busy solver, a
//! position over the budget, no fair start, a damaged table.

use std::sync::Arc;

use axum::Json;
use axum::extract::{RawQuery, State};
use axum::http::Uri;
use chaosclock::answer::{Answer, Source};
use chaosclock::book::Book;
use chaosclock::draw::Draw;
use chaosclock::policy::AnswerError;
use chaosclock::report::report_all;
use chaosclock::review::play_all;
use chaosclock::scored::ScoredMove;
use chaosclock::{
    InputError, PassRule, Position, PositionText, Value, escape_control, read_position,
};
use serde::Serialize;

use crate::cli::Slots;
use crate::serve::errors::ServeError;
use crate::serve::query::Query;
use crate::serve::state::{Engine, Known, Solved};
use crate::view::answer::{AnswerJson, to_json};
use crate::view::moves::{MoveJson, depth};
use crate::view::review::{AnalyseJson, analyse_json};

/// What every handler shares.
#[derive(Debug, Clone)]
pub struct AppState {
    /// The answering engine.
    pub engine: Arc<Engine>,
    /// The pass rule when a request gives none (`--pass-rule`).
    pub rule: PassRule,
}

/// A handler's result.
type ApiResult<T> = Result<Json<T>, ServeError>;

/// Reads `pos` as the CLI reads POS, or `cfg`, the text (never a path) of
/// a `chaosclock.cfg`, where allowed: both through the library's one
/// reader ([`read_position`]), so the messages are the CLI's.
fn position(q: &Query) -> Result<Position, ServeError> {
    let text = match (q.get("pos"), q.get("cfg")) {
        (Some(text), None) => PositionText::Notation(text),
        (None, Some(text)) => PositionText::Cfg(text),
        (Some(_), Some(_)) => return Err(ServeError::bad("give either pos or cfg, not both")),
        (None, None) => return Err(ServeError::bad("missing parameter 'pos'")),
    };
    read_position(text).map_err(|e| match &e {
        InputError::Cfg(_) => {
            ServeError::input(&e, format!("cfg text: {:#}", anyhow::Error::new(e.clone())))
        }
        _ => ServeError::input(&e, &e),
    })
}

/// Reads `rule`, else the server's default.
fn rule(q: &Query, default: PassRule) -> Result<PassRule, ServeError> {
    q.get("rule").map_or(Ok(default), |name| name.parse().map_err(ServeError::bad))
}

/// Parses the query string `raw` for an endpoint taking `known` keys.
fn query(raw: Option<String>, known: &[&str]) -> Result<Query, ServeError> {
    Query::parse(raw.as_deref().unwrap_or(""), known).map_err(ServeError::bad)
}

/// How the positions of a question are scored: the rules (a finished
/// game, which has no moves), the tables, or a solution holding them all.
enum Scorer {
    Rules,
    Tables,
    Solve(Arc<Solved>),
}

impl Scorer {
    fn source(&self) -> &'static str {
        match self {
            Scorer::Rules => Source::Rules.name(),
            Scorer::Tables => Source::Tables.name(),
            Scorer::Solve(_) => Source::Solve.name(),
        }
    }
}

/// Runs a blocking `f` off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ServeError> + Send + 'static,
) -> Result<T, ServeError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ServeError::Internal(format!("a request stopped: {e}")))?
}

/// The answer for `pos` with its scorer, as the library's answering
/// policy orders the sources: the tables when they cover it, else a (kept
/// or new) solve, which must agree with the openings book's value.
async fn answer(
    state: &AppState,
    pos: Position,
    rule: PassRule,
) -> Result<(Answer, Scorer), ServeError> {
    let engine = Arc::clone(&state.engine);
    let book = match blocking(move || engine.known(&pos, rule)).await? {
        Known::Rules(a) => return Ok((a, Scorer::Rules)),
        Known::Tables(a) => return Ok((a, Scorer::Tables)),
        Known::Book(value) => Some(value),
        Known::Nothing => None,
    };
    let solved = state.engine.solved(&pos, rule).await?;
    let s = Arc::clone(&solved);
    let answer = blocking(move || {
        Answer::from_solution(s.solution(), &pos, rule)
            .map_err(|e| ServeError::Internal(e.to_string()))
    })
    .await?;
    if let Some(book) = book.filter(|&v| v != answer.score.value) {
        let solved = answer.score.value;
        return Err(ServeError::Internal(
            AnswerError::BookDisagrees { pos, book, solved }.to_string(),
        ));
    }
    Ok((answer, Scorer::Solve(solved)))
}

/// The scored moves of each of `positions` from `scorer` (blocking).
async fn moves_of(
    state: &AppState,
    scorer: &Scorer,
    positions: Vec<Position>,
    rule: PassRule,
) -> Result<Vec<Vec<ScoredMove>>, ServeError> {
    let engine = Arc::clone(&state.engine);
    let solved = match scorer {
        Scorer::Rules | Scorer::Tables => None,
        Scorer::Solve(s) => Some(Arc::clone(s)),
    };
    blocking(move || {
        positions
            .iter()
            .map(|p| match &solved {
                Some(s) => s.solution().moves(p).map_err(|e| ServeError::Internal(e.to_string())),
                // A finished game has no moves, whatever scores it.
                None if p.outcome().is_some() => Ok(Vec::new()),
                None => engine.table_moves(p, rule)?.ok_or_else(|| {
                    ServeError::Internal(format!("the tables cover the start but not {p}"))
                }),
            })
            .collect()
    })
    .await
}

/// `/api/position`: the fields of `query --json`, and `source`.
#[derive(Debug, Serialize)]
pub struct PositionJson {
    #[serde(flatten)]
    answer: AnswerJson,
    source: &'static str,
}

/// `GET /api/position?pos=POS[&rule=RULE]`, or `cfg=TEXT` instead of `pos`.
pub async fn position_handler(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> ApiResult<PositionJson> {
    let q = query(raw, &["pos", "cfg", "rule"])?;
    let (pos, rule) = (position(&q)?, rule(&q, state.rule)?);
    let (answer, scorer) = answer(&state, pos, rule).await?;
    Ok(Json(PositionJson { answer: to_json(&answer), source: scorer.source() }))
}

/// `/api/mainline`.
#[derive(Debug, Serialize)]
pub struct MainlineJson {
    position: String,
    side: &'static str,
    pass_rule: &'static str,
    value: u8,
    label: &'static str,
    depth: Option<u16>,
    source: &'static str,
    /// Each ply a move with its score group.
    line: Vec<MoveJson>,
    /// Where the line ends.
    end: String,
    over: Option<&'static str>,
}

/// `GET /api/mainline?pos=POS[&rule=RULE]`: the line of best play to the
/// end, each ply with its value for its mover.
pub async fn mainline_handler(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> ApiResult<MainlineJson> {
    let q = query(raw, &["pos", "rule"])?;
    let (pos, rule) = (position(&q)?, rule(&q, state.rule)?);
    let (answer, scorer) = answer(&state, pos, rule).await?;
    let mut befores = Vec::with_capacity(answer.line.len());
    let mut cur = pos;
    for &m in &answer.line {
        befores.push(cur);
        cur = cur.play(m, rule).map_err(|e| ServeError::Internal(format!("{cur}: {m}: {e}")))?;
    }
    let scored = moves_of(&state, &scorer, befores.clone(), rule).await?;
    let depths = answer.depths;
    let line = answer
        .line
        .iter()
        .zip(&befores)
        .zip(&scored)
        .map(|((&m, before), moves)| {
            let s = moves.iter().find(|s| s.mv == m).expect("a line move is legal");
            MoveJson::scored(before, s, moves, depths)
        })
        .collect();
    Ok(Json(MainlineJson {
        position: pos.to_string(),
        side: pos.side().name(),
        pass_rule: rule.name(),
        value: answer.score.value.code(),
        label: answer.score.value.label(),
        depth: depth(answer.score, depths),
        source: scorer.source(),
        line,
        end: answer.end.to_string(),
        over: answer.end.outcome().map(|o| o.name()),
    }))
}

/// `GET /api/analyse?pos=POS&moves=M,M,...[&rule=RULE]`: `play --analyse
/// --json`.
pub async fn analyse_handler(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> ApiResult<AnalyseJson> {
    let q = query(raw, &["pos", "moves", "rule"])?;
    let (start, rule) = (position(&q)?, rule(&q, state.rule)?);
    let moves: Vec<String> = match q.get("moves") {
        None | Some("") => Vec::new(),
        Some(text) => text.split(',').map(str::to_string).collect(),
    };
    if moves.len() > MAX_MOVES {
        return Err(ServeError::bad(format!("more than {MAX_MOVES} moves")));
    }
    let plies = play_all(start, &moves, rule).map_err(ServeError::bad)?;
    let (_, scorer) = answer(&state, start, rule).await?;
    let mut befores = vec![start];
    befores.extend(plies.iter().map(|p| p.next));
    befores.truncate(plies.len());
    let scored = moves_of(&state, &scorer, befores.clone(), rule).await?;
    let mut i = 0;
    let report = report_all(&start, &plies, |_| {
        i += 1;
        Ok::<_, std::convert::Infallible>(scored[i - 1].clone())
    })
    .map_err(|e| ServeError::Internal(e.to_string()))?;
    Ok(Json(analyse_json(&start, &report, rule, scorer.source())))
}

/// The most moves `/api/analyse` takes.
pub const MAX_MOVES: usize = 1000;

/// The most openings `/api/fair-start` tries before it gives up.
const FAIR_TRIES: usize = 64;

/// The most openings `/api/fair-start` looks up in the openings book (48%
/// of 12-slot openings are both-win; only 4 slots have none).
const FAIR_LOOKUPS: usize = 10_000;

/// Up to this many slots `/api/fair-start` solves the moves of an opening
/// from the book that no table covers.
const SOLVE_MOVES_MAX_SLOTS: u8 = 8;

/// `/api/fair-start`.
#[derive(Debug, Serialize)]
pub struct FairStartJson {
    position: String,
    /// The moves that keep both-win, best first; `null` when the value
    /// came from the openings book and no table covers the opening (the
    /// page asks for the position's moves next anyway).
    moves: Option<Vec<String>>,
    seed: u64,
    /// `book`, `tables` or `solve`: where the value came from.
    source: &'static str,
}

/// `GET /api/fair-start?slots=N[&seed=S][&rule=RULE]`: the first proven
/// both-win opening of the seeded random order (`openings --both-win
/// --random 1 --seed S`); a seed from the clock without `seed`.
pub async fn fair_start_handler(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> ApiResult<FairStartJson> {
    let q = query(raw, &["slots", "seed", "rule"])?;
    let rule = rule(&q, state.rule)?;
    let slots_text = q.require("slots").map_err(ServeError::bad)?;
    let invalid = |why: String| {
        ServeError::bad(format!("invalid value '{}' for slots: {why}", escape_control(slots_text)))
    };
    let n: u8 = slots_text.parse().map_err(|e: std::num::ParseIntError| invalid(e.to_string()))?;
    let n = Slots::try_from(n).map_err(|e| invalid(e.to_string()))?.get();
    let seed = match q.get("seed") {
        Some(text) => text.parse::<u64>().map_err(|_| {
            ServeError::bad(format!(
                "invalid value '{}' for seed: expected a whole number",
                escape_control(text)
            ))
        })?,
        None => clock_seed(),
    };
    if let Some(json) = fair_start_from_book(&state, n, rule, seed).await? {
        return Ok(Json(json));
    }
    let mut tried = 0;
    for opening in
        Draw::new(n, seed).map_err(|e| ServeError::BadRequest(e.to_string()))?.take(FAIR_TRIES)
    {
        tried += 1;
        let (answer, scorer) = answer(&state, opening, rule).await?;
        if answer.score.value == Value::BothWin {
            let moves = answer
                .moves
                .iter()
                .filter(|m| m.score.value == Value::BothWin)
                .map(|m| m.mv.to_string())
                .collect();
            return Ok(Json(FairStartJson {
                position: opening.to_string(),
                moves: Some(moves),
                seed,
                source: scorer.source(),
            }));
        }
    }
    Err(ServeError::NoFairStart { slots: n, seed, tried: Some(tried) })
}

/// The fair start from the openings book, when it has this size: the
/// first both-win opening of the seeded order, found at once, with its
/// moves from the tables if they cover it. `None` without a book section.
async fn fair_start_from_book(
    state: &AppState,
    n: u8,
    rule: PassRule,
    seed: u64,
) -> Result<Option<FairStartJson>, ServeError> {
    let book = Book::embedded().map_err(|e| ServeError::Internal(e.to_string()))?;
    let Some(section) = book.section(n, rule) else { return Ok(None) };
    let mut draw =
        Draw::new(n, seed).map_err(|e| ServeError::BadRequest(e.to_string()))?.take(FAIR_LOOKUPS);
    let found =
        blocking(move || Ok(draw.find(|o| section.value(o.board()) == Some(Value::BothWin))))
            .await?;
    let Some(opening) = found else {
        return Err(ServeError::NoFairStart { slots: n, seed, tried: None });
    };
    // The moves from the tables, or up to 8 slots from a solve (a few
    // milliseconds); larger boards leave them to the position's request.
    let engine = Arc::clone(&state.engine);
    let mut answered = match blocking(move || engine.known(&opening, rule)).await? {
        Known::Rules(a) | Known::Tables(a) => Some(a),
        Known::Book(_) | Known::Nothing => None,
    };
    if answered.is_none() && n <= SOLVE_MOVES_MAX_SLOTS {
        answered = Some(answer(state, opening, rule).await?.0);
    }
    let moves = answered.map(|a| {
        a.moves
            .iter()
            .filter(|m| m.score.value == Value::BothWin)
            .map(|m| m.mv.to_string())
            .collect()
    });
    Ok(Some(FairStartJson { position: opening.to_string(), moves, seed, source: "book" }))
}

/// A seed from the clock.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(1, |d| d.as_nanos() as u64 ^ 0x5DEE_CE66)
}

/// `/api/progress`: the solve under way, if any.
#[derive(Debug, Serialize)]
pub struct ProgressJson {
    solving: bool,
    position: Option<String>,
    /// The position's value from the openings book, when it is an opening
    /// (the solve is then for its moves and depth).
    book: Option<BookValueJson>,
    phase: Option<&'static str>,
    states: u64,
    total: Option<u64>,
    seconds: f64,
    /// Solves started since the server started (requests sharing one
    /// count once).
    solves: u64,
    /// Solves stopped because every request waiting for them had gone.
    cancelled: u64,
}

/// A value from the openings book.
#[derive(Debug, Serialize)]
pub struct BookValueJson {
    value: u8,
    label: &'static str,
}

/// `GET /api/progress`: how far the solve under way has come (the page
/// shows it while it waits for an answer), with the position's value from
/// the openings book when it has it. Never waits for the solver.
pub async fn progress_handler(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> ApiResult<ProgressJson> {
    query(raw, &[])?;
    let (solves, cancelled) = state.engine.solves();
    let json = match state.engine.progress() {
        Some(p) => ProgressJson {
            solving: true,
            position: Some(p.position.to_string()),
            book: Book::embedded()
                .ok()
                .and_then(|b| b.value(&p.position, p.rule).ok())
                .map(|v| BookValueJson { value: v.code(), label: v.label() }),
            phase: Some(if p.enumerating { "enumerating" } else { "solving" }),
            states: p.states,
            total: p.total,
            seconds: (p.seconds * 10.0).round() / 10.0,
            solves,
            cancelled,
        },
        None => ProgressJson {
            solving: false,
            position: None,
            book: None,
            phase: None,
            states: 0,
            total: None,
            seconds: 0.0,
            solves,
            cancelled,
        },
    };
    Ok(Json(json))
}

/// Any path not served: 404.
pub async fn not_found(uri: Uri) -> ServeError {
    ServeError::NotFound(uri.path().to_string())
}
