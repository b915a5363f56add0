//! Converts complete tables with depths of record encoding 1 (8 bytes a
//! node) into encoding 4, "values with depths, compressed" (docs/depths.md),
//! file by file, all threads, and prints the sizes and the time.
//!
//! ```sh
//! cargo run --release -p chaosclock-research --example compact_tables -- SRC DST [--slots N] [--sides]
//! ```
//!
//! `SRC` and `DST` are tables roots; the files of `SRC/n{N}-always` go to
//! `DST/n{N}-always` (made if missing). A file already in `DST` is made
//! again. `--sides` also writes each file's side file (`f{F}.side.cctb`:
//! 乙's depth records, so that a query reads them rather than derives
//! them; its sizes are printed apart). `query`, `verify` and the other commands read `DST` as they read
//! any tables.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context as _, bail, ensure};
use chaosclock::PassRule;
use chaosclock::Side;
use chaosclock::internals::convert::convert_side;
use chaosclock::table::{Tablebase, fixed_sets};
use rayon::prelude::*;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let (mut src, mut dst, mut n, mut sides) = (None, None, 10u8, false);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--sides" => sides = true,
            "--slots" => n = args.next().context("--slots N")?.parse().context("--slots N")?,
            _ if src.is_none() => src = Some(PathBuf::from(a)),
            _ if dst.is_none() => dst = Some(PathBuf::from(a)),
            _ => bail!("usage: compact_tables SRC DST [--slots N] [--sides]"),
        }
    }
    let (Some(src), Some(dst)) = (src, dst) else {
        bail!("usage: compact_tables SRC DST [--slots N] [--sides]");
    };
    let start = Instant::now();
    let tb = Tablebase::new(&src, n, PassRule::Always);
    let out = Tablebase::new(&dst, n, PassRule::Always);
    std::fs::create_dir_all(out.dir()).with_context(|| out.dir().display().to_string())?;
    let sets = fixed_sets(n, n);
    ensure!(tb.load_all()? == sets.len(), "{} is not complete", tb.dir().display());
    let sizes: Vec<(u64, u64, u64)> = sets
        .par_iter()
        .map(|&f| {
            let file = tb.file(f).expect("loaded");
            let failed = |e| anyhow::anyhow!("{}: {e}", tb.path(f).display());
            let bytes = convert_side(file, &out.path(f), Side::Jia).map_err(failed)?;
            let side = if sides {
                let path = out.dir().join(format!("f{f:04x}.side.cctb"));
                convert_side(file, &path, Side::Yi).map_err(failed)?
            } else {
                0
            };
            Ok((file.nodes(), bytes, side))
        })
        .collect::<anyhow::Result<_>>()?;
    let nodes: u64 = sizes.iter().map(|s| s.0).sum();
    let bits = |bytes: u64| 8.0 * bytes as f64 / nodes as f64;
    let bytes: u64 = sizes.iter().map(|s| s.1).sum();
    let side: u64 = sizes.iter().map(|s| s.2).sum();
    println!(
        "{} files, {nodes} nodes, {bytes} bytes, {:.3} bits a node; side files {side} bytes, {:.3} bits a node; {:.1} s",
        sets.len(),
        bits(bytes),
        bits(side),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
