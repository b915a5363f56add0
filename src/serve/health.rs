//! `GET /healthz`: 200 while the server runs, with what it serves from:
//! its version, the table directories under `--tables DIR` (read again at
//! each request, so a lost mount shows) and the openings book built in
//! (`docs/json.md`, "/healthz").

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::{Extension, Json};
use chaosclock::PassRule;
use chaosclock::book::Book;
use serde::Serialize;

use crate::cli::shown_path;
use crate::serve::errors::ServeError;

/// The tables root the server reads, shared by the requests.
#[derive(Debug, Clone)]
pub struct Health {
    /// `--tables DIR`.
    pub root: PathBuf,
}

/// The answer of `/healthz`.
#[derive(Debug, Serialize)]
pub struct HealthJson {
    /// Always `ok` (the server answers).
    pub status: &'static str,
    /// The program's version.
    pub version: &'static str,
    /// The tables.
    pub tables: TablesJson,
    /// The openings book.
    pub book: BookJson,
}

/// The tables root and the table directories in it.
#[derive(Debug, Serialize)]
pub struct TablesJson {
    /// `--tables DIR` as given.
    pub root: String,
    /// Whether it is a directory now.
    pub exists: bool,
    /// Its table directories (`n{N}-{rule}` with at least one table file),
    /// by size then rule.
    pub dirs: Vec<TableDirJson>,
}

/// One table directory.
#[derive(Debug, Serialize)]
pub struct TableDirJson {
    /// Its name, e.g. `n8-always`.
    pub name: String,
    /// The board size.
    pub slots: u8,
    /// The pass rule.
    pub rule: &'static str,
    /// The table files in it (`f*.cctb`, not the side files).
    pub files: usize,
}

/// The book built into the binary.
#[derive(Debug, Serialize)]
pub struct BookJson {
    /// Its size in bytes.
    pub bytes: usize,
    /// Its sections: the sizes and rules whose openings it answers.
    pub sections: Vec<BookSectionJson>,
    /// Why it cannot be read (a broken build), if it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One section of the book.
#[derive(Debug, Serialize)]
pub struct BookSectionJson {
    /// The board size.
    pub slots: u8,
    /// The pass rule.
    pub rule: &'static str,
    /// Its openings.
    pub openings: u64,
}

/// The table directories of `root`.
fn table_dirs(root: &Path) -> Vec<TableDirJson> {
    let mut dirs = Vec::new();
    for slots in (4..=12).step_by(2) {
        for rule in PassRule::ALL {
            let name = format!("n{slots}-{}", rule.name());
            let Ok(entries) = std::fs::read_dir(root.join(&name)) else { continue };
            let files = entries
                .filter_map(Result::ok)
                .filter(|e| {
                    let n = e.file_name();
                    let n = n.to_string_lossy();
                    n.starts_with('f') && n.ends_with(".cctb") && !n.ends_with(".side.cctb")
                })
                .count();
            if files > 0 {
                dirs.push(TableDirJson { name, slots, rule: rule.name(), files });
            }
        }
    }
    dirs
}

/// What the book built in holds.
fn book() -> BookJson {
    match Book::embedded() {
        Ok(book) => BookJson {
            bytes: book.size() as usize,
            sections: book
                .entries()
                .map(|e| BookSectionJson {
                    slots: e.slots,
                    rule: e.rule.name(),
                    openings: e.openings,
                })
                .collect(),
            error: None,
        },
        Err(e) => BookJson { bytes: 0, sections: Vec::new(), error: Some(e.to_string()) },
    }
}

/// What `/healthz` answers for a server reading `root`.
pub fn health(root: &Path) -> HealthJson {
    HealthJson {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
        tables: TablesJson {
            root: shown_path(root),
            exists: root.is_dir(),
            dirs: table_dirs(root),
        },
        book: book(),
    }
}

/// `GET /healthz` (the directories are read off the async threads).
pub async fn handler(
    Extension(health): Extension<Arc<Health>>,
) -> Result<Json<HealthJson>, ServeError> {
    let root = health.root.clone();
    tokio::task::spawn_blocking(move || Json(self::health(&root)))
        .await
        .map_err(|e| ServeError::Internal(format!("the health check stopped: {e}")))
}
