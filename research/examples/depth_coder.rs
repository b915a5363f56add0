//! Runs encoding 4's block coder (`table::depth_code`, docs/depths.md "The
//! coder, measured") over a complete table with depths: per file, builds
//! the models from the file's symbols, encodes every block, decodes it
//! again and compares it with the source, board by board. It also checks
//! that the values byte and T of each 甲 node give the score of every
//! consistent state of the node.
//!
//! ```sh
//! cargo run --release -j1 -p chaosclock-research --example depth_coder -- DIR [--slots N] [--values DIR2] [--largest K] [--repeat R]
//! ```
//!
//! `DIR` is a tables root holding the complete `n{N}-always` tables with
//! depths (record encoding 1), `--values DIR2` one with the same tables
//! values only, whose sizes are printed for comparison. `--largest K` runs
//! only the K files with the most nodes (to time the decoder quickly: the
//! largest, `f0000`, holds half the nodes at 10 slots; the sizes and the
//! values-only comparison are then of those files); `--repeat R` decodes
//! each full block R times and counts the fastest (default 3);
//! `--block-nodes B` codes blocks of B nodes instead of 4,096 (the
//! design's block size is still open: smaller blocks decode faster a
//! read and cost more bits). One thread. Prints
//! the bytes and bits a node of each part (values stream, depth stream,
//! models, block overhead: the length of the values stream and a 16-byte
//! block table entry as in `packed.rs`), the encode and decode throughput
//! and the decode time per block (each full block decoded three times, the
//! fastest counted: the first decode is in the throughput).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail, ensure};
use chaosclock::internals::depth_code::{
    self, BoardCode, DepthRecord, ModelCounts, Models, consistent_walks,
};
use chaosclock::internals::format::{self, checksum};
use chaosclock::internals::{RawFile, values};
use chaosclock::table::{Tablebase, fixed_sets};
use chaosclock::{Last, PassRule, Position, Side};

/// The pass rule of the tables.
const RULE: PassRule = PassRule::Always;

/// Boards per block by default (4,096 nodes, as `packed::NODES`).
const BOARDS: usize = 2048;

/// Bytes of a block table entry (offset, length, checksum).
const ENTRY: u64 = 16;

/// Bytes and counts of one group of files.
#[derive(Default, Clone)]
struct Sizes {
    nodes: u64,
    blocks: u64,
    values: u64,
    depths: u64,
    values_model: u64,
    depth_models: u64,
    overhead: u64,
}

impl Sizes {
    fn add(&mut self, o: &Sizes) {
        self.nodes += o.nodes;
        self.blocks += o.blocks;
        self.values += o.values;
        self.depths += o.depths;
        self.values_model += o.values_model;
        self.depth_models += o.depth_models;
        self.overhead += o.overhead;
    }

    fn total(&self) -> u64 {
        self.values + self.depths + self.values_model + self.depth_models + self.overhead
    }

    fn bits(&self, bytes: u64) -> f64 {
        8.0 * bytes as f64 / self.nodes.max(1) as f64
    }
}

