//! Issue 66's board: the ten defects found by trying it as a player
//! would (section 3), and what players expect around it (section 4: a
//! dark theme, `?` for the shortcuts, move sounds), in a real browser at
//! 1280 × 900 in Chinese with a mouse and at 390 × 844 in English with a
//! finger (touch taps); the language-bound checks in both languages.
//! Screenshots `66-*.png` go to `$SCREENSHOT_DIR` (default
//! `/tmp/chaosclock-screenshots`).

#[path = "common/browser.rs"]
mod browser;
mod common;

use browser::*;
use common::server::Server;
use fantoccini::{Client, Locator};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_66_board_defects_theme_shortcuts_and_sounds() {
    let Some(session) = Session::start(&[]).await else { return };
    let c = &session.c;
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &["--tables", "."]);
    page_size(&server);
    for (w, h, lang, touch) in [(1280, 900, "zh", false), (390, 844, "en", true)] {
        c.set_window_size(w, h).await.unwrap();
        let p = Pass {
            c,
            server: &server,
            lang,
            touch,
            tag: if touch { "phone" } else { "desktop" },
            prefix: "66",
            scroll: false,
        };
        stale_bar(&p).await;
        engine_after_redo(&p).await;
        forced_moves(&p).await;
        error_words(&p).await;
        titles(&p).await;
        file_button(&p).await;
        end_of_game(&p).await;
        header(&p).await;
        editor_back(&p).await;
        shortcuts(&p).await;
        sounds(&p).await;
        theme(&p).await;
    }
    c.set_window_size(1280, 900).await.unwrap();
    session.close().await;
}

/// Waits for the answer: not busy, moves listed.
async fn settled(c: &Client) -> Shown {
    wait_until(c, "the moves", |s| !s.busy && s.moves > 0).await
}

/// Every asset the page loads, under 200 KB in all.
fn page_size(server: &Server) {
    let (_, html) = server.get("/");
    let mut total = html.len();
    for name in ["style.css", "favicon.svg"].into_iter().map(String::from).chain(
        html.split("<script src=\"/").skip(1).map(|s| s.split('"').next().unwrap().to_string()),
    ) {
        let (status, body) = server.get(&format!("/{name}"));
        assert_eq!(status, 200, "{name}");
        total += body.len();
    }
    eprintln!("the page: {total} bytes");
    assert!(total < 200_000, "the page is {total} bytes");
}

/// Defects 1 and 8: a new random opening hides the old game's bar while
/// it solves and after 取消, and the board does not move when the bar
/// comes and goes.
async fn stale_bar(p: &Pass<'_>) {
    let c = p.c;
    p.open("/?pos=4,7,1,9,3,10,2,5,8,6").await;
    settled(c).await;
    let left = "return Math.round(document.getElementById('board').getBoundingClientRect().left)";
    let with_bar = js(c, left).await;
    assert_eq!(js(c, "return document.getElementById('eval-bar').hidden").await, false);
    js(c, "document.getElementById('slots').value = '12'; return 0").await;
    p.press("#random").await;
    let during = js(
        c,
        "return [document.getElementById('eval-bar').hidden, !document.getElementById('busy').hidden,
        document.getElementById('eval-bar').querySelector('.text').textContent]",
    )
    .await;
    assert_eq!((&during[0], &during[1]), (&json!(true), &json!(true)), "while solving: {during}");
    assert_eq!(js(c, left).await, with_bar, "the board moved when the bar went");
    p.shot("01-new-game-solving").await;
    p.press("#cancel").await;
    wait_for(c, "the cancel", "return document.getElementById('busy').hidden").await;
    assert_eq!(js(c, "return document.getElementById('eval-bar').hidden").await, true);
    assert_eq!(js(c, left).await, with_bar, "the board moved after the cancel");
    // A page whose bar first appears with the answer: no jump either.
    p.open("/?pos=2,1,4,3,6,5").await;
    let before = js(c, left).await;
    settled(c).await;
    assert_eq!(js(c, "return document.getElementById('eval-bar').hidden").await, false);
    assert_eq!(js(c, left).await, before, "the board jumped when the bar appeared");
}

/// The position shown.
async fn position(c: &Client) -> String {
    js(c, "return document.getElementById('position').textContent").await.as_str().unwrap().into()
}

