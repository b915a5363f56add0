//! The interchange format `b1,b2,...,bN;side;last` (docs/notation.md).
//!
//! - `bi` is the piece on slot i, 0 for empty; N is the number of entries.
//! - `side`: 0 = 甲 (odd) to move, 1 = 乙 (even) to move.
//! - `last`: 0 = none, -1 = the previous ply was a pass, -2 = the previous
//!   two plies were passes (game over, both lose; an extension of this
//!   project), m = piece m was walked on the previous ply.
//! - `;side;last` may be omitted (乙 to move, no last move); `;side` alone
//!   means no last move. Spaces around entries are allowed.
//!
//! Printing always writes all three parts, so print∘parse is the identity
//! on printed text.
//!
//! Parsing also rejects the states that no game reaches where a cheap check
//! tells ([`Position::check_reachable`]). An integer too large for `i64` is
//! reported as the value it is, like any other number that is not a piece.
//! Error messages echo the input with control characters escaped
//! ([`escape_control`]), so they are one line.

use std::fmt;
use std::str::FromStr;

use crate::escape::escape_control;
use crate::position::{Last, Position, PositionError};
use crate::side::Side;

/// Why a text is not a position in the interchange format.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// More than three `;`-separated parts.
    TooManyParts(usize),
    /// An entry that is not an integer.
    NotANumber {
        /// Which part: `board`, `side` or `last`.
        part: &'static str,
        /// The text found.
        text: String,
    },
    /// An integer too large for any board, in `board` or `last`.
    HugeNumber {
        /// Which part: `board` or `last`.
        part: &'static str,
        /// The slot (1-based) of a board entry; 0 for `last`.
        slot: u8,
        /// The digits found.
        text: String,
    },
    /// The side is neither 0 nor 1.
    BadSide(String),
    /// The numbers do not form a position.
    Invalid(PositionError),
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePositionError::TooManyParts(k) => {
                write!(f, "expected 'board;side;last' but found {k} parts separated by ';'")
            }
            ParsePositionError::NotANumber { part, text } => {
                write!(f, "{part} entry '{}' is not a number", escape_control(text))
            }
            // The same words as `PositionError::PieceOutOfRange` and
            // `LastOutOfRange`: the digits are shown as they were written.
            ParsePositionError::HugeNumber { part: "board", slot, text } => {
                write!(f, "slot {slot} holds {text}, which is not a piece of this board")
            }
            ParsePositionError::HugeNumber { text, .. } => {
                write!(f, "last move {text} is not a piece of this board, 0, -1 or -2")
            }
            ParsePositionError::BadSide(s) => {
                write!(f, "side '{}' must be 0 (甲, odd) or 1 (乙, even)", escape_control(s))
            }
            ParsePositionError::Invalid(e) => e.fmt(f),
        }
    }
}

/// [`ParsePositionError::Invalid`] is transparent: it shows as the
/// [`PositionError`] it wraps, so its source is that error's source (and
/// a chain printed with `{:#}` does not repeat the message). The other
/// variants wrap no error.
impl std::error::Error for ParsePositionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ParsePositionError::Invalid(e) => e.source(),
            ParsePositionError::TooManyParts(_)
            | ParsePositionError::NotANumber { .. }
            | ParsePositionError::HugeNumber { .. }
            | ParsePositionError::BadSide(_) => None,
        }
    }
}

impl From<PositionError> for ParsePositionError {
    fn from(e: PositionError) -> Self {
        ParsePositionError::Invalid(e)
    }
}

/// Reads entry `text` of `part` (at 1-based `slot` for the board, else 0).
fn number(part: &'static str, slot: u8, text: &str) -> Result<i64, ParsePositionError> {
    let t = text.trim();
    t.parse::<i64>().map_err(|_| {
        let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            ParsePositionError::HugeNumber { part, slot, text: t.to_string() }
        } else {
            ParsePositionError::NotANumber { part, text: t.to_string() }
        }
    })
}

/// Reads the `last` number of the interchange format.
///
/// # Errors
/// A number below -2 or above 255.
pub fn last_from_number(m: i64) -> Result<Last, PositionError> {
    match m {
        0 => Ok(Last::None),
        -1 => Ok(Last::Pass),
        -2 => Ok(Last::DoublePass),
        1..=255 => Ok(Last::Piece(m as u8)),
        _ => Err(PositionError::LastOutOfRange(m)),
    }
}

