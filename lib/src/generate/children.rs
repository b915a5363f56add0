//! The children of a sub-table being solved that lie outside it: where
//! each is stored (a file written before, or an earlier sub-table of the
//! file being written) and its score read there, one node's children at a
//! time ([`read_moves`]).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::generate::compact::{Boards, Moves};
use crate::generate::unfinished::Unfinished;
use crate::index::SigIndex;
use crate::moves::PassRule;
use crate::position::{Last, MAX_SLOTS, Position};
use crate::score::Score;
use crate::side::Side;
use crate::signature::SigKey;
use crate::solve::{Child, NodeMoves, node_key};
use crate::table::coded::NodeScores;
use crate::table::derive::rederive;
use crate::table::format::{free_pieces, sub_index};
use crate::table::{TableError, TableFile, Tablebase};

/// What solving a sub-table reads.
pub(super) struct Context<'a> {
    pub(super) n: u8,
    pub(super) rule: PassRule,
    pub(super) fixed: u16,
    pub(super) free: u16,
    pub(super) tb: &'a Tablebase,
    /// The board index of each sub-table of the file.
    pub(super) indexes: &'a [SigIndex],
    /// The file being written: its sub-tables with fewer loose pieces.
    pub(super) file: &'a Unfinished,
    /// [`Limits::by_levels`](crate::generate::Limits::by_levels).
    pub(super) by_levels: usize,
    /// [`Limits::release_nodes`](crate::generate::Limits::release_nodes).
    pub(super) release_nodes: u64,
    /// [`Limits::stream`](crate::generate::Limits::stream).
    pub(super) stream: bool,
}

/// Where a child outside the sub-table is stored: the file, the sub-table,
/// the rank of its board there and the unit that maps the child onto it.
///
/// The two nodes of a board (one per side to move) have the same walks,
/// and a walk's child board does not depend on who walks: only the side of
/// the child differs. So a walk's place is found once per board.
#[derive(Debug, Clone, Copy)]
pub(super) struct Place<'a> {
    pub(super) target: Target<'a>,
    pub(super) rank: u64,
}

/// Where the children of one signature are stored: the file, the
/// sub-table and its board index, and the unit that maps the children
/// onto it (with its images of the pieces).
#[derive(Debug, Clone, Copy)]
pub(super) struct Target<'a> {
    sig: SigKey,
    /// `None`: the file being written; else an earlier one.
    file: Option<&'a TableFile>,
    /// The earlier file's side file, if it has one (encoding 4): where its
    /// 乙 nodes are read.
    side: Option<&'a TableFile>,
    sub: usize,
    pub(super) index: &'a SigIndex,
    pub(super) unit: u8,
    pieces: &'static [u8; 13],
}

impl<'a> Context<'a> {
    /// Once a sub-table of `nodes` nodes has read all its children: lets
    /// go of what the reads kept ([`Limits::release_nodes`](crate::generate::Limits::release_nodes)).
    pub(super) fn read_all(&self, nodes: u64) {
        if nodes > self.release_nodes {
            self.tb.forget_models();
            self.tb.block_cache().empty();
        }
    }

    /// Where the children of signature `sig` (outside the sub-table) are
    /// stored.
    pub(super) fn target(&self, sig: SigKey) -> Target<'a> {
        let (unit, stored) = crate::symmetry::canonical(self.n, sig);
        let pieces = crate::symmetry::pieces(self.n, unit);
        let fixed = stored.fixed();
        if fixed == self.fixed {
            // The same file: a sub-table with fewer loose pieces, or the
            // image of one under a unit that maps this fixed set onto
            // itself.
            let sub = sub_index(self.free, stored.loose());
            let index = &self.indexes[sub];
            return Target { sig, file: None, side: None, sub, index, unit, pieces };
        }
        let file = self.tb.file(fixed).expect("files with more fixed pieces come first");
        let side = self.tb.side_file(fixed);
        let sub = sub_index(free_pieces(self.n, fixed), stored.loose());
        Target { sig, file: Some(file), side, sub, index: file.board_index(sub), unit, pieces }
    }

    /// The score (mover's view) of the child at `place` whose side to move
    /// is `side` and whose previous ply is `last` (before the map).
    pub(super) fn read(
        &self,
        place: &Place<'_>,
        side: Side,
        last: Last,
    ) -> Result<Score, TableError> {
        Ok(self.scores(place, side)?.score(place.target.last(last), self.rule))
    }

    /// The scores of every state of the child node at `place` whose side
    /// to move is `side`, read once; its state with previous ply `last`
    /// (before the map) has the score of [`Target::last`]`(last)`.
    pub(super) fn scores(&self, place: &Place<'_>, side: Side) -> Result<NodeScores, TableError> {
        let node = place.rank * 2 + side.index() as u64;
        let target = &place.target;
        match (target.file, target.side) {
            (None, _) => self.file.scores(target.sub, node),
            (Some(_), Some(side)) if side.stored_side() == Some(Side::of_node(node)) => {
                side.scores(target.sub, node)
            }
            // Encoding 4 without its side file (removed, or damaged):
            // 乙's node from its children, as queries do.
            (Some(file), None) if file.stored_side().is_some_and(|s| s != Side::of_node(node)) => {
                let board = target.index.unrank(place.rank);
                let pos =
                    Position { n: self.n, board, side: Side::of_node(node), last: Last::None };
                Ok(NodeScores::Summary(rederive(self.tb, &pos)?))
            }
            (Some(file), _) => file.scores(target.sub, node),
        }
    }
}