/// Defect 2: in play mode, 悔棋 then 重做 (and ← then →) brings the
/// engine's reply back, and the player's moves can be clicked again.
async fn engine_after_redo(p: &Pass<'_>) {
    let c = p.c;
    // The engine's seed fixed, so that its replies are the same each run
    // (the waits below hold for any: a reply may be two plies, an extra
    // move's).
    p.open("/?pos=5,3,4,1,7,8,6,2;1;0&mode=play-yi&level=2&seed=1").await;
    settled(c).await;
    let first = js(c, "return document.querySelector('#moves tr.move').dataset.move").await;
    p.press(&format!("#moves tr[data-move='{}']", first.as_str().unwrap())).await;
    // The engine (甲) answers: 乙 to move again, two plies played or more.
    let yi_again = |plies: usize| {
        format!(
            "return document.querySelectorAll('#history li').length >= {plies} && document.getElementById('busy').hidden && document.getElementById('position').textContent.split(';')[1] === '1'"
        )
    };
    wait_for(c, "the engine's reply", &yi_again(2)).await;
    let after = position(c).await;
    let played = js(c, "return document.querySelectorAll('#history li').length").await;
    let played = played.as_u64().unwrap() as usize;
    for (back, forward) in [("#undo", "#redo"), ("ArrowLeft", "ArrowRight")] {
        if back.starts_with('#') {
            p.press(back).await;
        } else {
            key(c, back).await;
        }
        wait_for(
            c,
            "the start again",
            "return document.getElementById('position').textContent.endsWith(';1;0')",
        )
        .await;
        if forward.starts_with('#') {
            p.press(forward).await;
        } else {
            key(c, forward).await;
        }
        let want = format!("return document.getElementById('position').textContent === '{after}'");
        wait_for(c, "the engine's reply replayed", &want).await;
        let s = settled(c).await;
        assert!(s.moves > 0, "{s:?}");
    }
    // And a move of the player's is played and answered again.
    let mv = js(c, "return document.querySelector('#moves tr.move').dataset.move").await;
    p.press(&format!("#moves tr[data-move='{}']", mv.as_str().unwrap())).await;
    wait_for(c, "a further reply", &yi_again(played + 1)).await;
    p.shot("02-redo-play").await;
}

/// Defect 3: the only legal move is marked forced (□), not "!".
async fn forced_moves(p: &Pass<'_>) {
    let c = p.c;
    let before = "3,5,8,6,2,7,1,4&moves=4,5,7,1,8,3,2";
    // The position before ply 8 has one legal move: 甲's pass.
    let a = p.server.ok("/api/position?pos=1,2,3,4,7,0,5,0;0;0");
    assert_eq!(a["moves"].as_array().unwrap().len(), 1, "{a}");
    assert_eq!(a["moves"][0]["move"], "pass", "{a}");
    p.open(&format!("/?pos={before},pass")).await;
    settled(c).await;
    let marks = "return [...document.querySelectorAll('#history li')].map((li) => li.dataset.mark)";
    wait_for(c, "the marks", "return document.querySelector('#history li[data-ply=\"8\"]') !== null && document.querySelector('#history li[data-ply=\"8\"]').dataset.mark !== ''").await;
    let m = js(c, marks).await;
    assert_eq!(m[7], "forced", "{m}");
    let entry = js(c, "const e = document.querySelector('#history li[data-ply=\"8\"]'); return [!!e.querySelector('.mark-only'), e.querySelector('.mark-forced').textContent, e.querySelector('.mark-forced').title]").await;
    assert_eq!(entry[0], false, "{entry}");
    assert_eq!(entry[1], "□", "{entry}");
    assert_eq!(entry[2], p.say("唯一合法着", "forced: the only legal move"), "{entry}");
    // The entry is that pass.
    let pos = js(
        c,
        "return document.querySelector('#history li[data-ply=\"8\"]').getAttribute('aria-label')",
    )
    .await;
    assert!(pos.as_str().unwrap().contains(p.say("不走", "pass")), "{pos}");
    // Ply 3 (7) is a real only move: "!".
    assert_eq!(m[2], "only", "{m}");
    // Not ringed on the graph as an only move.
    let ring = js(
        c,
        "return document.querySelector('#graph [data-graph-ply=\"8\"]').classList.contains('only')",
    )
    .await;
    assert_eq!(ring, false);
    p.shot("03-forced").await;
}

