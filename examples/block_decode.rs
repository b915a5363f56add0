//! Times the decoder of encoding 4 on random blocks of one table file,
//! three ways, to tell what a block decode costs a query (docs/depths.md,
//! "Model sets kept"):
//!
//! - **in turn**: K random blocks decoded one after another, each once,
//!   so that each is coded with another model set than the one before, as
//!   the blocks of a query are (the fastest of three passes);
//! - **again at once**: each block decoded again right after its first
//!   decode, its model set and bytes in the processor's caches (the mean
//!   of seven decodes);
//! - with `--one-set`, the K blocks are drawn from the sub-tables of one
//!   model set only (the set of the first block drawn), so "in turn"
//!   measures blocks that share their model set.
//!
//! - with `--recode`, the whole file is first coded again, in memory, with
//!   one model set for all its sub-tables (made from the counts of all its
//!   symbols), and the K blocks are timed as coded so: it prints the
//!   file's bytes both ways (blocks and model sets) and its bits a node.
//!   `--own-set NODES` gives each sub-table of at least NODES 甲 nodes a
//!   set of its own instead, the others sharing one, as `generate` does
//!   with 2^16 (`coded::model_sets_with`).
//!
//! ```sh
//! cargo run --release --example block_decode -- FILE [--blocks K] [--one-set] [--recode [--own-set NODES]]
//! ```
//!
//! `FILE` is a table file of encoding 4 (`DIR/n{N}-always/f{F}.cctb`).
//! Every model set of the file is read first, and the K blocks' bytes
//! (4,000 by default, drawn with a fixed seed): the timings are of
//! decoding alone (`depth_code::decode_block_prefix`, whole blocks), in
//! nanoseconds a board. One thread.

use std::collections::HashSet;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context as _, bail, ensure};
use chaosclock::internals::depth_code::{self, BoardCode, ModelCounts, Models};
use chaosclock::internals::format::{Encoding, Header};
use chaosclock::internals::{coded, packed};

/// A block drawn: its bytes, its boards and its model set.
struct Drawn {
    bytes: Vec<u8>,
    boards: usize,
    set: usize,
}

