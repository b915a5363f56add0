//! `chaosclock match`: engines of several levels play each other from fair
//! starts and random openings, both sides in turn, and a cross table with
//! Elo and 95% error bars is printed, as cutechess-cli and fastchess do
//! (docs/levels.md).
//!
//! Scoring per game, for each engine: 1 when its side wins alone, 0 when
//! the other side wins alone, ½ for both-win, both-lose and a game not
//! over after [`MAX_PLIES`] plies (the two sides share those ends). Each
//! opening is solved once in memory (within the state budget: an opening
//! over it is skipped, with a note on stderr) and every position of its
//! games is answered from that solution.

use std::ops::AddAssign;
use std::time::Instant;

use anyhow::{Result, bail};
use chaosclock::engine::{Engine, GameEnd, MAX_PLIES, opening, play_game};
use chaosclock::solve::{SolveError, solve_bounded};
use chaosclock::{Outcome, PassRule, Side, Value, Variant};
use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cli::games::MatchHigh;
use crate::cmd::match_checkpoint;
use crate::cmd::{BarGuard, counting_bar, print, print_json};

/// The results of one pair of levels, from the first's view.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
struct PairResult {
    /// Games the first level won alone.
    wins: u32,
    /// Games the second won alone.
    losses: u32,
    /// Both-win ends.
    both_win: u32,
    /// Both-lose ends.
    both_lose: u32,
    /// Games not over after the ply limit.
    unfinished: u32,
}

impl PairResult {
    fn games(&self) -> u32 {
        self.wins + self.losses + self.draws()
    }

    fn draws(&self) -> u32 {
        self.both_win + self.both_lose + self.unfinished
    }

    /// The first level's score, 0 to 1.
    fn score(&self) -> f64 {
        self.points() / f64::from(self.games().max(1))
    }

    /// The same games from the second level's view.
    fn flipped(self) -> PairResult {
        PairResult { wins: self.losses, losses: self.wins, ..self }
    }

    /// The first level's points.
    fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws())
    }

    /// The Elo difference and its 95% interval (from the trinomial
    /// variance of the per-game score, as cutechess-cli); scores of 0 or
    /// 1 are taken half a game from the edge.
    fn elo(&self) -> (f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        let p = self.score();
        let var = (f64::from(self.wins) * (1.0 - p).powi(2)
            + f64::from(self.draws()) * (0.5 - p).powi(2)
            + f64::from(self.losses) * p.powi(2))
            / n;
        self.elo_interval((var / n).sqrt())
    }

    /// The Elo difference and its 95% interval with the games of each
    /// opening taken together (`by_opening`: this pair's games of each
    /// opening): the standard error of the score from the spread of the
    /// openings' points around it (the cluster-robust variance), so that
    /// games from the same opening (both sides, `--repeat`) do not count
    /// as independent draws.
    fn elo_by_opening(&self, by_opening: impl Iterator<Item = PairResult>) -> (f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        let p = self.score();
        let spread: f64 = by_opening.map(|c| (c.points() - f64::from(c.games()) * p).powi(2)).sum();
        self.elo_interval(spread.sqrt() / n)
    }

    /// The Elo difference of the score and the 95% interval of a standard
    /// error `se` around it.
    fn elo_interval(&self, se: f64) -> (f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        let p = self.score();
        let edge = 0.5 / n;
        let clamp = |x: f64| x.clamp(edge, 1.0 - edge);
        (
            elo_of(clamp(p)) + 0.0,
            elo_of(clamp(p - 1.96 * se)) + 0.0,
            elo_of(clamp(p + 1.96 * se)) + 0.0,
        )
    }

    fn add(&mut self, end: GameEnd, first_side: Side) {
        match end {
            GameEnd::Over(Outcome::Win(s)) if s == first_side => self.wins += 1,
            GameEnd::Over(Outcome::Win(_)) => self.losses += 1,
            GameEnd::Over(Outcome::BothWin) => self.both_win += 1,
            GameEnd::Over(Outcome::BothLose) => self.both_lose += 1,
            GameEnd::Unfinished => self.unfinished += 1,
        }
    }
}

