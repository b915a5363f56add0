//! The openings book: the exact value of every opening of every board
//! size, small enough to ship inside the binary (docs/book.md).
//!
//! A section per board size and pass rule holds the value for 乙 of each
//! representative opening (`ranks.rs`: one per orbit of the symmetry),
//! in rank order, entropy coded (`coder.rs`) with a model counted from the
//! data (`model.rs`), in blocks of [`BLOCK_RANKS`] ranks that decode on
//! their own. A lookup maps the opening onto its representative and
//! decodes one block: about 0.15 ms for 10 slots.
//!
//! The book is checked whole (every checksum, every field) when it is
//! opened, so a lookup never meets damaged bytes. [`Book::embedded`] is
//! the book built into the binary from one file per pass rule,
//! `book/openings.ccbk` (`always`) and `book/openings-when-stuck.ccbk`,
//! so that each stays well under a package's 10 MB (docs/book.md).

mod build;
mod coder;
mod format;
mod model;
mod ranks;

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use rayon::prelude::*;

#[cfg(feature = "tooling")]
pub use self::build::build_section;
pub use self::format::{BLOCK_RANKS, Entry};
#[cfg(feature = "tooling")]
pub use self::format::{Built, write as write_book};
use self::format::{Layout, blocks};
pub use self::ranks::{Board, Ranks};
use crate::{PassRule, Position, Value};

/// The book files compiled into the binary, one per pass rule, each
/// with the sections of its rule (a file may be empty: no sections). Each
/// is a package of its own (`chaosclock-book`, `chaosclock-book-when-stuck`:
/// the repository's `book/` files), behind the cargo features
/// `book-always` and `book-when-stuck` (both in `book`, a default).
static EMBEDDED: &[&[u8]] = &[
    #[cfg(feature = "book-always")]
    chaosclock_book::BYTES,
    #[cfg(feature = "book-when-stuck")]
    chaosclock_book_when_stuck::BYTES,
];

/// What is wrong with a book's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BookError {
    /// Where the bytes came from: a path, or "the built-in book".
    pub source: String,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "corrupt openings book {}: {}", self.source, self.what)
    }
}

impl std::error::Error for BookError {}

/// Why the book gives no value for a position ([`Book::value`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoValue {
    /// The position is not an opening (every piece on the board, none
    /// fixed, 乙 to move, no previous ply): the book holds openings only.
    NotOpening,
    /// The book has no section for this size and rule.
    NoSection {
        /// The board size.
        slots: u8,
        /// The pass rule.
        rule: PassRule,
    },
}

impl fmt::Display for NoValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoValue::NotOpening => f.write_str("the openings book holds openings only"),
            NoValue::NoSection { slots, rule } => write!(
                f,
                "the openings book has no {slots}-slot openings under the pass rule {}",
                rule.name()
            ),
        }
    }
}

impl std::error::Error for NoValue {}

/// An openings book, checked.
#[derive(Debug)]
pub struct Book {
    /// The bytes of each file the book was read from.
    files: Vec<Cow<'static, [u8]>>,
    sections: Vec<Section>,
}

/// One board size and pass rule of a book.
#[derive(Debug)]
pub struct Section {
    layout: Layout,
    ranks: Ranks,
    /// The coded blocks (a part of the book's bytes).
    data: Cow<'static, [u8]>,
}

impl Book {
    /// Checks `bytes` (from `source`, named in errors) and opens them.
    ///
    /// # Errors
    /// The bytes are not a valid book.
    pub fn parse(bytes: Cow<'static, [u8]>, source: &str) -> Result<Book, BookError> {
        let layouts =
            format::parse(&bytes).map_err(|what| BookError { source: source.to_string(), what })?;
        let sections = layouts
            .into_iter()
            .map(|layout| {
                let data = match &bytes {
                    Cow::Borrowed(b) => {
                        let b: &'static [u8] = b;
                        Cow::Borrowed(&b[layout.data.clone()])
                    }
                    Cow::Owned(b) => Cow::Owned(b[layout.data.clone()].to_vec()),
                };
                Section { ranks: Ranks::new(layout.entry.slots), layout, data }
            })
            .collect();
        Ok(Book { files: vec![bytes], sections })
    }

