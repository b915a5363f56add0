//! The raw arguments: the clap derive types, whose doc comments are the
//! help, and the defaults they show ([`DEFAULT_TABLES`],
//! [`DEFAULT_VERIFY_SAMPLE`]).
//!
//! A flag whose check needs nothing but its own value is checked by its
//! clap parser here (`--pass-rule`, `--slots`, `--threads`, the counts
//! that must be at least 1), so that clap reports it as any usage error.
//! Everything else (a position, files, flags checked against each other)
//! is checked once in [`super::high`], into the validated arguments the
//! commands take.

use std::net::SocketAddr;
use std::path::PathBuf;

use chaosclock::PassRule;
use chaosclock::generate::{BLOCK_BOARDS, CHECKPOINT, SEGMENT_BOARDS};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};

use super::files::{TablesDir, tables_dir_parser};
use super::slots::{Slots, slots_parser};
use super::threads::{Threads, parse_threads};

/// `verify --sample` by default (small tables store fewer nodes: the
/// sample stops at them without a note).
pub const DEFAULT_VERIFY_SAMPLE: usize = 100_000;

/// Chaos Clock (混乱时钟): look at positions, play moves and solve positions
/// by the rules of docs/rules.md.
///
/// A position is written in the interchange format `b1,...,bN;side;last`:
/// bi = piece on slot i (0 = empty), side 0 = 甲 (odd) / 1 = 乙 (even) to
/// move, last = piece walked on the previous ply (0 none, -1 pass, -2 two
/// passes). `;side;last` may be omitted (乙 to move, no last move). Quote it
/// in the shell: `;` separates commands there.
#[derive(Debug, Parser)]
#[command(name = "chaosclock", version)]
pub struct Cli {
    /// When a side may pass: at any time (docs/rules.md) or only when it has no
    /// other legal move (the original solver's rule).
    ///
    /// Default: always; for `query --cfg FILE` and `openings --cfg FILE`,
    /// when-stuck, the rule of the program that wrote the file.
    #[arg(long, global = true, value_parser = pass_rule_parser())]
    pub pass_rule: Option<PassRule>,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Draw a position as a clock face, with both hands, the side to move,
    /// the banned piece, whether the game is over, and every legal move with
    /// the position it leads to.
    Show(ShowArgs),
    /// Play moves from a position and print every position on the way.
    Play(PlayArgs),
    /// Solve a position exactly: its value and depth, the value of every
    /// legal move, a line of best play to the end, and how much work it took.
    ///
    /// Every state reachable from the position is enumerated and solved in
    /// memory (nothing is written to disk). A progress bar is drawn on stderr
    /// when it is a terminal, else a progress line every 10 s; the results
    /// go to stdout.
    Solve(SolveArgs),
    /// Generate the tablebase files of one board size and pass rule: every
    /// state of every signature with at most --max-live pieces not fixed.
    ///
    /// The files go to DIR/n{N}-{rule}/. A run keeps the complete files that
    /// verify and makes the others again, so an interrupted run is resumed by
    /// running the same command. A progress bar is drawn on stderr when it is
    /// a terminal; the summary goes to stdout.
    Generate(GenerateArgs),
    /// Answer any position, printed as `solve` prints it (value, depth,
    /// every move, best line): from the tablebase when it covers the
    /// position, else solved in memory within --budget states (a note on
    /// stderr says so); a finished game from the rules alone.
    ///
    /// `query -` reads positions from stdin, one per line, and prints one
    /// JSON object per line. --no-solve answers from the tables only.
    Query(QueryArgs),
    /// Check generated tables: every block checksum, a sample of entries
    /// derived again from their successors, and a sample of positions
    /// against the solver. Exit code 0 if all agree, 1 if not, 2 if a file
    /// is missing or damaged.
    Verify(VerifyArgs),
    /// Write the manifest of a set of tables (docs/tables.md#manifests):
    /// every file with its length, nodes and checksum (after checking every
    /// block), the states per value from `generate --file-log`, the runs
    /// from their log, and the value of every opening (complete tables).
    /// `verify --manifest FILE` checks tables against it.
    Manifest(ManifestArgs),
    /// Classify the openings (every piece on the board, none fixed, 乙 to
    /// move): how many are self-win, both-win, both-lose, self-lose or
    /// no-result for 乙, exactly or from a random sample.
    ///
    /// Up to 8 slots every opening is solved; 10 and 12 slots read the
    /// complete tables of --tables DIR, or solve a random sample (--sample
    /// K), whose shares come with 95% intervals. --both-win lists the
    /// both-win openings with the moves that keep both-win; --random K picks
    /// K of them at random (a fair start); --stats checks the strategy
    /// advice against the values, and --plot draws it.
    Openings(OpeningsArgs),
    /// Serve an analysis board in the browser and a JSON API (docs/serve.md)
    /// at http://127.0.0.1:8080/ by default: every legal move with its exact
    /// result, from the tables or solved in memory, and play against perfect
    /// play.
    Serve(ServeArgs),
    /// Rewrite the files of finished tables with depths with one model set
    /// for all the table files (beside them in `models-{checksum}.cctm`)
    /// and their blocks in segments
    /// (docs/tables.md#recoding-one-model-set-for-all-files-in-segments):
    /// the same scores, read faster by queries (a read decodes a segment
    /// of 64 boards, not a block of 256, with models that stay in the
    /// processor's caches), a few percent more bytes. Files coded so
    /// already are kept.
    ///
    /// Each file is replaced only when its new version is complete and
    /// checked, so an interrupted run is resumed by running the same
    /// command. A progress bar is drawn on stderr when it is a terminal;
    /// the summary goes to stdout.
    Recode(RecodeArgs),
    /// The openings book built into the binary (docs/book.md): the exact
    /// value of every opening of every board size. Without flags, list what
    /// it holds; --build makes a book file from complete tables; --verify
    /// compares the book with complete tables, opening by opening.
    Book(BookArgs),
    /// Puzzles (docs/puzzles.md): positions where one move, and only one,
    /// keeps the value, proven by the solver. Without flags, print one from
    /// the set built into the binary (by --theme, near --rating); --csv
    /// prints the set in lichess's columns, --verify checks it with the
    /// solver, --build makes a set from engine games.
    Puzzles(PuzzlesArgs),
    /// Play engines of levels 1 to 8 against each other from fair starts
    /// and random openings, both sides in turn, and print a cross table with
    /// Elo and 95% error bars (docs/levels.md).
    Match(MatchArgs),
}

