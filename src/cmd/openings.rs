//! `chaosclock openings`: the value for 乙 of the openings (every piece on
//! the board, none fixed, 乙 to move, no last move), counted per value,
//! with the strategy-advice statistics (`--stats`, `--plot`) and the list
//! of proven both-win openings (`--both-win`, `--random K`).
//!
//! Where the values come from:
//! - up to 8 slots, one [`solve_with`] over all openings at once (the union
//!   of their reachable states is 5,963,762 states for 8 slots);
//! - 10 and 12 slots, the complete tables of `--tables DIR` (every fixed
//!   set has its file), read opening by opening;
//! - otherwise, with `--sample K`, the first K openings of the seeded
//!   random order ([`Draw`]), read from complete tables, or solved exactly
//!   in batches of `--batch B` openings per [`solve_with`] call
//!   (incomplete tables, if any, answer for the signatures they cover; any
//!   board size). The shares are then estimates, with 95% Wilson
//!   intervals.
//!
//! `--random K --both-win` walks the same seeded order and keeps the first
//! K openings proven both-win: the result depends on the seed only, not on
//! the batch size.
//!
//! Files (`--output`, `--plot`) are written to `FILE.tmp` and renamed when
//! complete, so an interrupted run never leaves a file that looks
//! complete. The list on stdout is written whole lines at a time; a list
//! that stops at an error (a damaged table record, found only when read)
//! ends with a line that says so: `# incomplete: ...`, or in JSON
//! `{"incomplete": "..."}` (issue 14, finding 8).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use chaosclock::score::Score;
use chaosclock::solve::solve_with;
use chaosclock::table::Tablebase;
use chaosclock::{Move, PassRule, Position, SUPPORTED_SLOTS, Value, escape_control};
use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::Serialize;

use crate::cli::OpeningsArgs;
use crate::cmd::openings_draw::{self as draw, Draw, wilson};
use crate::cmd::openings_stats::{CodeMap, ORDER, QuestionJson, Stats, pad_right, to_svg};
use crate::cmd::{BarGuard, counting_bar, generate_command, print, print_json, thousands};

/// Up to this many slots every opening is solved in one call.
const SOLVE_ALL_MAX_SLOTS: u8 = 8;

/// Openings per `solve_with` call when sampling, by default. Measured on
/// 12-slot samples (README, Openings): batches of 4 and 8 solve 4% and 9%
/// fewer states than one opening at a time, and take up to a seventh less
/// time, but each opening in a batch adds about 0.6 GiB.
const DEFAULT_BATCH: usize = 4;

/// Openings read from the tables per parallel chunk.
const TABLE_CHUNK: usize = 1 << 16;

/// One opening with its value for 乙 and, if it is both-win and the list
/// was asked for, the moves that keep both-win (best first).
#[derive(Debug, Clone)]
struct Scored {
    pos: Position,
    value: Value,
    keep: Vec<Move>,
}

/// How openings get their values.
enum Scorer {
    /// Complete tables.
    Tables(Tablebase),
    /// The solver; `tables` holds incomplete tables it may use, if any.
    Solve { tables: Option<PathBuf> },
}

/// What the solver did so far.
#[derive(Debug, Default, Clone, Copy)]
struct Work {
    /// Reachable states solved (over all calls).
    states: u64,
    /// `solve_with` calls.
    calls: u64,
}

/// Runs `chaosclock openings`.
///
/// # Errors
/// Bad flags, missing or damaged tables, or a file that cannot be written.
pub fn run(args: &OpeningsArgs, rule: PassRule) -> Result<()> {
    check_args(args)?;
    let scorer = choose_scorer(args, rule)?;
    match args.random {
        Some(k) => random(args, rule, &scorer, k),
        None => classify(args, rule, &scorer),
    }
}

/// The checks clap cannot express, each a one-line error.
fn check_args(args: &OpeningsArgs) -> Result<()> {
    let n = args.slots;
    if !SUPPORTED_SLOTS.contains(&n) {
        bail!("--slots {n}: a board has 4, 6, 8, 10 or 12 slots");
    }
    let population = draw::count(n);
    if let Some(k) = args.sample {
        if k == 0 {
            bail!("--sample 0: the sample needs at least one opening");
        }
        if k > population {
            bail!("--sample {k}: there are only {population} openings of {n} slots");
        }
    }
    if args.random == Some(0) {
        bail!("--random 0: ask for at least one opening");
    }
    if args.batch == Some(0) {
        bail!("--batch 0: a batch needs at least one opening");
    }
    if args.both_win && args.output.is_none() && args.stats {
        bail!(
            "--both-win without --output writes the list on stdout: add --output FILE to use --stats too"
        );
    }
    Ok(())
}

