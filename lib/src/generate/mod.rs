//! Tablebase generation: every state of every signature, solved with the
//! same retrograde core as `solve` (`solve::Graph`).
//!
//! Files (one per fixed set F, see [`crate::table::file_name`]) are made in
//! order of decreasing |F|, those with the same |F| in parallel; inside a
//! file, the sub-tables (one per loose set B) in order of increasing |B|,
//! those with the same |B| in parallel. A sub-table's moves leave it only
//! for one with more fixed pieces (an earlier file) or the same fixed
//! pieces and fewer loose ones (an earlier sub-table of the same file), so
//! everything a sub-table needs is solved before it.
//!
//! Inside a sub-table the states are numbered node by node (board rank ×
//! 2 + side) and, within a node, by `last` (none, pass, then each loose
//! piece), skipping the `last` values no consistent state has.
//!
//! Only the representatives of the symmetry are solved
//! (docs/symmetry.md): the files of canonical fixed sets, and in them
//! the canonical sub-tables. A child in another signature of the orbit is
//! read through the map, from an earlier file or an earlier sub-table of
//! the same file (the image of a signature has as many fixed and loose
//! pieces as the signature).
//!
//! Each file is written under a temporary name, one sub-table at a time as
//! they are solved (later sub-tables read the earlier ones back from it, so
//! no file has to fit in memory; compressed files are compressed sub-table
//! by sub-table, see `packing.rs`), and renamed when complete, so an
//! interrupted run leaves no file that looks valid; a new run skips the
//! files that exist and verify, and goes on with a file being written from
//! its last checkpoint (`checkpoint.rs`). A lock next to the directory
//! keeps a second run out. A directory this process cannot write to is
//! only read: if every file is complete it is kept, as in any run; if
//! anything must be written, the run fails at once, naming the directory
//! (issue 24).

use std::cmp::Ordering;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::index::SigIndex;
use crate::moves::PassRule;
use crate::progress::Progress;
use crate::table::format::{Encoding, Header, free_pieces, sub_loose, sub_nodes};
use crate::table::{BlockCache, TableFile, Tablebase, fixed_sets, nodes_of};

mod checkpoint;
mod children;
mod coding;
mod compact;
mod dense;
mod error;
mod limits;
mod lock;
mod packing;
mod plain;
mod project;
mod recode;
mod stream;
mod sub_table;
mod tmp_file;
mod unfinished;

#[cfg(feature = "tooling")]
pub use crate::table::coded::{BOARDS as BLOCK_BOARDS, SEGMENT as SEGMENT_BOARDS};
#[cfg(feature = "tooling")]
pub use crate::table::recode::Recoded;
use checkpoint::{Checkpoint, Done};
use children::Context;
pub use error::GenerateError;
pub use limits::{CHECKPOINT, Limits};
use lock::{Lock, lock};
#[cfg(feature = "tooling")]
pub use project::{Projection, project};
#[cfg(feature = "tooling")]
pub use recode::{RecodeReport, RecodeShape, recode, recode_with};
use sub_table::solve_sub;
use unfinished::Unfinished;

/// What to generate: [`Config::new`], then the `with_` methods (or set
/// the fields).
///
/// ```
/// use chaosclock::PassRule;
/// use chaosclock::generate::{Config, Limits};
/// use chaosclock::table::Encoding;
///
/// let cfg = Config::new("tables", 8, PassRule::Always).with_max_live(6);
/// assert_eq!((cfg.max_live, cfg.encoding), (6, Encoding::Coded));
/// let cfg = cfg.with_encoding(Encoding::Values).with_limits(Limits::default());
/// assert_eq!(cfg.encoding, Encoding::Values);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config {
    /// The tables root directory (files go to a sub-directory per size and
    /// pass rule).
    pub root: PathBuf,
    /// Slots.
    pub n: u8,
    /// Pass rule.
    pub rule: PassRule,
    /// Only signatures with at most this many pieces not fixed.
    pub max_live: u8,
    /// Record encoding ([`Encoding::Scores`], [`Encoding::Values`]
    /// or [`Encoding::Packed`]).
    pub encoding: Encoding,
    /// Where to trade time for memory.
    pub limits: Limits,
}

