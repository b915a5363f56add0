//! What a puzzle is, its line of only moves, its themes, its id up to
//! symmetry and its check against the solver (the module docs of `puzzle`
//! give the definition).

use std::fmt;
use std::str::FromStr;

use crate::moves::{Move, PassRule};
use crate::position::Position;
use crate::scored::{ScoreSource, ScoredMove, scored_moves};
use crate::symmetry;
use crate::value::Value;

use super::rating::rate_line;

/// The most solver moves a puzzle line keeps (longer lines are cut after
/// this many only moves).
pub const MAX_LENGTH: usize = 12;

/// A puzzle.
///
/// Invariants: `start` is `before` after `mistake`; `line` is legal from
/// `start`, begins and ends with a move of `start`'s side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Puzzle {
    /// Its id: 6 letters and digits, from the position up to symmetry.
    pub id: String,
    /// The position before the mistake.
    pub before: Position,
    /// The mistake (by the side not to move in `start`).
    pub mistake: Move,
    /// The puzzle position, after the mistake.
    pub start: Position,
    /// The solver's only moves with the opponent's replies between them.
    pub line: Vec<Move>,
    /// The value the solver keeps.
    pub value: Value,
    /// What its moves do.
    pub themes: Vec<Theme>,
    /// Its rating: a player of this rating solves it half the time.
    pub rating: u16,
    /// The rating's standard error.
    pub deviation: u16,
}

impl Puzzle {
    /// The number of the solver's moves with a choice (its forced moves,
    /// a single legal move, are played for it and not counted).
    pub fn length(&self) -> usize {
        solver_moves(&self.start, &self.line)
    }

    /// For each move of the line, whether it is a forced move of the
    /// solver: the only legal move of its position ([`is_forced`]).
    pub fn forced(&self) -> Vec<bool> {
        self.steps()
            .iter()
            .map(|(pos, _)| pos.side() == self.start.side() && is_forced(pos))
            .collect()
    }

    /// Each position of the line before its move, with the move: the
    /// solver's and the opponent's alike.
    pub fn steps(&self) -> Vec<(Position, Move)> {
        let mut pos = self.start;
        self.line
            .iter()
            .map(|&m| {
                let step = (pos, m);
                pos = pos.play_unchecked(m);
                step
            })
            .collect()
    }
}

/// Whether `pos` leaves its side to move no choice: a single legal move
/// (a *forced* move, which is never a puzzle move).
pub fn is_forced(pos: &Position) -> bool {
    pos.legal_moves(RULE).len() == 1
}

/// The number of moves of `start`'s side to move in `line` that are not
/// forced.
fn solver_moves(start: &Position, line: &[Move]) -> usize {
    let solver = start.side();
    let mut pos = *start;
    let mut count = 0;
    for &m in line {
        count += usize::from(pos.side() == solver && !is_forced(&pos));
        pos = pos.play_unchecked(m);
    }
    count
}

/// What a puzzle's moves do (`--theme NAME`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Theme {
    /// The solver keeps 己赢: it wins outright.
    Win,
    /// The solver keeps 共赢: it saves a both-win.
    BothWin,
    /// The solver keeps 同输 where every other move loses.
    BothLose,
    /// A placement that captures an opponent's piece and moves again.
    ExtraMove,
    /// A pass is an only move.
    Pass,
    /// Walking piece N (12 on the standard board) round and off the board.
    WalkN,
    /// A move fixes a piece on a slot an opponent's piece could walk onto
    /// (that walk is gone for good).
    Block,
    /// The line ends the game.
    Finish,
    /// One solver move.
    OneMove,
    /// Two solver moves.
    Short,
    /// Three or four solver moves.
    Long,
    /// Five or more solver moves.
    VeryLong,
}

impl Theme {
    /// Every theme.
    pub const ALL: [Theme; 12] = [
        Theme::Win,
        Theme::BothWin,
        Theme::BothLose,
        Theme::ExtraMove,
        Theme::Pass,
        Theme::WalkN,
        Theme::Block,
        Theme::Finish,
        Theme::OneMove,
        Theme::Short,
        Theme::Long,
        Theme::VeryLong,
    ];

    /// The name in sets, JSON and `--theme`.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Win => "win",
            Theme::BothWin => "both-win",
            Theme::BothLose => "both-lose",
            Theme::ExtraMove => "extra-move",
            Theme::Pass => "pass",
            Theme::WalkN => "walk-n",
            Theme::Block => "block",
            Theme::Finish => "finish",
            Theme::OneMove => "one-move",
            Theme::Short => "short",
            Theme::Long => "long",
            Theme::VeryLong => "very-long",
        }
    }

    /// What it means, for help texts.
    pub fn meaning(self) -> &'static str {
        match self {
            Theme::Win => "win outright (keep 己赢)",
            Theme::BothWin => "save a both-win (keep 共赢)",
            Theme::BothLose => "keep 同输 where every other move loses",
            Theme::ExtraMove => "a placement that captures and moves again",
            Theme::Pass => "a pass is the only move",
            Theme::WalkN => "walk piece N (12) round and off the board",
            Theme::Block => "fix a piece on a slot an opponent's piece could walk onto",
            Theme::Finish => "the line ends the game",
            Theme::OneMove => "one move",
            Theme::Short => "two moves",
            Theme::Long => "three or four moves",
            Theme::VeryLong => "five moves or more",
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no theme's.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseThemeError(pub String);

impl fmt::Display for ParseThemeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
        write!(
            f,
            "unknown theme '{}': expected one of {}",
            crate::escape_control(&self.0),
            names.join(", ")
        )
    }
}

