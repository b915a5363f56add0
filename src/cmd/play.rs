//! `chaosclock play`: plays a list of moves from a position and prints every
//! position on the way (the start included), or stops at the first illegal
//! move with an error naming its number, its text and the rule it breaks.
//!
//! `--analyse` solves the start and marks each move with the value it keeps
//! for its mover, the best value it had ([`chaosclock::review`]): the only
//! move that keeps the best value, or a mistake. The server's
//! `/api/analyse` answers with the same JSON ([`AnalyseJson`](crate::view::review::AnalyseJson)).
//!
//! Every position's moves come through the library's answering policy
//! ([`chaosclock::policy`]) with [`FromStart`] as its solve step (one
//! solve of the start in memory): the rules for a finished game, else the
//! solve, whose value must equal the openings book's for an opening.

use anyhow::Result;
use chaosclock::answer::Answer;
use chaosclock::book::Book;
use chaosclock::engine::{Engine, Level};
use chaosclock::policy::{AnswerError, Answered, Policy, Solver};
use chaosclock::record::Record;
use chaosclock::report::{Report, report_all};
use chaosclock::review::{Ply, play_all};
use chaosclock::scored::ScoredMove;
use chaosclock::solve::{Solution, SolveError, solve};
use chaosclock::{Move, PassRule, Position, Side, Value};
use serde::Serialize;

use crate::cli::high::PlayHigh;
use crate::cmd::{print, print_json, short_name};
use crate::view::moves::MoveJson;
use crate::view::review::analyse_json;

/// The JSON output of `play`.
#[derive(Debug, Serialize)]
struct PlayJson {
    /// The start and the position after each move.
    positions: Vec<String>,
    over: Option<&'static str>,
    /// The side to move at the end.
    side: &'static str,
    /// The pass rule the moves were checked under.
    pass_rule: &'static str,
    moves: Vec<MoveJson>,
    /// With `--level`: the move the engine plays next.
    #[serde(skip_serializing_if = "Option::is_none")]
    engine: Option<EngineJson>,
}

/// The engine's move of `play --level`.
#[derive(Debug, Serialize)]
struct EngineJson {
    level: u8,
    seed: u64,
    /// The move, or `null` when the game is over.
    #[serde(rename = "move")]
    mv: Option<String>,
    /// The position after it.
    position: Option<String>,
}

/// `play`'s solve step for the policy: `start` solved once in memory
/// (every state it reaches, when first asked), and each position of the
/// game answered from that solution.
struct FromStart {
    start: Position,
    solution: std::sync::OnceLock<Solution>,
}

impl FromStart {
    fn new(start: Position) -> FromStart {
        FromStart { start, solution: std::sync::OnceLock::new() }
    }
}

impl Solver for FromStart {
    fn solve(
        &self,
        pos: &Position,
        rule: PassRule,
        _: Option<Value>,
    ) -> Result<Answered, SolveError> {
        let solution = self.solution.get_or_init(|| solve(&self.start, rule, None));
        let answer = Answer::from_solution(solution, pos, rule)?;
        Ok(Answered::new(answer, Some(solution.states())))
    }
}

/// Every move of `pos` with its score, through the policy with `step`.
///
/// # Errors
/// The solve and the openings book disagree (a bug), or `pos` is not
/// reached from `step`'s start.
fn scored_moves(
    step: &FromStart,
    book: &Book,
    pos: &Position,
    rule: PassRule,
) -> Result<Vec<ScoredMove>, AnswerError> {
    let policy = Policy::new().with_book(Some(book)).with_solver(Some(step));
    Ok(policy.answer(pos, rule)?.answer.moves)
}

/// The move an engine of `level` plays in `pos` (solved in memory), with
/// the position after it; `None` when the game is over.
///
/// # Errors
/// As [`scored_moves`].
fn engine_move(
    pos: &Position,
    rule: PassRule,
    level: Level,
    seed: u64,
) -> Result<Option<(Move, Position)>> {
    let moves = scored_moves(&FromStart::new(*pos), Book::embedded()?, pos, rule)?;
    let mv = Engine::new(level, seed).choose(pos, &moves);
    mv.map(|mv| Ok((mv, pos.play(mv, rule)?))).transpose()
}

/// Plays `args.moves` from the position given in `args` under its pass
/// rule.
///
/// # Errors
/// A move is malformed or illegal (nothing is printed then), or stdout
/// cannot be written.
pub fn run(args: &PlayHigh) -> Result<()> {
    let (start, rule) = (args.start, args.rule);
    let plies = play_all(start, &args.moves, rule)?;
    if args.as_record {
        let rec = match &args.record {
            Some(rec) => rec.clone(),
            None => {
                let mut rec = Record::new(start, rule);
                let mut at = rec.root();
                for p in &plies {
                    at = rec.play(at, p.m)?;
                }
                rec
            }
        };
        return print(rec.to_string().trim_end());
    }
    if args.analyse {
        let (step, book) = (FromStart::new(start), Book::embedded()?);
        let report = report_all(&start, &plies, |pos| scored_moves(&step, book, pos, rule))?;
        return if args.json {
            print_json(&analyse_json(&start, &report, rule, "solve"))
        } else {
            print(&analyse_text(&start, &plies, &report))
        };
    }
    let last = plies.last().map_or(start, |p| p.next);
    let engine = match args.level {
        Some(level) => Some((level, engine_move(&last, rule, level, args.seed)?)),
        None => None,
    };
    if args.json {
        let mut json = to_json(&start, &plies, rule);
        json.engine = engine.map(|(level, m)| EngineJson {
            level: level.get(),
            seed: args.seed,
            mv: m.map(|(mv, _)| mv.to_string()),
            position: m.map(|(_, p)| p.to_string()),
        });
        print_json(&json)
    } else {
        let mut text = to_text(&start, &plies);
        if let Some((level, m)) = engine {
            text.push_str(&match m {
                Some((mv, next)) => format!("\nlevel {level} plays {mv}: {next}"),
                None => format!("\nlevel {level}: the game is over"),
            });
        }
        print(&text)
    }
}

