//! `serve --cors ORIGIN`: the pages of the origins named may call the API
//! (a preflight answered, `Access-Control-Allow-Origin` on `/api/`
//! answers); off by default; never on `/metrics` (issue 68).

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::bin::fails;
use common::server::Server;

const API: &str = "/api/position?pos=2,1,4,3";

/// Sends `method path` with `extra` header lines; the status and the head
/// (lower-case).
fn ask(server: &Server, method: &str, path: &str, extra: &str) -> (u16, String) {
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\n{extra}Connection: close\r\n\r\n",
        server.addr
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut bytes = Vec::new();
    let _ = s.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let status = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap();
    let head = text.split_once("\r\n\r\n").map_or(&*text, |(h, _)| h).to_ascii_lowercase();
    (status, head)
}

/// The value of header `name` in `head`, if there.
fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(':').map(str::trim))
}

fn origin(o: &str) -> String {
    format!("Origin: {o}\r\n")
}

const PREFLIGHT: &str = "Access-Control-Request-Method: GET\r\n";

#[test]
fn without_cors_a_foreign_page_is_refused_and_nothing_is_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &["--tables", "."]);
    let (status, head) = ask(&server, "GET", API, &origin("https://game.example"));
    assert_eq!(status, 403, "{head}");
    assert_eq!(header(&head, "access-control-allow-origin"), None);
    let extra = origin("https://game.example") + PREFLIGHT;
    let (status, head) = ask(&server, "OPTIONS", API, &extra);
    assert_eq!(status, 403, "{head}");
    assert_eq!(header(&head, "access-control-allow-origin"), None);
    // The server's own page needs none.
    let (status, head) = ask(&server, "GET", API, "");
    assert_eq!(status, 200);
    assert_eq!(header(&head, "access-control-allow-origin"), None);
}

#[test]
fn cors_allows_the_origins_named_on_the_api_only() {
    let dir = tempfile::tempdir().unwrap();
    let args =
        ["--tables", ".", "--cors", "https://game.example", "--cors", "http://b.example:8000"];
    let server = Server::start(dir.path(), &args);
    for o in ["https://game.example", "http://B.example:8000"] {
        let (status, head) = ask(&server, "GET", API, &origin(o));
        assert_eq!(status, 200, "{head}");
        assert_eq!(header(&head, "access-control-allow-origin"), Some(&*o.to_ascii_lowercase()));
        assert!(head.contains("vary: origin"), "{head}");
        // The preflight.
        let (status, head) = ask(&server, "OPTIONS", API, &(origin(o) + PREFLIGHT));
        assert_eq!(status, 204, "{head}");
        assert_eq!(header(&head, "access-control-allow-origin"), Some(&*o.to_ascii_lowercase()));
        assert_eq!(header(&head, "access-control-allow-methods"), Some("get, head"));
        assert!(header(&head, "access-control-max-age").is_some(), "{head}");
    }
    // An error of the API is readable by the page too.
    let (status, head) =
        ask(&server, "GET", "/api/position?pos=x", &origin("https://game.example"));
    assert_eq!(status, 400);
    assert_eq!(header(&head, "access-control-allow-origin"), Some("https://game.example"));
    // Another origin is still refused, with nothing allowed.
    for method in ["GET", "OPTIONS"] {
        let (status, head) =
            ask(&server, method, API, &(origin("https://evil.example") + PREFLIGHT));
        assert_eq!(status, 403, "{method}: {head}");
        assert_eq!(header(&head, "access-control-allow-origin"), None);
    }
    // Never /metrics, /healthz or the page.
    for path in ["/metrics", "/healthz", "/"] {
        let (status, head) = ask(&server, "GET", path, &origin("https://game.example"));
        assert_eq!(status, 200, "{path}");
        assert_eq!(header(&head, "access-control-allow-origin"), None, "{path}");
        let (status, head) =
            ask(&server, "OPTIONS", path, &(origin("https://game.example") + PREFLIGHT));
        assert_eq!(status, 405, "{path}");
        assert_eq!(header(&head, "access-control-allow-origin"), None, "{path}");
    }
}

#[test]
fn cors_star_allows_any_origin() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &["--tables", ".", "--cors", "*"]);
    let (status, head) = ask(&server, "GET", API, &origin("https://anyone.example"));
    assert_eq!(status, 200, "{head}");
    assert_eq!(header(&head, "access-control-allow-origin"), Some("*"));
    assert!(!head.contains("vary: origin"), "{head}");
    let (status, head) = ask(&server, "GET", "/metrics", &origin("https://anyone.example"));
    assert_eq!(status, 200);
    assert_eq!(header(&head, "access-control-allow-origin"), None);
}

#[test]
fn a_bad_origin_is_refused_in_one_line() {
    for bad in ["example.org", "https://example.org/app", "ftp://example.org"] {
        fails(&["serve", "--cors", bad], "origin");
    }
}
