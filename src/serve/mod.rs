//! `chaosclock serve`: an HTTP server with an analysis board in the
//! browser and a JSON API (`docs/serve.md`), on axum and tokio.
//!
//! Answers come from the tables when they cover a position, else from a
//! solve in memory under limits ([`state::Engine`]). The server binds to
//! loopback unless told otherwise, takes no file path from a request,
//! answers only to its own host names, bounds its connections and the time
//! to send a request, and refuses long request lines and headers before any
//! work (`guard.rs`, `listen.rs`).

pub mod api;
pub mod errors;
pub mod guard;
pub mod head;
pub mod listen;
pub mod page;
pub mod puzzle;
pub mod query;
pub mod state;

use std::io::Write;
use std::sync::Arc;

use anyhow::{Context, Result};
use axum::Router;
use axum::middleware;
use axum::routing::get;

use crate::cli::high::ServeHigh;
use crate::serve::api::AppState;
use crate::serve::guard::Guard;
use crate::serve::listen::ConnLimits;
use crate::serve::state::{Engine, Limits};

/// Runs the server until it is killed.
///
/// # Errors
/// The address cannot be bound, or the runtime cannot start.
pub fn run(args: &ServeHigh) -> Result<()> {
    let budget = args.budget;
    let limits = Limits { budget, cache_states: args.keep_states, queue: args.queue };
    let engine = Arc::new(Engine::new(Some(args.root.to_path_buf()), limits));
    let state = AppState { engine, rule: args.rule };
    let conn =
        ConnLimits { max_connections: args.max_connections, header_timeout: args.header_timeout };
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
        let app = router(state, Guard::new(addr, &args.allow_host));
        listen::serve(listener, app, conn).await;
        Ok(())
    })
}

/// The routes: the page, its assets, the API, 405 for other methods and
/// 404 for the rest, behind the checks of `guard`.
pub fn router(state: AppState, guard: Guard) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::app_js))
        .route("/i18n.js", get(page::i18n_js))
        .route("/graph.js", get(page::graph_js))
        .route("/style.css", get(page::style_css))
        .route("/favicon.svg", get(page::favicon))
        .route("/favicon.ico", get(page::favicon))
        .route("/api/position", get(api::position_handler))
        .route("/api/mainline", get(api::mainline_handler))
        .route("/api/analyse", get(api::analyse_handler))
        .route("/api/fair-start", get(api::fair_start_handler))
        .route("/api/progress", get(api::progress_handler))
        .route("/api/puzzle", get(puzzle::puzzle_handler))
        .route("/api/engine-move", get(puzzle::engine_move_handler))
        .fallback(api::not_found)
        .method_not_allowed_fallback(guard::method_not_allowed)
        .layer(middleware::from_fn_with_state(guard, guard::check_request))
        .with_state(state)
}
