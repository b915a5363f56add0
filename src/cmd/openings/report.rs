//! What `chaosclock openings` prints after classifying: the counts per
//! value, with shares, intervals for a sample, and the statistics.

use std::time::Duration;

use chaosclock::PassRule;
use serde::Serialize;

use super::depths::{Depths, Summary as DepthSummary};
use super::draw::{self, wilson};
use super::scoring::{Scorer, Work};
use super::stats::{ORDER, QuestionJson, pad_right};
use super::tally::Tally;
use crate::cli::high::OpeningsHigh;
use crate::cmd::code_map::CodeMap;
use crate::cmd::thousands;

/// Which openings were counted and how, in one sentence.
/// With `work` (the text report) it names the tables directory and the
/// states solved; without (the plot) it leaves them out.
pub(super) fn describe(
    args: &OpeningsHigh,
    scorer: &Scorer,
    total: u64,
    work: Option<&Work>,
) -> String {
    let n = args.slots.get();
    // The size is one of the supported ones (`--slots`).
    let population = thousands(draw::count(n).unwrap_or_default());
    let how = match scorer {
        Scorer::Tables(tb) if work.is_some() => {
            format!("read from the tables in {}", tb.dir().display())
        }
        Scorer::Tables(_) => "read from the complete tables".to_string(),
        Scorer::Book { .. } => "read from the openings book".to_string(),
        Scorer::Solve { tables, .. } => {
            let mut how = "solved exactly".to_string();
            if let Some(w) = work {
                how.push_str(&format!(
                    " ({} states in {} solve{})",
                    thousands(w.states),
                    w.calls,
                    if w.calls == 1 { "" } else { "s" }
                ));
            }
            if let (Some(dir), Some(_)) = (tables, work) {
                how.push_str(&format!(", with the incomplete tables in {}", dir.display()));
            }
            how
        }
    };
    // The written rules go unsaid, as they always did.
    let size = match args.rule {
        PassRule::Always => format!("{n} slots"),
        rule => format!("{n} slots, pass rule {}", rule.name()),
    };
    match args.sample {
        None => format!("{size}: all {population} openings, {how}"),
        Some(_) => format!(
            "{size}: a random sample of {} of the {population} openings (seed {}), {how}",
            thousands(total),
            args.seed
        ),
    }
}

/// Everything the classification prints.
pub(super) struct Report<'a> {
    pub(super) args: &'a OpeningsHigh,
    pub(super) scorer: &'a Scorer,
    pub(super) tally: &'a Tally,
    pub(super) work: Work,
    pub(super) elapsed: Duration,
    pub(super) listed: Option<u64>,
}

/// The JSON output of a classification.
#[derive(Debug, Serialize)]
pub(super) struct CountsJson {
    slots: u8,
    /// `always` or `when-stuck`.
    pass_rule: &'static str,
    /// The openings counted (the sample size for a sample).
    openings: u64,
    sampled: bool,
    counts: CodeMap<u64>,
    percent: CodeMap<f64>,
    /// 95% Wilson intervals in percent (samples only).
    #[serde(skip_serializing_if = "Option::is_none")]
    interval: Option<CodeMap<[f64; 2]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sample: Option<u64>,
    /// All openings of this size.
    population: u64,
    /// `solve`, `tables` or `book`.
    source: &'static str,
    /// States solved (0 from tables).
    states: u64,
    seconds: f64,
    openings_per_minute: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<Vec<QuestionJson>>,
    /// `--depths`: per value some opening has, the depths of its openings.
    #[serde(skip_serializing_if = "Option::is_none")]
    depths: Option<Vec<DepthSummary>>,
    /// Both-win openings written to `output`.
    #[serde(skip_serializing_if = "Option::is_none")]
    both_win_listed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    plot: Option<String>,
}

impl Report<'_> {
    fn sampled(&self) -> bool {
        self.args.sample.is_some()
    }

    fn percent(&self, code: usize) -> f64 {
        100.0 * self.tally.counts[code] as f64 / self.tally.total().max(1) as f64
    }

    fn interval(&self, code: usize) -> (f64, f64) {
        let (lo, hi) = wilson(self.tally.counts[code], self.tally.total());
        (100.0 * lo, 100.0 * hi)
    }

    fn per_minute(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 { 60.0 * self.tally.total() as f64 / s } else { 0.0 }
    }

    pub(super) fn to_text(&self) -> String {
        let t = self.tally;
        let mut out = describe(self.args, self.scorer, t.total(), Some(&self.work));
        out.push_str(&format!("\ntime: {:.1} s", self.elapsed.as_secs_f64()));
        if let (Scorer::Solve { .. }, true) = (self.scorer, self.sampled()) {
            out.push_str(&format!(" ({:.1} openings per minute)", self.per_minute()));
        }
        out.push('\n');
        let head = if self.sampled() { "sample" } else { "openings" };
        // Chinese characters take two columns: pad by display width.
        out.push_str(&format!(
            "\n{}{head:>11}{:>10}",
            pad_right("value for 乙 (to move)", 22),
            "%"
        ));
        if self.sampled() {
            out.push_str("   95% interval (Wilson)");
        }
        for v in ORDER {
            let c = v.code() as usize;
            let label = format!("{} {} {}", v.code(), v.chinese(), v.label());
            out.push_str(&format!(
                "\n{}{:>11}{:>9.2}%",
                pad_right(&label, 22),
                thousands(t.counts[c]),
                self.percent(c)
            ));
            if self.sampled() {
                let (lo, hi) = self.interval(c);
                out.push_str(&format!("   {lo:6.2}% .. {hi:6.2}%"));
            }
        }
        if let Some(stats) = &t.stats {
            out.push('\n');
            out.push_str(&stats.to_text());
        }
        if let Some(depths) = &t.depths {
            out.push('\n');
            out.push_str(&depths.to_text());
        }
        if let (Some(lines), Some(path)) = (self.listed, &self.args.output) {
            out.push_str(&format!(
                "\n\nboth-win list: {lines} openings written to {}",
                path.display()
            ));
        }
        if let Some(path) = &self.args.plot {
            out.push_str(&format!("\nplot: {}", path.display()));
        }
        out
    }

    pub(super) fn to_json(&self) -> CountsJson {
        let t = self.tally;
        let sampled = self.sampled();
        CountsJson {
            slots: self.args.slots.get(),
            pass_rule: self.args.rule.name(),
            openings: t.total(),
            sampled,
            counts: CodeMap::from_fn(|c| t.counts[c]),
            percent: CodeMap::from_fn(|c| self.percent(c)),
            interval: sampled.then(|| {
                CodeMap::from_fn(|c| {
                    let (lo, hi) = self.interval(c);
                    [lo, hi]
                })
            }),
            seed: sampled.then_some(self.args.seed),
            sample: self.args.sample,
            population: draw::count(self.args.slots.get()).unwrap_or_default(),
            source: match self.scorer {
                Scorer::Tables(_) => "tables",
                Scorer::Solve { .. } => "solve",
                Scorer::Book { .. } => "book",
            },
            states: self.work.states,
            seconds: self.elapsed.as_secs_f64(),
            openings_per_minute: self.per_minute(),
            stats: t.stats.as_ref().map(|s| s.to_json(sampled)),
            depths: t.depths.as_ref().map(Depths::to_json),
            both_win_listed: self.listed.filter(|_| self.args.output.is_some()),
            output: self.args.output.as_ref().map(|p| p.path().display().to_string()),
            plot: self.args.plot.as_ref().map(|p| p.path().display().to_string()),
        }
    }
}
