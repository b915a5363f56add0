//! Measures a complete table with depths for issue 23: the numbers that
//! docs/depths.md argues its design from.
//!
//! ```sh
//! cargo run --release -j1 -p chaosclock-research --example depth_study -- DIR [--slots N] [--values DIR2]
//!     [--every K] [--every-query Q] [--openings] [--block B]
//! cargo run --release -j1 -p chaosclock-research --example depth_study -- --levels N
//! ```
//!
//! `DIR` is a tables root holding the complete `n{N}-always` tables with
//! depths (record encoding 1); `--values DIR2` a root holding the same
//! tables values only (encoding 3), whose file sizes are compared with the
//! estimates. Every stored node is read (one file at a time, one thread).
//! The measures that look at a node's children (one-ply derivations, move
//! pointers, derivation costs) take every K-th board (`--every`, 1 by
//! default: all); simulated queries every Q-th board (`--every-query`,
//! 1024), both sides to move, or with `--openings` only the openings among
//! them. `--block B` sets the nodes of a side per block of the candidate
//! coder (2048). `--levels N` prints only the nodes per |F| and per |B| of
//! the `N`-slot tables (from the board index, no table read), for
//! projections.
//!
//! Terms: a node is a board and a side to move; its states add `last`
//! (none, pass, or a walked piece whose origin slot is empty); `T` is what
//! a node must give for every consistent state: the score of `last` none,
//! the score of `last` pass where it differs, and the walk whose ban
//! changes the score with the score after that ban, where that `last` is
//! consistent. The values-only byte is [`values::encode`] of the record.
//! Entropies are empirical (order 0, in bits a node) over the stored nodes.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context as _, bail};
use chaosclock::internals::depth_code::{DepthRecord, consistent_walks};
use chaosclock::internals::format::{self, free_pieces, sub_loose, sub_nodes};
use chaosclock::internals::walk_origin;
use chaosclock::internals::{self, RawFile, SigIndex, Summary, signature, symmetry, values};
use chaosclock::table::{Tablebase, fixed_sets};
use chaosclock::{Last, PassRule, Position, Score, Side, Value};
use rustc_hash::{FxHashMap, FxHashSet};

/// Nodes per block for the per-block measures (as `packed::NODES`).
const BLOCK: usize = 4096;
/// Largest depth kept in histograms (larger ones are counted here).
const MAX_DEPTH: usize = 256;
/// The pass rule of the tables studied.
const RULE: PassRule = PassRule::Always;