/// Whether `text` has a Latin letter (a position is digits, commas and
/// semicolons).
fn latin(text: &str) -> bool {
    text.chars().any(|ch| ch.is_ascii_alphabetic())
}

/// Defect 4: errors in the page's language, worded from the server's code,
/// on the board and in the editor, re-said when the language changes.
async fn error_words(p: &Pass<'_>) {
    let c = p.c;
    p.open("/?pos=2,1,4,6,3,5;0;4").await;
    wait_for(c, "the error", "return !document.getElementById('error').hidden").await;
    let said = |c: &Client| {
        let c = c.clone();
        async move {
            js(&c, "return document.getElementById('error').textContent")
                .await
                .as_str()
                .unwrap()
                .to_string()
        }
    };
    let zh = "错误：局面 '2,1,4,6,3,5;0;4'：棋子 4 不可能刚走过：它出发的第 5 格上是 3";
    let en = "Error: position '2,1,4,6,3,5;0;4': piece 4 cannot have just walked: its origin slot 5 holds piece 3";
    let text = said(c).await;
    assert_eq!(text, p.say(zh, en), "{text}");
    if p.lang == "zh" {
        assert!(!latin(&text), "English on the Chinese page: {text}");
    }
    p.shot("04-error").await;
    // The other language re-says it.
    let other = if p.lang == "zh" { "en" } else { "zh" };
    p.press(&format!("[data-lang='{other}']")).await;
    assert_eq!(said(c).await, if other == "zh" { zh } else { en });
    p.press(&format!("[data-lang='{}']", p.lang)).await;
    // A bad board size, and the editor's check.
    p.open("/?pos=1,1").await;
    wait_for(c, "the error", "return !document.getElementById('error').hidden").await;
    let text = said(c).await;
    assert!(text.contains(p.say("不能是 2 格", "not 2")), "{text}");
    assert_eq!(latin(&text), p.lang == "en", "{text}");
    p.open("/?edit=2,1,4,6,3,5;0;4").await;
    wait_for(c, "the check", "return document.getElementById('editor').dataset.valid === 'false'")
        .await;
    let text = js(c, "return document.getElementById('edit-error').textContent").await;
    let text = text.as_str().unwrap();
    assert!(
        text.contains(p.say("棋子 4 不可能刚走过", "piece 4 cannot have just walked")),
        "{text}"
    );
    assert_eq!(latin(text), p.lang == "en", "{text}");
    // A 4-slot fair start: the server's code, no English in Chinese.
    p.open("/?pos=2,1,4,3").await;
    settled(c).await;
    js(c, "document.getElementById('slots').value = '4'; return 0").await;
    p.press("#fair").await;
    wait_for(c, "the error", "return !document.getElementById('error').hidden").await;
    let text = said(c).await;
    assert!(text.contains(p.say("没有 4 格的共赢开局", "no 4-slot opening is both-win")), "{text}");
    if p.lang == "zh" {
        assert!(!latin(&text), "{text}");
    }
}

/// Defect 5: the title names the mode.
async fn titles(p: &Pass<'_>) {
    let c = p.c;
    let title = |c: &Client| {
        let c = c.clone();
        async move { c.title().await.unwrap() }
    };
    p.open("/?pos=2,1,4,3,6,5").await;
    settled(c).await;
    assert_eq!(title(c).await, p.say("混乱时钟 · 分析", "Chaos Clock · analysis"));
    p.press("label:has([data-mode='play-jia'])").await;
    wait_for(c, "the mode", "return document.title.length > 0 && !document.title.endsWith('分析') && !document.title.endsWith('analysis')").await;
    assert_eq!(title(c).await, p.say("混乱时钟 · 执甲对局", "Chaos Clock · playing 甲"));
    p.press("label:has([data-mode='puzzle'])").await;
    assert_eq!(title(c).await, p.say("混乱时钟 · 谜题", "Chaos Clock · puzzles"));
    p.open("/?edit=2,1,4,3").await;
    wait_for(c, "the check", "return document.getElementById('editor').dataset.valid === 'true'")
        .await;
    assert_eq!(title(c).await, p.say("混乱时钟 · 摆棋", "Chaos Clock · board editor"));
    p.open("/?pos=2,1,4,3&mode=play-yi").await;
    settled(c).await;
    assert_eq!(title(c).await, p.say("混乱时钟 · 执乙对局", "Chaos Clock · playing 乙"));
}