    /// The book built into the binary (its files of both pass rules as
    /// one book), checked once on first use. Without the cargo feature
    /// `book` (on by default) it is empty: it has no sections, and
    /// [`Book::value`] is [`NoValue::NoSection`]; with `book-always` or
    /// `book-when-stuck` alone it has that rule's sections only.
    ///
    /// # Errors
    /// Its bytes are damaged (a broken build).
    pub fn embedded() -> Result<&'static Book, BookError> {
        static BOOK: OnceLock<Result<Book, BookError>> = OnceLock::new();
        BOOK.get_or_init(|| {
            let mut book = Book { files: Vec::new(), sections: Vec::new() };
            // An empty file (before the first is built) has no sections.
            for bytes in EMBEDDED.iter().filter(|b| !b.is_empty()) {
                book.join(Book::parse(Cow::Borrowed(bytes), "built into the binary")?)?;
            }
            Ok(book)
        })
        .as_ref()
        .map_err(Clone::clone)
    }

    /// Adds the files and sections of `other`.
    ///
    /// # Errors
    /// Both have a section of the same size and pass rule.
    fn join(&mut self, other: Book) -> Result<(), BookError> {
        if let Some(e) = other.entries().find(|e| self.section(e.slots, e.rule).is_some()) {
            return Err(BookError {
                source: "built into the binary".into(),
                what: format!("two sections for {} slots, pass rule {}", e.slots, e.rule.name()),
            });
        }
        self.files.extend(other.files);
        self.sections.extend(other.sections);
        Ok(())
    }

    /// The bytes of each file the book was read from (the built-in book:
    /// one per pass rule that has sections).
    pub fn files(&self) -> impl Iterator<Item = &[u8]> {
        self.files.iter().map(|f| &**f)
    }

    /// The bytes of all its files together.
    pub fn size(&self) -> u64 {
        self.files().map(|f| f.len() as u64).sum()
    }

    /// Every section's entry, in the book's order.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.sections.iter().map(|s| &s.layout.entry)
    }

    /// The section of `n` slots under `rule`, if the book has it.
    pub fn section(&self, n: u8, rule: PassRule) -> Option<&Section> {
        self.sections.iter().find(|s| s.layout.entry.slots == n && s.layout.entry.rule == rule)
    }

    /// The value for 乙 of the opening `pos` under `rule`.
    ///
    /// # Examples
    ///
    /// A fair start: a random 8-slot opening that both sides can win
    /// ([`Value::BothWin`]), found at once in the book.
    ///
    /// ```
    /// use chaosclock::book::Book;
    /// use chaosclock::draw::Draw;
    /// use chaosclock::{PassRule, Value};
    ///
    /// let book = Book::embedded()?;
    /// let fair = Draw::new(8, 2026)?
    ///     .find(|p| book.value(p, PassRule::Always) == Ok(Value::BothWin))
    ///     .ok_or("no fair opening")?;
    /// assert_eq!(book.value(&fair, PassRule::Always), Ok(Value::BothWin));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// Why the book has no value for it: [`NoValue::NotOpening`], or
    /// [`NoValue::NoSection`] (the book holds no openings of this size
    /// under this rule).
    pub fn value(&self, pos: &Position, rule: PassRule) -> Result<Value, NoValue> {
        if !pos.is_opening() {
            return Err(NoValue::NotOpening);
        }
        let no_section = NoValue::NoSection { slots: pos.slots(), rule };
        let section = self.section(pos.slots(), rule).ok_or(no_section)?;
        // An opening of the section's size is always in it.
        section.value(pos.board()).ok_or(no_section)
    }
}

impl Section {
    /// The header's entry: size, rule, counts.
    pub fn entry(&self) -> &Entry {
        &self.layout.entry
    }

    /// The numbering of the openings.
    pub fn ranks(&self) -> &Ranks {
        &self.ranks
    }

    /// The bytes of block `b`.
    fn block(&self, b: usize) -> &[u8] {
        let o = &self.layout.offsets;
        &self.data[o[b] as usize..o[b + 1] as usize]
    }

    /// The value for 乙 of the opening `board` (`n` entries, a
    /// derangement); `None` if `board` is not an opening of this size.
    pub fn value(&self, board: &[u8]) -> Option<Value> {
        if !is_opening(board, self.layout.entry.slots) {
            return None;
        }
        let rep = self.ranks.representative(board);
        let mut found = Value::NoResult;
        self.decode_block(self.block_of(rep), &mut |rank, _, v| {
            if rank == rep {
                found = v;
                return false;
            }
            true
        });
        Some(found)
    }