impl Target<'_> {
    /// The previous ply `last` of a child mapped as the child is onto
    /// where it is stored.
    #[inline]
    pub(super) fn last(&self, last: Last) -> Last {
        match last {
            Last::Piece(p) => Last::Piece(self.pieces[usize::from(p)]),
            other => other,
        }
    }
}

/// Targets one worker has looked up lately, by signature.
const TARGETS: usize = 64;

/// The places of the walks of the board last seen by one worker
/// ([`Place`]), the targets it looked up lately ([`Target`]), and room for
/// the places of one node's exits.
struct Walks<'a> {
    board: usize,
    /// The walks (bit p) whose entry of `places` is the board's.
    known: u16,
    places: [Option<Place<'a>>; MAX_SLOTS as usize + 1],
    targets: [Option<Target<'a>>; TARGETS],
    exits: Vec<Place<'a>>,
}

impl<'a> Walks<'a> {
    fn new() -> Walks<'a> {
        Walks {
            board: usize::MAX,
            known: 0,
            places: [None; MAX_SLOTS as usize + 1],
            targets: [None; TARGETS],
            exits: Vec::new(),
        }
    }

    /// Where child `c` (outside the sub-table) is stored.
    fn locate(&mut self, ctx: &Context<'a>, c: &Child) -> Place<'a> {
        let slot =
            (c.sig.bits().wrapping_mul(0x9E37_79B9) >> (32 - TARGETS.trailing_zeros())) as usize;
        let target = match self.targets[slot] {
            Some(t) if t.sig == c.sig => t,
            _ => *self.targets[slot].insert(ctx.target(c.sig)),
        };
        let rank = if target.unit == 1 {
            target.index.rank(c.pos.board())
        } else {
            target.index.rank(crate::symmetry::position(&c.pos, target.unit).board())
        };
        Place { target, rank }
    }

    /// Where child `c` of a node of board `board` is stored.
    fn place(&mut self, ctx: &Context<'a>, board: usize, c: &Child) -> Place<'a> {
        if self.board != board {
            self.board = board;
            self.known = 0;
        }
        match c.mv {
            crate::Move::Walk(p) => match self.places[usize::from(p)] {
                Some(place) if self.known & 1 << p != 0 => place,
                _ => {
                    let place = self.locate(ctx, c);
                    self.known |= 1 << p;
                    *self.places[usize::from(p)].insert(place)
                }
            },
            _ => self.locate(ctx, c),
        }
    }

    /// The scores of `children` (outside the sub-table) of a node of board
    /// `board`, into `out`. Every place is found before any record is
    /// read, so that the reads (cache misses, mostly) overlap.
    fn exits(
        &mut self,
        ctx: &Context<'a>,
        board: usize,
        children: &[Child],
        out: &mut [Score],
    ) -> Result<(), TableError> {
        let mut exits = std::mem::take(&mut self.exits);
        exits.clear();
        for c in children {
            exits.push(self.place(ctx, board, c));
        }
        for ((place, c), o) in exits.iter().zip(children).zip(out.iter_mut()) {
            *o = ctx.read(place, c.pos.side, c.pos.last)?;
        }
        self.exits = exits;
        Ok(())
    }
}

/// The moves of every board of the sub-table `sig`, each child outside it
/// read where it is stored, node by node, kept as `M`.
pub(super) fn read_moves<M: Moves>(
    ctx: &Context<'_>,
    sig: SigKey,
    _: &SigIndex,
    boards: &Boards,
) -> Result<Vec<M>, TableError> {
    let node_at = |node: usize| {
        let side = Side::of_node(node as u64);
        Position { n: ctx.n, board: boards.get(node / 2), side, last: Last::None }
    };
    // Collected straight into their vector, its length known: collected
    // through a `Result`, rayon gathers pieces and then copies them into
    // one vector: with mimalloc, for a moment twice the moves' memory
    // (4.6 GB instead of 2.3 for the largest 12-slot sub-table; measured
    // in docs/depths.md). So an error is set aside, and
    // once there is one the other boards read no more children.
    let failed: Mutex<Option<TableError>> = Mutex::new(None);
    let stop = AtomicBool::new(false);
    let moves: Vec<M> = (0..boards.len())
        .into_par_iter()
        .map_init(Walks::new, |walks, board| {
            let m = [0, 1].map(|side| {
                let pos = node_at(2 * board + side);
                NodeMoves::new(&pos, sig, node_key(&pos), 0, |children, out| {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    if let Err(e) = walks.exits(ctx, board, children, out) {
                        stop.store(true, Ordering::Relaxed);
                        failed.lock().expect("no worker panicked").get_or_insert(e);
                    }
                })
            });
            M::keep([&m[0], &m[1]])
        })
        .collect();
    match failed.into_inner().expect("no worker panicked") {
        Some(e) => Err(e),
        None => Ok(moves),
    }
}