fn main() -> anyhow::Result<()> {
    let args = Args::parse()?;
    if let Some(n) = args.levels {
        print_levels(n);
        return Ok(());
    }
    let start = Instant::now();
    let tb = Tablebase::new(&args.dir, args.n, RULE);
    let files = tb.load_all().context("opening the tables")?;
    let sets = fixed_sets(args.n, args.n);
    if files != sets.len() {
        bail!("{} holds {files} files, the complete table has {}", tb.dir().display(), sets.len());
    }
    let mut study = Study::new(args.n, args.every, args.block_side);
    for (i, &fixed) in sets.iter().enumerate() {
        let file = tb.file(fixed).expect("loaded");
        if !file.has_depths() {
            bail!("{}: not a table with depths", tb.path(fixed).display());
        }
        study.begin_file(fixed);
        for sub in 0..file.header().nodes.len() {
            let nodes = file.header().nodes[sub];
            if nodes == 0 {
                continue;
            }
            let index = file.board_index(sub);
            study.begin_sub(format::sub_loose(free_pieces(args.n, fixed), sub).count_ones());
            for rank in 0..index.boards() {
                let board = index.unrank(rank);
                let mut pair = [Summary::default(); 2];
                for side in Side::ALL {
                    let node = rank * 2 + side.index() as u64;
                    pair[side.index()] = file.record(sub, node)?;
                }
                let cells: Vec<i64> =
                    board[..usize::from(args.n)].iter().map(|&p| p.into()).collect();
                let sample = rank % args.every == 0;
                let pos = Side::ALL
                    .map(|side| Position::new(&cells, side, Last::None).expect("a stored board"));
                let facts = [0, 1].map(|i| study.facts(&pos[i], index, &pair[i]));
                for i in 0..2 {
                    let at = NodeAt {
                        pos: &pos[i],
                        index,
                        summary: &pair[i],
                        facts: &facts[i],
                        sibling: &facts[1 - i].0,
                    };
                    study.node(&tb, &at, sample)?;
                }
                if rank % args.every_query == 0 {
                    for p in pos.iter().filter(|p| !args.openings || p.is_opening()) {
                        study.query(&tb, p)?;
                    }
                }
            }
        }
        study.end_file();
        if (i + 1) % 20 == 0 || i + 1 == sets.len() {
            eprintln!(
                "{}/{} files, {:.0} s, {} nodes",
                i + 1,
                sets.len(),
                start.elapsed().as_secs_f64(),
                study.nodes
            );
        }
    }
    let values_bytes = args.values.as_ref().map(|root| {
        let dir = root.join(format::dir_name(args.n, RULE));
        sets.iter()
            .map(|&f| {
                let len = std::fs::metadata(dir.join(format::file_name(f))).map_or(0, |m| m.len());
                (f.count_ones(), len)
            })
            .fold(BTreeMap::new(), |mut m: BTreeMap<u32, u64>, (k, len)| {
                *m.entry(k).or_default() += len;
                m
            })
    });
    study.report(values_bytes.as_ref());
    println!("\nwall time of the study: {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// The command line.
struct Args {
    dir: PathBuf,
    n: u8,
    values: Option<PathBuf>,
    every: u64,
    every_query: u64,
    block_side: usize,
    openings: bool,
    levels: Option<u8>,
}

impl Args {
    fn parse() -> anyhow::Result<Args> {
        let mut it = std::env::args().skip(1);
        let mut args = Args {
            dir: PathBuf::new(),
            n: 10,
            values: None,
            every: 1,
            every_query: 1024,
            block_side: 2048,
            openings: false,
            levels: None,
        };
        let mut dir = None;
        while let Some(a) = it.next() {
            let mut value = || it.next().with_context(|| format!("{a} needs a value"));
            match a.as_str() {
                "--slots" => args.n = value()?.parse()?,
                "--values" => args.values = Some(value()?.into()),
                "--every" => args.every = value()?.parse::<u64>()?.max(1),
                "--levels" => args.levels = Some(value()?.parse()?),
                "--openings" => args.openings = true,
                "--block" => args.block_side = value()?.parse::<usize>()?.max(1),
                "--every-query" => args.every_query = value()?.parse::<u64>()?.max(1),
                _ if a.starts_with('-') => bail!("unknown option {a}"),
                _ => dir = Some(PathBuf::from(a)),
            }
        }
        if args.levels.is_none() {
            args.dir =
                dir.context("usage: depth_study DIR [--slots N] [--values DIR2] [--every K] [--every-query Q] [--openings] [--block B]")?;
        }
        Ok(args)
    }
}

/// Nodes per |F| and per (|F|, |B|) of the complete `n`-slot tables.
fn print_levels(n: u8) {
    let mut by_f: BTreeMap<u32, u64> = BTreeMap::new();
    let mut by_fb: BTreeMap<(u32, u32), u64> = BTreeMap::new();
    let mut largest_file = (0u16, 0u64);
    for fixed in fixed_sets(n, n) {
        let free = free_pieces(n, fixed);
        let mut in_file = 0;
        for sub in 0..1usize << free.count_ones() {
            let loose = sub_loose(free, sub);
            let nodes = sub_nodes(n, fixed, loose);
            *by_f.entry(fixed.count_ones()).or_default() += nodes;
            *by_fb.entry((fixed.count_ones(), loose.count_ones())).or_default() += nodes;
            in_file += nodes;
        }
        if in_file > largest_file.1 {
            largest_file = (fixed, in_file);
        }
    }
    let total: u64 = by_f.values().sum();
    println!(
        "{n} slots: {total} nodes; largest file f{:04x}: {} nodes",
        largest_file.0, largest_file.1
    );
    println!("| F | nodes | share |");
    for (f, c) in &by_f {
        println!("| {f} | {c} | {:.2}% |", 100.0 * *c as f64 / total as f64);
    }
    println!("\n| F | B | nodes |");
    for ((f, b), c) in &by_fb {
        if *c > 0 {
            println!("| {f} | {b} | {c} |");
        }
    }
}

/// One node as [`Study::node`] reads it: its position (`last` none), board
/// index, record and facts, and its sibling's facts (the other side to
/// move on the same board).
#[derive(Clone, Copy)]
struct NodeAt<'a> {
    pos: &'a Position,
    index: &'a SigIndex,
    summary: &'a Summary,
    facts: &'a (NodeFacts, u64),
    sibling: &'a NodeFacts,
}

/// Counts of (context, symbol) pairs: conditional empirical entropy.
#[derive(Default)]
struct Ent {
    joint: FxHashMap<(u64, u64), u64>,
    ctx: FxHashMap<u64, u64>,
    n: u64,
}

impl Ent {
    fn add(&mut self, c: u64, x: u64) {
        *self.joint.entry((c, x)).or_default() += 1;
        *self.ctx.entry(c).or_default() += 1;
        self.n += 1;
    }

    /// Total bits of an ideal static code of the symbols given their
    /// contexts: the sum of -log2 p(x | c).
    fn bits(&self) -> f64 {
        self.joint
            .iter()
            .map(|(&(c, _), &k)| {
                let k = k as f64;
                k * (self.ctx[&c] as f64 / k).log2()
            })
            .sum()
    }

    fn per_node(&self) -> f64 {
        if self.n == 0 { 0.0 } else { self.bits() / self.n as f64 }
    }

    fn clear(&mut self) {
        self.joint.clear();
        self.ctx.clear();
        self.n = 0;
    }
}

/// The code length of an adaptive order-0 coder per context that starts
/// afresh every `block` symbols: a seen symbol costs -log2(k / (t + d))
/// (k its count, t the context's count, d its distinct symbols), a new one
/// the escape -log2(d / (t + d)) (nothing in a fresh context) plus its
/// explicit code (PPM method C). An arithmetic coder comes within a few
/// bytes a block of it.
struct Adaptive {
    counts: FxHashMap<(u64, u64), u32>,
    ctx: FxHashMap<u64, (u32, u32)>,
    bits: f64,
    seen: usize,
    block: usize,
    n: u64,
}

impl Adaptive {
    fn new(block: usize) -> Adaptive {
        Adaptive {
            counts: FxHashMap::default(),
            ctx: FxHashMap::default(),
            bits: 0.0,
            seen: 0,
            block,
            n: 0,
        }
    }

    fn code(&mut self, c: u64, x: u64, explicit_bits: f64) {
        let (t, d) = self.ctx.get(&c).copied().unwrap_or((0, 0));
        match self.counts.get_mut(&(c, x)) {
            Some(k) => {
                self.bits += (f64::from(t + d) / f64::from(*k)).log2();
                *k += 1;
                self.ctx.insert(c, (t + 1, d));
            }
            None => {
                if t > 0 {
                    self.bits += (f64::from(t + d) / f64::from(d)).log2();
                }
                self.bits += explicit_bits;
                self.counts.insert((c, x), 1);
                self.ctx.insert(c, (t + 1, d + 1));
            }
        }
        self.n += 1;
        self.seen += 1;
        if self.seen == self.block {
            self.restart();
        }
    }

    fn restart(&mut self) {
        self.counts.clear();
        self.ctx.clear();
        self.seen = 0;
    }

    fn per_node(&self) -> f64 {
        if self.n == 0 { 0.0 } else { self.bits / self.n as f64 }
    }
}

/// Bits of the Elias gamma code of `x` >= 1.
fn gamma(x: u64) -> f64 {
    f64::from(2 * (63 - x.max(1).leading_zeros()) + 1)
}

/// A histogram of small counts.
#[derive(Default, Clone)]
struct Hist(BTreeMap<u64, u64>);

impl Hist {
    fn add(&mut self, x: u64) {
        *self.0.entry(x).or_default() += 1;
    }

    fn total(&self) -> u64 {
        self.0.values().sum()
    }

    fn mean(&self) -> f64 {
        let t = self.total();
        if t == 0 { 0.0 } else { self.0.iter().map(|(x, c)| x * c).sum::<u64>() as f64 / t as f64 }
    }

    fn quantile(&self, q: f64) -> u64 {
        let target = (q * self.total() as f64).ceil() as u64;
        let mut acc = 0;
        for (&x, &c) in &self.0 {
            acc += c;
            if acc >= target.max(1) {
                return x;
            }
        }
        0
    }

    fn max(&self) -> u64 {
        self.0.keys().next_back().copied().unwrap_or(0)
    }

    fn summary(&self) -> String {
        format!(
            "mean {:.2}, median {}, p90 {}, p99 {}, max {}",
            self.mean(),
            self.quantile(0.5),
            self.quantile(0.9),
            self.quantile(0.99),
            self.max()
        )
    }
}

/// What one node's states need, and cheap facts about its board.
struct NodeFacts {
    value: Value,
    depth: u16,
    /// `T` (module docs) packed.
    t: u64,
    /// T without the depth of `last` none: the pass part and the ban part,
    /// their depths as differences from that depth.
    rest: u64,
    /// The values-only byte.
    vbyte: u8,
    own_live: u8,
    opp_live: u8,
    /// A lower bound of the depth of `last` none from the value and the
    /// pieces not fixed (each ply fixes at most one piece).
    lower: u16,
    pass_differs: bool,
    ban_differs: bool,
    terminal: bool,
}

/// The measures, accumulated node by node.
struct Study {
    n: u8,
    every: u64,
    nodes: u64,
    states: u64,
    fixed: u16,
    /// Per value code, histogram of the depth of `last` none.
    depth0: [Vec<u64>; 5],
    /// Per value code, histogram of the depth of `best` (walks and
    /// placements).
    depth_best: [Vec<u64>; 5],
    /// Per value code, histogram of the depth of every consistent state.
    depth_states: [Vec<u64>; 5],
    /// Per |F|: nodes, sum of depths (not terminal, not no-result), count,
    /// max depth, entropies of T given the values byte and of d given v.
    by_f: BTreeMap<u32, LevelStats>,
    // Dependence on `last`.
    multi: u64,
    pass_value: u64,
    pass_depth_only: u64,
    ban_value: u64,
    ban_depth_only: u64,
    ban_valid_value: u64,
    ban_valid_depth_only: u64,
    states_differ: u64,
    unique_best_walk: u64,
    unique_best_move: u64,
    tied_best: u64,
    terminal: u64,
    lower_violations: u64,
    lower_exact: u64,
    // Entropies over the whole table.
    e_value: Ent,
    e_depth_v: Ent,
    e_vbyte: Ent,
    e_t: Ent,
    e_t_vbyte: Ent,
    e_t_vbyte_side: Ent,
    e_t_ctx: Ent,
    e_t_ctx_sib: Ent,
    e_rec: Ent,
    e_rec_vbyte: Ent,
    e_resid_v: Ent,
    e_depth_ctx: Ent,
    e_mod: [Ent; 3],
    window: [u64; 4],
    /// Per side: T given (vbyte, own live, opp live, sibling vbyte), to
    /// see which side is cheaper to store.
    e_side: [Ent; 2],
    // Per file (static model per file) and per block.
    file_t_vbyte: Ent,
    file_t_vbyte_bits: f64,
    file_model_pairs: u64,
    block_t: FxHashSet<u64>,
    block_d: FxHashSet<(u8, u16)>,
    block_ent: Ent,
    block_nodes: usize,
    block_static_bits: f64,
    block_dict_bits: f64,
    block_dict_d_bits: f64,
    blocks: u64,
    adaptive: Adaptive,
    adaptive_side: [Adaptive; 2],
    adaptive_small: Adaptive,
    adaptive_side_small: [Adaptive; 2],
    // Child measures (every K-th board).
    child: ChildStats,
    sub: SubModels,
    factor: Factor,
    /// Simulated queries: only 甲's nodes stored, only 乙's, both.
    queries: [QueryStats; 3],
}

/// T of one side coded in two parts, the candidate coder of
/// docs/depths.md: the depth of `last` none as a difference from the last
/// depth of the same values byte in the block (the depth itself, flagged,
/// for the first), given (values byte, sibling's values byte); then the
/// rest of T given (values byte, depth). Blocks hold `block` nodes of the
/// side and restart the prediction. Static models are costed with
/// quantized frequencies, as a range or ANS coder would use them, plus
/// their own size.
struct Factor {
    block: usize,
    /// Per side: the parts, pooled over the table (one model for all).
    d_ctx: [Ent; 2],
    d_pred: [Ent; 2],
    d_pred_prev: [Ent; 2],
    /// Per side: the values byte given the previous values byte of the
    /// side in the block, and for 乙 甲's on the same board (the values
    /// layer's locality).
    v_prev: [Ent; 2],
    prev_vbyte: [u8; 2],
    /// The same per file, costed with its model: (coded bits, model bits).
    v_file: [Ent; 2],
    v_bits: [(f64, f64); 2],
    /// `d_pred` with cheap board features in the context ([`features`]).
    d_board: [Ent; 2],
    d_prev: [Ent; 2],
    rest: [Ent; 2],
    /// 乙's depth minus 甲's on the same board, given both values bytes:
    /// the second side when both are stored.
    d_sib: Ent,
    /// Per side, the models of the sub-table being read (both parts).
    sub: [Ent; 2],
    /// Per side, the file's and the file's (|B|) group's merged models.
    file: [Ent; 2],
    group: [BTreeMap<u32, Ent>; 2],
    /// Per side, merged small sub-tables of the file (hybrid scope).
    small: [Ent; 2],
    /// Per side, bits of each model scope: per sub-table, per (file, |B|),
    /// per file, hybrid (per sub-table from `HYBRID` nodes of the side up,
    /// else per file).
    bits: [[f64; 4]; 2],
    model_bits: [[f64; 4]; 2],
    loose: u32,
    /// Within the block, per side: last depth per values byte, the
    /// previous node's depth and delta, nodes of the block so far.
    last_by_byte: [FxHashMap<u8, u16>; 2],
    prev: [Option<u16>; 2],
    prev_delta: [u64; 2],
    in_block: [usize; 2],
    blocks: [u64; 2],
    jia_depth: u16,
}

/// Sub-tables with at least this many nodes of the stored side get their
/// own model in the hybrid scope.
const HYBRID: u64 = 1 << 16;

/// The precision of quantized frequencies (15 bits).
const SCALE: f64 = 32768.0;

/// Bits of a model: per context 16, per (context, symbol) pair 20 (the
/// symbol as a difference from the previous one, and a frequency).
fn model_bits(e: &Ent) -> f64 {
    16.0 * e.ctx.len() as f64 + 20.0 * e.joint.len() as f64
}

/// Bits to code `e`'s symbols with its own model, frequencies quantized to
/// [`SCALE`] (each at least 1).
fn quantized_bits(e: &Ent) -> f64 {
    let mut per_ctx: FxHashMap<u64, Vec<u64>> = FxHashMap::default();
    for (&(c, _), &k) in &e.joint {
        per_ctx.entry(c).or_default().push(k);
    }
    let mut bits = 0.0;
    for (c, counts) in per_ctx {
        if counts.len() == 1 {
            continue;
        }
        let n = e.ctx[&c] as f64;
        let mut q: Vec<f64> =
            counts.iter().map(|&k| (k as f64 * SCALE / n).round().max(1.0)).collect();
        let excess: f64 = q.iter().sum::<f64>() - SCALE;
        let top = (0..q.len()).max_by(|&a, &b| q[a].total_cmp(&q[b])).expect("symbols");
        q[top] -= excess;
        bits += counts.iter().zip(&q).map(|(&k, &qk)| k as f64 * (SCALE / qk).log2()).sum::<f64>();
    }
    bits
}

fn merge(into: &mut Ent, from: &Ent) {
    for (&k, &v) in &from.joint {
        *into.joint.entry(k).or_default() += v;
    }
    for (&k, &v) in &from.ctx {
        *into.ctx.entry(k).or_default() += v;
    }
    into.n += from.n;
}

impl Factor {
    fn new(block: usize) -> Factor {
        Factor {
            block,
            d_ctx: Default::default(),
            d_pred: Default::default(),
            d_pred_prev: Default::default(),
            d_board: Default::default(),
            v_prev: Default::default(),
            prev_vbyte: [255; 2],
            v_file: Default::default(),
            v_bits: [(0.0, 0.0); 2],
            d_prev: Default::default(),
            rest: Default::default(),
            d_sib: Ent::default(),
            sub: Default::default(),
            file: Default::default(),
            group: Default::default(),
            small: Default::default(),
            bits: [[0.0; 4]; 2],
            model_bits: [[0.0; 4]; 2],
            loose: 0,
            last_by_byte: Default::default(),
            prev: [None; 2],
            prev_delta: [0; 2],
            in_block: [0; 2],
            blocks: [0; 2],
            jia_depth: 0,
        }
    }

    fn add(&mut self, side: usize, f: &NodeFacts, sib: &NodeFacts, board: u64) {
        if self.in_block[side] == self.block {
            self.in_block[side] = 0;
            self.last_by_byte[side].clear();
            self.prev[side] = None;
            self.prev_delta[side] = 0;
            self.prev_vbyte[side] = 255;
        }
        if self.in_block[side] == 0 {
            self.blocks[side] += 1;
        }
        self.in_block[side] += 1;
        let ctx = u64::from(f.vbyte) | u64::from(sib.vbyte) << 8;
        let d = u64::from(f.depth);
        let signed = |pred: Option<u16>| match pred {
            Some(p) => u64::from((i32::from(f.depth) - i32::from(p) + 512) as u16),
            None => 1 << 16 | d,
        };
        self.d_ctx[side].add(ctx, d);
        let by_byte = signed(self.last_by_byte[side].get(&f.vbyte).copied());
        self.d_pred[side].add(ctx, by_byte);
        self.d_pred_prev[side].add(ctx | self.prev_delta[side] << 16, by_byte);
        self.d_board[side].add(ctx | board << 16, by_byte);
        // 甲's byte comes first on a board: only 乙's has its sibling's.
        let sib_byte = if side == 1 { u64::from(sib.vbyte) } else { 255 };
        self.v_prev[side].add(u64::from(self.prev_vbyte[side]) | sib_byte << 8, u64::from(f.vbyte));
        self.v_file[side].add(u64::from(self.prev_vbyte[side]) | sib_byte << 8, u64::from(f.vbyte));
        self.prev_vbyte[side] = f.vbyte;
        self.d_prev[side].add(ctx | u64::from(self.prev[side].unwrap_or(999)) << 16, d);
        if side == 0 {
            self.jia_depth = f.depth;
        } else {
            let delta = i32::from(f.depth) - i32::from(self.jia_depth) + 512;
            self.d_sib.add(ctx, u64::from(delta as u16));
        }
        let rest_ctx = u64::from(f.vbyte) | d.min(63) << 8;
        self.rest[side].add(rest_ctx, f.rest);
        // Both parts in one model: their contexts are told apart by bit 40.
        self.sub[side].add(ctx, by_byte);
        self.sub[side].add(1 << 40 | rest_ctx, f.rest);
        self.last_by_byte[side].insert(f.vbyte, f.depth);
        self.prev[side] = Some(f.depth);
        // The previous node's delta, clamped to -2..=2 (5: no delta).
        self.prev_delta[side] = if by_byte >> 16 == 1 {
            5
        } else {
            (i64::from(by_byte as u16) - 512).clamp(-2, 2) as u64 + 2
        };
    }

    fn begin_sub(&mut self, loose: u32) {
        self.end_sub();
        self.loose = loose;
    }

    fn end_sub(&mut self) {
        for side in 0..2 {
            let e = std::mem::take(&mut self.sub[side]);
            if e.n > 0 {
                let own = quantized_bits(&e);
                self.bits[side][0] += own;
                self.model_bits[side][0] += model_bits(&e);
                if e.n / 2 >= HYBRID {
                    self.bits[side][3] += own;
                    self.model_bits[side][3] += model_bits(&e);
                } else {
                    merge(&mut self.small[side], &e);
                }
                merge(self.group[side].entry(self.loose).or_default(), &e);
                merge(&mut self.file[side], &e);
            }
            self.in_block[side] = 0;
            self.last_by_byte[side].clear();
            self.prev[side] = None;
            self.prev_delta[side] = 0;
            self.prev_vbyte[side] = 255;
        }
    }

    fn end_file(&mut self) {
        self.end_sub();
        for side in 0..2 {
            for (_, e) in std::mem::take(&mut self.group[side]) {
                self.bits[side][1] += quantized_bits(&e);
                self.model_bits[side][1] += model_bits(&e);
            }
            let file = std::mem::take(&mut self.file[side]);
            self.bits[side][2] += quantized_bits(&file);
            self.model_bits[side][2] += model_bits(&file);
            let v = std::mem::take(&mut self.v_file[side]);
            self.v_bits[side].0 += quantized_bits(&v);
            self.v_bits[side].1 += model_bits(&v);
            let small = std::mem::take(&mut self.small[side]);
            self.bits[side][3] += quantized_bits(&small);
            self.model_bits[side][3] += model_bits(&small);
        }
    }

    fn report(&self, nodes: f64) {
        println!(
            "\n## T coded in two parts (depth of `last` none, then the rest given it), blocks of {} nodes of a side",
            self.block
        );
        println!(
            "bits per node of the side (pooled: one static model for the whole table, not counted)"
        );
        println!("| part | jia | yi |\n|---|---|---|");
        let row = |name: &str, e: &[Ent; 2]| {
            println!("| {name} | {:.4} | {:.4} |", e[0].per_node(), e[1].per_node());
        };
        row("depth given (values byte, sibling's byte)", &self.d_ctx);
        row("depth - last depth of the same values byte in the block, same context", &self.d_pred);
        row("the same, context also the previous node's difference (-2..2)", &self.d_pred_prev);
        row(
            "the same, context also board features (owner of the piece on slot N, legal walks)",
            &self.d_board,
        );
        row("depth given (context, depth of the previous node)", &self.d_prev);
        row("rest of T given (values byte, depth)", &self.rest);
        row(
            "(values layer) values byte given the previous one of the side (乙: and 甲's on the board)",
            &self.v_prev,
        );
        println!(
            "乙's depth - 甲's depth on the same board, given both values bytes: {:.4} bits a 乙 node",
            self.d_sib.per_node()
        );
        let (vc, vm) = (self.v_bits[0].0 + self.v_bits[1].0, self.v_bits[0].1 + self.v_bits[1].1);
        println!(
            "\nvalues layer coded the same way (context: previous byte of the side, and for 乙 甲's), one model per file: {:.4} coded + {:.4} model = {:.4} bits/node of the table",
            vc / nodes,
            vm / nodes,
            (vc + vm) / nodes
        );
        println!(
            "\nstatic models, frequencies quantized to 15 bits, model size counted (16 bits a context, 20 a pair); blocks: {} / {}",
            self.blocks[0], self.blocks[1]
        );
        println!("| stored | model per | coded bits/node of the table | model bits/node | total |");
        println!("|---|---|---|---|---|");
        let scopes = [
            "sub-table",
            "(file, loose count)",
            "file",
            "sub-table if >= 65,536 of its nodes, else file",
        ];
        for side in Side::ALL {
            let i = side.index();
            for (k, scope) in scopes.iter().enumerate() {
                println!(
                    "| only {} | {scope} | {:.4} | {:.4} | {:.4} |",
                    side.name(),
                    self.bits[i][k] / nodes,
                    self.model_bits[i][k] / nodes,
                    (self.bits[i][k] + self.model_bits[i][k]) / nodes
                );
            }
        }
    }
}

/// Bits a (context, symbol) pair of a static model costs to store: the
/// symbol and its frequency.
const MODEL_PAIR_BITS: f64 = 32.0;

/// Static models of T, one per sub-table, with their cost counted
/// ([`MODEL_PAIR_BITS`]).
#[derive(Default)]
struct SubModels {
    /// Per side to move, context the values byte, or the values byte and
    /// the sibling's.
    ent: [[Ent; 2]; 2],
    bits: [[f64; 2]; 2],
    pairs: [[u64; 2]; 2],
    /// Per sub-table the cheaper side (context with the sibling's byte).
    best_side_bits: f64,
    /// Both sides, context values byte, side and sibling's byte.
    both: Ent,
    both_bits: f64,
    both_pairs: u64,
    /// Per side, one model per file (context values byte and sibling's
    /// byte), and its cost.
    file: [Ent; 2],
    file_bits: [f64; 2],
    file_pairs: [u64; 2],
    /// The depth of `last` none of the previous node of each side in the
    /// sub-table (locality), and T given it and the values byte.
    prev: [u16; 2],
    with_prev: Ent,
}

#[derive(Default)]
struct QueryStats {
    reads: Hist,
    blocks: Hist,
    line: Hist,
    mismatches: u64,
    derived: u64,
}

/// One simulated query on tables that store depths for `stored` only (or
/// for both sides): every score not stored is derived from the children,
/// once per query.
struct Sim<'a> {
    tb: &'a Tablebase,
    stored: Option<Side>,
    memo: FxHashMap<u64, Score>,
    /// Records of the stored side read (values and depths of one node,
    /// counted once); a derived state reads nothing of its own.
    reads: u64,
    /// Distinct blocks of 4096 nodes touched (a values block and the depth
    /// block of the same nodes): (fixed set, sub-table, block).
    blocks: FxHashSet<(u16, usize, u64)>,
    read_nodes: FxHashSet<(u16, usize, u64)>,
    line: u64,
    mismatches: u64,
    derived: u64,
}

