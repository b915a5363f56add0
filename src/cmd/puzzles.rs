//! `chaosclock puzzles`: print a puzzle of a set (the one built into the
//! binary, or `--file`), export the set as CSV, check it with the solver
//! (`--verify`), or make a set from engine games (`--build`,
//! docs/puzzles.md).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use chaosclock::puzzle::{
    BuildConfig, Builder, CSV_HEADER, Puzzle, RULE, canonical_key, check, check_set, embedded,
    parse_csv, pick, select,
};
use chaosclock::solve::solve_bounded;
use chaosclock::{Dial, Variant};
use rayon::prelude::*;
use std::collections::HashSet as FxHashSet;

use crate::cli::games::{BuildHigh, PuzzlesHigh};
use crate::cli::shown_path;
use crate::cmd::{Failure, print, print_json, short_name};
use crate::view::puzzle::PuzzleJson;

/// Runs `puzzles`.
///
/// # Errors
/// A bad set, no puzzle matching, a mismatch (`--verify`, exit code 1), a
/// file that cannot be written (`--build`).
pub fn run(args: &PuzzlesHigh) -> Result<()> {
    if let Some(build) = &args.build {
        return build_set(args.slots, build);
    }
    let set: &[Puzzle] = match &args.file {
        Some((_, set)) => set,
        None => embedded(args.slots).context("the built-in puzzle set")?,
    };
    if set.is_empty() {
        bail!("no puzzles of {} slots in the set", args.slots);
    }
    if args.verify {
        return verify(set, args);
    }
    if args.csv {
        let mut text = String::from(CSV_HEADER);
        for p in set.iter().filter(|p| args.theme.is_none_or(|t| p.themes.contains(&t))) {
            text.push('\n');
            text.push_str(&p.to_csv());
        }
        return print(&text);
    }
    let found = match &args.id {
        Some(id) => set.iter().find(|p| &p.id == id),
        None => pick(set, args.theme, args.rating, args.seed.unwrap_or_else(clock_seed)),
    };
    let Some(p) = found else {
        match (&args.id, args.theme) {
            (Some(id), _) => bail!("no puzzle with id '{}'", chaosclock::escape_control(id)),
            (None, Some(t)) => bail!("no puzzle of {} slots with the theme {t}", args.slots),
            (None, None) => bail!("no puzzles"),
        }
    };
    if args.json { print_json(&PuzzleJson::new(p)) } else { print(&to_text(p)) }
}

/// The text of a puzzle: the position drawn, what to find, the solution.
fn to_text(p: &Puzzle) -> String {
    let solver = p.start.side();
    let mut text = format!(
        "puzzle {} ({} slots), rating {} ± {}, themes: {}\n",
        p.id,
        p.start.slots(),
        p.rating,
        p.deviation,
        p.themes.iter().map(|t| t.name()).collect::<Vec<_>>().join(" ")
    );
    text.push_str(&format!(
        "{} played {} in {} (a mistake)\n\n",
        short_name(solver.other()),
        p.mistake,
        p.before
    ));
    text.push_str(&Dial::new(&p.start).to_string());
    text.push_str(&format!(
        "\nposition: {}\n{} to move: find the only move that keeps {} {} ({} move{})\n",
        p.start,
        solver.label(),
        p.value.chinese(),
        p.value.label(),
        p.length(),
        if p.length() == 1 { "" } else { "s" }
    ));
    let line: Vec<String> = p
        .steps()
        .iter()
        .zip(p.forced())
        .map(|((pos, m), forced)| {
            format!("{} {m}{}", short_name(pos.side()), if forced { " (forced)" } else { "" })
        })
        .collect();
    text.push_str(&format!("solution: {}", line.join(", ")));
    text
}

/// Checks the puzzles of `set` (or a sample) with the solver, in parallel.
fn verify(set: &[Puzzle], args: &PuzzlesHigh) -> Result<()> {
    let start = Instant::now();
    let picked: Vec<&Puzzle> = match args.sample {
        Some(k) if k < set.len() => {
            let seed = args.seed.unwrap_or(1);
            let mut order: Vec<(u64, &Puzzle)> =
                set.iter().enumerate().map(|(i, p)| (mix(seed ^ i as u64), p)).collect();
            order.sort_by_key(|&(k, _)| k);
            order.into_iter().take(k).map(|(_, p)| p).collect()
        }
        _ => set.iter().collect(),
    };
    let mut ids = FxHashSet::new();
    for p in set {
        if !ids.insert(&p.id) {
            bail!("puzzle id {} appears twice", p.id);
        }
    }
    // A file may be a part of a set (`--csv --theme`): the shares hold for
    // whole sets, the built-in ones.
    let rules = check_set(set, args.file.is_none());
    let variant = Variant::new(args.slots, RULE)?;
    let failures: Vec<String> = picked
        .par_iter()
        .filter_map(|p| {
            let solved = match solve_bounded(variant, &[p.before], None, 200_000_000, None) {
                Ok(s) => s,
                Err(e) => return Some(format!("puzzle {}: {e}", p.id)),
            };
            match check(&solved, p) {
                Ok(Ok(())) => None,
                Ok(Err(e)) => Some(e.to_string()),
                Err(e) => Some(format!("puzzle {}: {e}", p.id)),
            }
        })
        .collect();
    let seconds = start.elapsed().as_secs_f64();
    for f in &rules {
        eprintln!("set: {f}");
    }
    if !rules.is_empty() {
        return Err(Failure {
            code: 1,
            message: format!("the set breaks {} of its rules (docs/puzzles.md)", rules.len()),
        }
        .into());
    }
    for f in &failures {
        eprintln!("mismatch: {f}");
    }
    let checked = picked.len();
    if !failures.is_empty() {
        return Err(Failure {
            code: 1,
            message: format!("{} of {checked} puzzles differ from the solver", failures.len()),
        }
        .into());
    }
    print(&format!(
        "ok: {checked} of {} puzzles of {} slots agree with the solver ({seconds:.1} s)",
        set.len(),
        args.slots
    ))
}

