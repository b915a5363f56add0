//! Rewriting a file of encoding 4 with one model set for the whole file
//! and its blocks in segments (docs/depths.md, "One model set a file" and
//! "Segments").
//!
//! `generate` gives each large sub-table of a 12-slot file a model set of
//! its own ([`coded::model_sets`]): it codes a sub-table as soon as it is
//! solved, and a set for the whole file would need every record of the
//! file first. A reader decodes blocks 2 to 2.6 times faster with one set
//! a file (it stays in the processor's caches) for about 2% more bytes;
//! and a read decodes about 40 boards instead of about 160 where blocks
//! are in segments of 64 boards ([`crate::table::segment`]), for about 6%
//! more. So a finished table is recoded: the same blocks, the same boards
//! in each, coded again with one set made from the counts of the whole
//! file, in segments of the size asked for (or none); or, better for
//! queries, with one set for every table file of the directory
//! ([`crate::table::shared`], [`Shared`]).
//!
//! Two passes over the file, the blocks in parallel: one decodes every
//! block to count its symbols, one decodes it again, codes it with the
//! new set and decodes the new bytes, which must give the same boards.
//! With the shared set (counted over all files first) only the second;
//! a file with a symbol the set lacks gets a set of its own instead.
//! The result goes to `NAME.cctb.recode`, is synced, opened again and its
//! every checksum checked, and only then renamed over the file. So an
//! interrupted recoding leaves the file as it was (and a stale temporary
//! file that the next one replaces); a file coded so already is left
//! alone, which makes recoding a table resumable file by file.

use std::fs;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::moves::PassRule;
use crate::progress::Progress;
use crate::table::coded::{self, Layout};
use crate::table::depth_code::{BoardCode, ModelCounts, Models};
use crate::table::packed::Entry;
use crate::table::{TableError, TableFile, shared};

/// Blocks coded in parallel before they are written (about 1 MB of
/// bytes).
const CHUNK: usize = 4096;

/// A file recoded: its bytes before and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recoded {
    /// Bytes of the file as it was.
    pub before: u64,
    /// Bytes of the file with one model set.
    pub after: u64,
}

/// The model set of a directory that files are coded with
/// ([`crate::table::shared`]), and its checksum.
#[derive(Debug, Clone)]
pub struct Shared {
    /// The set.
    pub models: Arc<Models>,
    /// The checksum of its bytes, which files name it by.
    pub sum: u64,
}

/// Whether `layout` codes every sub-table with one model set, in segments
/// of `segment` boards (`0`: blocks without segments): the shared set of
/// checksum `shared` if given, else a set of the file's own.
pub fn is_recoded(layout: &Layout, segment: usize, shared: Option<u64>) -> bool {
    layout.models.len() == 1
        && layout.sub_model.iter().all(|&k| k == 0)
        && layout.segment == segment
        && shared::referenced(layout.models[0]) == shared
}

/// The temporary name of the recoded file `path`.
pub fn recode_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".recode");
    PathBuf::from(name)
}

/// The counts of the symbols of every block of `file` in segments of
/// `segment` boards, reporting its nodes to `progress`.
///
/// # Errors
/// A damaged block.
pub fn count_file(
    file: &TableFile,
    segment: usize,
    progress: &dyn Progress,
) -> Result<ModelCounts, TableError> {
    let corrupt = |what: String| TableError::Corrupt { path: file.path().to_path_buf(), what };
    let layout = file.coded_layout().ok_or_else(|| {
        corrupt(format!("holds {}, not values with depths coded", file.encoding().name()))
    })?;
    let nodes_of = nodes_of_blocks(file, layout);
    let mut counts = ModelCounts::default();
    for chunk in chunks(layout.blocks) {
        let part = chunk
            .into_par_iter()
            .try_fold(
                || (ModelCounts::default(), Vec::new()),
                |(mut counts, mut boards), b| {
                    file.block_codes(b, &mut boards)?;
                    coded::count_block(&mut counts, &boards, segment).map_err(&corrupt)?;
                    progress.advance(nodes_of(b));
                    Ok::<_, TableError>((counts, boards))
                },
            )
            .map(|r| r.map(|(counts, _)| counts))
            .try_reduce(ModelCounts::default, |mut a, b| {
                a.merge(b);
                Ok(a)
            })?;
        counts.merge(part);
        // The sets of the sub-tables passed are not needed again.
        file.forget_models();
    }
    Ok(counts)
}

