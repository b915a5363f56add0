//! The validated arguments: one struct per command, made from its clap
//! struct ([`super::low`]) by one function, [`HiArgs::from_low`], before
//! any work (as ripgrep's `HiArgs::from_low_args`). The commands take only
//! these.
//!
//! Here the raw arguments are read and checked once: the position (POS or
//! `--cfg FILE`, [`super::source`]), the files to read and write
//! ([`super::files`]), `--max-live` against the board size
//! ([`MaxLive`]), the state budget ([`Budget`]), and the flags that only
//! make sense together. What needs the tables (the size `verify` finds in
//! a directory, whether the files are there) is for the commands.

use std::io::Read;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use chaosclock::record::Record;
use chaosclock::{PassRule, Position, draw};

use super::files::{OutputPath, SmallFile, TablesDir, TextFile};
use super::low::{
    BookArgs, Cli, Command, GenerateArgs, ManifestArgs, OpeningsArgs, PlayArgs, QueryArgs,
    RecodeArgs, ServeArgs, ShowArgs, SolveArgs, TablesArgs, VerifyArgs,
};
use super::slots::{MaxLive, Slots};
use super::source::position;
use super::threads::Threads;
use crate::budget::{BYTES_PER_STATE, Budget};

/// The largest book file read: the built-in book is at most 16 MB.
pub const MAX_BOOK_BYTES: u64 = 64 << 20;

/// The largest manifest read (the 12-slot one is about 200 KB).
pub const MAX_MANIFEST_BYTES: u64 = 16 << 20;

/// The largest `--file-log` or `--run-log` read (a line a file, or a line
/// a minute of a run: a few hundred KB for the 12-slot table).
pub const MAX_LOG_BYTES: u64 = 64 << 20;

/// The command to run, with its validated arguments.
#[derive(Debug)]
pub enum HiArgs {
    /// `show`.
    Show(ShowHigh),
    /// `play`.
    Play(PlayHigh),
    /// `solve`.
    Solve(SolveHigh),
    /// `generate`.
    Generate(GenerateHigh),
    /// `query`.
    Query(QueryHigh),
    /// `verify`.
    Verify(VerifyHigh),
    /// `manifest`.
    Manifest(ManifestHigh),
    /// `openings`.
    Openings(OpeningsHigh),
    /// `serve`.
    Serve(ServeHigh),
    /// `book`.
    Book(BookHigh),
    /// `recode`.
    Recode(RecodeHigh),
    /// `puzzles`.
    Puzzles(crate::cli::games::PuzzlesHigh),
    /// `match`.
    Match(crate::cli::games::MatchHigh),
}

impl HiArgs {
    /// Checks the arguments of the command line `cli`.
    ///
    /// # Errors
    /// The first broken rule, as one line.
    pub fn from_low(cli: Cli) -> Result<HiArgs> {
        let given = cli.pass_rule;
        let rule = given.unwrap_or(PassRule::Always);
        Ok(match cli.command {
            Command::Show(a) => HiArgs::Show(ShowHigh::validate(a, given)?),
            Command::Play(a) => HiArgs::Play(PlayHigh::validate(a, given)?),
            Command::Solve(a) => HiArgs::Solve(SolveHigh::validate(a, given)?),
            Command::Generate(a) => HiArgs::Generate(GenerateHigh::validate(a, rule)?),
            Command::Query(a) => HiArgs::Query(QueryHigh::validate(a, given)?),
            Command::Verify(a) => HiArgs::Verify(VerifyHigh::validate(a, rule)?),
            Command::Manifest(a) => HiArgs::Manifest(ManifestHigh::validate(a, rule)?),
            Command::Openings(a) => HiArgs::Openings(OpeningsHigh::validate(a, given)?),
            Command::Serve(a) => HiArgs::Serve(ServeHigh::validate(a, rule)?),
            Command::Book(a) => HiArgs::Book(BookHigh::validate(a, rule)?),
            Command::Recode(a) => HiArgs::Recode(RecodeHigh::validate(a, rule)?),
            Command::Puzzles(a) => HiArgs::Puzzles(crate::cli::games::PuzzlesHigh::validate(a)?),
            Command::Match(a) => HiArgs::Match(crate::cli::games::MatchHigh::validate(a)?),
        })
    }
}