fn main() -> anyhow::Result<()> {
    let Args { dir, n, values: values_root, largest, repeat, boards: block_boards } = parse_args()?;
    let start = Instant::now();
    let tb = Tablebase::new(&dir, n, RULE);
    let files = tb.load_all().context("opening the tables")?;
    let mut sets = fixed_sets(n, n);
    ensure!(files == sets.len(), "{} holds {files} files, not {}", tb.dir().display(), sets.len());
    if let Some(k) = largest {
        let nodes = |f: u16| -> u64 { tb.file(f).expect("loaded").header().nodes.iter().sum() };
        // Most nodes first, then the smaller set; the files kept stay in
        // the order of fixed_sets.
        let mut by_size = sets.clone();
        by_size.sort_by_key(|&f| (std::cmp::Reverse(nodes(f)), f));
        by_size.truncate(k);
        sets.retain(|f| by_size.contains(f));
    }
    let mut by_f: BTreeMap<u32, Sizes> = BTreeMap::new();
    let (mut read_time, mut model_time, mut encode_time, mut decode_time, mut values_time) =
        (Duration::ZERO, Duration::ZERO, Duration::ZERO, Duration::ZERO, Duration::ZERO);
    // Decode time of each full block, in nanoseconds.
    let mut block_ns: Vec<u64> = Vec::new();
    let mut values_ns: Vec<u64> = Vec::new();
    let mut contexts = [0usize; 3];
    let mut pairs = [0usize; 3];
    for (i, &fixed) in sets.iter().enumerate() {
        let file = tb.file(fixed).expect("loaded");
        if !file.has_depths() {
            bail!("{}: not a table with depths", tb.path(fixed).display());
        }
        // Read: every sub-table's boards.
        let t = Instant::now();
        let mut subs: Vec<Vec<BoardCode>> = Vec::new();
        for sub in 0..file.header().nodes.len() {
            if file.header().nodes[sub] == 0 {
                continue;
            }
            let index = file.board_index(sub);
            let mut boards = Vec::with_capacity(index.boards() as usize);
            for rank in 0..index.boards() {
                let board = index.unrank(rank);
                let cells: Vec<i64> = board[..usize::from(n)].iter().map(|&p| p.into()).collect();
                let mut code = BoardCode::default();
                for side in Side::ALL {
                    let s = file.record(sub, rank * 2 + side.index() as u64)?;
                    code.values[side.index()] =
                        values::encode(&s, RULE).context("a record values::encode refuses")?;
                    if side == Side::Jia {
                        let pos = Position::new(&cells, side, Last::None).expect("a stored board");
                        let walks = consistent_walks(&pos, index.items());
                        code.jia = DepthRecord::of(&s, walks, RULE)
                            .with_context(|| format!("a depth over the limit: {s:?}"))?;
                        // T and the values byte give every consistent state.
                        let value = values::decode(code.values[0], RULE, n)
                            .context("a values byte that decodes")?
                            .score(Last::None, RULE)
                            .value;
                        let lasts = (1..=n)
                            .filter(|&p| walks & 1 << p != 0)
                            .map(Last::Piece)
                            .chain([Last::None, Last::Pass]);
                        for last in lasts {
                            ensure!(
                                code.jia.score(value, last) == s.score(last, RULE),
                                "T does not give {last:?} of {s:?}"
                            );
                        }
                    }
                }
                boards.push(code);
            }
            subs.push(boards);
        }
        read_time += t.elapsed();
        // Models of the file.
        let t = Instant::now();
        let mut counts = ModelCounts::default();
        for boards in &subs {
            for block in boards.chunks(block_boards) {
                counts.add_block(block).map_err(anyhow::Error::msg)?;
            }
        }
        let models = Models::new(&counts).map_err(anyhow::Error::msg)?;
        let model_bytes = models.to_bytes();
        ensure!(Models::from_bytes(&model_bytes).as_ref() == Ok(&models), "models round trip");
        model_time += t.elapsed();
        let mut size = Sizes {
            values_model: models.values.to_bytes().len() as u64,
            depth_models: (model_bytes.len() - models.values.to_bytes().len()) as u64,
            ..Sizes::default()
        };
        for (k, m) in [&models.values, &models.delta, &models.rest].into_iter().enumerate() {
            contexts[k] += m.contexts();
            pairs[k] += m.pairs();
        }
        // Encode every block, then decode it and compare.
        let mut encoded: Vec<(Vec<u8>, u32)> = Vec::new();
        let t = Instant::now();
        for boards in &subs {
            for block in boards.chunks(block_boards) {
                let bytes = depth_code::encode_block(block, &models).map_err(anyhow::Error::msg)?;
                let sum = checksum(&bytes) as u32;
                encoded.push((bytes, sum));
            }
        }
        encode_time += t.elapsed();
        let mut out = Vec::with_capacity(block_boards);
        let mut pairs_out = Vec::with_capacity(block_boards);
        let mut k = 0;
        for (s, boards) in subs.iter().enumerate() {
            for (b, block) in boards.chunks(block_boards).enumerate() {
                let (bytes, sum) = &encoded[k];
                k += 1;
                let t = Instant::now();
                ensure!(checksum(bytes) as u32 == *sum, "block checksum");
                depth_code::decode_block(bytes, block.len(), &models, &mut out)
                    .map_err(anyhow::Error::msg)
                    .with_context(|| format!("file {fixed:#06x} sub-table {s} block {b}"))?;
                let took = t.elapsed();
                decode_time += took;
                let t = Instant::now();
                depth_code::decode_values(bytes, block.len(), block.len(), &models, &mut pairs_out)
                    .map_err(anyhow::Error::msg)?;
                let took_values = t.elapsed();
                values_time += took_values;
                if block.len() == block_boards {
                    // The fastest of `repeat` decodes: the machine is shared,
                    // and a preempted decode says nothing of the coder.
                    let (mut best, mut best_values) = (took, took_values);
                    for _ in 1..repeat {
                        let t = Instant::now();
                        let _ = depth_code::decode_block(bytes, block.len(), &models, &mut out);
                        best = best.min(t.elapsed());
                        let t = Instant::now();
                        let _ = depth_code::decode_values(
                            bytes,
                            block.len(),
                            block.len(),
                            &models,
                            &mut pairs_out,
                        );
                        best_values = best_values.min(t.elapsed());
                    }
                    block_ns.push(best.as_nanos() as u64);
                    values_ns.push(best_values.as_nanos() as u64);
                }
                ensure!(out == block, "file {fixed:#06x} sub-table {s} block {b} decodes wrong");
                ensure!(
                    pairs_out.iter().zip(block).all(|(p, b)| *p == b.values),
                    "values of file {fixed:#06x} sub-table {s} block {b} decode wrong"
                );
                let mut at = 0;
                let len = varint(bytes, &mut at);
                size.values += len;
                size.depths += bytes.len() as u64 - at as u64 - len;
                size.overhead += at as u64 + ENTRY;
                size.blocks += 1;
                size.nodes += 2 * block.len() as u64;
            }
        }
        by_f.entry(fixed.count_ones()).or_default().add(&size);
        if (i + 1) % 50 == 0 || i + 1 == sets.len() {
            eprintln!("{}/{} files, {:.0} s", i + 1, sets.len(), start.elapsed().as_secs_f64());
        }
    }
    let mut all = Sizes::default();
    for s in by_f.values() {
        all.add(s);
    }
    report(&by_f, &all);
    println!("\n## Models\n| model | contexts | (context, symbol) pairs |\n|---|---|---|");
    for (k, name) in ["values", "depth d - p", "rest of T"].iter().enumerate() {
        println!("| {name} | {} | {} |", contexts[k], pairs[k]);
    }
    let nodes = all.nodes as f64;
    println!("\n## Time (one thread)\n| step | seconds | nodes a second |\n|---|---|---|");
    for (name, d) in [
        ("read the source records", read_time),
        ("count symbols, build models", model_time),
        ("encode blocks", encode_time),
        ("decode blocks (checksum and both streams)", decode_time),
        ("decode the values stream only", values_time),
    ] {
        println!("| {name} | {:.2} | {:.1} M |", d.as_secs_f64(), nodes / d.as_secs_f64() / 1e6);
    }
    for (name, v) in [("whole block", &mut block_ns), ("values stream only", &mut values_ns)] {
        if v.is_empty() {
            continue;
        }
        v.sort_unstable();
        let q = |p: f64| v[((v.len() as f64 - 1.0) * p).round() as usize] as f64 / 1000.0;
        println!(
            "decode time of a full block of {} nodes (fastest of {repeat}), {name} ({} blocks): median {:.1} µs, p99 {:.1} µs, max {:.1} µs",
            2 * block_boards,
            v.len(),
            q(0.5),
            q(0.99),
            q(1.0)
        );
    }
    if let Some(root) = values_root {
        let dir = root.join(format::dir_name(n, RULE));
        let mut total = 0;
        for &f in &sets {
            total += std::fs::metadata(dir.join(format::file_name(f)))
                .with_context(|| format!("the values-only file of {f:#06x}"))?
                .len();
        }
        println!(
            "\nvalues-only files (encoding 3, DEFLATE): {total} bytes, {:.3} bits a node",
            8.0 * total as f64 / nodes
        );
    }
    println!("\nwall time: {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// Prints the sizes per |F| and in all.
fn report(by_f: &BTreeMap<u32, Sizes>, all: &Sizes) {
    println!("## Size, bits a node");
    println!(
        "| F | nodes | blocks | values stream | values model | depth stream | depth models | block overhead | total | bytes |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let row = |name: String, s: &Sizes| {
        println!(
            "| {name} | {} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {} |",
            s.nodes,
            s.blocks,
            s.bits(s.values),
            s.bits(s.values_model),
            s.bits(s.depths),
            s.bits(s.depth_models),
            s.bits(s.overhead),
            s.bits(s.total()),
            s.total()
        );
    };
    for (f, s) in by_f {
        row(f.to_string(), s);
    }
    row("all".to_string(), all);
    println!(
        "\nvalues part (stream + model): {:.3} bits a node; depth part (stream + models): {:.3}; block overhead {:.3}; total {:.3} ({} bytes)",
        all.bits(all.values + all.values_model),
        all.bits(all.depths + all.depth_models),
        all.bits(all.overhead),
        all.bits(all.total()),
        all.total()
    );
}

/// The LEB128 varint at `*at`.
fn varint(bytes: &[u8], at: &mut usize) -> u64 {
    chaosclock::internals::rans::get_varint(bytes, at).expect("a block starts with its length")
}

/// The command line (module docs).
struct Args {
    dir: PathBuf,
    n: u8,
    values: Option<PathBuf>,
    largest: Option<usize>,
    repeat: usize,
    /// Boards (two nodes each) per block.
    boards: usize,
}

fn parse_args() -> anyhow::Result<Args> {
    let mut it = std::env::args().skip(1);
    let (mut dir, mut n, mut values, mut largest, mut repeat) = (None, 10, None, None, 3);
    let mut nodes = 2 * BOARDS;
    while let Some(a) = it.next() {
        let mut value = || it.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--slots" => n = value()?.parse()?,
            "--values" => values = Some(PathBuf::from(value()?)),
            "--largest" => largest = Some(value()?.parse()?),
            "--repeat" => repeat = value()?.parse()?,
            "--block-nodes" => nodes = value()?.parse()?,
            _ if a.starts_with('-') => bail!("unknown option {a}"),
            _ => dir = Some(PathBuf::from(a)),
        }
    }
    let dir = dir
        .context("usage: depth_coder DIR [--slots N] [--values DIR2] [--largest K] [--repeat R] [--block-nodes B]")?;
    ensure!(repeat >= 1, "--repeat must be at least 1");
    ensure!(
        (2..=65_536).contains(&nodes) && nodes.is_multiple_of(2),
        "--block-nodes must be even, from 2 to 65536"
    );
    Ok(Args { dir, n, values, largest, repeat, boards: nodes / 2 })
}
