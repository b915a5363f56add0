//! The server as an operator runs it (`docs/deploy.md`): `/healthz`,
//! `/metrics`, the access log on stderr (and `--quiet`), and the graceful
//! stop on SIGTERM or Ctrl-C. Every request goes to loopback, a few at a
//! time, each test bounded in time.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::net::TcpStream;
use std::process::ChildStderr;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::bin::ok_in;
use common::server::Server;

/// A 10-slot position solved in memory in about a second (3,484,458
/// states), after one move so that no book answers it.
const SLOW: &str = "/api/analyse?pos=2,1,6,10,4,3,5,7,8,9&moves=6";

/// The lines of `stderr`, read on a thread, as they come.
fn lines(stderr: ChildStderr) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { return };
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

/// The next line of `rx` that contains `want`, waiting at most 30 s.
fn line_with(rx: &mpsc::Receiver<String>, want: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) if line.contains(want) => return line,
            Ok(_) => {}
            Err(e) => panic!("no line with {want:?} on stderr: {e}"),
        }
    }
}

/// The value of the sample `name` (with its labels, as written) in the
/// metrics `text`.
fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
        .and_then(|v| v.trim().parse().ok())
}

#[test]
fn healthz_names_the_version_the_tables_and_the_book() {
    let dir = tempfile::tempdir().unwrap();
    ok_in(dir.path(), &["generate", "--slots", "4"]);
    let server = Server::start(dir.path(), &["--tables", "tables"]);
    let health = server.ok("/healthz");
    let schema = common::schema::schema();
    let fields = &schema["API `/healthz`"];
    common::schema::check_object(&health, "", fields, "/healthz");
    assert_eq!(health["status"], "ok", "{health}");
    assert_eq!(health["version"], env!("CARGO_PKG_VERSION"), "{health}");
    assert_eq!(health["tables"]["root"], "tables", "{health}");
    assert_eq!(health["tables"]["exists"], true, "{health}");
    let dirs = health["tables"]["dirs"].as_array().unwrap();
    assert_eq!(dirs.len(), 1, "{health}");
    assert_eq!(dirs[0]["name"], "n4-always", "{health}");
    assert_eq!((dirs[0]["slots"].as_u64(), dirs[0]["rule"].as_str()), (Some(4), Some("always")));
    assert!(dirs[0]["files"].as_u64() > Some(0), "{health}");
    // The book built in answers every size.
    let sections = health["book"]["sections"].as_array().unwrap();
    for n in [4, 6, 8, 10, 12] {
        assert!(
            sections.iter().any(|s| s["slots"] == n && s["openings"].as_u64() > Some(0)),
            "{n}"
        );
    }
    assert!(health["book"]["bytes"].as_u64() > Some(0), "{health}");
    assert!(health["book"]["error"].is_null(), "{health}");

    // Without tables: an empty list, still 200.
    let empty = tempfile::tempdir().unwrap();
    let bare = Server::start(empty.path(), &[]);
    let health = bare.ok("/healthz");
    common::schema::check_object(&health, "", fields, "/healthz");
    assert_eq!(health["tables"]["exists"], false, "{health}");
    assert_eq!(health["tables"]["dirs"].as_array().map(Vec::len), Some(0), "{health}");
}

