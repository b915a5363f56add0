//! [`Tablebase`]: the files of one board size and pass rule in one
//! directory, opened when first needed, answering for every position
//! through the symmetry (module docs of [`crate::table`]).
//!
//! Probing takes `&self`: each file is looked for and opened at most once,
//! behind its own [`OnceLock`] (as shakmaty-syzygy does), so one
//! `Tablebase` (in an `Arc`) serves many threads with no lock around
//! probing. Two threads that open the same file at once both map it and
//! one of the two maps is kept; they are the same file.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use crate::moves::PassRule;
use crate::position::{Last, Position};
use crate::score::Score;
use crate::side::Side;
use crate::signature::{SigKey, signature};
use crate::summary::Summary;
use crate::symmetry;
use crate::table::derive::{Reader, derive_score, derive_score_is};
use crate::table::format::{self, free_pieces, sub_index};
use crate::table::{BlockCache, ProbeError, Record, TableError, TableFile, node_number, rederive};
use crate::value::Value;

/// The tables of one board size and pass rule in one directory. It is
/// `Send + Sync`, and every probe takes `&self`: files open when first
/// needed.
///
/// # Examples
///
/// Probe one `Tablebase` from several threads (here the 6-slot tables,
/// made first in a temporary directory):
///
/// ```
/// use std::sync::Arc;
///
/// use chaosclock::generate::{Config, Limits, generate};
/// use chaosclock::table::{Encoding, Tablebase};
/// use chaosclock::{PassRule, draw};
///
/// let dir = tempfile::tempdir()?;
/// let rule = PassRule::Always;
/// let limits = Limits::default();
/// generate(&Config::new(dir.path(), 6, rule).with_encoding(Encoding::Scores).with_limits(limits), None)?;
///
/// let tb = Arc::new(Tablebase::new(dir.path(), 6, rule));
/// let openings = draw::all(6)?;
/// let threads: Vec<_> = (0..4)
///     .map(|t| {
///         let (tb, openings) = (Arc::clone(&tb), openings.clone());
///         std::thread::spawn(move || {
///             openings.iter().skip(t).step_by(4).map(|p| tb.score(p).map(|s| s.value)).collect::<Result<Vec<_>, _>>()
///         })
///     })
///     .collect();
/// let probed: usize = threads.into_iter().map(|t| t.join().unwrap().map(|v| v.len())).sum::<Result<_, _>>()?;
/// assert_eq!(probed, openings.len());
///
/// // A position of another size is a typed error, not a panic.
/// let small: chaosclock::Position = "2,1,4,3".parse()?;
/// assert!(tb.score(&small).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Tablebase {
    dir: PathBuf,
    n: u8,
    rule: PassRule,
    /// Per fixed set F, at index F >> 1 (bit 0 is never set): unset until
    /// the file is looked for, then the open file, or `None` if it is not
    /// there.
    files: Vec<OnceLock<Option<TableFile>>>,
    /// Per fixed set as `files`: the side file of a table file of encoding
    /// 4 (`coded.rs`), if there is one; set when the table file is.
    sides: Vec<OnceLock<Option<TableFile>>>,
    /// Whether the files hold depths, set by the first file opened: all or
    /// none do, as values-only files would give depth files wrong depths.
    depths: OnceLock<bool>,
    /// The bytes of memory of the model sets the files hold (encoding 4).
    models_held: Arc<AtomicUsize>,
    /// Above this many, reads forget them all ([`Tablebase::forget_models`]).
    model_budget: usize,
    /// The directory's shared model sets read by its files.
    shared: Arc<crate::table::shared::SharedSets>,
    /// The decompressed blocks its files read, and their counts.
    cache: Arc<BlockCache>,
}

/// The memory the model sets of a [`Tablebase`] may take before they are
/// forgotten (and read again as needed). Every set of the complete
/// 12-slot table with depths takes about 2.4 GB read (518 MB of bytes), so
/// a process that reads it for long (`serve`, a long `query -`) keeps them
/// all; 1 GiB, the budget before, forgot them again and again and took
/// twice the time on batches of openings (docs/depths.md, "Model sets kept").
pub const MODEL_BUDGET: usize = 3 << 30;

