//! Converting a file with depths of record encoding 1 (8 bytes a node)
//! into encoding 4 (`coded.rs`): the same scores for every consistent
//! state, about 3.5 bits a node (docs/depths.md).
//!
//! Two passes over the source, one block at a time: the first counts the
//! symbols of each model set, the second codes the blocks. So memory stays
//! small whatever the file's size. The result goes to a temporary name and
//! is renamed when complete; the same source gives the same bytes.

use std::fs;
use std::io::Write;
use std::path::Path;

use rayon::prelude::*;

use crate::index::SigIndex;
use crate::moves::PassRule;
use crate::position::{Last, Position};
use crate::side::Side;
use crate::summary::Summary;
use crate::table::coded::{self, BOARDS, model_sets};
use crate::table::depth_code::{self, BoardCode, DepthRecord, ModelCounts, Models};
use crate::table::format::{Encoding, Header};
use crate::table::packed::Entry;
use crate::table::{TableFile, values};

/// The blocks of each sub-table of `header`, `boards` boards a block.
pub fn blocks_of(header: &Header, sub: usize, boards: usize) -> usize {
    (header.nodes[sub] as usize).div_ceil(2 * boards)
}

/// The bytes of a coded model set: its models', and each of its blocks'.
pub type SetBytes = (Vec<u8>, Vec<Vec<u8>>);

/// Codes one model set of each of `S` files (the table file and its side
/// file, or one of them): per file, its models' bytes and the bytes of each
/// of its blocks `blocks` (sub-table and block number in it, in the order
/// they are to be stored), whose boards `boards` gives for each file. Two
/// passes, the blocks in parallel: one counts the symbols, one codes them,
/// so the boards of only a few blocks are in memory at once.
///
/// # Errors
/// What `boards` returns, or a record the coder refuses.
pub fn code_sets<const S: usize>(
    blocks: &[(usize, usize)],
    boards: impl Fn(usize, usize) -> Result<[Vec<BoardCode>; S], String> + Sync,
) -> Result<[SetBytes; S], String> {
    // A set of few blocks keeps its boards between the passes.
    let kept: Option<Vec<[Vec<BoardCode>; S]>> = if blocks.len() <= KEEP_BLOCKS {
        Some(blocks.par_iter().map(|&(sub, k)| boards(sub, k)).collect::<Result<_, _>>()?)
    } else {
        None
    };
    let block = |i: usize| match &kept {
        Some(all) => Ok(std::borrow::Cow::Borrowed(&all[i])),
        None => boards(blocks[i].0, blocks[i].1).map(std::borrow::Cow::Owned),
    };
    let none = || std::array::from_fn::<ModelCounts, S, _>(|_| ModelCounts::default());
    let counts = (0..blocks.len())
        .into_par_iter()
        .try_fold(none, |mut counts, i| {
            for (c, b) in counts.iter_mut().zip(block(i)?.iter()) {
                c.add_block(b)?;
            }
            Ok::<_, String>(counts)
        })
        .try_reduce(none, |mut a, b| {
            for (a, b) in a.iter_mut().zip(b) {
                a.merge(b);
            }
            Ok(a)
        })?;
    let mut models = Vec::with_capacity(S);
    for c in &counts {
        models.push(Models::new(c)?);
    }
    let coded: Vec<Vec<Vec<u8>>> = (0..blocks.len())
        .into_par_iter()
        .map(|i| {
            block(i)?.iter().zip(&models).map(|(b, m)| depth_code::encode_block(b, m)).collect()
        })
        .collect::<Result<_, _>>()?;
    let mut out = std::array::from_fn(|f| (models[f].to_bytes(), Vec::with_capacity(coded.len())));
    for block in coded {
        for (o, bytes) in out.iter_mut().zip(block) {
            o.1.push(bytes);
        }
    }
    Ok(out)
}

/// Sets of at most this many blocks are coded from boards made once and
/// kept between [`code_sets`]' two passes (about 40 MB a file); larger
/// ones make them again.
const KEEP_BLOCKS: usize = 8192;

/// The boards of block `k` of sub-table `sub` of `file` (encoding 1), with
/// the depth records of `stored`'s nodes (and its values bytes first).
fn block(
    file: &TableFile,
    sub: usize,
    k: usize,
    stored: Side,
) -> Result<[Vec<BoardCode>; 1], String> {
    let header = file.header();
    let boards = coded::block_boards(header.nodes[sub], k, BOARDS);
    let ranks = (k * BOARDS) as u64..(k * BOARDS + boards) as u64;
    let record = |node: u64| file.record(sub, node).map_err(|e| format!("sub-table {sub}: {e}"));
    board_codes(file.board_index(sub), header.rule, [stored], ranks, record)
}

