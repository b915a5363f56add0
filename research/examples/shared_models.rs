//! Studies model sets shared by several files of a table with depths
//! (docs/depths.md, "Shared model sets"): what the files' blocks cost
//! coded with one set made from the counts of a whole group of files,
//! against their own sets.
//!
//! Every file of the directory (`f*.cctb`, side files left out) is read,
//! every block decoded with its own set and its symbols counted; files
//! are grouped (`--group all`: one group; `--group fixed`: one a number of
//! fixed pieces), files of more than `--own NODES` nodes keeping their
//! own sets; then every block of a grouped file is coded again with its
//! group's set, in the file's own segments. It prints, per group, the
//! files, their blocks' bytes and their sets' bytes both ways, and the
//! sets' sizes in memory.
//!
//! ```sh
//! cargo run --release -p chaosclock-research --example shared_models -- DIR [--group all|fixed] [--own NODES]
//! ```
//!
//! `DIR` holds the files (`TABLES/n{N}-always`). One thread.

use std::collections::BTreeMap;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail, ensure};
use chaosclock::internals::coded;
use chaosclock::internals::depth_code::{BoardCode, ModelCounts, Models};
use chaosclock::internals::format::{Encoding, Header};
use chaosclock::internals::packed;

/// A file's blocks, read with their own sets.
struct Coded {
    path: PathBuf,
    header: Header,
    layout: coded::Layout,
    head: Vec<u8>,
    first: Vec<usize>,
    models: Vec<Models>,
    file: std::fs::File,
}

impl Coded {
    fn open(path: &Path) -> anyhow::Result<Coded> {
        let file = std::fs::File::open(path).with_context(|| format!("{}", path.display()))?;
        let len = file.metadata()?.len();
        let read = |at: u64, len: usize| -> anyhow::Result<Vec<u8>> {
            let mut bytes = vec![0; len];
            file.read_exact_at(&mut bytes, at)?;
            Ok(bytes)
        };
        let header =
            Header::parse(&read(0, len.min(1 << 16) as usize)?).map_err(anyhow::Error::msg)?;
        ensure!(header.encoding == Encoding::Coded, "{} is not of encoding 4", path.display());
        let at = header.to_bytes().len();
        let words = read(at as u64, 12)?;
        let word = |i: usize| u32::from_le_bytes(words[4 * i..4 * i + 4].try_into().expect("4"));
        let (per, sets) = ((word(0) & 0xFFFF) as usize, word(2) as usize);
        let first = coded::first_blocks(&header, per);
        let blocks = *first.last().expect("one entry at least");
        let head = read(0, coded::head_len(&header, sets, blocks))?;
        let layout = coded::Layout::parse(&head, &header).map_err(anyhow::Error::msg)?;
        let mut models = Vec::new();
        for &e in &layout.models {
            let bytes = read(layout.data as u64 + e.start, e.len as usize)?;
            models.push(Models::from_bytes(&bytes).map_err(anyhow::Error::msg)?);
        }
        Ok(Coded { path: path.to_path_buf(), header, layout, head, first, models, file })
    }

    fn nodes(&self) -> u64 {
        self.header.nodes.iter().sum()
    }

    fn sets_bytes(&self) -> u64 {
        self.layout.models.iter().map(|e| u64::from(e.len)).sum()
    }

    /// Calls `f` with each block's bytes' length and boards.
    fn each(
        &self,
        mut f: impl FnMut(u64, &[BoardCode]) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let mut out = Vec::new();
        for b in 0..self.layout.blocks {
            let sub = self.first.partition_point(|&s| s <= b) - 1;
            let e = packed::Entry::parse(&self.head[self.layout.table + packed::ENTRY * b..]);
            let mut bytes = vec![0; e.len as usize];
            self.file.read_exact_at(&mut bytes, self.layout.data as u64 + e.start)?;
            let boards = coded::block_boards(
                self.header.nodes[sub],
                b - self.first[sub],
                self.layout.boards,
            );
            let set = &self.models[self.layout.sub_model[sub] as usize];
            coded::decode_block(&bytes, boards, set, self.layout.segment, &mut out)
                .map_err(|e| anyhow::anyhow!("{}: block {b}: {e}", self.path.display()))?;
            f(bytes.len() as u64, &out)?;
        }
        Ok(())
    }
}

/// A group's totals.
#[derive(Default)]
struct Totals {
    files: usize,
    nodes: u64,
    blocks_before: u64,
    sets_before: u64,
    heap_before: u64,
    blocks_after: u64,
}