impl<'a> Sim<'a> {
    fn new(tb: &'a Tablebase, stored: Option<Side>) -> Sim<'a> {
        Sim {
            tb,
            stored,
            memo: FxHashMap::default(),
            reads: 0,
            blocks: FxHashSet::default(),
            read_nodes: FxHashSet::default(),
            line: 0,
            mismatches: 0,
            derived: 0,
        }
    }

    /// Counts the read of `pos`'s record.
    fn touch(&mut self, pos: &Position) {
        let n = pos.slots();
        let (u, sig) = symmetry::canonical(n, signature(pos));
        let image = symmetry::position(pos, u);
        let (fixed, loose) = (sig.fixed(), sig.loose());
        let sub = format::sub_index(free_pieces(n, fixed), loose);
        let file = self.tb.file(fixed).expect("complete tables");
        let node = file.board_index(sub).rank(image.board()) * 2 + pos.side().index() as u64;
        if self.read_nodes.insert((fixed, sub, node)) {
            self.reads += 1;
        }
        self.blocks.insert((fixed, sub, node / BLOCK as u64));
    }

    fn score(&mut self, pos: &Position) -> anyhow::Result<Score> {
        let truth = self.tb.score(pos).context("a position outside the tables")?;
        if pos.outcome().is_some() {
            return Ok(truth);
        }
        if let Some(&s) = self.memo.get(&pos.key()) {
            return Ok(s);
        }
        let score = if self.stored.is_none_or(|s| s == pos.side()) {
            self.touch(pos);
            truth
        } else {
            self.derived += 1;
            let mut best: Option<Score> = None;
            for &m in pos.legal_moves(RULE).iter() {
                let child = internals::play_unchecked(pos, m);
                let cs = Score::from_child(self.score(&child)?, child.side() == pos.side());
                best = best.max(Some(cs));
            }
            let best = best.expect("a state that goes on has a move");
            if best != truth {
                self.mismatches += 1;
            }
            best
        };
        self.memo.insert(pos.key(), score);
        Ok(score)
    }

    /// Every move's score, then the line of best play: the first move in
    /// move order whose score is the position's, the line
    /// `scored::best_line` plays (the best move, stable among equals).
    fn query(&mut self, root: &Position) -> anyhow::Result<()> {
        for &m in root.legal_moves(RULE).iter() {
            self.score(&internals::play_unchecked(root, m))?;
        }
        let mut cur = *root;
        let mut score = self.score(root)?;
        while cur.outcome().is_none() && score.value != Value::NoResult {
            let mut next = None;
            for &m in cur.legal_moves(RULE).iter() {
                let child = internals::play_unchecked(&cur, m);
                if Score::from_child(self.score(&child)?, child.side() == cur.side()) == score {
                    next = Some(child);
                    break;
                }
            }
            let Some(child) = next else {
                self.mismatches += 1;
                break;
            };
            self.line += 1;
            cur = child;
            score = self.score(&cur)?;
        }
        Ok(())
    }
}

#[derive(Default)]
struct LevelStats {
    nodes: u64,
    depth_sum: u64,
    depth_count: u64,
    depth_max: u16,
    t_vbyte: Ent,
    t_ctx: Ent,
    d_v: Ent,
}

#[derive(Default)]
struct ChildStats {
    nodes: u64,
    branching: Hist,
    keeping: Hist,
    optimal: Hist,
    pointer: Hist,
    pointer_given: Ent,
    pointer_first: u64,
    pointer_needed: u64,
    same_side_edges: u64,
    edges: u64,
    nodes_with_extra: u64,
    mismatches: u64,
    /// Per stored side S: record reads to derive the state score of a node
    /// of the other side, and to list every move of a node of side S with
    /// its depth.
    derive_cost: [Hist; 2],
    list_cost: [Hist; 2],
    /// Record reads to derive a node's depth by following the pointers.
    line_cost: Hist,
}

impl Study {
    fn new(n: u8, every: u64, block_side: usize) -> Study {
        let hist = || vec![0u64; MAX_DEPTH + 1];
        Study {
            n,
            every,
            nodes: 0,
            states: 0,
            fixed: 0,
            depth0: std::array::from_fn(|_| hist()),
            depth_best: std::array::from_fn(|_| hist()),
            depth_states: std::array::from_fn(|_| hist()),
            by_f: BTreeMap::new(),
            multi: 0,
            pass_value: 0,
            pass_depth_only: 0,
            ban_value: 0,
            ban_depth_only: 0,
            ban_valid_value: 0,
            ban_valid_depth_only: 0,
            states_differ: 0,
            unique_best_walk: 0,
            unique_best_move: 0,
            tied_best: 0,
            terminal: 0,
            lower_violations: 0,
            lower_exact: 0,
            e_value: Ent::default(),
            e_depth_v: Ent::default(),
            e_vbyte: Ent::default(),
            e_t: Ent::default(),
            e_t_vbyte: Ent::default(),
            e_t_vbyte_side: Ent::default(),
            e_t_ctx: Ent::default(),
            e_t_ctx_sib: Ent::default(),
            e_rec: Ent::default(),
            e_rec_vbyte: Ent::default(),
            e_resid_v: Ent::default(),
            e_depth_ctx: Ent::default(),
            e_mod: Default::default(),
            window: [0; 4],
            e_side: Default::default(),
            file_t_vbyte: Ent::default(),
            file_t_vbyte_bits: 0.0,
            file_model_pairs: 0,
            block_t: FxHashSet::default(),
            block_d: FxHashSet::default(),
            block_ent: Ent::default(),
            block_nodes: 0,
            block_static_bits: 0.0,
            block_dict_bits: 0.0,
            block_dict_d_bits: 0.0,
            blocks: 0,
            adaptive: Adaptive::new(BLOCK),
            adaptive_side: [Adaptive::new(BLOCK / 2), Adaptive::new(BLOCK / 2)],
            adaptive_small: Adaptive::new(BLOCK),
            adaptive_side_small: [Adaptive::new(BLOCK / 2), Adaptive::new(BLOCK / 2)],
            child: ChildStats::default(),
            sub: SubModels::default(),
            factor: Factor::new(block_side),
            queries: Default::default(),
        }
    }

