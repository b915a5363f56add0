//! `chaosclock manifest`: the manifest of a set of table files, and its
//! check by `verify --manifest`.
//!
//! A manifest names the tables (size, pass rule, kind, `--max-live`) and
//! every file of them with its length, nodes and checksum
//! ([`TableFile::checksum`](chaosclock::table::TableFile::checksum), taken only after every block of the file is
//! verified). It adds what the files alone do not say:
//! - the states and the states per value, added up from the lines of
//!   `generate --file-log` (a table made over several runs has no single
//!   summary that counts them all);
//! - the runs that made the table: their number, wall time and peak memory,
//!   read from the run log ([`RunStats`]);
//! - the value for 乙 of every opening, read from the tables (complete
//!   tables only).
//!
//! `generate` writes the same bytes on any machine and for any thread
//! count, so a manifest is also the reference anyone who makes the tables
//! again checks theirs against: `verify --manifest FILE` compares every
//! file's length and checksum with it.
//!
//! The text has one field a line and one file a line, so that two
//! manifests compare line by line.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Result, anyhow, bail};
use chaosclock::table::Tablebase;
use chaosclock::table::fixed_sets;
use chaosclock::table::{VERSION, check_shared_models, file_name, shared_models_name};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cli::files::TextFile;
use crate::cli::high::ManifestHigh;

use crate::cmd::code_map::CodeMap;
use crate::cmd::generate::FileLogLine;
use crate::cmd::openings::{count_from_tables, write_atomically};
use crate::cmd::run_log::RunStats;
use crate::cmd::{check_complete, counting_bar, finish_bar, print};

/// The manifest of a set of table files.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    /// The board size.
    pub slots: u8,
    /// The pass rule's name.
    pub pass_rule: String,
    /// Values only (`generate --values-only`), or values with depths.
    pub values_only: bool,
    /// The record encoding of the files (1 to 4, docs/tables.md); `None`
    /// in manifests written before it was recorded (2026-11-26).
    #[serde(default)]
    pub encoding: Option<u8>,
    /// The signatures with at most this many pieces not fixed.
    pub max_live: u8,
    /// The table format version of the files.
    pub format_version: u32,
    /// Bytes of all the files.
    pub bytes: u64,
    /// Nodes (board and side to move) of all the files.
    pub nodes: u64,
    /// States of all the files (from the file log; `None` without one).
    pub states: Option<u64>,
    /// States per value code (from the file log).
    pub counts: Option<CodeMap<u64>>,
    /// The runs that made the files (from the run log).
    pub run: Option<RunStats>,
    /// Openings per value for 乙 (complete tables only).
    pub openings: Option<CodeMap<u64>>,
    /// Every file, by fixed set.
    pub files: Vec<FileEntry>,
    /// The model set the files are coded with, where `recode` gave them
    /// one for all (`models-{checksum}.cctm`): its length, and the checksum
    /// the files name it by. Without it they cannot be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub models: Option<ModelsEntry>,
}

/// The shared model set of a manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelsEntry {
    /// The file name, `models-{checksum}.cctm`.
    pub file: String,
    /// Its length in bytes.
    pub bytes: u64,
    /// The checksum of the set's bytes, in hex.
    pub checksum: String,
}

/// One file of a manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    /// The file name, e.g. `f0006.cctb`.
    pub file: String,
    /// Its length in bytes.
    pub bytes: u64,
    /// Its nodes.
    pub nodes: u64,
    /// Its states (from the file log).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub states: Option<u64>,
    /// [`TableFile::checksum`](chaosclock::table::TableFile::checksum) in hex.
    pub checksum: String,
}

impl Manifest {
    /// The manifest as text: one field a line, one file a line.
    pub fn to_text(&self) -> String {
        let fields: [(&str, String); 12] = [
            ("slots", json(&self.slots)),
            ("pass_rule", json(&self.pass_rule)),
            ("values_only", json(&self.values_only)),
            ("encoding", json(&self.encoding)),
            ("max_live", json(&self.max_live)),
            ("format_version", json(&self.format_version)),
            ("bytes", json(&self.bytes)),
            ("nodes", json(&self.nodes)),
            ("states", json(&self.states)),
            ("counts", json(&self.counts)),
            ("run", json(&self.run)),
            ("openings", json(&self.openings)),
        ];
        let mut t = String::from("{\n");
        for (key, value) in fields {
            t.push_str(&format!("  \"{key}\": {value},\n"));
        }
        if let Some(m) = &self.models {
            t.push_str(&format!("  \"models\": {},\n", json(m)));
        }
        t.push_str("  \"files\": [\n");
        let files: Vec<String> = self.files.iter().map(|f| format!("    {}", json(f))).collect();
        t.push_str(&files.join(",\n"));
        t.push_str("\n  ]\n}\n");
        t
    }

