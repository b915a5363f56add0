//! Text drawings of a position for people: the clock face ([`Dial`]) and a
//! full description with hands, side to move, banned piece and the state of
//! the game ([`Diagram`]).
//!
//! The dial puts slot N at the top and the slots clockwise like the hours of
//! a clock (for N = 12 slot k sits where hour k does). Each slot shows
//! `slot:piece`, with `[n]` for a fixed piece and `.` for an empty slot. The drawing is
//! plain ASCII; only [`Diagram`]'s labels use the Chinese side names.

use std::fmt;

use crate::position::{Last, Position};
use crate::side::Side;

/// Half height and half width (in characters) of the dial for each board
/// size, chosen so that no two slots share a row segment.
fn radii(n: u8) -> (f64, f64) {
    match n {
        0..=4 => (2.0, 6.0),
        5..=6 => (2.0, 7.0),
        7..=8 => (3.0, 8.0),
        _ => (4.0, 10.0),
    }
}

/// The text drawn for slot `slot`: its piece, `[n]` if fixed, `.` if empty.
fn cell(pos: &Position, slot: u8) -> String {
    match pos.piece_at(slot) {
        None => ".".to_string(),
        Some(p) if p == slot => format!("[{p}]"),
        Some(p) => p.to_string(),
    }
}

/// The pieces in `side`'s hand, ascending.
pub fn hand(pos: &Position, side: Side) -> Vec<u8> {
    let mask = pos.hand_mask(side);
    (1..=pos.slots()).filter(|&p| mask & (1 << p) != 0).collect()
}

/// The clock face of a position, drawn over several lines (no final
/// newline).
#[derive(Debug, Clone, Copy)]
pub struct Dial<'a> {
    pos: &'a Position,
}

impl<'a> Dial<'a> {
    /// The dial of `pos`.
    pub fn new(pos: &'a Position) -> Dial<'a> {
        Dial { pos }
    }
}

impl fmt::Display for Dial<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.pos.slots();
        let (ry, rx) = radii(n);
        // A text is at most 7 characters wide ("12:[12]") and is centred on
        // its point, so 4 columns of margin on each side keep it on the grid.
        let cx = rx as usize + 4;
        let rows = 2 * ry as usize + 1;
        let mut grid = vec![vec![b' '; 2 * cx + 1]; rows];
        for slot in 1..=n {
            let angle = std::f64::consts::TAU * f64::from(slot) / f64::from(n);
            let x = (cx as f64 + rx * angle.sin()).round() as usize;
            let y = (ry - ry * angle.cos()).round() as usize;
            let text = format!("{slot}:{}", cell(self.pos, slot));
            let start = x - text.len() / 2;
            grid[y][start..start + text.len()].copy_from_slice(text.as_bytes());
        }
        for (i, row) in grid.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            let line = std::str::from_utf8(row).expect("the dial grid is ASCII");
            f.write_str(line.trim_end())?;
        }
        Ok(())
    }
}

/// A full description of a position: the [`Dial`], a legend, both hands, the
/// side to move, the banned piece and whether (and how) the game is over.
/// Several lines, no final newline.
#[derive(Debug, Clone, Copy)]
pub struct Diagram<'a> {
    pos: &'a Position,
}

impl<'a> Diagram<'a> {
    /// The diagram of `pos`.
    pub fn new(pos: &'a Position) -> Diagram<'a> {
        Diagram { pos }
    }
}

/// Pieces as `1 3 5`, or `-` for none.
fn list(pieces: &[u8]) -> String {
    if pieces.is_empty() {
        return "-".to_string();
    }
    pieces.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

impl fmt::Display for Diagram<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = self.pos;
        let n = pos.slots();
        writeln!(f, "{}", Dial::new(pos))?;
        writeln!(
            f,
            "(slot:piece, slots 1-{n} clockwise, slot {n} at the top; [n] fixed, . empty)"
        )?;
        writeln!(f, "position: {pos}")?;
        writeln!(
            f,
            "hands:    {}: {}   {}: {}",
            Side::Jia.label(),
            list(&hand(pos, Side::Jia)),
            Side::Yi.label(),
            list(&hand(pos, Side::Yi))
        )?;
        writeln!(f, "to move:  {}", pos.side().label())?;
        let banned = match pos.last() {
            Last::Piece(m) => format!("{m} (walked on the previous ply)"),
            Last::None => "none".to_string(),
            Last::Pass => {
                "none (the previous ply was a pass: another pass ends the game)".to_string()
            }
            Last::DoublePass => "none (the previous two plies were passes)".to_string(),
        };
        writeln!(f, "banned:   {banned}")?;
        match pos.outcome() {
            Some(outcome) => write!(f, "game:     over, {outcome}"),
            None if pos.is_complete(pos.side().other()) => write!(
                f,
                "game:     goes on; {} is complete, {} must complete on this ply",
                pos.side().other().label(),
                pos.side().label()
            ),
            None => write!(f, "game:     goes on"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    #[test]
    fn draws_the_opening_like_a_clock() {
        let p = pos("2,8,11,9,4,12,10,6,5,7,1,3");
        let want = [
            "            12:3",
            "       11:1       1:2",
            "   10:7               2:8",
            "",
            "   9:5                3:11",
            "",
            "    8:6               4:9",
            "       7:10       5:4",
            "            6:12",
        ];
        assert_eq!(Dial::new(&p).to_string(), want.join("\n"));
    }

    #[test]
    fn marks_fixed_and_empty_slots() {
        let p = pos("1,0,3,0");
        let want = ["         4:.", "", "  3:[3]       1:[1]", "", "         2:."];
        assert_eq!(Dial::new(&p).to_string(), want.join("\n"));
    }

    #[test]
    fn every_size_draws_every_slot() {
        for s in [
            "2,1,4,3",
            "2,1,4,3,6,5",
            "2,1,4,3,6,5,8,7",
            "2,1,4,3,6,5,8,7,10,9",
            "1,2,3,4,5,6,7,8,9,10,11,12",
        ] {
            let p = pos(s);
            let text = Dial::new(&p).to_string();
            let mut found: Vec<(u8, u8)> = text
                .split_whitespace()
                .map(|t| {
                    let (slot, piece) = t.split_once(':').unwrap();
                    (slot.parse().unwrap(), piece.trim_matches(['[', ']']).parse().unwrap())
                })
                .collect();
            found.sort();
            let want: Vec<(u8, u8)> =
                (1..=p.slots()).map(|k| (k, p.piece_at(k).unwrap_or(0))).collect();
            assert_eq!(found, want, "{s}:\n{text}");
        }
    }

    #[test]
    fn diagram_lists_hands_and_state() {
        let p = pos("1,2,3,0,10,6,0,8,9,7,11,12;0;0");
        let text = Diagram::new(&p).to_string();
        assert!(text.contains("hands:    甲 (odd): 5   乙 (even): 4\n"), "{text}");
        assert!(text.contains("to move:  甲 (odd)"), "{text}");
        assert!(text.ends_with("game:     goes on"), "{text}");
        assert_eq!(hand(&p, Side::Yi), [4]);
    }
}