/// Where the position comes from: POS or `--cfg FILE`, exactly one.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// The position in the interchange format, e.g.
    /// '2,8,11,9,4,12,10,6,5,7,1,3' or '2,6,11,9,4,12,10,0,5,7,1,3;0;6'.
    #[arg(value_name = "POS")]
    pub pos: Option<String>,

    /// Read the position from a chaosclock.cfg file of the original desktop
    /// program instead of POS.
    #[arg(long, value_name = "FILE")]
    pub cfg: Option<PathBuf>,
}

/// Arguments of `show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The position.
    #[command(flatten)]
    pub position: PositionArgs,

    /// Print JSON instead of the drawing.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The starting position.
    #[command(flatten)]
    pub position: PositionArgs,

    /// The moves to play in order, separated by commas: a piece number (a
    /// piece on the board walks, a piece in the mover's hand is placed) or
    /// `pass`, e.g. `6,3,10,pass`.
    #[arg(long, value_name = "MOVES", value_delimiter = ',', allow_hyphen_values = true)]
    pub moves: Vec<String>,

    /// Read the game from a game record (docs/notation.md), FILE or `-`
    /// for standard input: its start, pass rule and main line (its
    /// variations are kept for --format record).
    #[arg(long, value_name = "FILE|-", conflicts_with_all = ["pos", "cfg", "moves"])]
    pub record: Option<PathBuf>,

    /// What to print: `text` (one line per position) or `record` (the
    /// game as a record, variations and comments included).
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = ["text", "record"])]
    pub format: String,

    /// Solve the start and mark each move with the value it keeps for its
    /// mover (the only move keeping the best value, or how far it fell),
    /// then report on the game: each side's accuracy, inaccuracies,
    /// mistakes and blunders, and the move that decided it
    /// (docs/serve.md).
    #[arg(long, conflicts_with = "format")]
    pub analyse: bool,

    /// Print JSON instead of one line per position.
    #[arg(long)]
    pub json: bool,

    /// After the moves, let an engine of this level (1 weakest to 8
    /// perfect, docs/levels.md) choose the next move and play it.
    #[arg(long, value_name = "1..8", value_parser = clap::value_parser!(u8).range(1..=8))]
    pub level: Option<u8>,

    /// The seed of the engine's choices with --level.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "level")]
    pub seed: u64,
}