/// Complete tables if `--tables` has them for this size, else the solver
/// (with the incomplete tables, if any) where that is allowed.
fn choose_scorer(args: &OpeningsArgs, rule: PassRule) -> Result<Scorer> {
    let n = args.slots;
    if n <= SOLVE_ALL_MAX_SLOTS && args.random.is_none() && args.sample.is_none() {
        return Ok(Scorer::Solve { tables: None });
    }
    // Every file is opened (its header checked) before anything is
    // written; a damaged record shows only when it is read.
    let mut tb = Tablebase::new(&args.tables, n, rule);
    let files = tb.load_all().with_context(|| format!("tables in {}", tb.dir().display()))?;
    // Files exist for the representatives of the symmetry only.
    let all = chaosclock::generate::fixed_sets(n, n).len();
    if files == all {
        return Ok(Scorer::Tables(tb));
    }
    if args.sample.is_some() || args.random.is_some() {
        return Ok(Scorer::Solve { tables: (files > 0).then(|| args.tables.clone()) });
    }
    let generate = generate_command(n, n, &args.tables, rule, tb.values_only());
    bail!(
        "every {n}-slot opening needs the complete tables, but {} has {files} of their {all} files: run `{generate}`, or estimate from a sample with --sample K",
        tb.dir().display()
    )
}

/// The tally of the openings classified so far.
struct Tally {
    counts: [u64; 5],
    stats: Option<Stats>,
    list: Option<ListWriter>,
}

impl Tally {
    fn add(&mut self, s: &Scored) -> Result<()> {
        self.counts[s.value.code() as usize] += 1;
        if let Some(stats) = &mut self.stats {
            stats.add(&s.pos, s.value);
        }
        if let Some(list) = &mut self.list
            && s.value == Value::BothWin
        {
            list.line(s)?;
        }
        Ok(())
    }

    fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// Classifies every opening, or the sample, and prints the result.
fn classify(args: &OpeningsArgs, rule: PassRule, scorer: &Scorer) -> Result<()> {
    let n = args.slots;
    let start = Instant::now();
    let list = args.both_win.then(|| ListWriter::new(args.output.as_deref(), args.json));
    let list = list.transpose()?;
    let mut tally = Tally { counts: [0; 5], stats: args.stats.then(|| Stats::new(n)), list };
    let mut work = Work::default();
    // A list on stdout that stops early says so on its last line.
    if let Err(e) = fill(args, rule, scorer, &mut tally, &mut work) {
        if let Some(list) = tally.list.take() {
            list.abort(&e);
        }
        return Err(e);
    }
    let elapsed = start.elapsed();
    let listed = match tally.list.take() {
        Some(list) => Some(list.finish()?),
        None => None,
    };
    // The list alone goes to stdout when it has no file.
    if args.both_win && args.output.is_none() {
        return Ok(());
    }
    if let (Some(path), Some(stats)) = (&args.plot, &tally.stats) {
        let subtitle = describe(args, scorer, tally.total(), None);
        write_atomically(path, to_svg(stats, &subtitle).as_bytes())?;
    }
    let report = Report { args, scorer, tally: &tally, work, elapsed, listed };
    if args.json { print_json(&report.to_json()) } else { print(&report.to_text()) }
}

/// Scores every opening, or the sample, into `tally` (the list, if any,
/// is written as it goes).
fn fill(
    args: &OpeningsArgs,
    rule: PassRule,
    scorer: &Scorer,
    tally: &mut Tally,
    work: &mut Work,
) -> Result<()> {
    let n = args.slots;
    let want = args.both_win;
    match (args.sample, scorer) {
        (None, Scorer::Tables(tb)) => {
            let bar = counting_bar(draw::count(n), "reading the tables");
            let _clear = BarGuard(bar.clone());
            for chunk in draw::chunks(n) {
                for s in table_scores(tb, &chunk, want)? {
                    tally.add(&s)?;
                }
                if let Some(b) = &bar {
                    b.inc(chunk.len() as u64);
                }
                flush(tally)?;
            }
        }
        (None, Scorer::Solve { .. }) => {
            // Every opening at once, with the solver's own bar: the states
            // enumerated, then the share of them solved.
            let openings = draw::all(n);
            let bar = crate::cmd::solve::progress_bar();
            let _clear = BarGuard(bar.clone());
            for s in solve_scores(n, &openings, rule, None, want, bar.as_ref(), work)? {
                tally.add(&s)?;
            }
        }
        (Some(k), _) => {
            let sample: Vec<Position> = Draw::new(n, args.seed).take(k as usize).collect();
            let bar = counting_bar(k, "solving the sample");
            let _clear = BarGuard(bar.clone());
            let size = batch_size(args, scorer, k as usize);
            for batch in sample.chunks(size) {
                for s in scores(scorer, n, batch, rule, want, work)? {
                    tally.add(&s)?;
                }
                if let Some(b) = &bar {
                    b.inc(batch.len() as u64);
                }
                flush(tally)?;
            }
        }
    }
    Ok(())
}

/// Picks `k` proven both-win openings from the seeded order and writes them.
fn random(args: &OpeningsArgs, rule: PassRule, scorer: &Scorer, k: u64) -> Result<()> {
    let n = args.slots;
    let start = Instant::now();
    let size = batch_size(args, scorer, usize::MAX);
    let mut order = Draw::new(n, args.seed);
    let mut found: Vec<Scored> = Vec::new();
    let mut counts = [0u64; 5];
    let mut checked = 0u64;
    let mut work = Work::default();
    let bar = counting_bar(k, "both-win openings found");
    let clear = BarGuard(bar.clone());
    while (found.len() as u64) < k {
        // Never more candidates than openings still wanted.
        let want = size.min((k - found.len() as u64) as usize);
        let batch: Vec<Position> = order.by_ref().take(want).collect();
        if batch.is_empty() {
            break;
        }
        for s in scores(scorer, n, &batch, rule, true, &mut work)? {
            checked += 1;
            counts[s.value.code() as usize] += 1;
            if s.value == Value::BothWin && (found.len() as u64) < k {
                found.push(s);
            }
        }
        if let Some(b) = &bar {
            b.set_position(found.len() as u64);
            b.set_message(format!("both-win openings found, {checked} checked"));
        }
    }
    drop(clear);
    if (found.len() as u64) < k {
        bail!(
            "only {} of the {} openings of {n} slots are both-win, fewer than --random {k}",
            found.len(),
            draw::count(n)
        );
    }
    let mut list = ListWriter::new(args.output.as_deref(), args.json)?;
    for s in &found {
        list.line(s)?;
    }
    list.finish()?;
    let Some(output) = &args.output else { return Ok(()) };
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        print_json(&RandomJson {
            slots: n,
            random: k,
            seed: args.seed,
            checked,
            counts: CodeMap::from_fn(|c| counts[c]),
            seconds,
            states: work.states,
            output: output.display().to_string(),
        })
    } else {
        print(&format!(
            "{k} both-win opening{} of {n} slots (seed {}) written to {}: {checked} checked in {seconds:.1} s",
            if k == 1 { "" } else { "s" },
            args.seed,
            output.display()
        ))
    }
}

/// `--random` in JSON, when the list went to a file.
#[derive(Debug, Serialize)]
struct RandomJson {
    slots: u8,
    random: u64,
    seed: u64,
    /// Openings solved to find them (the seeded order's first ones).
    checked: u64,
    /// The values of the checked openings.
    counts: CodeMap<u64>,
    seconds: f64,
    states: u64,
    output: String,
}

/// Openings per batch: `--batch`, else the default for the solver; all of
/// them at once from tables.
fn batch_size(args: &OpeningsArgs, scorer: &Scorer, all: usize) -> usize {
    match scorer {
        Scorer::Tables(_) => args.batch.unwrap_or(TABLE_CHUNK).min(all.max(1)),
        Scorer::Solve { .. } => args.batch.unwrap_or(DEFAULT_BATCH),
    }
}