/// Defect 6: the file is picked with a button in the page's language;
/// the browser's own input ("Choose File") is not seen.
async fn file_button(p: &Pass<'_>) {
    let c = p.c;
    p.open("/?pos=2,1,4,3").await;
    settled(c).await;
    let state = js(
        c,
        "const b = document.getElementById('cfg-file-button').getBoundingClientRect();
        const i = document.getElementById('cfg-file').getBoundingClientRect();
        return [document.getElementById('cfg-file-button').textContent, b.width >= 40 && b.height >= 40 || innerWidth > 700,
            i.width <= 1 && i.height <= 1, getComputedStyle(document.getElementById('cfg-file')).opacity]",
    )
    .await;
    assert_eq!(state, json!([p.say("文件…", "File…"), true, true, "0"]), "{state}");
    // Picked, it loads.
    let file = tempfile::Builder::new().suffix(".cfg").tempfile().unwrap();
    std::fs::write(file.path(), "board=5, 2, 1, 4, 3, 0\nside-to-move=1\n").unwrap();
    let picker = c.find(Locator::Id("cfg-file")).await.unwrap();
    picker.send_keys(&file.path().display().to_string()).await.unwrap();
    wait_for(
        c,
        "the cfg",
        "return document.getElementById('position').textContent.startsWith('2,1,4,3,6,5')",
    )
    .await;
    p.shot("06-file-button").await;
}

/// Defect 7: at the end of a game no empty moves table and no best line.
async fn end_of_game(p: &Pass<'_>) {
    let c = p.c;
    p.open("/?pos=2,1,4,3&moves=2,pass,3,pass,4,pass,2").await;
    wait_for(c, "the end", "return document.getElementById('position').textContent !== '' && document.getElementById('eval-bar').hidden").await;
    let gone = js(
        c,
        "return [document.getElementById('moves').offsetParent === null,
            document.getElementById('bestline').offsetParent === null]",
    )
    .await;
    assert_eq!(gone, json!([true, true]), "at the end of the game");
    p.shot("07-end-of-game").await;
    // One ply back, both are back.
    key(c, "ArrowLeft").await;
    settled(c).await;
    let back = js(
        c,
        "return [document.getElementById('moves').offsetParent !== null,
            document.getElementById('bestline').offsetParent !== null, document.getElementById('bestline').disabled]",
    )
    .await;
    assert_eq!(back, json!([true, true, false]));
}

/// Defect 9: the header's modes on one line, in both languages, and its
/// buttons 40 px on a phone.
async fn header(p: &Pass<'_>) {
    let c = p.c;
    for lang in ["zh", "en"] {
        c.goto(&p.server.url(&format!("/?pos=2,1,4,3&lang={lang}"))).await.unwrap();
        settled(c).await;
        let tops = js(c, "return [...document.querySelectorAll('.modes label')].map((l) => Math.round(l.getBoundingClientRect().top))").await;
        let tops: Vec<i64> = tops.as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
        assert!(tops.iter().all(|&t| t == tops[0]), "{lang}: the modes wrap: {tops:?}");
        // The title, the languages and the switches on one line above them.
        let first = js(c, "return [...document.querySelectorAll('header h1, .tools button')].map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2))").await;
        let first: Vec<i64> =
            first.as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
        assert!(
            first.iter().all(|&t| (t - first[0]).abs() <= 3),
            "{lang}: the header's first line wraps: {first:?}"
        );
        let small = js(c, "return [...document.querySelectorAll('header button, .modes label')].filter((e) => {
            const r = e.getBoundingClientRect(); return innerWidth <= 700 && (r.width < 40 || r.height < 40); }).map((e) => e.textContent)").await;
        assert_eq!(small, json!([]), "{lang}: header targets under 40 px");
        let wide = js(c, "return document.documentElement.scrollWidth <= innerWidth").await;
        assert_eq!(wide, true, "{lang}: sideways overflow");
        screenshot(c, &format!("66-09-header-{}-{lang}", p.tag)).await;
    }
    // The chosen mode is marked, and a tap on another chooses it.
    p.open("/?pos=2,1,4,3").await;
    settled(c).await;
    p.press("label:has([data-mode='play-yi'])").await;
    assert_eq!(
        js(c, "return document.querySelector('[data-mode=\"play-yi\"]').checked").await,
        true
    );
}

