//! Scoring moves, one way for every source of scores: each legal move of a
//! position with the score it gives the mover, best first
//! ([`scored_moves`]), and a line of best play ([`best_line`]).
//!
//! A source ([`ScoreSource`]) is anything that knows the score of the
//! positions it is asked about: a solution in memory
//! ([`crate::solve::Solution`]) or the tables ([`crate::table::Tablebase`],
//! see [`crate::probe`]).

use std::collections::{HashMap, VecDeque};

use crate::moves::{Move, PassRule};
use crate::position::Position;
use crate::score::Score;
use crate::signature::signature;
use crate::value::Value;

/// A legal move with the state it leads to and its score for the mover.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// The position it leads to.
    pub child: Position,
    /// Its score from the mover's view (depth counts this move).
    pub score: Score,
}

impl ScoredMove {
    /// The move `mv` leading to `child`, scored `score` for the mover.
    pub fn new(mv: Move, child: Position, score: Score) -> ScoredMove {
        ScoredMove { mv, child, score }
    }
}

/// Something that knows the score of positions.
pub trait ScoreSource {
    /// Why a score is not known (a state the source does not hold, a
    /// missing or damaged table).
    type Error;

    /// The pass rule the scores are for.
    fn rule(&self) -> PassRule;

    /// The score of `pos` from its side to move's view.
    ///
    /// # Errors
    /// The source does not know `pos`.
    fn score(&self, pos: &Position) -> Result<Score, Self::Error>;

    /// The value of `pos` where the source knows it at less cost than its
    /// score (tables that derive some scores from their children); `None`
    /// otherwise. Never another value than [`ScoreSource::score`]'s.
    ///
    /// # Errors
    /// The source does not know `pos`.
    fn cheap_value(&self, _pos: &Position) -> Result<Option<Value>, Self::Error> {
        Ok(None)
    }

    /// Whether the score of `pos` is `target`: never another answer than
    /// `score(pos)? == target`, at less cost where the source can (tables
    /// that derive a score stop at the first child that beats `target`).
    ///
    /// # Errors
    /// The source does not know `pos`.
    fn score_is(&self, pos: &Position, target: Score) -> Result<bool, Self::Error> {
        Ok(self.score(pos)? == target)
    }
}

/// Every legal move of `pos` with its score for the mover, best first
/// (stable among equals, in move order).
///
/// # Errors
/// The source does not know a child of `pos`.
pub fn scored_moves<S: ScoreSource + ?Sized>(
    source: &S,
    pos: &Position,
) -> Result<Vec<ScoredMove>, S::Error> {
    let mut out = Vec::new();
    for &mv in pos.legal_moves(source.rule()).iter() {
        let child = pos.play_unchecked(mv);
        let score = Score::from_child(source.score(&child)?, child.side() == pos.side());
        out.push(ScoredMove { mv, child, score });
    }
    out.sort_by_key(|m| std::cmp::Reverse(m.score));
    Ok(out)
}

/// A line of best play from `pos`: at each position, the first move (in
/// move order) whose score is the score of the position, which is the best
/// move [`scored_moves`] lists first when the source is consistent (as
/// every source with depths is). Each such move lowers the depth by one,
/// so the line ends, and it reaches the end of the game unless the source
/// disagrees with itself. Empty for a finished game and for a no-result
/// position, which has no end. For scores without depths (tables of
/// values only) see [`crate::probe::value_line`].
///
/// Children are scored only up to that move, those whose value
/// ([`ScoreSource::cheap_value`]) cannot keep the score are skipped, and
/// the others are asked whether they have the score needed
/// ([`ScoreSource::score_is`]) rather than for their score: with tables
/// that derive some scores from their children (encoding 4), every score
/// costs reads, and a derived child that falls short is rejected at its
/// first child that shows it.
///
/// # Errors
/// The source does not know a position on the way.
pub fn best_line<S: ScoreSource + ?Sized>(
    source: &S,
    pos: &Position,
) -> Result<Vec<Move>, S::Error> {
    let mut line = Vec::new();
    let mut cur = *pos;
    let mut score = source.score(pos)?;
    'line: while score.value != Value::NoResult && cur.outcome().is_none() {
        for &mv in cur.legal_moves(source.rule()).iter() {
            let child = cur.play_unchecked(mv);
            let same_side = child.side() == cur.side();
            if let Some(v) = source.cheap_value(&child)?
                && (if same_side { v } else { v.flip() }) != score.value
            {
                continue; // cannot keep the score
            }
            let Some(child_score) = score.to_child(same_side) else { continue };
            if source.score_is(&child, child_score)? {
                line.push(mv);
                (cur, score) = (child, child_score);
                continue 'line;
            }
        }
        break;
    }
    Ok(line)
}

