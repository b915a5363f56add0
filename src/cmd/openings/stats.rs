//! `chaosclock openings --stats`: the strategy advice of the game's
//! documentation checked against exact values, and `--plot`, the same
//! groups drawn as a stacked bar chart (SVG written by hand).
//!
//! Every question splits the openings into groups by a property of the
//! starting board and counts the values for 乙 (to move) in each group:
//!
//! 1. `yi-on-odd`: how many of 乙's (even) pieces stand on odd slots (the
//!    advice: more is worse for 乙). Such a piece can never walk home: it
//!    moves an even number of slots.
//! 2. `piece-1` and `piece-last`: how many walks 甲's piece 1 and piece
//!    N − 1 (11 on the standard board) need to reach their own slots (the
//!    advice: they are hard pieces for 甲). Both visit every slot: 1 steps
//!    one slot clockwise, N − 1 one slot counter-clockwise. Over all
//!    openings the two tables are equal: mirroring the board (piece p on
//!    slot s to piece N − p on slot N − s) maps openings to openings and
//!    games to games. More generally, multiplying every piece and slot
//!    number by a u coprime to N (5, 7 or 11 for 12 slots) is a symmetry of
//!    the game that maps piece 1 to piece u and keeps the walks: grouped by
//!    walks, every 甲 piece coprime to N gives the table of piece 1 (over
//!    all openings). `pieces-1-and-last` groups by the walks 1 and N − 1
//!    need together.
//! 3. `way-back`: whether every piece of a side has a way back to its slot
//!    by walking: piece p on slot s reaches slot p iff (p − s) mod N is a
//!    multiple of gcd(p, N). **Decision:** piece N always has one (walking
//!    it takes it off the board, into its owner's hand, from where it is
//!    placed on its slot), otherwise 乙 would never qualify.

use chaosclock::{Position, Value};
use serde::Serialize;

use super::draw::wilson;
use crate::cmd::code_map::CodeMap;
use crate::cmd::thousands;

/// The values in the order of the tables and the plot: best for 乙 first.
pub const ORDER: [Value; 5] =
    [Value::SelfWin, Value::BothWin, Value::BothLose, Value::SelfLose, Value::NoResult];

/// One group of openings and its counts per value code.
#[derive(Debug, Clone)]
pub struct Group {
    /// What the openings of the group share, for people.
    pub label: String,
    /// Openings per value code (index = code).
    pub counts: [u64; 5],
}