impl AddAssign<&PairResult> for PairResult {
    /// Adds the games of another batch.
    fn add_assign(&mut self, x: &PairResult) {
        self.wins += x.wins;
        self.losses += x.losses;
        self.both_win += x.both_win;
        self.both_lose += x.both_lose;
        self.unfinished += x.unfinished;
    }
}

/// The Elo difference of a score `p` in (0, 1).
fn elo_of(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// How often a level threw away a won position.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
struct Blunders {
    /// Its moves in a position it could win (己赢).
    won_positions: u32,
    /// Those that did not keep the win.
    lost_wins: u32,
    /// Its moves in a position where both could win (共赢).
    both_win_positions: u32,
    /// Those that let the opponent win alone.
    both_win_to_loss: u32,
    /// All its moves.
    moves: u32,
}

impl AddAssign<&Blunders> for Blunders {
    /// Adds the moves of another batch.
    fn add_assign(&mut self, x: &Blunders) {
        self.won_positions += x.won_positions;
        self.lost_wins += x.lost_wins;
        self.both_win_positions += x.both_win_positions;
        self.both_win_to_loss += x.both_win_to_loss;
        self.moves += x.moves;
    }
}

/// The JSON of `match`.
#[derive(Debug, Serialize)]
struct MatchJson {
    slots: u8,
    levels: Vec<u8>,
    openings: usize,
    skipped: usize,
    repeat: u64,
    seed: u64,
    games: u32,
    seconds: f64,
    /// One entry per pair played: the levels, the results of the first.
    pairs: Vec<PairJson>,
    /// Fitted ratings, level 1 at 800.
    ratings: Vec<f64>,
    blunders: Vec<Blunders>,
}

#[derive(Debug, Serialize)]
struct PairJson {
    first: u8,
    second: u8,
    #[serde(flatten)]
    result: PairResult,
    score: f64,
    elo: f64,
    elo_low: f64,
    elo_high: f64,
    /// The 95% interval with each opening's games taken together.
    elo_low_by_opening: f64,
    elo_high_by_opening: f64,
}

/// Runs `match` (without `--accuracy`: [`super::accuracy`]).
///
/// # Errors
/// Every opening over the budget, a damaged solve, stdout cannot be
/// written.
pub fn run(args: &MatchHigh) -> Result<()> {
    let started = Instant::now();
    let levels = &args.levels;
    let k = levels.len();
    let pairs: Vec<(usize, usize)> = if args.ladder {
        (1..k).map(|i| (i - 1, i)).collect()
    } else {
        (0..k).flat_map(|i| (i + 1..k).map(move |j| (i, j))).collect()
    };
    // Each opening is solved once; its games are played from the solution.
    let checkpoint = match_checkpoint::of(args)?;
    let bar = BarGuard(counting_bar(args.openings as u64, "openings played"));
    let played: Vec<Option<(Vec<PairResult>, Vec<Blunders>)>> = (0..args.openings as u64)
        .into_par_iter()
        .map(|o| {
            match_checkpoint::played(checkpoint.as_ref(), bar.0.as_ref(), o, || {
                play_opening(args, &pairs, o, bar.0.as_ref())
            })
        })
        .collect::<Result<_>>()?;
    drop(bar);
    let openings = Played::of(&played);
    if openings.fair + openings.random == 0 {
        bail!("every opening was over the budget of {} states: raise --budget", args.budget);
    }
    let per_opening: Vec<(Vec<PairResult>, Vec<Blunders>)> = played.into_iter().flatten().collect();
    let mut results = vec![PairResult::default(); pairs.len()];
    let mut blunders = vec![Blunders::default(); k];
    for (r, b) in &per_opening {
        results.iter_mut().zip(r).for_each(|(acc, x)| *acc += x);
        blunders.iter_mut().zip(b).for_each(|(acc, x)| *acc += x);
    }
    let ratings = fit(k, &pairs, &results);
    let games: u32 = results.iter().map(PairResult::games).sum();
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let pairs_json = pairs
            .iter()
            .zip(&results)
            .enumerate()
            .map(|(pi, (&(i, j), r))| {
                let (elo, elo_low, elo_high) = r.elo();
                let by_opening = per_opening.iter().map(|(o, _)| o[pi]);
                let (_, elo_low_by_opening, elo_high_by_opening) = r.elo_by_opening(by_opening);
                PairJson {
                    first: levels[i].get(),
                    second: levels[j].get(),
                    result: *r,
                    score: r.score(),
                    elo,
                    elo_low,
                    elo_high,
                    elo_low_by_opening,
                    elo_high_by_opening,
                }
            })
            .collect();
        return print_json(&MatchJson {
            slots: args.slots,
            levels: levels.iter().map(|l| l.get()).collect(),
            openings: openings.fair + openings.random,
            skipped: openings.skipped,
            repeat: args.repeat,
            seed: args.seed,
            games,
            seconds,
            pairs: pairs_json,
            ratings,
            blunders,
        });
    }
    print(&to_text(
        args,
        openings,
        &pairs,
        &results,
        &per_opening,
        &ratings,
        &blunders,
        games,
        seconds,
    ))
}