/// `show`.
#[derive(Debug)]
pub struct ShowHigh {
    /// The position.
    pub pos: Position,
    /// The pass rule.
    pub rule: PassRule,
    /// `--json`.
    pub json: bool,
}

impl ShowHigh {
    /// Reads the position.
    ///
    /// # Errors
    /// As [`position`].
    pub fn validate(low: ShowArgs, given: Option<PassRule>) -> Result<ShowHigh> {
        let (rule, _) = rule_for(given, low.position.cfg.is_some());
        let pos = position(low.position.pos.as_deref(), low.position.cfg)?;
        Ok(ShowHigh { pos, rule, json: low.json })
    }
}

/// `play`.
#[derive(Debug)]
pub struct PlayHigh {
    /// The starting position.
    pub start: Position,
    /// The moves as given (the library reads them, naming the first that
    /// cannot be played).
    pub moves: Vec<String>,
    /// The game record read with `--record`.
    pub record: Option<Record>,
    /// `--format record`.
    pub as_record: bool,
    /// The pass rule (a record's own with `--record`).
    pub rule: PassRule,
    /// `--analyse`.
    pub analyse: bool,
    /// `--json`.
    pub json: bool,
    /// `--level`: the engine that plays the next move.
    pub level: Option<chaosclock::engine::Level>,
    /// `--seed`.
    pub seed: u64,
}

impl PlayHigh {
    /// Reads the starting position.
    ///
    /// # Errors
    /// As [`position`].
    pub fn validate(low: PlayArgs, given: Option<PassRule>) -> Result<PlayHigh> {
        let (rule, _) = rule_for(given, low.position.cfg.is_some());
        let level = low.level.and_then(chaosclock::engine::Level::new);
        let (start, moves, rule, record) = match low.record {
            Some(path) => {
                let rec = read_record(path)?;
                let moves = rec.main_moves().iter().map(ToString::to_string).collect();
                (rec.start(), moves, rec.rule(), Some(rec))
            }
            None => {
                (position(low.position.pos.as_deref(), low.position.cfg)?, low.moves, rule, None)
            }
        };
        Ok(PlayHigh {
            start,
            moves,
            record,
            as_record: low.format == "record",
            rule,
            analyse: low.analyse,
            json: low.json,
            level,
            seed: low.seed,
        })
    }
}

/// The largest game record read, in bytes.
pub const MAX_RECORD_BYTES: u64 = 1 << 20;

/// Reads the game record at `path` (`-`: standard input).
///
/// # Errors
/// The file cannot be read, or is not a record (the message names the
/// line and column).
fn read_record(path: PathBuf) -> Result<Record> {
    let (shown, text) = if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .lock()
            .take(MAX_RECORD_BYTES + 1)
            .read_to_string(&mut text)
            .context("cannot read the record from standard input")?;
        if text.len() as u64 > MAX_RECORD_BYTES {
            bail!("the record on standard input is larger than {MAX_RECORD_BYTES} bytes");
        }
        ("standard input".to_string(), text)
    } else {
        let file = TextFile::read(path, "record", MAX_RECORD_BYTES)?;
        (super::files::shown_path(&file.path), file.text)
    };
    text.parse::<Record>().with_context(|| format!("record {shown}"))
}

/// Which tables `solve` reads.
#[derive(Debug)]
pub enum SolveTables {
    /// `--tables DIR`: those, which must be there.
    Dir(TablesDir),
    /// `--no-tables`.
    None,
    /// Neither: those with depths in ./tables, if any.
    Default,
}

/// `solve`.
#[derive(Debug)]
pub struct SolveHigh {
    /// The position, of `--slots` slots if given.
    pub pos: Position,
    /// The tables to read.
    pub tables: SolveTables,
    /// The pass rule.
    pub rule: PassRule,
    /// `--json`.
    pub json: bool,
}