impl Group {
    /// The number of openings in the group.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// One question: a way to group the openings.
#[derive(Debug, Clone)]
pub struct Question {
    /// A short name used in JSON.
    pub name: &'static str,
    /// The question, for people.
    pub title: String,
    /// The groups, in their natural order (empty ones are left out when
    /// printed).
    pub groups: Vec<Group>,
    /// The group of an opening.
    group_of: fn(&Position) -> usize,
}

/// The tallies of all questions.
#[derive(Debug, Clone)]
pub struct Stats {
    /// Slots.
    pub n: u8,
    /// The questions, in the order above.
    pub questions: Vec<Question>,
}

/// gcd of two numbers.
fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The walks piece `p` (on the board of `pos`) needs to reach its own slot,
/// if it can get there by walking at all.
fn walks_home(pos: &Position, p: u8) -> Option<u8> {
    let n = pos.slots();
    let s = pos.slot_of(p)?;
    let (n, s, p) = (u16::from(n), u16::from(s), u16::from(p));
    (0..n).find(|&d| (s - 1 + d * p) % n + 1 == p).map(|d| d as u8)
}

/// Whether piece `p` has a way back to its slot by walking (the decision
/// for piece N is in the module docs).
fn has_way_back(pos: &Position, p: u8) -> bool {
    let n = pos.slots();
    if p == n {
        return true;
    }
    let Some(s) = pos.slot_of(p) else { return true };
    (i16::from(p) - i16::from(s)).rem_euclid(i16::from(n)) % i16::from(gcd(p, n)) == 0
}

/// The number of 乙's pieces on odd slots.
fn yi_on_odd(pos: &Position) -> usize {
    pos.board().iter().enumerate().filter(|&(i, &p)| p % 2 == 0 && p != 0 && i % 2 == 0).count()
}

fn piece_1(pos: &Position) -> usize {
    walks_home(pos, 1).map_or(0, usize::from)
}

fn piece_last(pos: &Position) -> usize {
    walks_home(pos, pos.slots() - 1).map_or(0, usize::from)
}

/// Walks per group of `both_walks`.
const BIN: usize = 3;

/// The walks pieces 1 and N − 1 need together, in bins of [`BIN`] from 2.
fn both_walks(pos: &Position) -> usize {
    (piece_1(pos) + piece_last(pos)).saturating_sub(2) / BIN
}

/// 0: both sides have a way back for every piece, 1: only 甲, 2: only 乙,
/// 3: neither.
fn way_back(pos: &Position) -> usize {
    let all =
        |odd: bool| (1..=pos.slots()).filter(|p| (p % 2 == 1) == odd).all(|p| has_way_back(pos, p));
    match (all(true), all(false)) {
        (true, true) => 0,
        (true, false) => 1,
        (false, true) => 2,
        (false, false) => 3,
    }
}

impl Stats {
    /// Empty tallies for `n` slots.
    pub fn new(n: u8) -> Stats {
        let groups = |labels: Vec<String>| {
            labels.into_iter().map(|label| Group { label, counts: [0; 5] }).collect()
        };
        let last = n - 1;
        let walks = |k: u8| if k == 1 { "1 walk".to_string() } else { format!("{k} walks") };
        let mut questions = vec![
            Question {
                name: "yi-on-odd",
                title: "(1) 乙's pieces on odd slots (advice: more is worse for 乙)".to_string(),
                groups: groups((0..=n / 2).map(|k| format!("{k} on odd")).collect()),
                group_of: yi_on_odd,
            },
            Question {
                name: "piece-1",
                title: "(2a) walks 甲's piece 1 needs to reach slot 1 (advice: a hard piece)"
                    .to_string(),
                groups: groups((0..n).map(walks).collect()),
                group_of: piece_1,
            },
            Question {
                name: "piece-last",
                title: format!(
                    "(2b) walks 甲's piece {last} needs to reach slot {last} (the mirror image of 1)"
                ),
                groups: groups((0..n).map(walks).collect()),
                group_of: piece_last,
            },
        ];
        let bins = (2 * usize::from(n) - 4) / BIN + 1;
        questions.push(Question {
            name: "pieces-1-and-last",
            title: format!("(2c) walks 甲's pieces 1 and {last} need together"),
            groups: groups(
                (0..bins)
                    .map(|b| {
                        let lo = 2 + BIN * b;
                        let hi = (lo + BIN - 1).min(2 * usize::from(n) - 2);
                        if lo == hi { format!("{lo} walks") } else { format!("{lo}-{hi} walks") }
                    })
                    .collect(),
            ),
            group_of: both_walks,
        });
        questions.extend([Question {
            name: "way-back",
            title: "(3) every own piece has a way back to its slot by walking".to_string(),
            groups: groups(vec![
                "甲 yes, 乙 yes".to_string(),
                "甲 yes, 乙 no".to_string(),
                "甲 no, 乙 yes".to_string(),
                "甲 no, 乙 no".to_string(),
            ]),
            group_of: way_back,
        }]);
        Stats { n, questions }
    }

    /// Counts one opening with value `value` for 乙.
    pub fn add(&mut self, pos: &Position, value: Value) {
        for q in &mut self.questions {
            let g = (q.group_of)(pos);
            q.groups[g].counts[value.code() as usize] += 1;
        }
    }

    /// The groups of `q` that hold openings.
    fn shown(q: &Question) -> impl Iterator<Item = &Group> {
        q.groups.iter().filter(|g| g.total() > 0)
    }

    /// The tables, one per question.
    pub fn to_text(&self) -> String {
        let mut t = String::new();
        for q in &self.questions {
            t.push_str(&format!("\n{}\n", q.title));
            t.push_str(&format!("  {} {:>11}", pad_right("group", 16), "openings"));
            for v in ORDER {
                t.push_str(&pad_left(&format!("{} {}", v.code(), v.chinese()), 10));
            }
            t.push('\n');
            for g in Self::shown(q) {
                t.push_str(&format!("  {} {:>11}", pad_right(&g.label, 16), thousands(g.total())));
                for v in ORDER {
                    let pct = 100.0 * g.counts[v.code() as usize] as f64 / g.total() as f64;
                    t.push_str(&format!("  {pct:>7.2}%"));
                }
                t.push('\n');
            }
        }
        t.pop();
        t
    }

