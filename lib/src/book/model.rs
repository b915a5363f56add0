//! The model of the openings book: how a value becomes bits, and the
//! context that picks each bit's probability.
//!
//! A value is coded as at most four yes/no questions, the likeliest first
//! (12 slots: 48% both-win, 45% self-lose, 7% self-win, 0.05% both-lose):
//! is it 3 共赢? else 1 己输? else 4 己赢? else 2 同输 (or 0 无果)?
//!
//! Each question's probability depends on a context made of what a
//! decoder knows before it decodes the value: the value of the opening
//! coded just before in the same block (or none at a block's start) and
//! two cheap features of the board, measured on the complete 10-slot
//! openings (docs/book.md): the number of 乙's pieces on odd slots (such a
//! piece never walks home) and whose is the piece on slot N, the one piece
//! of an opening that can fix itself at once (piece p on slot N walks p
//! slots, onto slot p).
//!
//! The probabilities are counted over the whole book section and stored in
//! it, so they fit the data exactly and every block decodes on its own.

use crate::book::coder::{PROB_BITS, PROB_ONE};
use crate::value::Value;

/// Questions a value needs at most.
pub const QUESTIONS: usize = 4;

/// The values asked about, in order: the answer "yes" to question i is
/// `ASKED[i]`; a value that is none of them is 0 无果.
const ASKED: [Value; QUESTIONS] =
    [Value::BothWin, Value::SelfLose, Value::SelfWin, Value::BothLose];

/// Values of the previous opening in a block: the five codes and "none".
const PREVIOUS: usize = 6;

/// Groups of the count of 乙's pieces on odd slots (0..=6 for 12 slots).
const ODD: usize = 7;

/// The number of contexts (each fits in a byte while the book is built).
pub const CONTEXTS: usize = PREVIOUS * ODD * 2;
const _: () = assert!(CONTEXTS <= 256);

/// The answers (yes = false bit) to the questions for `value`, with how
/// many are asked.
pub fn questions(value: Value) -> ([bool; QUESTIONS], usize) {
    let mut bits = [true; QUESTIONS];
    for (i, &asked) in ASKED.iter().enumerate() {
        if value == asked {
            bits[i] = false;
            return (bits, i + 1);
        }
    }
    (bits, QUESTIONS)
}

/// The value whose first `i + 1` answers are `bits[..=i]`, once the
/// answer to question i is yes (a false bit), or after the last question.
pub fn answer(i: usize, bit: bool) -> Option<Value> {
    match (bit, i) {
        (false, _) => Some(ASKED[i]),
        (true, i) if i + 1 == QUESTIONS => Some(Value::NoResult),
        _ => None,
    }
}

/// The context of an opening: `board` holds the piece of each slot, slot
/// 1 first (`n` entries), and `previous` the value coded just before in
/// its block.
pub fn context(board: &[u8], previous: Option<Value>) -> usize {
    let n = board.len();
    let odd = board.iter().step_by(2).filter(|&&p| p % 2 == 0).count().min(ODD - 1);
    // Piece p on slot n lands on slot p and fixes itself.
    let top = usize::from(board[n - 1].is_multiple_of(2));
    let prev = previous.map_or(PREVIOUS - 1, |v| usize::from(v.code()));
    (prev * ODD + odd) * 2 + top
}

/// The probability of a 0 bit ("yes") for each question in each context,
/// counted from the data, as stored in the book: `probs[c * QUESTIONS + i]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probabilities(pub Vec<u16>);

/// Counts of yes and no per question and context.
#[derive(Debug, Clone)]
pub struct Counts(Vec<[u64; 2]>);

impl Default for Counts {
    fn default() -> Self {
        Counts(vec![[0; 2]; CONTEXTS * QUESTIONS])
    }
}

impl Counts {
    /// Counts the questions of `value` in context `ctx`.
    pub fn add(&mut self, ctx: usize, value: Value) {
        let (bits, asked) = questions(value);
        for (i, &bit) in bits[..asked].iter().enumerate() {
            self.0[ctx * QUESTIONS + i][usize::from(bit)] += 1;
        }
    }

    /// The probabilities that code these counts best, kept in
    /// `1..PROB_ONE` so that every bit stays codable.
    pub fn probabilities(&self) -> Probabilities {
        let one = u64::from(PROB_ONE);
        let probs = self
            .0
            .iter()
            .map(|&[yes, no]| {
                let total = yes + no;
                if total == 0 {
                    return PROB_ONE / 2;
                }
                let p = (yes << PROB_BITS) + total / 2;
                (p / total).clamp(1, one - 1) as u16
            })
            .collect();
        Probabilities(probs)
    }
}

impl Probabilities {
    /// The probability of "yes" to question `i` in context `ctx`.
    #[inline]
    pub fn get(&self, ctx: usize, i: usize) -> u16 {
        self.0[ctx * QUESTIONS + i]
    }

    /// Whether every probability can code a bit (read from a file).
    pub fn is_valid(&self) -> bool {
        self.0.len() == CONTEXTS * QUESTIONS && self.0.iter().all(|&p| p > 0 && p < PROB_ONE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_and_answers_agree() {
        for v in Value::ALL {
            let (bits, asked) = questions(v);
            let got = (0..asked).find_map(|i| answer(i, bits[i]));
            assert_eq!(got, Some(v), "{v:?}");
            assert!((0..asked - 1).all(|i| answer(i, bits[i]).is_none()));
        }
    }

    #[test]
    fn contexts_are_in_range() {
        let board = [12u8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
        for prev in [None, Some(Value::SelfWin), Some(Value::NoResult)] {
            assert!(context(&board, prev) < CONTEXTS);
        }
        assert!(context(&[2, 1, 4, 3], None) < CONTEXTS);
    }
}
