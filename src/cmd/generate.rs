//! `chaosclock generate`: writes the tablebase files of one board size and
//! pass rule ([`chaosclock::generate`]) and prints a summary.
//!
//! The files go to `DIR/n{N}-{rule}/`, one per set of fixed pieces (see
//! [`chaosclock::table::file_name`]). A run keeps the files that are complete
//! and whose checksums hold (every block's, read in parallel: seconds
//! where decoding them all took minutes), makes everything else again, and first removes the
//! temporary files an interrupted run left; so an interrupted run is
//! resumed by running the same command again. SIGTERM or Ctrl-C stops a
//! run at once with a line that says where and how to resume
//! (`interrupt.rs`); a full disk, with a line that says how much more it
//! needs (`disk_full.rs`). The summary counts only what this run generated.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use chaosclock::generate::{Config, FileDone, Limits, Projection, Report, generate_with, project};
use chaosclock::table::{BlockCache, Encoding, dir_name, fixed_sets, nodes_of};
use chaosclock::{PassRule, Value};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use serde::{Deserialize, Serialize};

use crate::cli::high::GenerateHigh;
use crate::cmd::code_map::CodeMap;
use crate::cmd::disk_full;
use crate::cmd::interrupt::{self, Place};
use crate::cmd::measured;
use crate::cmd::progress::Drawn;
use crate::cmd::{
    ADVICE_BYTES, LARGE_BYTES, cost_text, generate_command, print, print_json, projection, run_log,
    shown_path, size_text, sizes_in, thousands, time_text,
};

/// The JSON summary of `generate`.
#[derive(Debug, Serialize)]
struct GenerateJson {
    /// The directory of the files.
    dir: String,
    slots: u8,
    pass_rule: &'static str,
    max_live: u8,
    files_written: usize,
    /// Files that were complete and verified already (resumed).
    files_kept: usize,
    signatures: usize,
    /// Signatures taken from the checkpoints of an interrupted run.
    signatures_resumed: usize,
    nodes: u64,
    states: u64,
    /// The states they stand for, with their images under the symmetry.
    states_covered: u64,
    /// States per value code, keyed `"4"` (self-win) down to `"0"`
    /// (no-result), as in `openings --json`.
    counts: CodeMap<u64>,
    /// The same as shares of `states`, in percent.
    percent: CodeMap<f64>,
    seconds: f64,
    states_per_second: f64,
    bytes_written: u64,
    /// Bytes of all the files in the directory.
    bytes_on_disk: u64,
}