impl Config {
    /// The complete tables of `n` slots under `rule` in `root` (every
    /// signature: `max_live` is `n`), with depths
    /// ([`Encoding::Coded`], what `chaosclock generate` makes by default)
    /// and the default [`Limits`].
    pub fn new(root: impl Into<PathBuf>, n: u8, rule: PassRule) -> Config {
        let root = root.into();
        Config { root, n, rule, max_live: n, encoding: Encoding::Coded, limits: Limits::default() }
    }

    /// Only the signatures with at most `max_live` pieces not fixed.
    #[must_use]
    pub fn with_max_live(self, max_live: u8) -> Config {
        Config { max_live, ..self }
    }

    /// Records of `encoding`.
    #[must_use]
    pub fn with_encoding(self, encoding: Encoding) -> Config {
        Config { encoding, ..self }
    }

    /// `limits` for trading time for memory.
    #[must_use]
    pub fn with_limits(self, limits: Limits) -> Config {
        Config { limits, ..self }
    }
}

/// What a run did.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Report {
    /// Files generated in this run.
    pub files_written: usize,
    /// Files that were complete and verified already.
    pub files_kept: usize,
    /// Signatures (sub-tables) generated in this run, those taken from
    /// checkpoints included.
    pub signatures: usize,
    /// Signatures taken from the checkpoints of an earlier run.
    pub resumed: usize,
    /// Nodes (board and side) generated in this run.
    pub nodes: u64,
    /// Consistent states generated in this run.
    pub states: u64,
    /// The states these stand for: with their images under the symmetry.
    pub covered: u64,
    /// States per value code (0..=4) generated in this run.
    pub counts: [u64; 5],
    /// Bytes written.
    pub bytes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// One file a run has completed: what [`generate_with`] tells its caller
/// as soon as the file has its final name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct FileDone {
    /// The file's fixed set.
    pub fixed: u16,
    /// Its nodes (board and side).
    pub nodes: u64,
    /// Its consistent states, those of sub-tables taken from a checkpoint
    /// included: the whole file.
    pub states: u64,
    /// Its states per value code (0..=4).
    pub counts: [u64; 5],
    /// Its bytes.
    pub bytes: u64,
}

/// Generates (or completes) the tables of `cfg`. `bar`, if given, counts
/// nodes (its length is set here).
///
/// # Errors
/// A size the engine does not support ([`GenerateError::Config`]), an I/O
/// error, or a table that cannot be read back.
pub fn generate(cfg: &Config, bar: Option<&dyn Progress>) -> Result<Report, GenerateError> {
    generate_with(cfg, bar, &|_| (), Arc::default())
}

