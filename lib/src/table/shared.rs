//! One model set for every table file of a directory, which `recode`
//! codes the files with (docs/depths.md, "Shared model sets"): a query
//! decodes blocks of tens of files, and with a set a file most of its
//! decoding time waited on the models, each file's cold; one set for all
//! stays in the processor's caches (queries 18 to 41% faster where
//! measured). It costs few bytes: the blocks take a few percent more, and
//! the files' own sets were about as much (10 slots: 1.2% fewer bytes;
//! the 12-slot files of two or more fixed pieces: 2.4% more).
//!
//! A file coded with a shared set names it in its model set's entry
//! (length 0, the checksum of the set's bytes in place of an offset,
//! [`reference`]); the set is in the file `models-{checksum:016x}.cctm`
//! beside it ([`file_name`]):
//!
//! ```text
//! 0    8   magic "CCMODELS"
//! 8    1   slots
//! 9    1   pass rule (0 always, 1 when-stuck)
//! 10   2   boards a segment of the blocks it was counted on (u16; 0: none)
//! 12   4   zero
//! 16   8   L, the set's bytes (depth_code::Models::to_bytes)
//! 24   L   the set
//! 24+L 8   checksum of everything before
//! ```
//!
//! Invariants: a file is decoded with a set only if it names the set's
//! checksum, which is checked when the set is read; a set's file is
//! written whole under another name, synced and renamed into place, never
//! changed after, and removed only when no file of the directory names it
//! ([`remove_unused`]). Each set is read once a tablebase
//! ([`SharedSets`], which each `Tablebase` owns) and kept while any of its
//! files uses it.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use crate::moves::PassRule;
use crate::table::TableError;
use crate::table::depth_code::Models;
use crate::table::format::checksum;
use crate::table::packed::Entry;

const MAGIC: &[u8; 8] = b"CCMODELS";

/// Bytes before the set.
const HEAD: usize = 24;

/// The name of the file of the shared set whose bytes have checksum
/// `sum`.
pub fn file_name(sum: u64) -> String {
    format!("models-{sum:016x}.cctm")
}

/// Whether `name` is the name of a shared set's file.
fn is_set_name(name: &str) -> bool {
    name.strip_prefix("models-")
        .and_then(|r| r.strip_suffix(".cctm"))
        .is_some_and(|h| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The path of the shared set of checksum `sum` of the directory that
/// holds `table` (a table file's path).
pub fn path_beside(table: &Path, sum: u64) -> PathBuf {
    table.parent().unwrap_or(Path::new(".")).join(file_name(sum))
}

/// The model set entry of a file coded with the shared set whose bytes
/// have checksum `sum`: no bytes in the file, the checksum where the
/// offset would be.
pub fn reference(sum: u64) -> Entry {
    Entry { start: sum, len: 0, sum: 0 }
}

/// The checksum of the shared set an entry names, if it names one (a set
/// of a file's own has bytes).
pub fn referenced(e: Entry) -> Option<u64> {
    (e.len == 0).then_some(e.start)
}

/// The bytes of a shared set file holding `models` for `n` slots and
/// `rule`, counted on blocks in segments of `segment` boards, and the
/// checksum of the set's bytes (what files name).
pub fn file_bytes(n: u8, rule: PassRule, segment: usize, models: &Models) -> (Vec<u8>, u64) {
    let set = models.to_bytes();
    let mut out = Vec::with_capacity(HEAD + set.len() + 8);
    out.extend_from_slice(MAGIC);
    out.push(n);
    out.push(rule_byte(rule));
    out.extend_from_slice(&(segment as u16).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(set.len() as u64).to_le_bytes());
    out.extend_from_slice(&set);
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    (out, checksum(&set))
}

fn rule_byte(rule: PassRule) -> u8 {
    match rule {
        PassRule::Always => 0,
        PassRule::WhenStuck => 1,
    }
}

/// A shared set as read from its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetFile {
    /// The set.
    pub models: Models,
    /// The checksum of its bytes.
    pub sum: u64,
    /// Boards a segment of the blocks it was counted on (0: none).
    pub segment: usize,
}

/// The set in `bytes` (a shared set file's) for `n` slots and `rule`.
///
/// # Errors
/// A message naming what is wrong.
pub fn parse(bytes: &[u8], n: u8, rule: PassRule) -> Result<SetFile, String> {
    if bytes.len() < HEAD + 8 || &bytes[..8] != MAGIC {
        return Err("not a shared model set".into());
    }
    let end = bytes.len() - 8;
    let stored = u64::from_le_bytes(bytes[end..].try_into().expect("8 bytes"));
    if checksum(&bytes[..end]) != stored {
        return Err("checksum mismatch".into());
    }
    if (bytes[8], bytes[9]) != (n, rule_byte(rule)) || bytes[12..16] != [0; 4] {
        return Err(format!(
            "made for {} slots and pass rule {}, expected {n} and {}",
            bytes[8],
            bytes[9],
            rule_byte(rule)
        ));
    }
    let segment = usize::from(u16::from_le_bytes([bytes[10], bytes[11]]));
    let len = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    if len != (end - HEAD) as u64 {
        return Err(format!("a set of {len} bytes in {} bytes", end - HEAD));
    }
    let set = &bytes[HEAD..end];
    Ok(SetFile { models: Models::from_bytes(set)?, sum: checksum(set), segment })
}

/// Reads the shared set file at `path` for `n` slots and `rule`.
///
/// # Errors
/// The file is missing or damaged.
pub fn read(path: &Path, n: u8, rule: PassRule) -> Result<SetFile, TableError> {
    let bytes = fs::read(path).map_err(|source| TableError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::new(
            source.kind(),
            format!("{source} (a model set this table's files are coded with)"),
        ),
    })?;
    parse(&bytes, n, rule).map_err(|what| TableError::Corrupt { path: path.to_path_buf(), what })
}

