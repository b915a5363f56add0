//! Scoring the exits of a sub-table by streaming the sub-tables they lead
//! to: each child sub-table is read once, board by board in the order it
//! is stored, and each move into it is undone to find the parent node the
//! child's score goes to.
//!
//! Reading the children node by node instead looks each one up at random:
//! the blocks of the large 12-slot sub-tables are decoded again each time
//! the cache has let them go (docs/depths.md, "The generator, measured").
//! Here a block is decoded once a child signature, its boards read one
//! after the other, and the random accesses are the parents' words
//! ([`WordMoves`]), each taking a score in one compare-and-swap.
//!
//! A move leaves a sub-table of fixed pieces F and loose pieces L (on the
//! board, not fixed) in one of these ways (`crate::solve::expand`):
//! - a walk of p that captures the loose q (p not fixed by it): into
//!   (F, L − q), the child's previous ply p;
//! - a walk of piece N, off the board: into (F, L − N);
//! - a walk of p onto its own slot (always from slot N), capturing q or
//!   onto an empty slot: into (F + p, L − p − q);
//! - a placement of p from its owner's hand onto slot p, capturing q or
//!   onto an empty slot: into (F + p, L − q), the placer moving again if
//!   it captured the other side's piece.
//!
//! Each child signature is stored as the image of its orbit's
//! representative under one unit (`crate::symmetry::canonical`), a
//! bijection of boards: the stored boards are read in order and mapped
//! back.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::generate::children::{Context, Place};
use crate::generate::compact::{
    Boards, DepthMoves, Facts, Moves, WordMoves, offered, unscored_word,
};
use crate::index::SigIndex;
use crate::position::{Last, MAX_SLOTS, Position, walk_origin};
use crate::score::Score;
use crate::side::Side;
use crate::signature::SigKey;
use crate::solve::{NodeMoves, node_key};
use crate::table::TableError;

/// A board: the piece on each slot (slot s at s − 1), 0 for none.
type Board = [u8; MAX_SLOTS as usize];

/// How the moves into one child signature are undone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Walks that capture the loose piece `q`; if `q` is piece N, also
    /// the walks of N off the board.
    Captured { q: u8 },
    /// Walks of `p` onto its own slot, capturing `q` (0: onto an empty
    /// slot).
    Fixed { p: u8, q: u8 },
    /// Placements of `p`, capturing `q` (0: onto an empty slot).
    Placed { p: u8, q: u8 },
}

/// A child signature of the sub-table (`fixed`, `loose`) and how the
/// moves into it are undone.
#[derive(Debug, Clone, Copy)]
struct Exit {
    sig: SigKey,
    kind: Kind,
}

/// Every signature the moves of the sub-table of `fixed` and `loose`
/// pieces on an `n`-slot board lead out to.
fn exits(n: u8, fixed: u16, loose: u16) -> Vec<Exit> {
    let pieces = |set: u16| (1..=n).filter(move |&p| set & 1 << p != 0);
    let mut out = Vec::new();
    for q in pieces(loose) {
        // A capture needs another loose piece to walk; N walks off alone.
        if loose & !(1 << q) != 0 || q == n {
            out.push(Exit {
                sig: SigKey::new(fixed, loose & !(1 << q)),
                kind: Kind::Captured { q },
            });
        }
    }
    for p in pieces(loose).filter(|&p| p != n) {
        for q in std::iter::once(0).chain(pieces(loose & !(1 << p))) {
            let sig = SigKey::new(fixed | 1 << p, loose & !(1 << p) & !(1 << q) & !1);
            out.push(Exit { sig, kind: Kind::Fixed { p, q } });
        }
    }
    let all = crate::table::format::free_pieces(n, 0);
    for p in pieces(all & !fixed & !loose) {
        for q in std::iter::once(0).chain(pieces(loose)) {
            let sig = SigKey::new(fixed | 1 << p, loose & !(1 << q) & !1);
            out.push(Exit { sig, kind: Kind::Placed { p, q } });
        }
    }
    out
}

