//! The log of a long `generate` run: what `generate` writes on stderr
//! when it is not a terminal ([`progress_line`], once a minute), and what
//! `manifest` reads back from it ([`RunStats::parse`]): how many runs made
//! the tables, their wall time, their peak memory (resident and
//! anonymous) and the most disk they took.
//!
//! The lines of a log, as `scripts/make-table-12.sh` writes it:
//! - `=== run started ...` (the script): a run begins. Other `===` lines
//!   are remarks.
//! - `[1h02m03s] 12.34% done: ..., 56.78% of the table, peak memory 1,234 MiB, anonymous 987 MiB, disk 5,678 MiB, 22,345,678 block reads (1.23% missed)`
//!   ([`progress_line`]): the run's elapsed time, the share of its own work
//!   done, the share of the whole table done (when earlier runs made part
//!   of it: files kept and checkpoints, counted from the start), the peak of its resident memory so far (`VmHWM`, which counts
//!   the pages of the table files it maps too), the highest anonymous
//!   memory seen (`RssAnon`, sampled every second: the memory the run
//!   itself needs), the disk space its directory takes now and the blocks
//!   of table files read through the threads' caches since the line before,
//!   with the share that had to be decoded again (logs of earlier builds
//!   lack the last five).
//! - `run ended: exit 0, wall 123.45 s, peak memory 123456 KiB`
//!   (`/usr/bin/time`, only when the run ends by itself: a run that is
//!   killed has no such line, so its time is that of its last progress
//!   line, at most a minute short).
//!
//! Anything else is ignored.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::cmd::thousands;

/// The anonymous resident memory of this process now, in KiB (`RssAnon`
/// of `/proc/self/status`; `None` where there is no such file).
pub fn anonymous_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("RssAnon:"))?;
    line.trim().strip_suffix("kB")?.trim().parse().ok()
}

/// A duration as hours, minutes and seconds, as progress lines show it.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
}

/// The seconds of a [`clock`] text.
fn parse_clock(text: &str) -> Option<u64> {
    let (h, rest) = text.split_once('h')?;
    let (m, rest) = rest.split_once('m')?;
    let s = rest.strip_suffix('s')?;
    let num = |t: &str| t.parse::<u64>().ok();
    Some(num(h)? * 3600 + num(m)? * 60 + num(s)?)
}

/// The peak resident memory of this process so far, in KiB (`VmHWM` of
/// `/proc/self/status`; `None` where there is no such file).
pub fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    line.trim().strip_suffix("kB")?.trim().parse().ok()
}

/// What one progress line says.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Time since the run started.
    pub elapsed: Duration,
    /// Nodes this run made so far.
    pub done: u64,
    /// Nodes this run makes in all.
    pub total: u64,
    /// Nodes of the whole table (more than `total` when earlier runs made
    /// part of it).
    pub table: u64,
    /// Nodes a second lately.
    pub per_second: f64,
    /// The peak resident memory so far, in KiB, if known.
    pub peak_kib: Option<u64>,
    /// The highest anonymous resident memory seen so far, in KiB, if known.
    pub anonymous_kib: Option<u64>,
    /// The disk space the table directory takes now (tables, scratch and
    /// checkpoints), in bytes, if known.
    pub disk_bytes: Option<u64>,
    /// Blocks of table files read through the caches since the line
    /// before, and those of them that had to be decoded again (misses).
    pub blocks: (u64, u64),
}

/// One progress line: elapsed time, share and count of nodes done, the
/// speed, the time left at that speed, the share of the whole table done
/// when earlier runs made part of it, the peak memory and the disk used,
/// if known.
///
/// Before the run knows what is left (`total` 0: it is checking the files
/// earlier runs made), the line says so instead of the shares.
pub fn progress_line(p: &Progress) -> String {
    if p.total == 0 {
        let mut line = format!("[{}] checking the files already made", clock(p.elapsed));
        push_resources(&mut line, p);
        return line;
    }
    let left = if p.per_second > 0.0 {
        clock(Duration::from_secs_f64(p.total.saturating_sub(p.done) as f64 / p.per_second))
    } else {
        "unknown".into()
    };
    let mut line = format!(
        "[{}] {:.2}% done: {} of {} nodes, {} nodes/s, about {left} left",
        clock(p.elapsed),
        100.0 * p.done as f64 / p.total.max(1) as f64,
        thousands(p.done),
        thousands(p.total),
        thousands(p.per_second as u64),
    );
    if p.table > p.total {
        let before = p.table - p.total;
        let share = 100.0 * (before + p.done) as f64 / p.table as f64;
        line.push_str(&format!(", {share:.2}% of the table"));
    }
    push_resources(&mut line, p);
    line
}

