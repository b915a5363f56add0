//! How the binary shows the library's answers to people and programs:
//! the text and the JSON that the commands print and the server answers
//! with, so that `query`, `solve`, `play --analyse` and `serve` say the
//! same thing the same way. Nothing here reads tables or solves.

pub mod answer;
pub mod moves;
pub mod puzzle;
pub mod review;

use chaosclock::{Move, Side};

/// The piece column of a move in a move list: the piece, or nothing for a
/// pass (whose kind column already says `pass`).
pub fn piece_column(mv: Move) -> String {
    match mv {
        Move::Walk(p) | Move::Place(p) => p.to_string(),
        Move::Pass => String::new(),
    }
}

/// The short Chinese name of a side: 甲 or 乙.
pub fn short_name(side: Side) -> &'static str {
    match side {
        Side::Jia => "甲",
        Side::Yi => "乙",
    }
}

/// `n` with commas between groups of three digits.
pub fn thousands(n: impl Into<u64>) -> String {
    let digits = n.into().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