/// Generates the tables `args` ask for and prints a summary.
///
/// # Errors
/// A run too large without `--allow-large`, a file that cannot be
/// written, or a damaged table needed as input.
pub fn run(args: &GenerateHigh) -> Result<()> {
    let (n, max_live, rule) = (args.tables.n(), args.tables.max_live.get(), args.tables.rule);
    // Before anything is written: refuse a run too large for most disks.
    let root = &args.tables.root;
    let projected = projection(n, max_live, root, rule, args.values_only);
    if let Some(why) = refusal(&projected, args.values_only, args.allow_large) {
        bail!("{why} ({})", shown_path(&root.join(dir_name(n, rule))));
    }
    // A run of hours says what it will take before it starts.
    if let Some(note) = measured::long_run_note(n, rule, args.values_only, &projected) {
        eprintln!("{note}");
    }
    // Not `.context()`: the pool's error shows the OS error and has it as
    // its source too, so `{:#}` would print it twice.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.map_or(0, |t| t.get()))
        .build()
        .map_err(|e| anyhow!("cannot start the worker threads: {e}"))?;
    let cache = Arc::new(BlockCache::new(args.block_cache));
    let files = fixed_sets(n, max_live).len();
    // Without --slots, a root that holds only other sizes may mean the
    // user wanted one of those (issue 14, finding 4): say so, and go on.
    let sizes = sizes_in(root, rule);
    if !args.tables.slots_given && !sizes.is_empty() && !sizes.contains(&n) {
        let names: Vec<String> = sizes.iter().map(|&k| dir_name(k, rule)).collect();
        eprintln!(
            "note: --slots not given: generating the standard {n}-slot tables; {} holds {} (--slots N for those)",
            shown_path(root),
            names.join(", ")
        );
    }
    if max_live < n {
        eprintln!(
            "note: generating {} file{}: the {n}-slot signatures with at most {max_live} \
             pieces not fixed; --max-live {n} makes the complete table{}",
            thousands(files as u64),
            if files == 1 { "" } else { "s" },
            complete_cost(n)
        );
    }
    let encoding = if args.values_only { Encoding::Packed } else { Encoding::Coded };
    let stream = !args.read_children;
    let mut limits = Limits::default();
    limits.checkpoint = args.checkpoint;
    limits.stream = stream;
    if let Some(sets) = args.model_sets {
        limits.sets = sets;
    }
    let cfg = Config::new(root.to_path_buf(), n, rule)
        .with_max_live(max_live)
        .with_encoding(encoding)
        .with_limits(limits);
    let log = match &args.file_log {
        Some(path) => Some(FileLog::open(path)?),
        None => None,
    };
    let bar = progress_bar();
    let place = Arc::new(Place {
        bar: bar.clone(),
        files_done: AtomicUsize::new(0),
        files,
        dir: root.join(dir_name(n, rule)),
        command: generate_command(n, max_live, root, rule, args.values_only),
    });
    interrupt::stop_on_signal(Arc::clone(&place));
    let report = std::thread::scope(|scope| {
        // Without a terminal, a line now and then (a log of a long run).
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        if bar.is_hidden() {
            let bar = bar.clone();
            let table = nodes_of(n, &fixed_sets(n, max_live));
            let dir = root.join(dir_name(n, rule));
            let cache = Arc::clone(&cache);
            scope.spawn(move || progress_log(&bar, &cache, table, &dir, &stopped, LOG_EVERY));
        }
        let report = pool.install(|| {
            let done = |f: &FileDone| {
                place.files_done.fetch_add(1, Ordering::Relaxed);
                log.iter().for_each(|log| log.write(f));
            };
            generate_with(&cfg, Some(&Drawn(&bar)), &done, cache)
        });
        drop(stop);
        report
    });
    bar.finish_and_clear();
    let dir = root.join(dir_name(n, rule));
    let report = match report {
        Ok(report) => report,
        Err(e) if disk_full::is_disk_full(&e) => {
            let missing = projection(n, max_live, root, rule, args.values_only).bytes;
            bail!("{}", disk_full::line(&dir, missing, &place.command));
        }
        Err(e) => return Err(e.into()),
    };
    // Only from a complete table: a partial one may be extended, and
    // every run that adds files reads the side files of the others.
    if encoding == Encoding::Coded && max_live == n && !args.keep_side_files {
        remove_side_files(&dir)?;
    }
    let on_disk =
        files_size(&dir, false).with_context(|| format!("cannot list {}", dir.display()))?;
    let summary = Summary { dir, n, rule, max_live, report, on_disk };
    if args.json { print_json(&summary.to_json()) } else { print(&summary.to_text()) }
}

/// Removes the side files of a complete table with depths (no run needs
/// them any more; queries derive 乙's depths without them).
fn remove_side_files(dir: &Path) -> Result<()> {
    let listed =
        std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for entry in listed {
        let path = entry.with_context(|| format!("cannot list {}", dir.display()))?.path();
        if path.to_string_lossy().ends_with(".side.cctb") {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove {}", path.display()))?;
        }
    }
    Ok(())
}

/// What the complete table of `n` slots costs, from the same projection as
/// the size guard ([`refusal`]), as the end of the note on a partial run:
/// empty unless the table with depths is projected over [`ADVICE_BYTES`]
/// (only 12 slots).
fn complete_cost(n: u8) -> String {
    let all = fixed_sets(n, n);
    let depths = project(n, &all, Encoding::Coded);
    if depths.bytes <= ADVICE_BYTES {
        return String::new();
    }
    let values = project(n, &all, Encoding::Packed);
    let script = if n == 12 { ": see scripts/make-table-12.sh" } else { "" };
    format!(
        " (with --values-only {}; with depths up to {} while it is made, {}{script})",
        cost_text(&values),
        size_text(depths.bytes),
        time_text(depths.seconds)
    )
}

/// Why a run projected to write `p` is refused, in one line (without
/// the directory), or `None` to go on: over [`LARGE_BYTES`] without
/// `--allow-large`. Tables with depths are pointed to `--values-only`.
fn refusal(p: &Projection, values_only: bool, allow_large: bool) -> Option<String> {
    if allow_large || p.bytes <= LARGE_BYTES {
        return None;
    }
    let alternative =
        if values_only { "" } else { "--values-only makes tables a quarter the size, or " };
    Some(format!(
        "this run would write about {} ({} nodes in {} files, {} on 2 cores), more than {}: {alternative}add --allow-large to write it anyway",
        size_text(p.bytes),
        thousands(p.nodes),
        thousands(p.files as u64),
        time_text(p.seconds),
        size_text(LARGE_BYTES)
    ))
}

/// `--file-log FILE`: one JSON line per completed table file, appended.
pub struct FileLog {
    file: std::sync::Mutex<std::fs::File>,
    path: std::path::PathBuf,
}