/// Scores a batch of openings.
fn scores(
    scorer: &Scorer,
    n: u8,
    batch: &[Position],
    rule: PassRule,
    want: bool,
    work: &mut Work,
) -> Result<Vec<Scored>> {
    match scorer {
        Scorer::Tables(tb) => table_scores(tb, batch, want),
        Scorer::Solve { tables } => {
            solve_scores(n, batch, rule, tables.as_deref(), want, None, work)
        }
    }
}

/// Scores openings from complete tables, in parallel.
fn table_scores(tb: &Tablebase, batch: &[Position], want: bool) -> Result<Vec<Scored>> {
    let score = |pos: &Position| -> Result<Score> {
        tb.score(pos)
            .with_context(|| format!("reading the tables for {pos}"))?
            .with_context(|| format!("no table holds {pos}"))
    };
    batch
        .par_iter()
        .map(|pos| {
            let value = score(pos)?.value;
            let mut keep = Vec::new();
            if want && value == Value::BothWin {
                let mut moves = Vec::new();
                for &mv in pos.legal_moves(tb.rule()).iter() {
                    let child = pos.play_unchecked(mv);
                    let s = Score::from_child(score(&child)?, child.side() == pos.side());
                    moves.push((mv, s));
                }
                moves.sort_by_key(|m| std::cmp::Reverse(m.1));
                keep = moves.iter().filter(|m| m.1.value == Value::BothWin).map(|m| m.0).collect();
            }
            Ok(Scored { pos: *pos, value, keep })
        })
        .collect()
}

/// Solves a batch of openings in one call.
fn solve_scores(
    n: u8,
    batch: &[Position],
    rule: PassRule,
    tables: Option<&Path>,
    want: bool,
    bar: Option<&ProgressBar>,
    work: &mut Work,
) -> Result<Vec<Scored>> {
    let tb = match tables {
        Some(dir) => {
            let mut tb = Tablebase::new(dir, n, rule);
            tb.load_all().with_context(|| format!("tables in {}", tb.dir().display()))?;
            Some(tb)
        }
        None => None,
    };
    let solution = solve_with(n, batch, rule, tb, bar).context("solving with the tables")?;
    work.states += solution.states() as u64;
    work.calls += 1;
    Ok(batch
        .iter()
        .map(|pos| {
            let value = solution.score(pos).expect("a root of the solve is reached").value;
            let keep = if want && value == Value::BothWin {
                solution
                    .moves(pos)
                    .iter()
                    .filter(|m| m.score.value == Value::BothWin)
                    .map(|m| m.mv)
                    .collect()
            } else {
                Vec::new()
            };
            Scored { pos: *pos, value, keep }
        })
        .collect())
}

/// Writes what the list holds so far.
fn flush(tally: &mut Tally) -> Result<()> {
    match &mut tally.list {
        Some(list) => list.flush(),
        None => Ok(()),
    }
}

/// The list of both-win openings: one line per opening, the position and
/// the moves that keep both-win separated by spaces, or one JSON object.
struct ListWriter {
    out: Out,
    json: bool,
    lines: u64,
}

/// Where the list goes.
enum Out {
    /// Stdout, which writes whole lines: its line buffer sits under this
    /// one.
    Stdout(BufWriter<std::io::Stdout>),
    /// `FILE.tmp`, renamed to `FILE` when complete (`None` once done).
    File { out: Option<BufWriter<File>>, tmp: PathBuf, path: PathBuf },
}

/// One line of the list in JSON.
#[derive(Debug, Serialize)]
struct ListJson {
    position: String,
    moves: Vec<String>,
}

/// The last line of a list in JSON that stopped early.
#[derive(Debug, Serialize)]
struct IncompleteJson {
    /// Why, with the number of openings listed before.
    incomplete: String,
}

impl ListWriter {
    fn new(path: Option<&Path>, json: bool) -> Result<ListWriter> {
        let out = match path {
            Some(path) => {
                let tmp = tmp_path(path);
                let f = File::create(&tmp)
                    .with_context(|| format!("cannot create {}", tmp.display()))?;
                Out::File { out: Some(BufWriter::new(f)), tmp, path: path.to_path_buf() }
            }
            None => Out::Stdout(BufWriter::new(std::io::stdout())),
        };
        Ok(ListWriter { out, json, lines: 0 })
    }

