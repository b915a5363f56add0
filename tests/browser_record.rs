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
//!
//! Then issue 66's leftovers, in each size and language (screenshots
//! `66-more-*`): a record's errors name moves in the page's language;
//! moves in variations carry the graded marks (?! ? ??) as main-line
//! moves do, and 导出 writes them as glyphs that the library reads back;
//! a comment is added, changed and removed on the board (no shortcut
//! fires while typing) and survives 导出 and 载入; at a game's end the
//! report alone counts the moves that fell; puzzle errors are worded from
//! their codes.

#[path = "common/browser.rs"]
mod browser;
mod common;

use browser::*;
use chaosclock::record::{GLYPHS, NodeId, Record};
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
            if rng.below(4) == 0 {
                let glyph = GLYPHS[rng.below(GLYPHS.len() as u64) as usize];
                rec.set_glyph(at, Some(glyph)).unwrap();
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
            leftovers(c, &server, lang, touch, &tag).await;
        }
    }
    session.close().await;
}

/// Clicks or taps `css`, found again if a redraw replaced it meanwhile.
async fn press(c: &Client, css: &str, touch: bool) {
    use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, PointerAction, TouchActions};
    for _ in 0..10 {
        let e =
            c.find(fantoccini::Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}"));
        let done = if touch {
            let finger = TouchActions::new("finger".into())
                .then(PointerAction::MoveToElement { element: e, duration: None, x: 0.0, y: 0.0 })
                .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
                .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
            let done = c.perform_actions(finger).await;
            c.release_actions().await.unwrap();
            done.is_ok()
        } else {
            e.click().await.is_ok()
        };
        if done {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{css} stays stale");
}

/// Whether `text` holds a Chinese character.
fn has_han(text: &str) -> bool {
    text.chars().any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch))
}

/// `rec` without its glyphs.
fn without_glyphs(mut rec: Record) -> Record {
    let mut todo = vec![rec.root()];
    while let Some(at) = todo.pop() {
        if at != rec.root() {
            rec.set_glyph(at, None).unwrap();
        }
        todo.extend_from_slice(rec.children(at));
    }
    rec
}

/// The shown error once it shows.
async fn error_shown(c: &Client) -> String {
    wait_for(c, "the error", "return !document.getElementById('error').hidden;").await;
    js(c, "return document.getElementById('error').textContent;").await.as_str().unwrap().into()
}

