//! Every error the server answers, each variant with its data, and the one
//! place that maps a variant to its HTTP status and its one-line message
//! (as lila-tablebase's `errors.rs` does). The body is always
//! `{"error": "message"}` (docs/serve.md, docs/json.md); `head.rs` writes
//! the same for heads hyper never reads.
//!
//! Messages show request text through [`escape_control`] and cut to 200
//! characters, so no control character or endless echo reaches a client
//! or a log.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chaosclock::escape_control;
use chaosclock::probe::ProbeError;
use chaosclock::solve::SolveError;
use serde::Serialize;

use crate::budget::Budget;
use crate::serve::error_code::{ErrorCode, PuzzleError, input_code};

/// The most characters of request text an error shows.
const SHOWN_CHARS: usize = 200;

/// Why a request got no answer.
#[derive(Debug)]
pub enum ServeError {
    /// A bad position, move, cfg text or parameter: the CLI's message.
    BadRequest(String),
    /// A bad position or cfg text: the CLI's message, and its code for
    /// the page (issue 66).
    BadInput(String, ErrorCode),
    /// Bytes that are not an HTTP/1.x request head.
    NotHttp,
    /// An API request whose `Origin` is not the server's own.
    ForeignOrigin(String),
    /// A path the server does not serve.
    NotFound(String),
    /// A method other than GET or HEAD.
    MethodNotAllowed,
    /// A request with a body.
    Body,
    /// A request target longer than `max` bytes.
    TargetTooLong {
        /// The bound.
        max: usize,
    },
    /// The page's address (`/?pos=...`) longer than `max` bytes: a 414 as
    /// a small page in both languages, linking to the board (issue 59: a
    /// browser showed the JSON).
    PageTooLong {
        /// The bound.
        max: usize,
    },
    /// A `Host` that is not one of the server's names, or none.
    ForeignHost(Option<String>),
    /// Header bytes (names and values) over `max`.
    HeadersTooLong {
        /// The bound.
        max: usize,
    },
    /// A request head over `max` bytes.
    HeadTooLong {
        /// The bound.
        max: usize,
    },
    /// More than `max` headers.
    TooManyHeaders {
        /// The bound.
        max: usize,
    },
    /// A position that needs more states than the budget.
    TooLarge {
        /// The states enumerated when the solve gave up.
        states: usize,
        /// The server's budget.
        budget: Budget,
    },
    /// No both-win opening among those a fair start looked at.
    NoFairStart {
        /// The board size.
        slots: u8,
        /// The seed of the draw.
        seed: u64,
        /// The openings solved, or `None` for every opening of the book.
        tried: Option<usize>,
    },
    /// The solver is busy and its queue is full.
    Busy,
    /// The server is stopping and has no place for a connection it found
    /// waiting (`listen.rs`).
    Stopping,
    /// A damaged or inconsistent table.
    Table(ProbeError),
    /// A broken server: a request or the solver stopped, the tables miss
    /// a position they should hold.
    Internal(String),
}

impl ServeError {
    /// A 400 for bad input, its text made safe to show.
    pub fn bad(message: impl std::fmt::Display) -> ServeError {
        ServeError::BadRequest(escape_control(&message.to_string()).into_owned())
    }

    /// A 400 for a position or cfg text that is not a position: `message`
    /// (the CLI's), and the error's code and arguments.
    pub fn input(e: &chaosclock::InputError, message: impl std::fmt::Display) -> ServeError {
        let ServeError::BadRequest(m) = ServeError::bad(message) else { unreachable!() };
        ServeError::BadInput(m, input_code(e))
    }

    /// A 400 with its code: its English line made safe to show.
    pub fn coded(message: impl std::fmt::Display, code: ErrorCode) -> ServeError {
        let ServeError::BadRequest(m) = ServeError::bad(message) else { unreachable!() };
        ServeError::BadInput(m, code)
    }

    /// The code and arguments the page words the error with, in its
    /// language (docs/json.md); `None` where its status says enough.
    pub fn code(&self) -> Option<ErrorCode> {
        let n = |x: &dyn ToString| x.to_string();
        Some(match self {
            ServeError::BadInput(_, code) => code.clone(),
            ServeError::Busy => ErrorCode::new("busy", vec![]),
            ServeError::TooLarge { states, budget } => {
                ErrorCode::new("too-large", vec![n(states), n(&budget.states)])
            }
            ServeError::NoFairStart { slots, .. } => {
                ErrorCode::new("no-fair-start", vec![n(slots)])
            }
            ServeError::NotFound(_) => ErrorCode::new("not-found", vec![]),
            ServeError::TargetTooLong { max } => ErrorCode::new("too-long", vec![n(max)]),
            _ => return None,
        })
    }

