//! What a file being written has done so far, saved so that a stopped run
//! goes on from there (`f{F:04x}.ckpt` next to the temporary file).
//!
//! A checkpoint is written only after the sub-tables it lists are in the
//! temporary file and that file is synced; it is written under a
//! temporary name, synced and renamed, so a checkpoint on disk always
//! describes data that is on disk. The next run checks it against the file
//! header it would write (same size, rule, fixed set, encoding and
//! sub-table sizes) and reads every listed sub-table back before trusting
//! it; anything that does not check out is ignored and the file is made
//! from the start. Resuming ends with the same bytes as a run that never
//! stopped, because the data is appended in the same order.
//!
//! ```text
//! offset  size      field
//! 0       8         magic "CCCKPT01"
//! 8       8         checksum of the file header it belongs to
//! 16      8         D = sub-tables done
//! 24      48 × D    per sub-table: its number (u64), its states per value
//!                   (5 × u64, 0 to 4) — in the order they were written
//! ...     8 × D     per sub-table: the checksum of its records
//! ...     8         encoding 3: the length of the data so far (else 0)
//! ...     8         E = entries of the block table that follow (0 for
//!                   encodings 1 and 2)
//! ...     16 × E    encoding 3: the block table (blocks not written: 0);
//!                   encoding 4: the table file's model sets and blocks
//! ...     8         encoding 4: the length of the side file's data (else 0)
//! ...     8         E' = entries that follow (encoding 4, else 0)
//! ...     16 × E'   encoding 4: the side file's model sets and blocks
//! ...     8         checksum of everything above
//! ```

use std::fs;
use std::io::{BufReader, BufWriter, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::generate::GenerateError;
use crate::table::format::{Checksum, Header, checksum};
use crate::table::packed::{ENTRY, Entry};

/// File magic.
const MAGIC: [u8; 8] = *b"CCCKPT02";

/// One sub-table in the checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Done {
    /// Its number in the file.
    pub sub: usize,
    /// Its states per value code.
    pub counts: [u64; 5],
    /// The checksum of its records (uncompressed).
    pub sum: u64,
}

/// The state of a file being written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Checkpoint {
    /// The sub-tables in the file, in the order they were added.
    pub done: Vec<Done>,
    /// Encodings 3 and 4: the length of the data.
    pub data_len: u64,
    /// Encoding 3: the block table; encoding 4: the entries of the model
    /// sets, then of the blocks.
    pub entries: Vec<Entry>,
    /// Encoding 4: the length of the side file's data.
    pub side_len: u64,
    /// Encoding 4: the side file's entries, as `entries`.
    pub side_entries: Vec<Entry>,
}

/// The checkpoint path of the table file `path`.
pub(super) fn path_of(path: &Path) -> PathBuf {
    path.with_extension("ckpt")
}

/// One file's data as a checkpoint lists it: its length and its entries,
/// first `entries`, then `stored` (encoding 4: the model sets', then the
/// blocks'). Borrowed or read from where they are, so that a checkpoint of
/// a large file (the 12-slot file with no fixed piece lists 68.5 million
/// entries, 1.1 GB) is written without a copy in memory.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Data<'a> {
    /// The length of the data.
    pub len: u64,
    /// Its first entries.
    pub entries: &'a [Entry],
    /// The rest of its entries, if any.
    pub stored: Option<Stored<'a>>,
}

/// Entries stored in a file as a checkpoint stores them ([`ENTRY`] bytes
/// each).
#[derive(Debug, Clone, Copy)]
pub(super) struct Stored<'a> {
    pub file: &'a fs::File,
    /// Byte offset of the first.
    pub at: u64,
    /// How many.
    pub count: usize,
}

/// A writer that sums what goes through it ([`Checksum`]).
struct Summed<W> {
    inner: W,
    sum: Checksum,
}

impl<W: Write> Summed<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.sum.update(bytes);
        self.inner.write_all(bytes)
    }

    fn word(&mut self, w: u64) -> std::io::Result<()> {
        self.put(&w.to_le_bytes())
    }
}

