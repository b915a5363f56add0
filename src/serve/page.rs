//! The analysis board: one HTML page, its scripts and its style sheet,
//! compiled into the binary (nothing is fetched from elsewhere).

use axum::http::header;
use axum::response::IntoResponse;

/// The page.
const INDEX_HTML: &str = include_str!("assets/index.html");
/// Its script.
const APP_JS: &str = include_str!("assets/app.js");
/// The words of the page in Chinese and English, and the move notation.
const I18N_JS: &str = include_str!("assets/i18n.js");
/// The evaluation graph.
const GRAPH_JS: &str = include_str!("assets/graph.js");
/// The game tree: variations, promotion, deletion, links.
const TREE_JS: &str = include_str!("assets/tree.js");
/// Puzzle mode (issue 61), loaded before app.js: it defines app.js's hooks.
const PUZZLE_JS: &str = include_str!("assets/puzzle.js");
/// The Glicko-2 rating of the puzzle player.
const GLICKO_JS: &str = include_str!("assets/glicko.js");
/// The board editor.
const EDITOR_JS: &str = include_str!("assets/editor.js");
/// Game records: reader, writer and the rules they check.
const RECORD_JS: &str = include_str!("assets/record.js");
/// Loading and exporting records, and the whole-game report.
const REPORT_JS: &str = include_str!("assets/report.js");
/// Its style sheet.
const STYLE_CSS: &str = include_str!("assets/style.css");
/// Its icon (also answered at `/favicon.ico`, where browsers ask first).
const FAVICON_SVG: &str = include_str!("assets/favicon.svg");

/// `GET /`.
pub async fn index() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX_HTML)
}

/// `GET /app.js`.
pub async fn app_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], APP_JS)
}

/// `GET /i18n.js`.
pub async fn i18n_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], I18N_JS)
}

/// `GET /graph.js`.
pub async fn graph_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], GRAPH_JS)
}

/// `GET /tree.js`.
pub async fn tree_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], TREE_JS)
}

/// `GET /puzzle.js`.
pub async fn puzzle_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], PUZZLE_JS)
}

/// `GET /glicko.js`.
pub async fn glicko_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], GLICKO_JS)
}

/// `GET /style.css`.
pub async fn style_css() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE_CSS)
}

/// `GET /favicon.svg` and `GET /favicon.ico`.
pub async fn favicon() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "image/svg+xml")], FAVICON_SVG)
}

/// The theme, the sounds and the shortcuts list (issue 66).
const PREFS_JS: &str = include_str!("assets/prefs.js");

/// `GET /prefs.js`.
pub async fn prefs_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], PREFS_JS)
}

/// `GET /editor.js`.
pub async fn editor_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], EDITOR_JS)
}

/// `GET /record.js`.
pub async fn record_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], RECORD_JS)
}

/// `GET /report.js`.
pub async fn report_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], REPORT_JS)
}
