//! Progress on stderr, for the commands whose work can take a while
//! (`solve`, `query`'s solve in memory, `openings`, `verify`, `manifest`,
//! `book`): on a terminal an indicatif bar; elsewhere (a pipe, a log file)
//! the bar is hidden and a thread prints one line every [`EVERY`] while
//! the bar lives and is not finished, e.g.
//!
//! ```text
//! [0h00m10s] enumerating: 31234567 states, peak memory 512 MiB
//! [0h00m20s] solving: 41.5% of 68,383,774 states, peak memory 1,102 MiB
//! [0h00m30s] 3/40 files checked, peak memory 75 MiB
//! ```
//!
//! (the elapsed time as `generate`'s run log shows it, [`run_log::clock`];
//! the bar's message; its count; the peak resident memory so far). The
//! library only updates the bar it is given, and prints nothing.
//!
//! Ctrl-C on a terminal ([`end_lines_on_ctrl_c`]) ends the line of every
//! bar drawn, so the shell's prompt starts on a line of its own, and exits
//! with code 130 (128 + SIGINT, as a shell reports it).
//!
//! The environment variable `CHAOSCLOCK_PROGRESS_SECS`, meant for tests,
//! sets the interval in seconds (a fraction allowed, e.g. `0.2`); `0`
//! turns the lines off (the CLI tests, which expect a quiet stderr however
//! loaded the machine is).

use std::io::Write;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use chaosclock::progress::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle, WeakProgressBar};

use crate::cmd::{run_log, thousands};

/// How often a line is printed when stderr is not a terminal.
pub const EVERY: Duration = Duration::from_secs(10);

/// The environment variable that overrides [`EVERY`] (for tests).
pub const EVERY_VAR: &str = "CHAOSCLOCK_PROGRESS_SECS";

/// How often the thread looks at the bar, so that it ends soon after.
const POLL: Duration = Duration::from_millis(100);

/// How a bar's count reads in a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// The solver's: only the message while it enumerates, then the share
    /// of the states solved.
    Solve,
    /// `done/total message`.
    Count,
}

/// An indicatif bar as the library's [`Progress`]: a phase sets its
/// length and message, work done moves it on.
#[derive(Debug, Clone, Copy)]
pub struct Drawn<'a>(pub &'a ProgressBar);

impl Drawn<'_> {
    /// `bar`, if any, as the library's [`Progress`] (for a call's
    /// argument: `Drawn::of(bar).as_ref().map(Drawn::dyn_ref)`).
    pub fn of(bar: Option<&ProgressBar>) -> Option<Drawn<'_>> {
        bar.map(Drawn)
    }

    /// As a trait object.
    pub fn dyn_ref(&self) -> &dyn Progress {
        self
    }
}

impl Progress for Drawn<'_> {
    fn start(&self, total: u64, what: &str) {
        // Length and position in one update, so no frame shows the last
        // phase's count against the new length.
        self.0.update(|state| {
            state.set_len(total);
            state.set_pos(0);
        });
        self.0.reset_eta();
        if !what.is_empty() {
            self.0.set_message(what.to_string());
        }
    }

    fn advance(&self, units: u64) {
        self.0.inc(units);
    }

    fn counted(&self, done: u64, what: &str) {
        self.0.set_message(what.to_string());
        self.0.set_position(done);
    }

    fn shorten(&self, units: u64) {
        self.0.dec_length(units);
    }

    fn lengthen(&self, units: u64) {
        self.0.inc_length(units);
    }
}

/// The bars drawn on the terminal, so that Ctrl-C can end their lines.
static DRAWN: Mutex<Vec<WeakProgressBar>> = Mutex::new(Vec::new());

/// A bar drawn on the terminal, whose line Ctrl-C ends
/// ([`end_lines_on_ctrl_c`]).
pub fn drawn_bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let mut drawn = DRAWN.lock().unwrap_or_else(PoisonError::into_inner);
    drawn.retain(|b| b.upgrade().is_some());
    drawn.push(bar.downgrade());
    bar
}

/// When stderr is a terminal, makes Ctrl-C stop every bar drawn where it
/// is, end its line, and exit with code 130 (without it the process dies
/// in the middle of the bar's line, and the prompt follows on that line).
/// Elsewhere Ctrl-C keeps its default action.
pub fn end_lines_on_ctrl_c() {
    if !is_terminal() {
        return;
    }
    // Only fails if a handler is already set: then that one decides.
    let _ = ctrlc::set_handler(|| {
        let drawn = DRAWN.lock().unwrap_or_else(PoisonError::into_inner);
        let live: Vec<ProgressBar> = drawn.iter().filter_map(WeakProgressBar::upgrade).collect();
        let drawing = live.iter().any(|b| !b.is_finished());
        for bar in &live {
            // No more frames: its last one stays on the screen as it is.
            bar.disable_steady_tick();
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        let mut err = std::io::stderr().lock();
        if drawing {
            let _ = writeln!(err);
        }
        let _ = writeln!(err, "interrupted");
        let _ = err.flush();
        std::process::exit(130);
    });
}

/// The solver's bar on stderr (the library sets its message while it
/// enumerates, then its length to the states and counts them as they are
/// solved): a drawn bar on a terminal, else a hidden one with a line every
/// [`EVERY`].
pub fn solve_bar() -> Option<ProgressBar> {
    if !is_terminal() {
        let bar = ProgressBar::hidden();
        bar.set_message("enumerating");
        return Some(logged(bar, Style::Solve));
    }
    let bar = drawn_bar(0);
    let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg} {progress}")
        .expect("the progress template is valid")
        .with_key("progress", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            if let Some(len) = state.len().filter(|&len| len > 0) {
                let pct = 100.0 * state.pos() as f64 / len as f64;
                let _ = write!(
                    w,
                    "{pct:3.0}% of {} states, eta {}s",
                    thousands(len),
                    state.eta().as_secs()
                );
            }
        });
    bar.set_style(style);
    bar.set_message("enumerating");
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}

