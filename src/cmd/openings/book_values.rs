//! The openings book read as the list goes: the values of a few openings
//! at a time, decoding only the blocks that hold their representatives
//! (in parallel), each block once. The first openings of a list are thus
//! written within a second, where decoding the whole 12-slot section first
//! ([`Section::all_values`]) took about a minute and 350 MB before the
//! first line; the list in the end decodes every block once all the same.

use chaosclock::Position;
use chaosclock::Value;
use chaosclock::book::Section;
use rayon::prelude::*;

/// The values of one book section, decoded block by block when asked for.
pub struct LazyBook<'a> {
    section: &'a Section,
    /// The value code + 1 of each representative decoded so far, by rank
    /// (0: not decoded; zeroed memory, so untouched pages cost nothing).
    codes: Vec<u8>,
    /// Whether each block is decoded.
    decoded: Vec<bool>,
}

impl<'a> LazyBook<'a> {
    /// Nothing decoded yet.
    pub fn new(section: &'a Section) -> LazyBook<'a> {
        let openings = usize::try_from(section.entry().openings).expect("the openings fit memory");
        LazyBook { section, codes: vec![0; openings], decoded: vec![false; section.blocks()] }
    }

    /// The values for 乙 of `openings` (of the section's size), in order.
    pub fn values(&mut self, openings: &[Position]) -> Vec<Value> {
        let ranks = self.section.ranks();
        let per = u64::from(self.section.entry().block_ranks);
        let reps: Vec<u64> = openings.par_iter().map(|p| ranks.representative(p.board())).collect();
        let mut todo: Vec<usize> =
            reps.iter().map(|&r| (r / per) as usize).filter(|&b| !self.decoded[b]).collect();
        todo.sort_unstable();
        todo.dedup();
        let section = self.section;
        let blocks: Vec<Vec<(u64, u8)>> = todo
            .par_iter()
            .map(|&b| {
                let mut out = Vec::new();
                // `todo` holds blocks of the section only.
                let block = section.block_values(b, &mut |rank, v| out.push((rank, v.code() + 1)));
                debug_assert!(block, "block {b} of the section");
                out
            })
            .collect();
        for (&b, values) in todo.iter().zip(blocks) {
            self.decoded[b] = true;
            for (rank, code) in values {
                self.codes[rank as usize] = code;
            }
        }
        reps.iter()
            .map(|&r| {
                let code = self.codes[r as usize]
                    .checked_sub(1)
                    .expect("a representative's block is decoded");
                Value::from_code(code).expect("a value code from the book")
            })
            .collect()
    }
}

/// The sizes of the pieces a chunk of `len` openings is read in: 256
/// first, doubling up to 65,536, so the first lines come at once and the
/// later pieces share their blocks.
pub fn pieces(len: usize, first: &mut usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut left = len;
    while left > 0 {
        let take = (*first).min(left);
        out.push(take);
        left -= take;
        *first = (*first * 2).min(1 << 16);
    }
    out
}

#[cfg(test)]
mod tests {
    use chaosclock::PassRule;
    use chaosclock::book::Book;
    use chaosclock::draw;

    use super::*;

    #[test]
    fn lazy_values_are_the_books() {
        let book = Book::embedded().unwrap();
        for n in [6, 8] {
            let section = book.section(n, PassRule::Always).unwrap();
            let all = section.all_values();
            let mut lazy = LazyBook::new(section);
            let mut first = 3;
            for chunk in draw::chunks(n, draw::Order::Board).unwrap() {
                let mut at = 0;
                for len in pieces(chunk.len(), &mut first) {
                    let part = &chunk[at..at + len];
                    at += len;
                    for (pos, v) in part.iter().zip(lazy.values(part)) {
                        let want = all[section.ranks().rank(pos.board()) as usize];
                        assert_eq!(v.code(), want, "{pos}");
                    }
                }
            }
        }
    }

    #[test]
    fn pieces_grow_and_cover_the_chunk() {
        let mut first = 256;
        assert_eq!(pieces(1000, &mut first), [256, 512, 232]);
        assert_eq!(first, 2048);
        let mut first = 1 << 16;
        assert_eq!(pieces(200_000, &mut first).iter().sum::<usize>(), 200_000);
    }
}