/// Adds the peak memory and the disk used, if known, to `line`.
fn push_resources(line: &mut String, p: &Progress) {
    if let Some(kib) = p.peak_kib {
        line.push_str(&format!(", peak memory {} MiB", thousands(kib.div_ceil(1024))));
    }
    if let Some(kib) = p.anonymous_kib {
        line.push_str(&format!(", anonymous {} MiB", thousands(kib.div_ceil(1024))));
    }
    if let Some(bytes) = p.disk_bytes {
        line.push_str(&format!(", disk {} MiB", thousands(bytes.div_ceil(1 << 20))));
    }
    let (reads, misses) = p.blocks;
    if reads > 0 {
        let share = 100.0 * misses as f64 / reads as f64;
        line.push_str(&format!(", {} block reads ({share:.2}% missed)", thousands(reads)));
    }
}

/// What a run log says about the runs that made a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunStats {
    /// Runs (each start of the script; a log without markers is one run).
    pub runs: usize,
    /// Their wall time added up, in seconds.
    pub wall_seconds: u64,
    /// The highest peak resident memory any run logged, in KiB.
    pub peak_memory_kib: Option<u64>,
    /// Runs that logged their peak memory.
    pub runs_with_memory: usize,
    /// The most disk space the table directory took in any progress line,
    /// in MiB (`None` if no line says).
    pub peak_disk_mib: Option<u64>,
    /// The highest anonymous memory (`RssAnon`, what a run needs apart
    /// from the table files it maps) any progress line gave, in MiB
    /// (`None` if no line says: logs and manifests of earlier builds).
    #[serde(default)]
    pub peak_anonymous_mib: Option<u64>,
}

/// One run while parsing.
#[derive(Default)]
struct Run {
    seconds: u64,
    peak_kib: Option<u64>,
    disk_mib: Option<u64>,
    anonymous_mib: Option<u64>,
    seen: bool,
}

impl RunStats {
    /// Reads a log. `None` if it holds no run at all (no marker, no
    /// progress line, no end line).
    pub fn parse(log: &str) -> Option<RunStats> {
        let mut runs: Vec<Run> = Vec::new();
        let mut current = Run::default();
        for line in log.lines() {
            if line.starts_with("=== run started") {
                if current.seen {
                    runs.push(std::mem::take(&mut current));
                }
                current.seen = true;
            } else if let Some(rest) = line.strip_prefix('[') {
                let Some((time, rest)) = rest.split_once("] ") else { continue };
                let Some(seconds) = parse_clock(time) else { continue };
                if !rest.contains("% done:") && !rest.starts_with("checking") {
                    continue;
                }
                current.seen = true;
                current.seconds = current.seconds.max(seconds);
                if let Some(mib) = after(rest, ", peak memory ", " MiB") {
                    current.peak_kib = current.peak_kib.max(Some(mib * 1024));
                }
                if let Some(mib) = after(rest, ", disk ", " MiB") {
                    current.disk_mib = current.disk_mib.max(Some(mib));
                }
                if let Some(mib) = after(rest, ", anonymous ", " MiB") {
                    current.anonymous_mib = current.anonymous_mib.max(Some(mib));
                }
            } else if let Some(rest) = line.strip_prefix("run ended:") {
                current.seen = true;
                if let Some(wall) = after(rest, "wall ", " s") {
                    current.seconds = current.seconds.max(wall);
                }
                if let Some(kib) = after(rest, "peak memory ", " KiB") {
                    current.peak_kib = current.peak_kib.max(Some(kib));
                }
            }
        }
        if current.seen {
            runs.push(current);
        }
        (!runs.is_empty()).then(|| RunStats {
            runs: runs.len(),
            wall_seconds: runs.iter().map(|r| r.seconds).sum(),
            peak_memory_kib: runs.iter().filter_map(|r| r.peak_kib).max(),
            runs_with_memory: runs.iter().filter(|r| r.peak_kib.is_some()).count(),
            peak_disk_mib: runs.iter().filter_map(|r| r.disk_mib).max(),
            peak_anonymous_mib: runs.iter().filter_map(|r| r.anonymous_mib).max(),
        })
    }
}

