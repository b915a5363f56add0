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
//! - with `--segments S` (and `--recode`), each block is cut into S
//!   segments of equal boards, each coded as a block of its own (its own
//!   streams, its contexts and depth predictor starting afresh), the
//!   lengths of all but the last in front as varints: a block that can be
//!   decoded from any segment's start. `--sample N` codes N random blocks
//!   (and the K drawn) instead of the whole file, the one set made from
//!   their symbols, and prints their bytes both ways. It then times **a
//!   read**: for each drawn block a random board, decoded from its
//!   segment's start up to it, rounded up to `--round R` boards (64 by
//!   default, as the reader does), as a query's first read of a block
//!   decodes.
//!
//! ```sh
//! cargo run --release -p chaosclock-research --example block_decode -- FILE [--blocks K] [--one-set] [--recode [--own-set NODES] [--segments S [--sample N] [--round R]]]
//! ```
//!
//! `FILE` is a table file of encoding 4 (`DIR/n{N}-always/f{F}.cctb`).
//! Every model set of the file is read first, and the K blocks' bytes
//! (4,000 by default, drawn with a fixed seed): the timings are of
//! decoding alone (`coded::decode_block`, whole blocks, in segments where
//! the file has them), in
//! nanoseconds a board. One thread.

use std::collections::HashSet;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context as _, bail, ensure};
use chaosclock::internals::depth_code::{self, BoardCode, ModelCounts, Models};
use chaosclock::internals::format::{Encoding, Header};
use chaosclock::internals::{coded, packed, segment};

/// A block drawn: its bytes, its boards and its model set.
struct Drawn {
    bytes: Vec<u8>,
    boards: usize,
    set: usize,
}

fn main() -> anyhow::Result<()> {
    let Args { path, k, one_set, recode, own_set, segments, sample, round } = parse_args()?;
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
    if let Some(s) = segments {
        return segment_study(&Study {
            blocks,
            head: &head,
            layout: &layout,
            first: &first,
            header: &header,
            per,
            models: &models,
            data: &data,
            drawn: &drawn_blocks,
            s,
            sample,
            round,
        });
    }
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
                coded::decode_block(&data(entry(b))?, boards, set, layout.segment, &mut out)
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
    // `--recode` codes blocks of one stream (no segments).
    let segment = if recode { 0 } else { layout.segment };
    let mut out: Vec<BoardCode> = Vec::new();
    let mut decode = |d: &Drawn| {
        coded::decode_block(&d.bytes, d.boards, &models[d.set], segment, &mut out)
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

/// What `--segments` reads of the file.
struct Study<'a> {
    blocks: usize,
    head: &'a [u8],
    layout: &'a coded::Layout,
    first: &'a [usize],
    header: &'a Header,
    per: usize,
    models: &'a [Models],
    data: &'a dyn Fn(packed::Entry) -> anyhow::Result<Vec<u8>>,
    drawn: &'a [usize],
    s: usize,
    sample: Option<usize>,
    round: usize,
}

/// `--segments`: the blocks sampled (or all) coded in segments with one
/// model set, their bytes against the file's, and the time of a read.
fn segment_study(st: &Study<'_>) -> anyhow::Result<()> {
    let entry = |b: usize| packed::Entry::parse(&st.head[st.layout.table + packed::ENTRY * b..]);
    let sub_of = |b: usize| st.first.partition_point(|&s| s <= b) - 1;
    let mut chosen: Vec<usize> = match st.sample {
        None => (0..st.blocks).collect(),
        Some(n) => {
            let mut x = 0x2545_F491_4F6C_DD1Du64;
            let mut set: HashSet<usize> = st.drawn.iter().copied().collect();
            while set.len() < (n + st.drawn.len()).min(st.blocks) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                set.insert((x % st.blocks as u64) as usize);
            }
            set.into_iter().collect()
        }
    };
    chosen.sort_unstable();
    let start = Instant::now();
    let mut decoded: std::collections::HashMap<usize, Vec<BoardCode>> = Default::default();
    let wanted: HashSet<usize> = st.drawn.iter().copied().collect();
    let mut counts = ModelCounts::default();
    let mut out = Vec::new();
    let decode = |b: usize, out: &mut Vec<BoardCode>| {
        let sub = sub_of(b);
        let boards = coded::block_boards(st.header.nodes[sub], b - st.first[sub], st.per);
        let set = &st.models[st.layout.sub_model[sub] as usize];
        coded::decode_block(&(st.data)(entry(b))?, boards, set, st.layout.segment, out)
            .map_err(anyhow::Error::msg)
    };
    for &b in &chosen {
        decode(b, &mut out)?;
        for c in out.chunks(out.len().div_ceil(st.s).max(1)) {
            counts.add_block(c).map_err(anyhow::Error::msg)?;
        }
        if wanted.contains(&b) {
            decoded.insert(b, out.clone());
        }
    }
    let models = Models::new(&counts).map_err(anyhow::Error::msg)?;
    drop(counts);
    let (mut before, mut after, mut dirs, mut nodes) = (0u64, 0u64, 0u64, 0u64);
    // Per drawn block: its bytes in segments, its boards, boards a segment.
    let mut coded: std::collections::HashMap<usize, (Vec<u8>, usize, usize)> = Default::default();
    let msg = anyhow::Error::msg;
    for &b in &chosen {
        decode(b, &mut out)?;
        let g = out.len().div_ceil(st.s).max(1);
        let bytes = segment::encode_block(&out, &models, g).map_err(msg)?;
        let mut segs = 0;
        for s in 0..out.len().div_ceil(g) {
            segs += segment::segment_of(&bytes, out.len(), g, s).map_err(msg)?.0.len();
        }
        before += u64::from(entry(b).len);
        after += bytes.len() as u64;
        dirs += (bytes.len() - segs) as u64;
        nodes += 2 * out.len() as u64;
        if wanted.contains(&b) {
            coded.insert(b, (bytes, out.len(), g));
        }
    }
    let bits = |b: u64| 8.0 * b as f64 / nodes as f64;
    println!(
        "{} blocks ({nodes} nodes): as stored {before} bytes ({:.3} bits a node); {} segments a block, one set of {} bytes: {after} bytes ({:.3} bits a node, {:+.1}%; directories {dirs}); {:.0} s",
        chosen.len(),
        bits(before),
        st.s,
        models.to_bytes().len(),
        bits(after),
        100.0 * (after as f64 / before as f64 - 1.0),
        start.elapsed().as_secs_f64()
    );
    // A read: a random board of each drawn block, decoded from its
    // segment's start up to it (rounded up).
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let reads: Vec<(&Vec<u8>, usize, usize, usize, usize)> = st
        .drawn
        .iter()
        .map(|b| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (bytes, boards, g) = &coded[b];
            let at = (x % *boards as u64) as usize;
            let upto = (at % g + 1).next_multiple_of(st.round).min((boards - at / g * g).min(*g));
            (bytes, *boards, *g, at / g, upto)
        })
        .collect();
    // As the reader does: the segment found through the directory, then
    // decoded up to the board.
    let mut read = |&(bytes, boards, g, s, upto): &(&Vec<u8>, usize, usize, usize, usize)| {
        let (bytes, len) = segment::segment_of(bytes, boards, g, s).map_err(msg)?;
        segment::decode_prefix(bytes, len, upto, &models, &mut out).map_err(msg)
    };
    let mut in_turn = f64::MAX;
    for _ in 0..4 {
        let t = Instant::now();
        for r in &reads {
            read(r)?;
        }
        in_turn = in_turn.min(t.elapsed().as_secs_f64());
    }
    let boards: usize = reads.iter().map(|r| r.4).sum();
    println!(
        "a read of a random board, rounded up to {} boards: {:.0} boards decoded on average, {:.2} µs a read in turn ({:.1} ns a board)",
        st.round,
        boards as f64 / reads.len() as f64,
        in_turn / reads.len() as f64 * 1e6,
        in_turn / boards as f64 * 1e9
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
    /// With `recode`: blocks coded in this many segments.
    segments: Option<usize>,
    /// With `segments`: blocks sampled instead of the whole file.
    sample: Option<usize>,
    /// With `segments`: a read's boards rounded up to this many.
    round: usize,
}

