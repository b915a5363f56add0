//! `GET /metrics`: the server's counters in the Prometheus text format
//! (OpenMetrics 1.0, which Prometheus scrapes), kept and written by the
//! `prometheus-client` crate.
//!
//! - `chaosclock_http_requests_total{route,method,status}`: requests
//!   answered by axum (`route` is the route's path, `other` for unknown
//!   paths; `method` is `GET`, `HEAD` or `other`). A head refused before
//!   it reaches axum (`head.rs`) is not counted.
//! - `chaosclock_http_request_duration_seconds{route}`: a histogram of the
//!   time from the request to its answer's head.
//! - `chaosclock_solves_running`, `chaosclock_solves_queued`: solves in
//!   memory under way (0 or 1) and requests waiting for the solver, read
//!   from the [`Engine`] at each scrape.
//! - `chaosclock_solve_cache_hits_total`: answers taken from a solution
//!   kept in memory instead of a new solve.
//! - `chaosclock_log_lines_dropped_total`: lines of stderr (the access log,
//!   the server's notes) dropped because its reader fell behind (`log.rs`).
//!
//! Labels come from a fixed set, so the series stay few whatever the
//! clients send.

use std::sync::Arc;

use axum::Extension;
use axum::http::{Method, header};
use axum::response::{IntoResponse, Response};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use crate::serve::errors::ServeError;
use crate::serve::state::Engine;

/// The content type of the OpenMetrics text format.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The labels of a request counted.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: String,
    method: &'static str,
    status: u16,
}

/// The label of a latency.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabel {
    route: String,
}

/// A histogram of latencies: 1 ms to about 4 minutes, in steps of 4 (a
/// table probe takes a millisecond, a 12-slot solve minutes).
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.001, 4.0, 10))
}

/// The server's metrics, shared by every request.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Family<RouteLabel, Histogram, fn() -> Histogram>,
}

impl Metrics {
    /// Metrics of a server answering from `engine`.
    pub fn new(engine: Arc<Engine>) -> Metrics {
        let mut registry = Registry::with_prefix("chaosclock");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register("http_requests", "Requests answered", requests.clone());
        let latency: Family<RouteLabel, Histogram, fn() -> Histogram> =
            Family::new_with_constructor(latency_histogram);
        registry.register(
            "http_request_duration_seconds",
            "Time from a request to its answer",
            latency.clone(),
        );
        registry.register_collector(Box::new(EngineCollector(engine)));
        Metrics { registry, requests, latency }
    }

    /// Counts a request to `route` (`None`: no route matched) answered with
    /// `status` after `seconds`.
    pub fn observe(&self, route: Option<&str>, method: &Method, status: u16, seconds: f64) {
        let route = route.unwrap_or("other").to_string();
        let method = match *method {
            Method::GET => "GET",
            Method::HEAD => "HEAD",
            _ => "other",
        };
        self.requests.get_or_create(&RequestLabels { route: route.clone(), method, status }).inc();
        self.latency.get_or_create(&RouteLabel { route }).observe(seconds);
    }

    /// The metrics in the text format.
    pub fn text(&self) -> Result<String, std::fmt::Error> {
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &self.registry)?;
        Ok(out)
    }
}

/// The engine's numbers, read at each scrape.
#[derive(Debug)]
struct EngineCollector(Arc<Engine>);

impl Collector for EngineCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let load = self.0.load();
        let gauges = [
            ("solves_running", "Solves in memory under way.", load.running),
            ("solves_queued", "Requests waiting for the solver.", load.queued),
        ];
        for (name, help, value) in gauges {
            let gauge = ConstGauge::new(i64::try_from(value).unwrap_or(i64::MAX));
            gauge.encode(encoder.encode_descriptor(name, help, None, gauge.metric_type())?)?;
        }
        let hits = ConstCounter::new(load.cache_hits);
        let help = "Answers taken from a solution kept in memory.";
        hits.encode(encoder.encode_descriptor(
            "solve_cache_hits",
            help,
            None,
            hits.metric_type(),
        )?)?;
        let dropped = ConstCounter::new(crate::serve::log::dropped());
        let help = "Lines of stderr dropped because its reader fell behind.";
        dropped.encode(encoder.encode_descriptor(
            "log_lines_dropped",
            help,
            None,
            dropped.metric_type(),
        )?)
    }
}

/// `GET /metrics`.
pub async fn handler(Extension(metrics): Extension<Arc<Metrics>>) -> Response {
    match metrics.text() {
        Ok(text) => ([(header::CONTENT_TYPE, CONTENT_TYPE)], text).into_response(),
        Err(_) => ServeError::Internal("the metrics could not be written".into()).into_response(),
    }
}
