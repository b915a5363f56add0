//! The state budget of a solve in memory (`query`'s fallback, `serve`):
//! the most states a solve may enumerate before it gives up
//! ([`chaosclock::solve::solve_bounded`]).
//!
//! Without `--budget`, the budget comes from the machine's memory
//! ([`Budget::from_machine`]): half of the smaller of `MemTotal` and
//! `MemAvailable` in `/proc/meminfo` (and of the cgroup's `memory.max`,
//! when the process runs in a container with a limit), less the memory
//! the caller keeps for other things (`serve`'s kept solves), divided by
//! [`BYTES_PER_STATE`], and never below [`FLOOR_STATES`]. Half, so that
//! the solve leaves room for the rest of the machine and for the estimate
//! being low on an opening that needs more memory a state than those
//! measured. Where `/proc/meminfo` cannot be read the budget is
//! [`FALLBACK_STATES`].
//!
//! The same reading of the machine's memory sizes what `query -` and
//! `serve` keep of the tables' model sets ([`model_bytes`]).

use chaosclock::table::MODEL_BUDGET;

use crate::view::thousands;

/// The peak resident memory of a solve in memory per state reached, in
/// bytes, for a solve large enough to meet a budget. Measured with
/// `/usr/bin/time -v` (docs/benchmarks.md, `scripts/bench-solve.sh`, 50
/// random 12-slot openings, 2026-11-26 at e09aaed): 13.4 to 16.7 bytes a
/// state on every solve of 20 million states or more (14.4 the median),
/// fewer the larger the solve, as the program's own 40 to 80 MiB weigh
/// less; smaller solves measure up to 18.6 (14.7 million states) and
/// 10-slot openings of 0.8 to 3.5 million states 23 to 65, but they are
/// far below any budget (at least [`FLOOR_STATES`]). `solve` prints the
/// figure of each run.
pub const BYTES_PER_STATE: u64 = 18;

/// The smallest budget taken from the machine's memory: above the
/// documented opening's 20,971,954 states, so that any machine that can
/// hold them (about 330 MiB) still solves it.
pub const FLOOR_STATES: usize = 30_000_000;

/// The budget when `/proc/meminfo` cannot be read (about 1 GB of solving).
pub const FALLBACK_STATES: usize = 60_000_000;

/// A state budget and where it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The most states a solve may enumerate.
    pub states: usize,
    /// How it was set.
    pub origin: Origin,
}

/// How a [`Budget`] was set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// `--budget STATES`.
    Flag,
    /// From the machine's memory: the bytes it counted on (half of the
    /// smaller of total and available memory, less what was kept back).
    Memory {
        /// The bytes the budget may take.
        share: u64,
        /// The floor was used: the share held fewer states.
        floored: bool,
    },
    /// `/proc/meminfo` could not be read.
    Fallback,
}

impl Budget {
    /// The budget of `--budget STATES` if given, else
    /// [`Budget::from_machine`] keeping back `keep_bytes`.
    pub fn new(flag: Option<usize>, keep_bytes: u64) -> Budget {
        match flag {
            Some(states) => Budget { states, origin: Origin::Flag },
            None => Budget::from_machine(keep_bytes),
        }
    }

    /// The budget from the machine's memory (the module doc says how),
    /// keeping back `keep_bytes` for other uses.
    pub fn from_machine(keep_bytes: u64) -> Budget {
        let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
        let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max").ok();
        Budget::from_memory(
            meminfo.as_deref().and_then(memory_bytes),
            cgroup_bytes(cgroup),
            keep_bytes,
        )
    }

    /// [`Budget::from_machine`] from the smaller of total and available
    /// memory (`None` if unknown) and a cgroup limit.
    fn from_memory(memory: Option<u64>, cgroup: Option<u64>, keep_bytes: u64) -> Budget {
        let Some(memory) = memory else {
            return Budget { states: FALLBACK_STATES, origin: Origin::Fallback };
        };
        let memory = cgroup.map_or(memory, |limit| memory.min(limit));
        let share = (memory / 2).saturating_sub(keep_bytes);
        let states = usize::try_from(share / BYTES_PER_STATE).unwrap_or(usize::MAX);
        let floored = states < FLOOR_STATES;
        Budget { states: states.max(FLOOR_STATES), origin: Origin::Memory { share, floored } }
    }

    /// How the budget was set, for messages: `60,000,000 states (--budget)`,
    /// or `... states (from the machine's memory: half of the available
    /// 14.2 GB, at 16 bytes a state; --budget STATES sets it)`.
    pub fn describe(&self) -> String {
        let states = thousands(self.states as u64);
        match self.origin {
            Origin::Flag => format!("{states} states (--budget)"),
            Origin::Memory { share, floored } => {
                let gib = |b: u64| format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64);
                let floor = if floored { ", raised to the floor" } else { "" };
                format!(
                    "{states} states (from the machine's memory: {} for solving at {BYTES_PER_STATE} bytes a state{floor}; --budget STATES sets another)",
                    gib(share)
                )
            }
            Origin::Fallback => format!(
                "{states} states (the fallback: /proc/meminfo could not be read; --budget STATES sets another)"
            ),
        }
    }
}

