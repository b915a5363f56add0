//! Starting `chaosclock serve` on a free loopback port for the server
//! tests, and plain HTTP/1.1 GETs against it (no client library needed).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, ChildStderr, Command, ExitStatus, Stdio};
use std::time::Duration;

use serde_json::Value as Json;

/// A running server, killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Server {
    /// Starts the server with `args` after `serve --bind 127.0.0.1:0
    /// --quiet`, in `dir`; waits for its "listening on" line.
    pub fn start(dir: &Path, args: &[&str]) -> Server {
        let mut all = vec!["--quiet"];
        all.extend_from_slice(args);
        Server::spawn(dir, &all, Stdio::inherit()).0
    }

    /// Starts the server as [`Server::start`] does but with its access log,
    /// and returns its stderr, unread.
    pub fn start_logged(dir: &Path, args: &[&str]) -> (Server, ChildStderr) {
        let (server, stderr) = Server::spawn(dir, args, Stdio::piped());
        (server, stderr.expect("piped"))
    }

    /// Starts `serve --bind 127.0.0.1:0 ARGS` in `dir` with `stderr`; waits
    /// for its "listening on" line.
    fn spawn(dir: &Path, args: &[&str], stderr: Stdio) -> (Server, Option<ChildStderr>) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chaosclock"))
            .args(["serve", "--bind", "127.0.0.1:0"])
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("the chaosclock binary runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut line)
            .expect("the server prints its address");
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        let stderr = child.stderr.take();
        (Server { child, addr }, stderr)
    }

    /// Sends the signal `name` (e.g. `TERM`) to the server (with the
    /// shell's own `kill`, so no package is needed).
    pub fn signal(&self, name: &str) {
        let status = Command::new("sh")
            .args(["-c", &format!("kill -{name} {}", self.child.id())])
            .status()
            .expect("sh runs");
        assert!(status.success(), "kill -{name} failed");
    }

    /// Waits at most `limit` for the server to exit; its status, or `None`
    /// if it still runs.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let deadline = std::time::Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("the server can be waited on") {
                return Some(status);
            }
            if std::time::Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Sends `request` (raw bytes) and returns the status and the body.
    pub fn raw(&self, request: &[u8]) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).expect("the server accepts");
        s.set_read_timeout(Some(Duration::from_secs(300))).unwrap();
        s.write_all(request).expect("the request is sent");
        let mut bytes = Vec::new();
        let _ = s.read_to_end(&mut bytes);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status line in {text:?}"));
        let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
        (status, body)
    }

    /// Sends `request` (raw bytes) and reads the JSON body; the status and
    /// the JSON.
    pub fn raw_json(&self, request: &[u8]) -> (u16, Json) {
        let (status, body) = self.raw(request);
        let json = serde_json::from_str(&body).unwrap_or_else(|e| {
            let head = String::from_utf8_lossy(&request[..request.len().min(200)]).into_owned();
            panic!("{head:?}: body is not JSON ({e}): {body:?}")
        });
        (status, json)
    }

    /// GETs `path` (already escaped) with the server's address as `Host`;
    /// the status and the body.
    pub fn get(&self, path: &str) -> (u16, String) {
        let req =
            format!("GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", self.addr);
        self.raw(req.as_bytes())
    }

    /// GETs `path` and reads the JSON body; the status and the JSON.
    pub fn json(&self, path: &str) -> (u16, Json) {
        let (status, body) = self.get(path);
        let json = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("GET {path}: body is not JSON ({e}): {body:?}"));
        (status, json)
    }

    /// GETs `path`, expects 200, and returns the JSON.
    pub fn ok(&self, path: &str) -> Json {
        let (status, json) = self.json(path);
        assert_eq!(status, 200, "GET {path}: {json}");
        json
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The CPU time the process has used so far (user and system), from
    /// `/proc/PID/stat`, in clock ticks (100 a second on Linux).
    pub fn cpu_ticks(&self) -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).unwrap();
        // The fields after the command name in parentheses: utime is the
        // 12th after it, stime the 13th.
        let rest = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<&str> = rest.split(' ').collect();
        fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
    }

    /// Whether the process still runs.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().expect("the server can be waited on").is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Escapes a query value (`;`, `,` and digits pass, the rest as %XX).
pub fn esc(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b',' | b';' | b'-' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