/// The openings whose games were played: fair starts and random ones
/// (even and odd opening numbers), and those skipped over the budget.
#[derive(Debug, Clone, Copy)]
struct Played {
    fair: usize,
    random: usize,
    skipped: usize,
}

impl Played {
    /// Counts `played`, one entry per opening in order, `None` when skipped.
    fn of<T>(played: &[Option<T>]) -> Played {
        let mut p = Played { fair: 0, random: 0, skipped: 0 };
        for (o, x) in played.iter().enumerate() {
            match (x, o % 2 == 0) {
                (None, _) => p.skipped += 1,
                (Some(_), true) => p.fair += 1,
                (Some(_), false) => p.random += 1,
            }
        }
        p
    }
}

/// Opening `o` played by every pair: its results per pair and its
/// blunders per level, `None` when it is over the budget.
///
/// # Errors
/// The opening cannot be drawn or solved.
fn play_opening(
    args: &MatchHigh,
    pairs: &[(usize, usize)],
    o: u64,
    bar: Option<&ProgressBar>,
) -> Result<Option<(Vec<PairResult>, Vec<Blunders>)>> {
    let levels = &args.levels;
    let k = levels.len();
    let Some(Opening { seed, start, solution, .. }) = solve_opening(args, o, bar)? else {
        return Ok(None);
    };
    let mut results = vec![PairResult::default(); pairs.len()];
    let mut blunders = vec![Blunders::default(); k];
    for (pi, &(i, j)) in pairs.iter().enumerate() {
        // `--repeat` times, both sides each time (repeat 0 draws
        // the seeds of a match without --repeat).
        for (r, swap) in (0..args.repeat).flat_map(|r| [(r, false), (r, true)]) {
            // 乙 moves first: the first level plays 乙, then 甲.
            let (yi, jia) = if swap { (j, i) } else { (i, j) };
            let s = mix(seed ^ (pi as u64) << 8 ^ u64::from(swap) ^ r << 32);
            let mut e_yi = Engine::new(levels[yi], s);
            let mut e_jia = Engine::new(levels[jia], s.rotate_left(17));
            let game = play_game(&solution, start, [&mut e_jia, &mut e_yi])
                .expect("a solution holds its games");
            results[pi].add(game.end, if swap { Side::Jia } else { Side::Yi });
            for ply in &game.plies {
                let who = if ply.before.side() == Side::Yi { yi } else { jia };
                let b = &mut blunders[who];
                b.moves += 1;
                match ply.best.value {
                    Value::SelfWin => {
                        b.won_positions += 1;
                        b.lost_wins += u32::from(ply.played.value != Value::SelfWin);
                    }
                    Value::BothWin => {
                        b.both_win_positions += 1;
                        b.both_win_to_loss += u32::from(ply.played.value == Value::SelfLose);
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(Some((results, blunders)))
}

/// Opening number `o` of a match, solved.
pub(super) struct Opening {
    /// Its seed, from the match's seed and `o`.
    pub seed: u64,
    /// Whether it is a fair start (even `o`): both-win by the book.
    pub fair: bool,
    /// The opening position.
    pub start: chaosclock::Position,
    /// Every state reachable from it, solved.
    pub solution: chaosclock::solve::Solution,
}

/// Draws opening number `o` (a fair start for even `o`) and solves it
/// within `--budget` states: `None` (told on stderr) when it is over. At
/// 12 slots each solve is told on stderr, since each takes seconds to
/// minutes; above `bar`, if any.
///
/// # Errors
/// No opening of the size, or a solve that fails otherwise (none without
/// tables: a bug).
pub(super) fn solve_opening(
    args: &MatchHigh,
    o: u64,
    bar: Option<&ProgressBar>,
) -> Result<Option<Opening>> {
    let seed = mix(args.seed ^ o.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let fair = o.is_multiple_of(2);
    let start = opening(args.slots, seed, fair)?;
    let began = Instant::now();
    let variant = Variant::new(args.slots, PassRule::Always)?;
    let tell = |line: String| match bar {
        Some(b) => b.suspend(|| eprintln!("{line}")),
        None => eprintln!("{line}"),
    };
    match solve_bounded(variant, std::slice::from_ref(&start), None, args.budget, None) {
        Ok(solution) => {
            if args.slots >= 12 {
                tell(format!(
                    "opening {o} ({start}): {} states solved in {:.1} s",
                    solution.states(),
                    began.elapsed().as_secs_f64()
                ));
            }
            Ok(Some(Opening { seed, fair, start, solution }))
        }
        Err(SolveError::TooLarge { states, budget }) => {
            tell(format!(
                "opening {o} ({start}): skipped, more than {budget} states (at least {states})"
            ));
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// The tables of `match`.
#[allow(clippy::too_many_arguments)]
fn to_text(
    args: &MatchHigh,
    openings: Played,
    pairs: &[(usize, usize)],
    results: &[PairResult],
    per_opening: &[(Vec<PairResult>, Vec<Blunders>)],
    ratings: &[f64],
    blunders: &[Blunders],
    games: u32,
    seconds: f64,
) -> String {
    let levels = &args.levels;
    let k = levels.len();
    let mut skipped = match openings.skipped {
        0 => String::new(),
        k => format!(", {k} skipped over the budget of {} states", args.budget),
    };
    if args.repeat > 1 {
        skipped.push_str(&format!(", each played {} times", args.repeat));
    }
    let mut t = format!(
        "match: {} slots, levels {}, {} openings ({} fair starts, {} random{skipped}), {games} games, seed {}, {seconds:.1} s\n",
        args.slots,
        levels.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(","),
        openings.fair + openings.random,
        openings.fair,
        openings.random,
        args.seed
    );
    t.push_str(&format!(
        "scoring: winning alone 1, losing alone 0; both-win, both-lose and unfinished (not over after {MAX_PLIES} plies) ½ each\n\n"
    ));
    // The cross table: the row level's score against the column level.
    t.push_str("score of the row against the column (%), and the fitted rating (level 1 = 800)\n");
    t.push_str("level ");
    for l in levels {
        t.push_str(&format!("{:>6}", l.get()));
    }
    t.push_str("   rating\n");
    for (i, l) in levels.iter().enumerate() {
        t.push_str(&format!("{:>5} ", l.get()));
        for j in 0..k {
            let cell = pairs.iter().position(|&p| p == (i, j) || p == (j, i)).map(|pi| {
                let s = results[pi].score();
                if pairs[pi].0 == i { s } else { 1.0 - s }
            });
            match cell {
                Some(s) => t.push_str(&format!("{:>6.1}", 100.0 * s)),
                None => t.push_str(&format!("{:>6}", "-")),
            }
        }
        t.push_str(&format!("   {:>6.0}\n", ratings[i]));
    }
    t.push_str("\nhead to head (games: +wins =shared -losses of the higher level; Elo with its 95% interval, of the games and of the openings; apart when both lie above 0)\n");
    for (pi, &(i, j)) in pairs.iter().enumerate() {
        // From the higher (second) level's view.
        let r = results[pi];
        let flipped = r.flipped();
        let (elo, lo, hi) = flipped.elo();
        let (_, lo_o, hi_o) =
            flipped.elo_by_opening(per_opening.iter().map(|(o, _)| o[pi].flipped()));
        let apart = if lo > 0.0 && lo_o > 0.0 { "apart" } else { "overlap" };
        t.push_str(&format!(
            "{} vs {}: {:>4} games  +{} ={} -{}  ({} both-win, {} both-lose, {} unfinished)  score {:5.1}%  Elo {:+5.0} [{:+.0}, {:+.0}], by opening [{lo_o:+.0}, {hi_o:+.0}]  {apart}\n",
            levels[j],
            levels[i],
            r.games(),
            flipped.wins,
            r.draws(),
            flipped.losses,
            r.both_win,
            r.both_lose,
            r.unfinished,
            100.0 * flipped.score(),
            elo,
            lo,
            hi
        ));
    }
    t.push_str("\nwon positions thrown away (moves in a 己赢 position that do not keep the win), and both-win positions turned into a loss\n");
    for (l, b) in levels.iter().zip(blunders) {
        let share = |a: u32, b: u32| if b == 0 { 0.0 } else { 100.0 * f64::from(a) / f64::from(b) };
        t.push_str(&format!(
            "level {l}: {} of {} won positions ({:.1}%), {} of {} both-win positions ({:.1}%), {} moves\n",
            b.lost_wins,
            b.won_positions,
            share(b.lost_wins, b.won_positions),
            b.both_win_to_loss,
            b.both_win_positions,
            share(b.both_win_to_loss, b.both_win_positions),
            b.moves
        ));
    }
    t.truncate(t.trim_end().len());
    t
}

/// Ratings of the `k` levels that explain the pair results best
/// (Bradley–Terry by minorization–maximization, a shared end as half a
/// win each, one shared end added to each pair so that a clean sweep stays
/// finite), on the Elo scale with the first level at 800.
fn fit(k: usize, pairs: &[(usize, usize)], results: &[PairResult]) -> Vec<f64> {
    let mut gamma = vec![1.0f64; k];
    let wins = |pi: usize, first: bool| {
        let r = results[pi];
        let w = if first { r.wins } else { r.losses };
        f64::from(w) + 0.5 * f64::from(r.draws()) + 0.5
    };
    for _ in 0..2000 {
        let mut next = gamma.clone();
        for (x, g) in next.iter_mut().enumerate() {
            let (mut w, mut d) = (0.0, 0.0);
            for (pi, &(i, j)) in pairs.iter().enumerate() {
                if i != x && j != x {
                    continue;
                }
                let other = if i == x { j } else { i };
                w += wins(pi, i == x);
                d += f64::from(results[pi].games() + 1) / (gamma[x] + gamma[other]);
            }
            if d > 0.0 {
                *g = w / d;
            }
        }
        let base = next[0];
        gamma = next.into_iter().map(|g| g / base).collect();
    }
    gamma.iter().map(|g| 800.0 + 400.0 * g.log10()).collect()
}

/// splitmix64: spreads a seed over all bits.
pub(super) fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