/// The most states [`value_line`] looks at in one signature before it
/// gives up (a signature has at most a few times 1e9 states; the way out
/// is almost always a few plies away).
const SEARCH_LIMIT: usize = 1 << 20;

/// A line of play from `pos` to the end of the game in which every move
/// keeps the value of the position it is played in, from a source of
/// values without depths (tables of values only, or a solve that read
/// them); empty for no-result.
///
/// Such moves may go round in circles inside a signature, so the line is
/// built a signature at a time: a breadth-first search over the moves that
/// keep the value finds the nearest one that ends the game or leaves the
/// signature, and that path is played. Signatures are never re-entered
/// (`docs/architecture.md`), so the line ends. A way out always exists: a
/// forced win is won in finitely many plies whatever the loser plays, and
/// a both-win or both-lose value means that end is reachable through
/// states of the same value (`docs/rules.md`). It is a line that keeps the
/// value, not the shortest one: that needs depths.
///
/// # Errors
/// The source does not know a position on the way; inside, [`NoWayOut`]
/// (a source that disagrees with itself).
pub(crate) fn value_line<S: ScoreSource + ?Sized>(
    source: &S,
    pos: &Position,
) -> Result<Result<Vec<Move>, NoWayOut>, S::Error> {
    let mut line = Vec::new();
    let mut cur = *pos;
    if source.score(pos)?.value == Value::NoResult {
        return Ok(Ok(line));
    }
    while cur.outcome().is_none() {
        let sig = signature(&cur);
        // Per state reached, the state and move it was reached by.
        let mut from: HashMap<Position, (Position, Move)> = HashMap::new();
        let mut queue = VecDeque::from([cur]);
        let (mut at, out, next) = 'search: loop {
            let Some(p) = queue.pop_front() else {
                return Ok(Err(NoWayOut(format!(
                    "no move that keeps the value leads out of the signature of {cur}"
                ))));
            };
            // Children are looked up one by one, up to the first way out.
            let value = source.score(&p)?.value;
            for &mv in p.legal_moves(source.rule()).iter() {
                let child = p.play_unchecked(mv);
                let moved = Score::from_child(source.score(&child)?, child.side() == p.side());
                if moved.value != value {
                    continue;
                }
                if child.outcome().is_some() || signature(&child) != sig {
                    break 'search (p, mv, child);
                }
                if child != cur && !from.contains_key(&child) {
                    from.insert(child, (p, mv));
                    queue.push_back(child);
                }
            }
            if from.len() > SEARCH_LIMIT {
                return Ok(Err(NoWayOut(format!(
                    "no way out of the signature of {cur} within {SEARCH_LIMIT} states"
                ))));
            }
        };
        let mut path = vec![out];
        while at != cur {
            let (p, mv) = from[&at];
            path.push(mv);
            at = p;
        }
        line.extend(path.iter().rev());
        cur = next;
    }
    Ok(Ok(line))
}

/// Why [`value_line`] found no line: no move that keeps the value leads
/// out of a signature, which only a source that disagrees with itself gives.
#[derive(Debug)]
pub(crate) struct NoWayOut(pub(crate) String);