    /// Reads a manifest from the text of `file`.
    ///
    /// # Errors
    /// The text is not a manifest (one line naming the file).
    pub fn parse(file: &TextFile) -> Result<Manifest> {
        serde_json::from_str(&file.text)
            .map_err(|e| anyhow!("{} is not a table manifest: {e}", file.path.display()))
    }

    /// What differs between the files of `tb` (opened, for the fixed sets
    /// `sets`) and this manifest, one line each.
    pub fn differences(&self, tb: &Tablebase, sets: &[u16]) -> Vec<String> {
        let listed: HashMap<&str, &FileEntry> =
            self.files.iter().map(|f| (f.file.as_str(), f)).collect();
        let mut out = Vec::new();
        for &f in sets {
            let name = file_name(f);
            let file = tb.file(f).expect("every file is opened before the comparison");
            let Some(entry) = listed.get(name.as_str()) else {
                out.push(format!("{name}: not in the manifest"));
                continue;
            };
            if file.byte_len() != entry.bytes {
                out.push(format!(
                    "{name}: {} bytes, the manifest says {}",
                    file.byte_len(),
                    entry.bytes
                ));
            } else if hex(file.checksum()) != entry.checksum {
                out.push(format!(
                    "{name}: checksum {}, the manifest says {}",
                    hex(file.checksum()),
                    entry.checksum
                ));
            }
        }
        let found = shared_models(tb, sets);
        match (found, &self.models) {
            (Ok(None), None) => {}
            (Ok(Some(found)), Some(listed)) if found == *listed => {}
            (Ok(Some(found)), Some(listed)) => out.push(format!(
                "{}: {} bytes and checksum {}, the manifest says {} and {}",
                found.file, found.bytes, found.checksum, listed.bytes, listed.checksum
            )),
            (Ok(Some(found)), None) => out.push(format!("{}: not in the manifest", found.file)),
            (Ok(None), Some(listed)) => {
                out.push(format!("{}: no file is coded with it", listed.file));
            }
            (Err(e), _) => out.push(format!("{e:#}")),
        }
        out
    }
}

/// The shared model set the files of `tb` of the fixed sets `sets`
/// (opened) are coded with, checked; `None` if they are not.
///
/// # Errors
/// Files coded with two sets, or a missing or damaged set file, or
/// one that is not the set the files name.
fn shared_models(tb: &Tablebase, sets: &[u16]) -> Result<Option<ModelsEntry>> {
    let mut named = sets.iter().filter_map(|&f| tb.file(f).and_then(|t| t.shared_models()));
    let Some(sum) = named.next() else { return Ok(None) };
    let name = shared_models_name(sum);
    let path = tb.dir().join(&name);
    if named.any(|other| other != sum) {
        bail!("the files are coded with two shared model sets: the table is not whole");
    }
    let found = check_shared_models(&path, tb.slots(), tb.rule())?;
    if found != sum {
        bail!(
            "{}: holds the model set {}, and the files are coded with {}",
            path.display(),
            hex(found),
            hex(sum)
        );
    }
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    Ok(Some(ModelsEntry { file: name, bytes, checksum: hex(sum) }))
}

/// Compact JSON of a manifest field.
fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("manifest fields serialize")
}

/// A checksum as 16 hex digits.
fn hex(checksum: u64) -> String {
    format!("{checksum:016x}")
}

