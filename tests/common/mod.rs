//! Positions for the tests: every opening, every state, random positions.

#![allow(dead_code)]

pub mod bin;
pub mod schema;
pub mod server;

use chaosclock::{Last, Position, Side};

/// Every derangement of 1..=n (the openings, 乙 to move).
pub fn openings(n: u8) -> Vec<Position> {
    fn extend(n: u8, board: &mut Vec<i64>, used: u16, out: &mut Vec<Position>) {
        let slot = board.len() as i64 + 1;
        if slot > i64::from(n) {
            out.push(Position::new(board, Side::Yi, Last::None).unwrap());
            return;
        }
        for p in 1..=i64::from(n) {
            if p != slot && used & 1 << p == 0 {
                board.push(p);
                extend(n, board, used | 1 << p, out);
                board.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(n, &mut Vec::new(), 0, &mut out);
    out
}

/// Every consistent state of an `n`-slot board that is not a double pass.
pub fn all_states(n: u8) -> Vec<Position> {
    fn boards(n: u8, board: &mut Vec<i64>, used: u16, out: &mut Vec<Vec<i64>>) {
        if board.len() == n as usize {
            out.push(board.clone());
            return;
        }
        for p in 0..=i64::from(n) {
            if p == 0 || used & 1 << p == 0 {
                board.push(p);
                boards(n, board, used | if p == 0 { 0 } else { 1 << p }, out);
                board.pop();
            }
        }
    }
    let mut all = Vec::new();
    boards(n, &mut Vec::new(), 0, &mut all);
    let mut out = Vec::new();
    for board in &all {
        for side in Side::ALL {
            let lasts = [Last::None, Last::Pass].into_iter().chain((1..=n).map(Last::Piece));
            for last in lasts {
                if let Ok(p) = Position::new(board, side, last) {
                    // A last piece that reads as none is the same state.
                    if p.last() == last {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

/// A small xorshift generator: the same positions every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, k: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % k
    }
}

/// A random consistent position with `fixed` fixed pieces, the other
/// pieces on random free slots or in hand.
pub fn random_position(rng: &mut Rng, n: u8, fixed: usize) -> Position {
    loop {
        let mut pieces: Vec<u8> = (1..=n).collect();
        for i in (1..pieces.len()).rev() {
            pieces.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut board = vec![0i64; n as usize];
        for &p in &pieces[..fixed] {
            board[p as usize - 1] = i64::from(p);
        }
        for &p in &pieces[fixed..] {
            if rng.below(4) == 0 {
                continue; // in hand
            }
            let free: Vec<usize> =
                (0..n as usize).filter(|&i| board[i] == 0 && i + 1 != p as usize).collect();
            if !free.is_empty() {
                board[free[rng.below(free.len() as u64) as usize]] = i64::from(p);
            }
        }
        let side = if rng.below(2) == 0 { Side::Jia } else { Side::Yi };
        let last = match rng.below(4) {
            0 => Last::Pass,
            1 => Last::Piece(1 + rng.below(u64::from(n)) as u8),
            _ => Last::None,
        };
        if let Ok(p) = Position::new(&board, side, last) {
            return p;
        }
    }
}

/// The files of a directory, sorted by name, with their bytes.
pub fn files_in(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("the directory exists")
        .map(|e| {
            let e = e.expect("a directory entry");
            (e.file_name().into_string().expect("UTF-8 name"), std::fs::read(e.path()).unwrap())
        })
        .collect();
    all.sort();
    all
}

/// Converts the complete `n`-slot tables with depths (record encoding 1)
/// under the tables root `from` into encoding 4 under `to`, with side
/// files (乙's depth records) if `sides`.
pub fn convert_tables(
    from: &std::path::Path,
    to: &std::path::Path,
    n: u8,
    rule: chaosclock::PassRule,
    sides: bool,
) {
    use chaosclock::internals::convert::{convert_file, convert_side};
    use chaosclock::table::{Tablebase, fixed_sets};
    let (from, to) = (Tablebase::new(from, n, rule), Tablebase::new(to, n, rule));
    std::fs::create_dir_all(to.dir()).unwrap();
    from.load_all().unwrap();
    for f in fixed_sets(n, n) {
        convert_file(from.file(f).unwrap(), &to.path(f)).unwrap();
        if sides {
            let path = to.dir().join(format!("f{f:04x}.side.cctb"));
            convert_side(from.file(f).unwrap(), &path, Side::Yi).unwrap();
        }
    }
}

/// The openings of each value code 0..=4 that a manifest of `tables/`
/// gives (`name`, e.g. `tables/n12-when-stuck.json`).
pub fn manifest_counts(name: &str) -> [u64; 5] {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    let text = std::fs::read_to_string(path).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    std::array::from_fn(|c| manifest["openings"][c.to_string()].as_u64().unwrap())
}