/// [`generate`] that calls `done` for each file as soon as it is complete
/// (from the worker that made it), so that a log of the files survives a
/// run that is stopped, and reads the blocks of the files it reads
/// through `cache` (whose size and counts the caller sees).
///
/// # Errors
/// As [`generate`].
pub fn generate_with(
    cfg: &Config,
    bar: Option<&dyn Progress>,
    done: &(dyn Fn(&FileDone) + Sync),
    cache: Arc<BlockCache>,
) -> Result<Report, GenerateError> {
    let start = Instant::now();
    if !crate::position::SUPPORTED_SLOTS.contains(&cfg.n) {
        let what =
            format!("{} slots (the sizes are {:?})", cfg.n, crate::position::SUPPORTED_SLOTS);
        return Err(GenerateError::Config(what));
    }
    let mut tb = Tablebase::new(&cfg.root, cfg.n, cfg.rule).with_block_cache(cache);
    fs::create_dir_all(tb.dir()).map_err(|e| GenerateError::io(tb.dir(), e))?;
    let lock = lock(tb.dir())?;
    if let Lock::Writer { .. } = lock {
        remove_unfinished(tb.dir())?;
    }
    let sets = fixed_sets(cfg.n, cfg.max_live);
    let mut report = Report::default();
    // Keep what is complete and verifies; everything else is made again.
    // Their checksums are checked (in parallel: a large table's files take
    // minutes to read); decoding every block is `verify`'s work.
    let found: Vec<_> = sets
        .par_iter()
        .map(|&f| (f, TableFile::open(&tb.path(f), cfg.n, cfg.rule, f)))
        .map(|(f, t)| (f, t.and_then(|t| t.check_sums().map(|()| t))))
        .collect();
    let (mut todo, mut kept) = (Vec::new(), Vec::new());
    for (f, found) in found {
        let path = tb.path(f);
        match found {
            Ok(t) if !can_read(t.header().encoding, cfg.encoding) => {
                let (encoding, writing) = (t.header().encoding, cfg.encoding);
                return Err(GenerateError::Mixed { path, encoding, writing });
            }
            Ok(t) => kept.push((f, t)),
            Err(_) => todo.push(f),
        }
    }
    // Encoding 4: the files to make read 乙's nodes of the others from
    // their side files, or derive them where there is none (slower, as a
    // complete table need not keep them); a damaged one goes (else every
    // later run would stop at it).
    if cfg.encoding == Encoding::Coded && matches!(lock, Lock::Writer { .. }) {
        let damaged: Vec<PathBuf> = kept
            .par_iter()
            .map(|(f, _)| (coding::side_path(&tb.path(*f)), tb.path(*f), *f))
            .filter(|(side, path, f)| side.exists() && side_complete(cfg, path, *f).is_err())
            .map(|(side, _, _)| side)
            .collect();
        for side in damaged {
            fs::remove_file(&side).map_err(|e| GenerateError::io(&side, e))?;
        }
    }
    for (f, t) in kept {
        tb.insert(f, t).map_err(GenerateError::Table)?;
        report.files_kept += 1;
    }
    if let Lock::ReadOnly { path, source, .. } = lock
        && !todo.is_empty()
    {
        let dir = tb.dir().to_path_buf();
        return Err(GenerateError::ReadOnly { dir, lock: path, source, missing: todo.len() });
    }
    // What the checkpoints of earlier runs list is not this run's work,
    // like the files kept: the bar (and the speed and share of the table
    // the run log computes from it) counts only the rest, from the start,
    // even for files begun later.
    let saved = |f: u16| Checkpoint::nodes_done(&tb.path(f), &file_header(cfg, f));
    let todo: Vec<(u16, u64)> =
        todo.par_iter().map(|&f| (f, if bar.is_some() { saved(f) } else { 0 })).collect();
    if let Some(p) = bar {
        let saved: u64 = todo.iter().map(|&(_, nodes)| nodes).sum();
        let sets: Vec<u16> = todo.iter().map(|&(f, _)| f).collect();
        p.start(nodes_of(cfg.n, &sets) - saved, "");
    }
    for group in todo.chunk_by(|a, b| a.0.count_ones() == b.0.count_ones()) {
        let made: Vec<(u16, FileReport)> = group
            .par_iter()
            .map(|&(f, saved_nodes)| {
                let r = write_file(cfg, &tb, f, saved_nodes, bar)?;
                let (nodes, states, counts, bytes) = (r.nodes, r.states, r.counts, r.bytes);
                done(&FileDone { fixed: f, nodes, states, counts, bytes });
                Ok((f, r))
            })
            .collect::<Result<_, _>>()?;
        for (f, r) in made {
            let t =
                TableFile::open(&tb.path(f), cfg.n, cfg.rule, f).map_err(GenerateError::Table)?;
            tb.insert(f, t).map_err(GenerateError::Table)?;
            report.files_written += 1;
            report.signatures += r.signatures;
            report.resumed += r.resumed;
            report.nodes += r.nodes;
            report.states += r.states;
            report.covered += r.covered;
            report.bytes += r.bytes + r.side_bytes;
            for (c, x) in report.counts.iter_mut().zip(r.counts) {
                *c += x;
            }
        }
    }
    report.elapsed = start.elapsed();
    Ok(report)
}

