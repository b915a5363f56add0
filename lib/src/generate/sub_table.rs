//! Solving one sub-table of a file being written: each node's moves, with
//! the scores of the children outside the sub-table read from the files
//! already written (or from the earlier sub-tables of this file:
//! `children.rs`, or streamed: `stream.rs`), then the retrograde core,
//! then the records.

use rayon::prelude::*;

use crate::generate::GenerateError;
use crate::generate::checkpoint::Done;
use crate::generate::children::{Context, read_moves};
use crate::generate::compact::{Boards, DepthMoves, Moves, ValueMoves};
use crate::generate::dense::{Dense, valid_lasts};
use crate::index::SigIndex;
use crate::score::Score;
use crate::signature::SigKey;
use crate::solve::{Graph, LevelWorkspace, ValueWorkspace, solve_by_levels};
use crate::table::TableError;
use crate::table::format::{Encoding, checksum, encode};
use crate::value::Value;

/// Sub-tables with at most this many nodes leave their retrograde
/// workspace to the next sub-table of their thread.
const KEEP_WORKSPACE: usize = 1 << 16;

std::thread_local! {
    static WORKSPACE: std::cell::Cell<crate::solve::Workspace> = std::cell::Cell::default();
    static VALUE_WORKSPACE: std::cell::Cell<ValueWorkspace> = std::cell::Cell::default();
}

/// Solves sub-table `sub` and writes it to the file: returns the count of
/// its states by value and the checksum of its records (0 where the file
/// codes it straight from the nodes' summaries,
/// [`Unfinished::summaries_writer`]). Tables with depths keep each node's moves with
/// their depths (6 bytes a node, 12 a board) and use the retrograde core with depths,
/// or for large sub-tables the values-only core and then depths by levels;
/// tables of values only keep 6 bytes a node and use the values-only core.
pub(super) fn solve_sub(ctx: &Context<'_>, sub: usize) -> Result<Done, GenerateError> {
    if ctx.file.records_encoding() != Encoding::Scores {
        solve_sub_as(ctx, sub, read_moves::<[ValueMoves; 2]>)
    } else if ctx.stream {
        solve_sub_as(ctx, sub, crate::generate::stream::moves)
    } else {
        solve_sub_as(ctx, sub, read_moves::<DepthMoves>)
    }
}

/// How a sub-table's moves are found and its exits scored: the context,
/// the sub-table's signature, board index and boards.
type ReadMoves<M> = fn(&Context<'_>, SigKey, &SigIndex, &Boards) -> Result<Vec<M>, TableError>;

/// [`solve_sub`] keeping the moves of each node as `M`, found by `moves`.
fn solve_sub_as<M: Moves>(
    ctx: &Context<'_>,
    sub: usize,
    moves: ReadMoves<M>,
) -> Result<Done, GenerateError> {
    let index = &ctx.indexes[sub];
    let loose = index.loose();
    let sig = SigKey::new(ctx.fixed, loose);
    let nodes = 2 * index.boards() as usize;
    let boards = Boards::new(index);
    let moves = moves(ctx, sig, index, &boards).map_err(GenerateError::Table)?;
    // Nothing below reads another file's blocks.
    ctx.read_all(nodes as u64);
    let valid: Vec<u16> = (0..boards.len())
        .into_par_iter()
        .map(|r| valid_lasts(ctx.n, index, boards.nibbles(r)))
        .collect();
    let graph = Dense::new(ctx.n, ctx.rule, ctx.fixed, index, moves, boards, valid);
    let encoding = ctx.file.records_encoding();
    let len = encoding.record_len();
    // Writes the sub-table from every state's score (by state number):
    // coded straight from the nodes' summaries where the file takes them
    // (no records in memory), else as records.
    let write = |score: &(dyn Fn(usize) -> Score + Sync)| -> Result<u64, GenerateError> {
        if let Some(coding) = ctx.file.summaries_writer(sub) {
            coding.write_summaries(sub, &|node| graph.summary(node as usize, score))?;
            return Ok(0);
        }
        let mut records = vec![0u8; nodes * len];
        records.par_chunks_mut(len).enumerate().try_for_each(|(node, out)| {
            let s = graph.summary(node, score);
            encode(&s, encoding, ctx.rule, out).ok_or_else(|| {
                GenerateError::Unencodable(format!("node {node} of {sig:#x} has no record: {s:?}"))
            })
        })?;
        let sum = checksum(&records);
        ctx.file.write_sub(sub, records)?;
        Ok(sum)
    };
    let mut counts = [0u64; 5];
    let sum;
    // Most sub-tables are small: reuse this thread's working memory. It is
    // taken out, not borrowed, as nested parallel loops may run another
    // sub-table on this thread meanwhile. Only small workspaces are kept:
    // a large one would stay allocated for the rest of the run.
    if encoding == Encoding::Scores && graph.len() > ctx.by_levels {
        let mut work = LevelWorkspace::default();
        let scores = solve_by_levels(&graph, &mut work)
            .map_err(|e| GenerateError::Depth(format!("sub-table {sig:#x}: {e}")))?;
        counts = (0..graph.len())
            .into_par_iter()
            .fold(
                || [0u64; 5],
                |mut c, s| {
                    c[scores.get(s).value.code() as usize] += 1;
                    c
                },
            )
            .reduce(|| [0u64; 5], |a, b| std::array::from_fn(|v| a[v] + b[v]));
        sum = write(&|s| scores.get(s))?;
    } else if encoding == Encoding::Scores {
        let mut work = WORKSPACE.take();
        let scores = crate::solve::retro_solve_in(&graph, &mut work);
        for &packed in scores {
            counts[Score::unpack(packed).expect("solved").value.code() as usize] += 1;
        }
        sum = write(&|s| Score::unpack(scores[s]).expect("solved"))?;
        if nodes <= KEEP_WORKSPACE {
            WORKSPACE.set(work);
        }
    } else {
        let mut work = VALUE_WORKSPACE.take();
        let values = crate::solve::solve_values_in(&graph, &mut work);
        for code in values.iter() {
            counts[usize::from(code)] += 1;
        }
        sum = write(&|s| Score::terminal(Value::from_code(values.get(s)).expect("a value")))?;
        if nodes <= KEEP_WORKSPACE {
            VALUE_WORKSPACE.set(work);
        }
    }
    Ok(Done { sub, counts, sum })
}