impl std::error::Error for ParseThemeError {}

impl FromStr for Theme {
    type Err = ParseThemeError;

    fn from_str(s: &str) -> Result<Theme, ParseThemeError> {
        let t = s.trim();
        // `walk-12` (and `walk-8`, `walk-10`) read as `walk-n`.
        if matches!(t, "walk-12" | "walk-10" | "walk-8") {
            return Ok(Theme::WalkN);
        }
        Theme::ALL.into_iter().find(|th| th.name() == t).ok_or_else(|| ParseThemeError(s.into()))
    }
}

/// The only move of `pos` when it is a puzzle position (see the module
/// docs), with the value it keeps: `None` when the game is over, when
/// several moves keep the best value, or when the value kept is not one a
/// puzzle asks for. `moves` are the scored moves of `pos`, best first.
pub fn only_move(pos: &Position, moves: &[ScoredMove]) -> Option<(ScoredMove, Value)> {
    if pos.outcome().is_some() {
        return None;
    }
    let best = moves.first()?;
    let value = best.score.value;
    if moves.iter().filter(|m| m.score.value == value).count() != 1 {
        return None;
    }
    let fits = match value {
        Value::SelfWin | Value::BothWin => true,
        Value::BothLose => moves[1..].iter().all(|m| m.score.value == Value::SelfLose),
        Value::NoResult | Value::SelfLose => false,
    };
    fits.then_some((*best, value))
}

/// The opponent's reply: its best value, then the longest game (the first
/// in move order among equals).
fn reply(moves: &[ScoredMove]) -> Option<&ScoredMove> {
    let value = moves.first()?.score.value;
    moves.iter().filter(|m| m.score.value == value).min_by(|a, b| b.score.depth.cmp(&a.score.depth))
}

/// The solution of the puzzle position `start` from `source`: its line
/// and the value kept, or `None` when `start` is not a puzzle position or
/// its move is forced (a single legal move is no puzzle).
///
/// The line goes on through the solver's forced moves (played for the
/// player), ends after the solver's last only move with a choice, and
/// stops before any position of it would come back (a line never loops).
///
/// # Errors
/// The source does not know a position on the way.
pub fn solution<S: ScoreSource + ?Sized>(
    source: &S,
    start: &Position,
) -> Result<Option<(Vec<Move>, Value)>, S::Error> {
    let solver = start.side();
    let moves = scored_moves(source, start)?;
    if moves.len() < 2 {
        return Ok(None);
    }
    let Some((first, value)) = only_move(start, &moves) else {
        return Ok(None);
    };
    let mut seen = std::collections::HashSet::from([start.key(), first.child.key()]);
    let mut line = vec![first.mv];
    // The line up to the solver's last move with a choice.
    let mut kept = 1;
    let mut pos = first.child;
    let mut count = 1;
    'line: while count < MAX_LENGTH && pos.outcome().is_none() {
        // The opponent's replies (more than one after its extra moves).
        let mut replies = Vec::new();
        let mut next = pos;
        while next.side() != solver && next.outcome().is_none() {
            let moves = scored_moves(source, &next)?;
            let r = reply(&moves).expect("a game that goes on has moves");
            replies.push(r.mv);
            next = r.child;
            if !seen.insert(next.key()) {
                break 'line;
            }
        }
        let moves = scored_moves(source, &next)?;
        match only_move(&next, &moves) {
            Some((m, v)) if v == value && seen.insert(m.child.key()) => {
                line.extend(replies);
                line.push(m.mv);
                pos = m.child;
                if moves.len() > 1 {
                    count += 1;
                    kept = line.len();
                }
            }
            _ => break,
        }
    }
    line.truncate(kept);
    Ok(Some((line, value)))
}

/// The themes of a puzzle with this start, line and value, in the order of
/// [`Theme::ALL`].
pub fn themes(start: &Position, line: &[Move], value: Value) -> Vec<Theme> {
    let n = start.slots();
    let solver = start.side();
    let mut found = vec![match value {
        Value::SelfWin => Theme::Win,
        Value::BothWin => Theme::BothWin,
        _ => Theme::BothLose,
    }];
    let mut pos = *start;
    for &m in line {
        let child = pos.play_unchecked(m);
        if pos.side() == solver && !is_forced(&pos) {
            if matches!(m, Move::Place(_)) && child.side() == solver {
                found.push(Theme::ExtraMove);
            }
            match m {
                Move::Pass => found.push(Theme::Pass),
                Move::Walk(p) if p == n => found.push(Theme::WalkN),
                _ => {}
            }
            if blocks(&pos, &child) {
                found.push(Theme::Block);
            }
        }
        pos = child;
    }
    if pos.outcome().is_some() {
        found.push(Theme::Finish);
    }
    found.push(match solver_moves(start, line) {
        1 => Theme::OneMove,
        2 => Theme::Short,
        3 | 4 => Theme::Long,
        _ => Theme::VeryLong,
    });
    found.sort();
    found.dedup();
    found
}

