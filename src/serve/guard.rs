//! The checks every request passes before a handler: the `Host` header
//! against the names the server answers to (421, against DNS rebinding), the
//! sizes of the request target and headers (414, 431), no body (413), and,
//! on the API, no foreign `Origin` (403, so another site's page cannot start
//! solves) unless `--cors` names it (`cors.rs`). Each refusal is a JSON error like the handlers' (`docs/serve.md`).
//!
//! The bounds here are below those of `head.rs`, which refuses (also with
//! JSON) the heads too large to reach a handler.

use std::net::SocketAddr;

use crate::serve::cors::Cors;
use crate::serve::errors::ServeError;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The longest request target (path and query) read, in bytes.
pub const MAX_URI_BYTES: usize = 4096;
/// The most header bytes (names and values) read.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// Which `Host` headers a request may carry.
#[derive(Debug, Clone)]
pub struct Guard {
    /// The accepted `Host` values, lower-case; `None` accepts any (a
    /// server bound to a non-loopback address is reached under many names).
    hosts: Option<Vec<String>>,
    /// The `--allow-host` names, lower-case: with a port they match a `Host`
    /// exactly, without one any port.
    names: Vec<String>,
    /// The foreign origins whose pages may call the API (`--cors`).
    cors: Cors,
}

impl Guard {
    /// The checks for a server bound to `addr` that also answers to
    /// `allow` (`--allow-host`).
    pub fn new(addr: SocketAddr, allow: &[String]) -> Guard {
        let names = allow.iter().map(|n| n.trim().to_ascii_lowercase()).collect();
        if !addr.ip().is_loopback() {
            return Guard { hosts: None, names, cors: Cors::default() };
        }
        let port = addr.port();
        let mut hosts = vec![format!("127.0.0.1:{port}"), format!("localhost:{port}")];
        hosts.push(format!("[::1]:{port}"));
        let own = addr.to_string();
        if !hosts.contains(&own) {
            hosts.push(own);
        }
        if port == 80 {
            // A browser leaves out the default port.
            let bare: Vec<String> =
                hosts.iter().filter_map(|h| h.strip_suffix(":80").map(str::to_string)).collect();
            hosts.extend(bare);
        }
        Guard { hosts: Some(hosts), names, cors: Cors::default() }
    }

    /// The same checks, letting the pages of `cors`'s origins call the API.
    pub fn with_cors(self, cors: Cors) -> Guard {
        Guard { cors, ..self }
    }

    /// The origins of `--cors`.
    pub fn cors(&self) -> &Cors {
        &self.cors
    }

    /// Whether a request with `host` (its `Host` header) is answered.
    fn allows(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        let Some(hosts) = &self.hosts else { return true };
        hosts.contains(&host) || self.names.iter().any(|n| *n == host || n == host_name(&host))
    }
}

/// The name of a `Host` value without its port (`[::1]` keeps its brackets).
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |i| &host[..=i]);
    }
    host.split(':').next().unwrap_or(host)
}

/// Whether `origin` (an `Origin` header) is the server's own origin as the
/// client addressed it (`http://` and the `Host` header).
fn own_origin(origin: &[u8], host: Option<&str>) -> bool {
    let Some(host) = host else { return false };
    origin.strip_prefix(b"http://").is_some_and(|rest| rest.eq_ignore_ascii_case(host.as_bytes()))
}

/// The `Host` header, when there is one and it is text.
fn host(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::HOST).and_then(|h| h.to_str().ok())
}

/// Refuses a request for another host (421), one whose target or headers
/// are too long (414, 431), one with a body (413), and an API request from a
/// foreign origin (403), before any handler runs.
pub async fn check_request(State(guard): State<Guard>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    let host = host(headers);
    match host {
        None => return ServeError::ForeignHost(None).into_response(),
        Some(h) if !guard.allows(h) => {
            return ServeError::ForeignHost(Some(h.to_string())).into_response();
        }
        Some(_) => {}
    }
    let uri_len = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
    if uri_len > MAX_URI_BYTES {
        if req.uri().path() == "/" {
            return ServeError::PageTooLong { max: MAX_URI_BYTES }.into_response();
        }
        return ServeError::TargetTooLong { max: MAX_URI_BYTES }.into_response();
    }
    let header_bytes: usize =
        headers.iter().map(|(k, v)| k.as_str().len() + v.as_bytes().len()).sum();
    if header_bytes > MAX_HEADER_BYTES {
        return ServeError::HeadersTooLong { max: MAX_HEADER_BYTES }.into_response();
    }
    // A chunked body has no Content-Length: any Transfer-Encoding is a body.
    let has_body = headers.get(header::CONTENT_LENGTH).is_some_and(|v| v.as_bytes() != b"0")
        || headers.contains_key(header::TRANSFER_ENCODING);
    if has_body {
        return ServeError::Body.into_response();
    }
    if req.uri().path().starts_with("/api/")
        && let Some(origin) = headers.get(header::ORIGIN)
        && !own_origin(origin.as_bytes(), host)
        && !guard.cors.allows(origin.as_bytes())
    {
        let origin = String::from_utf8_lossy(origin.as_bytes()).into_owned();
        return ServeError::ForeignOrigin(origin).into_response();
    }
    next.run(req).await
}

/// A known path with a method other than GET (or HEAD): 405.
pub async fn method_not_allowed() -> ServeError {
    ServeError::MethodNotAllowed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_with_the_port_are_allowed() {
        let g = Guard::new("127.0.0.1:8080".parse().unwrap(), &["Box.lan".to_string()]);
        for h in ["127.0.0.1:8080", "LOCALHOST:8080", "[::1]:8080", "box.lan", "box.lan:1"] {
            assert!(g.allows(h), "{h}");
        }
        for h in ["127.0.0.1", "localhost:80", "evil.example:8080", "", "127.0.0.1:8080.x"] {
            assert!(!g.allows(h), "{h}");
        }
        let port80 = Guard::new("[::1]:80".parse().unwrap(), &[]);
        assert!(port80.allows("localhost") && port80.allows("[::1]"));
        let open = Guard::new("0.0.0.0:8080".parse().unwrap(), &[]);
        assert!(open.allows("anything"));
    }

    #[test]
    fn own_origin_is_http_and_the_host() {
        assert!(own_origin(b"http://127.0.0.1:8080", Some("127.0.0.1:8080")));
        assert!(own_origin(b"http://LOCALHOST:8080", Some("localhost:8080")));
        assert!(!own_origin(b"https://127.0.0.1:8080", Some("127.0.0.1:8080")));
        assert!(!own_origin(b"http://evil.example", Some("127.0.0.1:8080")));
        assert!(!own_origin(b"null", Some("127.0.0.1:8080")));
        assert!(!own_origin(b"http://127.0.0.1:8080", None));
    }
}