/// The parent of a child board by one move: its board, the child's
/// previous ply, the piece that walked (0: a placement), and for each side
/// that could have moved it (both for a walk) that side and the child's
/// side to move.
#[derive(Debug, Clone, Copy)]
struct Parent {
    board: Board,
    last: Last,
    piece: u8,
    movers: [(Side, Side); 2],
    sides: usize,
}

impl Parent {
    /// The parent by a walk: either side may have walked.
    fn walked(board: Board, last: Last, piece: u8) -> Parent {
        let movers = Side::ALL.map(|side| (side, side.other()));
        Parent { board, last, piece, movers, sides: 2 }
    }
}

/// Calls `f` with every parent in the sub-table of the moves of `kind`
/// into the child board `b`.
fn parents(
    n: u8,
    kind: Kind,
    b: &Board,
    f: &mut impl FnMut(&Parent) -> Result<(), TableError>,
) -> Result<(), TableError> {
    match kind {
        Kind::Captured { q } => {
            for t in 1..=n {
                let p = b[usize::from(t - 1)];
                if p == 0 || p == t || p == n {
                    continue;
                }
                // Neither p nor q on its own slot in the parent (fixed).
                let s = walk_origin(n, t, p);
                if s == p || t == q || b[usize::from(s - 1)] != 0 {
                    continue;
                }
                let mut board = *b;
                board[usize::from(s - 1)] = p;
                board[usize::from(t - 1)] = q;
                f(&Parent::walked(board, Last::Piece(p), p))?;
            }
            if q == n {
                for s in (1..n).filter(|&s| b[usize::from(s - 1)] == 0) {
                    let mut board = *b;
                    board[usize::from(s - 1)] = n;
                    f(&Parent::walked(board, Last::None, n))?;
                }
            }
            Ok(())
        }
        Kind::Fixed { p, q } => {
            // Piece p lands on slot p from slot N.
            if b[usize::from(n - 1)] != 0 {
                return Ok(());
            }
            let mut board = *b;
            board[usize::from(n - 1)] = p;
            board[usize::from(p - 1)] = q;
            f(&Parent::walked(board, Last::None, p))
        }
        Kind::Placed { p, q } => {
            let mut board = *b;
            board[usize::from(p - 1)] = q;
            let side = Side::owner_of(p);
            let again = q != 0 && Side::owner_of(q) != side;
            let child_side = if again { side } else { side.other() };
            let movers = [(side, child_side); 2];
            f(&Parent { board, last: Last::None, piece: 0, movers, sides: 1 })
        }
    }
}

/// The moves of every board of the sub-table `sig` (its board index
/// `index`, its boards `boards`), each node's exits scored from the
/// sub-tables they lead to, streamed; what the reads kept is let go
/// ([`Context::read_all`]).
///
/// # Errors
/// A child that cannot be read (a damaged file).
pub(super) fn moves(
    ctx: &Context<'_>,
    sig: SigKey,
    index: &SigIndex,
    boards: &Boards,
) -> Result<Vec<DepthMoves>, TableError> {
    let n = ctx.n;
    let facts = Facts::new(n, sig.fixed(), sig.loose());
    let words: Vec<[AtomicU64; 2]> = (0..boards.len())
        .into_par_iter()
        .map(|r| {
            let board = boards.get(r);
            Side::ALL.map(|side| {
                let pos = Position { n, board, side, last: Last::None };
                AtomicU64::new(unscored_word(&NodeMoves::unscored(&pos, sig, node_key(&pos))))
            })
        })
        .collect();
    for exit in exits(n, sig.fixed(), sig.loose()) {
        stream(ctx, &exit, index, &facts, &words)?;
    }
    // The words take 16 bytes a board, the moves the core reads 12: the
    // caches go before both are in memory at once.
    ctx.read_all(2 * boards.len() as u64);
    Ok(words
        .into_par_iter()
        .map(|w| {
            let w = WordMoves(w.map(AtomicU64::into_inner));
            DepthMoves::keep([&w.get(0, &facts), &w.get(1, &facts)])
        })
        .collect())
}