/// One line of a file log (read back by `manifest`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileLogLine {
    /// The file name.
    pub file: String,
    /// Its fixed set.
    pub fixed: u16,
    /// Its nodes.
    pub nodes: u64,
    /// Its states (with those of the checkpoints it went on from).
    pub states: u64,
    /// Its states per value code.
    pub counts: CodeMap<u64>,
    /// Its length in bytes.
    pub bytes: u64,
}

impl FileLog {
    /// Opens the log at `path` to append to it (created if missing).
    ///
    /// # Errors
    /// It cannot be opened.
    pub fn open(path: &std::path::Path) -> Result<FileLog> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open --file-log {}", path.display()))?;
        Ok(FileLog { file: std::sync::Mutex::new(file), path: path.to_path_buf() })
    }

    /// Appends the line of `f` whole (one write), and syncs it. A line
    /// that cannot be written is reported on stderr and the run goes on:
    /// the tables matter more than their log.
    fn write(&self, f: &FileDone) {
        self.append(&FileLogLine {
            file: format!("f{:04x}.cctb", f.fixed),
            fixed: f.fixed,
            nodes: f.nodes,
            states: f.states,
            counts: CodeMap::from_fn(|c| f.counts[c]),
            bytes: f.bytes,
        });
    }

    /// Appends `line` whole (one write), and syncs it; a line that cannot
    /// be written is reported on stderr.
    pub fn append(&self, line: &FileLogLine) {
        use std::io::Write;
        let mut text = serde_json::to_string(line).expect("a file log line serializes");
        text.push('\n');
        let mut file = self.file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.sync_data()) {
            eprintln!("warning: cannot write --file-log {}: {e}", self.path.display());
        }
    }
}

/// A bar counting nodes on stderr, hidden when stderr is not a terminal.
fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = crate::cmd::progress::drawn_bar(0);
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {bar:30} {done}/{total} nodes, {rate}, eta {eta}",
    )
    .expect("the progress template is valid")
    .with_key("done", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{}", thousands(s.pos()));
    })
    .with_key("total", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{}", thousands(s.len().unwrap_or(0)));
    })
    .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{}/s", thousands(s.per_sec() as u64));
    });
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// How often [`progress_log`] writes a line.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// How often [`progress_log`] samples the anonymous memory.
const SAMPLE_EVERY: Duration = Duration::from_secs(1);

/// Writes a progress line on stderr every `every` until `stop` closes
/// ([`run_log::progress_line`]): the share of nodes done, the speed over
/// the last ten lines, the time left at that speed, the share of the
/// `table` nodes done, the peak memory, the highest anonymous memory seen,
/// the disk space `dir` takes and the blocks read and missed through
/// `cache` since the line before.
fn progress_log(
    bar: &ProgressBar,
    cache: &BlockCache,
    table: u64,
    dir: &Path,
    stop: &std::sync::mpsc::Receiver<()>,
    every: Duration,
) {
    let start = std::time::Instant::now();
    let mut window = std::collections::VecDeque::from([(start, bar.position())]);
    let (mut last, mut anonymous) = (start, run_log::anonymous_kib());
    let mut counted = cache.counts();
    // Memory is sampled every second (at most), a line written every `every`.
    while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
        stop.recv_timeout(every.min(SAMPLE_EVERY))
    {
        anonymous = anonymous.max(run_log::anonymous_kib());
        if last.elapsed() < every {
            continue;
        }
        last = std::time::Instant::now();
        let (now, done) = (last, bar.position());
        window.push_back((now, done));
        if window.len() > 11 {
            window.pop_front();
        }
        let (t0, d0) = window[0];
        let rate = done.saturating_sub(d0) as f64 / now.duration_since(t0).as_secs_f64();
        let (reads, misses) = cache.counts();
        let blocks = (reads - counted.0, misses - counted.1);
        counted = (reads, misses);
        let progress = run_log::Progress {
            elapsed: start.elapsed(),
            done,
            total: bar.length().unwrap_or(0),
            table,
            per_second: rate,
            peak_kib: run_log::peak_memory_kib(),
            anonymous_kib: anonymous,
            disk_bytes: files_size(dir, true).ok(),
            blocks,
        };
        eprintln!("{}", run_log::progress_line(&progress));
    }
}

/// The total size of the files in `dir`: their lengths, or with
/// `allocated` the blocks they take on disk (scratch files may be sparse;
/// lengths where blocks are not known).
fn files_size(dir: &Path, allocated: bool) -> std::io::Result<u64> {
    let mut total = 0;
    for entry in std::fs::read_dir(dir)? {
        let meta = entry?.metadata()?;
        if !meta.is_file() {
            continue;
        }
        #[cfg(unix)]
        if allocated {
            total += std::os::unix::fs::MetadataExt::blocks(&meta) * 512;
            continue;
        }
        let _ = allocated;
        total += meta.len();
    }
    Ok(total)
}