/// Where a build keeps its state: the puzzles so far and the next round.
fn partial_paths(out: &Path) -> (PathBuf, PathBuf) {
    let name = out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    (out.with_file_name(format!("{name}.partial")), out.with_file_name(format!("{name}.rounds")))
}

/// `--build`: rounds in parallel batches, kept in order, until the
/// puzzles found make a set of `count` (`puzzle::select`, docs/puzzles.md).
fn build_set(slots: u8, b: &BuildHigh) -> Result<()> {
    let out: &Path = b.out.path();
    let (partial, rounds_file) = partial_paths(out);
    let stamp = format!("slots {slots} seed {} budget {}", b.seed, b.budget);
    let (mut found, mut next) = resume(&partial, &rounds_file, &stamp)?;
    if next > 0 {
        eprintln!("resuming at round {next} with {} puzzles found", found.len());
    }
    let mut keys: FxHashSet<u64> = found.iter().map(|p| canonical_key(&p.start)).collect();
    let builder = Builder::new(BuildConfig { slots, seed: b.seed, budget: b.budget });
    let batch = (rayon::current_num_threads() as u64 * 2).max(2);
    let started = Instant::now();
    let mut games = 0u64;
    let mut set = select(&found, b.count);
    while set.len() < b.count {
        let rounds: Vec<_> =
            (next..next + batch).into_par_iter().map(|r| builder.round(r)).collect();
        next += batch;
        // The found after each round of the batch.
        let mut ends = Vec::new();
        for round in rounds {
            games += round.games;
            found
                .extend(round.puzzles.into_iter().filter(|p| keys.insert(canonical_key(&p.start))));
            ends.push(found.len());
        }
        set = select(&found, b.count);
        if set.len() >= b.count {
            // The set ends at the first round that completes it: the same
            // whatever the batches (threads) and wherever a build resumed.
            for (i, &end) in ends.iter().enumerate() {
                let first = select(&found[..end], b.count);
                if first.len() >= b.count {
                    set = first;
                    found.truncate(end);
                    next = next - batch + i as u64 + 1;
                    break;
                }
            }
        }
        save(&partial, &found)?;
        std::fs::write(&rounds_file, format!("{stamp}\nnext {next}\n"))
            .with_context(|| format!("cannot write {}", shown_path(&rounds_file)))?;
        let ones = set.iter().filter(|p| p.length() == 1).count();
        eprintln!(
            "round {next}: {} of {} puzzles ({ones} of one move) from {} found, {games} games, {:.0} s",
            set.len(),
            b.count,
            found.len(),
            started.elapsed().as_secs_f64()
        );
    }
    save(out, &set)?;
    let _ = std::fs::remove_file(&partial);
    let _ = std::fs::remove_file(&rounds_file);
    print(&format!(
        "wrote {} puzzles of {slots} slots to {} (seed {}, {next} rounds, {} found, {:.0} s)",
        set.len(),
        shown_path(out),
        b.seed,
        found.len(),
        started.elapsed().as_secs_f64()
    ))
}

/// The puzzles and the next round of an interrupted build with the same
/// stamp, or none.
fn resume(partial: &Path, rounds: &Path, stamp: &str) -> Result<(Vec<Puzzle>, u64)> {
    let Ok(state) = std::fs::read_to_string(rounds) else { return Ok((Vec::new(), 0)) };
    let mut lines = state.lines();
    if lines.next() != Some(stamp) {
        eprintln!("note: {} is from another build: starting again", shown_path(rounds));
        return Ok((Vec::new(), 0));
    }
    let next = lines
        .next()
        .and_then(|l| l.strip_prefix("next "))
        .and_then(|n| n.parse().ok())
        .with_context(|| format!("{} is damaged: remove it to start again", shown_path(rounds)))?;
    let text = std::fs::read_to_string(partial)
        .with_context(|| format!("cannot read {}", shown_path(partial)))?;
    let found = parse_csv(&text).with_context(|| format!("reading {}", shown_path(partial)))?;
    Ok((found, next))
}

/// Writes `set` to `path` through a temporary file.
fn save(path: &Path, set: &[Puzzle]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    let mut f = std::io::BufWriter::new(
        std::fs::File::create(&tmp)
            .with_context(|| format!("cannot write {}", shown_path(&tmp)))?,
    );
    writeln!(f, "{CSV_HEADER}")?;
    for p in set {
        writeln!(f, "{}", p.to_csv())?;
    }
    f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", shown_path(path)))?;
    Ok(())
}

/// A seed from the clock.
pub fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(1, |d| d.as_nanos() as u64)
}

/// splitmix64: spreads a seed over all bits.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