/// Boards of a child sub-table one worker reads in a row.
const CHUNK: u64 = 1 << 11;

/// Offers a worker keeps waiting before it makes them: each parent's word
/// is a random access into the sub-table's words (hundreds of megabytes
/// for the large 12-slot sub-tables), so it is prefetched when the offer
/// is queued and made a few child boards later, when its line has come.
const QUEUE: usize = 32;

/// An offer waiting in the queue: the score of an exit for the word of
/// board `at`, side `side`, by a walk of `piece` from the parent `board`.
#[derive(Debug, Clone, Copy)]
struct Queued {
    at: usize,
    side: usize,
    score: Score,
    piece: u8,
    board: Board,
}

/// Makes the offers of `queue` and empties it.
fn flush(words: &[[AtomicU64; 2]], queue: &mut Vec<Queued>) {
    for q in queue.drain(..) {
        let slot_of = |p: u8| q.board.iter().position(|&x| x == p).expect("a walk's piece") as u8;
        offer(&words[q.at][q.side], q.score, q.piece, slot_of);
    }
}

/// Offers the score of every move into the child signature of `exit` to
/// its parent's word in `words` (the sub-table of board index `index`).
fn stream(
    ctx: &Context<'_>,
    exit: &Exit,
    index: &SigIndex,
    facts: &Facts,
    words: &[[AtomicU64; 2]],
) -> Result<(), TableError> {
    let n = ctx.n;
    let target = ctx.target(exit.sig);
    let back = crate::symmetry::pieces(n, crate::symmetry::inverse(n, target.unit));
    let stored = target.index;
    let chunks = stored.boards().div_ceil(CHUNK);
    (0..chunks).into_par_iter().try_for_each(|k| {
        let mut queue = Vec::with_capacity(2 * QUEUE);
        for (rank, board) in stored.walk(k * CHUNK..(k + 1) * CHUNK) {
            let board =
                if target.unit == 1 { board } else { crate::symmetry::board(n, back, &board) };
            let place = Place { target, rank };
            // Each node of the child board is read once, for all the
            // parents' previous plies.
            let mut nodes = [None; 2];
            parents(n, exit.kind, &board, &mut |parent| {
                let at = index.rank(&parent.board[..usize::from(n)]) as usize;
                for &(side, child_side) in &parent.movers[..parent.sides] {
                    if facts.ended[side.index()] {
                        continue;
                    }
                    let node = match nodes[child_side.index()] {
                        Some(node) => node,
                        None => *nodes[child_side.index()].insert(ctx.scores(&place, child_side)?),
                    };
                    let child = node.score(target.last(parent.last), ctx.rule);
                    let score = Score::from_child(child, child_side == side);
                    let side = side.index();
                    crate::table::mmap::prefetch(&words[at][side]);
                    queue.push(Queued {
                        at,
                        side,
                        score,
                        piece: parent.piece,
                        board: parent.board,
                    });
                }
                Ok(())
            })?;
            if queue.len() >= QUEUE {
                flush(words, &mut queue);
            }
        }
        flush(words, &mut queue);
        Ok(())
    })
}

/// Offers an exit worth `score` by a walk of `piece` (0: a placement) to
/// a node's word ([`offered`]).
#[inline]
fn offer(word: &AtomicU64, score: Score, piece: u8, slot_of: impl Fn(u8) -> u8) {
    let mut old = word.load(Ordering::Relaxed);
    loop {
        let new = offered(old, score, piece, &slot_of);
        if new == old {
            return;
        }
        match word.compare_exchange_weak(old, new, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return,
            Err(now) => old = now,
        }
    }
}
