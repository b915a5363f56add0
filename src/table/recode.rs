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
//! file, in segments of the size asked for (or none).
//!
//! Two passes over the file, the blocks in parallel: one decodes every
//! block to count its symbols, one decodes it again, codes it with the
//! new set and decodes the new bytes, which must give the same boards.
//! The result goes to `NAME.cctb.recode`, is synced, opened again and its
//! every checksum checked, and only then renamed over the file. So an
//! interrupted recoding leaves the file as it was (and a stale temporary
//! file that the next one replaces); a file coded so already is left
//! alone, which makes recoding a table resumable file by file.

use std::fs;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::moves::PassRule;
use crate::progress::Progress;
use crate::table::coded::{self, Layout};
use crate::table::depth_code::{BoardCode, ModelCounts, Models};
use crate::table::packed::Entry;
use crate::table::{TableError, TableFile};

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

/// Whether `layout` codes every sub-table with one model set, in segments
/// of `segment` boards (`0`: blocks without segments).
pub fn is_recoded(layout: &Layout, segment: usize) -> bool {
    layout.models.len() == 1
        && layout.sub_model.iter().all(|&k| k == 0)
        && layout.segment == segment
}

/// The temporary name of the recoded file `path`.
pub fn recode_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".recode");
    PathBuf::from(name)
}

/// Rewrites the encoding-4 file `path` (fixed set `fixed` of `n` slots and
/// `rule`, a table file or a side file) with one model set and segments of
/// `segment` boards (`0`: none; else a power of two, 16 to the file's
/// boards a block) (module docs), reporting its nodes twice to `progress`
/// as the two passes go. `None`: the file is coded so already and is left
/// as it is.
///
/// # Errors
/// The file is missing, damaged or not of encoding 4, or the new file
/// cannot be written (then the file is unchanged).
pub fn recode_file(
    path: &Path,
    n: u8,
    rule: PassRule,
    fixed: u16,
    segment: usize,
    progress: &dyn Progress,
) -> Result<Option<Recoded>, TableError> {
    let file = TableFile::open(path, n, rule, fixed)?;
    let corrupt = |what: String| TableError::Corrupt { path: path.to_path_buf(), what };
    let layout = file.coded_layout().ok_or_else(|| {
        corrupt(format!("holds {}, not values with depths coded", file.encoding().name()))
    })?;
    if is_recoded(layout, segment) {
        return Ok(None);
    }
    if segment != 0 && (!segment.is_power_of_two() || !(16..=layout.boards).contains(&segment)) {
        return Err(corrupt(format!(
            "cannot be coded in segments of {segment} boards: blocks of {} boards take a power of two from 16 to {0}",
            layout.boards
        )));
    }
    let header = file.header();
    let first = coded::first_blocks(header, layout.boards);
    let nodes_of = |b: usize| {
        let sub = first.partition_point(|&s| s <= b) - 1;
        2 * coded::block_boards(header.nodes[sub], b - first[sub], layout.boards) as u64
    };
    let chunks = || (0..layout.blocks).step_by(CHUNK).map(|c| c..(c + CHUNK).min(layout.blocks));

    // The first pass: the counts of the whole file.
    let mut counts = ModelCounts::default();
    for chunk in chunks() {
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
    let models = Models::new(&counts).map_err(&corrupt)?;
    drop(counts);

    // The second pass writes the data after the room for the head.
    let tmp = recode_path(path);
    let io = |source: std::io::Error| TableError::Io { path: tmp.clone(), source };
    let written = (|| {
        let mut out = BufWriter::new(fs::File::create(&tmp).map_err(io)?);
        let head_len = coded::head_len(header, 1, layout.blocks);
        out.seek(SeekFrom::Start(head_len as u64)).map_err(io)?;
        let model_bytes = models.to_bytes();
        let model_entry = Entry::new(0, &model_bytes);
        out.write_all(&model_bytes).map_err(io)?;
        let mut at = model_bytes.len() as u64;
        let mut entries = Vec::with_capacity(layout.blocks);
        for chunk in chunks() {
            let coded: Vec<Vec<u8>> = chunk
                .into_par_iter()
                .map_init(
                    || (Vec::new(), Vec::new()),
                    |(old, again), b| {
                        let bytes = recode_block(&file, b, (&models, segment), old, again)?;
                        progress.advance(nodes_of(b));
                        Ok(bytes)
                    },
                )
                .collect::<Result<_, TableError>>()?;
            for bytes in coded {
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
        Ok::<u64, TableError>(head_len as u64 + at)
    })();
    let after = match written.and_then(|after| {
        // Read back as any reader will, every checksum checked.
        TableFile::open_with(&tmp, n, rule, fixed, usize::MAX)?.check_sums()?;
        Ok(after)
    }) {
        Ok(after) => after,
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            return Err(e);
        }
    };
    let before = file.byte_len();
    drop(file);
    fs::rename(&tmp, path).map_err(|source| TableError::Io { path: path.to_path_buf(), source })?;
    Ok(Some(Recoded { before, after }))
}

/// Block `b` of `file` coded with `models` in segments of `segment`
/// boards (or none), checked by decoding it again (`old` and `again` are
/// buffers).
fn recode_block(
    file: &TableFile,
    b: usize,
    (models, segment): (&Models, usize),
    old: &mut Vec<BoardCode>,
    again: &mut Vec<BoardCode>,
) -> Result<Vec<u8>, TableError> {
    let corrupt = |what: String| TableError::Corrupt { path: file.path().to_path_buf(), what };
    file.block_codes(b, old)?;
    let bytes = coded::encode_block(old, models, segment)
        .map_err(|e| corrupt(format!("block {b} cannot be coded again: {e}")))?;
    coded::decode_block(&bytes, old.len(), models, segment, again)
        .map_err(|e| corrupt(format!("block {b} coded again does not decode: {e}")))?;
    if again != old {
        return Err(corrupt(format!("block {b} coded again decodes to other boards")));
    }
    Ok(bytes)
}