    /// The writer and what to call it in errors.
    fn writer(&mut self) -> (&mut dyn Write, String) {
        match &mut self.out {
            Out::Stdout(w) => (w, "writing stdout".to_string()),
            Out::File { out, tmp, .. } => {
                (out.as_mut().expect("not finished"), format!("writing {}", tmp.display()))
            }
        }
    }

    fn line(&mut self, s: &Scored) -> Result<()> {
        let moves: Vec<String> = s.keep.iter().map(Move::to_string).collect();
        let text = if self.json {
            serde_json::to_string(&ListJson { position: s.pos.to_string(), moves })?
        } else {
            format!("{} {}", s.pos, moves.join(" "))
        };
        let (w, what) = self.writer();
        writeln!(w, "{text}").context(what)?;
        self.lines += 1;
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        let (w, what) = self.writer();
        w.flush().context(what)
    }

    /// Ends a list that stops at `err`: on stdout, a last line says that it
    /// is incomplete and why (`# incomplete: ...`, or in JSON an object
    /// with only `incomplete`); a file is not written at all (dropping
    /// the writer removes `FILE.tmp`).
    fn abort(mut self, err: &anyhow::Error) {
        if let Out::Stdout(_) = self.out {
            let why = format!(
                "stopped after {} opening{}: {}",
                self.lines,
                if self.lines == 1 { "" } else { "s" },
                escape_control(&format!("{err:#}"))
            );
            let line = if self.json {
                serde_json::to_string(&IncompleteJson { incomplete: why })
                    .expect("a string encodes")
            } else {
                format!("# incomplete: {why}")
            };
            let (w, _) = self.writer();
            // A failing stdout has nothing more to say.
            let _ = writeln!(w, "{line}").and_then(|()| w.flush());
        }
    }

    /// Completes the list: a file is synced and renamed to its name.
    /// Returns the number of lines.
    fn finish(mut self) -> Result<u64> {
        self.flush()?;
        if let Out::File { out, tmp, path } = &mut self.out {
            let file = out.take().expect("not finished").into_inner().map_err(|e| e.into_error());
            file.and_then(|f| f.sync_all())
                .and_then(|()| std::fs::rename(&*tmp, &*path))
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(self.lines)
    }
}

impl Drop for ListWriter {
    /// A list that was not finished (an error) leaves no file behind.
    fn drop(&mut self) {
        if let Out::File { out: Some(_), tmp, .. } = &self.out {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// `FILE.tmp` next to `FILE`.
fn tmp_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".tmp");
    PathBuf::from(name)
}

/// Writes `bytes` to `path` through `path.tmp` and a rename.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = tmp_path(path);
    let result = File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.with_context(|| format!("cannot write {}", path.display()))
}

/// Which openings were counted and how, in one sentence.
/// With `work` (the text report) it names the tables directory and the
/// states solved; without (the plot) it leaves them out.
fn describe(args: &OpeningsArgs, scorer: &Scorer, total: u64, work: Option<&Work>) -> String {
    let n = args.slots;
    let population = thousands(draw::count(n));
    let how = match scorer {
        Scorer::Tables(tb) if work.is_some() => {
            format!("read from the tables in {}", tb.dir().display())
        }
        Scorer::Tables(_) => "read from the complete tables".to_string(),
        Scorer::Solve { tables } => {
            let mut how = "solved exactly".to_string();
            if let Some(w) = work {
                how.push_str(&format!(
                    " ({} states in {} solve{})",
                    thousands(w.states),
                    w.calls,
                    if w.calls == 1 { "" } else { "s" }
                ));
            }
            if let (Some(dir), Some(_)) = (tables, work) {
                how.push_str(&format!(", with the incomplete tables in {}", dir.display()));
            }
            how
        }
    };
    match args.sample {
        None => format!("{n} slots: all {population} openings, {how}"),
        Some(_) => format!(
            "{n} slots: a random sample of {} of the {population} openings (seed {}), {how}",
            thousands(total),
            args.seed
        ),
    }
}

/// Everything the classification prints.
struct Report<'a> {
    args: &'a OpeningsArgs,
    scorer: &'a Scorer,
    tally: &'a Tally,
    work: Work,
    elapsed: Duration,
    listed: Option<u64>,
}

