//! Damaged tables are never believed (issue 68): one bit flipped at seeded
//! random offsets across the files of an 8-slot table with depths, one
//! flip at a time; a file cut short; two files swapped.
//!
//! For each damage: `verify` exits 1 naming the file; `serve` (and `query`)
//! answers every position of a sample either exactly as from the intact
//! table, or with a typed error that names the damaged file (HTTP 500 with
//! a JSON error / exit 2), or from a solve in memory that says so
//! (`source` other than `tables`); never a different answer from the
//! tables. The seed is printed; `CHAOSCLOCK_FAULT_SEED=N` replays it. The
//! long form (10 slots, 1,000 flips) is the ignored test, run by
//! `scripts/faults.sh bits`.

mod common;

use std::path::{Path, PathBuf};

use common::bin::run_in;
use common::server::{Server, esc};
use common::{Rng, random_position};
use serde_json::Value as Json;

/// The seed of the flips: `CHAOSCLOCK_FAULT_SEED`, or the clock.
fn seed() -> u64 {
    let seed = std::env::var("CHAOSCLOCK_FAULT_SEED").ok().and_then(|s| s.parse().ok());
    let seed = seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
        now.as_nanos() as u64 % 1_000_000 + 1
    });
    eprintln!("flips from seed {seed} (CHAOSCLOCK_FAULT_SEED={seed} replays them)");
    seed
}

/// The table files of `dir`, sorted, with their sizes.
fn table_files(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut all: Vec<(PathBuf, u64)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cctb"))
        .map(|p| {
            let len = std::fs::metadata(&p).unwrap().len();
            (p, len)
        })
        .collect();
    all.sort();
    all
}

/// The tables made once, the sample of positions and their answers.
struct Intact {
    _dir: tempfile::TempDir,
    root: PathBuf,
    slots: u8,
    /// `--max-live K`, if the table is partial.
    max_live: Option<String>,
    positions: Vec<String>,
    answers: Vec<Json>,
}

impl Intact {
    fn new(slots: u8, extra: &[&str], sample: usize) -> Intact {
        let dir = tempfile::tempdir().unwrap();
        let n = slots.to_string();
        let root = dir.path().join("t");
        if let Some(made) = std::env::var_os("CHAOSCLOCK_FAULT_TABLES") {
            // Tables made before (the long form on a complete 10-slot table).
            let table = format!("n{slots}-always");
            copy_tree(&Path::new(&made).join(&table), &root.join(&table));
        } else {
            let mut args = vec!["generate", "--slots", &n, "--tables", "t"];
            args.extend_from_slice(extra);
            // A long run writes progress lines on stderr: only its status counts.
            let out = run_in(dir.path(), &args);
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        }
        // Random positions that a game reaches (the API refuses the rest).
        let mut rng = Rng(0x68);
        let server = Server::start(dir.path(), &["--tables", "t"]);
        let (mut positions, mut answers) = (Vec::new(), Vec::new());
        let live = extra.iter().position(|a| *a == "--max-live").map(|i| extra[i + 1]);
        let live: u64 = live.map_or(u64::from(slots), |k| k.parse().unwrap());
        while positions.len() < sample {
            let fixed = usize::from(slots) - rng.below(live + 1) as usize;
            let pos = random_position(&mut rng, slots, fixed).to_string();
            let (status, answer) = server.json(&position_url(&pos));
            if status == 200 && answer["source"] == "tables" {
                positions.push(pos);
                answers.push(answer);
            }
        }
        let max_live = extra.iter().position(|a| *a == "--max-live").map(|i| extra[i + 1].into());
        Intact { _dir: dir, root, slots, max_live, positions, answers }
    }
}

fn position_url(pos: &str) -> String {
    format!("/api/position?pos={}", esc(pos))
}

/// What the damage of `file` (a name) gave.
#[derive(Debug, Default)]
struct Outcome {
    /// `verify` exited 1 (the tables are wrong) naming the file.
    caught: bool,
    /// Answers the same as from the intact table.
    same: usize,
    /// 500s naming the file.
    refused: usize,
    /// Answers from a solve in memory, said so.
    solved: usize,
}

/// Checks a damaged copy `copy` (a tables root) whose file `name` (or
/// `other`, the second of two files swapped) is damaged; panics on an
/// answer the intact table does not give.
fn check_damage(intact: &Intact, copy: &Path, name: &str, other: Option<&str>) -> Outcome {
    let named = |text: &str| text.contains(name) || other.is_some_and(|o| text.contains(o));
    let dir = copy.parent().unwrap();
    let n = intact.slots.to_string();
    let mut verify =
        vec!["verify", "--slots", &n, "--tables", "t", "--sample", "1", "--solves", "0"];
    if let Some(k) = &intact.max_live {
        verify.extend(["--max-live", k]);
    }
    let out = run_in(dir, &verify);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let mut outcome = Outcome {
        caught: out.status.code() == Some(1) && named(&text) && !text.contains("panicked"),
        ..Outcome::default()
    };
    let server = Server::start(dir, &["--tables", "t"]);
    for (pos, want) in intact.positions.iter().zip(&intact.answers) {
        let (status, got) = server.json(&position_url(pos));
        match status {
            200 if got == *want => outcome.same += 1,
            200 if got["source"] != "tables" && got["value"] == want["value"] => {
                outcome.solved += 1;
            }
            500 if got["error"].as_str().is_some_and(named) => {
                outcome.refused += 1;
            }
            _ => panic!("{name} damaged: {pos}: {status} {got}, intact {want}"),
        }
    }
    outcome
}

