//! The files named by flags, checked when the arguments are: a file read
//! ([`SmallFile`], [`TextFile`]: a regular file under a size bound, read
//! once, before any work), a file written ([`OutputPath`]: not a
//! directory, in a directory that exists, written through its `.tmp`
//! sibling), and the tables root directory ([`TablesDir`]: not a file).
//!
//! A device, a FIFO or a directory given as a file to read is refused
//! before it is opened, so `/dev/zero` cannot make the read hang or fill
//! the memory; the read stops after the bound even if the file grows.

use std::io::Read;
use std::ops::Deref;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use chaosclock::escape_control;
use clap::builder::{PathBufValueParser, TypedValueParser};

/// The default tables root directory, read if it is there.
pub const DEFAULT_TABLES: &str = "tables";

/// `path` for a message: control characters escaped, so it is one line.
pub fn shown_path(path: &Path) -> String {
    escape_control(&path.display().to_string()).into_owned()
}

/// A regular file (symbolic links followed) of at most a given size, read
/// whole.
#[derive(Debug)]
pub struct SmallFile {
    /// The path given.
    pub path: PathBuf,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

impl SmallFile {
    /// Reads the file `path`, called `what` in errors, of at most `limit`
    /// bytes.
    ///
    /// # Errors
    /// The file cannot be read, or is not such a file.
    pub fn read(path: PathBuf, what: &str, limit: u64) -> Result<SmallFile> {
        let shown = shown_path(&path);
        let meta =
            std::fs::metadata(&path).with_context(|| format!("cannot read {what} {shown}"))?;
        if !meta.is_file() {
            bail!("{what} {shown} is not a regular file");
        }
        let too_big = || anyhow!("{what} {shown} is larger than {limit} bytes");
        if meta.len() > limit {
            return Err(too_big());
        }
        let mut bytes = Vec::new();
        std::fs::File::open(&path)
            .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
            .with_context(|| format!("cannot read {what} {shown}"))?;
        if bytes.len() as u64 > limit {
            return Err(too_big());
        }
        Ok(SmallFile { path, bytes })
    }
}

/// A [`SmallFile`] that is UTF-8 text.
#[derive(Debug)]
pub struct TextFile {
    /// The path given.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
}

impl TextFile {
    /// Reads the file `path`, called `what` in errors, of at most `limit`
    /// bytes, as UTF-8 text.
    ///
    /// # Errors
    /// As [`SmallFile::read`], or the file is not UTF-8 (the first bad
    /// byte named, counted from 1 as `query -` counts).
    pub fn read(path: PathBuf, what: &str, limit: u64) -> Result<TextFile> {
        let SmallFile { path, bytes } = SmallFile::read(path, what, limit)?;
        match String::from_utf8(bytes) {
            Ok(text) => Ok(TextFile { path, text }),
            Err(e) => bail!(
                "{what} {} is not UTF-8 text (byte {})",
                shown_path(&path),
                e.utf8_error().valid_up_to() + 1
            ),
        }
    }
}

/// A file to write whole, through `FILE.tmp` and a rename: not a
/// directory (so no `DIR.tmp` is left behind), and in a directory that
/// exists, both checked before any work.
#[derive(Debug, Clone)]
pub struct OutputPath(PathBuf);

impl OutputPath {
    /// Checks `path` as a file to write.
    ///
    /// # Errors
    /// `path` is a directory, or its directory does not exist.
    pub fn new(path: PathBuf) -> Result<OutputPath> {
        let shown = shown_path(&path);
        if path.is_dir() {
            bail!("cannot write {shown}: it is a directory");
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
            && !dir.is_dir()
        {
            bail!("cannot write {shown}: no directory {}", shown_path(dir));
        }
        Ok(OutputPath(path))
    }

    /// The path given.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The path given, for printing.
    pub fn display(&self) -> std::path::Display<'_> {
        self.0.display()
    }

    /// `FILE.tmp` next to `FILE`.
    pub fn tmp(&self) -> PathBuf {
        let mut name = self.0.as_os_str().to_os_string();
        name.push(".tmp");
        PathBuf::from(name)
    }
}

/// A tables root directory (`--tables DIR`): a directory, or nothing yet
/// (`generate` makes it; the others find no tables there), but not a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TablesDir(PathBuf);

impl TablesDir {
    /// Checks `path` as a tables root.
    ///
    /// # Errors
    /// Something that is not a directory is there.
    pub fn new(path: PathBuf) -> Result<TablesDir, &'static str> {
        if path.exists() && !path.is_dir() {
            return Err("not a directory");
        }
        Ok(TablesDir(path))
    }
}

impl TablesDir {
    /// The tables root of `--tables DIR` if given, else [`DEFAULT_TABLES`]
    /// (read if it is there).
    ///
    /// # Errors
    /// `must_exist` and the DIR given is not there: a tables root named on
    /// purpose is never replaced by no tables at all.
    pub fn given_or_default(given: Option<TablesDir>, must_exist: bool) -> Result<TablesDir> {
        match given {
            None => Ok(TablesDir(PathBuf::from(DEFAULT_TABLES))),
            Some(dir) if must_exist && !dir.is_dir() => {
                bail!("--tables {}: no such directory", shown_path(&dir))
            }
            Some(dir) => Ok(dir),
        }
    }
}

impl Deref for TablesDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

/// `--tables DIR`: a path read as clap reads one, then a [`TablesDir`].
pub fn tables_dir_parser() -> impl TypedValueParser<Value = TablesDir> {
    PathBufValueParser::new().try_map(TablesDir::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_checked_once() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("f"), "text").unwrap();
        let err = |r: Result<OutputPath>| format!("{:#}", r.unwrap_err());
        assert!(err(OutputPath::new(d.to_path_buf())).ends_with("it is a directory"));
        assert!(err(OutputPath::new(d.join("no/x"))).contains(": no directory "));
        let out = OutputPath::new(d.join("out")).unwrap();
        assert_eq!(out.tmp(), d.join("out.tmp"));
        assert_eq!(TablesDir::new(d.join("f")), Err("not a directory"));
        assert!(TablesDir::new(d.join("none")).is_ok() && TablesDir::new(d.into()).is_ok());
        let none = Some(TablesDir::new(d.join("none")).unwrap());
        let missing = TablesDir::given_or_default(none.clone(), true).unwrap_err();
        assert!(missing.to_string().ends_with("none: no such directory"), "{missing}");
        assert_eq!(&*TablesDir::given_or_default(none, false).unwrap(), d.join("none"));
        assert_eq!(&*TablesDir::given_or_default(None, true).unwrap(), Path::new(DEFAULT_TABLES));
        assert_eq!(TextFile::read(d.join("f"), "log", 4).unwrap().text, "text");
        let big = SmallFile::read(d.join("f"), "log", 3).unwrap_err();
        assert!(big.to_string().ends_with("is larger than 3 bytes"), "{big}");
        let not = SmallFile::read(d.to_path_buf(), "log", 3).unwrap_err();
        assert!(not.to_string().ends_with("is not a regular file"), "{not}");
    }
}
