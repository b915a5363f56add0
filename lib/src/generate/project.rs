//! What a run of [`super::generate`] will write and take, projected from
//! the nodes of its files before anything is written, so that a run too
//! large for the disk can be refused at once and advice can name the size
//! of the command it suggests.
//!
//! The bytes are an upper bound fitted to the measured sizes of
//! `tables/README.md` (every one of them is at most its projection, see the
//! tests below):
//! - with depths: [`format::RECORD`] (8) bytes a node, 16 a signature (its
//!   entry in the file header) and 256 a file (the fixed header and the
//!   block checksums);
//! - values only: the bits a node measured on the complete table of the
//!   size (1.68 for 12 slots, which measured 1.67; 2.03 for 10, measured
//!   2.02; 3.1 up to 8, measured 3.09 for 8), 80 bytes a signature (each
//!   starts a new compressed block with its entry in the block table) and
//!   256 a file. Small tables are mostly this overhead.
//!
//! - with depths, compressed (encoding 4, and the side files a run keeps
//!   while it works, about as large): 8 bits a node for 10 slots and more
//!   (10 measured 7.83: 3.91 for the table, 3.92 for the side files), 13
//!   up to 8 (8 measured 12.9), and 4,096 bytes a file (the model sets).
//!
//! The time is the nodes at [`NODES_PER_SECOND`], the speed of the complete
//! 12-slot table of values only on 2 cores (docs/table-12.md: 33.7e9 nodes
//! in about 5 hours), or for tables with depths [`CODED_NODES_PER_SECOND`]
//! (2.5 times slower at 10 slots when first measured, 1.93 times at ecab5d6).

use crate::table::format::{self, Encoding, free_pieces, sub_loose, sub_nodes};

/// The nodes a second a run is projected to make (2 cores).
pub const NODES_PER_SECOND: u64 = 2_000_000;

/// The same for tables with depths (encoding 4): 10 slots took 91 s
/// against 47 s for values only (ecab5d6, one after the other). The
/// complete 12-slot table took about 15.8 hours of run time (2026-11-28,
/// 0.59 million nodes a second on average, builds and tests sharing the
/// machine at times; its files of one fixed piece went at 0.73 to 0.80
/// million a second once the exits were streamed, the largest sub-tables
/// of the file with no fixed piece at 0.58 to 0.7): so 0.6 million, about
/// 16 hours (docs/depths.md, "The generator, measured").
pub const CODED_NODES_PER_SECOND: u64 = 600_000;

/// What writing a list of table files is projected to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Projection {
    /// Files.
    pub files: usize,
    /// Stored signatures (sub-tables) in them.
    pub signatures: u64,
    /// Nodes (board and side to move) in them.
    pub nodes: u64,
    /// Bytes on disk, an upper bound (see the module comment).
    pub bytes: u64,
    /// Seconds at 2,000,000 nodes a second (2 cores).
    pub seconds: u64,
}

/// Thousandths of a bit a node of the tables of values only of `n` slots.
fn milli_bits(n: u8) -> u64 {
    match n {
        12 => 1680,
        10 => 2030,
        _ => 3100,
    }
}

/// The projection of the files of fixed sets `sets` on `n` slots, in
/// `encoding`.
pub fn project(n: u8, sets: &[u16], encoding: Encoding) -> Projection {
    let mut p = Projection { files: sets.len(), ..Projection::default() };
    for &f in sets {
        let free = free_pieces(n, f);
        for i in 0..1usize << free.count_ones() {
            let nodes = sub_nodes(n, f, sub_loose(free, i));
            if nodes > 0 {
                p.signatures += 1;
                p.nodes += nodes;
            }
        }
    }
    let files = 256 * p.files as u64;
    p.bytes = match encoding {
        Encoding::Scores => format::RECORD as u64 * p.nodes + 16 * p.signatures + files,
        Encoding::Coded => {
            let milli_bits = if n >= 10 { 8000 } else { 13_000 };
            (p.nodes * milli_bits).div_ceil(8000) + 16 * files
        }
        _ => (p.nodes * milli_bits(n)).div_ceil(8000) + 80 * p.signatures + files,
    };
    let speed = if encoding == Encoding::Coded { CODED_NODES_PER_SECOND } else { NODES_PER_SECOND };
    p.seconds = p.nodes.div_ceil(speed);
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::fixed_sets;
    use crate::table::format::Encoding;

    /// The measured sizes of tables/README.md: slots, max-live, nodes,
    /// bytes with depths (0: not measured), bytes values only, bytes of
    /// encoding 4 with side files (0: not measured).
    const MEASURED: [(u8, u8, u64, u64, u64, u64); 6] = [
        (4, 4, 286, 3_368, 2_157, 8_603),
        (6, 6, 15_666, 131_072, 21_170, 94_512),
        (8, 8, 1_018_936, 8_178_688, 393_432, 1_647_084),
        (10, 10, 130_264_858, 0, 32_906_198, 127_547_408),
        (12, 6, 3_590_600, 28_986_288, 1_975_425, 0),
        (12, 7, 30_170_648, 241_902_544, 10_017_980, 0),
    ];

    #[test]
    fn projections_bound_the_measured_sizes() {
        for (n, k, nodes, depths, values, coded) in MEASURED {
            let sets = fixed_sets(n, k);
            let p = project(n, &sets, Encoding::Scores);
            assert_eq!(p.nodes, nodes, "{n} slots, max-live {k}");
            assert!(p.bytes >= depths, "{n}/{k} with depths: {} < {depths}", p.bytes);
            if depths > 0 {
                assert!(p.bytes < depths + depths / 4 + 8192, "{n}/{k}: {}", p.bytes);
            }
            let v = project(n, &sets, Encoding::Packed).bytes;
            assert!(v >= values, "{n}/{k} values only: {v} < {values}");
            assert!(v < 2 * values + 16_384, "{n}/{k} values only: {v}");
            let c = project(n, &sets, Encoding::Coded).bytes;
            assert!(c >= coded, "{n}/{k} coded: {c} < {coded}");
            assert!(coded == 0 || c < 6 * coded, "{n}/{k} coded: {c}");
        }
    }

    #[test]
    fn the_complete_12_slot_table() {
        let sets = fixed_sets(12, 12);
        let p = project(12, &sets, Encoding::Packed);
        assert_eq!(p.nodes, 33_721_885_208);
        // Measured: 7,052,314,040 bytes in about 5 hours.
        assert!((7_052_314_040..7_300_000_000).contains(&p.bytes), "{}", p.bytes);
        assert!((4 * 3600..6 * 3600).contains(&p.seconds), "{}", p.seconds);
        // With depths, 8 bytes a node: about 270 GB.
        let d = project(12, &sets, Encoding::Scores).bytes;
        assert!((269_000_000_000..272_000_000_000).contains(&d), "{d}");
        // Compressed, with the side files: about 34 GB, about 16 hours.
        let c = project(12, &sets, Encoding::Coded);
        assert!((33_000_000_000..35_000_000_000).contains(&c.bytes), "{}", c.bytes);
        assert!((15 * 3600..17 * 3600).contains(&c.seconds), "{}", c.seconds);
    }
}
