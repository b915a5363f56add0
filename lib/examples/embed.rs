//! Embedding the library: make small tables (or open yours), share one
//! [`Tablebase`] between threads, and see the typed errors of a position
//! of another size or a request under another rule.
//!
//! Run it with `cargo run --release -p chaosclock --example embed [TABLES]`:
//! without `TABLES` it generates the 6-slot tables in a temporary
//! directory first (a second or two). `cargo test -p chaosclock` runs it
//! too (its test at the end).

use std::sync::Arc;

use chaosclock::generate::{Config, generate};
use chaosclock::probe::ProbeError;
use chaosclock::solve::solve;
use chaosclock::table::{Encoding, TableError, Tablebase};
use chaosclock::{PassRule, Position};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rule = PassRule::Always;
    // The tables: the directory given, or the 6-slot ones made here.
    let made = tempfile::tempdir()?;
    let root = match std::env::args_os().nth(1) {
        Some(dir) => dir.into(),
        None => {
            let cfg = Config::new(made.path(), 6, rule).with_encoding(Encoding::Scores);
            generate(&cfg, None)?;
            made.path().to_path_buf()
        }
    };
    let n = if made.path() == root { 6 } else { 8 };
    let tb = Arc::new(Tablebase::new(&root, n, rule));

    // Every opening of the size, probed from 8 threads at once.
    let openings = chaosclock::draw::all(n)?;
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let (tb, openings) = (Arc::clone(&tb), openings.clone());
            std::thread::spawn(move || {
                openings
                    .iter()
                    .skip(t)
                    .step_by(8)
                    .map(|p| tb.score(p))
                    .collect::<Result<Vec<_>, _>>()
            })
        })
        .collect();
    let mut probed = 0;
    for t in threads {
        probed += t.join().map_err(|_| "a probing thread panicked")??.len();
    }
    println!("{probed} openings of {n} slots probed from 8 threads");

    // The tables agree with a solve in memory.
    let pos = &openings[openings.len() / 2];
    let solved = solve(pos, rule, None).score(pos).ok_or("a solve scores its root")?;
    assert_eq!(tb.score(pos)?, solved);
    println!("{pos}: {} (tables and solve agree)", tb.score(pos)?);

    // A position of another size, or another rule: a typed error.
    let other: Position = if n == 6 { "2,1,4,3" } else { "2,1,4,3,6,5" }.parse()?;
    match tb.score(&other) {
        Err(ProbeError::Table(e @ TableError::OtherSize { .. })) => println!("{other}: {e}"),
        got => return Err(format!("{other}: expected another size, got {got:?}").into()),
    }
    match chaosclock::answer::Answer::from_tables(&tb, pos, PassRule::WhenStuck) {
        Err(ProbeError::Table(e @ TableError::OtherRule { .. })) => println!("{pos}: {e}"),
        got => return Err(format!("{pos}: expected another rule, got {got:?}").into()),
    }
    Ok(())
}

#[test]
fn the_example_runs() {
    main().unwrap();
}
