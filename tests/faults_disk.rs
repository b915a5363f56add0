//! A disk that fills, and a read-only one (issue 68), on a small tmpfs
//! mounted for the test (`mount -t tmpfs -o size=…`; the tests run as root
//! and skip with a note where mounting is not allowed).
//!
//! - Full: `generate` stops with one `error:` line naming the directory
//!   and how much more it needs, exit 2; every file it leaves under a
//!   table's name is byte for byte the file of a run never stopped (the
//!   partial ones are `.tmp`); after space is freed the same command
//!   finishes with the uninterrupted run's manifest.
//! - Read-only: `generate` refuses at once in one line; `query` and
//!   `serve` answer from it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::bin::{check_fails, ok_in, run_in};
use common::server::Server;

/// A tmpfs mounted on a fresh directory, unmounted when dropped.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    /// Mounts a tmpfs of `size` (e.g. `400k`), or `None` with a note when
    /// this process may not mount.
    fn mount(size: &str) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .output();
        match out {
            Ok(o) if o.status.success() => Some(Tmpfs { dir }),
            Ok(o) => {
                let why = String::from_utf8_lossy(&o.stderr);
                eprintln!("note: skipped: cannot mount a tmpfs here ({})", why.trim());
                None
            }
            Err(e) => {
                eprintln!("note: skipped: cannot run mount ({e})");
                None
            }
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Mounts it again with `options` (e.g. `size=8m`, `ro`).
    fn remount(&self, options: &str) {
        let status = Command::new("mount")
            .args(["-o", &format!("remount,{options}")])
            .arg(self.path())
            .status()
            .unwrap();
        assert!(status.success(), "remount,{options}");
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

const GENERATE: [&str; 6] = ["generate", "--slots", "8", "--tables", "t", "--checkpoint"];

/// `generate --slots 8 --tables t --checkpoint 0`.
fn generate_args() -> Vec<&'static str> {
    let mut args = GENERATE.to_vec();
    args.push("0");
    args
}

/// The files of `dir` by name.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    all.sort();
    all
}

#[test]
fn a_full_disk_stops_generate_in_one_line_and_the_run_resumes_after() {
    let whole = tempfile::tempdir().unwrap();
    ok_in(whole.path(), &generate_args());
    let want = ok_in(whole.path(), &["manifest", "--slots", "8", "--tables", "t"]);
    let Some(disk) = Tmpfs::mount("400k") else { return };

    let out = run_in(disk.path(), &generate_args());
    check_fails(&generate_args(), out.clone(), "the disk is full: t/n8-always needs about ");
    let line = String::from_utf8_lossy(&out.stderr).into_owned();
    eprintln!("{}", line.trim());
    assert!(line.contains(" free)") && line.contains("run `chaosclock generate --slots 8"));
    // Every file under a table's name is complete: the very bytes of the
    // run never stopped. The partial ones are temporary.
    let (mut kept, mut partial) = (0, 0);
    for path in files(&disk.path().join("t/n8-always")) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".tmp") {
            partial += 1;
            continue;
        }
        let twin = whole.path().join("t/n8-always").join(&name);
        let (got, had) = (std::fs::read(&path).unwrap(), std::fs::read(&twin).ok());
        assert!(had.is_none_or(|had| had == got), "{name} is not the complete file");
        kept += 1;
    }
    eprintln!("left on the full disk: {kept} complete files, {partial} temporary");
    assert!(kept > 0 && partial > 0, "{kept} {partial}");

    // Space freed: the same command finishes the table.
    disk.remount("size=8m");
    ok_in(disk.path(), &generate_args());
    let got = ok_in(disk.path(), &["manifest", "--slots", "8", "--tables", "t"]);
    assert_eq!(got, want, "the manifest after the resumed run");
}

#[test]
fn a_read_only_tables_directory_is_refused_by_generate_and_served_by_query_and_serve() {
    let Some(disk) = Tmpfs::mount("8m") else { return };
    ok_in(disk.path(), &["generate", "--slots", "6", "--tables", "t"]);
    disk.remount("ro");
    // Nothing to write for 6 slots: kept as it is. 8 slots: refused at once.
    ok_in(disk.path(), &["generate", "--slots", "6", "--tables", "t"]);
    let t = Instant::now();
    let args = ["generate", "--slots", "8", "--tables", "t"];
    check_fails(&args, run_in(disk.path(), &args), "cannot write t/n8-always: Read-only");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());

    let pos = "2,1,4,3,6,5";
    let query = ok_in(disk.path(), &["query", pos, "--tables", "t", "--no-solve", "--json"]);
    assert!(query.contains("\"source\":\"tables\""), "{query}");
    let server = Server::start(disk.path(), &["--tables", "t"]);
    let answer = server.ok(&format!("/api/position?pos={pos}"));
    assert_eq!(answer["value"], 4, "{answer}");
}
