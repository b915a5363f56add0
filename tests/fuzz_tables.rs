//! Fuzz tests that stay (issue 14): the table header parser and the table
//! reader get random and mutated bytes from `proptest`.
//!
//! - [`Header::parse`] on random bytes, on random bytes after a valid magic
//!   and version, and on mutated real headers: `Ok` (and the header writes
//!   back to bytes that parse to it) or a one-line message.
//! - [`TableFile::open`], then [`TableFile::verify_all`] and a read of
//!   every record, on mutated copies of real 6-slot files of the three
//!   kinds (with depths; values only, compressed; with depths, compressed),
//!   written to a temporary file:
//!   each step gives `Ok` or a typed [`TableError`] with a one-line
//!   message, never a panic and never a hang (each case runs on its own
//!   thread with a deadline). Half the cases write the checksums again
//!   after mutating, so the damage gets past them to the fields, the block
//!   table, the compressed blocks and the records behind.
//!
//! Each property runs a fixed number of cases (a few seconds in all in a
//! release build); failures are not saved to disk.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::mpsc;
use std::time::Duration;

use chaosclock::PassRule;
use chaosclock::generate::{Config, generate};
use chaosclock::internals::RawFile;
use chaosclock::internals::coded;
use chaosclock::internals::convert::convert_file;
use chaosclock::internals::format::{BLOCK, FIXED_HEADER, Header, MAGIC, checksum};
use chaosclock::internals::packed::{data_offset, first_blocks};
use chaosclock::table::{Encoding, TableError, TableFile, Tablebase, VERSION};
use proptest::prelude::*;
use proptest::test_runner::Config as RunnerConfig;

/// Cases of the header properties (fast: no file).
const HEADER_CASES: u32 = 2000;
/// Cases of each table-file property (each writes and maps a file).
const FILE_CASES: u32 = 300;
/// The longest one case may take before it counts as a hang.
const DEADLINE: Duration = Duration::from_secs(20);

/// The runner's configuration: `cases` cases, nothing written to disk.
fn config(cases: u32) -> RunnerConfig {
    RunnerConfig { cases, failure_persistence: None, ..RunnerConfig::default() }
}

/// A real table file to mutate: its bytes and what it must hold.
#[derive(Debug)]
struct Sample {
    bytes: Vec<u8>,
    n: u8,
    fixed: u16,
}

/// The 6-slot tables of both kinds, made once per test process in a
/// temporary directory that lives as long as the process.
fn tables() -> &'static (tempfile::TempDir, Vec<Sample>) {
    static TABLES: OnceLock<(tempfile::TempDir, Vec<Sample>)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut samples = Vec::new();
        for (name, encoding) in [("depths", Encoding::Scores), ("values", Encoding::Packed)] {
            let root = dir.path().join(name);
            let cfg = Config::new(root.clone(), 6, PassRule::Always).with_encoding(encoding);
            generate(&cfg, None).expect("the 6-slot tables are made");
            // Every piece loose (two 64 KiB blocks with depths), and the
            // file of pieces 1, 2, 3 and 6 fixed.
            for fixed in [0u16, 0b100_1110] {
                let path = root.join("n6-always").join(format!("f{fixed:04x}.cctb"));
                let bytes = std::fs::read(&path).expect("the file was made");
                samples.push(Sample { bytes, n: 6, fixed });
            }
        }
        // Encoding 4, converted from the files with depths.
        let depths = Tablebase::new(&dir.path().join("depths"), 6, PassRule::Always);
        for fixed in [0u16, 0b100_1110] {
            depths.load(fixed).expect("the file opens");
            let out = dir.path().join(format!("coded-{fixed:04x}.cctb"));
            convert_file(depths.file(fixed).expect("loaded"), &out).expect("converted");
            let bytes = std::fs::read(&out).expect("the file was made");
            samples.push(Sample { bytes, n: 6, fixed });
        }
        (dir, samples)
    })
}

/// Checks that a message is one printable line.
fn one_line(message: &str) -> Result<(), TestCaseError> {
    prop_assert!(!message.is_empty(), "empty message");
    prop_assert!(!message.chars().any(char::is_control), "control character in {message:?}");
    Ok(())
}

/// Checks what the header parser makes of `bytes`.
fn check_header(bytes: &[u8]) -> Result<(), TestCaseError> {
    match Header::parse(bytes) {
        Ok(h) => {
            let back = h.to_bytes();
            prop_assert_eq!(&back[..], &bytes[..back.len()], "the header is its bytes");
            prop_assert_eq!(Header::parse(&back), Ok(h));
            Ok(())
        }
        Err(message) => one_line(&message),
    }
}

