//! `openings --compare-rules`: every opening of one size under both pass
//! rules, from the openings book: the counts by value under each rule,
//! how many openings change value and in which direction (by 乙's order
//! of preference, [`Value::rank`]), the table of values under one rule
//! against the other, and the first few openings of the seeded random
//! order that are fair (both-win) under one rule and not the other.

use std::time::Instant;

use anyhow::{Result, bail};
use chaosclock::book::{Book, Section};
use chaosclock::draw::Draw;
use chaosclock::{PassRule, Value};
use serde::Serialize;

use super::stats::{pad_left, pad_right};
use crate::cli::high::OpeningsHigh;
use crate::cmd::code_map::CodeMap;
use crate::cmd::{print, print_json, thousands};

/// Openings listed of each kind of fair start under one rule only.
const EXAMPLES: usize = 3;

/// The values in the order of the tables (code 4 first).
const ORDER: [Value; 5] =
    [Value::SelfWin, Value::BothWin, Value::BothLose, Value::SelfLose, Value::NoResult];

/// `--compare-rules --json`.
#[derive(Debug, Serialize)]
struct CompareJson {
    slots: u8,
    openings: u64,
    /// Openings per value under `always`.
    always: CodeMap<u64>,
    /// Openings per value under `when-stuck`.
    when_stuck: CodeMap<u64>,
    /// `changes[a][w]`: openings of value code `a` under `always` and `w`
    /// under `when-stuck`.
    changes: [[u64; 5]; 5],
    /// Openings whose value changes.
    changed: u64,
    /// Of them, those better for 乙 under `when-stuck`.
    better_when_stuck: u64,
    /// Both-win under `always` only, the first few of the seeded order.
    fair_always_only: Vec<String>,
    /// Both-win under `when-stuck` only.
    fair_when_stuck_only: Vec<String>,
    seed: u64,
    seconds: f64,
}

/// The section of `n` slots under `rule`, or the error that says it is
/// not in this build.
fn section(n: u8, rule: PassRule) -> Result<&'static Section> {
    match Book::embedded()?.section(n, rule) {
        Some(s) => Ok(s),
        None => bail!(
            "the openings book of this build has no {n}-slot section for pass rule {} yet (docs/book.md): the rules cannot be compared at {n} slots",
            rule.name()
        ),
    }
}

/// Compares the rules at `args.slots` and prints the result.
///
/// # Errors
/// The book has no section of that size under one of the rules.
pub(super) fn run(args: &OpeningsHigh) -> Result<()> {
    let start = Instant::now();
    let n = args.slots.get();
    let (a, w) = (section(n, PassRule::Always)?, section(n, PassRule::WhenStuck)?);
    let (av, wv) = rayon::join(|| a.all_values(), || w.all_values());
    let mut changes = [[0u64; 5]; 5];
    av.iter().zip(&wv).for_each(|(&x, &y)| changes[usize::from(x)][usize::from(y)] += 1);
    let value = |c: usize| Value::from_code(c as u8).expect("a value code");
    let (mut changed, mut better) = (0, 0);
    for (x, row) in changes.iter().enumerate() {
        for (y, &k) in row.iter().enumerate() {
            if x != y {
                changed += k;
                if value(y).rank() > value(x).rank() {
                    better += k;
                }
            }
        }
    }
    // Fair under one rule only: the first few of the seeded order.
    let (mut fair_a, mut fair_w) = (Vec::new(), Vec::new());
    let both = changes[3].iter().sum::<u64>() - changes[3][3];
    let wanted = |k: u64| (k as usize).min(EXAMPLES);
    let want_a = wanted(both);
    let want_w = wanted((0..5).map(|x| changes[x][3]).sum::<u64>() - changes[3][3]);
    for pos in Draw::new(n, args.seed)? {
        if fair_a.len() >= want_a && fair_w.len() >= want_w {
            break;
        }
        let (x, y) = (a.value(pos.board()), w.value(pos.board()));
        if x == Some(Value::BothWin) && y != x && fair_a.len() < want_a {
            fair_a.push(format!("{pos} ({})", y.map_or(0, Value::code)));
        }
        if y == Some(Value::BothWin) && y != x && fair_w.len() < want_w {
            fair_w.push(format!("{pos} ({})", x.map_or(0, Value::code)));
        }
    }
    let counts = |s: &Section| CodeMap::from_fn(|c| s.entry().counts[c]);
    let out = CompareJson {
        slots: n,
        openings: a.entry().openings,
        always: counts(a),
        when_stuck: counts(w),
        changes,
        changed,
        better_when_stuck: better,
        fair_always_only: fair_a,
        fair_when_stuck_only: fair_w,
        seed: args.seed,
        seconds: start.elapsed().as_secs_f64(),
    };
    if args.json { print_json(&out) } else { print(&to_text(&out, a, w)) }
}

/// The comparison as text.
fn to_text(c: &CompareJson, a: &Section, w: &Section) -> String {
    let total = c.openings as f64;
    let pct = |k: u64| 100.0 * k as f64 / total;
    let mut out = format!(
        "{} slots: all {} openings under both pass rules, read from the openings book\ntime: {:.1} s\n\n{}      always        %    when-stuck        %",
        c.slots,
        thousands(c.openings),
        c.seconds,
        pad_right("value for 乙 (to move)", 22),
    );
    for v in ORDER {
        let (x, y) = (a.entry().counts[v.code() as usize], w.entry().counts[v.code() as usize]);
        out.push_str(&format!(
            "\n{} {:>11} {:>7.2}% {:>13} {:>7.2}%",
            pad_right(&v.to_string(), 22),
            thousands(x),
            pct(x),
            thousands(y),
            pct(y)
        ));
    }
    out.push_str(&format!(
        "\n\nchanged: {} openings ({:.2}%): {} better for 乙 under when-stuck, {} worse\n\nalways (rows) against when-stuck (columns):\n{}",
        thousands(c.changed),
        pct(c.changed),
        thousands(c.better_when_stuck),
        thousands(c.changed - c.better_when_stuck),
        pad_right("", 22)
    ));
    for v in ORDER {
        // The code and the Chinese name: "4 己赢".
        let name = v.to_string();
        let short = name.split(' ').take(2).collect::<Vec<_>>().join(" ");
        out.push_str(&format!(" {}", pad_left(&short, 11)));
    }
    for x in ORDER {
        out.push_str(&format!("\n{}", pad_right(&x.to_string(), 22)));
        for y in ORDER {
            out.push_str(&format!(
                " {:>11}",
                thousands(c.changes[x.code() as usize][y.code() as usize])
            ));
        }
    }
    let list = |l: &[String]| if l.is_empty() { "none".to_string() } else { l.join(", ") };
    out.push_str(&format!(
        "\n\nboth-win under always only (value code under when-stuck), seed {}: {}\nboth-win under when-stuck only (value code under always): {}",
        c.seed,
        list(&c.fair_always_only),
        list(&c.fair_when_stuck_only)
    ));
    out
}
