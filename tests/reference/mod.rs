//! An independent, deliberately simple reference implementation of Chaos
//! Clock, written straight from RULES.md, for cross-checking the crate.
//!
//! It does not use the `chaosclock` crate at all: it has its own state type
//! ([`State`]: a `Vec<u8>` board, the side to move and the last ply), its own
//! parser and printer for the interchange format `b1,...,bN;side;last`, its
//! own move generation and its own solver. Everything favours being obviously
//! correct over being fast: positions are compared as printed text, the
//! solver keeps an explicit list of states and iterates whole-set sweeps to a
//! fixed point.
//!
//! Decision for states that cannot arise in play: when `last` is -2 (two
//! consecutive passes) the game has already ended both-lose, even if the side
//! to move happens to be complete (RULES.md: "Two consecutive passes end the
//! game"). Such a board can only come from a parsed position; in play, both
//! sides are incomplete after two passes.

#![allow(dead_code)]

use std::collections::HashMap;
use std::fmt;

/// The board sizes the reference supports.
const SIZES: [usize; 5] = [4, 6, 8, 10, 12];

/// 甲 (Jia), owner of the odd pieces; `0` in the interchange format.
const JIA: u8 = 0;
/// 乙 (Yi), owner of the even pieces; `1` in the interchange format.
const YI: u8 = 1;

/// `last` value: no restriction.
const LAST_NONE: i32 = 0;
/// `last` value: the previous ply was a pass.
const LAST_PASS: i32 = -1;
/// `last` value: the previous two plies were passes (game over, both lose).
const LAST_DOUBLE_PASS: i32 = -2;

/// A state: (board, side to move, last) of RULES.md "The state that matters".
///
/// Invariant (established by [`parse`] and kept by [`moves`]): `last` is
/// -2, -1, 0 or a piece that stands on the board, is not fixed, and whose
/// origin slot is empty.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct State {
    /// `board[i]` is the piece on slot `i + 1`, 0 if the slot is empty.
    board: Vec<u8>,
    /// [`JIA`] or [`YI`].
    side: u8,
    /// 0 none, -1 pass, -2 double pass, m > 0: piece m walked on the last ply.
    last: i32,
}

/// How a game has ended (RULES.md, "End of the game").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// The side to move is complete, the other side is not.
    MoverWins,
    /// Both sides are complete.
    BothWin,
    /// Two consecutive passes.
    BothLose,
}

/// The owner of a piece: odd pieces are 甲's, even pieces 乙's.
fn owner(piece: u8) -> u8 {
    if piece % 2 == 1 { JIA } else { YI }
}

/// The slot (1-based) a piece reaches walking `piece` slots clockwise from
/// `slot` on an `n`-slot board.
fn walk_target(n: usize, slot: usize, piece: u8) -> usize {
    (slot - 1 + piece as usize) % n + 1
}

impl State {
    /// Number of slots (and pieces).
    fn n(&self) -> usize {
        self.board.len()
    }

    /// The slot (1-based) holding `piece`, if it is on the board.
    fn slot_of(&self, piece: u8) -> Option<usize> {
        self.board.iter().position(|&p| p == piece).map(|i| i + 1)
    }

    /// Whether piece `piece` stands on its own slot.
    fn is_fixed(&self, piece: u8) -> bool {
        self.board[piece as usize - 1] == piece
    }

    /// Whether every piece of `side` is fixed.
    fn is_complete(&self, side: u8) -> bool {
        (1..=self.n() as u8).filter(|&p| owner(p) == side).all(|p| self.is_fixed(p))
    }

    /// How the game has ended, checked at the start of a ply.
    fn ending(&self) -> Option<Ending> {
        if self.last == LAST_DOUBLE_PASS {
            return Some(Ending::BothLose);
        }
        if !self.is_complete(self.side) {
            return None;
        }
        if self.is_complete(1 - self.side) {
            Some(Ending::BothWin)
        } else {
            Some(Ending::MoverWins)
        }
    }
}

impl fmt::Display for State {
    /// The canonical interchange text: always all three parts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board: Vec<String> = self.board.iter().map(|p| p.to_string()).collect();
        write!(f, "{};{};{}", board.join(","), self.side, self.last)
    }
}

