//! The list of both-win openings (one line or JSON object per opening,
//! on stdout or in a file) and files written whole or not at all.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use chaosclock::{Move, escape_control};
use serde::Serialize;

use super::scoring::Scored;
use crate::cli::files::OutputPath;

/// The list of both-win openings: one line per opening, the position and
/// the moves that keep both-win separated by spaces, or one JSON object.
pub(super) struct ListWriter {
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
    /// `null` when the moves were left out (values from the book).
    moves: Option<Vec<String>>,
}

/// The last line of a list in JSON that stopped early.
#[derive(Debug, Serialize)]
struct IncompleteJson {
    /// Why, with the number of openings listed before.
    incomplete: String,
}

impl ListWriter {
    pub(super) fn new(path: Option<&OutputPath>, json: bool) -> Result<ListWriter> {
        let out = match path {
            Some(path) => {
                let tmp = path.tmp();
                let f = File::create(&tmp)
                    .with_context(|| format!("cannot create {}", tmp.display()))?;
                Out::File { out: Some(BufWriter::new(f)), tmp, path: path.path().to_path_buf() }
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

    pub(super) fn line(&mut self, s: &Scored) -> Result<()> {
        let moves: Option<Vec<String>> =
            s.keep.as_ref().map(|k| k.iter().map(Move::to_string).collect());
        let text = if self.json {
            serde_json::to_string(&ListJson { position: s.pos.to_string(), moves })?
        } else {
            match moves {
                Some(moves) => format!("{} {}", s.pos, moves.join(" ")),
                None => s.pos.to_string(),
            }
        };
        let (w, what) = self.writer();
        writeln!(w, "{text}").context(what)?;
        self.lines += 1;
        Ok(())
    }

    pub(super) fn flush(&mut self) -> Result<()> {
        let (w, what) = self.writer();
        w.flush().context(what)
    }

    /// Ends a list that stops at `err`: on stdout, a last line says that it
    /// is incomplete and why (`# incomplete: ...`, or in JSON an object
    /// with only `incomplete`); a file is not written at all (dropping
    /// the writer removes `FILE.tmp`).
    pub(super) fn abort(mut self, err: &anyhow::Error) {
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
    pub(super) fn finish(mut self) -> Result<u64> {
        self.flush()?;
        if let Out::File { out, tmp, path } = &mut self.out {
            let file = out.take().expect("not finished").into_inner().map_err(|e| e.into_error());
            let done =
                file.and_then(|f| f.sync_all()).and_then(|()| std::fs::rename(&*tmp, &*path));
            if done.is_err() {
                let _ = std::fs::remove_file(&*tmp);
            }
            done.with_context(|| format!("cannot write {}", path.display()))?;
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

/// Writes `bytes` to `path` through `path.tmp` and a rename.
pub(crate) fn write_atomically(path: &OutputPath, bytes: &[u8]) -> Result<()> {
    let (tmp, path) = (path.tmp(), path.path());
    let result = File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.with_context(|| format!("cannot write {}", path.display()))
}