    fn begin_file(&mut self, fixed: u16) {
        self.fixed = fixed;
        self.file_t_vbyte.clear();
    }

    fn end_file(&mut self) {
        self.end_block();
        self.end_sub();
        self.factor.end_file();
        for side in 0..2 {
            let e = &mut self.sub.file[side];
            self.sub.file_bits[side] += e.bits() + MODEL_PAIR_BITS * e.joint.len() as f64;
            self.sub.file_pairs[side] += e.joint.len() as u64;
            e.clear();
        }
        self.file_t_vbyte_bits += self.file_t_vbyte.bits();
        self.file_model_pairs += self.file_t_vbyte.joint.len() as u64;
    }

    /// Blocks do not span sub-tables (as in `packed.rs`); static models
    /// per sub-table end with it.
    fn begin_sub(&mut self, loose: u32) {
        self.end_block();
        self.end_sub();
        self.factor.begin_sub(loose);
        self.adaptive.restart();
        self.adaptive_small.restart();
        for a in &mut self.adaptive_side {
            a.restart();
        }
        for a in &mut self.adaptive_side_small {
            a.restart();
        }
    }

    /// Adds the cost of the static models of the sub-table just read.
    fn end_sub(&mut self) {
        let m = &mut self.sub;
        m.prev = [u16::MAX; 2];
        let mut side_cost = [0.0; 2];
        for (side, cost_of_side) in side_cost.iter_mut().enumerate() {
            for c in 0..2 {
                let e = &mut m.ent[side][c];
                let cost = e.bits() + MODEL_PAIR_BITS * e.joint.len() as f64;
                m.bits[side][c] += cost;
                m.pairs[side][c] += e.joint.len() as u64;
                if c == 1 {
                    *cost_of_side = cost;
                }
                e.clear();
            }
        }
        m.best_side_bits += side_cost[0].min(side_cost[1]);
        m.both_bits += m.both.bits() + MODEL_PAIR_BITS * m.both.joint.len() as f64;
        m.both_pairs += m.both.joint.len() as u64;
        m.both.clear();
    }