/// Parses the interchange format `b1,...,bN;side;last` (`;side;last` and
/// `;last` optional: 乙 to move, no last ply).
///
/// A last piece that is fixed or off the board reads as none; a last piece
/// whose origin slot is occupied is rejected.
fn parse(text: &str) -> Result<State, String> {
    let parts: Vec<&str> = text.trim().split(';').map(str::trim).collect();
    if parts.len() > 3 {
        return Err(format!("too many ';' parts in '{text}'"));
    }
    // Board.
    let mut board = Vec::new();
    for entry in parts[0].split(',') {
        let p: i64 =
            entry.trim().parse().map_err(|_| format!("board entry '{entry}' is not a number"))?;
        board.push(p);
    }
    let n = board.len();
    if !SIZES.contains(&n) {
        return Err(format!("unsupported board size {n}"));
    }
    let mut seen = vec![false; n + 1];
    for &p in &board {
        if p < 0 || p > n as i64 {
            return Err(format!("piece {p} out of range"));
        }
        if p > 0 {
            if seen[p as usize] {
                return Err(format!("piece {p} appears twice"));
            }
            seen[p as usize] = true;
        }
    }
    let board: Vec<u8> = board.into_iter().map(|p| p as u8).collect();
    // Side.
    let side = match parts.get(1) {
        None | Some(&"1") => YI,
        Some(&"0") => JIA,
        Some(other) => return Err(format!("bad side '{other}'")),
    };
    // Last.
    let last: i64 = match parts.get(2) {
        None => 0,
        Some(t) => t.parse().map_err(|_| format!("last '{t}' is not a number"))?,
    };
    if last < -2 || last > n as i64 {
        return Err(format!("last {last} out of range"));
    }
    let mut state = State { board, side, last: last as i32 };
    if last > 0 {
        let m = last as u8;
        match state.slot_of(m) {
            Some(slot) if slot != m as usize => {
                // The slot m came from: the one from which a walk of m lands here.
                let origin = (1..=n)
                    .find(|&o| walk_target(n, o, m) == slot)
                    .expect("every slot has an origin");
                if state.board[origin - 1] != 0 {
                    return Err(format!("piece {m} cannot have walked: slot {origin} is full"));
                }
            }
            // Fixed or off the board: restricts nothing.
            _ => state.last = LAST_NONE,
        }
    }
    Ok(state)
}

/// Every legal move of `state` as (move text, resulting state), following
/// RULES.md "A ply" literally. Empty when the game is over.
fn moves(state: &State, when_stuck: bool) -> Vec<(String, State)> {
    if state.ending().is_some() {
        return Vec::new();
    }
    let n = state.n();
    let other = 1 - state.side;
    let mut out = Vec::new();

    // Walks: any non-fixed piece of either colour, except the one walked on
    // the previous ply, moves its own number of slots clockwise.
    for slot in 1..=n {
        let p = state.board[slot - 1];
        if p == 0 || state.is_fixed(p) || i32::from(p) == state.last {
            continue;
        }
        // Piece N comes back to its own slot (which holds itself, not fixed).
        let target = walk_target(n, slot, p);
        if state.board[target - 1] == target as u8 {
            continue; // the target holds a fixed piece
        }
        let mut board = state.board.clone();
        board[slot - 1] = 0;
        let last = if p as usize == n {
            // A full circle: piece N leaves the board for its owner's hand.
            LAST_NONE
        } else {
            // Whatever stood on the target goes to its owner's hand, i.e.
            // off the board.
            board[target - 1] = p;
            if target == p as usize {
                LAST_NONE // it became fixed
            } else {
                i32::from(p)
            }
        };
        let next = State { board, side: other, last };
        out.push((p.to_string(), next));
    }

    // Placements: a piece from the mover's hand onto its own slot. Capturing
    // an opponent's piece gives the mover another ply.
    for p in 1..=n as u8 {
        if owner(p) != state.side || state.slot_of(p).is_some() {
            continue;
        }
        let captured = state.board[p as usize - 1];
        let mut board = state.board.clone();
        board[p as usize - 1] = p;
        let extra = captured != 0 && owner(captured) != state.side;
        let next = State { board, side: if extra { state.side } else { other }, last: LAST_NONE };
        out.push((p.to_string(), next));
    }

    // Pass: always legal, or only when nothing else is under `when_stuck`.
    if !when_stuck || out.is_empty() {
        let last = if state.last == LAST_PASS { LAST_DOUBLE_PASS } else { LAST_PASS };
        let next = State { board: state.board.clone(), side: other, last };
        out.push(("pass".to_string(), next));
    }
    out
}

/// Every legal move of the position `pos` (interchange format) as (move
/// text, resulting position in canonical text). Move text is the piece
/// number (walk or placement) or `pass`. Empty when the game is over.
///
/// With `when_stuck`, a pass is legal only when no walk or placement is;
/// otherwise a pass is always legal.
///
/// # Errors
/// `pos` is not a valid position.
pub fn ref_moves(pos: &str, when_stuck: bool) -> Result<Vec<(String, String)>, String> {
    let state = parse(pos)?;
    Ok(moves(&state, when_stuck).into_iter().map(|(m, next)| (m, next.to_string())).collect())
}