/// Whether the move from `before` to `after` fixes a piece on a slot onto
/// which a piece of the opponent (of `before`'s mover) could walk.
fn blocks(before: &Position, after: &Position) -> bool {
    let n = before.slots();
    let new = after.fixed_mask() & !before.fixed_mask();
    if new == 0 {
        return false;
    }
    let opponent = before.side().other();
    (1..=n).filter(|&p| crate::side::Side::owner_of(p) == opponent && p != n).any(|p| match before
        .slot_of(p)
    {
        Some(s) if s != p => {
            let t = crate::position::walk_target(n, s, p);
            new >> t & 1 == 1 && before.piece_at(t) != Some(t)
        }
        _ => false,
    })
}

/// The key of `pos` up to the game's symmetry (the smallest key of its
/// images under the symmetry of docs/symmetry.md): two positions with the same key are the
/// same puzzle.
pub fn canonical_key(pos: &Position) -> u64 {
    symmetry::units(pos.slots()).map(|u| symmetry::position(pos, u).key()).min().unwrap_or(0)
}

/// The key of `pos`'s board alone up to the game's symmetry: the side to
/// move and the banned piece left out. Two puzzles whose boards before the
/// mistake have the same board key are near-duplicates.
pub fn board_key(pos: &Position) -> u64 {
    const BOARD: u64 = (1 << 48) - 1;
    symmetry::units(pos.slots())
        .map(|u| symmetry::position(pos, u).key() & BOARD)
        .min()
        .unwrap_or(0)
}

/// The id of a puzzle starting at `start`: 6 letters and digits from its
/// canonical key and board size.
pub fn puzzle_id(start: &Position) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut x = canonical_key(start) ^ u64::from(start.slots()) << 58;
    // splitmix64's finalizer spreads the key over all bits.
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    (0..6)
        .map(|_| {
            let d = DIGITS[(x % 62) as usize] as char;
            x /= 62;
            d
        })
        .collect()
}

/// Why a puzzle does not check out against the solver.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PuzzleMismatch {
    /// The puzzle's id.
    pub id: String,
    /// What differs.
    pub what: String,
}

impl fmt::Display for PuzzleMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "puzzle {}: {}", self.id, self.what)
    }
}

impl std::error::Error for PuzzleMismatch {}

/// Checks `puzzle` against `source`: the mistake loses value, and the
/// solution found again is its line, value and themes, and the engines'
/// attempts at it give its rating and deviation (`rating.rs`).
///
/// # Errors
/// The source does not know a position on the way (outer), or the
/// puzzle differs (inner).
pub fn check<S: ScoreSource + ?Sized>(
    source: &S,
    puzzle: &Puzzle,
) -> Result<Result<(), PuzzleMismatch>, S::Error> {
    let bad = |what: String| Ok(Err(PuzzleMismatch { id: puzzle.id.clone(), what }));
    let before = scored_moves(source, &puzzle.before)?;
    let Some(played) = before.iter().find(|m| m.mv == puzzle.mistake) else {
        return bad(format!("the mistake {} is not legal", puzzle.mistake));
    };
    if played.score.value >= before[0].score.value {
        return bad(format!("the move {} keeps the value: no mistake", puzzle.mistake));
    }
    if played.child != puzzle.start || puzzle.start.side() == puzzle.before.side() {
        return bad("the mistake does not hand the move to the other side".into());
    }
    match solution(source, &puzzle.start)? {
        None => bad("the start is not a puzzle position".into()),
        Some((line, value)) if line != puzzle.line || value != puzzle.value => {
            let text: Vec<String> = line.iter().map(Move::to_string).collect();
            bad(format!("the solver's line is {} ({})", text.join(" "), value.label()))
        }
        Some((line, value)) => {
            let t = themes(&puzzle.start, &line, value);
            if t != puzzle.themes {
                return bad("its themes differ from its moves'".into());
            }
            if puzzle_id(&puzzle.start) != puzzle.id {
                return bad("its id is not its position's".into());
            }
            let rated = rate_line(source, &puzzle.start, &line, canonical_key(&puzzle.start))?;
            let (rating, deviation) = rated.stored();
            if (rating, deviation) != (puzzle.rating, puzzle.deviation) {
                return bad(format!(
                    "its rating {} ± {} is not the engines' attempts' ({rating} ± {deviation})",
                    puzzle.rating, puzzle.deviation
                ));
            }
            Ok(Ok(()))
        }
    }
}

/// The pass rule of every puzzle set: docs/rules.md's.
pub const RULE: PassRule = PassRule::Always;