/// FILE, `--blocks K`, `--one-set`, `--recode`, `--own-set NODES`.
fn parse_args() -> anyhow::Result<Args> {
    let (mut path, mut k, mut one_set, mut recode, mut own_set) = (None, 4000, false, false, None);
    let (mut segments, mut sample, mut round) = (None, None, 64);
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--blocks" => {
                k = it.next().context("--blocks needs a number")?.parse()?;
                ensure!(k > 0, "--blocks must be at least 1");
            }
            "--one-set" => one_set = true,
            "--recode" => recode = true,
            "--segments" => {
                let s: usize = it.next().context("--segments needs a number")?.parse()?;
                ensure!(s > 0, "--segments must be at least 1");
                segments = Some(s);
            }
            "--sample" => sample = Some(it.next().context("--sample needs a number")?.parse()?),
            "--round" => {
                round = it.next().context("--round needs a number")?.parse()?;
                ensure!(round > 0, "--round must be at least 1");
            }
            "--own-set" => {
                own_set = Some(it.next().context("--own-set needs a number")?.parse()?);
            }
            _ if a.starts_with('-') => bail!("unknown flag {a}"),
            _ if path.is_none() => path = Some(PathBuf::from(a)),
            _ => bail!("one file only, not also {a}"),
        }
    }
    let usage = "usage: block_decode FILE [--blocks K] [--one-set] [--recode [--own-set NODES] [--segments S [--sample N] [--round R]]]";
    let path = path.context(usage)?;
    ensure!(recode || own_set.is_none(), "--own-set goes with --recode");
    ensure!(recode || segments.is_none(), "--segments goes with --recode");
    ensure!(segments.is_some() || sample.is_none(), "--sample goes with --segments");
    Ok(Args { path, k, one_set, recode, own_set, segments, sample, round })
}
