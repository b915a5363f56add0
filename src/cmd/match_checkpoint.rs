//! `match [--accuracy] --checkpoint FILE`: a match that can be stopped
//! and resumed (docs/levels.md). A 12-slot match plays for half an hour;
//! stopped, it starts again from the openings not yet played.
//!
//! The file is JSON lines: first the match's parameters (a resumed match
//! must have the same ones, or it is an error), then one line per opening
//! played, in the order they finish, with its results (or `null` for an
//! opening over the budget). Each line is written whole and flushed once
//! its opening is done, so a match killed at any moment leaves at most a
//! last line cut short; it is dropped when the match resumes. An opening's
//! results depend on the parameters and its number alone, so a resumed
//! match prints what the same match played at once prints (but its time).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use anyhow::{Context, Result, bail};
use indicatif::ProgressBar;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::cli::games::MatchHigh;

/// What the first line names the file as.
const FORMAT: &str = "chaosclock match checkpoint 1";

/// The parameters an opening's results depend on (not `--openings`: a
/// resumed match may play more).
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Header {
    format: String,
    accuracy: bool,
    slots: u8,
    levels: Vec<u8>,
    ladder: bool,
    repeat: u64,
    budget: usize,
    seed: u64,
}

impl Header {
    fn of(args: &MatchHigh) -> Header {
        Header {
            format: FORMAT.to_string(),
            accuracy: args.accuracy,
            slots: args.slots,
            levels: args.levels.iter().map(|l| l.get()).collect(),
            ladder: args.ladder,
            repeat: args.repeat,
            budget: args.budget,
            seed: args.seed,
        }
    }
}

/// One opening's line.
#[derive(Debug, Serialize, Deserialize)]
struct Line<T> {
    opening: u64,
    played: Option<T>,
}

/// An open checkpoint file: the openings it holds, and the file to add
/// the others to.
///
/// Invariant: the file ends with a whole line, but after a failed write
/// (the match then stops; [`Checkpoint::open`] drops the cut line).
#[derive(Debug)]
pub struct Checkpoint<T> {
    path: PathBuf,
    file: Mutex<File>,
    done: HashMap<u64, Option<T>>,
}

/// The checkpoint of `args`' `--checkpoint FILE`, if any, opened (and
/// on stderr how many openings it holds, when it holds some).
///
/// # Errors
/// As [`Checkpoint::open`].
pub fn of<T: Serialize + DeserializeOwned + Clone>(
    args: &MatchHigh,
) -> Result<Option<Checkpoint<T>>> {
    let Some(path) = &args.checkpoint else { return Ok(None) };
    let c = Checkpoint::open(path, args)?;
    if !c.done.is_empty() {
        eprintln!("resuming from {}: {} openings played before", path.display(), c.done.len());
    }
    Ok(Some(c))
}

/// Opening `o`'s results: from `checkpoint` if it holds them, else from
/// `play`, then kept there; `bar` counts the opening either way.
///
/// # Errors
/// `play`'s, or the checkpoint cannot be written.
pub fn played<T: Serialize + DeserializeOwned + Clone>(
    checkpoint: Option<&Checkpoint<T>>,
    bar: Option<&ProgressBar>,
    o: u64,
    play: impl FnOnce() -> Result<Option<T>>,
) -> Result<Option<T>> {
    let x = match checkpoint.and_then(|c| c.done(o)) {
        Some(done) => done,
        None => {
            let x = play()?;
            if let Some(c) = checkpoint {
                c.record(o, &x)?;
            }
            x
        }
    };
    if let Some(b) = bar {
        b.inc(1);
    }
    Ok(x)
}

impl<T: Serialize + DeserializeOwned + Clone> Checkpoint<T> {
    /// Opens `path` for the match `args`: a new file with the header, or
    /// an existing one of the same match, its cut-short last line dropped.
    ///
    /// # Errors
    /// The file cannot be read or written, is not a checkpoint, is of
    /// another match, or has a damaged line.
    fn open(path: &Path, args: &MatchHigh) -> Result<Checkpoint<T>> {
        let shown = path.display();
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .with_context(|| format!("cannot open the checkpoint {shown}"))?;
        let mut text = String::new();
        file.read_to_string(&mut text)
            .with_context(|| format!("cannot read the checkpoint {shown}"))?;
        let header = Header::of(args);
        // Never cut a file that is not a checkpoint (a wrong path).
        let start = format!("{{\"format\":\"{FORMAT}\"");
        if !text.starts_with(&start) && !start.starts_with(&text) {
            bail!("{shown} is not a match checkpoint (it does not start as one)");
        }
        // Whole lines only: a match killed while writing leaves a last
        // line without its newline.
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        if whole < text.len() {
            file.set_len(whole as u64)
                .with_context(|| format!("cannot truncate the checkpoint {shown}"))?;
        }
        let mut lines = text[..whole].lines();
        let mut done = HashMap::new();
        match lines.next() {
            None => {
                let line = serde_json::to_string(&header).expect("a header serializes");
                write_line(&mut file, &line).with_context(|| format!("cannot write {shown}"))?;
            }
            Some(first) => {
                let Ok(found) = serde_json::from_str::<Header>(first) else {
                    bail!("{shown} is not a match checkpoint (its first line is not one)");
                };
                if found != header {
                    bail!(
                        "{shown} is the checkpoint of another match ({}); this one is {}",
                        describe(&found),
                        describe(&header)
                    );
                }
                for (i, line) in lines.enumerate() {
                    let Ok(Line { opening, played }) = serde_json::from_str::<Line<T>>(line) else {
                        bail!("{shown}: line {} is damaged", i + 2);
                    };
                    done.insert(opening, played);
                }
            }
        }
        Ok(Checkpoint { path: path.to_path_buf(), file: Mutex::new(file), done })
    }

    /// Opening `o`'s results if the file held them (`Some(None)`: it was
    /// over the budget).
    fn done(&self, o: u64) -> Option<Option<T>> {
        self.done.get(&o).cloned()
    }

    /// Adds opening `o`'s results, flushed.
    ///
    /// # Errors
    /// The file cannot be written (a full disk): the match stops, and
    /// the file still ends with a whole line or one cut short.
    fn record(&self, o: u64, played: &Option<T>) -> Result<()> {
        let line = serde_json::to_string(&Line { opening: o, played: played.clone() })
            .expect("an opening's results serialize");
        let mut file = self.file.lock().unwrap_or_else(PoisonError::into_inner);
        write_line(&mut file, &line)
            .with_context(|| format!("cannot write the checkpoint {}", self.path.display()))
    }
}

/// Writes `line` and a newline in one call, and flushes it to the file.
fn write_line(file: &mut File, line: &str) -> std::io::Result<()> {
    file.write_all(format!("{line}\n").as_bytes())?;
    file.sync_data()
}

/// A header as a reader would name the match.
fn describe(h: &Header) -> String {
    let levels: Vec<String> = h.levels.iter().map(u8::to_string).collect();
    let kind = if h.accuracy { "accuracy, " } else { "" };
    let budget = match h.budget {
        usize::MAX => "none".to_string(),
        b => b.to_string(),
    };
    format!(
        "{kind}{} slots, levels {}{}, repeat {}, budget {budget}, seed {}",
        h.slots,
        levels.join(","),
        if h.ladder { " (ladder)" } else { "" },
        h.repeat,
        h.seed
    )
}