impl SolveHigh {
    /// Reads the position and checks it against `--slots`.
    ///
    /// # Errors
    /// As [`position`], or the position has another size than `--slots`.
    pub fn validate(low: SolveArgs, given: Option<PassRule>) -> Result<SolveHigh> {
        let (rule, _) = rule_for(given, low.position.cfg.is_some());
        let pos = position(low.position.pos.as_deref(), low.position.cfg)?;
        let n = pos.slots();
        if let Some(slots) = low.slots
            && slots.get() != n
        {
            bail!("--slots {slots} does not match the position {pos}, which has {n} slots");
        }
        // clap refuses --tables with --no-tables.
        let tables = match (low.tables, low.no_tables) {
            (Some(dir), _) => SolveTables::Dir(TablesDir::given_or_default(Some(dir), true)?),
            (None, true) => SolveTables::None,
            (None, false) => SolveTables::Default,
        };
        Ok(SolveHigh { pos, tables, rule, json: low.json })
    }
}

/// Which tables, checked: `generate` and `manifest`.
#[derive(Debug)]
pub struct Tables {
    /// The board size (12 when `--slots` is not given).
    pub slots: Slots,
    /// Whether `--slots` was given.
    pub slots_given: bool,
    /// `--max-live`, or its default for the size.
    pub max_live: MaxLive,
    /// The tables root directory.
    pub root: TablesDir,
    /// The pass rule.
    pub rule: PassRule,
}

impl Tables {
    /// The size and `--max-live` of `low`, with their defaults.
    ///
    /// # Errors
    /// `--max-live` is above the size, or the DIR given is not there and
    /// `must_exist` (all but `generate`, which makes it).
    fn validate(low: TablesArgs, rule: PassRule, must_exist: bool) -> Result<Tables> {
        let slots = low.slots.unwrap_or(Slots::STANDARD);
        let max_live = MaxLive::new(low.max_live, slots)?;
        let root = TablesDir::given_or_default(low.tables, must_exist)?;
        Ok(Tables { slots, slots_given: low.slots.is_some(), max_live, root, rule })
    }

    /// The board size as a number.
    pub fn n(&self) -> u8 {
        self.slots.get()
    }
}

/// `generate`.
#[derive(Debug)]
pub struct GenerateHigh {
    /// Which tables.
    pub tables: Tables,
    /// `--values-only`.
    pub values_only: bool,
    /// `--keep-side-files`.
    pub keep_side_files: bool,
    /// `--allow-large`.
    pub allow_large: bool,
    /// `--threads`; `None`: one per core.
    pub threads: Option<Threads>,
    /// `--block-cache`.
    pub block_cache: usize,
    /// `--model-sets` (tests).
    pub model_sets: Option<(u64, u64)>,
    /// `--read-children` (measurements).
    pub read_children: bool,
    /// `--checkpoint`.
    pub checkpoint: Duration,
    /// `--file-log`.
    pub file_log: Option<PathBuf>,
    /// `--json`.
    pub json: bool,
}

impl GenerateHigh {
    /// Checks the tables asked for.
    ///
    /// # Errors
    /// As [`Tables`].
    pub fn validate(low: GenerateArgs, rule: PassRule) -> Result<GenerateHigh> {
        Ok(GenerateHigh {
            tables: Tables::validate(low.tables, rule, false)?,
            values_only: low.values_only,
            keep_side_files: low.keep_side_files,
            allow_large: low.allow_large,
            threads: low.threads,
            block_cache: low.block_cache as usize,
            model_sets: low.model_sets,
            read_children: low.read_children,
            checkpoint: Duration::from_secs(low.checkpoint),
            file_log: low.file_log,
            json: low.json,
        })
    }
}

/// What `query` answers.
#[derive(Debug)]
pub enum QueryInput {
    /// One position (POS or `--cfg FILE`).
    One(Position),
    /// `-`: the positions on stdin, one a line.
    Stdin,
}

