//! What a long `generate` run is projected to cost, told before it starts:
//! a run projected over [`LONG_SECONDS`] prints its projected size, time
//! and peak memory on stderr, so that a run of hours does not start
//! without a word (its first progress line off a terminal comes after a
//! minute).
//!
//! The figures scale the measured runs recorded in the manifests of
//! `tables/` (built into the binary): the table's bytes a node, its nodes
//! a second over the wall time of the runs that made it, and their peak
//! memory. A run with no such manifest (other sizes and rules) uses the
//! library's node rates ([`chaosclock::generate::project`]), without a
//! memory figure.

use chaosclock::PassRule;
use chaosclock::generate::Projection;
use serde_json::Value as Json;

use crate::cmd::{size_text, thousands};

/// Runs projected to take longer than this many seconds get a note.
pub const LONG_SECONDS: u64 = 3600;

/// The manifests of `tables/` with measured runs: `(slots, rule, values
/// only, name, text)`.
const MANIFESTS: [(u8, PassRule, bool, &str, &str); 3] = [
    (
        12,
        PassRule::Always,
        true,
        "tables/n12-always.json",
        include_str!("../../tables/n12-always.json"),
    ),
    (
        12,
        PassRule::Always,
        false,
        "tables/n12-always-depths.json",
        include_str!("../../tables/n12-always-depths.json"),
    ),
    (
        12,
        PassRule::WhenStuck,
        true,
        "tables/n12-when-stuck.json",
        include_str!("../../tables/n12-when-stuck.json"),
    ),
];

/// A measured run: a complete table and what making it took.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// The manifest it comes from.
    pub name: &'static str,
    /// Nodes of the table.
    pub nodes: u64,
    /// Its bytes.
    pub bytes: u64,
    /// The wall time of the runs that made it.
    pub seconds: u64,
    /// Their peak resident memory, in KiB.
    pub peak_kib: u64,
}

impl Measured {
    /// The measured run of the `n`-slot table of `rule`, values only or
    /// with depths, if a manifest records one.
    pub fn of(n: u8, rule: PassRule, values_only: bool) -> Option<Measured> {
        let (.., name, text) =
            MANIFESTS.iter().find(|m| m.0 == n && m.1 == rule && m.2 == values_only)?;
        let json: Json = serde_json::from_str(text).ok()?;
        let run = &json["run"];
        Some(Measured {
            name,
            nodes: json["nodes"].as_u64().filter(|&x| x > 0)?,
            bytes: json["bytes"].as_u64()?,
            seconds: run["wall_seconds"].as_u64().filter(|&x| x > 0)?,
            peak_kib: run["peak_memory_kib"].as_u64()?,
        })
    }
}

/// Hours for people: `5.6 h`, or minutes under two hours.
fn hours(seconds: u64) -> String {
    if seconds < 7200 {
        format!("{} min", seconds.div_ceil(60))
    } else {
        format!("{:.1} h", seconds as f64 / 3600.0)
    }
}

/// The note for a run projected as `p` (the files still to make) of the
/// `n`-slot tables of `rule`, or `None` if it is projected under
/// [`LONG_SECONDS`].
pub fn long_run_note(n: u8, rule: PassRule, values_only: bool, p: &Projection) -> Option<String> {
    let measured = Measured::of(n, rule, values_only);
    let (bytes, seconds) = match &measured {
        Some(m) => (
            (u128::from(p.nodes) * u128::from(m.bytes) / u128::from(m.nodes)) as u64,
            (u128::from(p.nodes) * u128::from(m.seconds)).div_ceil(u128::from(m.nodes)) as u64,
        ),
        None => (p.bytes, p.seconds),
    };
    if seconds <= LONG_SECONDS {
        return None;
    }
    let basis = match &measured {
        Some(m) => format!(
            "scaled from the runs that made {} ({} nodes, {}, {} wall time)",
            m.name,
            thousands(m.nodes),
            size_text(m.bytes),
            hours(m.seconds)
        ),
        None => "at the library's measured node rate; no run of this table is recorded".into(),
    };
    let memory = match &measured {
        Some(m) => format!(", peak memory up to {}", size_text(m.peak_kib * 1024)),
        None => String::new(),
    };
    Some(format!(
        "note: a long run (a projection, {basis}): {} nodes in {} files, about {} on disk, \
         about {} on 2 cores{memory}; progress: a bar on a terminal, else a line every \
         minute; an interrupted run resumes when the same command is run again",
        thousands(p.nodes),
        thousands(p.files as u64),
        size_text(bytes),
        hours(seconds),
    ))
}

#[cfg(test)]
mod tests {
    use chaosclock::generate::project;
    use chaosclock::table::{Encoding, fixed_sets};

    use super::*;

    #[test]
    fn the_manifests_give_the_complete_runs_figures() {
        let values = Measured::of(12, PassRule::Always, true).unwrap();
        let depths = Measured::of(12, PassRule::Always, false).unwrap();
        assert_eq!(values.nodes, depths.nodes);
        assert!(values.seconds > 3600 && depths.seconds > values.seconds);
        assert!(values.bytes < depths.bytes && values.peak_kib > 0);
        let when_stuck = Measured::of(12, PassRule::WhenStuck, true).unwrap();
        assert_eq!(when_stuck.nodes, values.nodes);
        assert!(when_stuck.seconds > 3600 && when_stuck.peak_kib > 0);
        assert_eq!(Measured::of(12, PassRule::WhenStuck, false), None);
        assert_eq!(Measured::of(10, PassRule::Always, true), None);
    }

    #[test]
    fn only_runs_over_an_hour_get_a_note() {
        let all = fixed_sets(12, 12);
        let p = project(12, &all, Encoding::Packed);
        let note = long_run_note(12, PassRule::Always, true, &p).unwrap();
        let m = Measured::of(12, PassRule::Always, true).unwrap();
        // The complete table: the manifest's own figures.
        assert_eq!(p.nodes, m.nodes, "the projection counts the manifest's nodes");
        assert!(note.contains("a projection"), "{note}");
        assert!(note.contains(&format!("about {} on disk", size_text(m.bytes))), "{note}");
        assert!(note.contains(&format!("about {} on 2 cores", hours(m.seconds))), "{note}");
        assert!(note.contains("peak memory up to "), "{note}");
        // The default 12-slot run (--max-live 6) and small sizes: quiet.
        let small = project(12, &fixed_sets(12, 6), Encoding::Packed);
        assert_eq!(long_run_note(12, PassRule::Always, true, &small), None);
        let ten = project(10, &fixed_sets(10, 10), Encoding::Coded);
        assert_eq!(long_run_note(10, PassRule::Always, false, &ten), None);
    }
}
