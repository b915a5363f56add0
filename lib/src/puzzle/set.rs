//! Puzzle sets as CSV in the columns of lichess's puzzle database
//! (docs/puzzles.md, "Format"), and the sets built into the library from
//! `puzzles/n{8,10,12}.csv`.
//!
//! A line is `PuzzleId,"Position",Moves,Rating,RatingDeviation,Themes`:
//! the position *before* the mistake (quoted: it holds commas), then the
//! moves separated by spaces, the mistake first and the solution after it
//! (as lichess's `FEN` and `Moves`), and the themes separated by spaces.

use std::fmt;
use std::sync::OnceLock;

use super::definition::{Puzzle, RULE, Theme};
use crate::moves::MoveText;
use crate::position::Position;
use crate::value::Value;

/// The header line of a set.
pub const CSV_HEADER: &str = "PuzzleId,Position,Moves,Rating,RatingDeviation,Themes";

static N8: &[u8] = include_bytes!("../../data/n8.csv");
static N10: &[u8] = include_bytes!("../../data/n10.csv");
static N12: &[u8] = include_bytes!("../../data/n12.csv");

/// A line of a set that is not a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParsePuzzleError {
    /// The line number, from 1 (the header is line 1).
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for ParsePuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "puzzle set line {}: {}", self.line, self.what)
    }
}

impl std::error::Error for ParsePuzzleError {}

impl Puzzle {
    /// The puzzle as a line of a set (no newline).
    pub fn to_csv(&self) -> String {
        let moves: Vec<String> = std::iter::once(self.mistake)
            .chain(self.line.iter().copied())
            .map(|m| m.to_string())
            .collect();
        let themes: Vec<&str> = self.themes.iter().map(|t| t.name()).collect();
        format!(
            "{},\"{}\",{},{},{},{}",
            self.id,
            self.before,
            moves.join(" "),
            self.rating,
            self.deviation,
            themes.join(" ")
        )
    }

    /// Reads a line of a set (`line` is its number, for errors).
    ///
    /// # Errors
    /// A missing field, a bad position, an illegal move, an unknown theme.
    pub fn from_csv(text: &str, line: usize) -> Result<Puzzle, ParsePuzzleError> {
        let err = |what: String| ParsePuzzleError { line, what };
        let (id, rest) = text.split_once(',').ok_or_else(|| err("no fields".into()))?;
        let rest =
            rest.strip_prefix('"').ok_or_else(|| err("the position is not quoted".into()))?;
        let (pos, rest) = rest
            .split_once("\",")
            .ok_or_else(|| err("the position's quote is not closed".into()))?;
        let fields: Vec<&str> = rest.split(',').collect();
        let [moves, rating, deviation, themes] = fields[..] else {
            return Err(err(format!("expected 6 fields, found {}", fields.len() + 2)));
        };
        if id.len() != 6 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(err(format!("bad id '{}'", crate::escape_control(id))));
        }
        let before: Position = pos
            .parse()
            .map_err(|e| err(format!("position '{}': {e}", crate::escape_control(pos))))?;
        let mut cur = before;
        let mut played = Vec::new();
        for text in moves.split(' ') {
            let mt: MoveText = text.parse().map_err(|e| err(format!("{e}")))?;
            let m = cur.parse_move(mt, RULE).map_err(|e| err(format!("move {text}: {e}")))?;
            played.push(m);
            cur = cur.play_unchecked(m);
        }
        if played.len() < 2 {
            return Err(err("a mistake and at least one move are needed".into()));
        }
        let number = |name: &str, t: &str| {
            t.parse::<u16>().map_err(|_| err(format!("bad {name} '{}'", crate::escape_control(t))))
        };
        let themes = themes
            .split(' ')
            .map(|t| t.parse::<Theme>().map_err(|e| err(e.to_string())))
            .collect::<Result<Vec<Theme>, _>>()?;
        let value = if themes.contains(&Theme::Win) {
            Value::SelfWin
        } else if themes.contains(&Theme::BothWin) {
            Value::BothWin
        } else if themes.contains(&Theme::BothLose) {
            Value::BothLose
        } else {
            return Err(err("no theme gives the value (win, both-win or both-lose)".into()));
        };
        let mistake = played[0];
        Ok(Puzzle {
            id: id.to_string(),
            before,
            mistake,
            start: before.play_unchecked(mistake),
            line: played[1..].to_vec(),
            value,
            themes,
            rating: number("rating", rating)?,
            deviation: number("rating deviation", deviation)?,
        })
    }
}