/// `query`.
#[derive(Debug)]
pub struct QueryHigh {
    /// The position or positions.
    pub input: QueryInput,
    /// The tables root directory.
    pub root: TablesDir,
    /// The budget of a solve in memory; `None` with `--no-solve`.
    pub budget: Option<Budget>,
    /// The pass rule.
    pub rule: PassRule,
    /// Whether the rule is the cfg file's (`--cfg` without `--pass-rule`).
    pub rule_from_cfg: bool,
    /// `--json`.
    pub json: bool,
}

/// The pass rule: `--pass-rule` if given, else when-stuck for a position
/// read from a cfg file (the original program's rule), else always; and
/// whether it is the cfg file's.
pub fn rule_for(given: Option<PassRule>, cfg: bool) -> (PassRule, bool) {
    match given {
        Some(rule) => (rule, false),
        None if cfg => (PassRule::WhenStuck, true),
        None => (PassRule::Always, false),
    }
}

impl QueryHigh {
    /// Reads the position (unless `-`) and sets the budget.
    ///
    /// # Errors
    /// As [`position`].
    pub fn validate(low: QueryArgs, given: Option<PassRule>) -> Result<QueryHigh> {
        let (rule, rule_from_cfg) = rule_for(given, low.cfg.is_some());
        let input = if low.pos.as_deref() == Some("-") && low.cfg.is_none() {
            QueryInput::Stdin
        } else {
            QueryInput::One(position(low.pos.as_deref(), low.cfg)?)
        };
        let budget = (!low.no_solve).then(|| Budget::new(low.budget, 0));
        let root = TablesDir::given_or_default(low.tables, true)?;
        Ok(QueryHigh { input, root, budget, rule, rule_from_cfg, json: low.json })
    }
}

/// `verify`: the size and `--max-live` may come from the manifest or the
/// tables found, so they are checked by the command ([`MaxLive::new`]).
#[derive(Debug)]
pub struct VerifyHigh {
    /// `--slots`.
    pub slots: Option<Slots>,
    /// `--max-live`, not yet checked against the size.
    pub max_live: Option<u8>,
    /// The tables root directory.
    pub root: TablesDir,
    /// `--sample`.
    pub sample: usize,
    /// `--solves`.
    pub solves: usize,
    /// `--seed`.
    pub seed: u64,
    /// The manifest's text (`--manifest FILE`).
    pub manifest: Option<TextFile>,
    /// The pass rule.
    pub rule: PassRule,
    /// `--json`.
    pub json: bool,
}

impl VerifyHigh {
    /// Reads the manifest.
    ///
    /// # Errors
    /// The manifest cannot be read ([`TextFile::read`]).
    pub fn validate(low: VerifyArgs, rule: PassRule) -> Result<VerifyHigh> {
        let manifest = low
            .manifest
            .map(|path| TextFile::read(path, "the manifest", MAX_MANIFEST_BYTES))
            .transpose()?;
        Ok(VerifyHigh {
            slots: low.slots,
            max_live: low.max_live,
            root: TablesDir::given_or_default(low.tables, true)?,
            sample: low.sample,
            solves: low.solves,
            seed: low.seed,
            manifest,
            rule,
            json: low.json,
        })
    }
}

/// `manifest`.
#[derive(Debug)]
pub struct ManifestHigh {
    /// Which tables.
    pub tables: Tables,
    /// The text of `--file-log FILE`.
    pub file_log: Option<TextFile>,
    /// The text of `--run-log FILE`.
    pub run_log: Option<TextFile>,
    /// `--no-openings`.
    pub no_openings: bool,
    /// `--output FILE`.
    pub output: Option<OutputPath>,
}