    /// Simulates `query` of `root` (every move with its score, then the
    /// shortest best line) for each way of storing depths.
    fn query(&mut self, tb: &Tablebase, root: &Position) -> anyhow::Result<()> {
        for (k, stored) in [Some(Side::Jia), Some(Side::Yi), None].into_iter().enumerate() {
            let mut sim = Sim::new(tb, stored);
            sim.query(root)?;
            let q = &mut self.queries[k];
            q.reads.add(sim.reads);
            q.blocks.add(sim.blocks.len() as u64);
            q.line.add(sim.line);
            q.mismatches += sim.mismatches;
            q.derived += sim.derived;
        }
        Ok(())
    }

    fn end_block(&mut self) {
        if self.block_nodes == 0 {
            return;
        }
        let k = self.block_t.len() as f64;
        let width = if k <= 1.0 { 0.0 } else { k.log2().ceil() };
        // A dictionary entry of T: 40 bits (three scores of 10 bits, the
        // walk and flags); of a depth: 8 bits.
        self.block_dict_bits += width * self.block_nodes as f64 + 40.0 * k;
        let mut per_value: FxHashMap<u8, u32> = FxHashMap::default();
        for &(v, _) in &self.block_d {
            *per_value.entry(v).or_default() += 1;
        }
        // Each node's depth from its value's dictionary (the value comes
        // from the values layer).
        self.block_dict_d_bits += 8.0 * self.block_d.len() as f64;
        self.block_static_bits += self.block_ent.bits();
        self.blocks += 1;
        self.block_t.clear();
        self.block_d.clear();
        self.block_ent.clear();
        self.block_nodes = 0;
    }