impl Tablebase {
    /// The tables for `n` slots and `rule` under the tables root `root`
    /// (files are opened when first needed). For a size that is not one
    /// of [`SUPPORTED_SLOTS`](crate::SUPPORTED_SLOTS) there are no files:
    /// every probe is [`TableError::OtherSize`].
    pub fn new(root: &Path, n: u8, rule: PassRule) -> Tablebase {
        let sets = if crate::SUPPORTED_SLOTS.contains(&n) { 1usize << n } else { 0 };
        let files = (0..sets).map(|_| OnceLock::new()).collect();
        let sides = (0..sets).map(|_| OnceLock::new()).collect();
        Tablebase {
            dir: root.join(format::dir_name(n, rule)),
            n,
            rule,
            files,
            sides,
            depths: OnceLock::new(),
            models_held: Arc::default(),
            model_budget: MODEL_BUDGET,
            shared: Arc::default(),
            cache: Arc::default(),
        }
    }

    /// These tables reading their blocks through `cache` (shared with its
    /// other holders) rather than through a cache of their own. Files
    /// opened before keep the cache they had.
    #[must_use]
    pub fn with_block_cache(mut self, cache: Arc<BlockCache>) -> Tablebase {
        self.cache = cache;
        self
    }

    /// The cache of decompressed blocks the files read through (of
    /// encodings 3 and 4): its size and counts.
    pub fn block_cache(&self) -> &Arc<BlockCache> {
        &self.cache
    }

    /// These tables keeping at most about `bytes` of model sets read
    /// ([`MODEL_BUDGET`] by default).
    #[must_use]
    pub fn with_model_budget(mut self, bytes: usize) -> Tablebase {
        self.model_budget = bytes;
        self
    }

    /// The bytes of memory the model sets read and kept take.
    pub fn models_held(&self) -> usize {
        self.models_held.load(Ordering::Relaxed)
    }

    /// The directory holding the files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Slots.
    pub fn slots(&self) -> u8 {
        self.n
    }

    /// Pass rule.
    pub fn rule(&self) -> PassRule {
        self.rule
    }

    /// Whether `fixed` is a set of pieces of this size (no piece 0, none
    /// above N).
    fn is_fixed_set(&self, fixed: u16) -> bool {
        !self.files.is_empty() && fixed & !format::free_pieces(self.n, 0) == 0
    }

    /// Checks that `pos` has these tables' size.
    ///
    /// # Errors
    /// [`TableError::OtherSize`].
    pub fn check_position(&self, pos: &Position) -> Result<(), TableError> {
        if pos.slots() != self.n {
            return Err(TableError::OtherSize {
                dir: self.dir.clone(),
                tables: self.n,
                position: pos.slots(),
            });
        }
        Ok(())
    }

    /// Checks that a request made under `rule` may be answered by these
    /// tables (made under [`Tablebase::rule`]).
    ///
    /// # Errors
    /// [`TableError::OtherRule`].
    pub fn check_rule(&self, rule: PassRule) -> Result<(), TableError> {
        if rule != self.rule {
            return Err(TableError::OtherRule {
                dir: self.dir.clone(),
                tables: self.rule,
                asked: rule,
            });
        }
        Ok(())
    }

    /// Checks `pos`'s size, then opens the file that holds it if it is not
    /// open yet.
    ///
    /// # Errors
    /// A position of another size, a missing or a damaged file.
    fn open_for(&self, pos: &Position) -> Result<(), ProbeError> {
        self.check_position(pos)?;
        let fixed = pos.fixed_mask();
        if !self.load(fixed)? {
            return Err(self.missing(fixed));
        }
        Ok(())
    }

    /// The error for the file of fixed set `fixed`, which does not exist.
    pub(crate) fn missing(&self, fixed: u16) -> ProbeError {
        let live = self.n - fixed.count_ones() as u8;
        let values_only = self.values_only();
        ProbeError::Missing { path: self.path(fixed), n: self.n, live, values_only }
    }

    tooling_pub! {
        /// The path of the file that holds fixed set `fixed` (the file of
        /// its representative). Internal: the raw mask of fixed pieces is
        /// no part of the API.
        fn path(&self, fixed: u16) -> PathBuf {
            self.dir.join(format::file_name(symmetry::canonical_fixed(self.n, fixed).1))
        }
    }

