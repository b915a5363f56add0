//! One line on stderr for each request answered, written through
//! `tracing` (as axum servers log), e.g.
//!
//! ```text
//! 2026-12-04T23:41:07.112348Z  INFO access: method=GET path=/api/position status=200 ms=3.1
//! ```
//!
//! The path is logged without its query string (positions and games stay
//! out of the log). The same step counts the request in `/metrics`
//! ([`Metrics::observe`]). `serve --quiet` installs no subscriber, so the
//! lines are not made at all.

use std::sync::Arc;
use std::time::Instant;

use axum::Extension;
use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;

use crate::serve::metrics::Metrics;

/// Sends the `tracing` events of the server (the access lines) to stderr
/// through the log's queue (`log.rs`), at level INFO and above, without
/// colours.
pub fn init() {
    let subscriber = tracing_subscriber::fmt()
        .with_writer(crate::serve::log::Writer)
        .with_max_level(tracing::Level::INFO)
        .finish();
    // Only `serve` sets one, once per process.
    let _ = tracing::subscriber::set_global_default(subscriber);
}

/// Times a request, counts it, and logs its line.
pub async fn observe(
    Extension(metrics): Extension<Arc<Metrics>>,
    req: Request,
    next: Next,
) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let route = req.extensions().get::<MatchedPath>().map(|p| p.as_str().to_string());
    let response = next.run(req).await;
    let elapsed = start.elapsed();
    let status = response.status().as_u16();
    metrics.observe(route.as_deref(), &method, status, elapsed.as_secs_f64());
    let ms = format_args!("{:.1}", elapsed.as_secs_f64() * 1000.0);
    tracing::info!(target: "access", %method, %path, status, ms);
    response
}
