//! `chaosclock serve`: an HTTP server with an analysis board in the
//! browser and a JSON API (`docs/serve.md`), on axum and tokio.
//!
//! Answers come from the tables when they cover a position, else from a
//! solve in memory under limits ([`state::Engine`]). The server binds to
//! loopback unless told otherwise, takes no file path from a request,
//! answers only to its own host names, bounds its connections and the time
//! to send a request, and refuses long request lines and headers before any
//! work (`guard.rs`, `listen.rs`).
//!
//! For the operator: `/healthz` (`health.rs`), `/metrics` (`metrics.rs`),
//! one log line per request on stderr (`access_log.rs`, off with
//! `--quiet`) written by a thread of its own that drops lines rather than
//! wait for a slow reader (`log.rs`), and a graceful stop on SIGTERM or Ctrl-C (`shutdown.rs`);
//! `docs/deploy.md` shows how to run it as a service.

pub mod access_log;
pub mod api;
pub mod check;
pub mod connection;
pub mod cors;
pub mod error_code;
pub mod errors;
pub mod flight;
pub mod guard;
pub mod head;
pub mod health;
pub mod idle;
pub mod listen;
pub mod log;
pub mod metrics;
pub mod page;
pub mod puzzle;
pub mod query;
pub mod shutdown;
pub mod state;

use std::io::Write;
use std::sync::Arc;

use anyhow::{Context, Result};
use axum::routing::get;
use axum::{Extension, Router, middleware};

use crate::cli::high::ServeHigh;
use crate::serve::api::AppState;
use crate::serve::cors::Cors;
use crate::serve::guard::Guard;
use crate::serve::health::Health;
use crate::serve::listen::ConnLimits;
use crate::serve::metrics::Metrics;
use crate::serve::shutdown::Signals;
use crate::serve::state::{Engine, Limits};

/// What the operator's routes and the access log share.
#[derive(Debug, Clone)]
pub struct Ops {
    /// `/metrics`, also fed by the access log.
    pub metrics: Arc<Metrics>,
    /// `/healthz`.
    pub health: Arc<Health>,
}

/// Runs the server until SIGTERM or Ctrl-C, then stops it gracefully
/// (`shutdown.rs`).
///
/// # Errors
/// The address cannot be bound, or the runtime or the signal handlers
/// cannot start.
pub fn run(args: &ServeHigh) -> Result<()> {
    let budget = args.budget;
    let limits = Limits { budget, cache_states: args.keep_states, queue: args.queue };
    let engine = Arc::new(Engine::new(Some(args.root.to_path_buf()), limits));
    let ops = Ops {
        metrics: Arc::new(Metrics::new(Arc::clone(&engine))),
        health: Arc::new(Health { root: args.root.to_path_buf() }),
    };
    let state = AppState { engine, rule: args.rule };
    log::start().context("starting the log's thread")?;
    if !args.quiet {
        access_log::init();
    }
    let conn = ConnLimits {
        max_connections: args.max_connections,
        header_timeout: args.header_timeout,
        grace: args.grace,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(16)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let open = runtime.block_on(async {
        let signals = Signals::catch()?;
        let listener = tokio::net::TcpListener::bind(args.bind)
            .await
            .with_context(|| format!("cannot listen on {}", args.bind))?;
        let addr = listener.local_addr().context("reading the bound address")?;
        if !addr.ip().is_loopback() {
            log::line(&format!("warning: listening on {addr}, which other machines may reach"));
        }
        log::line(&format!("note: a solve in memory stops past {}", budget.describe()));
        // Tests and scripts read this line for the port.
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on http://{addr}/")?;
        out.flush()?;
        drop(out);
        let guard = Guard::new(addr, &args.allow_host).with_cors(Cors::new(&args.cors));
        let app = router(state, guard, ops);
        let stop = shutdown::on_signal(signals, args.grace);
        listen::serve(listener, app, conn, stop).await
    })?;
    if open > 0 {
        log::line(&format!(
            "serve: stopped after {} s with {open} connections still open",
            args.grace.as_secs()
        ));
    } else {
        log::line("serve: stopped");
    }
    // A solve still running is not waited for.
    runtime.shutdown_background();
    // A stderr nobody reads does not hold the exit for more than a second.
    log::flush(std::time::Duration::from_secs(1));
    Ok(())
}

/// The routes: the page, its assets, the API, the operator's routes, 405
/// for other methods and 404 for the rest, behind the checks of `guard`
/// and its `--cors` (`cors.rs`), each request timed, counted and logged
/// (`access_log.rs`).
pub fn router(state: AppState, guard: Guard, ops: Ops) -> Router {
    let cors = guard.cors().clone();
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::app_js))
        .route("/i18n.js", get(page::i18n_js))
        .route("/graph.js", get(page::graph_js))
        .route("/tree.js", get(page::tree_js))
        .route("/puzzle.js", get(page::puzzle_js))
        .route("/glicko.js", get(page::glicko_js))
        .route("/editor.js", get(page::editor_js))
        .route("/prefs.js", get(page::prefs_js))
        .route("/record.js", get(page::record_js))
        .route("/report.js", get(page::report_js))
        .route("/style.css", get(page::style_css))
        .route("/favicon.svg", get(page::favicon))
        .route("/favicon.ico", get(page::favicon))
        .route("/api/position", get(api::position_handler))
        .route("/api/mainline", get(api::mainline_handler))
        .route("/api/analyse", get(api::analyse_handler))
        .route("/api/fair-start", get(api::fair_start_handler))
        .route("/api/progress", get(api::progress_handler))
        .route("/api/check", get(check::check_handler))
        .route("/healthz", get(health::handler))
        .route("/metrics", get(metrics::handler))
        .route("/api/puzzle", get(puzzle::puzzle_handler))
        .route("/api/engine-move", get(puzzle::engine_move_handler))
        .fallback(api::not_found)
        .method_not_allowed_fallback(guard::method_not_allowed)
        .layer(middleware::from_fn_with_state(cors, cors::handle))
        .layer(middleware::from_fn_with_state(guard, guard::check_request))
        .layer(middleware::from_fn(access_log::observe))
        .layer(Extension(ops.health))
        .layer(Extension(ops.metrics))
        .with_state(state)
}
