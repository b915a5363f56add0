//! Reading a position given as text, in one place for every program on
//! the library: the interchange notation (`2,1,4,3;1;0`) or the text of
//! a desktop `chaosclock.cfg` ([`read_position`]). Messages echo the
//! input with control characters escaped and trimmed, so they are one
//! line.

use std::fmt;

use crate::desktop_cfg::{CfgError, parse_cfg};
use crate::escape::escape_control;
use crate::notation::ParsePositionError;
use crate::position::Position;

/// A position as text: which of the two forms it is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionText<'a> {
    /// The interchange notation (`POS` on the command line, `pos=` in
    /// the server's API).
    Notation(&'a str),
    /// The text (never a path) of a `chaosclock.cfg`.
    Cfg(&'a str),
}

/// Why a position text is not a position.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputError {
    /// The notation is malformed or names an impossible position.
    Notation {
        /// The text, trimmed, control characters escaped.
        text: String,
        /// What is wrong with it.
        error: ParsePositionError,
    },
    /// The cfg text is not a position.
    Cfg(CfgError),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Notation { text, error } => write!(f, "position '{text}': {error}"),
            InputError::Cfg(e) => e.fmt(f),
        }
    }
}

/// The message of [`InputError::Notation`] includes its error's (and that
/// error's source), so it has no source; a cfg error passes on its own.
impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InputError::Notation { .. } => None,
            InputError::Cfg(e) => std::error::Error::source(e),
        }
    }
}

/// Reads the position `text` gives.
///
/// # Errors
/// [`InputError`]: a malformed or impossible position.
///
/// # Examples
///
/// ```
/// use chaosclock::{PositionText, read_position};
///
/// let pos = read_position(PositionText::Notation("2,1,4,3"))?;
/// assert_eq!(pos.slots(), 4);
/// let bad = read_position(PositionText::Notation("2,1,\u{7}4")).unwrap_err();
/// assert!(bad.to_string().starts_with("position '2,1,\\u{7}4': "), "{bad}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_position(text: PositionText<'_>) -> Result<Position, InputError> {
    match text {
        PositionText::Notation(text) => text.parse::<Position>().map_err(|error| {
            InputError::Notation { text: escape_control(text.trim()).into_owned(), error }
        }),
        PositionText::Cfg(text) => parse_cfg(text).map_err(InputError::Cfg),
    }
}