/// Arguments of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The position to solve.
    #[command(flatten)]
    pub position: PositionArgs,

    /// The number of slots the position must have (4, 6, 8, 10 or 12): a
    /// check, an error if the position has another size.
    #[arg(long, value_name = "N", value_parser = slots_parser())]
    pub slots: Option<Slots>,

    /// Load every table file in DIR/n{N}-{rule}/ (as made by `generate`)
    /// and answer the signatures they cover from them instead of exploring.
    /// Without it, the tables with depths in ./tables are used when there
    /// are any for the position's size and pass rule (the output says so).
    #[arg(long, value_name = "DIR", value_parser = tables_dir_parser())]
    pub tables: Option<TablesDir>,

    /// Solve without any tables, even those in ./tables.
    #[arg(long, conflicts_with = "tables")]
    pub no_tables: bool,

    /// Print JSON (one line) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Which tables: board size, how many pieces may be not fixed, and where.
#[derive(Debug, Args)]
pub struct TablesArgs {
    /// The board size: 4, 6, 8, 10 or 12. Default: 12, the standard game.
    #[arg(long, value_name = "N", value_parser = slots_parser())]
    pub slots: Option<Slots>,

    /// Only the signatures with at most K pieces not fixed (on the board
    /// or in hand). Default: all of them (K = N) up to 10 slots, 6 for 12
    /// slots (the complete 12-slot table takes hours, values only:
    /// scripts/make-table-12.sh runs it in the background).
    #[arg(long, value_name = "K")]
    pub max_live: Option<u8>,

    /// The tables root directory: the files are in DIR/n{N}-{rule}/.
    /// Default: `tables`. `generate` makes it; `manifest` and `recode`
    /// refuse a DIR that does not exist.
    #[arg(long, value_name = "DIR", value_parser = tables_dir_parser())]
    pub tables: Option<TablesDir>,
}

