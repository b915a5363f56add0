//! Read-only memory maps of table files: the crate's only `unsafe fn`s;
//! and [`prefetch`], a safe wrapper of the processor's prefetch hint (the
//! solver's), kept here so that no other module holds `unsafe` code of
//! its own.
//! Their callers (the table reader `table/file.rs` and `generate`'s
//! writers) call them in an `unsafe` block that says why the contract
//! below holds; those blocks are the only other `unsafe` code of the crate.
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
//! mapped, never written again, and removed when their map goes (removing
//! a name leaves the mapped file itself intact).

#![allow(unsafe_code)]

use std::fs::File;
use std::io;

use memmap2::Mmap;

/// Maps a finished table file read-only.
///
/// # Safety
/// `file` must be a complete table file that nobody modifies or truncates
/// while the map lives (module docs): finished tables are only ever
/// replaced by rename, never written in place.
///
/// # Errors
/// The operating system refuses the map.
pub unsafe fn map_table(file: &File) -> io::Result<Mmap> {
    // SAFETY: the caller guarantees the file does not change while mapped.
    unsafe { Mmap::map(file) }
}

/// Maps the temporary file `generate` is writing, read-only, to read back
/// the sub-tables written so far.
///
/// # Safety
/// `file` must already have its final length and must not be truncated
/// while the map lives, and each region must be written once and only
/// read after its writing has finished (module docs, the exception for
/// `generate`).
///
/// # Errors
/// The operating system refuses the map.
pub unsafe fn map_unfinished(file: &File) -> io::Result<Mmap> {
    // SAFETY: the caller guarantees no byte read through the map changes
    // while it is borrowed, and the file is never shortened.
    unsafe { Mmap::map(file) }
}

/// Maps a scratch file of `generate`, read-only.
///
/// # Safety
/// `file` must be written in full before it is mapped and never written
/// or truncated while the map lives (module docs); removing its name is
/// harmless.
///
/// # Errors
/// The operating system refuses the map.
pub unsafe fn map_scratch(file: &File) -> io::Result<Mmap> {
    // SAFETY: the caller guarantees the file does not change while mapped.
    unsafe { Mmap::map(file) }
}

/// Asks the processor to start loading the cache line of `value` without
/// waiting for it (x86-64; nothing elsewhere): a read of it soon after
/// finds it in the cache, and the loads of several values overlap.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it reads nothing the program sees and
    // cannot fault, and the address is that of a live reference anyway.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