impl ManifestHigh {
    /// Checks the tables asked for, reads the logs and checks the output.
    ///
    /// # Errors
    /// As [`Tables`], a log cannot be read, or the output cannot be
    /// written ([`OutputPath::new`]).
    pub fn validate(low: ManifestArgs, rule: PassRule) -> Result<ManifestHigh> {
        let tables = Tables::validate(low.tables, rule, true)?;
        let log = |path, what| TextFile::read(path, what, MAX_LOG_BYTES);
        let file_log = low.file_log.map(|p| log(p, "--file-log")).transpose()?;
        let run_log = low.run_log.map(|p| log(p, "--run-log")).transpose()?;
        let output = low.output.map(OutputPath::new).transpose()?;
        Ok(ManifestHigh { tables, file_log, run_log, no_openings: low.no_openings, output })
    }
}

/// `recode`.
#[derive(Debug)]
pub struct RecodeHigh {
    /// Which tables.
    pub tables: Tables,
    /// The text of `--file-log FILE`.
    pub file_log: Option<TextFile>,
    /// `--segment-boards G`.
    pub segment: usize,
    /// `--file-models`.
    pub file_models: bool,
    /// `--json`.
    pub json: bool,
}

impl RecodeHigh {
    /// Checks the tables asked for and reads the file log.
    ///
    /// # Errors
    /// As [`Tables`], or the log cannot be read.
    pub fn validate(low: RecodeArgs, rule: PassRule) -> Result<RecodeHigh> {
        let tables = Tables::validate(low.tables, rule, true)?;
        let file_log =
            low.file_log.map(|p| TextFile::read(p, "--file-log", MAX_LOG_BYTES)).transpose()?;
        Ok(RecodeHigh {
            tables,
            file_log,
            segment: low.segment_boards,
            file_models: low.file_models,
            json: low.json,
        })
    }
}

/// `openings`.
#[derive(Debug)]
pub struct OpeningsHigh {
    /// The board size.
    pub slots: Slots,
    /// The tables root directory.
    pub root: TablesDir,
    /// `--sample K`: at least 1, at most the openings of the size.
    pub sample: Option<u64>,
    /// `--seed`.
    pub seed: u64,
    /// `--batch B`, at least 1.
    pub batch: Option<usize>,
    /// `--both-win`.
    pub both_win: bool,
    /// `--random K`, at least 1.
    pub random: Option<u64>,
    /// `--output FILE`.
    pub output: Option<OutputPath>,
    /// `--stats`.
    pub stats: bool,
    /// `--depths`.
    pub depths: bool,
    /// `--plot FILE`.
    pub plot: Option<OutputPath>,
    /// `--moves` (only with `--random`).
    pub moves: bool,
    /// `--json`.
    pub json: bool,
    /// The pass rule.
    pub rule: PassRule,
    /// `--cfg FILE`: the one opening to look up, and the file's name.
    pub cfg: Option<(Position, String)>,
    /// Whether the rule is the cfg file's (`--cfg` without `--pass-rule`).
    pub rule_from_cfg: bool,
    /// `--compare-rules`.
    pub compare_rules: bool,
}

impl OpeningsHigh {
    /// The checks clap cannot express, each a one-line error.
    ///
    /// # Errors
    /// A sample larger than the openings, `--moves` without `--random`,
    /// `--stats` or `--depths` with a list on stdout, or an output that cannot be
    /// written ([`OutputPath::new`]).
    pub fn validate(low: OpeningsArgs, given: Option<PassRule>) -> Result<OpeningsHigh> {
        let (rule, rule_from_cfg) = rule_for(given, low.cfg.is_some());
        let cfg = match low.cfg {
            Some(path) => {
                let shown = super::files::shown_path(&path);
                Some((position(None, Some(path))?, shown))
            }
            None => None,
        };
        // The size is the cfg's.
        let slots = match &cfg {
            Some((pos, _)) => {
                Slots::try_from(pos.slots()).expect("a position has a supported size")
            }
            None => low.slots,
        };
        let n = slots.get();
        let population = draw::count(n)?;
        if let Some(k) = low.sample
            && k > population
        {
            bail!("--sample {k}: there are only {population} openings of {n} slots");
        }
        if low.moves && low.random.is_none() {
            bail!(
                "--moves solves the moves of each listed opening: use it with --random K (the list of every both-win opening from the book has no moves)"
            );
        }
        if low.both_win && low.output.is_none() && (low.stats || low.depths) {
            let flag = if low.stats { "--stats" } else { "--depths" };
            bail!(
                "--both-win without --output writes the list on stdout: add --output FILE to use {flag} too"
            );
        }
        Ok(OpeningsHigh {
            slots,
            root: TablesDir::given_or_default(low.tables, true)?,
            sample: low.sample,
            seed: low.seed,
            batch: low.batch.map(|b| usize::try_from(b).unwrap_or(usize::MAX)),
            both_win: low.both_win,
            random: low.random,
            output: low.output.map(OutputPath::new).transpose()?,
            stats: low.stats,
            depths: low.depths,
            plot: low.plot.map(OutputPath::new).transpose()?,
            moves: low.moves,
            json: low.json,
            rule,
            cfg,
            rule_from_cfg,
            compare_rules: low.compare_rules,
        })
    }
}