/// Defect 10: the browser's Back steps through the editor's edits, then
/// back to the game.
async fn editor_back(p: &Pass<'_>) {
    let c = p.c;
    p.open("/?pos=2,1,4,3,6,5").await;
    settled(c).await;
    p.press("#edit-open").await;
    let valid = "return document.getElementById('editor').dataset.valid !== 'pending'";
    wait_for(c, "the check", valid).await;
    p.press("#edit-clear").await;
    assert_eq!(position(c).await, "0,0,0,0,0,0;1;0");
    p.press("[data-hand='2']").await;
    p.press("#board circle.slot[data-slot='1']").await;
    assert_eq!(position(c).await, "2,0,0,0,0,0;1;0");
    p.press("[data-edit-side='0']").await;
    assert_eq!(position(c).await, "2,0,0,0,0,0;0;0");
    for want in ["2,0,0,0,0,0;1;0", "0,0,0,0,0,0;1;0", "2,1,4,3,6,5;1;0"] {
        c.back().await.unwrap();
        let script = format!("return document.getElementById('position').textContent === '{want}'");
        wait_for(c, want, &script).await;
        assert_eq!(js(c, "return document.getElementById('editor').hidden").await, false);
    }
    // One more: the game, editor closed.
    c.back().await.unwrap();
    wait_for(c, "the game", "return document.getElementById('editor').hidden").await;
    let s = settled(c).await;
    assert_eq!(s.position, "2,1,4,3,6,5;1;0");
    // Forward: the editor again, at its first edit.
    c.forward().await.unwrap();
    wait_for(c, "the editor", "return !document.getElementById('editor').hidden").await;
    p.shot("10-editor-forward").await;
}

/// Section 4: `?` opens the list of shortcuts, Esc closes it (on a phone,
/// the header's ? button and the list's Close).
async fn shortcuts(p: &Pass<'_>) {
    let c = p.c;
    p.open("/?pos=2,1,4,3").await;
    settled(c).await;
    let open = "return document.getElementById('shortcuts').open";
    if p.touch {
        p.press("#shortcuts-open").await;
    } else {
        c.find(Locator::Css("body")).await.unwrap().send_keys("?").await.unwrap();
    }
    wait_for(c, "the list", "return document.getElementById('shortcuts').open").await;
    let rows =
        js(c, "return [...document.querySelectorAll('#shortcuts tr')].map((r) => r.textContent)")
            .await;
    let rows = rows.as_array().unwrap();
    assert!(rows.len() >= 6, "{rows:?}");
    assert!(rows.iter().any(|r| r.as_str().unwrap().contains(p.say("悔棋", "undoes"))), "{rows:?}");
    // ← does not move the board under the list.
    let pos = position(c).await;
    p.shot("11-shortcuts").await;
    if p.touch {
        p.press("#shortcuts-close").await;
    } else {
        c.active_element().await.unwrap().send_keys("\u{E00C}").await.unwrap(); // Esc
    }
    wait_for(c, "closed", "return !document.getElementById('shortcuts').open").await;
    assert_eq!(js(c, open).await, false);
    assert_eq!(position(c).await, pos);
}

/// Section 4: sounds off by default, on with #sound (kept over a reload):
/// a move, and a capture.
async fn sounds(p: &Pass<'_>) {
    let c = p.c;
    js(c, "localStorage.removeItem('chaosclock.sound'); return 0").await;
    p.open("/?pos=2,1,4,3").await;
    settled(c).await;
    assert_eq!(
        js(c, "return document.getElementById('sound').getAttribute('aria-pressed')").await,
        "false"
    );
    // 乙's 2 takes 4: no sound while off.
    p.press("#moves tr[data-move='2']").await;
    settled(c).await;
    assert_eq!(js(c, "return document.body.dataset.sounds || '0'").await, "0");
    p.press("#sound").await;
    assert_eq!(
        js(c, "return document.getElementById('sound').getAttribute('aria-pressed')").await,
        "true"
    );
    p.open("/?pos=2,1,4,3").await;
    settled(c).await;
    assert_eq!(
        js(c, "return document.getElementById('sound').getAttribute('aria-pressed')").await,
        "true"
    );
    p.press("#moves tr[data-move='2']").await;
    settled(c).await;
    assert_eq!(
        js(c, "return [document.body.dataset.sound, document.body.dataset.sounds]").await,
        json!(["capture", "1"])
    );
    p.press("#moves tr[data-move='pass']").await;
    settled(c).await;
    assert_eq!(
        js(c, "return [document.body.dataset.sound, document.body.dataset.sounds]").await,
        json!(["move", "2"])
    );
    // A step back is silent.
    key(c, "ArrowLeft").await;
    settled(c).await;
    assert_eq!(js(c, "return document.body.dataset.sounds").await, "2");
    p.press("#sound").await;
    assert_eq!(js(c, "return localStorage.getItem('chaosclock.sound')").await, "off");
}

