//! `chaosclock recode`: rewrites the files of finished tables with depths
//! with one model set a file and their blocks in segments
//! ([`chaosclock::generate::recode`]) and prints what it did. With `--file-log`, each table file recoded gets a new line
//! in the log of the runs that made it, a copy of its last line with the
//! new bytes (the last line of a file counts), so that `manifest
//! --file-log` takes the log.

use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use chaosclock::generate::{RecodeShape, Recoded, recode_with};
use chaosclock::table::Tablebase;
use serde::Serialize;

use crate::cli::high::RecodeHigh;
use crate::cmd::generate::{FileLog, FileLogLine};
use crate::cmd::manifest::read_file_log;
use crate::cmd::progress::Drawn;
use crate::cmd::{
    check_complete, counting_bar, finish_bar, print, print_json, shown_path, size_text,
};

/// The JSON summary of `recode`.
#[derive(Debug, Serialize)]
struct RecodeJson {
    dir: String,
    slots: u8,
    pass_rule: &'static str,
    max_live: u8,
    /// Boards a segment (0: none).
    segment_boards: usize,
    /// One model set for all table files, not one a file.
    shared_models: bool,
    /// Its file (`models-{checksum}.cctm`), if the table files have one.
    models_file: Option<String>,
    /// Files rewritten.
    files_recoded: usize,
    /// Files (table and side files) coded so already.
    files_kept: usize,
    /// Bytes of the files rewritten, before and after.
    bytes_before: u64,
    bytes_after: u64,
    seconds: f64,
}

/// Recodes the tables `args` name and prints a summary.
///
/// # Errors
/// A missing, damaged or values-only file, another run writing to the
/// directory, or a file that cannot be written.
pub fn run(args: &RecodeHigh) -> Result<()> {
    let t = &args.tables;
    let (n, max_live, rule) = (t.n(), t.max_live.get(), t.rule);
    let start = Instant::now();
    let tb = Tablebase::new(&t.root, n, rule);
    check_complete(&tb, max_live, &t.root)?;
    let bar = counting_bar(0, "nodes decoded");
    let drawn = Drawn::of(bar.as_ref());
    // The log's lines by file, and the log to add the new bytes to.
    let log = match &args.file_log {
        Some(text) => Some((read_file_log(text)?, FileLog::open(&text.path)?)),
        None => None,
    };
    let mut done = |path: &Path, r: Recoded| {
        let Some((lines, log)) = &log else { return };
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        // Side files have no line.
        if let Some(line) = lines.get(name) {
            log.append(&FileLogLine { bytes: r.after, ..line.clone() });
        }
    };
    let progress = drawn.as_ref().map(Drawn::dyn_ref);
    let shape = RecodeShape { max_live, segment: args.segment, shared: !args.file_models };
    let report = recode_with(&t.root, n, rule, shape, progress, &mut done);
    finish_bar(bar);
    let report = report?;
    let out = RecodeJson {
        dir: tb.dir().display().to_string(),
        slots: n,
        pass_rule: rule.name(),
        max_live,
        segment_boards: args.segment,
        shared_models: !args.file_models,
        models_file: report.shared_models.clone(),
        files_recoded: report.files_recoded,
        files_kept: report.files_kept,
        bytes_before: report.bytes_before,
        bytes_after: report.bytes_after,
        seconds: start.elapsed().as_secs_f64(),
    };
    if args.json {
        return print_json(&out);
    }
    let mut text = format!(
        "tables:   {} ({n} slots, {} passes, --max-live {max_live})\n",
        shown_path(tb.dir()),
        rule.name()
    );
    let sets = match &out.models_file {
        Some(name) => format!("one model set for all table files ({name})"),
        None => "one model set each".to_string(),
    };
    let shape = match args.segment {
        0 => format!("{sets}, no segments"),
        g => format!("{sets}, segments of {g} boards"),
    };
    text.push_str(&format!(
        "recoded:  {} file{} to {shape}",
        out.files_recoded,
        if out.files_recoded == 1 { "" } else { "s" }
    ));
    if out.files_recoded > 0 {
        let change = 100.0 * (out.bytes_after as f64 / out.bytes_before as f64 - 1.0);
        text.push_str(&format!(
            ": {} -> {} ({change:+.1}%)",
            size_text(out.bytes_before),
            size_text(out.bytes_after)
        ));
    }
    text.push_str(&format!(
        "\nkept:     {} file{} coded so already\n",
        out.files_kept,
        if out.files_kept == 1 { "" } else { "s" }
    ));
    text.push_str(&format!("time:     {:.1} s", out.seconds));
    print(&text)
}
