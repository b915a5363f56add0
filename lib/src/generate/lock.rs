//! The lock a run of `generate` (or `recode`) holds on its directory: the
//! only writer, or a reader of a directory it cannot write to.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::generate::GenerateError;

/// The lock a run holds on its directory.
#[derive(Debug)]
pub(super) enum Lock {
    /// The only writer: the lock file with the exclusive lock, held
    /// until dropped.
    Writer {
        /// The lock file.
        _held: fs::File,
    },
    /// The lock file cannot be written (`source`), so neither, most
    /// likely, can the directory: the run may only read, under a shared
    /// lock if the lock file exists, so that it does not read files a
    /// writer is making.
    ReadOnly {
        /// The lock file.
        path: PathBuf,
        /// Why it cannot be written.
        source: std::io::Error,
        /// The lock file holding the shared lock, if it exists.
        _shared: Option<fs::File>,
    },
}

/// Takes the lock that makes this run the only writer of `dir`: an
/// advisory lock on `DIR.lock` next to it, which the system releases when
/// the process ends, however it ends. If the lock file cannot be written
/// (no permission, a read-only file system), the run may still read:
/// [`Lock::ReadOnly`].
pub(super) fn lock(dir: &Path) -> Result<Lock, GenerateError> {
    let path = dir.with_extension("lock");
    let busy = || GenerateError::Busy(dir.to_path_buf());
    let source = match fs::OpenOptions::new().create(true).truncate(false).write(true).open(&path) {
        Ok(file) => {
            return match file.try_lock() {
                Ok(()) => Ok(Lock::Writer { _held: file }),
                Err(fs::TryLockError::WouldBlock) => Err(busy()),
                Err(fs::TryLockError::Error(e)) => Err(GenerateError::io(&path, e)),
            };
        }
        Err(e) if read_only(&e) => e,
        Err(e) => return Err(GenerateError::io(&path, e)),
    };
    let shared = match fs::File::open(&path).map(|f| (f.try_lock_shared(), f)) {
        Ok((Ok(()), file)) => Some(file),
        Ok((Err(fs::TryLockError::WouldBlock), _)) => return Err(busy()),
        Ok((Err(fs::TryLockError::Error(_)), _)) | Err(_) => None,
    };
    Ok(Lock::ReadOnly { path, source, _shared: shared })
}

/// Whether `e` says that a file cannot be written for want of permission
/// or a writable file system.
fn read_only(e: &std::io::Error) -> bool {
    matches!(e.kind(), ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem)
}
