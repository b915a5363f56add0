//! `chaosclock solve`: solves a position exactly and prints its value and
//! depth, every legal move with its score, a line of best play to the end,
//! and statistics (states, signatures, speed, time, peak memory).
//!
//! Values and depths are the solver's ([`chaosclock::solve`]), always from
//! the view of the side to move in the position given; a move's depth counts
//! the move itself. The best moves are those whose score (value and depth)
//! equals the best one's; a move "keeps the value" if its value equals the
//! best one's, whatever its depth.
//!
//! Nothing is written to disk, so an interrupt (Ctrl-C) simply ends the
//! program.

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::{Result, bail};
use chaosclock::solve::{Score, ScoredMove, Solution, solve};
use chaosclock::{Move, Outcome, PassRule, Position, Side, Value};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use serde::Serialize;

use crate::cli::SolveArgs;
use crate::cmd::{load_position, print, print_json, short_name};

/// One legal move in the JSON output.
#[derive(Debug, Serialize)]
struct MoveJson {
    /// The move as written: a piece number or `pass`.
    #[serde(rename = "move")]
    text: String,
    /// `walk`, `place` or `pass`.
    kind: &'static str,
    /// Value code (0..=4) for the mover.
    value: u8,
    label: &'static str,
    /// Plies to the end, this move included; `null` for no-result.
    depth: Option<u16>,
    /// Its score equals the best move's.
    best: bool,
    /// Its value equals the best move's.
    keeps_value: bool,
    /// The position it leads to.
    position: String,
}

/// The JSON output of `solve`.
#[derive(Debug, Serialize)]
struct SolveJson {
    position: String,
    side: &'static str,
    pass_rule: &'static str,
    /// How the game is over in the position, if it is.
    over: Option<&'static str>,
    value: u8,
    label: &'static str,
    depth: Option<u16>,
    moves: Vec<MoveJson>,
    line: Vec<String>,
    states: usize,
    double_passes: usize,
    signatures: usize,
    /// Enumeration plus solving.
    seconds: f64,
    enumerate_seconds: f64,
    solve_seconds: f64,
    states_per_second: f64,
    /// `null` when the system does not report it.
    peak_memory_bytes: Option<u64>,
}

/// Everything `solve` reports about one position.
struct Report {
    pos: Position,
    rule: PassRule,
    score: Score,
    moves: Vec<ScoredMove>,
    line: Vec<Move>,
    /// Where the line ends (the position itself for an empty line).
    end: Position,
    states: usize,
    double_passes: usize,
    signatures: usize,
    timing: (Duration, Duration),
    peak_memory: Option<u64>,
}

impl Report {
    fn new(pos: Position, rule: PassRule, solution: &Solution) -> Report {
        let score = solution.score(&pos).expect("the root of a solve is among its reached states");
        let line = solution.line(&pos);
        let end = line.iter().fold(pos, |p, &m| p.play_unchecked(m));
        Report {
            pos,
            rule,
            score,
            moves: solution.moves(&pos),
            line,
            end,
            states: solution.states(),
            double_passes: solution.double_passes(),
            signatures: solution.signatures(),
            timing: solution.timing,
            peak_memory: peak_memory(),
        }
    }

    fn seconds(&self) -> f64 {
        (self.timing.0 + self.timing.1).as_secs_f64()
    }

    fn states_per_second(&self) -> f64 {
        let seconds = self.seconds();
        if seconds > 0.0 { self.states as f64 / seconds } else { 0.0 }
    }

    /// Whether `m` is a best move: the same score as the first (best) one.
    fn is_best(&self, m: &ScoredMove) -> bool {
        self.moves.first().is_some_and(|b| b.score == m.score)
    }

    /// Whether `m` has the best move's value.
    fn keeps_value(&self, m: &ScoredMove) -> bool {
        self.moves.first().is_some_and(|b| b.score.value == m.score.value)
    }
}

/// Solves the position given in `args` under `rule` and prints the result.
///
/// # Errors
/// The position cannot be read or does not have `--slots` slots, or stdout
/// cannot be written.
pub fn run(args: &SolveArgs, rule: PassRule) -> Result<()> {
    let pos = load_position(&args.position)?;
    if let Some(n) = args.slots
        && n != pos.slots()
    {
        bail!("--slots {n} does not match the position {pos}, which has {} slots", pos.slots());
    }
    let bar = progress_bar();
    let solution = solve(&pos, rule, bar.as_ref());
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let report = Report::new(pos, rule, &solution);
    drop(solution);
    if args.json { print_json(&to_json(&report)) } else { print(&to_text(&report)) }
}

/// A progress bar on stderr, or `None` when stderr is not a terminal (so
/// that pipes and logs stay clean).
fn progress_bar() -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    // The solver first enumerates (only the message changes), then sets the
    // length to the number of states and counts them as they are solved.
    let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg} {progress}")
        .expect("the progress template is valid")
        .with_key("progress", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            if let Some(len) = state.len().filter(|&len| len > 0) {
                let pct = 100.0 * state.pos() as f64 / len as f64;
                let _ = write!(
                    w,
                    "{pct:3.0}% of {} states, eta {}s",
                    thousands(len),
                    state.eta().as_secs()
                );
            }
        });
    bar.set_style(style);
    bar.set_message("enumerating");
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}

/// The peak resident memory of this process in bytes (`VmHWM` in
/// `/proc/self/status`), if the system reports it.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let mut words = line["VmHWM:".len()..].split_whitespace();
    let kib: u64 = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then_some(kib * 1024)
}