    tooling_pub! {
        /// Opens the file of fixed set `fixed` if it exists (once); returns
        /// whether it does (`false` for a mask that is no set of this size's
        /// pieces). Internal (the probes open what they need): for the crate's
        /// tests and the binary's `verify` and `manifest`.
        ///
        /// # Errors
        /// The file exists but is damaged.
        fn load(&self, fixed: u16) -> Result<bool, TableError> {
            if !self.is_fixed_set(fixed) {
                return Ok(false);
            }
            let fixed = symmetry::canonical_fixed(self.n, fixed).1;
            let slot = &self.files[usize::from(fixed >> 1)];
            if let Some(file) = slot.get() {
                return Ok(file.is_some());
            }
            let path = self.path(fixed);
            let file = if path.exists() {
                let file = self.open(&path, fixed)?;
                self.check_kind(&file)?;
                Some(file)
            } else {
                None
            };
            let side = match &file {
                Some(f) if f.stored_side() == Some(Side::Jia) => self.open_side(fixed)?,
                _ => None,
            };
            // Another thread may have set them meanwhile: the same answer.
            self.sides[usize::from(fixed >> 1)].get_or_init(|| side);
            Ok(slot.get_or_init(|| file).is_some())
        }
    }

    /// The side file of the table file of fixed set `fixed` (stored), if
    /// there is one: `f{F}.side.cctb`, storing 乙's depth records.
    ///
    /// # Errors
    /// The side file exists but is damaged or stores another side.
    fn open_side(&self, fixed: u16) -> Result<Option<TableFile>, TableError> {
        let path = self.dir.join(format!("f{fixed:04x}.side.cctb"));
        if !path.exists() {
            return Ok(None);
        }
        let side = self.open(&path, fixed)?;
        if side.stored_side() != Some(Side::Yi) {
            let what = "a side file that does not store 乙's depths".to_string();
            return Err(TableError::Corrupt { path, what });
        }
        Ok(Some(side))
    }

    /// Opens every file present in the directory (each fixed set); returns
    /// how many there are.
    ///
    /// # Errors
    /// A damaged file.
    pub fn load_all(&self) -> Result<usize, TableError> {
        if self.files.is_empty() {
            return Ok(0);
        }
        let all = format::free_pieces(self.n, 0);
        let mut count = 0;
        for bits in 0..1u32 << self.n {
            let fixed = (bits << 1) as u16 & all;
            if symmetry::canonical_fixed(self.n, fixed).1 == fixed {
                count += usize::from(self.load(fixed)?);
            }
        }
        Ok(count)
    }

    /// Adds an already opened file (the generator's, as it completes
    /// each), in place of whatever was known of it, with its side file if
    /// it has one.
    ///
    /// # Errors
    /// Its record encoding differs from the files added before.
    pub(crate) fn insert(&mut self, fixed: u16, mut file: TableFile) -> Result<(), TableError> {
        self.check_kind(&file)?;
        file.count_models_in(Arc::clone(&self.models_held));
        file.share_sets_with(Arc::clone(&self.shared));
        file.cache_blocks_in(Arc::clone(&self.cache));
        let side = match file.stored_side() {
            Some(Side::Jia) => self.open_side(fixed)?,
            _ => None,
        };
        self.files[usize::from(fixed >> 1)] = OnceLock::from(Some(file));
        self.sides[usize::from(fixed >> 1)] = OnceLock::from(side);
        Ok(())
    }

    /// Opens the file `path` of fixed set `fixed`, its model sets counted
    /// with the others'.
    fn open(&self, path: &Path, fixed: u16) -> Result<TableFile, TableError> {
        let mut file = TableFile::open(path, self.n, self.rule, fixed)?;
        file.count_models_in(Arc::clone(&self.models_held));
        file.share_sets_with(Arc::clone(&self.shared));
        file.cache_blocks_in(Arc::clone(&self.cache));
        Ok(file)
    }

    /// Drops the model sets the open files have read
    /// (each file's `forget_models`).
    pub fn forget_models(&self) {
        for f in self.files.iter().chain(&self.sides).filter_map(|f| f.get()?.as_ref()) {
            f.forget_models();
        }
    }

    /// Checks that `file` holds the kind of records (depths or values
    /// only) the files opened before hold.
    ///
    /// # Errors
    /// It does not.
    fn check_kind(&self, file: &TableFile) -> Result<(), TableError> {
        if *self.depths.get_or_init(|| file.has_depths()) != file.has_depths() {
            return Err(self.foreign(file));
        }
        Ok(())
    }