/// Reads and checks the shared set file at `path` for `n` slots and
/// `rule`: the checksum files name it by.
///
/// # Errors
/// The file is missing or damaged.
pub fn check(path: &Path, n: u8, rule: PassRule) -> Result<u64, TableError> {
    read(path, n, rule).map(|set| set.sum)
}

/// The shared set of the directory `dir` counted on blocks in segments
/// of `segment` boards, if one was written (the first by name).
///
/// # Errors
/// The directory cannot be listed, or such a file is damaged.
pub fn find(
    dir: &Path,
    n: u8,
    rule: PassRule,
    segment: usize,
) -> Result<Option<SetFile>, TableError> {
    for path in set_files(dir)? {
        let set = read(&path, n, rule)?;
        if set.segment == segment {
            return Ok(Some(set));
        }
    }
    Ok(None)
}

/// The shared sets' files in `dir`, by name.
fn set_files(dir: &Path) -> Result<Vec<PathBuf>, TableError> {
    let io = |source| TableError::Io { path: dir.to_path_buf(), source };
    let mut out = Vec::new();
    for e in fs::read_dir(dir).map_err(io)? {
        let e = e.map_err(io)?;
        if e.file_name().to_str().is_some_and(is_set_name) {
            out.push(e.path());
        }
    }
    out.sort();
    Ok(out)
}

