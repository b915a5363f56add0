//! The library embeds with its own few dependencies (issue 60): `cargo
//! tree` of package `chaosclock` names no HTTP, async runtime,
//! argument-parsing or progress-bar crate. The embedding example
//! (`lib/examples/embed.rs`: tables shared by 8 threads, typed errors for
//! another size or rule) is run by `cargo test -p chaosclock`.

use std::process::Command;

/// The crates the library's normal dependencies resolve to, by name.
fn library_crates() -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "-p", "chaosclock", "-e", "normal", "--prefix", "none", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let mut names: Vec<String> =
        text.lines().filter_map(|l| l.split_whitespace().next()).map(str::to_string).collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn the_library_builds_without_the_server_and_the_command_line() {
    let crates = library_crates();
    assert!(crates.iter().any(|c| c == "chaosclock"), "{crates:?}");
    assert!(crates.iter().any(|c| c == "memmap2"), "{crates:?}");
    for banned in ["axum", "tokio", "hyper", "hyper-util", "clap", "indicatif", "serde", "anyhow"] {
        assert!(!crates.iter().any(|c| c == banned), "the library pulls in {banned}: {crates:?}");
    }
    // Its direct dependencies are the four it names, and theirs.
    assert!(crates.len() <= 16, "{} crates: {crates:?}", crates.len());
}