/// `serve`.
#[derive(Debug)]
pub struct ServeHigh {
    /// The tables root directory.
    pub root: TablesDir,
    /// The address to listen on.
    pub bind: SocketAddr,
    /// The budget of one solve, leaving room for the kept solves.
    pub budget: Budget,
    /// `--keep-states`.
    pub keep_states: usize,
    /// `--queue`.
    pub queue: usize,
    /// `--max-connections`.
    pub max_connections: usize,
    /// `--header-timeout`.
    pub header_timeout: Duration,
    /// `--allow-host`.
    pub allow_host: Vec<String>,
    /// `--cors`: the origins whose pages may call the API.
    pub cors: Vec<String>,
    /// `--quiet`: no access log.
    pub quiet: bool,
    /// `--grace`.
    pub grace: Duration,
    /// The pass rule.
    pub rule: PassRule,
}

impl ServeHigh {
    /// Sets the budget and checks the tables root (clap checks the rest).
    ///
    /// # Errors
    /// A `--tables DIR` given that is not there.
    pub fn validate(low: ServeArgs, rule: PassRule) -> Result<ServeHigh> {
        // The kept solves take memory too: the budget leaves room for them.
        let kept_bytes = (low.keep_states as u64).saturating_mul(BYTES_PER_STATE);
        Ok(ServeHigh {
            root: TablesDir::given_or_default(low.tables, true)?,
            bind: low.bind,
            budget: Budget::new(low.budget, kept_bytes),
            keep_states: low.keep_states,
            queue: low.queue,
            max_connections: low.max_connections as usize,
            header_timeout: Duration::from_secs(low.header_timeout),
            allow_host: low.allow_host,
            cors: low.cors,
            quiet: low.quiet,
            grace: Duration::from_secs(low.grace),
            rule,
        })
    }
}

/// `book`.
#[derive(Debug)]
pub struct BookHigh {
    /// `--build FILE`.
    pub build: Option<OutputPath>,
    /// `--verify`.
    pub verify: bool,
    /// The bytes of `--book FILE`.
    pub book: Option<SmallFile>,
    /// `--slots`, as given.
    pub slots: Vec<Slots>,
    /// The tables root directory.
    pub root: TablesDir,
    /// `--json`.
    pub json: bool,
    /// The pass rule.
    pub rule: PassRule,
}

impl BookHigh {
    /// Reads the book file and checks the output.
    ///
    /// # Errors
    /// The book cannot be read, or the output cannot be written
    /// ([`OutputPath::new`]).
    pub fn validate(low: BookArgs, rule: PassRule) -> Result<BookHigh> {
        let book = low.book.map(|p| SmallFile::read(p, "book", MAX_BOOK_BYTES)).transpose()?;
        let build = low.build.map(OutputPath::new).transpose()?;
        let slots = low.slots;
        Ok(BookHigh {
            build,
            verify: low.verify,
            book,
            slots,
            root: TablesDir::given_or_default(low.tables, true)?,
            json: low.json,
            rule,
        })
    }
}
