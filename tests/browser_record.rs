//! Game records and the whole-game report on the board (issue 66) in
//! headless Chromium. The page's reader and writer (`record.js`) against
//! the library's: random trees written by Rust read and written again by
//! the page give the same text, bad records the same line and column. Then
//! at 1280×900 with a mouse and at 390×844 with touch, in Chinese and in
//! English: a hand-written record with comments and nested variations
//! loads (载入), the report panel judges it and a click on a row goes to
//! its move; 导出 gives a record that `chaosclock::record` reads as the
//! same tree and that loads back into the board; a bad record gets one
//! error naming line and column and the board keeps its game; a position
//! followed by moves and a link load too. Screenshots `66-rec-*`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use browser::*;
use chaosclock::record::{NodeId, Record};
use chaosclock::{PassRule, Position, SUPPORTED_SLOTS};
use common::server::Server;
use common::{Rng, random_position};
use fantoccini::Client;
use serde_json::{Value, json};

/// A hand-written record: comments before the moves, after moves and
/// before a variation's first move, variations nested three deep.
const HAND: &str = "[Event \"Club night\"]\n[Jia \"Ann\"]\n[Yi \"Bo\"]\n[Start \"6,1,7,2,4,8,5,3\"]\n\n\
{An opening of 8 slots.}\n1. 走4吃6 {a blunder} (1. 走3吃7正位 {best} (1. 不走 2. pass\n\
({or} 2. 3 (2. 4)))) 2. 3 3... 6 4. 5 *\n";

/// A random record of `n` slots (as tests/record.rs makes them).
fn random_record(seed: u64, n: u8) -> Record {
    let mut rng = Rng(seed);
    let start = loop {
        let fixed = rng.below(u64::from(n) / 2 + 1) as usize;
        let pos = random_position(&mut rng, n, fixed);
        if pos.to_string().parse::<Position>().is_ok() {
            break pos;
        }
    };
    let rule = if rng.below(3) == 0 { PassRule::WhenStuck } else { PassRule::Always };
    let mut rec = Record::new(start, rule);
    let mut nodes: Vec<NodeId> = vec![rec.root()];
    let chars = ['a', ' ', '\n', '{', '}', '\\', '"', '走', '😀', '(', ']'];
    for _ in 0..rng.below(6) {
        let mut at = nodes[rng.below(nodes.len() as u64) as usize];
        for _ in 0..rng.below(10) {
            let moves = rec.position(at).legal_moves(rule);
            if moves.is_empty() {
                break;
            }
            at = rec.play(at, moves.as_slice()[rng.below(moves.len() as u64) as usize]).unwrap();
            nodes.push(at);
            if rng.below(5) == 0 {
                let text = (0..rng.below(8)).map(|_| chars[rng.below(11) as usize]).collect();
                rec.set_comment(at, Some(text));
            }
        }
    }
    if rng.below(2) == 0 {
        rec.set_tag("Event", "a \"quoted\" \\ event").unwrap();
    }
    rec
}

/// Bad records, each with the line and column the library names.
const BAD: [&str; 12] = [
    "",
    "[Start \"6,1,7,2,4,8,5,3\"]\n1. 走3 2. 走9",
    "6,1,7,2,4,8,5,3 3 (",
    "6,1,7,2,4,8,5,3 1. 3 3. 4",
    "6,1,7,2,4,8,5,3 3 {open",
    "6,1,7,2,4,8,5,3 3 both-win",
    "6,1,7,2,4,8,5,3 3 (1. 3)",
    "6,1,7,2,4,8,5,3 1. 走3吃5",
    "[Start \"6,1,7,2,4,8,5,3\"] [Start \"6,1,7,2,4,8,5,3\"]",
    "[Slots \"10\"]\n6,1,7,2,4,8,5,3 3",
    "6,1,7,2,4,8,5,3 3 ) 4",
    "6,1,7,2,4,8,5,3 落3",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_load_export_and_get_a_report() {
    let Some(session) = Session::start(&[]).await else { return };
    let c = &session.c;
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &["--tables", "."]);
    c.set_window_size(1280, 900).await.unwrap();
    c.goto(&server.url("/?pos=6,1,7,2,4,8,5,3")).await.unwrap();
    wait_until(c, "the page", |s| !s.busy && s.moves > 0).await;
    reader_and_writer_agree(c).await;
    for (w, h, touch) in [(1280, 900, false), (390, 844, true)] {
        c.set_window_size(w, h).await.unwrap();
        for lang in ["zh", "en"] {
            let tag = format!("{}-{lang}", if touch { "phone" } else { "desktop" });
            board(c, &server, lang, touch, &tag).await;
        }
    }
    session.close().await;
}

/// The page reads what Rust writes and writes it back to the same text;
/// bad records get the same line and column from both.
async fn reader_and_writer_agree(c: &Client) {
    let mut texts = vec![HAND.parse::<Record>().unwrap().to_string()];
    for seed in 1..=120u64 {
        let n = SUPPORTED_SLOTS[(seed % 5) as usize];
        texts.push(random_record(seed, n).to_string());
    }
    let got = c
        .execute(
            "return arguments[0].map((t) => { try { const r = recordRead(t);
                return recordWrite(r.root, r.start, r.tags, r.rule); } catch (e) { return `error ${e.line}:${e.column} ${e.key}`; } });",
            vec![json!(texts)],
        )
        .await
        .unwrap();
    for (want, got) in texts.iter().zip(got.as_array().unwrap()) {
        assert_eq!(got.as_str().unwrap(), want);
    }
    let bad: Vec<&str> = BAD.to_vec();
    let got = c
        .execute(
            "return arguments[0].map((t) => { try { recordRead(t); return 'read'; } catch (e) { return `${e.line}:${e.column}`; } });",
            vec![json!(bad)],
        )
        .await
        .unwrap();
    for (text, got) in bad.iter().zip(got.as_array().unwrap()) {
        let e = text.parse::<Record>().expect_err(text);
        assert_eq!(got.as_str().unwrap(), format!("{}:{}", e.line, e.column), "{text:?}: {e}");
    }
}

