//! Probing tables, and nothing else: a program that needs no openings
//! book and no generator. Build it without the book,
//! `cargo run --release -p chaosclock --no-default-features --example probe TABLES [POSITION]`.
//!
//! It opens every size and rule under `TABLES` once ([`Tables`]) and
//! prints the value, the score and a best move of `POSITION` (default
//! the 6-slot opening `2,1,4,3,6,5`) under both pass rules, or why the
//! tables cannot answer. Tables to try it on:
//! `chaosclock generate --slots 6 --tables TABLES`. Its test makes them
//! itself (`cargo test -p chaosclock --example probe`).

use std::path::Path;

use chaosclock::{PassRule, Position, Tables};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(root) = args.next() else {
        eprintln!("usage: probe TABLES [POSITION] (tables from `chaosclock generate`)");
        std::process::exit(2);
    };
    let pos = args.next().unwrap_or_else(|| "2,1,4,3,6,5".to_string());
    if let Err(e) = probe(Path::new(&root), &pos) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

/// Prints what the tables under `root` and the built-in book say of `pos`.
fn probe(root: &Path, pos: &str) -> Result<(), Box<dyn std::error::Error>> {
    let pos: Position = pos.parse()?;
    let tables = Tables::open(root)?;
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
    Ok(())
}

#[test]
fn the_example_probes_tables_it_made() {
    use chaosclock::generate::{Config, generate};
    use chaosclock::table::Encoding;
    let made = tempfile::tempdir().unwrap();
    let cfg = Config::new(made.path(), 6, PassRule::Always).with_encoding(Encoding::Scores);
    generate(&cfg, None).unwrap();
    probe(made.path(), "2,1,4,3,6,5").unwrap();
    let tables = Tables::open(made.path()).unwrap();
    let pos: Position = "2,1,4,3,6,5".parse().unwrap();
    assert_eq!(tables.value(&pos, PassRule::Always).unwrap(), chaosclock::Value::SelfWin);
    assert!(tables.value(&pos, PassRule::WhenStuck).is_err(), "no when-stuck tables were made");
    assert!(probe(made.path(), "2,1,4").is_err());
}