async fn leftovers(c: &Client, server: &Server, lang: &str, touch: bool, tag: &str) {
    let en = lang == "en";
    c.goto(&server.url(&format!("/?pos=6,1,7,2,4,8,5,3&lang={lang}"))).await.unwrap();
    wait_until(c, "the page", |s| !s.busy && s.moves > 0).await;
    load(c, HAND, touch).await;
    wait_for(c, "the record", "return document.getElementById('report').dataset.ready === 'true';")
        .await;
    // 1. Variation moves carry the graded marks, as main-line ones do.
    let marks = js(c, "return [...document.querySelectorAll('#history [data-mark=mistake]')].map((e) =>
        [e.dataset.variation !== undefined, e.dataset.fall || '', e.querySelector(':scope > .mark-mistake').textContent]);").await;
    let marks = marks.as_array().unwrap();
    let glyph = |fall: &str| match fall {
        "inaccuracy" => "?!",
        "mistake" => "?",
        "blunder" => "??",
        _ => panic!("no grade: {fall:?}"),
    };
    for m in marks {
        assert_eq!(m[2].as_str().unwrap(), glyph(m[1].as_str().unwrap()), "{m}");
    }
    let in_variations = marks.iter().filter(|m| m[0] == true).count();
    assert!(in_variations >= 1, "{marks:?}");
    // The graph of a variation marks its moves that fell.
    let at = js(c, "const e = document.querySelector('#history [data-variation][data-fall]'); e.id = 'fell'; return [e.dataset.ply, e.dataset.fall];").await;
    press(c, "#fell", touch).await;
    let ply = at[0].as_str().unwrap();
    wait_for(c, "the variation's move", &format!("const g = document.querySelector('#graph [data-graph-ply=\"{ply}\"]'); return !!g && g.dataset.fall === '{}';", at[1].as_str().unwrap())).await;
    js(c, "document.getElementById('history').scrollIntoView({block: 'start'}); return 0").await;
    screenshot(c, &format!("66-more-marks-{tag}")).await;
    // 导出 writes the marks as glyphs, variations' too, and the library
    // reads the same tree with them.
    let exported = js(c, "return exportRecord();").await.as_str().unwrap().to_string();
    let movetext = exported.split("\n\n").nth(1).unwrap();
    let glyphs = movetext
        .split_whitespace()
        .map(|w| w.trim_end_matches(')'))
        .filter(|w| w.ends_with('?') || w.ends_with("?!"))
        .count();
    assert_eq!(glyphs, marks.len(), "{exported}");
    assert!(movetext.contains("1. 走4吃6??"), "{exported}");
    let back: Record = exported.parse().unwrap_or_else(|e| panic!("{e}\n{exported}"));
    assert_eq!(without_glyphs(back.clone()), HAND.parse::<Record>().unwrap());
    assert_eq!(back.to_string(), exported);
    // 2. A comment added on the board: the shortcuts stay quiet while typing.
    press(c, "#history > li[data-ply='2']", touch).await;
    wait_for(c, "ply 2", "const e = document.querySelector('#history [aria-current]'); return !!e && e.dataset.ply === '2';").await;
    press(c, "#comment-edit", touch).await;
    wait_for(c, "the comment box", "const b = document.getElementById('comment'); return !b.hidden && document.activeElement === b;").await;
    let box_ = c.find(fantoccini::Locator::Css("#comment")).await.unwrap();
    box_.send_keys("good? \u{E012}\u{E014}ok").await.unwrap(); // ← → typed
    let state = js(c, "return [document.querySelector('#history [aria-current]').dataset.ply, document.getElementById('shortcuts').open,
        document.querySelector('#history > li[data-ply=\"2\"] > .comment').textContent];").await;
    assert_eq!(state, json!(["2", false, "good? ok"]));
    screenshot(c, &format!("66-more-comment-{tag}")).await;
    let exported = js(c, "return exportRecord();").await.as_str().unwrap().to_string();
    assert!(
        exported.contains("2. 不走 {good? ok}") || exported.contains("{good? ok}"),
        "{exported}"
    );
    let back: Record = exported.parse().unwrap();
    assert_eq!(back.comment(back.main_line()[1]), Some("good? ok"));
    // It survives 载入 of the record; changed, then removed.
    load(c, &exported, touch).await;
    // Loaded: the board at the start (no move current), not busy.
    wait_for(c, "the comment loaded", "const e = document.querySelector('#history > li[data-ply=\"2\"] > .comment');
        return !!e && e.textContent === 'good? ok' && !document.querySelector('#history [aria-current]') && !document.getElementById('load').disabled;").await;
    press(c, "#history > li[data-ply='2']", touch).await;
    wait_for(
        c,
        "the box shows it",
        "const b = document.getElementById('comment'); return !b.hidden && b.value === 'good? ok';",
    )
    .await;
    js(c, "const b = document.getElementById('comment'); b.value = 'better'; b.dispatchEvent(new Event('input')); return 0").await;
    assert!(js(c, "return exportRecord();").await.as_str().unwrap().contains("{better}"));
    js(c, "const b = document.getElementById('comment'); b.value = ''; b.dispatchEvent(new Event('input')); return 0").await;
    let exported = js(c, "return exportRecord();").await.as_str().unwrap().to_string();
    assert!(!exported.contains("{better}") && !exported.contains("{good"), "{exported}");
    assert_eq!(
        js(
            c,
            "return document.querySelectorAll('#history > li[data-ply=\"2\"] > .comment').length;"
        )
        .await,
        0
    );
    // 3. A record's errors in the page's language, moves named in it too.
    for (text, zh, english) in [
        (
            "6,1,7,2,4,8,5,3 1. 走3吃5",
            "走3吃7正位",
            "'walk 3 takes 5' is not what the move does: it is walk 3 takes 7, fixed",
        ),
        (
            "[Start \"6,1,7,2,4,8,5,3\"]\n1. 走3 2. 走3",
            "'走3' 在 6,1,3,2,4,8,5,0;0;0 不合法",
            "'walk 3' is illegal in 6,1,3,2,4,8,5,0;0;0: the piece is fixed",
        ),
        (
            "6,1,7,2,4,8,5,3 3 (1. 3)",
            "第 1 步 走3吃7正位 已在此处",
            "ply 1 walk 3 takes 7, fixed is already played here",
        ),
        ("6,1,7,2,4,8,5,3 3 走7", "'走7' 走棋子 7", "'walk 7': piece 7 is not on the board"),
    ] {
        load(c, text, touch).await;
        let error = error_shown(c).await;
        assert!(error.contains(if en { english } else { zh }), "{error}");
        assert_eq!(has_han(&error), !en, "{error}");
        js(c, "document.getElementById('error').hidden = true; return 0").await;
    }
    load(c, "6,1,7,2,4,8,5,3 1. 走3吃5", touch).await;
    error_shown(c).await;
    js(c, "document.getElementById('error').scrollIntoView({block: 'center'}); return 0").await;
    screenshot(c, &format!("66-more-error-{tag}")).await;
    // 4. At a game's end against the engine: the report counts the moves
    // that fell, the summary does not again.
    let url =
        format!("/?pos=6,1,7,2,4,8,5,3&moves=3,4,6,5,2,5,1,4,5,8,7&mode=play-jia&lang={lang}");
    c.goto(&server.url(&url)).await.unwrap();
    wait_for(c, "the game's end", "return !document.getElementById('game-summary').hidden && document.getElementById('report').dataset.ready === 'true';").await;
    let summary = js(c, "return [document.getElementById('game-summary').textContent, document.querySelectorAll('#game-summary p').length, document.getElementById('report').hidden];").await;
    assert_eq!((&summary[1], &summary[2]), (&json!(1), &json!(false)), "{summary}");
    let text = summary[0].as_str().unwrap();
    assert!(!text.contains(if en { "mistakes" } else { "失误" }), "{text}");
    js(c, "document.getElementById('game-summary').scrollIntoView({block: 'start'}); return 0")
        .await;
    screenshot(c, &format!("66-more-end-{tag}")).await;
    // 5. Puzzle errors, worded from their codes. A stale theme or size
    // kept in the browser gives the defaults now, not an error
    // (browser_puzzle's stale_choices); the API's refusals of them are
    // still worded in the page's language.
    c.execute(
        "localStorage.setItem('chaosclock.puzzle', JSON.stringify(arguments[0])); return 0",
        vec![json!({"rating": 1000, "slots": 9, "theme": "mate"})],
    )
    .await
    .unwrap();
    c.goto(&server.url(&format!("/?mode=puzzle&lang={lang}"))).await.unwrap();
    wait_for(
        c,
        "a puzzle",
        "return puzzle.phase === 'solving' && document.getElementById('error').hidden",
    )
    .await;
    screenshot(c, &format!("66-more-puzzle-{tag}")).await;
    for (path, zh, english) in [
        (
            "/api/puzzle?slots=8&theme=mate",
            "没有“mate”这个谜题主题",
            "'mate' is not a puzzle theme",
        ),
        ("/api/puzzle?slots=9", "没有 9 格的", "puzzles exist for 8, 10 and 12 slots, not 9"),
    ] {
        let error = js(c, &format!("return api('{path}').then(() => '', (e) => e.text());")).await;
        let error = error.as_str().unwrap();
        assert!(error.contains(if en { english } else { zh }), "{error}");
        assert_eq!(has_han(error), !en, "{error}");
    }
    js(c, "localStorage.removeItem('chaosclock.puzzle'); return 0").await;
    // One request at a time: the page's api() cancels the one under way.
    let words = js(c, "return (async () => { const out = [];
        for (const path of ['/api/puzzle?id=nope00', '/api/puzzle?slots=8&seed=x', '/api/engine-move?pos=2,1,4,3&level=9']) {
          out.push(await api(path).then(() => '', (e) => e.text())); }
        return out.concat([codedText({ code: 'puzzle.none', args: ['8', 'pass'] })]); })();").await;
    let want: [&str; 4] = if en {
        [
            "there is no puzzle nope00",
            "'x' is not a whole number for seed",
            "engine level '9' is not 1 to 8",
            "no 8-slot puzzle has the theme 'pass'",
        ]
    } else {
        [
            "谜题 nope00 不存在",
            "seed 的值 'x' 不是整数",
            "引擎等级 '9' 应为 1 到 8",
            "没有主题为“不走”的 8 格谜题",
        ]
    };
    assert_eq!(words, json!(want));
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

/// Fills the box with `text` and presses 载入 (once it can be pressed:
/// it is disabled while the board is busy).
async fn load(c: &Client, text: &str, touch: bool) {
    wait_for(c, "载入", "return !document.getElementById('load').disabled;").await;
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
    assert_eq!(without_glyphs(back), hand, "{exported}");
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
    let marked =
        js(c, "return document.querySelectorAll('#history > li[data-fall]').length;").await;
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