/// Arguments of `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Which tables.
    #[command(flatten)]
    pub tables: TablesArgs,

    /// Store only values, compressed to about 2 bits a node instead of
    /// about 4 with depths (see docs/tables.md): `query` then prints no
    /// depths and finds a line that keeps the value by search.
    #[arg(long)]
    pub values_only: bool,

    /// Keep the side files (`f*.side.cctb`, 乙's depths) that a run with
    /// depths writes and reads while it works: about as large again as
    /// the table, they make queries about a third faster. Without this
    /// flag they are removed once the complete table (`--max-live N`) is
    /// made; a partial table keeps them, as runs that extend it read them.
    #[arg(long, conflicts_with = "values_only")]
    pub keep_side_files: bool,

    /// Run even when the files to write are projected to take more than
    /// 20 GB on disk. Without it such a run is refused at once, before
    /// anything is written, with its projected size (the complete 12-slot
    /// table with depths: about 34 GB with the side files it keeps while it
    /// works; values only: about 7 GB).
    #[arg(long)]
    pub allow_large: bool,

    /// Worker threads. Default: one per core. At most 4 per core, and
    /// never more than 1024.
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<Threads>,

    /// Decoded blocks each worker thread keeps, rounded up to a multiple
    /// of eight (a block of a table with depths is 1.5 KiB decoded, of values
    /// only 4 KiB): more memory, fewer blocks decoded again. The file with
    /// no fixed piece reads the others' blocks all over; its progress
    /// lines say how many reads missed.
    #[arg(long, value_name = "BLOCKS", default_value_t = chaosclock::table::CACHED_BLOCKS as u64,
          value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    pub block_cache: u64,

    /// For tests: the limits of the model sets of tables with depths
    /// (`ONE,OWN`: one set for files of at most ONE nodes, else one for
    /// each sub-table of at least OWN nodes of 甲). Changes the bytes.
    #[arg(long, value_name = "ONE,OWN", hide = true, value_parser = parse_model_sets)]
    pub model_sets: Option<(u64, u64)>,

    /// Tables with depths: score each node's exits by reading its children
    /// one by one, as before the exits were streamed (for measurements;
    /// the same bytes).
    #[arg(long, hide = true)]
    pub read_children: bool,

    /// Save the file being written at most every SECS seconds (after the
    /// sub-table under way); a stopped run goes on from the last save.
    #[arg(long, value_name = "SECS", default_value_t = CHECKPOINT.as_secs())]
    pub checkpoint: u64,

    /// Append one JSON line to FILE for each table file as soon as it is
    /// complete (its fixed set, nodes, states, states per value, bytes),
    /// so that the totals of a table made over several runs can be added
    /// up.
    #[arg(long, value_name = "FILE")]
    pub file_log: Option<PathBuf>,

    /// Print the summary as JSON (one line) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `--model-sets ONE,OWN`.
fn parse_model_sets(s: &str) -> Result<(u64, u64), String> {
    let (one, own) = s.split_once(',').ok_or("give two numbers: ONE,OWN")?;
    let number = |x: &str| x.trim().parse::<u64>().map_err(|e| format!("{x:?}: {e}"));
    Ok((number(one)?, number(own)?))
}

/// Arguments of `query`.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// The position in the interchange format, e.g.
    /// '2,6,11,9,4,12,10,0,5,7,1,3;0;6'; `-` reads positions from stdin, one
    /// per line, and prints one JSON object per line.
    #[arg(value_name = "POS", allow_hyphen_values = true)]
    pub pos: Option<String>,

    /// Read the position from a chaosclock.cfg file of the original desktop
    /// program instead of POS.
    #[arg(long, value_name = "FILE")]
    pub cfg: Option<PathBuf>,

    /// The tables root directory (made by `generate`): the files are in
    /// DIR/n{N}-{rule}/.
    ///
    /// Default: `tables`, read if it is there; a DIR given must exist.
    #[arg(long, value_name = "DIR", value_parser = tables_dir_parser())]
    pub tables: Option<TablesDir>,

    /// Answer from the tables only: a position they do not cover is an
    /// error (a bad line with `-`) instead of a solve in memory.
    #[arg(long)]
    pub no_solve: bool,

    /// The most states a solve in memory may enumerate, as `serve --budget`
    /// (a 12-slot opening reached 12 to 83 million in a sample of 50, up to
    /// 130 million in one of 120, about 14 bytes of memory each). Default:
    /// from the machine's memory, half of the smaller of total and available
    /// memory at 18 bytes a state.
    #[arg(long, value_name = "STATES", conflicts_with = "no_solve", value_parser = budget_parser())]
    pub budget: Option<usize>,

    /// Print JSON (one line) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The board size: 4, 6, 8, 10 or 12. Default: the size of the tables
    /// in DIR for the pass rule (an error if it holds several sizes).
    #[arg(long, value_name = "N", value_parser = slots_parser())]
    pub slots: Option<Slots>,

    /// Only the signatures with at most K pieces not fixed, as `generate`
    /// made them. Default: as `generate` (K = N up to 10 slots, 6 for 12).
    #[arg(long, value_name = "K")]
    pub max_live: Option<u8>,

    /// The tables root directory: the files are in DIR/n{N}-{rule}/.
    /// Default: `tables`. `generate` makes it; `manifest` and `recode`
    /// refuse a DIR that does not exist.
    #[arg(long, value_name = "DIR", value_parser = tables_dir_parser())]
    pub tables: Option<TablesDir>,

    /// Random entries to derive again from their successors (at most the
    /// nodes the tables store).
    #[arg(long, value_name = "K", default_value_t = DEFAULT_VERIFY_SAMPLE)]
    pub sample: usize,

    /// Random positions (with at most 6 pieces not fixed) to solve and
    /// compare with the tables.
    #[arg(long, value_name = "J", default_value_t = 50)]
    pub solves: usize,

    /// Seed of the random choices (the same seed checks the same entries).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Also compare every file's length and checksum with the manifest
    /// FILE (written by `manifest`); --slots and --max-live default to
    /// the manifest's.
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,

    /// Print JSON (one line) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `manifest`.