/// A bar on stderr counting `len` items (the caller may change the length
/// and message as it goes): drawn on a terminal, else hidden with a line
/// every [`EVERY`].
pub fn counting_bar(len: u64, msg: &'static str) -> Option<ProgressBar> {
    if !is_terminal() {
        let bar = ProgressBar::hidden();
        bar.set_length(len);
        bar.set_message(msg);
        return Some(logged(bar, Style::Count));
    }
    let bar = drawn_bar(len);
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {msg} (eta {eta})",
    )
    .expect("the progress template is valid");
    bar.set_style(style);
    bar.set_message(msg);
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}

/// Clears a bar from the terminal (a hidden one is finished: its lines
/// stop).
pub fn finish_bar(bar: Option<ProgressBar>) {
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

/// Clears a bar from the terminal when dropped, so that an error returned
/// early is printed on a clean line.
#[derive(Debug)]
pub struct BarGuard(pub Option<ProgressBar>);

impl Drop for BarGuard {
    fn drop(&mut self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

/// Whether stderr is a terminal.
fn is_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal()
}

/// The interval of the lines: [`EVERY`], or `CHAOSCLOCK_PROGRESS_SECS`
/// when it is a number of seconds (`None` for 0: no lines).
fn every() -> Option<Duration> {
    let Some(text) = std::env::var_os(EVERY_VAR) else { return Some(EVERY) };
    match text.to_str().and_then(|t| t.trim().parse::<f64>().ok()) {
        Some(0.0) => None,
        Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
        _ => Some(EVERY),
    }
}

/// `bar`, with a thread that prints its line ([`line()`]) every [`every`]
/// on stderr until the bar is finished or dropped. The thread holds only
/// a weak reference, so it never keeps the bar alive.
fn logged(bar: ProgressBar, style: Style) -> ProgressBar {
    let Some(every) = every() else { return bar };
    let weak = bar.downgrade();
    std::thread::spawn(move || {
        let mut next = every;
        loop {
            std::thread::sleep(POLL.min(every));
            let Some(bar) = weak.upgrade() else { return };
            if bar.is_finished() {
                return;
            }
            let elapsed = bar.elapsed();
            if elapsed >= next {
                eprintln!("{}", line(&bar, style, elapsed, run_log::peak_memory_kib()));
                while next <= elapsed {
                    next += every;
                }
            }
        }
    });
    bar
}

/// One progress line: the elapsed time, the message and count of `bar`,
/// and the peak memory `peak_kib`, if known.
fn line(bar: &ProgressBar, style: Style, elapsed: Duration, peak_kib: Option<u64>) -> String {
    let msg = bar.message();
    let (pos, len) = (bar.position(), bar.length().unwrap_or(0));
    let mut text = format!("[{}] ", run_log::clock(elapsed));
    match style {
        Style::Solve if len > 0 => text.push_str(&format!(
            "{msg}: {:.1}% of {} states",
            100.0 * pos as f64 / len as f64,
            thousands(len)
        )),
        Style::Solve => text.push_str(&msg),
        Style::Count => text.push_str(&format!("{}/{} {msg}", thousands(pos), thousands(len))),
    }
    if let Some(kib) = peak_kib {
        text.push_str(&format!(", peak memory {} MiB", thousands(kib.div_ceil(1024))));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_show_the_time_the_message_and_the_count() {
        let bar = ProgressBar::hidden();
        bar.set_message("enumerating: 1234 states");
        let at = Duration::from_secs(70);
        assert_eq!(line(&bar, Style::Solve, at, None), "[0h01m10s] enumerating: 1234 states");
        bar.set_length(20_971_954);
        bar.set_position(5_242_989);
        bar.set_message("solving");
        assert_eq!(
            line(&bar, Style::Solve, at, Some(2048)),
            "[0h01m10s] solving: 25.0% of 20,971,954 states, peak memory 2 MiB"
        );
        bar.set_length(40);
        bar.set_position(3);
        bar.set_message("files checked");
        assert_eq!(line(&bar, Style::Count, at, None), "[0h01m10s] 3/40 files checked");
    }
}
