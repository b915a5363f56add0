//! The server under load and with a slow log reader (issue 68): a stderr
//! nobody reads never stops it, and the limits on connections hold while
//! others are answered.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::server::Server;

/// A keep-alive HTTP/1.1 connection to the server.
struct Conn {
    reader: BufReader<TcpStream>,
    host: String,
}

impl Conn {
    fn open(addr: &str) -> Conn {
        let stream = TcpStream::connect(addr).expect("the server accepts");
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        stream.set_nodelay(true).unwrap();
        Conn { reader: BufReader::new(stream), host: addr.to_string() }
    }

    /// GETs `path` on this connection; the status and the body.
    fn get(&mut self, path: &str) -> (u16, Vec<u8>) {
        let req = format!("GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n", self.host);
        self.reader.get_mut().write_all(req.as_bytes()).expect("the request is sent");
        let mut status_line = String::new();
        self.reader.read_line(&mut status_line).expect("a status line");
        let status = status_line.split_whitespace().nth(1).and_then(|s| s.parse().ok());
        let status = status.unwrap_or_else(|| panic!("no status in {status_line:?}"));
        let mut length = 0;
        loop {
            let mut line = String::new();
            self.reader.read_line(&mut line).expect("a header line");
            if line == "\r\n" {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().expect("a length");
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body).expect("the whole body");
        (status, body)
    }
}

#[test]
fn a_stderr_nobody_reads_never_stops_the_server() {
    let dir = tempfile::tempdir().unwrap();
    // The access log on, its pipe never read: 64 KB of lines fill it.
    let (server, _unread_stderr) = Server::start_logged(dir.path(), &[]);
    let done = AtomicBool::new(false);
    let clients = 4;
    let each = 2_500;
    let (worst, probes) = std::thread::scope(|s| {
        let workers: Vec<_> = (0..clients)
            .map(|c| {
                let addr = &server.addr;
                s.spawn(move || {
                    let mut conn = Conn::open(addr);
                    for i in 0..each {
                        // Some 100-byte lines each, 10,000 in all: 15 times
                        // the pipe's buffer.
                        let path = if i % 2 == 0 { "/healthz" } else { "/no/such/page" };
                        let (status, _) = conn.get(&format!("{path}?c={c}"));
                        assert!(status == 200 || status == 404, "{status}");
                    }
                })
            })
            .collect();
        // /healthz on a new connection, every 20 ms, while they run.
        let probe = s.spawn(|| {
            let (mut worst, mut probes) = (Duration::ZERO, 0);
            while !done.load(Ordering::Relaxed) {
                let t = Instant::now();
                let (status, _) = Conn::open(&server.addr).get("/healthz");
                assert_eq!(status, 200);
                worst = worst.max(t.elapsed());
                probes += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            (worst, probes)
        });
        for w in workers {
            w.join().expect("a client got all its answers");
        }
        done.store(true, Ordering::Relaxed);
        probe.join().unwrap()
    });
    eprintln!("{probes} probes of /healthz, the slowest {worst:?}");
    assert!(probes > 0);
    assert!(worst < Duration::from_millis(100), "/healthz took {worst:?}");
    // The lines that did not fit are counted.
    let (status, body) = Conn::open(&server.addr).get("/metrics");
    assert_eq!(status, 200);
    let text = String::from_utf8(body).unwrap();
    let dropped = text
        .lines()
        .find_map(|l| l.strip_prefix("chaosclock_log_lines_dropped_total "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no dropped lines counted: {text}"));
    assert!(dropped > 0.0, "{text}");
}