/// Whether the state `pos` has a predecessor: a state where the game goes
/// on and from which one move (pass rule always) leads to `pos`. Only a
/// `last` that names the previous ply is checked: after a pass, the same
/// board with the other side to move; after a double pass, that state after
/// a pass, which needs a predecessor too; after a walk of piece m, the board
/// with m back on its origin slot and, on m's slot, nothing or any piece
/// that is off the board now (it was captured). With `last` 0 the answer is
/// yes (not checked).
///
/// # Errors
/// `pos` is not a valid position.
pub fn ref_has_predecessor(pos: &str) -> Result<bool, String> {
    Ok(has_predecessor(&parse(pos)?))
}

fn has_predecessor(state: &State) -> bool {
    let leads_here = |pred: &State| moves(pred, false).iter().any(|(_, next)| next == state);
    let before = |last: i32| State { board: state.board.clone(), side: 1 - state.side, last };
    match state.last {
        LAST_NONE => true,
        LAST_PASS => leads_here(&before(LAST_NONE)),
        LAST_DOUBLE_PASS => {
            let pred = before(LAST_PASS);
            leads_here(&pred) && has_predecessor(&pred)
        }
        m => {
            let (n, m) = (state.n(), m as u8);
            let slot = state.slot_of(m).expect("a last piece is on the board");
            let origin =
                (1..=n).find(|&o| walk_target(n, o, m) == slot).expect("every slot has an origin");
            let off_board = (1..=n as u8).filter(|&q| state.slot_of(q).is_none());
            std::iter::once(0).chain(off_board).any(|captured| {
                let mut pred = before(LAST_NONE);
                pred.board[slot - 1] = captured;
                pred.board[origin - 1] = m;
                leads_here(&pred)
            })
        }
    }
}

/// Preference rank of a value code for the side to move:
/// 4 self-win > 3 both-win > 2 both-lose > 0 no-result > 1 self-lose.
fn rank(value: u8) -> u8 {
    match value {
        4 => 4,
        3 => 3,
        2 => 2,
        0 => 1,
        1 => 0,
        _ => unreachable!("value codes are 0..=4"),
    }
}

/// Runs synchronous whole-set sweeps: starting from `level` (Some(0) for the
/// seeds), each sweep adds every undecided state `i` with `joins(i, level)`
/// true, judged on the levels of the previous sweeps only, at level k for
/// sweep k. Stops when a sweep adds nothing.
fn sweep_to_fixed_point(
    level: &mut [Option<u32>],
    mut joins: impl FnMut(usize, &[Option<u32>]) -> bool,
) {
    for k in 1.. {
        let new: Vec<usize> =
            (0..level.len()).filter(|&i| level[i].is_none() && joins(i, level)).collect();
        if new.is_empty() {
            break;
        }
        for i in new {
            level[i] = Some(k);
        }
    }
}

/// Solves every state reachable from `root` (interchange format): maps the
/// canonical text of each state (root and terminal states included) to its
/// value code (4 self-win, 3 both-win, 2 both-lose, 1 self-lose, 0
/// no-result, from the side to move's view) and its depth (plies to the end
/// under best play; `None` for no-result).
///
/// The values follow the two-layer definition of RULES.md "Values"
/// literally; the depths are: terminal 0; self-win 1 + the least depth of
/// the children that win for the mover; self-lose 1 + the greatest depth of
/// all children; both-win (both-lose) 1 + the least depth of the children of
/// value 3 (2).
///
/// # Panics
/// `root` is not a valid position, or one of the built-in consistency checks
/// fails (value = best child value, depth equations, disjoint win sets).
pub fn ref_solve(root: &str, when_stuck: bool) -> HashMap<String, (u8, Option<u32>)> {
    ref_solve_many(&[root], when_stuck)
}