    fn facts(&self, pos: &Position, index: &SigIndex, s: &Summary) -> (NodeFacts, u64) {
        let n = self.n;
        let side = pos.side();
        let fixed = pos.fixed_mask();
        let live = |sd: Side| (internals::pieces_mask(sd, n) & !fixed).count_ones() as u8;
        let (own_live, opp_live) = (live(side), live(side.other()));
        let s0 = s.score(Last::None, RULE);
        // Consistent `last` pieces (as the generator's `valid_lasts`) and
        // T, as the block coder defines them (`table::depth_code`).
        let valid = consistent_walks(pos, index.items());
        let states = 2 + u64::from(valid.count_ones());
        let record = DepthRecord::of(s, valid, RULE).expect("depths of at most 255");
        let pass_differs = record.pass.is_some();
        let ban_differs = record.ban.is_some();
        let mut t = u64::from(internals::pack(s0));
        t |= u64::from(record.pass.map_or(u16::MAX, internals::pack)) << 16;
        t |= match record.ban {
            Some((w, b)) => u64::from(internals::pack(b)) << 32 | u64::from(w) << 48,
            None => u64::from(u16::MAX) << 32,
        };
        let delta = |x: Score| {
            u64::from(
                (i32::from(x.depth().unwrap_or(0)) - i32::from(s0.depth().unwrap_or(0)) + 512)
                    as u16,
            )
        };
        let mut rest =
            record.pass.map_or(0, |p| 1 | u64::from(p.value.code()) << 1 | delta(p) << 4);
        if let Some((w, b)) = record.ban {
            rest |= (1 | u64::from(b.value.code()) << 1 | delta(b) << 4 | u64::from(w) << 14) << 20;
        }
        let lower = match s0.value {
            _ if s.terminal => 0,
            Value::SelfWin => u16::from(own_live),
            Value::SelfLose => u16::from(opp_live),
            Value::BothWin => u16::from(own_live + opp_live),
            Value::BothLose => 2,
            Value::NoResult => 0,
        };
        let facts = NodeFacts {
            value: s0.value,
            depth: s0.depth().unwrap_or(0),
            t,
            rest,
            vbyte: values::encode(s, RULE).expect("a record of the solver"),
            own_live,
            opp_live,
            lower,
            pass_differs,
            ban_differs,
            terminal: s.terminal,
        };
        (facts, states)
    }

    /// Adds one node; with `sample`, also the measures of its children.
    fn node(&mut self, tb: &Tablebase, at: &NodeAt<'_>, sample: bool) -> anyhow::Result<()> {
        let NodeAt { pos, index, summary: s, facts: (f, states), sibling: sib } = *at;
        let (states, side) = (*states, pos.side());
        self.nodes += 1;
        self.states += states;
        let v = f.value.code();
        let vi = usize::from(v);
        let d = usize::from(f.depth).min(MAX_DEPTH);
        self.depth0[vi][d] += 1;
        if let Some(b) = s.best {
            self.depth_best[usize::from(b.value.code())]
                [usize::from(b.depth().unwrap_or(0)).min(MAX_DEPTH)] += 1;
        }
        // Every consistent state's score.
        let n = self.n;
        let mut distinct: Vec<Score> = vec![s.score(Last::None, RULE)];
        let mut add_state = |st: &mut Study, sc: Score| {
            st.depth_states[usize::from(sc.value.code())]
                [usize::from(sc.depth().unwrap_or(0)).min(MAX_DEPTH)] += 1;
            if sc != distinct[0] {
                st.states_differ += 1;
            }
            if !distinct.contains(&sc) {
                distinct.push(sc);
            }
        };
        add_state(self, s.score(Last::None, RULE));
        add_state(self, s.score(Last::Pass, RULE));
        for &p in index.items() {
            let slot = pos.slot_of(p).expect("loose");
            if p != n && pos.piece_at(walk_origin(n, slot, p)).is_none() {
                add_state(self, s.score(Last::Piece(p), RULE));
            }
        }
        if distinct.len() > 1 {
            self.multi += 1;
        }
        if f.terminal {
            self.terminal += 1;
        } else {
            let s0 = s.score(Last::None, RULE);
            let sp = s.score(Last::Pass, RULE);
            if sp.value != s0.value {
                self.pass_value += 1;
            } else if sp != s0 {
                self.pass_depth_only += 1;
            }
            if s.best_walk != 0 {
                let sb = s.score(Last::Piece(s.best_walk), RULE);
                let slot = pos.slot_of(s.best_walk).expect("the best walk is on the board");
                let valid =
                    s.best_walk != n && pos.piece_at(walk_origin(n, slot, s.best_walk)).is_none();
                if sb.value != s0.value {
                    self.ban_value += 1;
                    self.ban_valid_value += u64::from(valid);
                } else if sb != s0 {
                    self.ban_depth_only += 1;
                    self.ban_valid_depth_only += u64::from(valid);
                }
            }
            match (s.best, s.second) {
                (Some(b), Some(c)) if b == c => self.tied_best += 1,
                (Some(_), _) => {
                    self.unique_best_move += 1;
                    self.unique_best_walk += u64::from(s.best_walk != 0);
                }
                _ => {}
            }
        }
        if f.depth < f.lower && f.value != Value::NoResult {
            self.lower_violations += 1;
        }
        if f.depth == f.lower {
            self.lower_exact += 1;
        }
        // Entropies.
        let vbyte = u64::from(f.vbyte);
        let sidebit = side.index() as u64;
        let live = u64::from(f.own_live) << 4 | u64::from(f.opp_live);
        let ctx = vbyte | sidebit << 8 | live << 9;
        let ctx_sib = ctx | u64::from(sib.vbyte) << 17;
        let rec = u64::from_le_bytes(format::encode_scores(s));
        self.e_value.add(0, u64::from(v));
        self.e_depth_v.add(u64::from(v), f.depth.into());
        self.e_vbyte.add(0, vbyte);
        self.e_t.add(0, f.t);
        self.e_t_vbyte.add(vbyte, f.t);
        self.e_t_vbyte_side.add(vbyte | sidebit << 8, f.t);
        self.e_t_ctx.add(ctx, f.t);
        self.e_t_ctx_sib.add(ctx_sib, f.t);
        self.e_rec.add(0, rec);
        self.e_rec_vbyte.add(vbyte, rec);
        self.e_resid_v.add(u64::from(v), u64::from(f.depth.wrapping_sub(f.lower)));
        self.e_depth_ctx.add(u64::from(v) | live << 3 | sidebit << 11, f.depth.into());
        for (i, k) in [2u16, 4, 8].iter().enumerate() {
            self.e_mod[i].add(u64::from(v), u64::from(f.depth % k));
        }
        let over = f.depth.saturating_sub(f.lower);
        for (i, k) in [1u16, 2, 4, 8].iter().enumerate() {
            if over < *k {
                self.window[i] += 1;
            }
        }
        self.e_side[side.index()].add(ctx_sib, f.t);
        let level = self.by_f.entry(self.fixed.count_ones()).or_default();
        level.nodes += 1;
        if !f.terminal && f.value != Value::NoResult {
            level.depth_sum += u64::from(f.depth);
            level.depth_count += 1;
            level.depth_max = level.depth_max.max(f.depth);
        }
        level.t_vbyte.add(vbyte, f.t);
        level.t_ctx.add(ctx_sib, f.t);
        level.d_v.add(u64::from(v), f.depth.into());
        self.file_t_vbyte.add(vbyte, f.t);
        self.sub.ent[side.index()][0].add(vbyte, f.t);
        self.sub.ent[side.index()][1].add(vbyte | u64::from(sib.vbyte) << 8, f.t);
        self.sub.both.add(vbyte | u64::from(sib.vbyte) << 8 | sidebit << 16, f.t);
        self.sub.file[side.index()].add(vbyte | u64::from(sib.vbyte) << 8, f.t);
        let prev = self.sub.prev[side.index()];
        self.sub.with_prev.add(ctx_sib | u64::from(prev.min(255)) << 25, f.t);
        self.sub.prev[side.index()] = f.depth;
        self.factor.add(side.index(), f, sib, features(pos));
        // Blocks of the sub-table.
        if self.block_nodes == BLOCK {
            self.end_block();
        }
        self.block_nodes += 1;
        self.block_t.insert(f.t);
        self.block_d.insert((v, f.depth));
        self.block_ent.add(vbyte, f.t);
        let explicit = explicit_bits(f);
        self.adaptive.code(ctx_sib, f.t, explicit);
        self.adaptive_side[side.index()].code(ctx_sib, f.t, explicit);
        self.adaptive_small.code(vbyte, f.t, explicit);
        self.adaptive_side_small[side.index()].code(vbyte, f.t, explicit);
        if sample && !f.terminal {
            self.children(tb, pos, s)?;
        }
        Ok(())
    }