/// Removes the shared sets' files of `dir` whose checksum is not in
/// `used` (the sets its files name), and returns their number.
///
/// # Errors
/// The directory cannot be listed or a file removed.
pub fn remove_unused(dir: &Path, used: &[u64]) -> Result<usize, TableError> {
    let mut removed = 0;
    for path in set_files(dir)? {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if !used.iter().any(|&sum| file_name(sum) == name) {
            fs::remove_file(&path)
                .map_err(|source| TableError::Io { path: path.clone(), source })?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// Writes `models` (counted on blocks in segments of `segment` boards) as
/// a shared set of the directory `dir` for `n` slots and `rule`: under
/// another name, synced, then renamed into place. Returns the checksum
/// files name it by.
///
/// # Errors
/// The file cannot be written.
pub fn write(
    dir: &Path,
    (n, rule, segment): (u8, PassRule, usize),
    models: &Models,
) -> Result<u64, TableError> {
    let (bytes, sum) = file_bytes(n, rule, segment, models);
    let path = dir.join(file_name(sum));
    let tmp = dir.join(format!("{}.tmp", file_name(sum)));
    let io = |source: std::io::Error| TableError::Io { path: tmp.clone(), source };
    let mut f = fs::File::create(&tmp).map_err(io)?;
    f.write_all(&bytes).and_then(|()| f.sync_all()).map_err(io)?;
    drop(f);
    fs::rename(&tmp, &path).map_err(|source| TableError::Io { path: path.clone(), source })?;
    Ok(sum)
}

/// Sets read, by file and checksum.
type Held = HashMap<(PathBuf, u64), Weak<Models>>;

/// The shared model sets one [`crate::table::Tablebase`] has read: each is
/// read once and shared by the files that name it while any of them holds
/// it. Each `Tablebase` owns one (no process-wide state: two tablebases
/// read their own).
#[derive(Debug, Default)]
pub(crate) struct SharedSets {
    held: Mutex<Held>,
}

impl SharedSets {
    /// The shared set of checksum `sum` (the one a file names) for `n`
    /// slots and `rule`, from its file at `path`.
    ///
    /// # Errors
    /// The file is missing or damaged, or holds another set.
    pub(crate) fn load(
        &self,
        path: &Path,
        n: u8,
        rule: PassRule,
        sum: u64,
    ) -> Result<Arc<Models>, TableError> {
        let key = (path.to_path_buf(), sum);
        // Held while the set is read, so that it is read once.
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(m) = held.get(&key).and_then(Weak::upgrade) {
            return Ok(m);
        }
        let set = read(path, n, rule)?;
        if set.sum != sum {
            return Err(TableError::Corrupt {
                path: path.to_path_buf(),
                what: format!("holds the model set {:016x}, not {sum:016x}", set.sum),
            });
        }
        let models = Arc::new(set.models);
        held.retain(|_, m| m.strong_count() > 0);
        held.insert(key, Arc::downgrade(&models));
        Ok(models)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::depth_code::{BoardCode, DepthRecord, ModelCounts};

    fn models() -> Models {
        let mut counts = ModelCounts::default();
        let board = BoardCode { values: [3, 5], jia: DepthRecord::from_rest(7, 0).unwrap() };
        counts.add_block(&[board, board]).unwrap();
        Models::new(&counts).unwrap()
    }

    #[test]
    fn a_set_reads_back_and_names_its_checksum() {
        let m = models();
        let (bytes, sum) = file_bytes(8, PassRule::Always, 64, &m);
        let set = parse(&bytes, 8, PassRule::Always).unwrap();
        assert_eq!(set, SetFile { models: m.clone(), sum, segment: 64 });
        assert_eq!(sum, checksum(&m.to_bytes()));
        assert_eq!(referenced(reference(sum)), Some(sum));
        assert!(is_set_name(&file_name(sum)));
        assert!(!is_set_name("models-12.cctm") && !is_set_name("f0000.cctb"));
    }

    #[test]
    fn damage_and_other_tables_are_refused() {
        let (bytes, _) = file_bytes(8, PassRule::Always, 0, &models());
        assert!(parse(&bytes, 10, PassRule::Always).unwrap_err().contains("made for 8 slots"));
        assert!(parse(&bytes, 8, PassRule::WhenStuck).is_err());
        for at in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            assert!(parse(&bad, 8, PassRule::Always).is_err(), "byte {at} flipped");
        }
        assert!(parse(&bytes[..bytes.len() - 1], 8, PassRule::Always).is_err());
        assert!(parse(&[], 8, PassRule::Always).is_err());
    }

    #[test]
    fn sets_are_found_loaded_once_checked_and_removed_when_unused() {
        let dir = std::env::temp_dir().join(format!("chaosclock-shared-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let m = models();
        let sum = write(&dir, (8, PassRule::Always, 64), &m).unwrap();
        let path = dir.join(file_name(sum));
        let sets = SharedSets::default();
        let a = sets.load(&path, 8, PassRule::Always, sum).unwrap();
        let b = sets.load(&path, 8, PassRule::Always, sum).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        // Another tablebase's sets are its own.
        let c = SharedSets::default().load(&path, 8, PassRule::Always, sum).unwrap();
        assert!(!Arc::ptr_eq(&a, &c) && *c == *a);
        assert_eq!(*a, m);
        assert_eq!(find(&dir, 8, PassRule::Always, 64).unwrap().unwrap().sum, sum);
        assert_eq!(find(&dir, 8, PassRule::Always, 16).unwrap(), None);
        let other = dir.join(file_name(sum ^ 1));
        fs::copy(&path, &other).unwrap();
        let e = sets.load(&other, 8, PassRule::Always, sum ^ 1).unwrap_err().to_string();
        assert!(e.contains(&format!("holds the model set {sum:016x}")), "{e}");
        let e =
            sets.load(&dir.join("none.cctm"), 8, PassRule::Always, sum).unwrap_err().to_string();
        assert!(e.contains("a model set this table's files are coded with"), "{e}");
        assert_eq!(remove_unused(&dir, &[sum]).unwrap(), 1);
        assert!(path.exists() && !other.exists());
        assert_eq!(remove_unused(&dir, &[]).unwrap(), 1);
        assert!(!path.exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