#[derive(Debug, Args)]
pub struct ManifestArgs {
    /// Which tables.
    #[command(flatten)]
    pub tables: TablesArgs,

    /// The file log of the runs that made them (`generate --file-log`):
    /// adds the states and the states per value of every file.
    #[arg(long, value_name = "FILE")]
    pub file_log: Option<PathBuf>,

    /// The log of the runs that made them (stderr of `generate`, as
    /// scripts/make-table-12.sh keeps it): adds their number, wall time
    /// and peak memory.
    #[arg(long, value_name = "FILE")]
    pub run_log: Option<PathBuf>,

    /// Leave out the value of every opening (read from complete tables:
    /// minutes for 12 slots).
    #[arg(long)]
    pub no_openings: bool,

    /// Write the manifest to FILE (through FILE.tmp and a rename) instead
    /// of stdout.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Arguments of `recode`.
#[derive(Debug, Args)]
pub struct RecodeArgs {
    /// Which tables.
    #[command(flatten)]
    pub tables: TablesArgs,

    /// The file log of the runs that made the tables (`generate
    /// --file-log`): a line with the new bytes is added for each table
    /// file recoded, so that `manifest --file-log` still takes the log.
    #[arg(long, value_name = "FILE")]
    pub file_log: Option<PathBuf>,

    /// Boards a segment: a power of two from 16 to 256 (the boards of a
    /// block), or 0 for blocks without segments (each read decodes from
    /// the block's start).
    #[arg(long, value_name = "G", default_value_t = SEGMENT_BOARDS, value_parser = segment_parser)]
    pub segment_boards: usize,

    /// Give each file a model set of its own, instead of one set for all
    /// the table files of the directory (`models-{checksum}.cctm`, made
    /// from all their counts: about as many bytes, and queries read
    /// faster).
    #[arg(long)]
    pub file_models: bool,

    /// Print JSON (one line) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `--segment-boards G`: 0 or a power of two from 16 to the boards of a
/// block of the files this program writes.
fn segment_parser(s: &str) -> Result<usize, String> {
    let g: usize = s.parse().map_err(|_| format!("'{s}' is not a number of boards"))?;
    if g == 0 || (g.is_power_of_two() && (16..=BLOCK_BOARDS).contains(&g)) {
        Ok(g)
    } else {
        Err(format!("{g} is not 0 or a power of two from 16 to {BLOCK_BOARDS}"))
    }
}

/// Arguments of `openings`.
#[derive(Debug, Args)]
pub struct OpeningsArgs {
    /// The number of slots: 4, 6, 8, 10 or 12.
    #[arg(long, value_name = "N", default_value = "12", value_parser = slots_parser())]
    pub slots: Slots,

    /// The tables root directory (as made by `generate`), used for 10 and
    /// 12 slots: complete tables answer for every opening, incomplete ones
    /// help the solver.
    ///
    /// Default: `tables`, read if it is there; a DIR given must exist.
    #[arg(long, value_name = "DIR", value_parser = tables_dir_parser())]
    pub tables: Option<TablesDir>,