    /// The measures that read a node's children.
    fn children(&mut self, tb: &Tablebase, pos: &Position, s: &Summary) -> anyhow::Result<()> {
        let c = &mut self.child;
        c.nodes += 1;
        let moves = pos.legal_moves(RULE);
        let target = s.score(Last::None, RULE);
        let mut scored = Vec::with_capacity(moves.len());
        let mut extra = 0;
        for &m in moves.iter() {
            let child = internals::play_unchecked(pos, m);
            let same = child.side() == pos.side();
            extra += u64::from(same);
            let cs = tb.score(&child).context("a child outside the tables")?;
            scored.push((m, Score::from_child(cs, same)));
        }
        c.edges += moves.len() as u64;
        c.same_side_edges += extra;
        c.nodes_with_extra += u64::from(extra > 0);
        c.branching.add(moves.len() as u64);
        let best = scored.iter().map(|x| x.1).max().expect("a node that goes on has a move");
        if best != target {
            c.mismatches += 1;
        }
        let keeping: Vec<Score> =
            scored.iter().map(|x| x.1).filter(|sc| sc.value == target.value).collect();
        c.keeping.add(keeping.len() as u64);
        c.optimal.add(keeping.iter().filter(|&&sc| sc == target).count() as u64);
        let ptr = keeping.iter().position(|&sc| sc == target).unwrap_or(0) as u64;
        c.pointer.add(ptr);
        c.pointer_given.add(keeping.len() as u64, ptr);
        c.pointer_first += u64::from(ptr == 0);
        c.pointer_needed += u64::from(keeping.len() > 1);
        c.line_cost.add(u64::from(target.depth().unwrap_or(0)));
        for stored in Side::ALL {
            if pos.side() == stored {
                let cost: u64 = moves
                    .iter()
                    .map(|&m| state_cost(&internals::play_unchecked(pos, m), stored))
                    .sum();
                c.list_cost[stored.index()].add(cost);
            } else {
                c.derive_cost[stored.index()].add(derive_cost(pos, stored));
            }
        }
        Ok(())
    }

