//! `chaosclock openings --depths`: how long the openings last under best
//! play, per value for 乙 (to move). A depth is the number of plies to the
//! end of the game under best play, as `solve` counts it (docs/rules.md):
//! the winner ends as fast as it can, the loser lasts as long as it can,
//! both-win and both-lose by the shortest way; no-result has no end and
//! depth 0.
//!
//! Depths come from complete tables with depths or from the solver (a
//! sample); the openings book holds values only.

use serde::Serialize;

use super::stats::{ORDER, pad_right};
use crate::cmd::thousands;
use chaosclock::{Position, Value};

/// The openings counted per value and depth, and per value the first
/// opening seen with the largest depth.
#[derive(Debug, Clone, Default)]
pub struct Depths {
    /// Per value code, the openings per depth (index: depth).
    counts: [Vec<u64>; 5],
    /// Per value code, the largest depth and the first opening with it.
    longest: [Option<(u16, Position)>; 5],
}

impl Depths {
    /// Counts `pos`, of value `value` and depth `depth`.
    pub fn add(&mut self, pos: &Position, value: Value, depth: u16) {
        let code = value.code() as usize;
        let counts = &mut self.counts[code];
        let d = usize::from(depth);
        if counts.len() <= d {
            counts.resize(d + 1, 0);
        }
        counts[d] += 1;
        if self.longest[code].is_none_or(|(max, _)| depth > max) {
            self.longest[code] = Some((depth, *pos));
        }
    }

    /// The summary of value code `code`, if any opening has it.
    fn summary(&self, code: usize) -> Option<Summary> {
        let counts = &self.counts[code];
        let total: u64 = counts.iter().sum();
        let (max, longest) = self.longest[code]?;
        let min = counts.iter().position(|&c| c > 0)? as u16;
        let sum: u64 = counts.iter().enumerate().map(|(d, &c)| d as u64 * c).sum();
        // The lower median: the depth of the opening at rank (total - 1) / 2.
        let mut seen = 0;
        let median = counts
            .iter()
            .position(|&c| {
                seen += c;
                seen > (total - 1) / 2
            })
            .expect("total is the sum") as u16;
        Some(Summary {
            value: code as u8,
            openings: total,
            min,
            median,
            mean: sum as f64 / total as f64,
            max,
            longest: longest.to_string(),
            histogram: counts.clone(),
        })
    }

    /// The table `openings --depths` prints.
    pub fn to_text(&self) -> String {
        let mut out =
            String::from("\ndepth (plies to the end under best play) by value for 乙 (to move):\n");
        out.push_str(&format!(
            "{}{:>11}{:>5}{:>8}{:>8}{:>5}  one of the longest",
            pad_right("value", 22),
            "openings",
            "min",
            "median",
            "mean",
            "max"
        ));
        for v in ORDER {
            let c = v.code() as usize;
            let Some(s) = self.summary(c) else { continue };
            let label = format!("{} {} {}", v.code(), v.chinese(), v.label());
            out.push_str(&format!(
                "\n{}{:>11}{:>5}{:>8}{:>8.2}{:>5}  {}",
                pad_right(&label, 22),
                thousands(s.openings),
                s.min,
                s.median,
                s.mean,
                s.max,
                s.longest
            ));
        }
        out
    }

    /// The JSON of `openings --depths --json`: one entry per value some
    /// opening has, best value for 乙 first.
    pub fn to_json(&self) -> Vec<Summary> {
        ORDER.iter().filter_map(|v| self.summary(v.code() as usize)).collect()
    }
}

/// The depths of the openings of one value.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The value code.
    value: u8,
    /// Openings of this value.
    openings: u64,
    min: u16,
    /// The lower median.
    median: u16,
    mean: f64,
    max: u16,
    /// The first opening seen with depth `max` (in the order the openings
    /// were read: the tables' order, or the sample's).
    longest: String,
    /// Openings per depth, from depth 0 to `max`.
    histogram: Vec<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_count_right() {
        let a: Position = "1,2,3,4".parse().unwrap();
        let b: Position = "2,1,3,4".parse().unwrap();
        let mut d = Depths::default();
        for (pos, depth) in [(&a, 5), (&b, 9), (&a, 3), (&a, 9)] {
            d.add(pos, Value::SelfWin, depth);
        }
        let s = d.summary(Value::SelfWin.code() as usize).unwrap();
        assert_eq!((s.openings, s.min, s.median, s.max), (4, 3, 5, 9));
        assert!((s.mean - 6.5).abs() < 1e-9);
        assert_eq!(s.longest, b.to_string(), "the first with the largest depth");
        assert_eq!(s.histogram, [0, 0, 0, 1, 0, 1, 0, 0, 0, 2]);
        assert!(d.summary(Value::BothWin.code() as usize).is_none());
        let text = d.to_text();
        assert!(text.contains(&b.to_string()) && !text.contains("both-win"), "{text}");
    }
}
