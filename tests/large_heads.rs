//! The head of an encoding-4 file (its block table: 16 bytes a block) is
//! checked in full when the file is opened only up to 64 KiB; the largest
//! 12-slot file's is over 500 MB, which every query would read. A larger
//! head is checked by `verify` and `generate` (`verify_all`,
//! `check_sums`), and when opened only where the blocks' own checksums do
//! not vouch for it: the model set of each sub-table and the side stored.
//!
//! Here small files are opened as the largest are
//! (`internals::open_unchecked_head`): they give every node's record as
//! with the full check, and a damaged head gives an error (when opened, or
//! when the damaged part is read), never another answer. So does a damaged
//! model set, which is checked by its models' own checksums as it is read.

mod common;

use std::path::{Path, PathBuf};

use chaosclock::PassRule;
use chaosclock::generate::{Config, Limits, generate};
use chaosclock::internals::coded::Layout;
use chaosclock::internals::format::Header;
use chaosclock::internals::{RawFile, open_unchecked_head};
use chaosclock::table::{Encoding, TableError, TableFile, Tablebase};

const N: u8 = 6;
const RULE: PassRule = PassRule::Always;

/// Makes the complete 6-slot tables of encoding 4, with side files, under
/// `root` with `limits`; returns their directory.
fn make(root: &Path, limits: Limits) -> PathBuf {
    let cfg =
        Config::new(root.to_path_buf(), N, RULE).with_encoding(Encoding::Coded).with_limits(limits);
    generate(&cfg, None).unwrap();
    Tablebase::new(root, N, RULE).dir().to_path_buf()
}

/// The fixed set of the file `path` (`f{F:04x}.cctb` or `.side.cctb`).
fn fixed_of(path: &Path) -> u16 {
    let name = path.file_name().unwrap().to_str().unwrap();
    u16::from_str_radix(&name[1..5], 16).unwrap()
}

/// Every node's stored record (or the error reading it), as text.
fn records(file: &TableFile) -> Vec<String> {
    let nodes = file.header().nodes.clone();
    let mut out = Vec::new();
    for (sub, &count) in nodes.iter().enumerate() {
        for node in 0..count {
            out.push(format!("{:?}", file.stored(sub, node)));
        }
    }
    out
}

/// The table files and side files under `dir`.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cctb"))
        .collect();
    all.sort();
    all
}

/// The layout of the encoding-4 file `bytes`.
fn layout(bytes: &[u8]) -> Layout {
    Layout::parse(bytes, &Header::parse(bytes).unwrap()).unwrap()
}

fn open_checked(path: &Path) -> Result<TableFile, TableError> {
    TableFile::open(path, N, RULE, fixed_of(path))
}

fn open_unchecked(path: &Path) -> Result<TableFile, TableError> {
    open_unchecked_head(path, N, RULE, fixed_of(path))
}

/// Compares the records `got` of a damaged file with those of the sound
/// one, `want`: each must be the same or an error that says
/// `error_says`. Returns the number of errors.
fn errors_else_same(want: &[String], got: &[String], what: &str, error_says: &str) -> usize {
    assert_eq!(want.len(), got.len());
    let mut errors = 0;
    for (w, g) in want.iter().zip(got) {
        if g.starts_with("Err") {
            errors += 1;
            assert!(g.contains(error_says), "{what}: {g}");
        } else {
            assert_eq!(w, g, "{what}: another record");
        }
    }
    errors
}

/// Makes the default 6-slot tables under `root`; returns the bytes and the
/// records of their file with no fixed piece.
fn file_with_no_fixed_piece(root: &Path) -> (Vec<u8>, Vec<String>) {
    let path = make(root, Limits::default()).join("f0000.cctb");
    let bytes = std::fs::read(&path).unwrap();
    let records = records(&open_checked(&path).unwrap());
    (bytes, records)
}