    fn report(&self, values_bytes: Option<&BTreeMap<u32, u64>>) {
        let nodes = self.nodes as f64;
        let pct = |x: u64| 100.0 * x as f64 / nodes;
        println!("# depth study: {} slots, pass rule always", self.n);
        println!(
            "\nnodes: {}, states: {}, blocks of {BLOCK} nodes: {}",
            self.nodes, self.states, self.blocks
        );
        println!("\n## depth of `last` none, per value (nodes)");
        print_depths(&self.depth0);
        println!("\n## depth of `best` (walks and placements), per value of best");
        print_depths(&self.depth_best);
        println!("\n## depth of every consistent state, per value (states)");
        print_depths(&self.depth_states);
        println!("\n## dependence on `last`");
        println!("| measure | nodes | share of nodes |\n|---|---|---|");
        let row = |name: &str, x: u64| println!("| {name} | {x} | {:.3}% |", pct(x));
        row("terminal (game over)", self.terminal);
        row("states of the node have more than one score", self.multi);
        row("`last` pass: other value than `last` none", self.pass_value);
        row("`last` pass: same value, other depth", self.pass_depth_only);
        row("ban of the best walk: other value (any board)", self.ban_value);
        row("ban of the best walk: same value, other depth (any board)", self.ban_depth_only);
        row("ban of the best walk: other value, consistent `last`", self.ban_valid_value);
        row("ban of the best walk: other depth only, consistent `last`", self.ban_valid_depth_only);
        row("unique best walk or placement (second < best)", self.unique_best_move);
        row("unique best, and it is a walk", self.unique_best_walk);
        row("best tied (second = best)", self.tied_best);
        println!(
            "states whose score differs from `last` none of their node: {} of {} ({:.3}%)",
            self.states_differ,
            self.states,
            100.0 * self.states_differ as f64 / self.states as f64
        );
        println!("\n## entropy, bits a node (whole table, one static model)");
        println!("| quantity | bits/node | (context, symbol) pairs |\n|---|---|---|");
        let e =
            |name: &str, x: &Ent| println!("| {name} | {:.4} | {} |", x.per_node(), x.joint.len());
        e("H(value of `last` none)", &self.e_value);
        e("H(depth | value), `last` none", &self.e_depth_v);
        e("H(depth - lower bound | value)", &self.e_resid_v);
        e("H(depth | value, side, own and opponent's pieces not fixed)", &self.e_depth_ctx);
        e("H(values-only byte)", &self.e_vbyte);
        e("H(T): every state's score", &self.e_t);
        e("H(T | values byte)", &self.e_t_vbyte);
        e("H(T | values byte, side)", &self.e_t_vbyte_side);
        e("H(T | values byte, side, pieces not fixed per side)", &self.e_t_ctx);
        e("H(T | the same, sibling's values byte)", &self.e_t_ctx_sib);
        e("H(8-byte record)", &self.e_rec);
        e("H(8-byte record | values byte)", &self.e_rec_vbyte);
        for (i, k) in [2, 4, 8].iter().enumerate() {
            e(&format!("H(depth mod {k} | value)"), &self.e_mod[i]);
        }
        println!("\ndepth below the lower bound (must be 0): {}", self.lower_violations);
        for (i, k) in [1, 2, 4, 8].iter().enumerate() {
            println!(
                "depth in [lower bound, lower bound + {k}): {:.3}% of nodes",
                pct(self.window[i])
            );
        }
        println!(
            "\n## one side stored: H(T | values byte, side, pieces not fixed, sibling's values byte)"
        );
        println!(
            "| side stored | bits per stored node | bits per node of the table |\n|---|---|---|"
        );
        for side in Side::ALL {
            let x = &self.e_side[side.index()];
            println!("| {} | {:.4} | {:.4} |", side.name(), x.per_node(), x.bits() / nodes);
        }
        println!("\n## coders, bits a node of the whole table (T, the depth layer only)");
        println!("| coder | bits/node |\n|---|---|");
        println!(
            "| static model per file, T given values byte (model not counted; {} pairs) | {:.4} |",
            self.file_model_pairs,
            self.file_t_vbyte_bits / nodes
        );
        println!(
            "| static model per block of {BLOCK}, T given values byte (model not counted) | {:.4} |",
            self.block_static_bits / nodes
        );
        println!(
            "| per-block dictionary of T, fixed width + 40 bits an entry | {:.4} |",
            self.block_dict_bits / nodes
        );
        println!(
            "| per-block dictionary of (value, depth): 8 bits an entry, the dictionary alone | {:.4} |",
            self.block_dict_d_bits / nodes
        );
        println!(
            "| adaptive per block, context values byte | {:.4} |",
            self.adaptive_small.per_node()
        );
        println!(
            "| adaptive per block, context values byte, side, pieces not fixed, sibling byte | {:.4} |",
            self.adaptive.per_node()
        );
        for side in Side::ALL {
            let (a, b) =
                (&self.adaptive_side_small[side.index()], &self.adaptive_side[side.index()]);
            println!(
                "| only {} to move stored, adaptive per {} of its nodes, small / large context | {:.4} / {:.4} |",
                side.name(),
                BLOCK / 2,
                a.bits / nodes,
                b.bits / nodes
            );
        }
        let m = &self.sub;
        println!("\n## static model per sub-table, model counted at {MODEL_PAIR_BITS} bits a pair");
        println!("| stored | context | bits/node of the table | pairs |\n|---|---|---|---|");
        for side in Side::ALL {
            for (c, name) in ["values byte", "values byte, sibling's byte"].iter().enumerate() {
                println!(
                    "| only {} | {name} | {:.4} | {} |",
                    side.name(),
                    m.bits[side.index()][c] / nodes,
                    m.pairs[side.index()][c]
                );
            }
        }
        println!(
            "| the cheaper side per sub-table | values byte, sibling's byte | {:.4} | - |",
            m.best_side_bits / nodes
        );
        println!(
            "| both sides | values byte, side, sibling's byte | {:.4} | {} |",
            m.both_bits / nodes,
            m.both_pairs
        );
        for side in Side::ALL {
            println!(
                "| only {}, one model per file | values byte, sibling's byte | {:.4} | {} |",
                side.name(),
                m.file_bits[side.index()] / nodes,
                m.file_pairs[side.index()]
            );
        }
        println!(
            "\nlocality: H(T | values byte, side, pieces not fixed, sibling's byte, depth of the previous node of the side): {:.4} bits/node ({} pairs)",
            m.with_prev.per_node(),
            m.with_prev.joint.len()
        );
        println!("\n## simulated queries (every move with its depth, then the shortest line)");
        println!(
            "| depths stored for | queries | records read | blocks touched | line plies | derived states | mismatches |"
        );
        println!("|---|---|---|---|---|---|---|");
        for (k, name) in ["jia only", "yi only", "both sides"].iter().enumerate() {
            let q = &self.queries[k];
            println!(
                "| {name} | {} | {} | {} | mean {:.1}, max {} | {} | {} |",
                q.reads.total(),
                q.reads.summary(),
                q.blocks.summary(),
                q.line.mean(),
                q.line.max(),
                q.derived,
                q.mismatches
            );
        }
        println!("\n## per |F| (fixed pieces)");
        println!(
            "| F | nodes | mean depth | max depth | H(d given v) | H(T given vbyte) | H(T given ctx, sib) | values-only file bits/node |"
        );
        println!("|---|---|---|---|---|---|---|---|");
        for (k, l) in &self.by_f {
            let vb = values_bytes
                .and_then(|m| m.get(k))
                .map_or("-".to_string(), |&b| format!("{:.3}", 8.0 * b as f64 / l.nodes as f64));
            println!(
                "| {k} | {} | {:.2} | {} | {:.3} | {:.3} | {:.3} | {vb} |",
                l.nodes,
                l.depth_sum as f64 / l.depth_count.max(1) as f64,
                l.depth_max,
                l.d_v.per_node(),
                l.t_vbyte.per_node(),
                l.t_ctx.per_node()
            );
        }
        let pooled: f64 = self.by_f.values().map(|l| l.t_vbyte.bits()).sum::<f64>() / nodes;
        println!("one static model per |F| level, H(T | values byte): {pooled:.4} bits/node");
        if let Some(m) = values_bytes {
            let total: u64 = m.values().sum();
            println!(
                "values-only files: {total} bytes, {:.4} bits/node",
                8.0 * total as f64 / nodes
            );
        }
        self.factor.report(nodes);
        let c = &self.child;
        println!("\n## children (every {} board; {} nodes that go on)", self.every, c.nodes);
        println!("one-ply derivation of `last` none != stored: {} (must be 0)", c.mismatches);
        println!("legal moves (branching): {}", c.branching.summary());
        println!("moves keeping the value: {}", c.keeping.summary());
        println!("optimal moves (value and depth): {}", c.optimal.summary());
        println!(
            "children with the same side to move (extra move): {:.3}% of edges; nodes with one: {:.3}%",
            100.0 * c.same_side_edges as f64 / c.edges.max(1) as f64,
            100.0 * c.nodes_with_extra as f64 / c.nodes.max(1) as f64
        );
        println!(
            "first value-keeping move (move order) is optimal: {:.3}%; nodes with more than one value-keeping move: {:.3}%",
            100.0 * c.pointer_first as f64 / c.nodes.max(1) as f64,
            100.0 * c.pointer_needed as f64 / c.nodes.max(1) as f64
        );
        println!(
            "pointer (index of the first optimal among value-keeping moves): {}",
            c.pointer.summary()
        );
        println!(
            "H(pointer | number of value-keeping moves): {:.4} bits a node that goes on",
            c.pointer_given.per_node()
        );
        println!("record reads to follow pointers to the end (= depth): {}", c.line_cost.summary());
        for side in Side::ALL {
            println!(
                "stored side {}: reads to derive a state of the other side: {}",
                side.name(),
                c.derive_cost[side.index()].summary()
            );
            println!(
                "stored side {}: reads to list every move with depth of its own nodes: {}",
                side.name(),
                c.list_cost[side.index()].summary()
            );
        }
    }
}

/// Cheap features of a board for a decoder's context: the piece on slot N
/// (none, the mover's, the opponent's) and the number of legal walks.
fn features(pos: &Position) -> u64 {
    let n = pos.slots();
    let on_n = match pos.piece_at(n) {
        None => 0,
        Some(p) if internals::owner_of(p) == pos.side() => 1,
        Some(_) => 2,
    };
    let walks =
        pos.legal_moves(RULE).iter().filter(|m| matches!(m, chaosclock::Move::Walk(_))).count();
    on_n | (walks as u64) << 2
}

/// Record reads to know the score of state `pos` when only side `stored`
/// has depths: none for a finished game, one for a stored node, else one
/// (its values) plus a one-ply derivation.
fn state_cost(pos: &Position, stored: Side) -> u64 {
    if pos.outcome().is_some() {
        0
    } else if pos.side() == stored {
        1
    } else {
        1 + derive_cost(pos, stored)
    }
}

/// Record reads of a one-ply derivation of `pos` (not of side `stored`).
fn derive_cost(pos: &Position, stored: Side) -> u64 {
    pos.legal_moves(RULE)
        .iter()
        .map(|&m| state_cost(&internals::play_unchecked(pos, m), stored))
        .sum()
}

/// The explicit code of a new symbol T in the adaptive coder: the depth
/// above the lower bound (gamma), a flag and a depth for a pass that
/// differs, a flag and the walk, value and depth of a ban that matters.
fn explicit_bits(f: &NodeFacts) -> f64 {
    let mut bits = gamma(u64::from(f.depth.saturating_sub(f.lower)) + 1) + 2.0;
    let t = f.t;
    if f.pass_differs {
        bits += gamma(((t >> 16) & 0x1fff) + 1);
    }
    if f.ban_differs {
        bits += 4.0 + 3.0 + gamma(((t >> 32) & 0x1fff) + 1);
    }
    bits
}

fn print_depths(h: &[Vec<u64>; 5]) {
    println!(
        "| value | nodes | mean | median | p99 | max | distinct depths |\n|---|---|---|---|---|---|---|"
    );
    for v in Value::ALL {
        let row = &h[usize::from(v.code())];
        let mut hist = Hist::default();
        for (d, &c) in row.iter().enumerate() {
            if c > 0 {
                *hist.0.entry(d as u64).or_default() += c;
            }
        }
        if hist.total() == 0 {
            continue;
        }
        println!(
            "| {} {} | {} | {:.2} | {} | {} | {} | {} |",
            v.code(),
            v.label(),
            hist.total(),
            hist.mean(),
            hist.quantile(0.5),
            hist.quantile(0.99),
            hist.max(),
            hist.0.len()
        );
    }
    println!("\nhistogram (depth: count per value 4 3 2 1 0):");
    let max = (0..=MAX_DEPTH).rev().find(|&d| h.iter().any(|r| r[d] > 0)).unwrap_or(0);
    for (d, _) in h[0].iter().enumerate().take(max + 1) {
        let counts: Vec<String> = [4, 3, 2, 1, 0].map(|v: usize| h[v][d].to_string()).to_vec();
        println!("{d}: {}", counts.join(" "));
    }
}