/// [`ref_solve`] over the union of the states reachable from several roots.
#[allow(dead_code)]
pub fn ref_solve_many(roots: &[&str], when_stuck: bool) -> HashMap<String, (u8, Option<u32>)> {
    // Phase 1: enumerate the reachable states, breadth first: state i's
    // children are computed when the scan reaches i.
    let mut states: Vec<State> = Vec::new();
    let mut index: HashMap<State, usize> = HashMap::new();
    for root in roots {
        let root = parse(root).unwrap_or_else(|e| panic!("bad root '{root}': {e}"));
        index.entry(root.clone()).or_insert_with(|| {
            states.push(root);
            states.len() - 1
        });
    }
    let mut children: Vec<Vec<usize>> = Vec::new();
    while children.len() < states.len() {
        let i = children.len();
        let mut kids = Vec::new();
        for (_, next) in moves(&states[i], when_stuck) {
            let j = *index.entry(next.clone()).or_insert_with(|| {
                states.push(next);
                states.len() - 1
            });
            kids.push(j);
        }
        children.push(kids);
    }
    let count = states.len();
    let side: Vec<u8> = states.iter().map(|s| s.side).collect();
    let ending: Vec<Option<Ending>> = states.iter().map(State::ending).collect();
    for i in 0..count {
        assert_eq!(
            ending[i].is_some(),
            children[i].is_empty(),
            "{}: a state has moves exactly when the game is not over",
            states[i]
        );
    }

    // Phase 2 (layer 1): for each player w, the states from which w can
    // force "w wins" (the attractor of the terminals where w is to move and
    // wins). The level at which a state joins is its depth.
    let mut win: [Vec<Option<u32>>; 2] = [vec![None; count], vec![None; count]];
    for w in [JIA, YI] {
        let level = &mut win[w as usize];
        for i in 0..count {
            if ending[i] == Some(Ending::MoverWins) && side[i] == w {
                level[i] = Some(0);
            }
        }
        sweep_to_fixed_point(level, |i, level| {
            if ending[i].is_some() {
                return false;
            }
            let mut kids = children[i].iter().map(|&c| level[c].is_some());
            if side[i] == w {
                kids.any(|x| x) // w picks a move into the set
            } else {
                kids.all(|x| x) // every move of the opponent stays in the set
            }
        });
    }
    let in_layer1 = |i: usize| win[0][i].is_some() || win[1][i].is_some();
    for i in 0..count {
        assert!(
            win[0][i].is_none() || win[1][i].is_none(),
            "{}: in both sides' win sets",
            states[i]
        );
    }

    // Phase 3 (layer 2): among the other states, those from which a
    // both-win end is reachable (staying among them), then those from which
    // a both-lose end is. Breadth-first levels are the shortest paths.
    let mut both_win: Vec<Option<u32>> = vec![None; count];
    for i in 0..count {
        if ending[i] == Some(Ending::BothWin) {
            both_win[i] = Some(0);
        }
    }
    sweep_to_fixed_point(&mut both_win, |i, level| {
        ending[i].is_none() && !in_layer1(i) && children[i].iter().any(|&c| level[c].is_some())
    });
    let mut both_lose: Vec<Option<u32>> = vec![None; count];
    for i in 0..count {
        if ending[i] == Some(Ending::BothLose) {
            both_lose[i] = Some(0);
        }
    }
    sweep_to_fixed_point(&mut both_lose, |i, level| {
        ending[i].is_none()
            && !in_layer1(i)
            && both_win[i].is_none()
            && children[i].iter().any(|&c| level[c].is_some())
    });

    // Phase 4: the labels.
    let mut value = vec![0u8; count];
    let mut depth: Vec<Option<u32>> = vec![None; count];
    for i in 0..count {
        let (me, opp) = (side[i] as usize, 1 - side[i] as usize);
        (value[i], depth[i]) = match ending[i] {
            Some(Ending::MoverWins) => (4, Some(0)),
            Some(Ending::BothWin) => (3, Some(0)),
            Some(Ending::BothLose) => (2, Some(0)),
            None if win[me][i].is_some() => (4, win[me][i]),
            None if win[opp][i].is_some() => (1, win[opp][i]),
            None if both_win[i].is_some() => (3, both_win[i]),
            None if both_lose[i].is_some() => (2, both_lose[i]),
            None => (0, None),
        };
    }

    // Phase 5: check the labels against their one-ply characterisations.
    for i in 0..count {
        if ending[i].is_some() {
            continue;
        }
        // Each child's value seen from this state's mover.
        let seen = |c: usize| match value[c] {
            4 if side[c] != side[i] => 1,
            1 if side[c] != side[i] => 4,
            v => v,
        };
        let best = children[i]
            .iter()
            .map(|&c| seen(c))
            .max_by_key(|&v| rank(v))
            .expect("a state that is not over has a move");
        assert_eq!(value[i], best, "{}: value = best child", states[i]);
        // (seen value, own value, depth) of each child.
        let kids: Vec<(u8, u8, u32)> = children[i]
            .iter()
            .map(|&c| (seen(c), value[c], depth[c].unwrap_or(u32::MAX)))
            .collect();
        let expected = match value[i] {
            4 => kids.iter().filter(|k| k.0 == 4).map(|k| k.2).min(),
            1 => kids.iter().map(|k| k.2).max(),
            3 => kids.iter().filter(|k| k.1 == 3).map(|k| k.2).min(),
            2 => kids.iter().filter(|k| k.1 == 2).map(|k| k.2).min(),
            _ => None,
        };
        assert_eq!(
            depth[i],
            expected.map(|d| d.saturating_add(1)),
            "{}: depth equation",
            states[i]
        );
    }

    states.iter().enumerate().map(|(i, s)| (s.to_string(), (value[i], depth[i]))).collect()
}