/// Reads a whole set: the header, then one puzzle a line.
///
/// # Errors
/// The first line that is not a puzzle.
pub fn parse_csv(text: &str) -> Result<Vec<Puzzle>, ParsePuzzleError> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, h)) if h.trim_end() == CSV_HEADER => {}
        _ => {
            return Err(ParsePuzzleError {
                line: 1,
                what: format!("expected the header {CSV_HEADER}"),
            });
        }
    }
    lines
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| Puzzle::from_csv(l.trim_end(), i + 1))
        .collect()
}

/// The set built into the library for `n` slots (8, 10 or 12; empty for
/// other sizes), read once.
///
/// # Errors
/// Its bytes are damaged (a broken build).
pub fn embedded(n: u8) -> Result<&'static [Puzzle], ParsePuzzleError> {
    static SETS: [OnceLock<Result<Vec<Puzzle>, ParsePuzzleError>>; 3] =
        [const { OnceLock::new() }; 3];
    let (i, bytes) = match n {
        8 => (0, N8),
        10 => (1, N10),
        12 => (2, N12),
        _ => return Ok(&[]),
    };
    SETS[i]
        .get_or_init(|| {
            let text = std::str::from_utf8(bytes)
                .map_err(|_| ParsePuzzleError { line: 0, what: "not UTF-8".into() })?;
            parse_csv(text)
        })
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone)
}

/// A puzzle of `set` drawn by `seed` among those with `theme` (if given)
/// rated within 100 of `rating` (if given; the nearest one when none is
/// that close); `None` when no puzzle has the theme.
pub fn pick(
    set: &[Puzzle],
    theme: Option<Theme>,
    rating: Option<u16>,
    seed: u64,
) -> Option<&Puzzle> {
    let with_theme: Vec<&Puzzle> =
        set.iter().filter(|p| theme.is_none_or(|t| p.themes.contains(&t))).collect();
    let gap =
        |p: &Puzzle| rating.map_or(0, |r| (i32::from(p.rating) - i32::from(r)).unsigned_abs());
    let mut near: Vec<&Puzzle> = with_theme.iter().copied().filter(|p| gap(p) <= 100).collect();
    if near.is_empty() {
        near.extend(with_theme.iter().copied().min_by_key(|p| gap(p)));
    }
    if near.is_empty() {
        return None;
    }
    // splitmix64 spreads the seed over all bits.
    let mut x = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    Some(near[(x % near.len() as u64) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;

    #[test]
    fn a_line_reads_back() {
        let before: Position = "2,1,4,3,6,5".parse().unwrap();
        let p = Puzzle {
            id: "abc123".into(),
            before,
            mistake: Move::Walk(2),
            start: before.play_unchecked(Move::Walk(2)),
            line: vec![Move::Pass],
            value: Value::BothWin,
            themes: vec![Theme::BothWin, Theme::Pass, Theme::OneMove],
            rating: 1234,
            deviation: 80,
        };
        let line = p.to_csv();
        assert_eq!(Puzzle::from_csv(&line, 2), Ok(p));
        assert!(Puzzle::from_csv("abc123,\"2,1,4,3,6,5\",2,1,2,both-win", 2).is_err());
        assert!(parse_csv("nope\n").is_err());
    }
}
