//! Issue 65: in the play modes the evaluation is hidden by default, and
//! 对局时显示评估 (`#show-eval`, kept in `localStorage`) shows it. Hidden,
//! nothing in the page gives the value away: no value word or depth in
//! its text, titles or labels (the legend's key aside), the page's title
//! or its URL; no bar, graph, report, best line, hint or marks. At the end
//! of a game, and in analysis, everything shows. In a real browser at
//! 1280 × 900 in Chinese with a mouse and at 390 × 844 in English with a
//! finger; screenshots `65-*.png` go to `$SCREENSHOT_DIR` (default
//! `/tmp/chaosclock-screenshots`).

#[path = "common/browser.rs"]
mod browser;
mod common;

use browser::*;
use common::server::Server;
use fantoccini::Client;
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_modes_hide_the_evaluation_until_asked() {
    let Some(session) = Session::start(&[]).await else { return };
    let c = &session.c;
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &[]);
    for (w, h, lang, touch) in [(1280, 900, "zh", false), (390, 844, "en", true)] {
        c.set_window_size(w, h).await.unwrap();
        let tag = if touch { "phone" } else { "desktop" };
        let p = Pass { c, server: &server, lang, touch, tag, prefix: "65", scroll: true };
        hidden_then_shown(&p).await;
        end_of_game(&p).await;
        leaving_play(&p).await;
    }
    c.set_window_size(1280, 900).await.unwrap();
    session.close().await;
}

/// What of the evaluation the page holds: its text, its titles and
/// labels (the legend's key aside), the page's title and URL, how many
/// elements carry a value (value attributes, badges, hints, graph points,
/// best-line moves, falls), whether the bar, the report and the best-line
/// button are hidden, the report's text, the history's marks and the
/// switch.
const LEAKS: &str = "
    const legend = document.querySelector('.legend');
    const text = [];
    const walk = (n) => {
      if (n === legend || n.nodeName === 'SCRIPT') return;
      if (n.nodeType === 3) text.push(n.textContent);
      for (const ch of n.childNodes) walk(ch);
    };
    walk(document.body);
    const attrs = [...document.querySelectorAll('*')].filter((e) => !legend.contains(e))
      .flatMap((e) => ['title', 'aria-label', 'data-value', 'data-depth'].map((a) => e.getAttribute(a)))
      .filter((x) => x !== null);
    const $ = (id) => document.getElementById(id);
    return { text: text.join(' '), attrs: attrs.join(' '), title: document.title, url: location.href,
      valued: document.querySelectorAll('[data-value], .badge, #board .hint, #graph *, #line li, [data-fall]').length,
      bar: $('eval-bar').hidden, report: $('report').hidden,
      reportText: document.querySelector('#report .report-body').textContent,
      bestline: $('bestline-row').hidden,
      marks: [...document.querySelectorAll('#history [data-mark]')].map((e) => e.dataset.mark).join(''),
      hiddenClass: document.body.classList.contains('eval-hidden'), switch: $('show-eval').checked };";

/// Checks that the page gives nothing of the evaluation away.
async fn assert_hidden(p: &Pass<'_>, when: &str) -> Value {
    let l = js(p.c, LEAKS).await;
    for field in ["text", "attrs", "title", "url"] {
        let s = l[field].as_str().unwrap();
        for w in p.words() {
            assert!(!s.contains(w), "{when}: {field} says {w}: {s}");
        }
    }
    assert_eq!(l["valued"], 0, "{when}: {l}");
    assert_eq!(
        [&l["bar"], &l["report"], &l["reportText"], &l["bestline"], &l["marks"], &l["hiddenClass"]],
        [&json!(true), &json!(true), &json!(""), &json!(true), &json!(""), &json!(true)],
        "{when}: {l}"
    );
    l
}

/// Checks that the page shows the evaluation: the value in the summary
/// and the bar, each move's value, the graph and the best-line button.
async fn assert_shown(p: &Pass<'_>, when: &str) {
    let s = js(
        p.c,
        "const $ = (id) => document.getElementById(id);
        return [$('summary').textContent, $('eval-bar').hidden, $('eval-bar').textContent,
          document.querySelectorAll('#moves tr[data-value]').length === document.querySelectorAll('#moves tr.move').length,
          document.querySelectorAll('#graph [data-graph-ply]').length > 0, $('bestline-row').hidden,
          document.body.classList.contains('eval-hidden')]",
    )
    .await;
    let said = |i: usize| p.words().iter().any(|w| s[i].as_str().unwrap().contains(w));
    assert!(said(0) && said(2), "{when}: no value shown: {s}");
    assert_eq!(
        [&s[1], &s[3], &s[4], &s[5], &s[6]],
        [&json!(false), &json!(true), &json!(true), &json!(false), &json!(false)],
        "{when}: {s}"
    );
}