/// Writes `bytes` with `damage` done to them to `path`.
fn write_damaged(path: &Path, bytes: &[u8], damage: impl FnOnce(&mut Vec<u8>)) {
    let mut bytes = bytes.to_vec();
    damage(&mut bytes);
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn files_opened_without_their_head_checked_give_the_same_records() {
    let root = tempfile::tempdir().unwrap();
    let dir = make(root.path(), Limits::default());
    let all = files(&dir);
    assert_eq!(all.len(), 80, "40 table files and 40 side files");
    for path in &all {
        let (checked, unchecked) = (open_checked(path).unwrap(), open_unchecked(path).unwrap());
        assert_eq!(records(&checked), records(&unchecked), "{}", path.display());
        unchecked.verify_all().unwrap();
        unchecked.check_sums().unwrap();
    }
}

#[test]
fn a_damaged_block_table_gives_errors_never_other_records() {
    let root = tempfile::tempdir().unwrap();
    let (bytes, want) = file_with_no_fixed_piece(root.path());
    let table = layout(&bytes).table;
    // A bit of the start, the length and the checksum of one entry each
    // (an entry is start: u64, length: u32, checksum: u32).
    for (entry, byte) in [(0, 0), (1, 8), (2, 12), (3, 15)] {
        let copy = root.path().join("copy");
        std::fs::create_dir_all(&copy).unwrap();
        let damaged = copy.join("f0000.cctb");
        write_damaged(&damaged, &bytes, |b| b[table + 16 * entry + byte] ^= 0x10);
        let err = open_checked(&damaged).expect_err("the full check finds it");
        assert!(err.to_string().contains("header checksum mismatch"), "{err}");
        let file = open_unchecked(&damaged).unwrap();
        let what = format!("entry {entry}, byte {byte}");
        let errors = errors_else_same(&want, &records(&file), &what, "block");
        assert!(errors > 0, "{what}: the damaged block is read");
        for check in [file.verify_all(), file.check_sums()] {
            let err = check.expect_err("verify and generate check the head");
            assert!(err.to_string().contains("header checksum mismatch"), "{err}");
        }
    }
}

#[test]
fn a_damaged_stored_side_is_found_when_opened() {
    let root = tempfile::tempdir().unwrap();
    let dir = make(root.path(), Limits::default());
    let copy = root.path().join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    for name in ["f0000.cctb", "f0000.side.cctb", "f0002.cctb", "f0002.side.cctb"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let header = Header::parse(&bytes).unwrap();
        let damaged = copy.join(name);
        // The side stored: the word after the blocks' size (0 甲, 1 乙).
        write_damaged(&damaged, &bytes, |b| b[header.len() + 4] ^= 1);
        let err = open_unchecked(&damaged).expect_err("a flipped side is found");
        assert!(err.to_string().contains("header checksum mismatch"), "{name}: {err}");
    }
}

#[test]
fn files_of_other_model_sets_are_checked_when_opened() {
    let root = tempfile::tempdir().unwrap();
    // Files of many model sets (not the sets `generate` makes by default
    // for files this small), so that a model index can point to another.
    let limits = {
        let mut l = Limits::default();
        l.sets = (0, 2);
        l.big_nodes = 1 << 12;
        l
    };
    let dir = make(root.path(), limits);
    let copy = root.path().join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    for name in ["f0000.cctb", "f0000.side.cctb"] {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).unwrap();
        let header = Header::parse(&bytes).unwrap();
        let l = layout(&bytes);
        assert!(l.models.len() > 2, "{name}: many model sets");
        let fine = open_unchecked(&path).unwrap();
        assert_eq!(records(&fine), records(&open_checked(&path).unwrap()));
        // A sub-table's model set swapped with another sub-table's.
        let own: Vec<usize> = (0..l.sub_model.len()).filter(|&s| l.sub_model[s] > 0).collect();
        let (a, b) = (header.len() + 12 + 4 * own[0], header.len() + 12 + 4 * own[1]);
        let damaged = copy.join(name);
        write_damaged(&damaged, &bytes, |bytes| {
            for i in 0..4 {
                bytes.swap(a + i, b + i);
            }
        });
        let err = open_unchecked(&damaged).expect_err("swapped model sets are found");
        assert!(err.to_string().contains("header checksum mismatch"), "{name}: {err}");
    }
}

/// A model set is checked by the checksums of its models as it is read:
/// a damaged one gives errors, never other records.
#[test]
fn a_damaged_model_set_gives_errors_never_other_records() {
    let root = tempfile::tempdir().unwrap();
    let (bytes, want) = file_with_no_fixed_piece(root.path());
    let l = layout(&bytes);
    let set = l.models[0];
    let copy = root.path().join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    let damaged = copy.join("f0000.cctb");
    for at in [0, set.len as usize / 2, set.len as usize - 1] {
        write_damaged(&damaged, &bytes, |b| b[l.data + set.start as usize + at] ^= 0x08);
        let got = records(&open_checked(&damaged).unwrap());
        let what = format!("byte {at} of the model set");
        let errors = errors_else_same(&want, &got, &what, "model set 0");
        assert_eq!(errors, want.len(), "{what}: every node needs the file's one model set");
    }
}