/// The blocks of `blocks` in groups of [`CHUNK`].
fn chunks(blocks: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    (0..blocks).step_by(CHUNK).map(move |c| c..(c + CHUNK).min(blocks))
}

/// The nodes of each block of `file`.
fn nodes_of_blocks<'a>(file: &'a TableFile, layout: &'a Layout) -> impl Fn(usize) -> u64 + 'a {
    let header = file.header();
    let first = coded::first_blocks(header, layout.boards);
    move |b: usize| {
        let sub = first.partition_point(|&s| s <= b) - 1;
        2 * coded::block_boards(header.nodes[sub], b - first[sub], layout.boards) as u64
    }
}

/// Rewrites the encoding-4 file `path` (fixed set `fixed` of `n` slots and
/// `rule`, a table file or a side file) with one model set and segments of
/// `segment` boards (`0`: none; else a power of two, 16 to the file's
/// boards a block) (module docs): the `shared` set if given and it has
/// every symbol of the file, else one of the file's own, made from its
/// counts. It reports the file's nodes to `progress` as each pass goes
/// (one pass with the shared set, two with a set of its own). `None`: the
/// file is coded so already and is left as it is.
///
/// # Errors
/// The file is missing, damaged or not of encoding 4, or the new file
/// cannot be written (then the file is unchanged).
pub fn recode_file(
    path: &Path,
    n: u8,
    rule: PassRule,
    fixed: u16,
    (segment, shared): (usize, Option<&Shared>),
    progress: &dyn Progress,
) -> Result<Option<Recoded>, TableError> {
    let file = TableFile::open(path, n, rule, fixed)?;
    let corrupt = |what: String| TableError::Corrupt { path: path.to_path_buf(), what };
    let layout = file.coded_layout().ok_or_else(|| {
        corrupt(format!("holds {}, not values with depths coded", file.encoding().name()))
    })?;
    if is_recoded(layout, segment, shared.map(|s| s.sum)) {
        return Ok(None);
    }
    if segment != 0 && (!segment.is_power_of_two() || !(16..=layout.boards).contains(&segment)) {
        return Err(corrupt(format!(
            "cannot be coded in segments of {segment} boards: blocks of {} boards take a power of two from 16 to {0}",
            layout.boards
        )));
    }
    if let Some(shared) = shared
        && let Some(after) = write_file(&file, segment, Set::Shared(shared), progress)?
    {
        return replace(file, after).map(Some);
    }
    // No shared set, or a symbol it lacks: a set of the file's own.
    let models = Models::new(&count_file(&file, segment, progress)?).map_err(&corrupt)?;
    let after = write_file(&file, segment, Set::Own(&models), progress)?
        .ok_or_else(|| corrupt("its own model set lacks a symbol of its blocks".into()))?;
    replace(file, after).map(Some)
}

/// The model set a file is written with.
#[derive(Clone, Copy)]
enum Set<'a> {
    /// The directory's.
    Shared(&'a Shared),
    /// The file's own, written in it.
    Own(&'a Models),
}

impl Set<'_> {
    fn models(&self) -> &Models {
        match self {
            Set::Shared(s) => &s.models,
            Set::Own(m) => m,
        }
    }
}

/// Renames the file written for `file` over it.
fn replace(file: TableFile, after: u64) -> Result<Recoded, TableError> {
    let path = file.path().to_path_buf();
    let before = file.byte_len();
    drop(file);
    fs::rename(recode_path(&path), &path)
        .map_err(|source| TableError::Io { path: path.clone(), source })?;
    Ok(Recoded { before, after })
}

