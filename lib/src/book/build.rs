//! Building a section of the book from the values of the openings: the
//! values of the representatives are read in parallel, block by block,
//! the model is counted from them, and each block is coded.

use rayon::prelude::*;

use crate::book::coder::Encoder;
use crate::book::format::BLOCK_RANKS;
use crate::book::format::{Built, Entry, blocks};
use crate::book::model::{self, Counts};
use crate::book::ranks::Ranks;
use crate::position::{Last, Position};
use crate::side::Side;
use crate::{PassRule, Value};

/// The representatives of one block with their contexts and values (2
/// bytes each: 44 million for 12 slots), and the openings they stand for,
/// per value.
struct Block {
    coded: Vec<(u8, Value)>,
    counts: [u64; 5],
}

/// The opening on `board` (`n` entries).
fn opening(board: &[u8]) -> Position {
    let cells: Vec<i64> = board.iter().map(|&p| i64::from(p)).collect();
    Position::new(&cells, Side::Yi, Last::None).expect("a derangement is a position")
}

/// Builds the section of `n` slots under `rule` from `value_of`, the
/// value for 乙 of an opening (asked once per representative, from many
/// threads); `progress` is told the ranks done as blocks finish.
///
/// # Errors
/// The first error of `value_of`.
pub fn build_section<E: Send>(
    n: u8,
    rule: PassRule,
    value_of: &(dyn Fn(&Position) -> Result<Value, E> + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Built, E> {
    let ranks = Ranks::new(n);
    let openings = ranks.count();
    let per = u64::from(BLOCK_RANKS);
    let len = usize::from(n);
    // Pass 1: the values, the contexts and the counts.
    let scanned: Vec<Block> = (0..blocks(openings, BLOCK_RANKS))
        .into_par_iter()
        .map(|b| {
            let first = b as u64 * per;
            let last = (first + per).min(openings);
            let mut block = Block { coded: Vec::new(), counts: [0; 5] };
            let mut previous = None;
            for rank in first..last {
                let board = ranks.board(rank);
                if !ranks.is_representative(&board[..len]) {
                    continue;
                }
                let value = value_of(&opening(&board[..len]))?;
                block.counts[usize::from(value.code())] += ranks.orbit_len(&board[..len]);
                let ctx = model::context(&board[..len], previous);
                block.coded.push((u8::try_from(ctx).expect("fewer than 256 contexts"), value));
                previous = Some(value);
            }
            progress(last - first);
            Ok(block)
        })
        .collect::<Result<_, E>>()?;
    // The model, counted over the whole section.
    let mut counts = Counts::default();
    for block in &scanned {
        block.coded.iter().for_each(|&(ctx, v)| counts.add(usize::from(ctx), v));
    }
    let probs = counts.probabilities();
    // Pass 2: code each block.
    let coded: Vec<Vec<u8>> = scanned
        .par_iter()
        .map(|block| {
            let mut e = Encoder::new();
            for &(ctx, value) in &block.coded {
                let (bits, asked) = model::questions(value);
                for (i, &bit) in bits[..asked].iter().enumerate() {
                    e.bit(probs.get(usize::from(ctx), i), bit);
                }
            }
            e.finish()
        })
        .collect();
    let mut per_value = [0u64; 5];
    for block in &scanned {
        per_value.iter_mut().zip(block.counts).for_each(|(a, c)| *a += c);
    }
    let representatives = scanned.iter().map(|b| b.coded.len() as u64).sum();
    let entry = Entry {
        slots: n,
        rule,
        block_ranks: BLOCK_RANKS,
        openings,
        representatives,
        counts: per_value,
    };
    Ok(Built { entry, probs, blocks: coded })
}
