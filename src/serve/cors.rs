//! `--cors ORIGIN`: the pages of other origins (another host serving the
//! game's pages) may call the JSON API (`docs/deploy.md`).
//!
//! Off by default: then a request to `/api/` with a foreign `Origin` is
//! refused (403, `guard.rs`) and `OPTIONS` gets 405. With `--cors`, for an
//! origin named (or any, with `*`), and for `/api/` only (never
//! `/metrics`, `/healthz` or the page):
//! - a preflight (`OPTIONS` with `Access-Control-Request-Method`) gets 204
//!   with `Access-Control-Allow-Origin`, `-Allow-Methods: GET, HEAD` and
//!   `-Max-Age`;
//! - every answer (errors too) carries `Access-Control-Allow-Origin`:
//!   the origin itself with `Vary: Origin`, or `*` under `--cors '*'`.
//!
//! The API takes no credentials (no cookies), so none are allowed.

use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// How long a browser may keep a preflight's answer, in seconds.
pub const MAX_AGE_SECS: u32 = 600;

/// The origins whose pages may call the API.
#[derive(Debug, Clone, Default)]
pub struct Cors {
    /// Any origin (`--cors '*'`).
    any: bool,
    /// The origins named, lower-case, as `scheme://host[:port]`.
    origins: Vec<String>,
}

impl Cors {
    /// The origins of `--cors` (each checked by [`crate::cli::origin::check_origin`]).
    pub fn new(origins: &[String]) -> Cors {
        let any = origins.iter().any(|o| o == "*");
        let origins = origins.iter().filter(|o| *o != "*").map(|o| normal(o)).collect();
        Cors { any, origins }
    }

    /// Whether `--cors` was given at all.
    pub fn on(&self) -> bool {
        self.any || !self.origins.is_empty()
    }

    /// Whether a page of `origin` (an `Origin` header) may call the API.
    pub fn allows(&self, origin: &[u8]) -> bool {
        let Ok(origin) = std::str::from_utf8(origin) else { return false };
        self.any || self.origins.contains(&normal(origin))
    }

    /// The `Access-Control-Allow-Origin` value for `origin`.
    fn allow_value(&self, origin: &HeaderValue) -> HeaderValue {
        if self.any { HeaderValue::from_static("*") } else { origin.clone() }
    }
}

/// An origin as compared: lower-case, without a final `/`.
fn normal(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// Answers a preflight and marks the API's answers for the allowed
/// origins; the rest passes as it is.
pub async fn handle(
    axum::extract::State(cors): axum::extract::State<Cors>,
    req: Request,
    next: Next,
) -> Response {
    let origin = req.headers().get(header::ORIGIN).cloned();
    let applies = cors.on() && req.uri().path().starts_with("/api/");
    let Some(origin) = origin.filter(|o| applies && cors.allows(o.as_bytes())) else {
        return next.run(req).await;
    };
    let allow = cors.allow_value(&origin);
    let preflight = req.method() == Method::OPTIONS
        && req.headers().contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    let mut response = if preflight {
        let mut r = StatusCode::NO_CONTENT.into_response();
        let h = r.headers_mut();
        h.insert(header::ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static("GET, HEAD"));
        h.insert(header::ACCESS_CONTROL_MAX_AGE, HeaderValue::from(MAX_AGE_SECS));
        r
    } else {
        next.run(req).await
    };
    let h = response.headers_mut();
    h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, allow);
    if !cors.any {
        h.append(header::VARY, HeaderValue::from_static("Origin"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_compared_without_case() {
        let cors = Cors::new(&["https://Example.org/".to_string()]);
        assert!(cors.on());
        assert!(cors.allows(b"https://example.org"));
        assert!(!cors.allows(b"http://example.org"));
        assert!(!cors.allows(b"https://example.org.evil"));
        assert!(!Cors::new(&[]).on());
        assert!(Cors::new(&["*".to_string()]).allows(b"null"));
    }
}