/// The boards `ranks` of the sub-table with board index `index`, coded for
/// encoding 4 once for each side of `stored`, with the depth records of
/// that side's nodes (its values bytes first: `coded.rs`), from `record`,
/// the summary of a node (board rank × 2 + side). What a writer of
/// encoding 4 codes, from a file of encoding 1 ([`convert_side`]) or from
/// a sub-table just solved (the table file and its side file at once).
///
/// # Errors
/// A record `record` refuses, one without a values byte, or a depth over
/// [`depth_code::MAX_DEPTH`].
pub fn board_codes<const S: usize>(
    index: &SigIndex,
    rule: PassRule,
    stored: [Side; S],
    ranks: std::ops::Range<u64>,
    record: impl Fn(u64) -> Result<Summary, String>,
) -> Result<[Vec<BoardCode>; S], String> {
    let n = index.slots();
    let len = (ranks.end - ranks.start) as usize;
    let mut out = std::array::from_fn(|_| Vec::with_capacity(len));
    for (rank, board) in index.walk(ranks) {
        let summaries = [record(rank * 2)?, record(rank * 2 + 1)?];
        let mut values = [0u8; 2];
        for (v, s) in values.iter_mut().zip(&summaries) {
            *v = values::encode(s, rule).ok_or_else(|| format!("board {rank}: no values byte"))?;
        }
        // Which walks may have been the last ply does not depend on the
        // side to move.
        let pos = Position { n, board, side: Side::Jia, last: Last::None };
        let walks = depth_code::consistent_walks(&pos, index.items());
        for (codes, side) in out.iter_mut().zip(stored) {
            let t = side.index();
            let jia = DepthRecord::of(&summaries[t], walks, rule)
                .ok_or_else(|| format!("board {rank}: a depth over the limit"))?;
            // The stored side's part first.
            codes.push(BoardCode { values: [values[t], values[1 - t]], jia });
        }
    }
    Ok(out)
}

/// Writes `file` (encoding 1) as an encoding-4 file at `out`; returns its
/// bytes.
///
/// # Errors
/// A source that is not a table with depths of encoding 1, a damaged
/// record, or an I/O error; nothing is left at `out` then.
pub fn convert_file(file: &TableFile, out: &Path) -> Result<u64, String> {
    convert_side(file, out, Side::Jia)
}

/// [`convert_file`] storing the depth records of `stored`'s nodes: with
/// [`Side::Yi`], the side file of the table (`coded.rs`).
///
/// # Errors
/// As [`convert_file`].
pub fn convert_side(file: &TableFile, out: &Path, stored: Side) -> Result<u64, String> {
    let source = file.header();
    if source.encoding != Encoding::Scores {
        return Err(format!("holds {}, not values with depths", source.encoding.name()));
    }
    let header = Header { encoding: Encoding::Coded, ..source.clone() };
    let sub_model = model_sets(&header);
    let sets = sub_model.iter().max().map_or(1, |&m| m as usize + 1);
    // The model sets first, then the blocks, sub-table after sub-table.
    let mut coded = Vec::with_capacity(sets);
    for set in 0..sets {
        let blocks: Vec<(usize, usize)> = (0..header.nodes.len())
            .filter(|&sub| sub_model[sub] as usize == set)
            .flat_map(|sub| (0..blocks_of(&header, sub, BOARDS)).map(move |k| (sub, k)))
            .collect();
        let [set] = code_sets(&blocks, |sub, k| block(file, sub, k, stored))?;
        coded.push(set);
    }
    let mut data = Vec::new();
    let mut model_entries = Vec::with_capacity(sets);
    for (models, _) in &coded {
        model_entries.push(Entry::new(data.len() as u64, models));
        data.extend_from_slice(models);
    }
    let mut block_entries = Vec::new();
    let mut next = vec![0usize; sets];
    for (sub, &set) in sub_model.iter().enumerate() {
        let set = set as usize;
        for _ in 0..blocks_of(&header, sub, BOARDS) {
            let bytes = &coded[set].1[next[set]];
            next[set] += 1;
            block_entries.push(Entry::new(data.len() as u64, bytes));
            data.extend_from_slice(bytes);
        }
    }
    let head =
        coded::head_bytes(&header, (BOARDS, 0, stored), &sub_model, &model_entries, &block_entries);
    let tmp = out.with_extension("cctb.tmp");
    let write = || -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(&head)?;
        f.write_all(&data)?;
        f.sync_all()?;
        fs::rename(&tmp, out)
    };
    write().map_err(|e| {
        let _ = fs::remove_file(&tmp);
        format!("{}: {e}", out.display())
    })?;
    Ok((head.len() + data.len()) as u64)
}