    /// Classify a random sample of K openings, each solved exactly, and
    /// estimate the shares with 95% Wilson intervals.
    #[arg(long, value_name = "K", conflicts_with = "random",
          value_parser = at_least_one("the sample needs at least one opening"))]
    pub sample: Option<u64>,

    /// The seed of --sample and --random: the same seed gives the same
    /// openings and the same output.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Openings solved together in one call for --sample and --random (they
    /// share work; the output does not depend on it).
    #[arg(long, value_name = "B",
          value_parser = at_least_one("a batch needs at least one opening"))]
    pub batch: Option<u64>,

    /// List the proven both-win openings, one a line: the position and the
    /// moves that keep both-win, e.g. `2,8,11,9,4,12,10,6,5,7,1,3;1;0 6`.
    #[arg(long)]
    pub both_win: bool,

    /// With --both-win: pick K both-win openings at random (in the seeded
    /// random order), each proven exactly.
    #[arg(long, value_name = "K", requires = "both_win", conflicts_with = "stats",
          value_parser = at_least_one("ask for at least one opening"))]
    pub random: Option<u64>,

    /// Write the --both-win list to FILE (through FILE.tmp, renamed when
    /// complete) instead of stdout.
    #[arg(long, value_name = "FILE", requires = "both_win")]
    pub output: Option<PathBuf>,

    /// Check the strategy advice against the values: by 乙's pieces on odd
    /// slots, by the walks 甲's pieces 1 and N-1 need to get home, and by
    /// whether every piece has a way back to its slot.
    #[arg(long)]
    pub stats: bool,

    /// Print how long the openings last under best play, per value: the
    /// smallest, median, mean and largest depth (plies to the end) and
    /// one of the longest openings. Needs depths: complete tables with
    /// depths, a solved sample (--sample K), or up to 8 slots nothing.
    #[arg(long, conflicts_with = "random")]
    pub depths: bool,

    /// Draw the --stats groups as a stacked bar chart in FILE (SVG).
    #[arg(long, value_name = "FILE", requires = "stats")]
    pub plot: Option<PathBuf>,

    /// With the openings book (no complete tables), 10 and 12 slots: also
    /// solve the moves that keep both-win of each listed opening (seconds
    /// each for 12 slots). Without it they are left out.
    #[arg(long, requires = "both_win")]
    pub moves: bool,

    /// Compare the two pass rules at --slots N, from the openings book: the
    /// counts by value under each, the openings whose value changes and in
    /// which direction, and a few openings fair under one rule only (the
    /// first of the --seed order).
    #[arg(long, conflicts_with_all = ["sample", "both_win", "stats", "depths", "cfg", "tables"])]
    pub compare_rules: bool,

    /// The value of the one opening in a chaosclock.cfg file of the
    /// original desktop program, under its rule (when-stuck, unless
    /// --pass-rule says otherwise), from the openings book at once.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["sample", "both_win", "stats", "depths"])]
    pub cfg: Option<PathBuf>,

    /// Print JSON: one object (the list: one object a line).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The tables root directory (made by `generate`); positions the tables
    /// do not cover are solved in memory.
    ///
    /// Default: `tables`, read if it is there; a DIR given must exist.
    #[arg(long, value_name = "DIR", value_parser = tables_dir_parser())]
    pub tables: Option<TablesDir>,

    /// The address to listen on; port 0 picks a free port. Anything but
    /// loopback makes the server reachable from other machines.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    /// The most states one solve may enumerate (a 12-slot opening reached
    /// 12 to 83 million in a sample of 50, up to 130 million in one of 120,
    /// about 14 bytes of memory each). Default: from the
    /// machine's memory, half of the smaller of total and available memory
    /// less --keep-states, at 18 bytes a state.
    #[arg(long, value_name = "STATES", value_parser = budget_parser())]
    pub budget: Option<usize>,

    /// The most states kept in the solved graphs of recent positions.
    #[arg(long, value_name = "STATES", default_value_t = 100_000_000)]
    pub keep_states: usize,

    /// The most requests waiting for the solver; more get 503 at once.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub queue: usize,

    /// The most open connections; further ones wait, unanswered, until
    /// one closes.
    #[arg(long, value_name = "N", default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_connections: u32,

    /// Seconds a connection may take to send a request head, counted from
    /// its opening or from the end of its last answer; it is closed after
    /// that, so an idle keep-alive connection is closed after this too.
    #[arg(long, value_name = "SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_timeout: u64,

    // `[::1]` below is an address, not a doc link (the text is --help's).
    #[allow(rustdoc::broken_intra_doc_links)]
    /// A further name the server answers to in the Host header (besides
    /// 127.0.0.1, localhost and [::1] with the bound port, when bound to
    /// loopback); repeatable. Other names get 421 (DNS rebinding).
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,

    /// An origin whose pages may call the JSON API from another site
    /// (e.g. https://example.org), or * for any; repeatable. It answers
    /// preflight OPTIONS requests and sets Access-Control-Allow-Origin on
    /// /api/ answers (never on /metrics). Default: none (a foreign Origin
    /// gets 403).
    #[arg(long, value_name = "ORIGIN", value_parser = crate::cli::origin::check_origin)]
    pub cors: Vec<String>,

    /// Seconds the requests under way may take to finish after SIGTERM or
    /// Ctrl-C; then the server exits (code 0) all the same.
    #[arg(long, value_name = "SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(0..=3600))]
    pub grace: u64,

    /// No access log: without it, each request answered gets one line on
    /// stderr (method, path, status, milliseconds).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// A count that must be at least 1, `why` said otherwise: a number read
