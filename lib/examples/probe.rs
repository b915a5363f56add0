//! Probing tables, and nothing else: a program that needs no openings
//! book. Build it without one,
//! `cargo run --release -p chaosclock --no-default-features --example probe [TABLES [POSITION]]`.
//!
//! It opens every size and rule under `TABLES` once ([`Tables`]) and
//! prints the value, the score and a best move of `POSITION` under both
//! pass rules, or why the tables cannot answer. Without arguments it makes
//! the 6-slot tables under `always` in a temporary directory first and
//! probes the opening `2,1,4,3,6,5`. `cargo test -p chaosclock` runs it too.

use chaosclock::Tables;
use chaosclock::generate::{Config, generate};
use chaosclock::table::Encoding;
use chaosclock::{PassRule, Position, Value};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let made = tempfile::tempdir()?;
    let root = match args.next() {
        Some(dir) => dir.into(),
        None => {
            let rule = PassRule::Always;
            let cfg = Config::new(made.path(), 6, rule).with_encoding(Encoding::Scores);
            generate(&cfg, None)?;
            made.path().to_path_buf()
        }
    };
    let pos: Position = args.next().as_deref().unwrap_or("2,1,4,3,6,5").parse()?;
    let tables = Tables::open(&root)?;
    for rule in PassRule::ALL {
        match (tables.score(&pos, rule), tables.best_move(&pos, rule)) {
            (Ok(score), Ok(best)) => {
                let best = best.map_or("none (the game is over)".to_string(), |m| m.to_string());
                println!("{pos} ({}): {score}, best move {best}", rule.name());
            }
            (Err(e), _) | (_, Err(e)) => println!("{pos} ({}): {e}", rule.name()),
        }
    }
    // Without the `book` feature the built-in book is empty, and says so.
    let book = chaosclock::book::Book::embedded()?;
    match book.value(&pos, PassRule::Always) {
        Ok(v) => println!("the openings book: {}", v.label()),
        Err(e) => println!("the openings book: {e}"),
    }
    if root == made.path() {
        assert_eq!(tables.value(&pos, PassRule::Always)?, Value::SelfWin);
    }
    Ok(())
}

#[test]
fn the_example_runs() {
    main().unwrap();
}