/// A change of a file's bytes.
#[derive(Debug, Clone)]
enum Mutation {
    /// Flip the bits of `mask` (not 0) in one byte.
    Flip(prop::sample::Index, u8),
    /// Set 8 bytes (a count, an offset, a checksum) to a value.
    Word(prop::sample::Index, u64),
    /// Cut the file to a length.
    Truncate(prop::sample::Index),
    /// Append bytes.
    Extend(Vec<u8>),
}

/// The kind of place a mutation aims at.
#[derive(Debug, Clone, Copy)]
enum Aim {
    /// Anywhere in the file.
    Anywhere,
    /// The first 512 bytes: the header and the start of the block table.
    Head,
}

/// A few mutations; words are small numbers, powers of two or anything.
fn mutations() -> impl Strategy<Value = Vec<(Aim, Mutation)>> {
    let word = prop_oneof![0u64..70_000, (0u32..64).prop_map(|k| 1u64 << k), any::<u64>()];
    let mutation = prop_oneof![
        4 => (any::<prop::sample::Index>(), 1u8..=255).prop_map(|(i, m)| Mutation::Flip(i, m)),
        3 => (any::<prop::sample::Index>(), word).prop_map(|(i, w)| Mutation::Word(i, w)),
        1 => any::<prop::sample::Index>().prop_map(Mutation::Truncate),
        1 => prop::collection::vec(any::<u8>(), 1..64).prop_map(Mutation::Extend),
    ];
    let aim = prop_oneof![Just(Aim::Anywhere), Just(Aim::Head)];
    prop::collection::vec((aim, mutation), 1..4)
}

/// `bytes` with `mutations` applied.
fn mutate(bytes: &[u8], mutations: &[(Aim, Mutation)]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for (aim, m) in mutations {
        let room = match aim {
            Aim::Anywhere => out.len(),
            Aim::Head => out.len().min(512),
        };
        match m {
            Mutation::Flip(i, mask) if room > 0 => out[i.index(room)] ^= mask,
            Mutation::Word(i, w) if room > 0 => {
                let at = i.index(room);
                let end = (at + 8).min(out.len());
                out[at..end].copy_from_slice(&w.to_le_bytes()[..end - at]);
            }
            Mutation::Truncate(i) => out.truncate(i.index(out.len() + 1)),
            Mutation::Extend(tail) => out.extend_from_slice(tail),
            Mutation::Flip(..) | Mutation::Word(..) => {}
        }
    }
    out
}

/// Writes every checksum of `bytes` again as the writer would, as far as
/// its header parses and its length allows, so that damage behind them is
/// read.
fn fix_checksums(bytes: &mut [u8]) {
    let Ok(header) = Header::parse(bytes) else { return };
    let Some(records) = usize::try_from(header.records()).ok().filter(|&r| r < 1 << 30) else {
        return;
    };
    let len = bytes.len();
    if header.encoding == Encoding::Coded {
        let word = |at: usize| {
            bytes.get(at..at + 4).map(|w| u32::from_le_bytes(w.try_into().expect("4")) as usize)
        };
        // B, the stored side, M (coded.rs).
        let (Some(boards), Some(m)) = (word(header.len()), word(header.len() + 8)) else { return };
        if !(16..=4096).contains(&boards) {
            return;
        }
        let blocks = *coded::first_blocks(&header, boards).last().expect("one more entry");
        let data = header.len() + 12 + 4 * header.nodes.len() + 16 * (m.min(1 << 20) + blocks) + 8;
        if data <= len {
            let sum = checksum(&bytes[..data - 8]);
            bytes[data - 8..data].copy_from_slice(&sum.to_le_bytes());
        }
        return;
    }
    if header.encoding == Encoding::Packed {
        let blocks = *first_blocks(&header).last().expect("one more entry than sub-tables");
        let data = data_offset(&header, blocks);
        if data <= len {
            let sum = checksum(&bytes[..data - 8]);
            bytes[data - 8..data].copy_from_slice(&sum.to_le_bytes());
        }
        return;
    }
    let payload = header.len();
    let sums = payload + records * header.record_len();
    let blocks = (sums - payload).div_ceil(BLOCK);
    if sums + 8 * blocks + 8 != len {
        return;
    }
    for b in 0..blocks {
        let end = (payload + (b + 1) * BLOCK).min(sums);
        let sum = checksum(&bytes[payload + b * BLOCK..end]);
        bytes[sums + 8 * b..sums + 8 * b + 8].copy_from_slice(&sum.to_le_bytes());
    }
    let mut whole = bytes[..payload].to_vec();
    whole.extend_from_slice(&bytes[sums..len - 8]);
    let total = checksum(&whole);
    bytes[len - 8..].copy_from_slice(&total.to_le_bytes());
}