    /// The block holding rank `rank`.
    fn block_of(&self, rank: u64) -> usize {
        (rank / u64::from(self.layout.entry.block_ranks)) as usize
    }

    /// Decodes block `b`: calls `f(rank, board, value)` for each
    /// representative in it, in rank order, while `f` returns true.
    fn decode_block(&self, b: usize, f: &mut dyn FnMut(u64, &Board, Value) -> bool) {
        let e = &self.layout.entry;
        let first = b as u64 * u64::from(e.block_ranks);
        let last = (first + u64::from(e.block_ranks)).min(e.openings);
        let mut d = coder::Decoder::new(self.block(b));
        let n = usize::from(e.slots);
        let mut previous = None;
        for rank in first..last {
            let board = self.ranks.board(rank);
            if !self.ranks.is_representative(&board[..n]) {
                continue;
            }
            let ctx = model::context(&board[..n], previous);
            let mut value = Value::NoResult;
            for i in 0..model::QUESTIONS {
                if let Some(v) = model::answer(i, d.bit(self.layout.probs.get(ctx, i))) {
                    value = v;
                    break;
                }
            }
            previous = Some(value);
            if !f(rank, &board, value) {
                return;
            }
        }
    }

    /// Calls `f(rank, value)` for each representative of block `b` (the
    /// ranks `b * block_ranks ..`), in rank order: for a reader that
    /// decodes the blocks it needs as it goes, where
    /// [`Section::all_values`] decodes them all first.
    /// False, and `f` never called, if `b` is not a block of the section
    /// ([`Section::blocks`]).
    #[must_use]
    pub fn block_values(&self, b: usize, f: &mut dyn FnMut(u64, Value)) -> bool {
        if b >= self.blocks() {
            return false;
        }
        self.decode_block(b, &mut |rank, _, v| {
            f(rank, v);
            true
        });
        true
    }

    /// The value code of every opening, by rank (decoded in parallel).
    pub fn all_values(&self) -> Vec<u8> {
        let e = &self.layout.entry;
        let n = usize::from(e.slots);
        let per = e.block_ranks as usize;
        const UNKNOWN: u8 = u8::MAX;
        let mut values = vec![UNKNOWN; e.openings as usize];
        // First the representatives, each block on its own.
        values.par_chunks_mut(per).enumerate().for_each(|(b, chunk)| {
            let first = b as u64 * u64::from(e.block_ranks);
            self.decode_block(b, &mut |rank, _, v| {
                chunk[(rank - first) as usize] = v.code();
                true
            });
        });
        // Then the others, from their representatives.
        (0..values.len())
            .into_par_iter()
            .map(|r| match values[r] {
                UNKNOWN => {
                    let board = self.ranks.board(r as u64);
                    values[self.ranks.representative(&board[..n]) as usize]
                }
                v => v,
            })
            .collect()
    }

    /// The section as built, to write it into another book unchanged.
    #[cfg(feature = "tooling")]
    pub fn to_built(&self) -> Built {
        let o = &self.layout.offsets;
        let blocks =
            o.windows(2).map(|w| self.data[w[0] as usize..w[1] as usize].to_vec()).collect();
        Built { entry: self.layout.entry.clone(), probs: self.layout.probs.clone(), blocks }
    }

    /// Bytes of the coded blocks.
    pub fn coded_bytes(&self) -> u64 {
        self.data.len() as u64
    }

    /// Number of blocks.
    pub fn blocks(&self) -> usize {
        blocks(self.layout.entry.openings, self.layout.entry.block_ranks)
    }
}

/// Whether `board` is an opening of `n` slots: a derangement of 1..=`n`
/// (piece `i + 1` never on slot `i + 1`).
fn is_opening(board: &[u8], n: u8) -> bool {
    let mut seen = 0u32;
    board.len() == usize::from(n)
        && board.iter().enumerate().all(|(i, &p)| {
            if !(1..=n).contains(&p) || usize::from(p) == i + 1 || seen & 1 << p != 0 {
                return false;
            }
            seen |= 1 << p;
            true
        })
}