    /// The JSON form: one entry per question, its non-empty groups with
    /// counts and percentages (and 95% intervals when `sampled`).
    pub fn to_json(&self, sampled: bool) -> Vec<QuestionJson> {
        self.questions
            .iter()
            .map(|q| QuestionJson {
                question: q.name,
                title: q.title.clone(),
                groups: Self::shown(q)
                    .map(|g| GroupJson {
                        group: g.label.clone(),
                        openings: g.total(),
                        counts: CodeMap::from_fn(|c| g.counts[c]),
                        percent: CodeMap::from_fn(|c| {
                            100.0 * g.counts[c] as f64 / g.total() as f64
                        }),
                        interval: sampled.then(|| {
                            CodeMap::from_fn(|c| {
                                let (lo, hi) = wilson(g.counts[c], g.total());
                                [100.0 * lo, 100.0 * hi]
                            })
                        }),
                    })
                    .collect(),
            })
            .collect()
    }
}

/// One group in JSON.
#[derive(Debug, Serialize)]
pub struct GroupJson {
    group: String,
    openings: u64,
    counts: CodeMap<u64>,
    percent: CodeMap<f64>,
    /// 95% Wilson intervals in percent, for samples only.
    #[serde(skip_serializing_if = "Option::is_none")]
    interval: Option<CodeMap<[f64; 2]>>,
}

/// One question in JSON.
#[derive(Debug, Serialize)]
pub struct QuestionJson {
    question: &'static str,
    title: String,
    groups: Vec<GroupJson>,
}

/// The display width of `s` in a terminal (CJK characters take two
/// columns).
pub fn width(s: &str) -> usize {
    s.chars().map(|c| if (c as u32) >= 0x1100 { 2 } else { 1 }).sum()
}

/// `s` padded with spaces on the right to `w` terminal columns.
pub fn pad_right(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width(s))))
}

/// `s` padded with spaces on the left to `w` terminal columns.
pub fn pad_left(s: &str, w: usize) -> String {
    format!("{}{s}", " ".repeat(w.saturating_sub(width(s))))
}

/// The colour of each value in the plot.
fn colour(v: Value) -> &'static str {
    match v {
        Value::SelfWin => "#1b9e77",
        Value::BothWin => "#4a7fd0",
        Value::BothLose => "#e6a23c",
        Value::SelfLose => "#d6404e",
        Value::NoResult => "#9a9a9a",
    }
}