/// Fills the box with `text` and presses 载入.
async fn load(c: &Client, text: &str, touch: bool) {
    c.execute(
        "document.getElementById('paste').value = arguments[0]; return 0;",
        vec![json!(text)],
    )
    .await
    .unwrap();
    if touch {
        tap(c, "#load").await;
    } else {
        click(c, "#load").await;
    }
}

async fn history(c: &Client) -> Value {
    js(
        c,
        "return { main: document.querySelectorAll('#history > li[data-node]').length,
            variations: document.querySelectorAll('#history [data-variation]').length,
            comments: document.querySelectorAll('#history .comment, #game-comment:not([hidden])').length,
            position: document.getElementById('position').textContent,
            error: document.getElementById('error').textContent,
            ready: document.getElementById('report').dataset.ready === 'true' };",
    )
    .await
}

async fn board(c: &Client, server: &Server, lang: &str, touch: bool, tag: &str) {
    c.goto(&server.url(&format!("/?pos=6,1,7,2,4,8,5,3&lang={lang}"))).await.unwrap();
    wait_until(c, "the page", |s| !s.busy && s.moves > 0).await;
    // The hand-written record: its tree, comments and report.
    load(c, HAND, touch).await;
    wait_for(c, "the record", "return document.querySelectorAll('#history > li[data-node]').length === 4 && document.getElementById('report').dataset.ready === 'true';").await;
    let h = history(c).await;
    assert_eq!(h["variations"], 5, "{h}");
    assert!(h["comments"].as_u64().unwrap() >= 4, "{h}");
    assert_eq!(h["error"], "");
    // Export: the same tree for the library, and it loads back the same.
    click(c, "#export").await;
    let exported = js(c, "return exportRecord();").await.as_str().unwrap().to_string();
    let hand: Record = HAND.parse().unwrap();
    let back: Record = exported.parse().unwrap_or_else(|e| panic!("{e}\n{exported}"));
    assert_eq!(back, hand, "{exported}");
    let path = std::env::temp_dir().join(format!("66-rec-{tag}.txt"));
    std::fs::write(&path, &exported).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chaosclock"))
        .args(["play", "--record", path.to_str().unwrap(), "--format", "record"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim_end(), exported.trim_end());
    load(c, &exported, touch).await;
    wait_for(c, "the export loaded", "return document.getElementById('report').dataset.ready === 'true' && document.querySelectorAll('#history > li[data-node]').length === 4;").await;
    assert_eq!(js(c, "return exportRecord();").await.as_str().unwrap(), exported);
    // The report: a row per move that fell; a click goes to its move.
    let rows = js(c, "return [...document.querySelectorAll('#report .report-falls li')].map((li) => Number(li.dataset.ply));").await;
    let rows: Vec<u64> = rows.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    let marked = js(c, "return document.querySelectorAll('#history [data-fall]').length;").await;
    assert_eq!(marked.as_u64().unwrap() as usize, rows.len());
    let graph = js(c, "return document.querySelectorAll('#graph [data-fall]').length;").await;
    assert_eq!(graph.as_u64().unwrap() as usize, rows.len());
    assert_eq!(rows, [1, 2], "a blunder and an inaccuracy");
    if let Some(&ply) = rows.last() {
        let css = format!("#report .report-falls li[data-ply='{ply}']");
        if touch {
            tap(c, &css).await;
        } else {
            click(c, &css).await;
        }
        wait_for(c, "the move of the row", &format!("const cur = document.querySelector('#history [aria-current]'); return !!cur && cur.dataset.ply === '{ply}';")).await;
    }
    let script = "document.getElementById('report').scrollIntoView({block: 'start'}); return 0";
    js(c, script).await;
    screenshot(c, &format!("66-rec-report-{tag}")).await;
    // A bad record: one error with line and column; the game stays.
    let before = history(c).await;
    load(c, "6,1,7,2,4,8,5,3 3 (1. 3)", touch).await;
    wait_for(c, "the error", "return !document.getElementById('error').hidden;").await;
    let after = history(c).await;
    let error = after["error"].as_str().unwrap();
    let want = if lang == "zh" { "第 1 行第 23 列" } else { "line 1, column 23" };
    assert!(error.contains(want), "{error}");
    assert_eq!((&after["main"], &after["position"]), (&before["main"], &before["position"]));
    js(c, "document.getElementById('error').scrollIntoView({block: 'center'}); return 0").await;
    screenshot(c, &format!("66-rec-error-{tag}")).await;
    // A position followed by its moves, then a link the board made.
    load(c, "6,1,7,2,4,8,5,3 3 4 6 5", touch).await;
    wait_for(c, "the moves", "return document.querySelectorAll('#history > li[data-node]').length === 4 && document.getElementById('error').hidden;").await;
    let link = server.url("/?pos=6,1,7,2,4,8,5,3;1;0&moves=3,4,6&ply=1");
    load(c, &link, touch).await;
    wait_for(c, "the link", "return document.querySelectorAll('#history > li[data-node]').length === 3 && document.getElementById('error').hidden;").await;
}
