//! The harness of the browser tests: headless Chromium (Debian's
//! `chromium` and `chromium-driver`) driven through WebDriver with
//! fantoccini, and what the tests read from and do to the page.
//!
//! The programs are `$CHROMEDRIVER` and `$CHROMIUM` if set, else Debian's
//! paths. Without a browser a test fails when the environment has `CI`
//! set, and is skipped with a message on stderr otherwise. Screenshots go
//! to `$SCREENSHOT_DIR` (default `/tmp/chaosclock-screenshots`).

#![allow(dead_code)]

use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

/// Chromium's flags: headless, no sandbox (root in CI), and nothing that
/// reaches out to the network.
pub const FLAGS: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,1000",
];

/// The program named by the environment variable `var` if it is set, else
/// the first of `candidates` that exists.
pub fn find(var: &str, candidates: &[&str]) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(var) {
        return Some(PathBuf::from(path)).filter(|p| p.exists());
    }
    candidates.iter().map(PathBuf::from).find(|p| p.exists())
}

/// A free loopback port.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// chromedriver, killed when dropped.
pub struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Fails in CI, skips with a message elsewhere.
pub fn unavailable(why: &str) {
    if std::env::var_os("CI").is_some() {
        panic!("the browser test cannot run in CI: {why}");
    }
    // Straight to the stderr stream, past the test harness's capture, so
    // that the skip shows in a normal `cargo test` run.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED (browser test): {why} (install chromium and chromium-driver)"
    );
}

/// A test's browser: Chromium with a profile of its own, driven by
/// chromedriver (killed when the session is dropped).
pub struct Session {
    /// The WebDriver client.
    pub c: Client,
    _driver: Driver,
    _profile: tempfile::TempDir,
}

impl Session {
    /// Starts one with Chromium's further flags `extra` (such as
    /// `--force-prefers-reduced-motion`); `None` when there is no browser,
    /// after [`unavailable`] has said why (in CI it fails instead).
    pub async fn start(extra: &[&str]) -> Option<Session> {
        let profile = tempfile::tempdir().unwrap();
        match browser_with(profile.path(), extra).await {
            Ok((driver, c)) => Some(Session { c, _driver: driver, _profile: profile }),
            Err(why) => {
                unavailable(&why);
                None
            }
        }
    }

    /// Closes the browser's window, then the driver.
    pub async fn close(self) {
        let Session { c, _driver, _profile } = self;
        let _ = c.close().await;
    }
}

