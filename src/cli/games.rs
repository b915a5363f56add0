//! The validated arguments of `puzzles` and `match`: the engines' levels,
//! the board sizes that have puzzle sets, the theme by its name, the set
//! read from `--file`.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use chaosclock::engine::Level;
use chaosclock::puzzle::{Puzzle, Theme, parse_csv};

use super::files::{OutputPath, SmallFile};
use super::low::{MatchArgs, PuzzlesArgs};

/// The largest puzzle set read with `--file` (the shipped ones are below
/// 1 MB).
pub const MAX_SET_BYTES: u64 = 64 << 20;

/// `match --slots 12`: the most states one opening's solve may enumerate
/// unless `--budget` says otherwise (about 1.4 GB at 14 bytes a state).
pub const MATCH_BUDGET_12: usize = 100_000_000;

/// `puzzles --build`.
#[derive(Debug)]
pub struct BuildHigh {
    /// Puzzles to make.
    pub count: usize,
    /// Where they go.
    pub out: OutputPath,
    /// The seed.
    pub seed: u64,
    /// The state budget of one solve (12 slots).
    pub budget: usize,
}

/// `puzzles`.
#[derive(Debug)]
pub struct PuzzlesHigh {
    /// The board size (8, 10 or 12).
    pub slots: u8,
    /// `--theme`.
    pub theme: Option<Theme>,
    /// `--rating`.
    pub rating: Option<u16>,
    /// `--id`.
    pub id: Option<String>,
    /// `--seed`, if given.
    pub seed: Option<u64>,
    /// `--json`.
    pub json: bool,
    /// `--csv`.
    pub csv: bool,
    /// `--verify`.
    pub verify: bool,
    /// `--sample`.
    pub sample: Option<usize>,
    /// The set of `--file`, read and parsed, with its path.
    pub file: Option<(PathBuf, Vec<Puzzle>)>,
    /// `--build`.
    pub build: Option<BuildHigh>,
}

impl PuzzlesHigh {
    /// Checks the size, the theme, and reads `--file`.
    ///
    /// # Errors
    /// A size without puzzles, an unknown theme, an unreadable or bad set.
    pub fn validate(low: PuzzlesArgs) -> Result<PuzzlesHigh> {
        let slots = low.slots.get();
        if !matches!(slots, 8 | 10 | 12) {
            bail!("puzzles exist for 8, 10 and 12 slots, not {slots}");
        }
        let theme = low.theme.map(|t| t.parse::<Theme>()).transpose()?;
        let file = match low.file {
            Some(path) => {
                let f = SmallFile::read(path, "puzzle set", MAX_SET_BYTES)?;
                let shown = super::shown_path(&f.path);
                let text = std::str::from_utf8(&f.bytes)
                    .with_context(|| format!("puzzle set {shown} is not UTF-8"))?;
                let set = parse_csv(text).with_context(|| format!("reading {shown}"))?;
                if let Some(p) = set.iter().find(|p| p.start.slots() != slots) {
                    bail!("puzzle {} of {shown} has {} slots, not {slots}", p.id, p.start.slots());
                }
                Some((f.path, set))
            }
            None => None,
        };
        let build = if low.build {
            let count = low.count.unwrap_or(if slots == 12 { 5000 } else { 2000 });
            if count == 0 {
                bail!("--count must be at least 1");
            }
            let out = low.out.unwrap_or_else(|| PathBuf::from(format!("puzzles/n{slots}.csv")));
            Some(BuildHigh {
                count,
                out: OutputPath::new(out)?,
                seed: low.seed.unwrap_or(1),
                budget: low.budget,
            })
        } else {
            None
        };
        if low.sample == Some(0) {
            bail!("--sample must be at least 1");
        }
        Ok(PuzzlesHigh {
            slots,
            theme,
            rating: low.rating,
            id: low.id,
            seed: low.seed,
            json: low.json,
            csv: low.csv,
            verify: low.verify,
            sample: low.sample,
            file,
            build,
        })
    }
}

/// `match`.
#[derive(Debug)]
pub struct MatchHigh {
    /// The board size.
    pub slots: u8,
    /// The levels, weakest first, each once.
    pub levels: Vec<Level>,
    /// Openings per pair.
    pub openings: usize,
    /// `--ladder`.
    pub ladder: bool,
    /// The most states one opening's solve may enumerate.
    pub budget: usize,
    /// Times each pair plays each opening (both sides each time).
    pub repeat: u64,
    /// `--seed`.
    pub seed: u64,
    /// `--json`.
    pub json: bool,
    /// `--accuracy`.
    pub accuracy: bool,
    /// `--checkpoint FILE`.
    pub checkpoint: Option<std::path::PathBuf>,
}

impl MatchHigh {
    /// Checks the size and the levels.
    ///
    /// # Errors
    /// Fewer than two levels, no openings.
    pub fn validate(low: MatchArgs) -> Result<MatchHigh> {
        let slots = low.slots.get();
        let budget = low.budget.unwrap_or(if slots < 12 { usize::MAX } else { MATCH_BUDGET_12 });
        let mut levels: Vec<Level> = low.levels.iter().filter_map(|&k| Level::new(k)).collect();
        levels.sort();
        levels.dedup();
        if levels.len() < 2 {
            bail!("--levels needs at least two different levels");
        }
        if low.openings == 0 {
            bail!("--openings must be at least 1");
        }
        Ok(MatchHigh {
            slots,
            levels,
            openings: low.openings,
            ladder: low.ladder,
            budget,
            repeat: low.repeat,
            seed: low.seed,
            json: low.json,
            accuracy: low.accuracy,
            checkpoint: low.checkpoint,
        })
    }
}