/// Encoding 4: checks the side file of the complete table file `path`
/// (of fixed set `fixed`).
fn side_complete(cfg: &Config, path: &Path, fixed: u16) -> Result<(), crate::table::TableError> {
    TableFile::open(&coding::side_path(path), cfg.n, cfg.rule, fixed)?.check_sums()
}

/// Whether a run writing `writing` can keep (and read its children from) a
/// complete file of `found`: the same encoding, or both values only.
fn can_read(found: Encoding, writing: Encoding) -> bool {
    found == writing || !found.has_depths() && !writing.has_depths()
}

/// Removes what an interrupted run left and the next cannot use: scratch
/// files, half-written checkpoints, temporary table files without a
/// checkpoint, and checkpoints without their temporary file.
///
/// Checkpoints go first: a run stopped after renaming a table file into
/// place leaves its checkpoint, side and scratch files, which go with it
/// whatever order the directory lists them in.
fn remove_unfinished(dir: &Path) -> Result<(), GenerateError> {
    let mut names: Vec<String> = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| GenerateError::io(dir, e))? {
        let path = entry.map_err(|e| GenerateError::io(dir, e))?.path();
        names.extend(path.file_name().map(|n| n.to_string_lossy().into_owned()));
    }
    let remove = |name: &str| {
        let path = dir.join(name);
        fs::remove_file(&path).map_err(|e| GenerateError::io(&path, e))
    };
    for name in &names {
        if let Some(stem) = name.strip_suffix(".ckpt")
            && !dir.join(format!("{stem}.cctb.tmp")).exists()
        {
            remove(name)?;
        }
    }
    for name in &names {
        let stale = if let Some(stem) = name.strip_suffix(".cctb.tmp") {
            // A side file's and a scratch file's go with their table file's.
            let stem = stem.strip_suffix(".side").or(stem.strip_suffix(".raw")).unwrap_or(stem);
            !dir.join(format!("{stem}.ckpt")).exists()
        } else {
            name.ends_with(".tmp")
        };
        if stale {
            remove(name)?;
        }
    }
    Ok(())
}

/// What one file holds.
#[derive(Debug, Default)]
struct FileReport {
    signatures: usize,
    resumed: usize,
    nodes: u64,
    states: u64,
    covered: u64,
    counts: [u64; 5],
    /// The table file's bytes.
    bytes: u64,
    /// Encoding 4: its side file's bytes.
    side_bytes: u64,
}

/// The header of the file of fixed set `fixed` that `cfg` writes.
fn file_header(cfg: &Config, fixed: u16) -> Header {
    let free = free_pieces(cfg.n, fixed);
    Header {
        n: cfg.n,
        rule: cfg.rule,
        fixed,
        encoding: cfg.encoding,
        nodes: (0..1usize << free.count_ones())
            .map(|i| sub_nodes(cfg.n, fixed, sub_loose(free, i)))
            .collect(),
    }
}