fn main() -> anyhow::Result<()> {
    let Args { path, k, one_set, recode, own_set } = parse_args()?;
    let file = std::fs::File::open(&path).with_context(|| format!("{}", path.display()))?;
    let read = |at: u64, len: usize| -> anyhow::Result<Vec<u8>> {
        let mut bytes = vec![0; len];
        file.read_exact_at(&mut bytes, at).with_context(|| format!("{}", path.display()))?;
        Ok(bytes)
    };
    let len = file.metadata()?.len();
    let header = Header::parse(&read(0, len.min(1 << 16) as usize)?).map_err(anyhow::Error::msg)?;
    ensure!(header.encoding == Encoding::Coded, "{} is not of encoding 4", path.display());
    // The head's length needs the number of model sets and blocks: the
    // sets are after the header and two words, the blocks follow from the
    // block size.
    let at = header.to_bytes().len();
    let words = read(at as u64, 12)?;
    let word = |i: usize| u32::from_le_bytes(words[4 * i..4 * i + 4].try_into().expect("4"));
    let (per, sets) = (word(0) as usize, word(2) as usize);
    let first = coded::first_blocks(&header, per);
    let blocks = *first.last().expect("one entry at least");
    let head = read(0, coded::head_len(&header, sets, blocks))?;
    let layout = coded::Layout::parse(&head, &header).map_err(anyhow::Error::msg)?;
    let data = |e: packed::Entry| read(layout.data as u64 + e.start, e.len as usize);
    let start = Instant::now();
    let models = (layout.models.iter())
        .map(|&e| Models::from_bytes(&data(e)?).map_err(anyhow::Error::msg))
        .collect::<anyhow::Result<Vec<Models>>>()?;
    eprintln!("{} model sets read in {:.2} s", models.len(), start.elapsed().as_secs_f64());

    let mut drawn: Vec<Drawn> = Vec::new();
    let mut drawn_blocks: Vec<usize> = Vec::new();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..1000 * k {
        if drawn.len() == k {
            break;
        }
        // xorshift64
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let b = (x % blocks as u64) as usize;
        let sub = first.partition_point(|&s| s <= b) - 1;
        let set = layout.sub_model[sub] as usize;
        if one_set && drawn.first().is_some_and(|d| d.set != set) {
            continue;
        }
        let entry = packed::Entry::parse(&head[layout.table + packed::ENTRY * b..]);
        let boards = coded::block_boards(header.nodes[sub], b - first[sub], per);
        drawn.push(Drawn { bytes: data(entry)?, boards, set });
        drawn_blocks.push(b);
    }
    ensure!(drawn.len() == k, "fewer than {k} blocks drawn");
    let models = if recode {
        let entry = |b: usize| packed::Entry::parse(&head[layout.table + packed::ENTRY * b..]);
        let sub_of = |b: usize| first.partition_point(|&s| s <= b) - 1;
        // Every block decoded with its own set, in the order of their numbers.
        let each = |f: &mut dyn FnMut(usize, &[BoardCode]) -> anyhow::Result<()>| {
            let mut out = Vec::new();
            for b in 0..blocks {
                let sub = sub_of(b);
                let boards = coded::block_boards(header.nodes[sub], b - first[sub], per);
                let set = &models[layout.sub_model[sub] as usize];
                depth_code::decode_block(&data(entry(b))?, boards, set, &mut out)
                    .map_err(anyhow::Error::msg)?;
                f(b, &out)?;
            }
            anyhow::Ok(())
        };
        let start = Instant::now();
        // The new set of each sub-table: one for all (a file of at most
        // u64::MAX nodes), or by `--own-set`.
        let assign = match own_set {
            Some(own) => coded::model_sets_with(&header, 0, own),
            None => coded::model_sets_with(&header, u64::MAX, 0),
        };
        let new_sets = assign.iter().max().map_or(1, |&m| m as usize + 1);
        let mut counts = vec![ModelCounts::default(); new_sets];
        each(&mut |b, boards| {
            counts[assign[sub_of(b)] as usize].add_block(boards).map_err(anyhow::Error::msg)
        })?;
        let recoded = (counts.iter())
            .map(|c| Models::new(c).map_err(anyhow::Error::msg))
            .collect::<anyhow::Result<Vec<Models>>>()?;
        drop(counts);
        let (mut before, mut after) = (0u64, 0u64);
        let mut coded_again = std::collections::HashMap::new();
        let wanted: HashSet<usize> = drawn_blocks.iter().copied().collect();
        each(&mut |b, boards| {
            let set = &recoded[assign[sub_of(b)] as usize];
            let bytes = depth_code::encode_block(boards, set).map_err(anyhow::Error::msg)?;
            before += u64::from(entry(b).len);
            after += bytes.len() as u64;
            if wanted.contains(&b) {
                coded_again.insert(b, bytes);
            }
            Ok(())
        })?;
        let sets_bytes: u64 = layout.models.iter().map(|e| u64::from(e.len)).sum();
        let new_bytes: u64 = recoded.iter().map(|m| m.to_bytes().len() as u64).sum();
        let nodes: u64 = header.nodes.iter().sum();
        let bits = |b: u64| 8.0 * b as f64 / nodes as f64;
        println!(
            "{}: {} sets: blocks {before} + sets {sets_bytes} bytes ({:.3} bits a node); coded again with {} sets: blocks {after} + sets {new_bytes} bytes ({:.3} bits a node); {:.0} s",
            path.display(),
            models.len(),
            bits(before + sets_bytes),
            recoded.len(),
            bits(after + new_bytes),
            start.elapsed().as_secs_f64()
        );
        for (d, &b) in drawn.iter_mut().zip(&drawn_blocks) {
            d.bytes.clone_from(&coded_again[&b]);
            d.set = assign[sub_of(b)] as usize;
        }
        recoded
    } else {
        models
    };
    let boards: usize = drawn.iter().map(|d| d.boards).sum();
    let mut out: Vec<BoardCode> = Vec::new();
    let mut decode = |d: &Drawn| {
        depth_code::decode_block_prefix(&d.bytes, d.boards, d.boards, &models[d.set], &mut out)
            .map_err(anyhow::Error::msg)
    };
    for d in &drawn {
        decode(d)?;
    }
    let mut in_turn = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        for d in &drawn {
            decode(d)?;
        }
        in_turn = in_turn.min(t.elapsed().as_secs_f64());
    }
    let mut again = 0.0;
    for d in &drawn {
        decode(d)?;
        let t = Instant::now();
        for _ in 0..7 {
            decode(d)?;
        }
        again += t.elapsed().as_secs_f64() / 7.0;
    }
    let used: HashSet<usize> = drawn.iter().map(|d| d.set).collect();
    let ns = |s: f64| s / boards as f64 * 1e9;
    let us = |s: f64| s / k as f64 * 1e6;
    println!(
        "{}: {k} random blocks, {boards} boards, {} model sets: in turn {:.1} ns a board ({:.1} µs a block); again at once {:.1} ns a board ({:.1} µs a block)",
        path.display(),
        used.len(),
        ns(in_turn),
        us(in_turn),
        ns(again),
        us(again)
    );
    Ok(())
}

/// The command line.
struct Args {
    path: PathBuf,
    /// Blocks drawn.
    k: usize,
    /// Drawn from one model set's sub-tables.
    one_set: bool,
    /// The file coded again with one model set.
    recode: bool,
    /// With `recode`: own sets for sub-tables of at least this many 甲
    /// nodes instead.
    own_set: Option<u64>,
}

/// FILE, `--blocks K`, `--one-set`, `--recode`, `--own-set NODES`.
fn parse_args() -> anyhow::Result<Args> {
    let (mut path, mut k, mut one_set, mut recode, mut own_set) = (None, 4000, false, false, None);
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--blocks" => {
                k = it.next().context("--blocks needs a number")?.parse()?;
                ensure!(k > 0, "--blocks must be at least 1");
            }
            "--one-set" => one_set = true,
            "--recode" => recode = true,
            "--own-set" => {
                own_set = Some(it.next().context("--own-set needs a number")?.parse()?);
            }
            _ if a.starts_with('-') => bail!("unknown flag {a}"),
            _ if path.is_none() => path = Some(PathBuf::from(a)),
            _ => bail!("one file only, not also {a}"),
        }
    }
    let usage = "usage: block_decode FILE [--blocks K] [--one-set] [--recode [--own-set NODES]]";
    let path = path.context(usage)?;
    ensure!(recode || own_set.is_none(), "--own-set goes with --recode");
    Ok(Args { path, k, one_set, recode, own_set })
}