    /// The HTTP status of each variant: the one place it is decided.
    pub fn status(&self) -> StatusCode {
        match self {
            ServeError::BadRequest(_) | ServeError::BadInput(..) | ServeError::NotHttp => {
                StatusCode::BAD_REQUEST
            }
            ServeError::ForeignOrigin(_) => StatusCode::FORBIDDEN,
            ServeError::NotFound(_) => StatusCode::NOT_FOUND,
            ServeError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ServeError::Body => StatusCode::PAYLOAD_TOO_LARGE,
            ServeError::TargetTooLong { .. } | ServeError::PageTooLong { .. } => {
                StatusCode::URI_TOO_LONG
            }
            ServeError::ForeignHost(_) => StatusCode::MISDIRECTED_REQUEST,
            ServeError::HeadersTooLong { .. }
            | ServeError::HeadTooLong { .. }
            | ServeError::TooManyHeaders { .. } => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ServeError::TooLarge { .. } | ServeError::NoFairStart { .. } => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ServeError::Busy | ServeError::Stopping => StatusCode::SERVICE_UNAVAILABLE,
            ServeError::Table(_) | ServeError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The one-line message of the JSON body.
    pub fn message(&self) -> String {
        match self {
            ServeError::BadRequest(m) | ServeError::BadInput(m, _) | ServeError::Internal(m) => {
                m.clone()
            }
            ServeError::NotHttp => "the request is not HTTP/1.1".into(),
            ServeError::ForeignOrigin(origin) => format!(
                "requests from another site's page (origin '{}') may not use the API",
                shown(origin)
            ),
            ServeError::NotFound(path) => format!("no such page or endpoint: {}", shown(path)),
            ServeError::MethodNotAllowed => "only GET is served: every endpoint is a GET".into(),
            ServeError::Body => "requests have no body: every endpoint is a GET".into(),
            ServeError::TargetTooLong { max } | ServeError::PageTooLong { max } => {
                format!("request target longer than {max} bytes")
            }
            ServeError::ForeignHost(None) => {
                "no Host header: this server answers only to its own address".into()
            }
            ServeError::ForeignHost(Some(host)) => {
                format!("this server does not answer to host '{}' (see --allow-host)", shown(host))
            }
            ServeError::HeadersTooLong { max } => {
                format!("request headers longer than {max} bytes")
            }
            ServeError::HeadTooLong { max } => format!("request head longer than {max} bytes"),
            ServeError::TooManyHeaders { max } => format!("more than {max} request headers"),
            ServeError::TooLarge { states, budget } => {
                let solve = SolveError::TooLarge { states: *states, budget: budget.states };
                format!(
                    "{solve} of {}; generate tables or start the server with a larger --budget",
                    budget.describe()
                )
            }
            ServeError::NoFairStart { slots, seed, tried: None } => format!(
                "no opening of {slots} slots is both-win (seed {seed}; from the openings book)"
            ),
            ServeError::NoFairStart { slots, seed, tried: Some(tried) } => format!(
                "none of the {tried} openings of {slots} slots tried (seed {seed}) is both-win"
            ),
            ServeError::Busy => {
                "the solver is busy with other positions: try again in a few seconds".into()
            }
            ServeError::Stopping => "the server is stopping: try again in a few seconds".into(),
            ServeError::Table(e) => e.to_string(),
        }
    }

    /// The line a server-side error (a 5xx) writes on stderr, saying what
    /// it is; `None` for the client's errors (4xx), which the access log
    /// shows.
    pub fn log_line(&self) -> Option<String> {
        let what = match self {
            ServeError::Busy => "solver busy (503, the client may retry)",
            ServeError::Stopping => "stopping (503, the client may retry)",
            ServeError::Table(_) => "table error (500)",
            ServeError::Internal(_) => "internal error (500)",
            _ => return None,
        };
        Some(format!("serve: {what}: {}", self.message()))
    }

    /// The whole response as bytes, for a connection hyper does not serve
    /// (`head.rs`): status line, headers, JSON body; the connection closes.
    pub fn raw_response(&self) -> Vec<u8> {
        let status = self.status();
        let (kind, body) = match self.page() {
            Some(html) => ("text/html; charset=utf-8", html),
            None => (
                "application/json",
                serde_json::to_string(&ErrorJson { error: self.message(), code: self.code() })
                    .expect("a string serializes"),
            ),
        };
        format!(
            "HTTP/1.1 {} {}\r\ncontent-type: {kind}\r\n\
             content-length: {}\r\nconnection: close\r\n\r\n{body}",
            status.as_u16(),
            status.canonical_reason().unwrap_or(""),
            body.len()
        )
        .into_bytes()
    }

    /// The page a browser shows for an error of the page itself (not the
    /// API), in both languages; `None` for every other error (JSON).
    fn page(&self) -> Option<String> {
        let ServeError::PageTooLong { max } = self else { return None };
        Some(format!(
            "<!doctype html><html lang=\"zh-Hans\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>混乱时钟 · 414</title></head><body>\
             <p>这个地址超过 {max} 字节，服务器不读。<a href=\"/\">回到分析棋盘</a></p>\
             <p lang=\"en\">This address is longer than {max} bytes: the server does not read it. \
             <a href=\"/\">Back to the analysis board</a></p></body></html>\n"
        ))
    }
}

/// Request text as an error shows it: control characters escaped, at most
/// [`SHOWN_CHARS`] characters.
fn shown(text: &str) -> String {
    let cut: String = text.chars().take(SHOWN_CHARS).collect();
    escape_control(&cut).into_owned()
}

/// The body of every error: its line, and its code for the page if any.
#[derive(Debug, Serialize)]
struct ErrorJson {
    error: String,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    code: Option<ErrorCode>,
}

impl From<PuzzleError> for ServeError {
    fn from(e: PuzzleError) -> ServeError {
        ServeError::coded(e.message(), e.code())
    }
}

impl IntoResponse for ServeError {
    fn into_response(self) -> Response {
        let status = self.status();
        if let Some(line) = self.log_line() {
            crate::serve::log::line(&line);
        }
        if let Some(html) = self.page() {
            let kind = [(axum::http::header::CONTENT_TYPE, "text/html; charset=utf-8")];
            return (status, kind, html).into_response();
        }
        (status, Json(ErrorJson { error: self.message(), code: self.code() })).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_status_and_a_one_line_message() {
        let budget = Budget { states: 10, origin: crate::budget::Origin::Flag };
        let all = [
            (ServeError::bad("position 'x\n'"), 400),
            (ServeError::NotHttp, 400),
            (ServeError::ForeignOrigin("http://evil".into()), 403),
            (ServeError::NotFound("/x".into()), 404),
            (ServeError::MethodNotAllowed, 405),
            (ServeError::Body, 413),
            (ServeError::TargetTooLong { max: 4096 }, 414),
            (ServeError::PageTooLong { max: 4096 }, 414),
            (ServeError::ForeignHost(None), 421),
            (ServeError::ForeignHost(Some("a\u{7}".repeat(300))), 421),
            (ServeError::HeadersTooLong { max: 1 }, 431),
            (ServeError::HeadTooLong { max: 1 }, 431),
            (ServeError::TooManyHeaders { max: 1 }, 431),
            (ServeError::TooLarge { states: 11, budget }, 422),
            (ServeError::NoFairStart { slots: 4, seed: 1, tried: Some(3) }, 422),
            (ServeError::NoFairStart { slots: 4, seed: 1, tried: None }, 422),
            (ServeError::Busy, 503),
            (ServeError::Stopping, 503),
            (ServeError::Internal("the solver stopped".into()), 500),
        ];
        for (e, status) in all {
            assert_eq!(e.status().as_u16(), status, "{e:?}");
            let m = e.message();
            assert!(!m.is_empty() && !m.chars().any(char::is_control), "{m:?}");
            // At most 200 characters of request text, each escaped to at most 10.
            assert!(m.chars().count() < 2_100, "{m}");
        }
    }

    /// Only server-side errors are logged, each as what it is: a busy
    /// solver is not an internal error.
    #[test]
    fn server_errors_are_logged_as_what_they_are() {
        let busy = ServeError::Busy.log_line().unwrap();
        assert!(busy.starts_with("serve: solver busy (503"), "{busy}");
        assert!(!busy.contains("internal"), "{busy}");
        let internal = ServeError::Internal("the solver stopped".into()).log_line();
        assert_eq!(internal.unwrap(), "serve: internal error (500): the solver stopped");
        let table = ServeError::Table(ProbeError::Inconsistent("x".into())).log_line().unwrap();
        assert!(table.starts_with("serve: table error (500): "), "{table}");
        for e in [ServeError::bad("x"), ServeError::NotFound("/x".into()), ServeError::Body] {
            assert_eq!(e.log_line(), None, "{e:?}");
        }
        let budget = Budget { states: 10, origin: crate::budget::Origin::Flag };
        assert_eq!(ServeError::TooLarge { states: 11, budget }.log_line(), None);
        // Every status over 499 is logged, and none under.
        for e in [ServeError::Busy, ServeError::Stopping, ServeError::Internal(String::new())] {
            assert!(e.status().is_server_error() && e.log_line().is_some());
        }
    }

    #[test]
    fn raw_responses_are_json() {
        let text = String::from_utf8(ServeError::TooManyHeaders { max: 100 }.raw_response());
        let text = text.unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "{head}");
        assert!(head.contains(&format!("content-length: {}", body.len())), "{head}");
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["error"], "more than 100 request headers");
    }
}