/// The contrast of every visible text against its background (WCAG 2:
/// 4.5 for normal text, 3 for large), and the worst few.
const CONTRAST: &str = "
    const rgb = (s) => { const m = s.match(/[\\d.]+/g).map(Number); return m.length > 3 ? m : [...m, 1]; };
    const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const bgOf = (e) => { for (let x = e; x; x = x.parentElement) { const c = rgb(getComputedStyle(x).backgroundColor); if (c[3] > 0.5) return c; }
        return rgb(getComputedStyle(document.body).backgroundColor); };
    const out = [];
    for (const e of document.querySelectorAll('body *')) {
        if (e.closest('svg') || e.closest('.eval-bar') || !e.offsetParent && getComputedStyle(e).position !== 'fixed') continue;
        const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
        if (!own) continue;
        const st = getComputedStyle(e);
        if (Number(st.opacity) < 1 || e.closest('[disabled], .locked')) continue;
        const size = parseFloat(st.fontSize), bold = Number(st.fontWeight) >= 700;
        const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
        const r = ratio(rgb(st.color), bgOf(e));
        out.push([r, need, (e.id || e.className || e.tagName) + ': ' + e.textContent.trim().slice(0, 20)]);
    }
    // The board's words: numbers on the face, the centre, a piece's number.
    const css = (name) => rgb(getComputedStyle(document.querySelector(name)).fill);
    const face = css('#board .face');
    for (const q of ['#board .slotnum', '#board .center']) if (document.querySelector(q)) out.push([ratio(css(q), face), 4.5, q]);
    for (const q of ['#board .piece.jia circle', '#board .piece.yi circle']) if (document.querySelector(q)) out.push([ratio([255, 255, 255], css(q)), 3, q + ' (number, bold 17px)']);
    out.sort((a, b) => a[0] / a[1] - b[0] / b[1]);
    return out.map(([r, need, what]) => [Math.round(r * 100) / 100, need, what]);";

/// Section 4: a dark theme following the system until the switch is
/// pressed, kept over a reload, the board, bar and graph readable, and
/// text contrast as WCAG AA asks (in both themes).
async fn theme(p: &Pass<'_>) {
    let c = p.c;
    js(c, "localStorage.removeItem('chaosclock.theme'); return 0").await;
    let game = "/?pos=3,5,8,6,2,7,1,4&moves=4,5,7,1,8,3,2&ply=5";
    p.open(game).await;
    settled(c).await;
    let system =
        js(c, "return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'").await;
    assert_eq!(js(c, "return document.documentElement.dataset.theme").await, system);
    for want in ["dark", "light"] {
        if js(c, "return document.documentElement.dataset.theme").await != want {
            p.press("#theme").await;
        }
        assert_eq!(js(c, "return document.documentElement.dataset.theme").await, want);
        // Kept over a reload.
        p.open(game).await;
        settled(c).await;
        assert_eq!(js(c, "return document.documentElement.dataset.theme").await, want);
        let pressed =
            js(c, "return document.getElementById('theme').getAttribute('aria-pressed')").await;
        assert_eq!(pressed, json!((want == "dark").to_string()));
        let list = js(c, CONTRAST).await;
        let list = list.as_array().unwrap();
        eprintln!("{} {want}: lowest contrasts {:?}", p.tag, &list[..list.len().min(6)]);
        let low: Vec<_> =
            list.iter().filter(|x| x[0].as_f64().unwrap() < x[1].as_f64().unwrap()).collect();
        assert!(low.is_empty(), "{want}: text under WCAG AA: {low:?}");
        p.shot(&format!("12-theme-{want}")).await;
    }
}

