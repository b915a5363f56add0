//! Read-only memory maps of table files: the only `unsafe` code of the
//! crate.
//!
//! # Safety contract
//! A mapped file must not be modified or truncated while the map lives:
//! the bytes would change under the reader, and touching a page that no
//! longer exists (or cannot be read from the disk) raises SIGBUS. This
//! program upholds it by writing every table under a temporary name and
//! renaming it into place only when complete (see `generate`), and by never
//! opening a finished table for writing; a regenerated table replaces the
//! old file by rename, which leaves existing maps of the old inode intact.
//! Only another program editing a table file in place can break it.
//!
//! The one exception is the temporary file `generate` is writing
//! ([`map_unfinished`]): it is created at its final length before it is
//! mapped and never truncated while the map lives; each region (a solved
//! sub-table, then the checksums) is written exactly once, and readers of
//! the map only read regions whose writing has finished (the sub-tables of
//! earlier groups, and the whole payload once every group is done). So no
//! byte a reader looks at changes while it is borrowed.
//!
//! Scratch files ([`map_scratch`]) hold a solved sub-table's records while
//! `generate` reads them: written in full and closed before they are
//! mapped, never written again, and removed only after their map is
//! dropped.

#![allow(unsafe_code)]

use std::fs::File;
use std::io;

use memmap2::Mmap;

/// Maps a finished table file read-only.
///
/// # Errors
/// The operating system refuses the map.
pub fn map_table(file: &File) -> io::Result<Mmap> {
    // SAFETY: table files are complete before they get their final name and
    // are never changed in place (module docs).
    unsafe { Mmap::map(file) }
}

/// Maps the temporary file `generate` is writing, read-only, to read back
/// the sub-tables written so far.
///
/// # Errors
/// The operating system refuses the map.
pub fn map_unfinished(file: &File) -> io::Result<Mmap> {
    // SAFETY: the file has its final length and each region is written once,
    // before anything reads it (module docs, the exception for `generate`).
    unsafe { Mmap::map(file) }
}

/// Maps a scratch file of `generate`, read-only.
///
/// # Errors
/// The operating system refuses the map.
pub fn map_scratch(file: &File) -> io::Result<Mmap> {
    // SAFETY: a scratch file is complete before it is mapped and never
    // changed afterwards (module docs).
    unsafe { Mmap::map(file) }
}
