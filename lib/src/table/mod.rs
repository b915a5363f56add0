//! Reading tablebase files: memory-mapped, validated before use, every
//! record read through bounds-checked slices and its block's checksum.
//!
//! A [`Tablebase`] covers the signatures whose fixed set has a file in its
//! directory. Files exist only for the representatives of the symmetry
//! (docs/symmetry.md): any other position is mapped onto its
//! representative, read, and the answer mapped back, so callers never see
//! the canonical form. [`Tablebase::score`] opens the file it needs, and
//! answers [`ProbeError::Missing`] for a position whose file does not
//! exist, an error for a file that is damaged, and
//! [`TableError::OtherSize`] for a position of another size.

mod cache;
pub(crate) mod coded;
pub(crate) mod convert;
/// Encoding 4's block coder.
pub(crate) mod depth_code;
pub(crate) mod derive;
mod error;
mod file;
pub(crate) mod format;
pub(crate) mod mmap;
pub(crate) mod packed;
pub(crate) mod rans;
pub(crate) mod recode;
pub(crate) mod segment;
mod sets;
pub(crate) mod shared;
mod tablebase;
pub(crate) mod values;

pub use cache::{BlockCache, CACHED as CACHED_BLOCKS};
pub(crate) use derive::rederive;
pub use error::{ProbeError, TableError};
/// Internal (one file's raw contents): for the binary's `verify` and
/// `manifest` and the crate's tests (cargo feature `tooling`).
#[cfg(feature = "tooling")]
#[doc(hidden)]
pub use file::TableFile;
pub(crate) use file::{Record, fresh_id, node_number};
pub use format::{Encoding, VERSION, dir_name, file_name};
/// Internal (raw masks of fixed pieces): for the binary and the tests.
#[cfg(feature = "tooling")]
#[doc(hidden)]
pub use sets::{fixed_sets, nodes_of};
/// Internal: for `verify --manifest`.
#[cfg(feature = "tooling")]
#[doc(hidden)]
pub use shared::{check as check_shared_models, file_name as shared_models_name};
pub use tablebase::{MODEL_BUDGET, Tablebase};
#[cfg(not(feature = "tooling"))]
pub(crate) use {
    file::TableFile,
    sets::{fixed_sets, nodes_of},
};