/// The theme follows a dark system (Chromium told so) until the switch
/// is pressed; the choice is kept over the system's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_theme_follows_a_dark_system() {
    let Some(session) = Session::start(&["--force-dark-mode"]).await else { return };
    let c = &session.c;
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &["--tables", "."]);
    c.set_window_size(390, 844).await.unwrap();
    c.goto(&server.url("/?pos=2,1,4,3,6,5")).await.unwrap();
    settled(c).await;
    let state = "return [matchMedia('(prefers-color-scheme: dark)').matches, document.documentElement.dataset.theme,
        getComputedStyle(document.body).backgroundColor]";
    assert_eq!(js(c, state).await, json!([true, "dark", "rgb(22, 23, 25)"]));
    screenshot(c, "66-13-system-dark-phone-zh").await;
    tap(c, "#theme").await;
    c.goto(&server.url("/?pos=2,1,4,3,6,5")).await.unwrap();
    settled(c).await;
    assert_eq!(js(c, state).await, json!([true, "light", "rgb(245, 242, 234)"]));
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pass_button_names_the_when_stuck_rule() {
    // A server of the original program's pass rule (`--pass-rule
    // when-stuck`, RULES.md) says so where it matters: 不走 reads
    // 不走(无路时) / "Pass if stuck", disabled while other moves
    // exist and enabled when the side is stuck; under `always` it reads
    // 不走 and is enabled in both positions. (`lang` in every URL: the
    // last pass switches the language, which the browser keeps.)
    let Some(session) = Session::start(&[]).await else { return };
    let c = &session.c;
    let dir = tempfile::tempdir().unwrap();
    let stuck = Server::start(dir.path(), &["--tables", ".", "--pass-rule", "when-stuck"]);
    let always = Server::start(dir.path(), &["--tables", "."]);
    let button = "const b = document.getElementById('pass'); return [b.textContent, b.disabled]";
    for (w, h, lang, touch) in [
        (1280, 900, "zh", false),
        (1280, 900, "en", false),
        (390, 844, "en", true),
        (390, 844, "zh", true),
    ] {
        c.set_window_size(w, h).await.unwrap();
        for (server, when_stuck) in [(&stuck, true), (&always, false)] {
            let tag = if touch { "phone" } else { "desktop" };
            let p = Pass { c, server, lang, touch, tag, prefix: "65", scroll: false };
            let label = match when_stuck {
                true => p.say("不走(无路时)", "Pass if stuck"),
                false => p.say("不走", "Pass"),
            };
            // A 10-slot fair start: every piece can move.
            p.open(&format!("/?pos=2,4,1,6,7,8,5,9,10,3&lang={lang}")).await;
            settled(c).await;
            assert_eq!(js(c, button).await, json!([label, when_stuck]), "{lang}");
            if when_stuck {
                p.shot("pass-rule-when-stuck").await;
            }
            // The longer label fits: the page does not scroll sideways.
            let wide = "return document.documentElement.scrollWidth - innerWidth";
            assert!(js(c, wide).await.as_i64().unwrap() <= 0, "{lang} {w}: sideways");
            // 甲 is stuck: passing is its only move, under either rule.
            p.open(&format!("/?pos=1,2,3,4,7,0,5,0;0;0&lang={lang}")).await;
            settled(c).await;
            assert_eq!(js(c, button).await, json!([label, false]), "{lang}");
        }
        // The label follows a change of language.
        let p = Pass { c, server: &stuck, lang, touch, tag: "", prefix: "65", scroll: false };
        p.open(&format!("/?pos=2,4,1,6,7,8,5,9,10,3&lang={lang}")).await;
        settled(c).await;
        let other = if lang == "zh" { "en" } else { "zh" };
        p.press(&format!("[data-lang={other}]")).await;
        let relabelled = if lang == "zh" { "Pass if stuck" } else { "不走(无路时)" };
        wait_for(
            c,
            "the relabelled button",
            &format!("return document.getElementById('pass').textContent === '{relabelled}'"),
        )
        .await;
        p.press(&format!("[data-lang={lang}]")).await;
    }
    session.close().await;
}