/// as clap reads a `u64`.
fn at_least_one(why: &'static str) -> impl TypedValueParser<Value = u64> {
    clap::value_parser!(u64).try_map(move |k| if k == 0 { Err(why) } else { Ok(k) })
}

/// `--budget STATES`: at least one state (a budget of none could never
/// solve anything).
fn budget_parser() -> impl TypedValueParser<Value = usize> {
    // A budget past usize (only on a 32-bit machine) is no budget at all.
    at_least_one("a solve needs a budget of at least one state")
        .map(|k| usize::try_from(k).unwrap_or(usize::MAX))
}

/// `--pass-rule`: the names and meanings of [`PassRule`] (spelled there
/// once), read into a [`PassRule`].
fn pass_rule_parser() -> impl TypedValueParser<Value = PassRule> {
    let values = PassRule::ALL.map(|r| PossibleValue::new(r.name()).help(r.meaning()));
    PossibleValuesParser::new(values).map(|name| name.parse().expect("one of the rules' names"))
}

/// The default tables root directory (kept with the check of a tables
/// root, [`TablesDir::given_or_default`]).
pub use super::files::DEFAULT_TABLES;

/// Arguments of `book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// Write a book to FILE with the values of the complete tables in
    /// --tables for each size of --slots (up to 8 slots, without tables,
    /// from the solver); sizes with neither are copied from the built-in
    /// book. The same tables give the same bytes.
    #[arg(long, value_name = "FILE", conflicts_with = "verify")]
    pub build: Option<PathBuf>,

    /// Compare every opening of the book (the built-in one, or --book FILE)
    /// with the complete tables in --tables, for each size of --slots that
    /// has them.
    #[arg(long)]
    pub verify: bool,

    /// Read this book file instead of the built-in book.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,

    /// The board sizes to build or verify.
    #[arg(long, value_name = "N,...", value_delimiter = ',', default_values = ["4", "6", "8", "10", "12"],
          value_parser = slots_parser())]
    pub slots: Vec<Slots>,

    /// The tables root directory (as made by `generate`).
    ///
    /// Default: `tables`, read if it is there; a DIR given must exist.
    #[arg(long, value_name = "DIR", value_parser = tables_dir_parser())]
    pub tables: Option<TablesDir>,

    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `puzzles`.
#[derive(Debug, Args)]
pub struct PuzzlesArgs {
    /// The board size: 8, 10 or 12.
    #[arg(long, value_name = "N", default_value = "12", value_parser = slots_parser())]
    pub slots: Slots,