fn main() -> anyhow::Result<()> {
    let (dir, by_fixed, own) = parse_args()?;
    let mut paths: Vec<PathBuf> =
        std::fs::read_dir(&dir)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
    paths.retain(|p| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        name.starts_with('f') && name.ends_with(".cctb") && !name.ends_with(".side.cctb")
    });
    paths.sort();
    ensure!(!paths.is_empty(), "no table files in {}", dir.display());
    let group_of = |path: &Path| -> anyhow::Result<u32> {
        let name = path.file_stem().and_then(|n| n.to_str()).unwrap_or("");
        let fixed = u16::from_str_radix(name.trim_start_matches('f'), 16)
            .with_context(|| format!("{}: not a table file's name", path.display()))?;
        Ok(if by_fixed { fixed.count_ones() } else { 0 })
    };

    // Pass 1: the counts of each group.
    let mut counts: BTreeMap<u32, ModelCounts> = BTreeMap::new();
    let mut totals: BTreeMap<u32, Totals> = BTreeMap::new();
    let mut kept = Totals::default();
    for path in &paths {
        let file = Coded::open(path)?;
        if file.nodes() > own {
            kept.files += 1;
            kept.nodes += file.nodes();
            continue;
        }
        let g = group_of(path)?;
        let c = counts.entry(g).or_default();
        let t = totals.entry(g).or_default();
        t.files += 1;
        t.nodes += file.nodes();
        t.sets_before += file.sets_bytes();
        t.heap_before += file.models.iter().map(|m| m.heap_bytes() as u64).sum::<u64>();
        let segment = file.layout.segment;
        file.each(|len, boards| {
            t.blocks_before += len;
            coded::count_block(c, boards, segment).map_err(anyhow::Error::msg)
        })?;
    }
    let shared: BTreeMap<u32, Models> = counts
        .iter()
        .map(|(&g, c)| Ok((g, Models::new(c).map_err(anyhow::Error::msg)?)))
        .collect::<anyhow::Result<_>>()?;
    drop(counts);

    // Pass 2: every block of a grouped file coded with its group's set.
    for path in &paths {
        let file = Coded::open(path)?;
        if file.nodes() > own {
            continue;
        }
        let g = group_of(path)?;
        let (set, t) = (&shared[&g], totals.get_mut(&g).expect("counted"));
        let segment = file.layout.segment;
        file.each(|_, boards| {
            t.blocks_after +=
                coded::encode_block(boards, set, segment).map_err(anyhow::Error::msg)?.len() as u64;
            Ok(())
        })?;
    }

    let bits = |bytes: u64, nodes: u64| 8.0 * bytes as f64 / nodes as f64;
    println!(
        "{}: {} files of more than {own} nodes keep their sets ({} nodes)",
        dir.display(),
        kept.files,
        kept.nodes
    );
    for (g, t) in &totals {
        let set = &shared[g];
        let set_bytes = set.to_bytes().len() as u64;
        let before = t.blocks_before + t.sets_before;
        let after = t.blocks_after + set_bytes;
        println!(
            "group {g}: {} files, {} nodes; own sets: blocks {} + sets {} = {before} bytes ({:.3} bits a node), sets {} bytes in memory; shared: blocks {} + one set {set_bytes} = {after} bytes ({:.3} bits a node, {:+.2}%), the set {} bytes in memory ({} symbols in {} contexts); the set in every file: {:.3} bits a node",
            t.files,
            t.nodes,
            t.blocks_before,
            t.sets_before,
            bits(before, t.nodes),
            t.heap_before,
            t.blocks_after,
            bits(after, t.nodes),
            100.0 * (after as f64 / before as f64 - 1.0),
            set.heap_bytes(),
            set.values.pairs() + set.delta.pairs() + set.rest.pairs(),
            set.values.contexts() + set.delta.contexts() + set.rest.contexts(),
            bits(t.blocks_after + set_bytes * t.files as u64, t.nodes),
        );
    }
    Ok(())
}

fn parse_args() -> anyhow::Result<(PathBuf, bool, u64)> {
    let (mut dir, mut by_fixed, mut own) = (None, false, u64::MAX);
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--group" => match it.next().as_deref() {
                Some("all") => by_fixed = false,
                Some("fixed") => by_fixed = true,
                other => bail!("--group takes all or fixed, not {other:?}"),
            },
            "--own" => own = it.next().context("--own needs a number of nodes")?.parse()?,
            _ if a.starts_with('-') => bail!("unknown flag {a}"),
            _ if dir.is_none() => dir = Some(PathBuf::from(a)),
            _ => bail!("one directory only, not also {a}"),
        }
    }
    let dir = dir.context("usage: shared_models DIR [--group all|fixed] [--own NODES]")?;
    Ok((dir, by_fixed, own))
}