/// The JSON output of a classification.
#[derive(Debug, Serialize)]
struct CountsJson {
    slots: u8,
    /// The openings counted (the sample size for a sample).
    openings: u64,
    sampled: bool,
    counts: CodeMap<u64>,
    percent: CodeMap<f64>,
    /// 95% Wilson intervals in percent (samples only).
    #[serde(skip_serializing_if = "Option::is_none")]
    interval: Option<CodeMap<[f64; 2]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sample: Option<u64>,
    /// All openings of this size.
    population: u64,
    /// `solve` or `tables`.
    source: &'static str,
    /// States solved (0 from tables).
    states: u64,
    seconds: f64,
    openings_per_minute: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<Vec<QuestionJson>>,
    /// Both-win openings written to `output`.
    #[serde(skip_serializing_if = "Option::is_none")]
    both_win_listed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    plot: Option<String>,
}

impl Report<'_> {
    fn sampled(&self) -> bool {
        self.args.sample.is_some()
    }

    fn percent(&self, code: usize) -> f64 {
        100.0 * self.tally.counts[code] as f64 / self.tally.total().max(1) as f64
    }

    fn interval(&self, code: usize) -> (f64, f64) {
        let (lo, hi) = wilson(self.tally.counts[code], self.tally.total());
        (100.0 * lo, 100.0 * hi)
    }

    fn per_minute(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 { 60.0 * self.tally.total() as f64 / s } else { 0.0 }
    }

    fn to_text(&self) -> String {
        let t = self.tally;
        let mut out = describe(self.args, self.scorer, t.total(), Some(&self.work));
        out.push_str(&format!("\ntime: {:.1} s", self.elapsed.as_secs_f64()));
        if let (Scorer::Solve { .. }, true) = (self.scorer, self.sampled()) {
            out.push_str(&format!(" ({:.1} openings per minute)", self.per_minute()));
        }
        out.push('\n');
        let head = if self.sampled() { "sample" } else { "openings" };
        // Chinese characters take two columns: pad by display width.
        out.push_str(&format!(
            "\n{}{head:>11}{:>10}",
            pad_right("value for 乙 (to move)", 22),
            "%"
        ));
        if self.sampled() {
            out.push_str("   95% interval (Wilson)");
        }
        for v in ORDER {
            let c = v.code() as usize;
            let label = format!("{} {} {}", v.code(), v.chinese(), v.label());
            out.push_str(&format!(
                "\n{}{:>11}{:>9.2}%",
                pad_right(&label, 22),
                thousands(t.counts[c]),
                self.percent(c)
            ));
            if self.sampled() {
                let (lo, hi) = self.interval(c);
                out.push_str(&format!("   {lo:6.2}% .. {hi:6.2}%"));
            }
        }
        if let Some(stats) = &t.stats {
            out.push('\n');
            out.push_str(&stats.to_text());
        }
        if let (Some(lines), Some(path)) = (self.listed, &self.args.output) {
            out.push_str(&format!(
                "\n\nboth-win list: {lines} openings written to {}",
                path.display()
            ));
        }
        if let Some(path) = &self.args.plot {
            out.push_str(&format!("\nplot: {}", path.display()));
        }
        out
    }

    fn to_json(&self) -> CountsJson {
        let t = self.tally;
        let sampled = self.sampled();
        CountsJson {
            slots: self.args.slots,
            openings: t.total(),
            sampled,
            counts: CodeMap::from_fn(|c| t.counts[c]),
            percent: CodeMap::from_fn(|c| self.percent(c)),
            interval: sampled.then(|| {
                CodeMap::from_fn(|c| {
                    let (lo, hi) = self.interval(c);
                    [lo, hi]
                })
            }),
            seed: sampled.then_some(self.args.seed),
            sample: self.args.sample,
            population: draw::count(self.args.slots),
            source: match self.scorer {
                Scorer::Tables(_) => "tables",
                Scorer::Solve { .. } => "solve",
            },
            states: self.work.states,
            seconds: self.elapsed.as_secs_f64(),
            openings_per_minute: self.per_minute(),
            stats: t.stats.as_ref().map(|s| s.to_json(sampled)),
            both_win_listed: self.listed.filter(|_| self.args.output.is_some()),
            output: self.args.output.as_ref().map(|p| p.display().to_string()),
            plot: self.args.plot.as_ref().map(|p| p.display().to_string()),
        }
    }
}
