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
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::generate::GenerateError;
use crate::table::format::{Header, checksum};
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

impl Checkpoint {
    /// Its bytes, for the file of `header`.
    fn to_bytes(&self, header: &Header) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + 56 * self.done.len() + ENTRY * self.entries.len());
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&checksum(&header.to_bytes()).to_le_bytes());
        b.extend_from_slice(&(self.done.len() as u64).to_le_bytes());
        for d in &self.done {
            b.extend_from_slice(&(d.sub as u64).to_le_bytes());
            for c in d.counts {
                b.extend_from_slice(&c.to_le_bytes());
            }
        }
        for d in &self.done {
            b.extend_from_slice(&d.sum.to_le_bytes());
        }
        b.extend_from_slice(&self.data_len.to_le_bytes());
        b.extend_from_slice(&(self.entries.len() as u64).to_le_bytes());
        for e in &self.entries {
            b.extend_from_slice(&e.to_bytes());
        }
        b.extend_from_slice(&self.side_len.to_le_bytes());
        b.extend_from_slice(&(self.side_entries.len() as u64).to_le_bytes());
        for e in &self.side_entries {
            b.extend_from_slice(&e.to_bytes());
        }
        let sum = checksum(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads a checkpoint of the file of `header`; `None` if it is not
    /// one (damaged, another header, sub-tables out of range or twice).
    fn parse(bytes: &[u8], header: &Header) -> Option<Checkpoint> {
        let (body, sum) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
        if checksum(body) != u64::from_le_bytes(sum.try_into().ok()?) {
            return None;
        }
        let mut at = 0usize;
        let word = |at: &mut usize| {
            let w = body.get(*at..*at + 8)?;
            *at += 8;
            Some(u64::from_le_bytes(w.try_into().expect("8 bytes")))
        };
        if word(&mut at)?.to_le_bytes() != MAGIC || word(&mut at)? != checksum(&header.to_bytes()) {
            return None;
        }
        let count = usize::try_from(word(&mut at)?).ok().filter(|&d| d <= header.nodes.len())?;
        let mut done = Vec::with_capacity(count);
        let mut seen = vec![false; header.nodes.len()];
        for _ in 0..count {
            let sub = usize::try_from(word(&mut at)?).ok().filter(|&s| s < seen.len())?;
            if std::mem::replace(&mut seen[sub], true) || header.nodes[sub] == 0 {
                return None;
            }
            let mut counts = [0u64; 5];
            for c in &mut counts {
                *c = word(&mut at)?;
            }
            done.push(Done { sub, counts, sum: 0 });
        }
        for d in &mut done {
            d.sum = word(&mut at)?;
        }
        let table = |at: &mut usize| {
            let len = word(at)?;
            let count = usize::try_from(word(at)?).ok()?;
            let table = body.get(*at..at.checked_add(count.checked_mul(ENTRY)?)?)?;
            *at += table.len();
            Some((len, table.chunks(ENTRY).map(Entry::parse).collect::<Vec<Entry>>()))
        };
        let (data_len, entries) = table(&mut at)?;
        let (side_len, side_entries) = table(&mut at)?;
        if at != body.len() {
            return None;
        }
        Some(Checkpoint { done, data_len, entries, side_len, side_entries })
    }

    /// The checkpoint of the table file `path` (to be written with
    /// `header`), if there is a sound one.
    pub(super) fn load(path: &Path, header: &Header) -> Option<Checkpoint> {
        let bytes = fs::read(path_of(path)).ok()?;
        Checkpoint::parse(&bytes, header)
    }

    /// Writes the checkpoint of the table file `path` (whose data must be
    /// synced already): under a temporary name, synced, then renamed.
    pub(super) fn save(&self, path: &Path, header: &Header) -> Result<(), GenerateError> {
        let dest = path_of(path);
        let tmp = dest.with_extension("ckpt.tmp");
        let io = |e| GenerateError::io(&tmp, e);
        let mut file = fs::File::create(&tmp).map_err(io)?;
        file.write_all(&self.to_bytes(header)).map_err(io)?;
        file.sync_all().map_err(io)?;
        drop(file);
        fs::rename(&tmp, &dest).map_err(|e| GenerateError::io(&dest, e))
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
        let bytes = c.to_bytes(&h);
        assert_eq!(Checkpoint::parse(&bytes, &h), Some(c.clone()));
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 1;
            assert_eq!(Checkpoint::parse(&bad, &h), None, "byte {i}");
        }
        assert_eq!(Checkpoint::parse(&bytes[..bytes.len() - 1], &h), None);
        assert_eq!(Checkpoint::parse(&[], &h), None);
        let other = Header { fixed: 2, ..h };
        assert_eq!(Checkpoint::parse(&bytes, &other), None);
    }
}