/// Runs `chaosclock manifest`: checks every file, adds up the logs, counts
/// the openings, and writes the manifest.
///
/// # Errors
/// Bad arguments, a missing or damaged file, a log that does not describe
/// these files, or an output that cannot be written.
pub fn run(args: &ManifestHigh) -> Result<()> {
    let (n, max_live, rule) = (args.tables.n(), args.tables.max_live.get(), args.tables.rule);
    // What is cheap to check comes before checking every block.
    let file_log = args.file_log.as_ref().map(read_file_log).transpose()?;
    let run = args.run_log.as_ref().map(read_run_log).transpose()?;
    let root = &args.tables.root;
    let tb = Tablebase::new(root, n, rule);
    check_complete(&tb, max_live, root)?;
    let mut sets = fixed_sets(n, max_live);
    sets.sort_unstable();
    for &f in &sets {
        tb.load(f)?;
    }
    let bar = counting_bar(sets.len() as u64, "files checked");
    let files = sets
        .par_iter()
        .map(|&f| {
            let file = tb.file(f).expect("loaded above");
            file.verify_all()?;
            if let Some(b) = &bar {
                b.inc(1);
            }
            let (bytes, nodes) = (file.byte_len(), file.nodes());
            let checksum = hex(file.checksum());
            Ok(FileEntry { file: file_name(f), bytes, nodes, states: None, checksum })
        })
        .collect::<Result<Vec<FileEntry>>>();
    finish_bar(bar);
    let mut files = files?;
    let (states, counts) = match (&file_log, &args.file_log) {
        (Some(lines), Some(log)) => {
            let (states, counts) = add_up(lines, &log.path, &mut files)?;
            (Some(states), Some(counts))
        }
        _ => (None, None),
    };
    let models = shared_models(&tb, &sets)?;
    let openings = if max_live < n || args.no_openings {
        None
    } else {
        let counts = count_from_tables(&tb)?;
        Some(CodeMap::from_fn(|code| counts[code]))
    };
    let manifest = Manifest {
        slots: n,
        pass_rule: rule.name().to_string(),
        values_only: tb.values_only(),
        encoding: sets.first().and_then(|&f| tb.file(f)).map(|t| t.encoding().code()),
        max_live,
        format_version: VERSION,
        bytes: files.iter().map(|f| f.bytes).sum::<u64>() + models.as_ref().map_or(0, |m| m.bytes),
        nodes: files.iter().map(|f| f.nodes).sum(),
        states,
        counts,
        run,
        openings,
        files,
        models,
    };
    let text = manifest.to_text();
    match &args.output {
        Some(path) => write_atomically(path, text.as_bytes()),
        None => print(text.trim_end()),
    }
}

/// The lines of the file log `log` by file name (the last line of a
/// file counts: a file made again has a later line).
///
/// # Errors
/// The log has a line that is not a file log line.
pub fn read_file_log(log: &TextFile) -> Result<HashMap<String, FileLogLine>> {
    let path = &log.path;
    let mut lines = HashMap::new();
    for (i, line) in log.text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let line: FileLogLine = serde_json::from_str(line).map_err(|e| {
            anyhow!("--file-log {} line {}: not a file log line: {e}", path.display(), i + 1)
        })?;
        lines.insert(line.file.clone(), line);
    }
    Ok(lines)
}

/// Adds the states of each file in `files` from the `lines` of the file
/// log at `path`; returns the total states and states per value code.
///
/// # Errors
/// The log has no line for a file, or one whose nodes or bytes differ from
/// the file's (it is the log of other tables).
fn add_up(
    lines: &HashMap<String, FileLogLine>,
    path: &Path,
    files: &mut [FileEntry],
) -> Result<(u64, CodeMap<u64>)> {
    let (mut states, mut counts) = (0u64, [0u64; 5]);
    for f in files.iter_mut() {
        let Some(line) = lines.get(&f.file) else {
            bail!(
                "--file-log {} has no line for {}: it is not the log of the run that made it",
                path.display(),
                f.file
            )
        };
        if (line.nodes, line.bytes) != (f.nodes, f.bytes) {
            bail!(
                "--file-log {} says {} has {} nodes and {} bytes, but it has {} and {}: the log is of other tables",
                path.display(),
                f.file,
                line.nodes,
                line.bytes,
                f.nodes,
                f.bytes
            )
        }
        f.states = Some(line.states);
        states += line.states;
        for (code, c) in counts.iter_mut().enumerate() {
            *c += line.counts.get(code);
        }
    }
    Ok((states, CodeMap::from_fn(|code| counts[code])))
}

/// The runs the log `log` describes.
///
/// # Errors
/// It describes no run.
fn read_run_log(log: &TextFile) -> Result<RunStats> {
    RunStats::parse(&log.text).ok_or_else(|| {
        anyhow!(
            "--run-log {}: no run in it (no `=== run started`, progress or `run ended:` line)",
            log.path.display()
        )
    })
}