/// Starts chromedriver and a Chromium session with Chromium's further
/// flags `extra`, or says why not.
async fn browser_with(profile: &Path, extra: &[&str]) -> Result<(Driver, Client), String> {
    let driver = find("CHROMEDRIVER", &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"])
        .ok_or("no chromedriver found")?;
    let chromium = find("CHROMIUM", &["/usr/bin/chromium", "/usr/bin/chromium-browser"])
        .ok_or("no chromium found")?;
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("chromedriver does not start: {e}"))?;
    let driver = Driver(child);
    let mut args: Vec<String> = FLAGS.iter().map(|f| f.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    args.extend(extra.iter().map(|f| f.to_string()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({ "binary": chromium.display().to_string(), "args": args }),
    );
    let url = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector).capabilities(caps.clone()).connect(&url).await {
            Ok(client) => return Ok((driver, client)),
            Err(e) if Instant::now() > deadline => {
                return Err(format!("chromium does not start: {e}"));
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

/// What the page shows: position, busy, status, number of move rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    pub position: String,
    pub busy: bool,
    pub status: String,
    pub moves: usize,
    pub error: String,
}

pub async fn shown(c: &Client) -> Shown {
    let v = c
        .execute(
            "const $ = (id) => document.getElementById(id);
             return [$('position').textContent, !$('busy').hidden, $('status').textContent,
                     document.querySelectorAll('#moves tr.move').length, $('error').textContent];",
            vec![],
        )
        .await
        .expect("the script runs");
    Shown {
        position: v[0].as_str().unwrap_or_default().to_string(),
        busy: v[1].as_bool().unwrap_or(true),
        status: v[2].as_str().unwrap_or_default().to_string(),
        moves: v[3].as_u64().unwrap_or(0) as usize,
        error: v[4].as_str().unwrap_or_default().to_string(),
    }
}

/// Waits until `ready` holds for what the page shows.
pub async fn wait_until(c: &Client, what: &str, ready: impl Fn(&Shown) -> bool) -> Shown {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let s = shown(c).await;
        assert!(s.error.is_empty(), "the page shows an error: {}", s.error);
        if ready(&s) {
            return s;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}: {s:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Saves a screenshot as `name`.png.
pub async fn screenshot(c: &Client, name: &str) {
    let dir = std::env::var_os("SCREENSHOT_DIR")
        .map_or_else(|| PathBuf::from("/tmp/chaosclock-screenshots"), PathBuf::from);
    std::fs::create_dir_all(&dir).unwrap();
    let png = c.screenshot().await.expect("a screenshot");
    let path = dir.join(format!("{name}.png"));
    std::fs::write(&path, png).unwrap();
    eprintln!("screenshot: {}", path.display());
}

/// The side to move in a position: `0` 甲, `1` 乙.
pub fn side(pos: &str) -> &str {
    pos.split(';').nth(1).unwrap_or("1")
}

/// The text of the first cell of move `mv`'s row.
pub async fn row_text(c: &Client, mv: &str) -> String {
    let row = c.find(Locator::Css(&format!("#moves tr[data-move='{mv}'] td"))).await.unwrap();
    row.text().await.unwrap()
}

/// Runs `script` with `document` dispatching a keydown of `key`.
pub async fn key(c: &Client, key: &str) {
    let script =
        "document.dispatchEvent(new KeyboardEvent('keydown', {key: arguments[0], bubbles: true}))";
    c.execute(script, vec![json!(key)]).await.unwrap();
}

/// Runs `script` (its value is `return`ed) and gives its value.
pub async fn js(c: &Client, script: &str) -> serde_json::Value {
    c.execute(script, vec![]).await.unwrap_or_else(|e| panic!("{script}: {e}"))
}

/// Waits until `script` returns true.
pub async fn wait_for(c: &Client, what: &str, script: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while js(c, script).await != json!(true) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}: {:?}", shown(c).await);
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Whether the board shows the position of `#position`, not a preview.
pub const BOARD_IS_POSITION: &str = "
    const board = document.getElementById('board');
    const text = document.getElementById('position').textContent.split(';')[0].split(',');
    const drawn = [...board.querySelectorAll('g.piece')].map((g) => [g.dataset.slot, g.dataset.piece]);
    const want = text.map((p, i) => [String(i + 1), p]).filter(([, p]) => p !== '0');
    return !board.classList.contains('preview') && JSON.stringify(drawn) === JSON.stringify(want);";

/// Clicks the element `css`.
pub async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}")).click().await.unwrap();
}

/// Taps the element `css` with a finger (a touch pointer).
pub async fn tap(c: &Client, css: &str) {
    use fantoccini::actions::{InputSource, PointerAction, TouchActions};
    let element = c.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}"));
    let finger = TouchActions::new("finger".into())
        .then(PointerAction::MoveToElement { element, duration: None, x: 0.0, y: 0.0 })
        .then(PointerAction::Down { button: fantoccini::actions::MOUSE_BUTTON_LEFT })
        .then(PointerAction::Up { button: fantoccini::actions::MOUSE_BUTTON_LEFT });
    c.perform_actions(finger).await.unwrap();
    c.release_actions().await.unwrap();
}

/// One pass of a test over the page: a window size, a language, a mouse or
/// a finger, and the screenshots' names.
pub struct Pass<'a> {
    pub c: &'a Client,
    pub server: &'a crate::common::server::Server,
    /// `zh` or `en`.
    pub lang: &'static str,
    pub touch: bool,
    /// The size's name in the screenshots' names (`phone`, `desktop`).
    pub tag: &'static str,
    /// The screenshots' prefix (the number).
    pub prefix: &'static str,
    /// Whether [`Pass::press`] scrolls the element into view first.
    pub scroll: bool,
}

impl Pass<'_> {
    /// The page at `path` (and `lang=en` in English).
    pub async fn open(&self, path: &str) {
        let sep = if path.contains('?') { '&' } else { '?' };
        let url = if self.lang == "en" { format!("{path}{sep}lang=en") } else { path.to_string() };
        self.c.goto(&self.server.url(&url)).await.unwrap();
    }

    /// Clicks or taps `css` (scrolled into view first if the pass says so).
    pub async fn press(&self, css: &str) {
        if self.scroll {
            let script = format!(
                "document.querySelector(\"{css}\").scrollIntoView({{block: 'center'}}); return 0"
            );
            js(self.c, &script).await;
        }
        if self.touch { tap(self.c, css).await } else { click(self.c, css).await }
    }

    /// `zh` or `en` as the pass's language.
    pub fn say<'s>(&self, zh: &'s str, en: &'s str) -> &'s str {
        if self.lang == "zh" { zh } else { en }
    }

    /// The value words of the page's language, best first.
    pub fn words(&self) -> [&'static str; 5] {
        if self.lang == "zh" {
            ["己赢", "共赢", "同输", "己输", "无果"]
        } else {
            ["self-win", "both-win", "both-lose", "self-lose", "no-result"]
        }
    }

    /// A screenshot named `PREFIX-NAME-TAG-LANG`.
    pub async fn shot(&self, name: &str) {
        screenshot(self.c, &format!("{}-{name}-{}-{}", self.prefix, self.tag, self.lang)).await;
    }
}