/// Flips one bit at `flips` random offsets (files chosen by size), one at
/// a time, checking each; returns how many `verify` caught.
fn flip_bits(intact: &Intact, flips: usize) -> usize {
    let mut rng = Rng(seed());
    let copy_dir = tempfile::tempdir().unwrap();
    let copy = copy_dir.path().join("t");
    copy_tree(&intact.root, &copy);
    let table = copy.join(format!("n{}-always", intact.slots));
    let files = table_files(&table);
    let total: u64 = files.iter().map(|(_, len)| len).sum();
    let (mut caught, mut refused, mut solved) = (0, 0, 0);
    for _ in 0..flips {
        let mut at = rng.below(total);
        let (path, _) = files
            .iter()
            .find(|(_, len)| {
                let here = at < *len;
                if !here {
                    at -= len;
                }
                here
            })
            .unwrap();
        let bit = rng.below(8) as u8;
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut bytes = std::fs::read(path).unwrap();
        bytes[at as usize] ^= 1 << bit;
        std::fs::write(path, &bytes).unwrap();
        let o = check_damage(intact, &copy, &name, None);
        assert!(o.caught, "verify missed the flip of bit {bit} at {at} of {name} (exit 1 wanted)");
        caught += usize::from(o.caught);
        refused += o.refused;
        solved += o.solved;
        bytes[at as usize] ^= 1 << bit;
        std::fs::write(path, &bytes).unwrap();
    }
    eprintln!(
        "{flips} flips: {caught} caught by verify; answers refused {refused}, solved in memory \
         {solved}, the rest as intact"
    );
    caught
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn every_flipped_bit_of_an_8_slot_table_is_caught_and_never_believed() {
    let intact = Intact::new(8, &[], 48);
    let flips = 30;
    assert_eq!(flip_bits(&intact, flips), flips);
}

#[test]
fn a_truncated_or_swapped_file_is_caught_and_never_believed() {
    let intact = Intact::new(8, &[], 48);
    let copy_dir = tempfile::tempdir().unwrap();
    let copy = copy_dir.path().join("t");
    copy_tree(&intact.root, &copy);
    let table = copy.join("n8-always");
    let files = table_files(&table);
    // The largest file cut to half its length.
    let (big, len) = files.iter().max_by_key(|(_, len)| *len).unwrap().clone();
    let name = big.file_name().unwrap().to_string_lossy().into_owned();
    let whole = std::fs::read(&big).unwrap();
    std::fs::write(&big, &whole[..len as usize / 2]).unwrap();
    let o = check_damage(&intact, &copy, &name, None);
    eprintln!("{name} cut to {} bytes: {o:?}", len / 2);
    assert!(o.caught, "{o:?}");
    std::fs::write(&big, &whole).unwrap();
    // Two files of about the same size swapped.
    let mut by_size = files.clone();
    by_size.sort_by_key(|(_, len)| *len);
    let (a, b) = (&by_size[by_size.len() - 2].0, &by_size[by_size.len() - 3].0);
    let (bytes_a, bytes_b) = (std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    std::fs::write(a, &bytes_b).unwrap();
    std::fs::write(b, &bytes_a).unwrap();
    let name = a.file_name().unwrap().to_string_lossy().into_owned();
    let other = b.file_name().unwrap().to_string_lossy().into_owned();
    let o = check_damage(&intact, &copy, &name, Some(&other));
    eprintln!("{name} swapped with {other}: {o:?}");
    assert!(o.caught, "{o:?}");
}

/// The long form: `CHAOSCLOCK_FAULT_SLOTS` (10), `CHAOSCLOCK_FAULT_FLIPS`
/// (1,000), values only with `CHAOSCLOCK_FAULT_VALUES_ONLY=1`, a partial
/// table with `CHAOSCLOCK_FAULT_MAX_LIVE=K`; `CHAOSCLOCK_FAULT_TABLES=DIR`
/// copies the `always` table of that size from the tables root `DIR`
/// instead of making it (its files are never changed).
#[test]
#[ignore = "long: scripts/faults.sh bits runs it"]
fn long_form_every_flipped_bit_is_caught_and_never_believed() {
    let var = |name: &str| std::env::var(name).ok();
    let slots = var("CHAOSCLOCK_FAULT_SLOTS").and_then(|s| s.parse().ok()).unwrap_or(10);
    let flips = var("CHAOSCLOCK_FAULT_FLIPS").and_then(|s| s.parse().ok()).unwrap_or(1000);
    let extra = common::bin::fault_generate_flags();
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    let intact = Intact::new(slots, &extra, 32);
    assert_eq!(flip_bits(&intact, flips), flips);
}
