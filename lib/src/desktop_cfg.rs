//! Reading the original desktop program's `chaosclock.cfg`.
//!
//! The file has `key=value` lines; `#` starts a comment line. The keys read
//! here are `board`, `side-to-move`, `last-move`, `even-has-won` and
//! `odd-has-won`; other keys (`player-even`, `depth`, `algorithm`, ...) are
//! ignored. Its conventions differ from the interchange format:
//! - `board` lists 0-based slot indexes: index 0 is slot N, index i is slot
//!   i; the value is the piece with 0 meaning piece N and -1 an empty slot.
//!   N is the number of entries.
//! - `side-to-move`: 0 = even (乙), 1 = odd (甲).
//! - `last-move`: -2 = none, -1 = pass, 0 = piece N, m = piece m.
//! - `*-has-won=1` claims that side has completed; since the rules imply
//!   the won status from the board, a claim the board contradicts is an
//!   error rather than silently ignored.
//!
//! Leniency and strictness: a UTF-8 byte-order mark at the start is
//! skipped; a key read here that appears twice is an error (which line
//! should win is not clear); a board of the wrong length says so before
//! any of its values is checked; an integer too large for `i64` is out of
//! range like any other; states no game reaches are rejected as by the
//! interchange format ([`Position::check_reachable`]). Messages echo the
//! input with control characters escaped, so they are one line.

use std::fmt;

use crate::escape::escape_control;
use crate::position::{Last, Position, PositionError, SUPPORTED_SLOTS};
use crate::side::Side;

/// The keys read; the others are ignored.
const KEYS: [&str; 5] = ["board", "side-to-move", "last-move", "even-has-won", "odd-has-won"];

/// Why a cfg text is not a position.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CfgError {
    /// A required key is missing.
    Missing(&'static str),
    /// A value that is not an integer (or list of them).
    NotANumber {
        /// The key.
        key: String,
        /// The text found.
        text: String,
    },
    /// A value outside its range.
    OutOfRange {
        /// The key.
        key: &'static str,
        /// The number found, as written.
        value: String,
    },
    /// A key read here appears on two lines.
    DuplicateKey(&'static str),
    /// `even-has-won` or `odd-has-won` is 1 but that side is not complete.
    WonClaim(Side),
    /// The numbers do not form a position.
    Invalid(PositionError),
}

impl fmt::Display for CfgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CfgError::Missing(key) => write!(f, "cfg has no '{key}=' line"),
            CfgError::NotANumber { key, text } => {
                write!(f, "cfg {key} value '{}' is not a number", escape_control(text))
            }
            CfgError::OutOfRange { key, value } => write!(f, "cfg {key}={value} is out of range"),
            CfgError::DuplicateKey(key) => {
                write!(f, "cfg has two '{key}=' lines: keep one")
            }
            CfgError::WonClaim(side) => write!(
                f,
                "cfg says {}-has-won=1 but not all of {side}'s pieces are fixed",
                if *side == Side::Yi { "even" } else { "odd" }
            ),
            // The reason is the source, which `{:#}` prints after a colon.
            CfgError::Invalid(_) => f.write_str("cfg board"),
        }
    }
}

/// [`CfgError::Invalid`] has the [`PositionError`] as its source; the
/// other variants wrap no error.
impl std::error::Error for CfgError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CfgError::Invalid(e) => Some(e),
            CfgError::Missing(_)
            | CfgError::NotANumber { .. }
            | CfgError::OutOfRange { .. }
            | CfgError::DuplicateKey(_)
            | CfgError::WonClaim(_) => None,
        }
    }
}

impl From<PositionError> for CfgError {
    fn from(e: PositionError) -> Self {
        CfgError::Invalid(e)
    }
}

/// Reads the integer `text` of `key`; too many digits are out of range.
fn int(key: &'static str, text: &str) -> Result<i64, CfgError> {
    let t = text.trim();
    t.parse().map_err(|_| {
        let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            CfgError::OutOfRange { key, value: t.to_string() }
        } else {
            CfgError::NotANumber { key: key.to_string(), text: t.to_string() }
        }
    })
}

/// A value outside the range of `key`.
fn out_of_range(key: &'static str, value: i64) -> CfgError {
    CfgError::OutOfRange { key, value: value.to_string() }
}