#[test]
fn metrics_count_requests_latency_solves_and_cache_hits() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &["--queue", "0"]);
    // Before any request: the solver's gauges, in the text format; the
    // requests' series appear once there are some.
    let (status, text) = server.get("/metrics");
    assert_eq!(status, 200, "{text}");
    assert!(text.ends_with("# EOF\n"), "{text}");
    assert!(!text.contains("chaosclock_http_requests_total"), "{text}");
    let (_, text) = server.get("/metrics");
    assert!(text.contains("# TYPE chaosclock_http_requests counter"), "{text}");
    assert!(text.contains("# TYPE chaosclock_http_request_duration_seconds histogram"), "{text}");
    let scraped = r#"chaosclock_http_requests_total{route="/metrics",method="GET",status="200"}"#;
    assert_eq!(sample(&text, scraped), Some(1.0), "{text}");
    assert_eq!(sample(&text, "chaosclock_solves_running"), Some(0.0), "{text}");
    assert_eq!(sample(&text, "chaosclock_solves_queued"), Some(0.0), "{text}");
    assert_eq!(sample(&text, "chaosclock_solve_cache_hits_total"), Some(0.0), "{text}");

    // A solve under way shows as running; a second one needing the solver
    // gets 503 (--queue 0).
    let (running, busy) = std::thread::scope(|s| {
        let slow = s.spawn(|| server.get(SLOW));
        let deadline = Instant::now() + Duration::from_secs(60);
        let running = loop {
            let (_, text) = server.get("/metrics");
            let running = sample(&text, "chaosclock_solves_running");
            if running == Some(1.0) || slow.is_finished() {
                break running;
            }
            assert!(Instant::now() < deadline, "no solve under way: {text}");
            std::thread::sleep(Duration::from_millis(10));
        };
        let busy = server.get("/api/position?pos=2,1,4,3,6,5").0;
        assert_eq!(slow.join().unwrap().0, 200);
        (running, busy)
    });
    // Both, unless the solve ended between two looks.
    if running == Some(1.0) {
        assert_eq!(busy, 503);
    }
    // The same position again: from the kept solution.
    assert_eq!(server.get(SLOW).0, 200);
    server.get("/no/such/path");
    let (_, text) = server.get("/metrics");
    assert_eq!(sample(&text, "chaosclock_solves_running"), Some(0.0), "{text}");
    assert!(sample(&text, "chaosclock_solve_cache_hits_total") >= Some(1.0), "{text}");
    let route = r#"chaosclock_http_requests_total{route="/api/analyse",method="GET",status="200"}"#;
    assert_eq!(sample(&text, route), Some(2.0), "{text}");
    let other = r#"chaosclock_http_requests_total{route="other",method="GET",status="404"}"#;
    assert_eq!(sample(&text, other), Some(1.0), "{text}");
    if running == Some(1.0) {
        let busy = r#"{route="/api/position",method="GET",status="503"}"#;
        assert_eq!(sample(&text, &format!("chaosclock_http_requests_total{busy}")), Some(1.0));
    }
    let count = r#"chaosclock_http_request_duration_seconds_count{route="/api/analyse"}"#;
    assert_eq!(sample(&text, count), Some(2.0), "{text}");
    let inf = r#"chaosclock_http_request_duration_seconds_bucket{le="+Inf",route="/api/analyse"}"#;
    assert_eq!(sample(&text, inf), Some(2.0), "{text}");
}

#[test]
fn each_request_gets_one_access_line_unless_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let (server, stderr) = Server::start_logged(dir.path(), &[]);
    let rx = lines(stderr);
    assert_eq!(server.get("/healthz?x=secret").0, 200);
    let line = line_with(&rx, "path=/healthz");
    assert!(line.contains(" INFO access: method=GET path=/healthz status=200 ms="), "{line}");
    assert!(!line.contains("secret"), "the query string is not logged: {line}");
    let ms: f64 = line.rsplit("ms=").next().unwrap().parse().unwrap();
    assert!((0.0..10_000.0).contains(&ms), "{line}");
    assert_eq!(server.get("/nothing").0, 404);
    let line = line_with(&rx, "path=/nothing");
    assert!(line.contains("method=GET path=/nothing status=404 ms="), "{line}");
    // A refusal of the guard is logged too.
    let (status, _) =
        server.raw(b"GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
    assert_eq!(status, 421);
    assert!(line_with(&rx, "status=421").contains("path=/ "));
    drop(server);

    // --quiet: nothing on stderr but the startup note.
    let (quiet, stderr) = Server::start_logged(dir.path(), &["--quiet"]);
    assert_eq!(quiet.get("/healthz").0, 200);
    assert_eq!(quiet.get("/metrics").0, 200);
    drop(quiet);
    let mut text = String::new();
    BufReader::new(stderr).read_to_string(&mut text).unwrap();
    assert!(!text.contains("access"), "{text}");
    assert!(text.lines().all(|l| l.starts_with("note: ")), "{text}");
}

