//! SIGTERM, Ctrl-C (SIGINT) or SIGHUP during `generate`: the run stops at
//! once (well within 2 s), says where it was and the command that resumes
//! it, and exits with code 130.
//!
//! Stopping at any instant is safe because a run is made to survive a
//! SIGKILL anywhere (`tests/resume.rs`, `tests/faults.rs`): files are
//! written under temporary names and renamed when complete and checked,
//! sub-tables are saved in checkpoints, and the directory's lock is an
//! advisory lock the system drops with the process. So the handler waits
//! for nothing: it prints its line and exits, and the next run with the
//! same command keeps every complete file and the last checkpoint.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use indicatif::{ProgressBar, ProgressDrawTarget};

use crate::cmd::shown_path;

/// The exit code of a run stopped by a signal (128 + SIGINT, as a shell
/// reports Ctrl-C).
pub const EXIT_CODE: i32 = 130;

/// Where a run of `generate` is, for the line a signal prints.
#[derive(Debug)]
pub struct Place {
    /// The bar counting the run's nodes (hidden or drawn).
    pub bar: ProgressBar,
    /// The files finished by this run so far.
    pub files_done: AtomicUsize,
    /// The files of the run.
    pub files: usize,
    /// The table's directory.
    pub dir: PathBuf,
    /// The command line that resumes the run.
    pub command: String,
}

impl Place {
    /// The line printed when the run stops.
    pub fn line(&self) -> String {
        let (pos, len) = (self.bar.position(), self.bar.length().unwrap_or(0));
        let share = if len > 0 {
            format!(", {:.1}% of the nodes this run had to solve", 100.0 * pos as f64 / len as f64)
        } else {
            String::new()
        };
        format!(
            "generate: interrupted after {} of {} files written by this run{share}, in {}; \
             the complete files and the last checkpoint are kept: run `{}` again to resume",
            self.files_done.load(Ordering::Relaxed),
            self.files,
            shown_path(&self.dir),
            self.command
        )
    }
}

/// From now on, SIGTERM, SIGINT and SIGHUP stop the run at once with
/// [`Place::line`] on stderr and exit code [`EXIT_CODE`].
pub fn stop_on_signal(place: Arc<Place>) {
    // Fails only if a handler is already set: then that one decides.
    let _ = ctrlc::set_handler(move || {
        place.bar.disable_steady_tick();
        let drawn = !place.bar.is_hidden();
        place.bar.set_draw_target(ProgressDrawTarget::hidden());
        let mut err = std::io::stderr().lock();
        if drawn {
            let _ = writeln!(err);
        }
        let _ = writeln!(err, "{}", place.line());
        let _ = err.flush();
        drop(err);
        std::process::exit(EXIT_CODE);
    });
}