    /// The error for a directory that mixes the two kinds of tables, found
    /// when `file` was opened: it names the file of the kind fewer files of
    /// the directory hold (the one copied in from elsewhere, usually), not
    /// merely the one opened last (issue 24).
    fn foreign(&self, file: &TableFile) -> TableError {
        // Every file of the directory, by kind (the error path only).
        let mut kinds: Vec<(PathBuf, bool, format::Encoding)> = Vec::new();
        let all = format::free_pieces(self.n, 0);
        for bits in 0..1u32 << self.n {
            let fixed = (bits << 1) as u16 & all;
            if symmetry::canonical_fixed(self.n, fixed).1 != fixed {
                continue;
            }
            let path = self.path(fixed);
            if let Ok(t) = TableFile::open(&path, self.n, self.rule, fixed) {
                kinds.push((path, t.has_depths(), t.header().encoding));
            }
        }
        let with_depths = kinds.iter().filter(|k| k.1).count();
        let values_only = kinds.len() - with_depths;
        // The kind fewer files hold; on a tie, the file just opened.
        let odd = match with_depths.cmp(&values_only) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => file.has_depths(),
        };
        let (path, encoding) = kinds
            .iter()
            .find(|k| k.1 == odd)
            .map_or((file.path().to_path_buf(), file.header().encoding), |k| (k.0.clone(), k.2));
        let others = if odd { values_only } else { with_depths };
        TableError::Corrupt {
            path,
            what: format!(
                "it holds {} but the other {} table{} of {} hold {}",
                encoding.name(),
                others,
                if others == 1 { "" } else { "s" },
                self.dir.display(),
                if odd { "values only" } else { "depths" }
            ),
        }
    }

    /// Whether the opened files hold depths; `None` before any is opened.
    pub fn has_depths(&self) -> Option<bool> {
        self.depths.get().copied()
    }

    /// Whether the files in the directory hold values only: the opened
    /// ones, or else the first one that opens (to name the right
    /// `generate` command when a file is missing).
    pub fn values_only(&self) -> bool {
        if self.depths.get().is_none()
            && let Ok(entries) = std::fs::read_dir(&self.dir)
        {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let fixed = name
                    .strip_prefix('f')
                    .and_then(|s| s.strip_suffix(".cctb"))
                    .and_then(|hex| u16::from_str_radix(hex, 16).ok())
                    .filter(|&f| f & !format::free_pieces(self.n, 0) == 0);
                if let Some(f) = fixed
                    && self.load(f).unwrap_or(false)
                {
                    break;
                }
            }
        }
        self.has_depths() == Some(false)
    }

    tooling_pub! {
        /// The opened file that holds fixed set `fixed` (the file of its
        /// representative), if any. Internal, as `Tablebase::load`.
        #[inline]
        fn file(&self, fixed: u16) -> Option<&TableFile> {
            if !self.is_fixed_set(fixed) {
                return None;
            }
            self.stored_file(symmetry::canonical_fixed(self.n, fixed).1)
        }
    }

    /// Whether the node of `pos` is in a loaded file of encoding 4 that
    /// does not store its side's depth records, with no side file that
    /// does: its scores are derived from its children's.
    fn derived(&self, pos: &Position) -> bool {
        let fixed = symmetry::canonical_fixed(self.n, pos.fixed_mask()).1;
        let stored = self.stored_file(fixed).and_then(TableFile::stored_side);
        stored.is_some_and(|s| s != pos.side()) && self.side_file(fixed).is_none()
    }

    /// The side file of the representative fixed set `fixed`, if any.
    #[inline]
    pub(crate) fn side_file(&self, fixed: u16) -> Option<&TableFile> {
        self.sides.get(usize::from(fixed >> 1))?.get()?.as_ref()
    }

    /// The opened file of the representative fixed set `fixed`, if any.
    #[inline]
    fn stored_file(&self, fixed: u16) -> Option<&TableFile> {
        self.files.get(usize::from(fixed >> 1))?.get()?.as_ref()
    }

    /// The summary of the node of `pos`, `Ok(None)` if its file is not
    /// loaded (see [`Tablebase::load`]).
    ///
    /// # Errors
    /// A damaged record.
    #[inline]
    pub(crate) fn summary(&self, pos: &Position) -> Result<Option<Summary>, TableError> {
        self.summary_in(signature(pos), pos)
    }

    /// The value of `pos`, `Ok(None)` if its file is not loaded: as
    /// [`Tablebase::loaded_score`]'s, but a node of encoding 4 whose scores
    /// are derived gives it from its stored values byte, without a
    /// derivation. `pos` has these tables' size.
    ///
    /// # Errors
    /// A damaged record.
    pub(crate) fn loaded_value(&self, pos: &Position) -> Result<Option<Value>, TableError> {
        if pos.last() == Last::DoublePass {
            return Ok(Some(Value::BothLose));
        }
        let summary = self.mapped_summary(signature(pos), pos, false)?;
        Ok(summary.map(|s| s.score(pos.last(), self.rule).value))
    }

    /// [`Tablebase::summary`] for a position whose signature `sig` is
    /// known (it must be `signature(pos)`).
    ///
    /// # Errors
    /// A damaged record.
    #[inline]
    pub(crate) fn summary_in(
        &self,
        sig: SigKey,
        pos: &Position,
    ) -> Result<Option<Summary>, TableError> {
        self.mapped_summary(sig, pos, true)
    }

    /// [`Tablebase::summary_in`]; where `derive` is false, a node whose
    /// scores are derived gets the summary of its values byte instead
    /// (values right, depths 0).
    #[inline]
    fn mapped_summary(
        &self,
        sig: SigKey,
        pos: &Position,
        derive: bool,
    ) -> Result<Option<Summary>, TableError> {
        debug_assert_eq!(sig, signature(pos));
        let (u, stored) = symmetry::canonical(self.n, sig);
        if u == 1 {
            return self.stored_summary(sig, pos, derive);
        }
        let image = symmetry::position(pos, u);
        let Some(mut summary) = self.stored_summary(stored, &image, derive)? else {
            return Ok(None);
        };
        if summary.best_walk != 0 {
            let back = symmetry::inverse(self.n, u);
            summary.best_walk = symmetry::piece(self.n, back, summary.best_walk);
        }
        Ok(Some(summary))
    }

    /// [`Tablebase::summary_in`] for a stored signature.
    #[inline]
    fn stored_summary(
        &self,
        sig: SigKey,
        pos: &Position,
        derive: bool,
    ) -> Result<Option<Summary>, TableError> {
        if self.models_held() > self.model_budget {
            self.forget_models();
        }
        let (fixed, loose) = (sig.fixed(), sig.loose());
        let Some(file) = self.stored_file(fixed) else {
            return Ok(None);
        };
        let sub = sub_index(free_pieces(self.n, fixed), loose);
        let node = node_number(file.board_index(sub), pos);
        match file.lookup(sub, node)? {
            Record::Stored(s) => Ok(Some(s)),
            Record::Derived(code) if !derive => {
                let values = crate::table::values::decode(code, self.rule, self.n);
                values.map(Some).ok_or_else(|| TableError::Corrupt {
                    path: file.path().to_path_buf(),
                    what: format!("node {node} of sub-table {sub}: values byte {code}"),
                })
            }
            Record::Derived(_) if let Some(side) = self.side_file(fixed) => {
                match side.lookup(sub, node)? {
                    Record::Stored(s) => Ok(Some(s)),
                    Record::Derived(_) => Err(TableError::Corrupt {
                        path: side.path().to_path_buf(),
                        what: format!("node {node} of sub-table {sub} is not stored"),
                    }),
                }
            }
            Record::Derived(code) => {
                let s = rederive(self, pos)?;
                // The values byte is stored independently of the records
                // the summary was derived from: they must agree.
                if crate::table::values::encode(&s, self.rule) != Some(code) {
                    return Err(TableError::Corrupt {
                        path: file.path().to_path_buf(),
                        what: format!(
                            "node {node} of sub-table {sub}: its values byte {code} is not what its children give"
                        ),
                    });
                }
                Ok(Some(s))
            }
        }
    }

    /// The score of `pos` from its side to move's view, opening the file
    /// that holds it if it is not open yet. From tables of values only
    /// the depth is unknown ([`Score::depth`] is `None`) unless the game
    /// is over.
    ///
    /// # Errors
    /// A position of another size ([`TableError::OtherSize`]), a missing
    /// file ([`ProbeError::Missing`]) or a damaged one.
    pub fn score(&self, pos: &Position) -> Result<Score, ProbeError> {
        self.open_for(pos)?;
        let score = self.loaded_score(pos)?.ok_or_else(|| self.missing(pos.fixed_mask()))?;
        if self.has_depths() == Some(false)
            && pos.last() != Last::DoublePass
            && pos.outcome().is_none()
        {
            return Ok(Score::value_only(score.value));
        }
        Ok(score)
    }

    /// The value of `pos`, opening the file that holds it: read from its
    /// values byte where the tables derive its score (encoding 4 without
    /// side files, about ten times fewer reads than the score), else from
    /// its score.
    ///
    /// # Errors
    /// As [`Tablebase::score`].
    pub fn value(&self, pos: &Position) -> Result<Value, ProbeError> {
        match self.cheap_value(pos)? {
            Some(v) => Ok(v),
            None => Ok(self.score(pos)?.value),
        }
    }

    /// The value of `pos` where it costs less than its score (a node of
    /// encoding 4), `None` elsewhere; the file opened as needed.
    ///
    /// # Errors
    /// As [`Tablebase::score`].
    pub(crate) fn cheap_value(&self, pos: &Position) -> Result<Option<Value>, ProbeError> {
        self.open_for(pos)?;
        let fixed = pos.fixed_mask();
        // Only encoding 4 derives scores: elsewhere a score costs a value.
        if self.file(fixed).is_none_or(|f| f.header().encoding != format::Encoding::Coded) {
            return Ok(None);
        }
        self.loaded_value(pos)?.map(Some).ok_or_else(|| self.missing(fixed))
    }

    /// Whether the score of `pos` is `target`: [`Tablebase::score`]'s
    /// answer, found with fewer reads where the score is derived and is not
    /// `target`.
    ///
    /// # Errors
    /// As [`Tablebase::score`].
    pub fn score_is(&self, pos: &Position, target: Score) -> Result<bool, ProbeError> {
        self.open_for(pos)?;
        self.loaded_score_is(pos, target)?.ok_or_else(|| self.missing(pos.fixed_mask()))
    }

    /// The score of `pos`, `Ok(None)` if its file is not loaded; `pos` has
    /// these tables' size.
    ///
    /// # Errors
    /// A damaged record.
    pub(crate) fn loaded_score(&self, pos: &Position) -> Result<Option<Score>, TableError> {
        if pos.last() == Last::DoublePass {
            return Ok(Some(Score::terminal(Value::BothLose)));
        }
        // A node encoding 4 does not store: from the children that keep
        // its value.
        if self.derived(pos) {
            let Some(value) = self.loaded_value(pos)? else { return Ok(None) };
            return derive_score(self, pos, value, || self.path(pos.fixed_mask())).map(Some);
        }
        Ok(self.summary(pos)?.map(|s| s.score(pos.last(), self.rule)))
    }

    /// Whether the score of `pos` is `target` (`Ok(None)` if its file is
    /// not loaded): [`Tablebase::loaded_score`]'s answer, found with fewer
    /// reads where the score is derived and is not `target`.
    ///
    /// # Errors
    /// A damaged record.
    pub(crate) fn loaded_score_is(
        &self,
        pos: &Position,
        target: Score,
    ) -> Result<Option<bool>, TableError> {
        if pos.last() != Last::DoublePass && self.derived(pos) {
            let Some(value) = self.loaded_value(pos)? else { return Ok(None) };
            let path = || self.path(pos.fixed_mask());
            return derive_score_is(self, pos, value, target, path).map(Some);
        }
        Ok(self.loaded_score(pos)?.map(|s| s == target))
    }
}

/// The tables as what a derivation reads.
impl Reader for Tablebase {
    fn rule(&self) -> PassRule {
        self.rule
    }

    fn load(&self, fixed: u16) -> Result<bool, TableError> {
        Tablebase::load(self, fixed)
    }

    fn loaded_score(&self, pos: &Position) -> Result<Option<Score>, TableError> {
        Tablebase::loaded_score(self, pos)
    }

    fn loaded_value(&self, pos: &Position) -> Result<Option<Value>, TableError> {
        Tablebase::loaded_value(self, pos)
    }

    fn path(&self, fixed: u16) -> PathBuf {
        Tablebase::path(self, fixed)
    }
}