/// Writes `file` coded with `set` in segments of `segment` boards to its
/// [`recode_path`], synced and read back with every checksum checked, and
/// returns its bytes; `None` (and nothing left behind) if a block has a
/// symbol the set lacks.
fn write_file(
    file: &TableFile,
    segment: usize,
    set: Set<'_>,
    progress: &dyn Progress,
) -> Result<Option<u64>, TableError> {
    let path = file.path();
    let layout = file.coded_layout().expect("checked by the caller");
    let header = file.header();
    let nodes_of = nodes_of_blocks(file, layout);
    let tmp = recode_path(path);
    let io = |source: std::io::Error| TableError::Io { path: tmp.clone(), source };
    let written = (|| {
        let mut out = BufWriter::new(fs::File::create(&tmp).map_err(io)?);
        let head_len = coded::head_len(header, 1, layout.blocks);
        out.seek(SeekFrom::Start(head_len as u64)).map_err(io)?;
        let (model_entry, mut at) = match set {
            Set::Shared(s) => (shared::reference(s.sum), 0),
            Set::Own(m) => {
                let model_bytes = m.to_bytes();
                out.write_all(&model_bytes).map_err(io)?;
                (Entry::new(0, &model_bytes), model_bytes.len() as u64)
            }
        };
        let mut entries = Vec::with_capacity(layout.blocks);
        for chunk in chunks(layout.blocks) {
            let coded: Vec<Option<Vec<u8>>> = chunk
                .into_par_iter()
                .map_init(
                    || (Vec::new(), Vec::new()),
                    |(old, again), b| {
                        let bytes = recode_block(file, b, (set, segment), old, again)?;
                        progress.advance(nodes_of(b));
                        Ok(bytes)
                    },
                )
                .collect::<Result<_, TableError>>()?;
            for bytes in coded {
                let Some(bytes) = bytes else { return Ok(None) };
                entries.push(Entry::new(at, &bytes));
                out.write_all(&bytes).map_err(io)?;
                at += bytes.len() as u64;
            }
            file.forget_models();
        }
        let head = coded::head_bytes(
            header,
            (layout.boards, segment, layout.stored),
            &vec![0; header.nodes.len()],
            &[model_entry],
            &entries,
        );
        debug_assert_eq!(head.len(), head_len);
        out.seek(SeekFrom::Start(0)).map_err(io)?;
        out.write_all(&head).map_err(io)?;
        let out = out.into_inner().map_err(|e| io(e.into_error()))?;
        out.sync_all().map_err(io)?;
        Ok::<_, TableError>(Some(head_len as u64 + at))
    })();
    match written.and_then(|after| {
        // Read back as any reader will, every checksum checked.
        if after.is_some() {
            let (n, rule, fixed) = (header.n, header.rule, header.fixed);
            TableFile::open_with(&tmp, n, rule, fixed, usize::MAX)?.check_sums()?;
        }
        Ok(after)
    }) {
        Ok(Some(after)) => Ok(Some(after)),
        other => {
            let _ = fs::remove_file(&tmp);
            other
        }
    }
}

/// Block `b` of `file` coded with `set` in segments of `segment` boards
/// (or none), checked by decoding it again (`old` and `again` are
/// buffers); `None` if the block cannot be coded with the shared set (a
/// symbol it lacks: the file takes a set of its own, which reports any
/// other fault).
fn recode_block(
    file: &TableFile,
    b: usize,
    (set, segment): (Set<'_>, usize),
    old: &mut Vec<BoardCode>,
    again: &mut Vec<BoardCode>,
) -> Result<Option<Vec<u8>>, TableError> {
    let corrupt = |what: String| TableError::Corrupt { path: file.path().to_path_buf(), what };
    file.block_codes(b, old)?;
    let models = set.models();
    let bytes = match coded::encode_block(old, models, segment) {
        Ok(bytes) => bytes,
        Err(_) if matches!(set, Set::Shared(_)) => return Ok(None),
        Err(e) => return Err(corrupt(format!("block {b} cannot be coded again: {e}"))),
    };
    coded::decode_block(&bytes, old.len(), models, segment, again)
        .map_err(|e| corrupt(format!("block {b} coded again does not decode: {e}")))?;
    if again != old {
        return Err(corrupt(format!("block {b} coded again decodes to other boards")));
    }
    Ok(Some(bytes))
}