/// The whole number (commas and a fraction ignored) between `before` and
/// `after` in `text`.
fn after(text: &str, before: &str, after: &str) -> Option<u64> {
    let start = text.find(before)? + before.len();
    let len = text[start..].find(after)?;
    let number = &text[start..start + len];
    let whole = number.split('.').next()?.replace(',', "");
    whole.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_checking_its_files_says_so() {
        let progress = Progress {
            elapsed: Duration::from_secs(120),
            done: 0,
            total: 0,
            table: 800,
            per_second: 0.0,
            peak_kib: Some(3 << 20),
            anonymous_kib: None,
            disk_bytes: Some(2 << 30),
            blocks: (0, 0),
        };
        let line = progress_line(&progress);
        assert_eq!(
            line,
            "[0h02m00s] checking the files already made, peak memory 3,072 MiB, disk 2,048 MiB"
        );
        let stats = RunStats::parse(&line).expect("one run");
        assert_eq!((stats.wall_seconds, stats.peak_memory_kib), (120, Some(3 << 20)));
    }

    #[test]
    fn progress_lines_read_back() {
        let progress = Progress {
            elapsed: Duration::from_secs(3723),
            done: 50,
            total: 200,
            table: 800,
            per_second: 12.5,
            peak_kib: Some(2_000_000),
            anonymous_kib: Some(1_000_000),
            disk_bytes: Some(5 << 30),
            blocks: (22_345_678, 274_000),
        };
        let line = progress_line(&progress);
        assert_eq!(
            line,
            "[1h02m03s] 25.00% done: 50 of 200 nodes, 12 nodes/s, about 0h00m12s left, 81.25% of the table, peak memory 1,954 MiB, anonymous 977 MiB, disk 5,120 MiB, 22,345,678 block reads (1.23% missed)"
        );
        let stats = RunStats::parse(&line).expect("one run");
        assert_eq!(
            stats,
            RunStats {
                runs: 1,
                wall_seconds: 3723,
                peak_memory_kib: Some(1954 * 1024),
                runs_with_memory: 1,
                peak_disk_mib: Some(5120),
                peak_anonymous_mib: Some(977),
            }
        );
        let bare = Progress {
            elapsed: Duration::from_secs(59),
            done: 0,
            total: 0,
            table: 0,
            per_second: 0.0,
            peak_kib: None,
            anonymous_kib: None,
            disk_bytes: None,
            blocks: (0, 0),
        };
        assert_eq!(progress_line(&bare), "[0h00m59s] checking the files already made");
    }

    #[test]
    fn runs_add_up() {
        let log = "\
=== run started 2026-11-23 14:24:59 UTC, commit e2de30b
[0h01m00s] 0.10% done: 1 of 9 nodes, 1 nodes/s, about 1h00m00s left
[0h02m00s] 0.20% done: 2 of 9 nodes, 1 nodes/s, about 1h00m00s left
=== 2026-11-23: a remark
=== run started 2026-11-23 16:23:01 UTC, commit 5107bb7
note: something else
[0h10m00s] 1.00% done: 3 of 9 nodes, 1 nodes/s, about 1h00m00s left, peak memory 2,048 MiB, disk 7 MiB
[0h10m30s] 1.00% done: 3 of 9 nodes, 1 nodes/s, about 1h00m00s left, anonymous 1,500 MiB, disk 9 MiB
[0h10m20s] 1.00% done: 3 of 9 nodes, 1 nodes/s, about 1h00m00s left, anonymous 1,200 MiB
[bad] 1.00% done
run ended: exit 0, wall 630.50 s, peak memory 3000000 KiB
=== run started 2026-11-23 17:00:00 UTC, commit 5107bb7
";
        let stats = RunStats::parse(log).expect("runs");
        assert_eq!(stats.runs, 3);
        assert_eq!(stats.wall_seconds, 120 + 630);
        assert_eq!(stats.peak_memory_kib, Some(3_000_000));
        assert_eq!(stats.runs_with_memory, 1);
        assert_eq!(stats.peak_disk_mib, Some(9));
        assert_eq!(stats.peak_anonymous_mib, Some(1500));
        assert_eq!(RunStats::parse("nothing here\n"), None);
    }
}