/// Whether a new connection to `addr` is refused.
fn refused(addr: &str) -> bool {
    TcpStream::connect_timeout(&addr.parse().unwrap(), Duration::from_secs(2)).is_err()
}

#[test]
fn sigterm_lets_the_request_under_way_finish_then_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    // A long grace, so that the solve finishes within it however loaded
    // the machine (the default of 10 s is for the idle test below).
    let (mut server, stderr) = Server::start_logged(dir.path(), &["--quiet", "--grace", "120"]);
    let rx = lines(stderr);
    // An idle connection does not hold the stop back.
    let idle = TcpStream::connect(&server.addr).unwrap();
    let (answer, exited) = std::thread::scope(|s| {
        let slow = s.spawn(|| server.json(SLOW));
        // Wait for the solve to start, then stop the server.
        let deadline = Instant::now() + Duration::from_secs(60);
        while server.ok("/api/progress")["solving"] != true {
            assert!(!slow.is_finished(), "the solve ended before it was seen");
            assert!(Instant::now() < deadline, "no solve under way");
            std::thread::sleep(Duration::from_millis(5));
        }
        server.signal("TERM");
        line_with(&rx, "SIGTERM: no new connections");
        // New connections are refused while the solve goes on.
        let deadline = Instant::now() + Duration::from_secs(5);
        while !refused(&server.addr) {
            assert!(Instant::now() < deadline, "the server still accepts");
            std::thread::sleep(Duration::from_millis(20));
        }
        let answer = slow.join().unwrap();
        (answer, Instant::now())
    });
    assert_eq!(answer.0, 200, "{}", answer.1);
    assert_eq!(answer.1["plies"][0]["move"], "6", "{}", answer.1);
    // Then it exits at once, long before the grace is over.
    let status = server.wait_exit(Duration::from_secs(30)).expect("the server exits");
    assert!(status.success(), "{status:?}");
    assert!(exited.elapsed() < Duration::from_secs(10), "{:?}", exited.elapsed());
    assert_eq!(line_with(&rx, "serve: stopped"), "serve: stopped");
    drop(idle);
}

#[test]
fn ctrl_c_stops_an_idle_server_at_once_with_code_0() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, stderr) = Server::start_logged(dir.path(), &["--quiet"]);
    let rx = lines(stderr);
    // A keep-alive connection that has had its answer, and one that has
    // sent nothing: both are closed once idle for the drain (1 s).
    let mut kept = TcpStream::connect(&server.addr).unwrap();
    let req = format!("GET /healthz HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr);
    std::io::Write::write_all(&mut kept, req.as_bytes()).unwrap();
    let mut first = [0u8; 12];
    kept.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    let _silent = TcpStream::connect(&server.addr).unwrap();
    let t = Instant::now();
    server.signal("INT");
    let status = server.wait_exit(Duration::from_secs(15)).expect("the server exits");
    assert!(status.success(), "{status:?}");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    line_with(&rx, "SIGINT: no new connections");
}

#[test]
fn past_the_grace_the_server_exits_0_without_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, stderr) = Server::start_logged(dir.path(), &["--quiet", "--grace", "1"]);
    let rx = lines(stderr);
    // The documented 12-slot game: one solve of seconds (about 330 MiB).
    let start = "2,8,11,9,4,12,10,6,5,7,1,3";
    let req = format!(
        "GET /api/analyse?pos={start}&moves=6 HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    );
    let mut slow = TcpStream::connect(&server.addr).unwrap();
    std::io::Write::write_all(&mut slow, req.as_bytes()).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.ok("/api/progress")["solving"] != true {
        assert!(Instant::now() < deadline, "no solve under way");
        std::thread::sleep(Duration::from_millis(5));
    }
    let t = Instant::now();
    server.signal("TERM");
    let status = server.wait_exit(Duration::from_secs(30)).expect("the server exits");
    assert!(status.success(), "{status:?}");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert_eq!(
        line_with(&rx, "serve: stopped"),
        "serve: stopped after 1 s with 1 connections still open"
    );
    // The request under way got no answer: its connection just closed.
    let mut answer = Vec::new();
    let _ = slow.read_to_end(&mut answer);
    assert!(answer.is_empty(), "{}", String::from_utf8_lossy(&answer));
}