/// The memory a tablebase's model sets may take in `query -` and `serve`
/// ([`chaosclock::table::Tablebase::with_model_budget`]): a quarter of
/// the machine's memory as [`Budget::from_machine`] reads it, at most
/// [`MODEL_BUDGET`] (enough for every set of the 12-slot table) and at
/// least [`MODEL_FLOOR`]; [`MODEL_BUDGET`] where the memory is unknown.
pub fn model_bytes() -> usize {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max").ok();
    model_bytes_of(meminfo.as_deref().and_then(memory_bytes), cgroup_bytes(cgroup))
}

/// The fewest bytes of model sets [`model_bytes`] gives: a few of the
/// 12-slot table's largest files' sets.
pub const MODEL_FLOOR: usize = 256 << 20;

/// [`model_bytes`] from the smaller of total and available memory and a
/// cgroup limit.
fn model_bytes_of(memory: Option<u64>, cgroup: Option<u64>) -> usize {
    let Some(memory) = memory else { return MODEL_BUDGET };
    let memory = cgroup.map_or(memory, |limit| memory.min(limit));
    usize::try_from(memory / 4).unwrap_or(usize::MAX).clamp(MODEL_FLOOR, MODEL_BUDGET)
}

/// The smaller of `MemTotal` and `MemAvailable` in the text of
/// `/proc/meminfo`, in bytes (`MemTotal` alone on an old kernel without
/// `MemAvailable`).
fn memory_bytes(meminfo: &str) -> Option<u64> {
    let field = |name: &str| {
        let line = meminfo.lines().find_map(|l| l.strip_prefix(name))?;
        let kib: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
        Some(kib * 1024)
    };
    let total = field("MemTotal:")?;
    Some(field("MemAvailable:").map_or(total, |available| total.min(available)))
}

/// The cgroup v2 memory limit in the text of `memory.max`: `None` for
/// `max` (no limit) or no such file.
fn cgroup_bytes(text: Option<String>) -> Option<u64> {
    text?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEMINFO: &str =
        "MemTotal:       24684092 kB\nMemFree:        19772032 kB\nMemAvailable:   16000000 kB\n";

    #[test]
    fn memory_is_the_smaller_of_total_and_available() {
        assert_eq!(memory_bytes(MEMINFO), Some(16_000_000 * 1024));
        assert_eq!(memory_bytes("MemTotal: 1000 kB\n"), Some(1_024_000));
        assert_eq!(memory_bytes("nothing\n"), None);
        assert_eq!(cgroup_bytes(Some("max\n".into())), None);
        assert_eq!(cgroup_bytes(Some("1073741824\n".into())), Some(1 << 30));
    }

    #[test]
    fn the_budget_is_half_the_memory_over_bytes_per_state() {
        let b = Budget::from_memory(Some(16 << 30), None, 0);
        assert_eq!(b.states as u64, (8 << 30) / BYTES_PER_STATE);
        assert!(b.describe().contains("from the machine's memory: 8.0 GiB"), "{}", b.describe());
        // What is kept back, and a cgroup limit, lower it.
        let kept = Budget::from_memory(Some(16 << 30), None, 2 << 30);
        assert_eq!(kept.states as u64, (6 << 30) / BYTES_PER_STATE);
        let limited = Budget::from_memory(Some(16 << 30), Some(4 << 30), 0);
        assert_eq!(limited.states as u64, (2 << 30) / BYTES_PER_STATE);
        // A small machine still solves the documented opening.
        let small = Budget::from_memory(Some(256 << 20), None, 0);
        assert_eq!(small.states, FLOOR_STATES);
        assert!(small.describe().contains("floor"));
        assert_eq!(Budget::from_memory(None, None, 0).states, FALLBACK_STATES);
        assert_eq!(Budget::new(Some(5), 0), Budget { states: 5, origin: Origin::Flag });
    }

    #[test]
    fn model_sets_take_a_quarter_of_the_memory_within_bounds() {
        assert_eq!(model_bytes_of(Some(8 << 30), None), 2 << 30);
        assert_eq!(model_bytes_of(Some(24 << 30), None), MODEL_BUDGET);
        assert_eq!(model_bytes_of(Some(24 << 30), Some(4 << 30)), 1 << 30);
        assert_eq!(model_bytes_of(Some(512 << 20), None), MODEL_FLOOR);
        assert_eq!(model_bytes_of(None, None), MODEL_BUDGET);
    }
}
