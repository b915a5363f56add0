//! The command line: the raw arguments as clap parses them ([`low`]), and
//! the validated arguments the commands take ([`high`]), made from them in
//! one step before any work, as ripgrep's `LowArgs` → `HiArgs`.
//!
//! Each concept is checked in one place, with one message: the board size
//! and `--max-live` ([`slots`]), `--threads` ([`threads`]), the files read
//! and written ([`files`]), the position of POS or `--cfg FILE`
//! ([`source`]), the origins of `--cors` ([`origin`]), and the pass rule, whose clap parser is built from
//! [`chaosclock::PassRule`]'s names ([`low`]). `cmd` and `serve` import
//! from here, never the other way.

pub mod files;
pub mod games;
pub mod high;
pub mod low;
pub mod origin;
pub mod slots;
pub mod source;
pub mod threads;

pub use self::files::shown_path;
pub use self::low::{Cli, DEFAULT_TABLES, DEFAULT_VERIFY_SAMPLE};
pub use self::slots::{MaxLive, Slots, default_max_live};
