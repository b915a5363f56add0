//! A table file while it is written: under its temporary name, one
//! sub-table at a time, readable back as it grows, and saved from time to
//! time with a [`Checkpoint`] from which a later run goes on.

use std::fs;
use std::path::Path;
use std::sync::Arc;

use crate::generate::GenerateError;
use crate::generate::checkpoint::{self, Checkpoint, Data, Done};
use crate::generate::coding::Coding;
use crate::generate::limits::Limits;
use crate::generate::packing::Packing;
use crate::generate::plain::Plain;
use crate::table::coded::NodeScores;
use crate::table::format::{Encoding, Header, decode};
use crate::table::{BlockCache, TableError};

/// A table file being written: records as they are (encodings 1 and 2),
/// compressed (encoding 3) or coded with depths (encoding 4, with its side
/// file).
pub(super) enum Unfinished {
    Plain(Plain),
    Packed(Packing),
    Coded(Box<Coding>),
}

impl Unfinished {
    /// Creates the temporary file of `path` for `header` (with `limits`'
    /// [`Limits::raw_in_memory`] and [`Limits::sets`]).
    pub(super) fn create(
        path: &Path,
        header: Header,
        limits: &Limits,
    ) -> Result<Unfinished, GenerateError> {
        Ok(match header.encoding {
            Encoding::Packed => {
                Unfinished::Packed(Packing::create(path, header, limits.raw_in_memory)?)
            }
            Encoding::Coded => {
                Unfinished::Coded(Box::new(Coding::create(path, header, limits.sets)?))
            }
            _ => Unfinished::Plain(Plain::create(path, header)?),
        })
    }

    /// The header.
    pub(super) fn header(&self) -> &Header {
        match self {
            Unfinished::Plain(f) => &f.header,
            Unfinished::Packed(f) => &f.header,
            Unfinished::Coded(f) => &f.header,
        }
    }

    /// The encoding of the records [`Unfinished::write_sub`] takes:
    /// encoding 1 for a file of encoding 4 (coded as it is written), else
    /// the file's.
    pub(super) fn records_encoding(&self) -> Encoding {
        match self.header().encoding {
            Encoding::Coded => Encoding::Scores,
            e => e,
        }
    }

    /// Adds the records of sub-table `sub` (once); readers may look at
    /// them after the next [`Unfinished::flush`].
    pub(super) fn write_sub(&self, sub: usize, records: Vec<u8>) -> Result<(), GenerateError> {
        match self {
            Unfinished::Plain(f) => f.write_sub(sub, &records),
            Unfinished::Packed(f) => f.write_sub(sub, records),
            Unfinished::Coded(f) => f.write_sub(sub, records),
        }
    }

    /// The writer that takes sub-table `sub` from its nodes' summaries
    /// ([`Coding::write_summaries`]) instead of its records: encoding 4,
    /// for a sub-table with a model set of its own.
    pub(super) fn summaries_writer(&self, sub: usize) -> Option<&Coding> {
        match self {
            Unfinished::Coded(f) if f.own_set(sub) => Some(f),
            _ => None,
        }
    }

    /// Reads its blocks back through `cache` (its tablebase's) rather than
    /// a cache of its own.
    pub(super) fn cache_blocks_in(&mut self, cache: Arc<BlockCache>) {
        match self {
            Unfinished::Plain(_) => {}
            Unfinished::Packed(f) => f.cache_blocks_in(cache),
            Unfinished::Coded(f) => f.cache_blocks_in(cache),
        }
    }

    /// Drops what helps reading the sub-tables of `loose` loose pieces
    /// quickly (no reader may look at them meanwhile; they stay readable).
    pub(super) fn release(&mut self, loose: u32) {
        match self {
            Unfinished::Plain(_) => {}
            Unfinished::Packed(f) => f.release(loose),
            Unfinished::Coded(f) => f.release(loose),
        }
    }

    /// Makes the sub-tables written so far readable (no other thread may
    /// write meanwhile).
    pub(super) fn flush(&self) -> Result<(), GenerateError> {
        match self {
            Unfinished::Plain(_) => Ok(()),
            Unfinished::Packed(f) => f.flush(),
            Unfinished::Coded(f) => f.flush(),
        }
    }

    /// The scores of every state of node `node` of the written sub-table
    /// `sub`, read once.
    pub(super) fn scores(&self, sub: usize, node: u64) -> Result<NodeScores, TableError> {
        match self {
            Unfinished::Plain(f) => {
                let s = decode(f.record(sub, node), &f.header);
                Ok(NodeScores::Summary(s.expect("records this run encoded decode")))
            }
            Unfinished::Packed(f) => Ok(NodeScores::Summary(f.summary(sub, node)?)),
            Unfinished::Coded(f) => f.scores(sub, node),
        }
    }

    /// Completes the file, syncs it and renames it to `path`; returns its
    /// size and that of its side file (encoding 4; else 0). Its
    /// checkpoint, if any, goes.
    pub(super) fn finish(self, path: &Path) -> Result<(u64, u64), GenerateError> {
        let len = match self {
            Unfinished::Plain(f) => (f.finish(path)?, 0),
            Unfinished::Packed(f) => (f.finish(path)?, 0),
            Unfinished::Coded(f) => (*f).finish(path)?,
        };
        let ckpt = checkpoint::path_of(path);
        match fs::remove_file(&ckpt) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(GenerateError::io(&ckpt, e)),
            _ => Ok(len),
        }
    }

    /// Reopens the temporary file of `path` as `ckpt` describes it, after
    /// reading back every sub-table it lists; `None` if the file is not
    /// there or does not match.
    pub(super) fn resume(
        path: &Path,
        header: &Header,
        limits: &Limits,
        ckpt: &Checkpoint,
    ) -> Option<Unfinished> {
        let header = header.clone();
        match header.encoding {
            Encoding::Packed => {
                Packing::resume(path, header, limits.raw_in_memory, ckpt).map(Unfinished::Packed)
            }
            Encoding::Coded => Coding::resume(path, header, limits.sets, ckpt)
                .map(|c| Unfinished::Coded(Box::new(c))),
            _ => Plain::resume(path, header, ckpt).map(Unfinished::Plain),
        }
    }

    /// Syncs what was flushed and saves a checkpoint that lists `done`
    /// (every sub-table flushed so far, in order).
    pub(super) fn checkpoint(&self, path: &Path, done: &[Done]) -> Result<(), GenerateError> {
        let header = self.header();
        match self {
            Unfinished::Plain(f) => {
                f.sync()?;
                checkpoint::save(path, header, done, Default::default())
            }
            Unfinished::Packed(f) => {
                f.synced(|d| checkpoint::save(path, header, done, [d, Data::default()]))?
            }
            Unfinished::Coded(f) => f.synced(|d| checkpoint::save(path, header, done, d))?,
        }
    }
}