    /// Only puzzles with this theme (win, both-win, both-lose, extra-move,
    /// pass, walk-n, block, finish, one-move, short, long, very-long).
    #[arg(long, value_name = "THEME")]
    pub theme: Option<String>,

    /// A puzzle rated near R (the nearest ones, within 100 if any).
    #[arg(long, value_name = "R")]
    pub rating: Option<u16>,

    /// The puzzle with this id.
    #[arg(long, value_name = "ID", conflicts_with_all = ["theme", "rating"])]
    pub id: Option<String>,

    /// The seed: which puzzle is printed (from the clock without it), or
    /// the set --build makes.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,

    /// Print the (filtered) set as CSV in lichess's puzzle columns.
    #[arg(long, conflicts_with_all = ["json", "id"])]
    pub csv: bool,

    /// Check every puzzle of the set (or --sample K of them) with the
    /// solver: exit code 1 if one differs.
    #[arg(long, conflicts_with_all = ["csv", "json", "id"])]
    pub verify: bool,

    /// With --verify, check K puzzles drawn by --seed.
    #[arg(long, value_name = "K", requires = "verify")]
    pub sample: Option<usize>,

    /// Read the set from FILE instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// Make a set of --count puzzles from engine games, reproducibly from
    /// --seed (default 1), into --out FILE (default puzzles/nN.csv). An
    /// interrupted build resumes from FILE.rounds.
    #[arg(long, conflicts_with_all = ["verify", "csv", "json", "id", "theme", "rating", "file"])]
    pub build: bool,

    /// With --build, the puzzles to make (default 2000 for 8 and 10 slots,
    /// 5000 for 12).
    #[arg(long, value_name = "K", requires = "build")]
    pub count: Option<usize>,

    /// With --build, the file to write.
    #[arg(long, value_name = "FILE", requires = "build")]
    pub out: Option<PathBuf>,

    /// With --build on 12 slots, the most states one solve may take.
    #[arg(long, value_name = "STATES", default_value_t = 4_000_000, requires = "build")]
    pub budget: usize,
}

/// Arguments of `match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The board size (4 to 12; each opening is solved in memory, at 12
    /// slots within --budget).
    #[arg(long, value_name = "N", default_value = "8", value_parser = slots_parser())]
    pub slots: Slots,

    /// The levels that play, each against each.
    #[arg(long, value_name = "K,...", value_delimiter = ',', default_values = ["1", "2", "3", "4", "5", "6", "7", "8"],
          value_parser = clap::value_parser!(u8).range(1..=8))]
    pub levels: Vec<u8>,

    /// Openings: half fair starts (both-win by the openings book), half
    /// random; each pair of levels plays each twice, sides swapped.
    #[arg(long, value_name = "K", default_value_t = 20)]
    pub openings: usize,

    /// Only adjacent levels play each other (1-2, 2-3, ...): the ladder.
    #[arg(long)]
    pub ladder: bool,

    /// Times each pair plays each opening, both sides each time, with other
    /// seeds of the engines: more games from the same solves (12 slots).
    #[arg(long, value_name = "R", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub repeat: u64,

    /// The most states one opening's solve may enumerate; an opening over
    /// it is skipped with a note on stderr. Default: no limit below 12
    /// slots, 100,000,000 at 12 (about 14 bytes of memory a state, one
    /// solve per thread).
    #[arg(long, value_name = "STATES", value_parser = budget_parser())]
    pub budget: Option<usize>,

    /// The seed of the openings and of the engines.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Print JSON instead of the tables.
    #[arg(long)]
    pub json: bool,

    /// Instead of games between the levels: each level's accuracy (the
    /// share of its moves that keep the value) and blunder rate in
    /// positions from engine games (docs/levels.md).
    #[arg(long, conflicts_with_all = ["ladder", "json"])]
    pub accuracy: bool,

    /// Keep each opening's results in FILE as it is played, and take those
    /// already there: a match (or `--accuracy`) stopped at any moment
    /// resumes with the same command (FILE must be of the same match).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
}