/// One answer read from `s`: its head (lower-case) and its body, by its
/// `Content-Length`.
fn read_answer(s: &mut TcpStream) -> (String, String) {
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut bytes = Vec::new();
    let mut byte = [0u8; 1];
    while !bytes.ends_with(b"\r\n\r\n") {
        s.read_exact(&mut byte).expect("a whole head");
        bytes.push(byte[0]);
    }
    let head = String::from_utf8(bytes).unwrap().to_lowercase();
    let len = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length: "))
        .map_or(0, |n| n.trim().parse().unwrap());
    let mut body = vec![0u8; len];
    s.read_exact(&mut body).expect("the whole body");
    (head, String::from_utf8(body).unwrap())
}

/// Issue 68: no client sees a reset at a SIGTERM. A keep-alive client
/// whose next request goes out just after the signal gets its answer with
/// `Connection: close`, and then the close.
#[test]
fn after_sigterm_a_kept_alive_connection_gets_one_more_answer_then_close() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, stderr) = Server::start_logged(dir.path(), &["--quiet"]);
    let rx = lines(stderr);
    let mut kept = TcpStream::connect(&server.addr).unwrap();
    let req = format!("GET /healthz HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr);
    std::io::Write::write_all(&mut kept, req.as_bytes()).unwrap();
    let (head, _) = read_answer(&mut kept);
    assert!(head.starts_with("http/1.1 200") && !head.contains("connection: close"), "{head}");
    server.signal("TERM");
    line_with(&rx, "SIGTERM: no new connections");
    std::io::Write::write_all(&mut kept, req.as_bytes()).unwrap();
    let (head, body) = read_answer(&mut kept);
    assert!(head.starts_with("http/1.1 200") && head.contains("connection: close"), "{head}");
    assert!(body.contains("\"version\""), "{body}");
    let mut rest = Vec::new();
    assert_eq!(kept.read_to_end(&mut rest).map_err(|e| e.kind()), Ok(0), "then the close");
    let status = server.wait_exit(Duration::from_secs(15)).expect("the server exits");
    assert!(status.success(), "{status:?}");
}

/// Issue 68: a connection waiting in the listen queue at a SIGTERM is
/// answered, not reset by the close of the listener: with no place for it
/// (`--max-connections 1`, taken by a 12-slot solve), a 503 that says the
/// server is stopping, with `Connection: close`.
#[test]
fn at_sigterm_a_queued_connection_is_refused_cleanly_not_reset() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--quiet", "--grace", "1", "--max-connections", "1"];
    let (mut server, stderr) = Server::start_logged(dir.path(), &args);
    let rx = lines(stderr);
    // The documented 12-slot game: one solve of seconds.
    let start = "2,8,11,9,4,12,10,6,5,7,1,3";
    let req = format!(
        "GET /api/analyse?pos={start}&moves=6 HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    );
    let mut slow = TcpStream::connect(&server.addr).unwrap();
    std::io::Write::write_all(&mut slow, req.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    // Busy: the next connection waits in the kernel's queue.
    let mut late = TcpStream::connect(&server.addr).unwrap();
    let req = format!("GET /healthz HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr);
    std::io::Write::write_all(&mut late, req.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    server.signal("TERM");
    line_with(&rx, "SIGTERM: no new connections");
    let (head, body) = read_answer(&mut late);
    assert!(head.starts_with("http/1.1 503") && head.contains("connection: close"), "{head}");
    assert!(body.contains("the server is stopping"), "{body}");
    let status = server.wait_exit(Duration::from_secs(30)).expect("the server exits");
    assert!(status.success(), "{status:?}");
    drop(slow);
}
