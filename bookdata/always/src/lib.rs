//! The Chaos Clock openings book under the pass rule `always` (the written
//! rules: a side may pass at any time), as the bytes of one book file.
//!
//! Its own package so that no package is over the registry's 10 MB: the
//! library `chaosclock` depends on it through its default feature
//! `book-always` and reads it with `chaosclock::Book::embedded`. The
//! format and how the file is made and checked: the repository's
//! `docs/book.md`.
#![no_std]

/// The book file (`book/openings.ccbk` of the repository): the sections
/// of the pass rule `always`, one per board size.
pub static BYTES: &[u8] = include_bytes!("../data/openings.ccbk");