/// The status after the last position: how the game ended, or who moves.
fn status(pos: &Position) -> String {
    match pos.outcome() {
        Some(outcome) => format!("game over: {outcome}"),
        None => format!("{} to move", pos.side().label()),
    }
}

fn to_text(start: &Position, plies: &[Ply]) -> String {
    let mut text = format!("{:>3}  {:<24} {}", 0, "start", start);
    for (i, ply) in plies.iter().enumerate() {
        let mut what = match ply.m {
            Move::Pass => format!("{} pass", short_name(ply.side)),
            m => format!("{} {} {m}", short_name(ply.side), m.kind()),
        };
        if let Some(q) = ply.captures {
            what.push_str(&format!(" takes {q}"));
        }
        if ply.next.side() == ply.side {
            what.push_str(", again");
        }
        // The side name is one wide character: pad one column less.
        text.push_str(&format!("\n{:>3}  {:<23} {}", i + 1, what, ply.next));
    }
    let last = plies.last().map_or(start, |p| &p.next);
    text.push('\n');
    text.push_str(&status(last));
    text
}

/// The text of `play --analyse`: each ply as `play` prints it, then the
/// value the move keeps for its mover, `only move` or how far it fell,
/// then the whole-game report.
fn analyse_text(start: &Position, plies: &[Ply], report: &Report) -> String {
    let plain = to_text(start, plies);
    // Every ply line has one wide character (the side), so counting
    // characters aligns the marks.
    let width = plain.lines().skip(1).take(plies.len()).map(|l| l.chars().count()).max();
    let width = width.unwrap_or(0);
    let mut lines = plain.lines();
    let mut text = lines.next().unwrap_or_default().to_string();
    // Reviews first: zip stops on them without taking the line after the
    // last ply (the end of the game) from `lines`.
    for (j, line) in report.plies.iter().zip(lines.by_ref()) {
        let r = &j.review;
        let mut mark = format!("{} {}", r.played.chinese(), r.played.label());
        if r.only {
            mark.push_str(", only move");
        }
        if let Some(fall) = j.fall {
            let (best, name) = (r.best, fall.name());
            mark.push_str(&format!(
                ", {name} {} (best {} {})",
                fall.glyph(),
                best.chinese(),
                best.label()
            ));
        }
        text.push_str(&format!("\n{line:<width$}  {mark}"));
    }
    for line in lines {
        text.push('\n');
        text.push_str(line);
    }
    text.push('\n');
    text.push_str(&report_text(report));
    text
}

/// The whole-game report as a small table, then the decisive move.
fn report_text(report: &Report) -> String {
    let (jia, yi) = (report.side(Side::Jia), report.side(Side::Yi));
    let accuracy = |s: &chaosclock::report::SideReport| match s.accuracy() {
        Some(a) => format!("{a:.1}% of {}", s.could_fail),
        None => "-".to_string(),
    };
    // The side names are two wide characters' worth: pad by characters.
    let mut text = format!("{:<14}{:<19}{}", "report", "甲 (odd)", "乙 (even)");
    let rows: [(&str, String, String); 5] = [
        ("moves", jia.moves.to_string(), yi.moves.to_string()),
        ("accuracy", accuracy(jia), accuracy(yi)),
        ("inaccuracies", jia.inaccuracies.to_string(), yi.inaccuracies.to_string()),
        ("mistakes", jia.mistakes.to_string(), yi.mistakes.to_string()),
        ("blunders", jia.blunders.to_string(), yi.blunders.to_string()),
    ];
    for (name, a, b) in rows {
        text.push_str(&format!("\n{name:<14}{a:<20}{b}"));
    }
    text.push_str("\ndecisive move: ");
    match report.decisive {
        Some(i) => {
            let j = &report.plies[i];
            let fall = j.fall.map_or("", |f| f.name());
            text.push_str(&format!(
                "ply {}, {} {} ({fall})",
                i + 1,
                j.review.side.label(),
                j.review.mv
            ));
        }
        None => text.push_str("none, no move changed the value"),
    }
    // The report's counts say how many moves fell: no second count
    // (issue 66: a "mistakes: N" line beside "mistakes 0 0" read as a
    // contradiction).
    text
}

fn to_json(start: &Position, plies: &[Ply], rule: PassRule) -> PlayJson {
    let last = plies.last().map_or(start, |p| &p.next);
    PlayJson {
        positions: std::iter::once(start)
            .chain(plies.iter().map(|p| &p.next))
            .map(|p| p.to_string())
            .collect(),
        over: last.outcome().map(|o| o.name()),
        side: last.side().name(),
        pass_rule: rule.name(),
        engine: None,
        moves: std::iter::once(start)
            .chain(plies.iter().map(|p| &p.next))
            .zip(plies)
            .map(|(before, p)| MoveJson::new(before, p.m))
            .collect(),
    }
}
