//! A disk that fills during `generate`: one `error:` line that names the
//! directory, how much more it needs and how to go on (exit code 2).
//!
//! What the run leaves is safe to resume from: a table file gets its name
//! only once complete and checked (until then it is `NAME.cctb.tmp`, which
//! no run or query takes for a table, and which the next run either goes on
//! from, at its last checkpoint, or removes). So after space is freed the
//! same command finishes the table, with the bytes of a run never stopped
//! (`tests/faults_disk.rs`).

use std::path::Path;

use chaosclock::generate::GenerateError;

use crate::cmd::{shown_path, size_text};

/// Whether `e` is a write that failed for want of space (ENOSPC, or a
/// quota: EDQUOT).
pub fn is_disk_full(e: &GenerateError) -> bool {
    let GenerateError::Io { source, .. } = e else { return false };
    source.kind() == std::io::ErrorKind::StorageFull
        || source.kind() == std::io::ErrorKind::QuotaExceeded
        || matches!(source.raw_os_error(), Some(28 | 122))
}

/// The bytes free for this user on the file system of `dir`, if known.
pub fn free_bytes(dir: &Path) -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let s = rustix::fs::statvfs(dir).ok()?;
        Some(s.f_bavail.saturating_mul(s.f_frsize))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = dir;
        None
    }
}

/// The line of a run stopped by a full disk in `dir`, where the files
/// still missing take up to `missing` bytes and `command` resumes it.
pub fn line(dir: &Path, missing: u64, command: &str) -> String {
    let free = free_bytes(dir);
    let more = match free {
        Some(free) if missing > free => {
            format!(
                "about {} more (up to {} for the files still missing, {} free)",
                size_text(missing - free),
                size_text(missing),
                size_text(free)
            )
        }
        Some(free) => format!(
            "more space (the files still missing take up to {}, {} free, and the run needs room \
             for its temporary files too)",
            size_text(missing),
            size_text(free)
        ),
        None => format!("up to {} for the files still missing", size_text(missing)),
    };
    format!(
        "the disk is full: {} needs {more}; the complete files and the last checkpoint are \
         kept: free some space and run `{command}` again to resume",
        shown_path(dir)
    )
}