/// What `generate` prints.
struct Summary {
    dir: PathBuf,
    n: u8,
    rule: PassRule,
    max_live: u8,
    report: Report,
    on_disk: u64,
}

impl Summary {
    fn seconds(&self) -> f64 {
        self.report.elapsed.as_secs_f64()
    }

    fn states_per_second(&self) -> f64 {
        let s = self.seconds();
        if s > 0.0 { self.report.states as f64 / s } else { 0.0 }
    }

    fn percent(&self, count: u64) -> f64 {
        if self.report.states == 0 { 0.0 } else { 100.0 * count as f64 / self.report.states as f64 }
    }

    fn to_text(&self) -> String {
        let r = &self.report;
        let mut t = String::new();
        t.push_str(&format!(
            "tables:      {} ({} slots, pass rule {}, at most {} pieces not fixed)\n",
            self.dir.display(),
            self.n,
            self.rule.name(),
            self.max_live
        ));
        t.push_str(&format!(
            "files:       {} written, {} kept (complete already)\n",
            thousands(r.files_written as u64),
            thousands(r.files_kept as u64)
        ));
        t.push_str(&format!("signatures:  {}", thousands(r.signatures as u64)));
        if r.resumed > 0 {
            t.push_str(&format!(" ({} from checkpoints)", thousands(r.resumed as u64)));
        }
        t.push('\n');
        t.push_str(&format!("nodes:       {} (board and side to move)\n", thousands(r.nodes)));
        t.push_str(&format!(
            "states:      {} (standing for {} with their images under x -> ux)\n",
            thousands(r.states),
            thousands(r.covered)
        ));
        for v in Value::ALL.iter().rev() {
            let count = r.counts[usize::from(v.code())];
            t.push_str(&format!(
                "  {:<16} {:>15}  {:5.1}%\n",
                v.to_string(),
                thousands(count),
                self.percent(count)
            ));
        }
        t.push_str(&format!("time:        {:.1} s\n", self.seconds()));
        t.push_str(&format!(
            "speed:       {} states/s\n",
            thousands(self.states_per_second().round() as u64)
        ));
        t.push_str(&format!("written:     {}\n", bytes(r.bytes)));
        t.push_str(&format!("on disk:     {} in {}", bytes(self.on_disk), self.dir.display()));
        t
    }

    fn to_json(&self) -> GenerateJson {
        let r = &self.report;
        GenerateJson {
            dir: self.dir.display().to_string(),
            slots: self.n,
            pass_rule: self.rule.name(),
            max_live: self.max_live,
            files_written: r.files_written,
            files_kept: r.files_kept,
            signatures: r.signatures,
            signatures_resumed: r.resumed,
            nodes: r.nodes,
            states: r.states,
            states_covered: r.covered,
            counts: CodeMap::from_fn(|c| r.counts[c]),
            percent: CodeMap::from_fn(|c| self.percent(r.counts[c])),
            seconds: self.seconds(),
            states_per_second: self.states_per_second(),
            bytes_written: r.bytes,
            bytes_on_disk: self.on_disk,
        }
    }
}

/// A byte count with its size in MB (10^6 bytes).
fn bytes(n: u64) -> String {
    format!("{} bytes ({:.1} MB)", thousands(n), n as f64 / 1e6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_on_partial_runs_names_the_complete_12_slot_cost() {
        let note = complete_cost(12);
        assert!(note.contains("with --values-only 7.1 GB, about 5 h on 2 cores"), "{note}");
        assert!(note.contains("with depths up to 33.7 GB while it is made, about 16 h"), "{note}");
        assert!(note.ends_with("scripts/make-table-12.sh)"), "{note}");
        for n in [4, 6, 8, 10] {
            assert_eq!(complete_cost(n), "", "{n} slots");
        }
    }

    #[test]
    fn only_runs_over_20_gb_are_refused() {
        let all = fixed_sets(12, 12);
        let depths = project(12, &all, Encoding::Coded);
        let why = refusal(&depths, false, false).expect("about 34 GB is refused");
        assert!(why.contains("about 33.7 GB") && why.contains("--allow-large"), "{why}");
        assert!(why.contains("--values-only") && !why.contains('\n'), "{why}");
        assert!(refusal(&depths, false, true).is_none(), "--allow-large goes on");
        // Values only: about 7 GB, not refused.
        let values = project(12, &all, Encoding::Packed);
        assert!(values.bytes < 8_000_000_000);
        assert!(refusal(&values, true, false).is_none());
        // The default --max-live 6, and 10 slots with depths (about 1 GB).
        let small = project(12, &fixed_sets(12, 6), Encoding::Coded);
        assert!(refusal(&small, false, false).is_none());
        let ten = project(10, &fixed_sets(10, 10), Encoding::Coded);
        assert!(refusal(&ten, false, false).is_none());
    }
}