/// Waits for the player's turn (甲), the moves listed.
async fn my_turn(c: &Client) -> Shown {
    wait_until(c, "my turn", |s| !s.busy && side(&s.position) == "0" && s.moves > 0).await
}

/// 执甲 on 6 slots: hidden from the first position and after a move of
/// each side; 对局时显示评估 shows everything, kept across a reload;
/// switched off, hidden again.
async fn hidden_then_shown(p: &Pass<'_>) {
    let c = p.c;
    js(c, "localStorage.removeItem('chaosclock.show-eval'); return 0").await;
    p.open("/?pos=2,1,4,3,6,5;1;0&mode=play-jia").await;
    let s = my_turn(c).await;
    let l = assert_hidden(p, "the first position").await;
    assert_eq!(l["switch"], false, "off by default");
    let label =
        js(c, "return document.querySelector('label:has(#show-eval)').textContent.trim()").await;
    assert_eq!(
        label,
        if p.lang == "zh" { "对局时显示评估" } else { "Show evaluation during play" }
    );
    // A move and the engine's reply: still nothing.
    p.press("#moves tr.move").await;
    wait_until(c, "the engine's reply", |x| {
        !x.busy && side(&x.position) == "0" && x.moves > 0 && x.position != s.position
    })
    .await;
    assert_hidden(p, "after a move").await;
    p.shot("1-hidden").await;
    // Shown, and kept.
    p.press("label:has(#show-eval)").await;
    assert_shown(p, "switched on").await;
    assert_eq!(js(c, "return localStorage.getItem('chaosclock.show-eval')").await, "on");
    p.shot("2-shown").await;
    c.refresh().await.unwrap();
    my_turn(c).await;
    assert_eq!(js(c, "return document.getElementById('show-eval').checked").await, true);
    assert_shown(p, "reloaded").await;
    // Off again: hidden at once.
    p.press("label:has(#show-eval)").await;
    assert_hidden(p, "switched off").await;
    assert_eq!(js(c, "return localStorage.getItem('chaosclock.show-eval')").await, "off");
}

/// A finished game in 执甲: everything shows, the report too, and still
/// after 悔棋 back into the finished game.
async fn end_of_game(p: &Pass<'_>) {
    let c = p.c;
    p.open("/?pos=6,1,7,2,4,8,5,3&mode=play-jia&moves=3,4,6,5,2,5,1,4,5,8,7").await;
    wait_for(c, "the summary", "return !!document.getElementById('analyse-game')").await;
    wait_for(c, "the report", "return document.getElementById('report').dataset.ready === 'true'")
        .await;
    let end = js(
        c,
        "return [document.getElementById('show-eval').checked, document.body.classList.contains('eval-hidden'),
        document.querySelectorAll('#graph [data-graph-ply]').length > 0]",
    )
    .await;
    assert_eq!(end, json!([false, false, true]), "at the end: {end}");
    // No empty lines between the game's summary and the moves played (an
    // empty value summary left a gap of about 50 px).
    let gap = js(
        c,
        "const box = document.getElementById('game-summary').getBoundingClientRect();
        const next = document.querySelector('#history').previousElementSibling.getBoundingClientRect();
        return next.top - box.bottom",
    )
    .await;
    assert!(gap.as_f64().unwrap() < 30.0, "{gap} px between the game's summary and 棋谱");
    p.shot("3-game-over").await;
    key(c, "ArrowLeft").await;
    wait_until(c, "悔棋", |s| !s.busy && s.moves > 0).await;
    assert_shown(p, "back in a finished game").await;
}

/// Hidden in 执乙 mid-game; 分析 shows everything.
async fn leaving_play(p: &Pass<'_>) {
    let c = p.c;
    p.open("/?pos=2,1,4,3,6,5;1;0&moves=2&mode=play-yi").await;
    wait_until(c, "the moves", |s| !s.busy && s.moves > 0).await;
    assert_hidden(p, "执乙").await;
    p.press("label:has([data-mode='analysis'])").await;
    wait_until(c, "analysis", |s| !s.busy && s.moves > 0).await;
    assert_shown(p, "analysis").await;
}
