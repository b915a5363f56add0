//! `chaosclock serve`: an HTTP server with an analysis board in the
//! browser and a JSON API (`docs/serve.md`), on axum and tokio.
//!
//! Answers come from the tables when they cover a position, else from a
//! solve in memory under limits ([`state::Engine`]). The server binds to
//! loopback unless told otherwise, takes no file path from a request, and
//! refuses long request lines and headers before any work.

pub mod api;
pub mod page;
pub mod query;
pub mod state;

use std::io::Write;
use std::sync::Arc;

use anyhow::{Context, Result};
use axum::Router;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chaosclock::PassRule;

use crate::cli::ServeArgs;
use crate::cmd::budget::{BYTES_PER_STATE, Budget};
use crate::serve::api::{ApiError, AppState};
use crate::serve::state::{Engine, Limits};

/// The longest request target (path and query) read, in bytes.
pub const MAX_URI_BYTES: usize = 4096;
/// The most header bytes (names and values) read.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// Runs the server until it is killed.
///
/// # Errors
/// The address cannot be bound, or the runtime cannot start.
pub fn run(args: &ServeArgs, rule: PassRule) -> Result<()> {
    // The kept solves take memory too: the budget leaves room for them.
    let kept_bytes = (args.keep_states as u64).saturating_mul(BYTES_PER_STATE);
    let budget = Budget::new(args.budget, kept_bytes);
    let limits = Limits { budget, cache_states: args.keep_states, queue: args.queue };
    let engine = Arc::new(Engine::new(Some(args.tables.clone()), limits));
    let app = router(AppState { engine, rule });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(16)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(args.bind)
            .await
            .with_context(|| format!("cannot listen on {}", args.bind))?;
        let addr = listener.local_addr().context("reading the bound address")?;
        if !addr.ip().is_loopback() {
            eprintln!("warning: listening on {addr}, which other machines may reach");
        }
        eprintln!("note: a solve in memory stops past {}", budget.describe());
        // Tests and scripts read this line for the port.
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on http://{addr}/")?;
        out.flush()?;
        drop(out);
        axum::serve(listener, app).await.context("serving")
    })
}

/// The routes: the page, its assets, the API, and 404 for the rest.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::app_js))
        .route("/style.css", get(page::style_css))
        .route("/api/position", get(api::position_handler))
        .route("/api/mainline", get(api::mainline_handler))
        .route("/api/analyse", get(api::analyse_handler))
        .route("/api/fair-start", get(api::fair_start_handler))
        .fallback(api::not_found)
        .layer(middleware::from_fn(limit_request))
        .with_state(state)
}

/// Refuses a request whose target or headers are too long (414, 431), or
/// which has a body, before any handler runs.
async fn limit_request(req: Request, next: Next) -> Response {
    let uri_len = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
    if uri_len > MAX_URI_BYTES {
        let msg = format!("request target longer than {MAX_URI_BYTES} bytes");
        return ApiError::new(StatusCode::URI_TOO_LONG, msg).into_response();
    }
    let header_bytes: usize =
        req.headers().iter().map(|(k, v)| k.as_str().len() + v.as_bytes().len()).sum();
    if header_bytes > MAX_HEADER_BYTES {
        let msg = format!("request headers longer than {MAX_HEADER_BYTES} bytes");
        return ApiError::new(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, msg).into_response();
    }
    let has_body =
        req.headers().get(axum::http::header::CONTENT_LENGTH).is_some_and(|v| v.as_bytes() != b"0");
    if has_body {
        let msg = "requests have no body: every endpoint is a GET";
        return ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, msg).into_response();
    }
    next.run(req).await
}