/// Escapes text for SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The stats as a stacked bar chart: one horizontal bar per group, its
/// length split by the share of each value, with the percentages written on
/// the segments that are wide enough, a 0–100% axis under each question and
/// a legend of the five values. `subtitle` says which openings were counted.
pub fn to_svg(stats: &Stats, subtitle: &str) -> String {
    const LEFT: f64 = 190.0;
    const BAR_W: f64 = 620.0;
    const BAR_H: f64 = 20.0;
    const STEP: f64 = 26.0;
    const WIDTH: f64 = LEFT + BAR_W + 40.0;
    let mut body = String::new();
    let mut y = 0.0;
    let font =
        r#"font-family="Noto Sans CJK SC, Source Han Sans SC, WenQuanYi Micro Hei, sans-serif""#;
    // Title and legend.
    body.push_str(&format!(
        r##"<text x="20" y="28" font-size="18" font-weight="bold">Chaos Clock, {} slots: value of the opening for 乙 (even, moves first)</text>
<text x="20" y="50" font-size="13" fill="#444">{}; each bar is one group (openings in brackets), split by value</text>
"##,
        stats.n,
        esc(subtitle)
    ));
    y += 66.0;
    let mut x = 20.0;
    for v in ORDER {
        let label = format!("{} {} {}", v.code(), v.chinese(), v.label());
        body.push_str(&format!(
            r#"<rect x="{x}" y="{y}" width="14" height="14" fill="{}"/><text x="{}" y="{}" font-size="13">{}</text>
"#,
            colour(v),
            x + 19.0,
            y + 12.0,
            esc(&label)
        ));
        x += 26.0 + 7.5 * width(&label) as f64;
    }
    y += 30.0;
    for q in &stats.questions {
        body.push_str(&format!(
            r#"<text x="20" y="{}" font-size="14" font-weight="bold">{}</text>
"#,
            y + 14.0,
            esc(&q.title)
        ));
        y += 26.0;
        let top = y;
        for g in Stats::shown(q) {
            let total = g.total() as f64;
            body.push_str(&format!(
                r#"<text x="{}" y="{}" font-size="12" text-anchor="end">{} ({})</text>
"#,
                LEFT - 8.0,
                y + 14.5,
                esc(&g.label),
                thousands(g.total())
            ));
            let mut x = LEFT;
            for v in ORDER {
                let share = g.counts[v.code() as usize] as f64 / total;
                if share == 0.0 {
                    continue;
                }
                let w = share * BAR_W;
                body.push_str(&format!(
                    r#"<rect x="{x:.2}" y="{y}" width="{w:.2}" height="{BAR_H}" fill="{}"><title>{} {}: {:.2}%</title></rect>
"#,
                    colour(v),
                    esc(&g.label),
                    v.label(),
                    100.0 * share
                ));
                if w >= 34.0 {
                    body.push_str(&format!(
                        r#"<text x="{:.2}" y="{}" font-size="11" fill="white" text-anchor="middle">{:.0}%</text>
"#,
                        x + w / 2.0,
                        y + 14.5,
                        100.0 * share
                    ));
                }
                x += w;
            }
            y += STEP;
        }
        // The axis: a line under the bars with ticks every 25%.
        body.push_str(&format!(
            r##"<line x1="{LEFT}" y1="{top}" x2="{LEFT}" y2="{y}" stroke="#333"/><line x1="{LEFT}" y1="{y}" x2="{}" y2="{y}" stroke="#333"/>
"##,
            LEFT + BAR_W
        ));
        for k in 0..=4 {
            let tx = LEFT + BAR_W * f64::from(k) / 4.0;
            body.push_str(&format!(
                r##"<line x1="{tx}" y1="{y}" x2="{tx}" y2="{}" stroke="#333"/><text x="{tx}" y="{}" font-size="11" text-anchor="middle">{}%</text>
"##,
                y + 5.0,
                y + 18.0,
                25 * k
            ));
        }
        y += 36.0;
    }
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{y}" viewBox="0 0 {WIDTH} {y}" {font}>
<rect width="100%" height="100%" fill="white"/>
{body}</svg>
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> Position {
        text.parse().unwrap()
    }

    #[test]
    fn features_of_the_documented_opening() {
        // 2,8,11,9,4,12,10,6,5,7,1,3: slots 1..12.
        let p = pos("2,8,11,9,4,12,10,6,5,7,1,3");
        // Even pieces on odd slots: 2 (slot 1), 4 (slot 5), 10 (slot 7).
        assert_eq!(yi_on_odd(&p), 3);
        // Piece 1 on slot 11 walks 11 -> 12 -> 1: 2 walks.
        assert_eq!(walks_home(&p, 1), Some(2));
        // Piece 11 on slot 3 walks 3 -> 2 -> 1 -> 12 -> 11: 4 walks.
        assert_eq!(walks_home(&p, 11), Some(4));
        // Piece 3 on slot 12: 12 -> 3, yes; piece 9 on slot 4: 4 -> 1 -> 10
        // -> 7 -> 4, no.
        assert!(has_way_back(&p, 3) && !has_way_back(&p, 9));
        // Piece 6 on slot 8: 8 -> 2 -> 8, no; piece 12 always.
        assert!(!has_way_back(&p, 6) && has_way_back(&p, 12));
        assert_eq!(way_back(&p), 3);
        assert_eq!(walks_home(&p, 9), None);
    }

    #[test]
    fn tallies_and_svg() {
        let mut s = Stats::new(4);
        s.add(&pos("2,1,4,3"), Value::BothWin);
        s.add(&pos("3,4,1,2"), Value::SelfLose);
        assert!(s.questions.iter().all(|q| q.groups.iter().map(Group::total).sum::<u64>() == 2));
        let text = s.to_text();
        assert!(text.contains("(3) every own piece"), "{text}");
        let svg = to_svg(&s, "test");
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("己赢") && svg.contains("100%"));
    }
}