/// `n` with commas between groups of three digits.
fn thousands(n: impl Into<u64>) -> String {
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

/// "1 ply", "2 plies".
fn plies(n: usize) -> String {
    if n == 1 { "1 ply".to_string() } else { format!("{n} plies") }
}

/// A depth for people: `-` for no-result, which has none.
fn depth_text(score: Score) -> String {
    match score.value {
        Value::NoResult => "-".to_string(),
        _ => score.depth.to_string(),
    }
}

/// A depth for JSON: `null` for no-result.
fn depth_json(score: Score) -> Option<u16> {
    (score.value != Value::NoResult).then_some(score.depth)
}

/// What a value means for `side`, the side to move.
fn meaning(value: Value, side: Side) -> String {
    let (me, other) = (short_name(side), short_name(side.other()));
    match value {
        Value::SelfWin => format!("{me} can force its own win"),
        Value::BothWin => "nobody can force a win; both can win together".to_string(),
        Value::BothLose => {
            "nobody can force a win; both-win is out of reach, both lose".to_string()
        }
        Value::SelfLose => format!("{other} can force its win"),
        Value::NoResult => "nobody can force a win and no end can be reached".to_string(),
    }
}

fn to_text(r: &Report) -> String {
    let pos = &r.pos;
    let side = pos.side();
    let mut t = String::new();
    t.push_str(&format!("position: {pos}\n"));
    t.push_str(&format!("to move:  {}\n", side.label()));
    match pos.outcome() {
        Some(outcome) => {
            t.push_str(&format!("value:    {}; game over: {outcome}\n", r.score.value))
        }
        None => {
            t.push_str(&format!("value:    {} ({})\n", r.score.value, meaning(r.score.value, side)))
        }
    }
    if r.score.value == Value::NoResult || pos.outcome().is_some() {
        t.push_str(&format!("depth:    {}\n", depth_text(r.score)));
    } else {
        t.push_str(&format!(
            "depth:    {} to the end under best play\n",
            plies(r.score.depth.into())
        ));
    }

    // The moves, best first.
    if r.moves.is_empty() {
        t.push_str("\nno legal moves: the game is over\n");
    } else {
        t.push_str(&format!(
            "\nmoves for {} ({}, pass rule {}), best first; * best, = keeps the value:\n",
            short_name(side),
            r.moves.len(),
            r.rule.name()
        ));
        for m in &r.moves {
            let mark = if r.is_best(m) {
                '*'
            } else if r.keeps_value(m) {
                '='
            } else {
                ' '
            };
            let piece = match m.mv {
                Move::Walk(p) | Move::Place(p) => p.to_string(),
                Move::Pass => String::new(),
            };
            t.push_str(&format!(
                "  {mark} {:<5} {:>2}  {:<16} {:>5}  {}\n",
                m.mv.kind(),
                piece,
                m.score.value.to_string(),
                depth_text(m.score),
                m.child
            ));
        }
    }

    // The line of best play.
    if r.line.is_empty() {
        if pos.outcome().is_none() {
            t.push_str("\nbest line: none, no end can be reached\n");
        }
    } else {
        let moves: Vec<String> = r.line.iter().map(Move::to_string).collect();
        t.push_str(&format!("\nbest line ({}): {}\n", plies(r.line.len()), moves.join(" ")));
        t.push_str(&format!("ends at:   {}\n", r.end));
        match r.end.outcome() {
            Some(outcome) => t.push_str(&format!("game over: {outcome}\n")),
            None => t.push_str("the game is not over there\n"),
        }
    }

    // Statistics.
    t.push_str(&format!(
        "\nstates:      {} reachable (+ {} double-pass end{})\n",
        thousands(r.states as u64),
        thousands(r.double_passes as u64),
        if r.double_passes == 1 { "" } else { "s" }
    ));
    t.push_str(&format!("signatures:  {}\n", thousands(r.signatures as u64)));
    t.push_str(&format!(
        "speed:       {} states/s\n",
        thousands(r.states_per_second().round() as u64)
    ));
    t.push_str(&format!(
        "time:        {:.3} s (enumerate {:.3} s + solve {:.3} s)\n",
        r.seconds(),
        r.timing.0.as_secs_f64(),
        r.timing.1.as_secs_f64()
    ));
    match r.peak_memory {
        Some(bytes) => {
            t.push_str(&format!("peak memory: {:.1} MiB (VmHWM)", bytes as f64 / (1024.0 * 1024.0)))
        }
        None => t.push_str("peak memory: unavailable (no VmHWM in /proc/self/status)"),
    }
    t
}

fn to_json(r: &Report) -> SolveJson {
    SolveJson {
        position: r.pos.to_string(),
        side: r.pos.side().name(),
        pass_rule: r.rule.name(),
        over: r.pos.outcome().map(Outcome::name),
        value: r.score.value.code(),
        label: r.score.value.label(),
        depth: depth_json(r.score),
        moves: r
            .moves
            .iter()
            .map(|m| MoveJson {
                text: m.mv.to_string(),
                kind: m.mv.kind(),
                value: m.score.value.code(),
                label: m.score.value.label(),
                depth: depth_json(m.score),
                best: r.is_best(m),
                keeps_value: r.keeps_value(m),
                position: m.child.to_string(),
            })
            .collect(),
        line: r.line.iter().map(Move::to_string).collect(),
        states: r.states,
        double_passes: r.double_passes,
        signatures: r.signatures,
        seconds: r.seconds(),
        enumerate_seconds: r.timing.0.as_secs_f64(),
        solve_seconds: r.timing.1.as_secs_f64(),
        states_per_second: r.states_per_second(),
        peak_memory_bytes: r.peak_memory,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0u64), "0");
        assert_eq!(thousands(999u64), "999");
        assert_eq!(thousands(1000u64), "1,000");
        assert_eq!(thousands(20_971_954u64), "20,971,954");
    }
}