/// Reads the position described by the text of a `chaosclock.cfg`.
///
/// # Errors
/// A missing board, a malformed number, a key read twice, or an
/// inconsistent or unreachable position.
pub fn parse_cfg(text: &str) -> Result<Position, CfgError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut board = None;
    let mut side = Side::Yi;
    let mut last = -2;
    let mut won = [false; 2];
    let mut seen = [false; KEYS.len()];
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim();
        if let Some(k) = KEYS.iter().position(|&k| k == key) {
            if seen[k] {
                return Err(CfgError::DuplicateKey(KEYS[k]));
            }
            seen[k] = true;
        }
        match key {
            "board" => {
                let cells =
                    value.split(',').map(|t| int("board", t)).collect::<Result<Vec<_>, _>>()?;
                board = Some(cells);
            }
            "side-to-move" => {
                side = match int("side-to-move", value)? {
                    0 => Side::Yi,
                    1 => Side::Jia,
                    v => return Err(out_of_range("side-to-move", v)),
                }
            }
            "last-move" => last = int("last-move", value)?,
            k @ ("even-has-won" | "odd-has-won") => {
                let key = if k == "even-has-won" { "even-has-won" } else { "odd-has-won" };
                let v = int(key, value)?;
                if !(0..=1).contains(&v) {
                    return Err(out_of_range(key, v));
                }
                won[usize::from(k == "even-has-won")] = v == 1;
            }
            _ => {}
        }
    }
    let cells = board.ok_or(CfgError::Missing("board"))?;
    // The length first: with the wrong number of slots, the range of the
    // values is not the problem.
    if !SUPPORTED_SLOTS.iter().any(|&k| usize::from(k) == cells.len()) {
        return Err(PositionError::UnsupportedSlots(cells.len()).into());
    }
    let n = cells.len() as i64;
    // Slot index 0 is slot N: rotate to slot 1 first, and map piece 0 to N.
    let mut slots = vec![0i64; cells.len()];
    for (i, &v) in cells.iter().enumerate() {
        if v < -1 || v >= n {
            return Err(out_of_range("board", v));
        }
        let slot = if i == 0 { cells.len() } else { i };
        slots[slot - 1] = match v {
            -1 => 0,
            0 => n,
            p => p,
        };
    }
    let last = match last {
        -2 => Last::None,
        -1 => Last::Pass,
        0 => Last::Piece(n as u8),
        m if (1..n).contains(&m) => Last::Piece(m as u8),
        m => return Err(out_of_range("last-move", m)),
    };
    let pos = Position::new(&slots, side, last)?;
    pos.check_reachable()?;
    for (claimed, s) in won.into_iter().zip([Side::Jia, Side::Yi]) {
        if claimed && !pos.is_complete(s) {
            return Err(CfgError::WonClaim(s));
        }
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_original_layout() {
        let text = "# comment\nplayer-even=human\nside-to-move=0\n\
                    board=3, 2, 8, 11, 9, 4, 0, 10, 6, 5, 7, 1\nlast-move=-2\n\
                    even-has-won=0\nodd-has-won=0\n";
        let p = parse_cfg(text).unwrap();
        assert_eq!(p.to_string(), "2,8,11,9,4,12,10,6,5,7,1,3;1;0");
    }

    #[test]
    fn side_last_and_won_claims() {
        let p = parse_cfg("board=0,1,-1,3\nside-to-move=1\nlast-move=-1").unwrap();
        assert_eq!(p.to_string(), "1,0,3,4;0;-1");
        assert!(parse_cfg("board=0,1,-1,3\nodd-has-won=1").is_ok());
        assert_eq!(parse_cfg("board=0,2,-1,-1\nodd-has-won=1"), Err(CfgError::WonClaim(Side::Jia)));
        assert_eq!(parse_cfg("depth=3"), Err(CfgError::Missing("board")));
        assert_eq!(parse_cfg("board=4,1,-1,3"), Err(out_of_range("board", 4)));
    }

    #[test]
    fn bom_length_duplicates_and_huge_numbers() {
        let p = parse_cfg("\u{feff}board=0,1,-1,3\r\nside-to-move=1\r\n").unwrap();
        assert_eq!(p.to_string(), "1,0,3,4;0;0");
        // The reason is the source: a chain shows it once.
        let short = parse_cfg("board=3, 2, 8").unwrap_err();
        assert_eq!(short.to_string(), "cfg board");
        assert_eq!(
            format!("{:#}", anyhow::Error::new(short)),
            "cfg board: a board has 4, 6, 8, 10 or 12 slots, not 3"
        );
        assert_eq!(
            parse_cfg("board=0,1,-1,3\nside-to-move=0\nboard=0,1,2,3"),
            Err(CfgError::DuplicateKey("board"))
        );
        assert_eq!(
            parse_cfg("board=0,1,-1,3\nside-to-move=0\nside-to-move=0").unwrap_err().to_string(),
            "cfg has two 'side-to-move=' lines: keep one"
        );
        // Ignored keys may repeat.
        assert!(parse_cfg("depth=1\ndepth=2\nboard=0,1,-1,3").is_ok());
        let huge = "99999999999999999999999";
        assert_eq!(
            parse_cfg(&format!("board=0,1,-1,{huge}")).unwrap_err().to_string(),
            format!("cfg board={huge} is out of range")
        );
        assert_eq!(
            parse_cfg("board=0,1,-1,4294967299").unwrap_err().to_string(),
            "cfg board=4294967299 is out of range"
        );
        assert_eq!(
            parse_cfg("board=0,1,x\u{1b}[2J,3").unwrap_err().to_string(),
            "cfg board value 'x\\u{1b}[2J' is not a number"
        );
        // Everything fixed after a pass: unreachable.
        assert!(matches!(
            parse_cfg("board=0,1,2,3\nlast-move=-1"),
            Err(CfgError::Invalid(PositionError::PlyAfterEnd { .. }))
        ));
    }
}