/// Writes the checkpoint of `done` and the data of both files to `out`,
/// as the module docs lay it out.
fn write_to(
    out: impl Write,
    header: &Header,
    done: &[Done],
    data: [Data<'_>; 2],
) -> std::io::Result<()> {
    let mut w = Summed { inner: out, sum: Checksum::default() };
    w.put(&MAGIC)?;
    w.word(checksum(&header.to_bytes()))?;
    w.word(done.len() as u64)?;
    for d in done {
        w.word(d.sub as u64)?;
        for c in d.counts {
            w.word(c)?;
        }
    }
    for d in done {
        w.word(d.sum)?;
    }
    for file in data {
        w.word(file.len)?;
        w.word((file.entries.len() + file.stored.map_or(0, |s| s.count)) as u64)?;
        for e in file.entries {
            w.put(&e.to_bytes())?;
        }
        if let Some(s) = file.stored {
            let mut buf = vec![0u8; ENTRY << 16];
            for first in (0..s.count).step_by(1 << 16) {
                let buf = &mut buf[..ENTRY * (s.count - first).min(1 << 16)];
                s.file.read_exact_at(buf, s.at + (ENTRY * first) as u64)?;
                w.put(buf)?;
            }
        }
    }
    let sum = w.sum.finish();
    w.inner.write_all(&sum.to_le_bytes())?;
    w.inner.flush()
}

/// Writes the checkpoint of the table file `path` (whose data must be
/// synced already): under a temporary name, synced, then renamed.
pub(super) fn save(
    path: &Path,
    header: &Header,
    done: &[Done],
    data: [Data<'_>; 2],
) -> Result<(), GenerateError> {
    let dest = path_of(path);
    let tmp = dest.with_extension("ckpt.tmp");
    let io = |e| GenerateError::io(&tmp, e);
    let file = fs::File::create(&tmp).map_err(io)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    write_to(&mut out, header, done, data).map_err(io)?;
    let file = out.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)?;
    drop(file);
    fs::rename(&tmp, &dest).map_err(|e| GenerateError::io(&dest, e))
}

/// A reader that sums what it reads ([`Checksum`]).
struct Reading<R> {
    inner: R,
    sum: Checksum,
    /// Bytes read so far.
    read: u64,
}

impl<R: Read> Reading<R> {
    fn take(&mut self, buf: &mut [u8]) -> Option<()> {
        self.inner.read_exact(buf).ok()?;
        self.sum.update(buf);
        self.read += buf.len() as u64;
        Some(())
    }

    fn word(&mut self) -> Option<u64> {
        let mut w = [0u8; 8];
        self.take(&mut w)?;
        Some(u64::from_le_bytes(w))
    }

    /// A count of items of `size` bytes each, if the rest of the input
    /// (`left` bytes) can hold them.
    fn count(&mut self, size: u64, left: u64) -> Option<usize> {
        let count = self.word()?;
        (count.checked_mul(size)? <= left).then_some(count as usize)
    }
}

impl Checkpoint {
    /// Reads a checkpoint of the file of `header` from `input` (`len`
    /// bytes); `None` if it is not one (damaged, another header, sub-tables
    /// out of range or twice). Entries are read as they come, so the
    /// checkpoint's bytes are never all in memory; unless `keep`, they are
    /// checked and dropped (`entries` and `side_entries` come back empty).
    fn read_from(input: impl Read, len: u64, header: &Header, keep: bool) -> Option<Checkpoint> {
        let mut r = Reading { inner: input, sum: Checksum::default(), read: 0 };
        if r.word()?.to_le_bytes() != MAGIC || r.word()? != checksum(&header.to_bytes()) {
            return None;
        }
        let count = r.count(56, len).filter(|&d| d <= header.nodes.len())?;
        let mut done = Vec::with_capacity(count);
        let mut seen = vec![false; header.nodes.len()];
        for _ in 0..count {
            let sub = usize::try_from(r.word()?).ok().filter(|&s| s < seen.len())?;
            if std::mem::replace(&mut seen[sub], true) || header.nodes[sub] == 0 {
                return None;
            }
            let mut counts = [0u64; 5];
            for c in &mut counts {
                *c = r.word()?;
            }
            done.push(Done { sub, counts, sum: 0 });
        }
        for d in &mut done {
            d.sum = r.word()?;
        }
        let table = |r: &mut Reading<_>| {
            let data_len = r.word()?;
            let count = r.count(ENTRY as u64, len)?;
            let mut entries = Vec::with_capacity(if keep { count } else { 0 });
            let mut e = [0u8; ENTRY];
            for _ in 0..count {
                r.take(&mut e)?;
                if keep {
                    entries.push(Entry::parse(&e));
                }
            }
            Some((data_len, entries))
        };
        let (data_len, entries) = table(&mut r)?;
        let (side_len, side_entries) = table(&mut r)?;
        // The checksum, then nothing.
        let want = r.sum.finish();
        if r.read + 8 != len || r.word()? != want {
            return None;
        }
        Some(Checkpoint { done, data_len, entries, side_len, side_entries })
    }

    /// The checkpoint of the table file `path` (to be written with
    /// `header`), if there is a sound one.
    pub(super) fn load(path: &Path, header: &Header) -> Option<Checkpoint> {
        Checkpoint::read(path, header, true)
    }

    /// The nodes of the sub-tables that a sound checkpoint of the table
    /// file `path` (to be written with `header`) lists as done, 0 if there
    /// is none: what a run will not make again, unless the temporary file
    /// does not match. Its entries are checked, not kept.
    pub(super) fn nodes_done(path: &Path, header: &Header) -> u64 {
        let ckpt = Checkpoint::read(path, header, false);
        ckpt.map_or(0, |c| c.done.iter().map(|d| header.nodes[d.sub]).sum())
    }

    /// [`Checkpoint::read_from`] the checkpoint file of `path`.
    fn read(path: &Path, header: &Header, keep: bool) -> Option<Checkpoint> {
        let file = fs::File::open(path_of(path)).ok()?;
        let len = file.metadata().ok()?.len();
        Checkpoint::read_from(BufReader::with_capacity(1 << 20, file), len, header, keep)
    }

    /// The data of both files, as [`save`] takes them.
    #[cfg(test)]
    fn data(&self) -> [Data<'_>; 2] {
        [
            Data { len: self.data_len, entries: &self.entries, stored: None },
            Data { len: self.side_len, entries: &self.side_entries, stored: None },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::PassRule;

    fn header() -> Header {
        Header {
            n: 4,
            rule: PassRule::Always,
            fixed: 0,
            encoding: crate::table::format::Encoding::Packed,
            nodes: vec![2, 0, 4, 6],
        }
    }

    fn to_bytes(header: &Header, done: &[Done], data: [Data<'_>; 2]) -> Vec<u8> {
        let mut bytes = Vec::new();
        write_to(&mut bytes, header, done, data).unwrap();
        bytes
    }

    fn parse(bytes: &[u8], header: &Header) -> Option<Checkpoint> {
        Checkpoint::read_from(bytes, bytes.len() as u64, header, true)
    }

    #[test]
    fn round_trips_and_refuses_damage() {
        let c = Checkpoint {
            done: vec![
                Done { sub: 2, counts: [1, 2, 3, 4, 5], sum: 9 },
                Done { sub: 0, counts: [0; 5], sum: 7 },
            ],
            data_len: 33,
            entries: vec![Entry { start: 0, len: 33, sum: 5 }, Entry::default()],
            side_len: 21,
            side_entries: vec![Entry { start: 4, len: 17, sum: 3 }],
        };
        let h = header();
        let bytes = to_bytes(&h, &c.done, c.data());
        assert_eq!(parse(&bytes, &h), Some(c.clone()));
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 1;
            assert_eq!(parse(&bad, &h), None, "byte {i}");
        }
        assert_eq!(parse(&bytes[..bytes.len() - 1], &h), None);
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(parse(&longer, &h), None);
        assert_eq!(parse(&[], &h), None);
        let other = Header { fixed: 2, ..h.clone() };
        assert_eq!(parse(&bytes, &other), None);
        // Entries in two parts, one of them in a file, are one table.
        let (models, blocks) = c.entries.split_at(1);
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&[0; 5]).unwrap();
        file.write_all(&blocks[0].to_bytes()).unwrap();
        let stored = Some(Stored { file: &file, at: 5, count: 1 });
        let split = [Data { len: 33, entries: models, stored }, c.data()[1]];
        assert_eq!(to_bytes(&h, &c.done, split), bytes);
    }

    /// What a sound checkpoint lists as done, in nodes; nothing for a
    /// damaged one, another file's, or none.
    #[test]
    fn nodes_done_counts_what_a_sound_checkpoint_lists() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f0000.cctb");
        let h = header();
        assert_eq!(Checkpoint::nodes_done(&path, &h), 0);
        let done = [
            Done { sub: 3, counts: [1, 0, 2, 0, 3], sum: 1 },
            Done { sub: 0, counts: [2, 0, 0, 0, 0], sum: 2 },
        ];
        let entries = [Entry { start: 0, len: 5, sum: 6 }];
        let data = [Data { len: 5, entries: &entries, stored: None }, Data::default()];
        save(&path, &h, &done, data).unwrap();
        assert_eq!(Checkpoint::nodes_done(&path, &h), 6 + 2);
        let other = Header { fixed: 2, ..h.clone() };
        assert_eq!(Checkpoint::nodes_done(&path, &other), 0);
        let mut bytes = fs::read(path_of(&path)).unwrap();
        let last = bytes.len() - 9;
        bytes[last] ^= 1; // in the side file's count of entries
        fs::write(path_of(&path), bytes).unwrap();
        assert_eq!(Checkpoint::nodes_done(&path, &h), 0);
    }

    /// The bytes are laid out as the module docs say, field by field (so
    /// checkpoints written before keep being read).
    #[test]
    fn bytes_are_the_documented_layout() {
        let h = header();
        let done = [Done { sub: 3, counts: [1, 0, 2, 0, 3], sum: 0xabc }];
        let entries = [Entry { start: 7, len: 9, sum: 11 }];
        let data = [Data { len: 16, entries: &entries, stored: None }, Data::default()];
        let mut want = b"CCCKPT02".to_vec();
        for w in [checksum(&h.to_bytes()), 1, 3, 1, 0, 2, 0, 3, 0xabc, 16, 1] {
            want.extend_from_slice(&u64::to_le_bytes(w));
        }
        want.extend_from_slice(&7u64.to_le_bytes());
        want.extend_from_slice(&9u32.to_le_bytes());
        want.extend_from_slice(&11u32.to_le_bytes());
        for w in [0u64, 0] {
            want.extend_from_slice(&w.to_le_bytes());
        }
        let sum = checksum(&want);
        want.extend_from_slice(&sum.to_le_bytes());
        assert_eq!(to_bytes(&h, &done, data), want);
    }
}
