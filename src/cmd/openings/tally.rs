//! The tally of `chaosclock openings`: the counts per value of the
//! openings classified so far, and what `--stats`, `--depths` and
//! `--both-win` gather from them.

use anyhow::{Context, Result};
use chaosclock::Value;

use super::depths::Depths;
use super::list::ListWriter;
use super::scoring::Scored;
use super::stats::Stats;

/// The tally of the openings classified so far.
pub(super) struct Tally {
    pub(super) counts: [u64; 5],
    pub(super) stats: Option<Stats>,
    /// `--depths` (the scorer gives depths: [`choose_scorer`](super::choose_scorer)).
    pub(super) depths: Option<Depths>,
    pub(super) list: Option<ListWriter>,
}

impl Tally {
    pub(super) fn add(&mut self, s: &Scored) -> Result<()> {
        self.counts[s.value.code() as usize] += 1;
        if let Some(stats) = &mut self.stats {
            stats.add(&s.pos, s.value);
        }
        if let Some(depths) = &mut self.depths {
            let depth = s.depth.context("a score without its depth")?;
            depths.add(&s.pos, s.value, depth);
        }
        if let Some(list) = &mut self.list
            && s.value == Value::BothWin
        {
            list.line(s)?;
        }
        Ok(())
    }

    pub(super) fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}