/// Solves every sub-table of fixed set `fixed` and writes the file.
///
/// The file is written as it is solved: each sub-table goes to the
/// temporary file as soon as its group is done ([`Unfinished`]), and later
/// sub-tables read it back, so a file never has to fit in memory. The
/// checksums (and, compressed, the block table) are added at the end, then
/// the file is synced and renamed. `bar` counts its nodes but
/// `saved_nodes`, which it was told were done when the run started (what
/// the file's checkpoint lists).
fn write_file(
    cfg: &Config,
    tb: &Tablebase,
    fixed: u16,
    saved_nodes: u64,
    bar: Option<&dyn Progress>,
) -> Result<FileReport, GenerateError> {
    let n = cfg.n;
    let free = free_pieces(n, fixed);
    let subs = 1usize << free.count_ones();
    let indexes: Vec<SigIndex> =
        (0..subs).map(|i| SigIndex::new(n, fixed, sub_loose(free, i))).collect();
    let header = file_header(cfg, fixed);
    let path = tb.path(fixed);
    // Go on from a checkpoint if there is a sound one.
    let resumed = Checkpoint::load(&path, &header).and_then(|ckpt| {
        Unfinished::resume(&path, &header, &cfg.limits, &ckpt).map(|f| (f, ckpt.done))
    });
    let (mut file, mut done) = match resumed {
        Some(resumed) => resumed,
        None => (Unfinished::create(&path, header, &cfg.limits)?, Vec::new()),
    };
    file.cache_blocks_in(Arc::clone(tb.block_cache()));
    let mut report = FileReport { resumed: done.len(), ..FileReport::default() };
    // The bar left out `saved_nodes` when the run started; the checkpoint
    // gives less if the temporary file did not match it.
    let resumed: u64 = done.iter().map(|d| file.header().nodes[d.sub]).sum();
    if let Some(p) = bar {
        match resumed.cmp(&saved_nodes) {
            Ordering::Less => p.lengthen(saved_nodes - resumed),
            Ordering::Greater => p.shorten(resumed - saved_nodes),
            Ordering::Equal => {}
        }
    }
    let mut saved = Instant::now();
    // Saves a checkpoint if the last one is old enough.
    let mut save = |file: &Unfinished, done: &[Done]| {
        if saved.elapsed() >= cfg.limits.checkpoint {
            file.checkpoint(&path, done)?;
            saved = Instant::now();
        }
        Ok::<_, GenerateError>(())
    };
    // Only the stored sub-tables (the others read them through the map).
    let mut order: Vec<usize> = (0..subs).filter(|&i| file.header().nodes[i] > 0).collect();
    order.sort_by_key(|&i| (i.count_ones(), i));
    for group in order.chunk_by(|a, b| a.count_ones() == b.count_ones()) {
        let ctx = Context {
            n,
            rule: cfg.rule,
            fixed,
            free,
            tb,
            indexes: &indexes,
            file: &file,
            by_levels: cfg.limits.by_levels,
            release_nodes: cfg.limits.release_nodes,
            stream: cfg.limits.stream,
        };
        let solve = |sub: usize| {
            let done = solve_sub(&ctx, sub)?;
            if let Some(p) = bar {
                p.advance(ctx.file.header().nodes[sub]);
            }
            Ok::<_, GenerateError>(done)
        };
        // Small sub-tables in parallel; big ones (parallel inside) one at
        // a time, so that at most one big one is in memory. What a
        // checkpoint lists is done already.
        let (big, small): (Vec<usize>, Vec<usize>) = group
            .iter()
            .filter(|&&i| !done.iter().any(|d| d.sub == i))
            .partition(|&&i| file.header().nodes[i] > cfg.limits.big_nodes);
        if !small.is_empty() {
            let mut made: Vec<Done> =
                small.par_iter().map(|&i| solve(i)).collect::<Result<_, _>>()?;
            file.flush()?;
            made.sort_by_key(|d| d.sub); // the order flush wrote them in
            done.extend(made);
            save(&file, &done)?;
        }
        for i in big {
            let made = solve(i)?;
            file.flush()?;
            done.push(made);
            save(&file, &done)?;
        }
        // The next group reads this one most: the one before goes. It
        // reads other files' sub-tables of about its own size, not those
        // this one read: their model sets go too.
        if let Some(k) = group[0].count_ones().checked_sub(1) {
            file.release(k);
        }
        tb.forget_models();
    }
    for d in &done {
        report.signatures += 1;
        let sig = crate::signature::SigKey::new(fixed, sub_loose(free, d.sub));
        report.covered += crate::symmetry::orbit_len(n, sig) * d.counts.iter().sum::<u64>();
        for (total, x) in report.counts.iter_mut().zip(d.counts) {
            *total += x;
        }
    }
    report.nodes = file.header().records();
    report.states = report.counts.iter().sum();
    (report.bytes, report.side_bytes) = file.finish(&path)?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::TableError;

    /// A run stopped between renaming a table file into place and
    /// removing its checkpoint leaves the checkpoint and the side and
    /// scratch files: all go, whatever order the directory lists them in;
    /// a file still being written keeps everything it resumes from.
    #[test]
    fn what_an_interrupted_run_left_goes() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            "f012e.cctb",
            "f012e.ckpt",
            "f012e.raw.cctb.tmp",
            "f012e.side.cctb.tmp",
            "f0000.cctb.tmp",
            "f0000.ckpt",
            "f0000.raw.cctb.tmp",
            "f0000.side.cctb.tmp",
            "f0002.cctb.tmp",
            "f0004.ckpt.tmp",
        ];
        for name in names {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        remove_unfinished(dir.path()).unwrap();
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        let want = [
            "f0000.cctb.tmp",
            "f0000.ckpt",
            "f0000.raw.cctb.tmp",
            "f0000.side.cctb.tmp",
            "f012e.cctb",
        ];
        assert_eq!(left, want);
    }

    /// Tables with depths whose exits are streamed are the same bytes,
    /// file by file and side file by side file, as those whose children
    /// are read node by node.
    #[test]
    fn streamed_exits_make_the_same_files() {
        for n in [6, 8] {
            let dirs = [false, true].map(|stream| {
                let root = tempfile::tempdir().unwrap();
                let limits = Limits { stream, ..Limits::default() };
                let encoding = Encoding::Coded;
                let (rule, max_live) = (PassRule::Always, n);
                let cfg = Config { root: root.path().into(), n, rule, max_live, encoding, limits };
                generate(&cfg, None).unwrap();
                root
            });
            let files = |root: &Path| {
                let mut all: Vec<(String, Vec<u8>)> = Vec::new();
                for entry in fs::read_dir(root.join(format!("n{n}-always"))).unwrap() {
                    let path = entry.unwrap().path();
                    let name = path.file_name().unwrap().to_string_lossy().into_owned();
                    all.push((name, fs::read(&path).unwrap()));
                }
                all.sort();
                all
            };
            let (old, new) = (files(dirs[0].path()), files(dirs[1].path()));
            assert!(old.len() > 20, "{n} slots: {} files", old.len());
            assert!(old.iter().any(|(name, _)| name.contains("side")), "side files kept");
            for (a, b) in old.iter().zip(&new) {
                assert_eq!(a.0, b.0);
                assert!(a.1 == b.1, "{n} slots: {} differs", a.0);
            }
            assert_eq!(old.len(), new.len());
        }
    }

    /// A child whose blocks fail their checksums while a file is made
    /// stops the file with the error of the file it is in, and nothing is
    /// put in place of the file.
    #[test]
    fn a_damaged_child_stops_the_file() {
        let root = tempfile::tempdir().unwrap();
        let (n, rule) = (6, PassRule::Always);
        let encoding = Encoding::Coded;
        let limits = Limits::default();
        let cfg = Config { root: root.path().into(), n, rule, max_live: n, encoding, limits };
        generate(&cfg, None).unwrap();
        let mut tb = Tablebase::new(&cfg.root, n, rule);
        // The files of two or more fixed pieces, every byte of their data
        // (model sets and blocks) changed, without their side files: the
        // children of the files of one fixed piece.
        for f in fixed_sets(n, n).into_iter().filter(|f| f.count_ones() >= 2) {
            let path = tb.path(f);
            let mut bytes = fs::read(&path).unwrap();
            let data = crate::table::coded::Layout::parse(&bytes, &Header::parse(&bytes).unwrap())
                .unwrap()
                .data;
            bytes[data..].iter_mut().for_each(|b| *b ^= 0x5a);
            fs::write(&path, bytes).unwrap();
            fs::remove_file(coding::side_path(&path)).unwrap();
            tb.insert(f, TableFile::open(&path, n, rule, f).unwrap()).unwrap();
        }
        let one = fixed_sets(n, n).into_iter().find(|f| f.count_ones() == 1).unwrap();
        let path = tb.path(one);
        fs::remove_file(&path).unwrap();
        match write_file(&cfg, &tb, one, 0, None) {
            Err(GenerateError::Table(TableError::Corrupt { path: damaged, .. })) => {
                assert_ne!(damaged, path, "the error names a damaged child's file");
            }
            other => panic!("{:?}", other.map(|r| r.nodes)),
        }
        assert!(!path.exists(), "no file in place");
    }
}