/// The `last` number of the interchange format.
pub fn last_to_number(last: Last) -> i64 {
    match last {
        Last::None => 0,
        Last::Pass => -1,
        Last::DoublePass => -2,
        Last::Piece(m) => i64::from(m),
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        // A UTF-8 byte-order mark (from a Windows editor) is skipped, as
        // in cfg files.
        let s = s.trim().trim_start_matches('\u{feff}');
        let parts: Vec<&str> = s.trim().split(';').collect();
        if parts.len() > 3 {
            return Err(ParsePositionError::TooManyParts(parts.len()));
        }
        let board = parts[0]
            .split(',')
            .enumerate()
            .map(|(i, t)| number("board", (i + 1).min(usize::from(u8::MAX)) as u8, t))
            .collect::<Result<Vec<_>, _>>()?;
        let side = match parts.get(1).map(|t| t.trim()) {
            None | Some("1") => Side::Yi,
            Some("0") => Side::Jia,
            Some(other) => return Err(ParsePositionError::BadSide(other.to_string())),
        };
        let last = match parts.get(2) {
            None => Last::None,
            Some(t) => last_from_number(number("last", 0, t)?)?,
        };
        let pos = Position::new(&board, side, last)?;
        pos.check_reachable()?;
        Ok(pos)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.board().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{p}")?;
        }
        write!(f, ";{};{}", self.side().index(), last_to_number(self.last()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let p: Position = "4,3,7,11,5,10,12,0,0,2,0,0;0;7".parse().unwrap();
        assert_eq!(p.side(), Side::Jia);
        assert_eq!(p.last(), Last::Piece(7));
        assert_eq!(p.to_string(), "4,3,7,11,5,10,12,0,0,2,0,0;0;7");
        let q: Position = " 2,8,11,9,4,12,10,6,5,7,1,3 ".parse().unwrap();
        assert_eq!(q.to_string(), "2,8,11,9,4,12,10,6,5,7,1,3;1;0");
        assert!(q.is_opening());
        let r: Position = "2,1,4,3;0;-1".parse().unwrap();
        assert_eq!(r.last(), Last::Pass);
    }

    #[test]
    fn reports_bad_text() {
        let e = |s: &str| s.parse::<Position>().unwrap_err().to_string();
        assert_eq!(e("1,2,x,4"), "board entry 'x' is not a number");
        assert_eq!(e("2,1,4,3;2"), "side '2' must be 0 (甲, odd) or 1 (乙, even)");
        assert_eq!(e("2,1,4,3;0;9"), "last move 9 is not a piece of this board, 0, -1 or -2");
        assert_eq!(
            e("2,1,4,3;0;0;0"),
            "expected 'board;side;last' but found 4 parts separated by ';'"
        );
        assert_eq!(e("1,2,3"), "a board has 4, 6, 8, 10 or 12 slots, not 3");
        assert_eq!(e(""), "board entry '' is not a number");
        assert_eq!(e("1,2,x\n3,4"), "board entry 'x\\n3' is not a number");
        assert_eq!(e("2,1,4,3;x\u{7};0"), "side 'x\\u{7}' must be 0 (甲, odd) or 1 (乙, even)");
    }

    #[test]
    fn huge_numbers_are_not_pieces() {
        let e = |s: &str| s.parse::<Position>().unwrap_err().to_string();
        let tail = "which is not a piece of this board";
        assert_eq!(e("2,1,4,4294967299"), format!("slot 4 holds 4294967299, {tail}"));
        assert_eq!(
            e("2,1,4,99999999999999999999999"),
            format!("slot 4 holds 99999999999999999999999, {tail}")
        );
        assert_eq!(
            e("2,1,-99999999999999999999,3"),
            format!("slot 3 holds -99999999999999999999, {tail}")
        );
        assert_eq!(
            e("2,1,4,3;0;99999999999999999999"),
            "last move 99999999999999999999 is not a piece of this board, 0, -1 or -2"
        );
        assert_eq!(
            e("2,1,4,3;0;4294967299"),
            "last move 4294967299 is not a piece of this board, 0, -1 or -2"
        );
    }

    #[test]
    fn unreachable_states_are_rejected() {
        let e = |s: &str| s.parse::<Position>().unwrap_err().to_string();
        assert!(e("1,2,3,4;1;-2").starts_with("no game reaches this position"));
        assert!(e("1,2,3,4;0;-1").starts_with("no game reaches this position"));
        assert!("2,1,4,3;1;-2".parse::<Position>().is_ok());
        assert!("1,2,3,4;1;0".parse::<Position>().is_ok());
    }
}
