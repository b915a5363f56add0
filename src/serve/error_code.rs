//! The code and arguments of an error, beside its English line, so that
//! the page can word it in its own language (issue 66: the Chinese page
//! said "局面不成立：position '0,1,…': piece 1 cannot have just walked…").
//! The page keeps one sentence per code (`err.CODE` in
//! `assets/i18n.js`); docs/json.md lists the codes.

use chaosclock::{CfgError, InputError, ParsePositionError, PositionError, Side};
use serde::Serialize;

/// An error's code, its arguments (numbers and words as text), and the
/// position text it is about, if it came from `pos=`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorCode {
    /// Which sentence: `position.duplicate`, `cfg.missing`, `busy`, ...
    pub code: &'static str,
    /// Its arguments, in the sentence's order.
    pub args: Vec<String>,
    /// The position text (as the English line shows it), for `position.*`
    /// codes of a `pos=`; `None` in a cfg text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
}

impl ErrorCode {
    /// A code with arguments, about no position text.
    pub fn new(code: &'static str, args: Vec<String>) -> ErrorCode {
        ErrorCode { code, args, position: None }
    }
}

/// The code of a position text that is not a position.
pub fn input_code(e: &InputError) -> ErrorCode {
    match e {
        InputError::Notation { text, error } => {
            let (code, args) = parse_code(error);
            ErrorCode { code, args, position: Some(text.clone()) }
        }
        InputError::Cfg(e) => {
            let (code, args) = cfg_code(e);
            ErrorCode::new(code, args)
        }
        // A kind the page has no words for: it shows the status's words.
        _ => ErrorCode::new("input.other", vec![e.to_string()]),
    }
}

fn parse_code(e: &ParsePositionError) -> (&'static str, Vec<String>) {
    match e {
        ParsePositionError::TooManyParts(k) => ("position.parts", vec![k.to_string()]),
        ParsePositionError::NotANumber { part, text } => {
            ("position.not-number", vec![part.to_string(), text.clone()])
        }
        ParsePositionError::HugeNumber { part: "board", slot, text } => {
            ("position.piece-range", vec![slot.to_string(), text.clone()])
        }
        ParsePositionError::HugeNumber { text, .. } => ("position.last-range", vec![text.clone()]),
        ParsePositionError::BadSide(s) => ("position.side", vec![s.clone()]),
        ParsePositionError::Invalid(e) => position_code(e),
        _ => ("input.other", vec![e.to_string()]),
    }
}

/// `jia` or `yi`.
fn side_word(side: Side) -> String {
    if side == Side::Jia { "jia" } else { "yi" }.to_string()
}

fn position_code(e: &PositionError) -> (&'static str, Vec<String>) {
    let s = |x: &dyn ToString| x.to_string();
    match e {
        PositionError::UnsupportedSlots(n) => ("position.slots", vec![s(n)]),
        PositionError::PieceOutOfRange { slot, piece } => {
            ("position.piece-range", vec![s(slot), s(piece)])
        }
        PositionError::DuplicatePiece(p) => ("position.duplicate", vec![s(p)]),
        PositionError::LastOutOfRange(m) => ("position.last-range", vec![s(m)]),
        PositionError::LastIsLeavingPiece(p) => ("position.last-leaving", vec![s(p)]),
        PositionError::LastOriginOccupied { piece, origin, occupant } => {
            ("position.last-origin", vec![s(piece), s(origin), s(occupant)])
        }
        PositionError::LastFromOwnSlot(p) => ("position.last-own-slot", vec![s(p)]),
        PositionError::PlyAfterEnd { side, ply } => {
            ("position.after-end", vec![side_word(*side), ply.replace(' ', "-")])
        }
        _ => ("input.other", vec![e.to_string()]),
    }
}

fn cfg_code(e: &CfgError) -> (&'static str, Vec<String>) {
    match e {
        CfgError::Missing(key) => ("cfg.missing", vec![key.to_string()]),
        CfgError::NotANumber { key, text } => ("cfg.not-number", vec![key.clone(), text.clone()]),
        CfgError::OutOfRange { key, value } => ("cfg.range", vec![key.to_string(), value.clone()]),
        CfgError::DuplicateKey(key) => ("cfg.duplicate", vec![key.to_string()]),
        CfgError::WonClaim(side) => ("cfg.won", vec![side_word(*side)]),
        CfgError::Invalid(e) => position_code(e),
        _ => ("input.other", vec![e.to_string()]),
    }
}