/// What reading one file came to: the first error's message, if any.
type Outcome = Result<(), String>;

/// Opens the file at `path` as the table of `fixed` for `n` slots,
/// verifies it and reads every record; the first error's message.
fn read_all(path: &Path, n: u8, fixed: u16) -> Outcome {
    let typed = |e: TableError| e.to_string();
    let file = TableFile::open(path, n, PassRule::Always, fixed).map_err(typed)?;
    let verified = file.verify_all().map_err(typed);
    // Every record, also after a failed verification: reads must stay
    // safe whatever the blocks hold.
    let mut first = verified.err();
    for (sub, &nodes) in file.header().nodes.iter().enumerate() {
        for node in 0..nodes {
            if let Err(e) = file.stored(sub, node) {
                first.get_or_insert(e.to_string());
            }
        }
        // Past the end of the sub-table: an error, not a panic.
        if file.stored(sub, nodes).is_ok() {
            first.get_or_insert(format!("node {nodes} of sub-table {sub} was read"));
            return Err(first.expect("just set"));
        }
    }
    first.map_or(Ok(()), Err)
}

/// Runs [`read_all`] on a thread and waits at most [`DEADLINE`]; a panic
/// or a hang is a failure of the case.
fn read_with_deadline(path: PathBuf, n: u8, fixed: u16) -> Result<Outcome, TestCaseError> {
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let _ = tx.send(read_all(&path, n, fixed));
    });
    match rx.recv_timeout(DEADLINE) {
        Ok(outcome) => {
            worker.join().map_err(|_| TestCaseError::fail("the reader panicked"))?;
            Ok(outcome)
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err(TestCaseError::fail("the reader panicked"))
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            Err(TestCaseError::fail(format!("the reader took more than {DEADLINE:?}")))
        }
    }
}

/// Mutates sample `which`, writes it to a temporary file and reads it.
fn check_file(which: usize, mutations: &[(Aim, Mutation)], fix: bool) -> Result<(), TestCaseError> {
    let sample = &tables().1[which];
    let mut bytes = mutate(&sample.bytes, mutations);
    if fix {
        fix_checksums(&mut bytes);
    }
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    std::io::Write::write_all(&mut file, &bytes).expect("the file is written");
    let path = file.path().to_path_buf();
    match read_with_deadline(path, sample.n, sample.fixed)? {
        Ok(()) => Ok(()),
        Err(message) => one_line(&message),
    }
}

proptest! {
    #![proptest_config(config(HEADER_CASES))]

    #[test]
    fn header_parse_takes_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        check_header(&bytes)?;
    }

    #[test]
    fn header_parse_takes_random_fields(tail in prop::collection::vec(any::<u8>(), 0..600)) {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&tail);
        check_header(&bytes)?;
    }

    #[test]
    fn header_parse_takes_mutated_headers(which in 0usize..6, m in mutations()) {
        let sample = &tables().1[which];
        let head = Header::parse(&sample.bytes).expect("a real header").len();
        prop_assert!(head > FIXED_HEADER);
        check_header(&mutate(&sample.bytes[..head + 64], &m))?;
    }
}

proptest! {
    #![proptest_config(config(FILE_CASES))]

    #[test]
    fn mutated_files_with_depths_are_read_safely(
        which in 0usize..2,
        m in mutations(),
        fix in any::<bool>(),
    ) {
        check_file(which, &m, fix)?;
    }

    #[test]
    fn mutated_compressed_files_are_read_safely(
        which in 2usize..4,
        m in mutations(),
        fix in any::<bool>(),
    ) {
        check_file(which, &m, fix)?;
    }

    #[test]
    fn mutated_files_of_encoding_4_are_read_safely(
        which in 4usize..6,
        m in mutations(),
        fix in any::<bool>(),
    ) {
        check_file(which, &m, fix)?;
    }
}

/// The samples read without error as made, so the properties start from
/// sound files.
#[test]
fn unmutated_files_read_cleanly() {
    for (i, sample) in tables().1.iter().enumerate() {
        let file = tempfile::NamedTempFile::new().expect("a temporary file");
        std::fs::write(file.path(), &sample.bytes).expect("the file is written");
        assert_eq!(read_all(file.path(), sample.n, sample.fixed), Ok(()), "sample {i}");
        let mut fixed = sample.bytes.clone();
        fix_checksums(&mut fixed);
        assert_eq!(fixed, sample.bytes, "sample {i}: the checksums are written as made");
    }
}
