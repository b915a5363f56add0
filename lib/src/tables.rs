//! [`Tables`]: every size and pass rule under one tables root, opened
//! once, answering any position through `&self` (the probing surface of
//! shakmaty-syzygy's `Tablebase`).

use std::path::{Path, PathBuf};

use crate::answer::Answer;
use crate::moves::{Move, PassRule};
use crate::position::{Position, SUPPORTED_SLOTS};
use crate::score::Score;
use crate::table::{ProbeError, TableError, Tablebase};
use crate::value::Value;

/// The tables of every supported size and both pass rules under a tables
/// root (`root/n8-always/`, `root/n10-when-stuck/`, ...): one
/// [`Tablebase`] each, made once, whose files open when first needed.
/// Probing takes `&self`; share one in an `Arc` between threads.
///
/// # Examples
///
/// ```
/// use chaosclock::generate::{Config, generate};
/// use chaosclock::Tables;
/// use chaosclock::table::Encoding;
/// use chaosclock::{Move, PassRule, Position, Value};
///
/// let dir = tempfile::tempdir()?;
/// let rule = PassRule::Always;
/// let cfg = Config::new(dir.path(), 6, rule).with_encoding(Encoding::Scores);
/// generate(&cfg, None)?;
///
/// let tables = Tables::open(dir.path())?;
/// let pos: Position = "2,1,4,3,6,5".parse()?;
/// assert_eq!(tables.value(&pos, rule)?, Value::SelfWin);
/// assert_eq!(tables.score(&pos, rule)?.depth(), Some(12));
/// let best = tables.best_move(&pos, rule)?.ok_or("a move")?;
/// assert!(pos.play(best, rule).is_ok());
/// // No 8-slot tables there: a missing file, with its path.
/// let eight: Position = "2,1,4,3,6,5,8,7".parse()?;
/// assert!(tables.value(&eight, rule).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Tables {
    root: PathBuf,
    /// One per supported size and rule, in the order of
    /// [`SUPPORTED_SLOTS`] × [`PassRule::ALL`].
    sets: Vec<Tablebase>,
}

impl Tables {
    /// The tables under `root`.
    ///
    /// # Errors
    /// [`TableError::Io`]: `root` is not a directory that can be read.
    pub fn open(root: &Path) -> Result<Tables, TableError> {
        std::fs::read_dir(root)
            .map_err(|source| TableError::Io { path: root.to_path_buf(), source })?;
        let sets = SUPPORTED_SLOTS
            .iter()
            .flat_map(|&n| PassRule::ALL.map(|rule| Tablebase::new(root, n, rule)))
            .collect();
        Ok(Tables { root: root.to_path_buf(), sets })
    }

    /// The tables root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The tables of `n` slots under `rule` (`None` for a size the engine
    /// does not support).
    pub fn get(&self, n: u8, rule: PassRule) -> Option<&Tablebase> {
        self.sets.iter().find(|t| t.slots() == n && t.rule() == rule)
    }

    /// The tables for `pos` under `rule`.
    fn of(&self, pos: &Position, rule: PassRule) -> &Tablebase {
        // Every position has a supported size, and every size and rule a
        // set.
        self.sets
            .iter()
            .find(|t| t.slots() == pos.slots() && t.rule() == rule)
            .unwrap_or(&self.sets[0])
    }

    /// The value of `pos` under `rule` for the side to move.
    ///
    /// # Errors
    /// A missing ([`ProbeError::Missing`]) or damaged file.
    pub fn value(&self, pos: &Position, rule: PassRule) -> Result<Value, ProbeError> {
        self.of(pos, rule).value(pos)
    }

    /// The score of `pos` under `rule`: its value and depth (from tables
    /// of values only the depth is unknown, `None`: see
    /// [`Tablebase::has_depths`]).
    ///
    /// # Errors
    /// As [`Tables::value`].
    pub fn score(&self, pos: &Position, rule: PassRule) -> Result<Score, ProbeError> {
        self.of(pos, rule).score(pos)
    }

    /// A best move of `pos` under `rule`; `None` when the game is over.
    ///
    /// # Errors
    /// As [`Tables::value`].
    pub fn best_move(&self, pos: &Position, rule: PassRule) -> Result<Option<Move>, ProbeError> {
        Ok(self.answer(pos, rule)?.moves.first().map(|m| m.mv))
    }

    /// The whole answer for `pos` under `rule`: every move scored, best
    /// first, and a line of best play.
    ///
    /// # Errors
    /// As [`Tables::value`].
    pub fn answer(&self, pos: &Position, rule: PassRule) -> Result<Answer, ProbeError> {
        Answer::from_rules(pos, rule)
            .map_or_else(|| Answer::from_tables(self.of(pos, rule), pos, rule), Ok)
    }
}