/// Why `/api/puzzle` or `/api/engine-move` (the board's puzzle and play
/// modes) gives no answer: each with its code (issue 66: these had none)
/// and the server's English line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PuzzleError {
    /// `slots=N` with no set of N slots: `puzzle.slots` [N].
    Slots(String),
    /// `id=ID` of no puzzle: `puzzle.id` [ID].
    Id(String),
    /// No puzzle of N slots with the theme: `puzzle.none` [N, theme].
    NoneFound(u8, String),
    /// An unknown theme: `puzzle.theme` [text].
    Theme(String),
    /// A parameter that is not a whole number: `puzzle.number` [key, text].
    Number(&'static str, String),
    /// A level that is not 1 to 8, or none: `engine.level` [text].
    Level(String),
}

impl PuzzleError {
    /// Its code and arguments.
    pub fn code(&self) -> ErrorCode {
        let (code, args) = match self {
            PuzzleError::Slots(n) => ("puzzle.slots", vec![n.clone()]),
            PuzzleError::Id(id) => ("puzzle.id", vec![id.clone()]),
            PuzzleError::NoneFound(n, theme) => ("puzzle.none", vec![n.to_string(), theme.clone()]),
            PuzzleError::Theme(text) => ("puzzle.theme", vec![text.clone()]),
            PuzzleError::Number(key, text) => {
                ("puzzle.number", vec![key.to_string(), text.clone()])
            }
            PuzzleError::Level(text) => ("engine.level", vec![text.clone()]),
        };
        ErrorCode::new(code, args)
    }

    /// The server's English line.
    pub fn message(&self) -> String {
        match self {
            PuzzleError::Slots(n) => format!("puzzles exist for 8, 10 and 12 slots, not {n}"),
            PuzzleError::Id(id) => format!("no puzzle with id '{id}'"),
            PuzzleError::NoneFound(n, theme) => {
                format!("no puzzle of {n} slots with theme '{theme}'")
            }
            PuzzleError::Theme(text) => format!("unknown puzzle theme '{text}'"),
            PuzzleError::Number(key, text) => {
                format!("invalid value '{text}' for {key}: expected a whole number")
            }
            PuzzleError::Level(text) if text.is_empty() => "missing parameter 'level'".into(),
            PuzzleError::Level(text) => {
                format!("invalid value '{text}' for level: expected 1 to 8")
            }
        }
    }
}

/// The code of a `pos=` text that is not a position.
pub fn position_text_code(text: &str, e: &ParsePositionError) -> ErrorCode {
    let (code, args) = parse_code(e);
    ErrorCode { code, args, position: Some(text.to_string()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaosclock::{PositionText, read_position};

    fn code(text: PositionText<'_>) -> ErrorCode {
        input_code(&read_position(text).unwrap_err())
    }

    #[test]
    fn position_errors_have_their_codes_and_arguments() {
        let c = code(PositionText::Notation("2,1,4,6,3,5;0;4"));
        assert_eq!(c.code, "position.last-origin");
        assert_eq!(c.args, ["4", "5", "3"]);
        assert_eq!(c.position.as_deref(), Some("2,1,4,6,3,5;0;4"));
        for (pos, want) in [
            ("1,1", "position.slots"),
            ("2,2,4,3", "position.duplicate"),
            ("2,1,4,3;7", "position.side"),
            ("x", "position.not-number"),
            ("2,1,4,3;0;3;1", "position.parts"),
            ("2,1,4,9", "position.piece-range"),
            ("2,1,4,99999999999999999999", "position.piece-range"),
            ("2,1,4,3;0;9", "position.last-range"),
            ("0,4,0,0;1;4", "position.last-leaving"),
            ("0,1,0,0;1;1", "position.last-own-slot"),
        ] {
            assert_eq!(code(PositionText::Notation(pos)).code, want, "{pos}");
        }
        let end = code(PositionText::Notation("1,2,3,4;1;-2"));
        assert_eq!((end.code, end.args), ("position.after-end", vec!["jia".into(), "pass".into()]));
        let cfg = code(PositionText::Cfg("side=1\n"));
        assert_eq!((cfg.code, cfg.position), ("cfg.missing", None));
    }

    #[test]
    fn puzzle_errors_have_codes() {
        let all = [
            (PuzzleError::Slots("9".into()), "puzzle.slots"),
            (PuzzleError::Id("x".into()), "puzzle.id"),
            (PuzzleError::NoneFound(8, "pass".into()), "puzzle.none"),
            (PuzzleError::Theme("x".into()), "puzzle.theme"),
            (PuzzleError::Number("seed", "x".into()), "puzzle.number"),
            (PuzzleError::Level(String::new()), "engine.level"),
        ];
        for (e, code) in all {
            assert_eq!(e.code().code, code);
            assert!(!e.message().is_empty());
        }
    }

    #[test]
    fn the_json_has_the_position_only_when_there_is_one() {
        let c = ErrorCode::new("busy", vec![]);
        assert_eq!(serde_json::to_string(&c).unwrap(), r#"{"code":"busy","args":[]}"#);
    }
}
