//! The board's puzzle mode (`mode=puzzle`, issue 61) in a real browser
//! (the harness of tests/common/browser.rs), at 1280 × 900 with the mouse
//! and at 390 × 844 with touch, in Chinese and English: a puzzle opened by
//! its id solved right (its line read from `/api/puzzle`), a wrong move
//! marked with its refutation, retry, the solution, the next puzzle, a
//! link that reopens a puzzle, analysing it on the board, the player's
//! rating and streak in localStorage, and Glicko-2 against the worked
//! example of Glickman's paper. Screenshots `61-puzzle-*`. Issue 65:
//! stepping back and forth in a puzzle, its solution and a link to no
//! puzzle, the rating hidden until the end, forced moves played for the
//! player, puzzle streak (`mode=streak`) and the history of the puzzles
//! tried. Screenshots `65-puzzle-*`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use browser::*;
use common::server::Server;
use fantoccini::Client;
use serde_json::{Value as Json, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzle_mode_in_a_real_browser() {
    let Some(session) = Session::start(&[]).await else { return };
    let c = &session.c;
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &["--tables", "."]);
    // Desktop, with the mouse, in Chinese.
    c.set_window_size(1280, 900).await.unwrap();
    let short = server.ok("/api/puzzle?slots=8&theme=short&seed=1");
    let one = server.ok("/api/puzzle?slots=8&theme=one-move&seed=2");
    glicko(c, &server, &short).await;
    solve_right(c, &server, &short, false, "61-puzzle-desktop-zh").await;
    analyse(c, &server, &short).await;
    wrong_retry_solution(c, &server, &one, false, "61-puzzle-desktop-zh").await;
    next_and_link(c, &server, &one, false).await;
    from_the_header(c, &server).await;
    stale_choices(c, &server).await;
    steps_back_and_forth(c, &server, &short, false, "65-puzzle-desktop-zh").await;
    streak(c, &server, false, "65-puzzle-desktop-zh").await;
    history(c, &server, false, "65-puzzle-desktop-zh").await;
    // A phone, with touch, in English.
    c.set_window_size(390, 844).await.unwrap();
    // A puzzle whose line has a capturing placement and the solver's extra
    // move after it.
    let extra = (1..400)
        .map(|seed| server.ok(&format!("/api/puzzle?slots=8&theme=extra-move&seed={seed}")))
        .find(|p| p["solver"].as_array().unwrap().windows(2).any(|w| w[0] == true && w[1] == true))
        .expect("an 8-slot puzzle with an extra move in its line");
    let other = server.ok("/api/puzzle?slots=8&theme=both-win&seed=4");
    open(c, &server, &extra).await;
    click(c, "[data-lang='en']").await;
    phone_layout(c).await;
    solve_right(c, &server, &extra, true, "61-puzzle-phone-en").await;
    wrong_retry_solution(c, &server, &other, true, "61-puzzle-phone-en").await;
    next_and_link(c, &server, &other, true).await;
    steps_back_and_forth(c, &server, &other, true, "65-puzzle-phone-en").await;
    streak(c, &server, true, "65-puzzle-phone-en").await;
    history(c, &server, true, "65-puzzle-phone-en").await;
    click(c, "[data-lang='zh']").await;
    phone_layout(c).await;
    screenshot(c, "61-puzzle-phone-zh").await;
    session.close().await;
}

/// The player's record in localStorage.
async fn record(c: &Client) -> Json {
    js(c, "return JSON.parse(localStorage.getItem('chaosclock.puzzle') || 'null')").await
}

/// Opens the puzzle `p` by its id and waits until the player is to move.
async fn open(c: &Client, server: &Server, p: &Json) {
    let id = p["id"].as_str().unwrap();
    c.goto(&server.url(&format!("/?mode=puzzle&puzzle={id}"))).await.unwrap();
    wait_phase(c, "solving").await;
    let s = shown(c).await;
    assert_eq!(s.position, p["position"].as_str().unwrap(), "the puzzle position");
    assert_eq!(js(c, "return document.getElementById('puzzle').dataset.id").await, json!(id));
}

/// Waits until the puzzle panel is in `phase` and nothing is loading.
async fn wait_phase(c: &Client, phase: &str) {
    let script = format!(
        "return document.getElementById('puzzle').dataset.phase === '{phase}' &&
        document.getElementById('busy').hidden"
    );
    wait_for(c, &format!("the phase {phase}"), &script).await;
}

/// The positions of the line of `p`: before each of its moves, and the last.
fn line_positions(server: &Server, p: &Json) -> Vec<String> {
    let mut pos = p["position"].as_str().unwrap().to_string();
    let mut out = vec![pos.clone()];
    for mv in p["moves"].as_array().unwrap() {
        let a = server.ok(&format!("/api/position?pos={pos}"));
        let m = a["moves"].as_array().unwrap().iter().find(|m| &m["move"] == mv).expect("legal");
        pos = m["position"].as_str().unwrap().to_string();
        out.push(pos.clone());
    }
    out
}

/// Plays `mv` in `pos` on the board as a player: a piece clicked (or
/// tapped), a piece of the hand, or 不走.
async fn play_on_board(c: &Client, server: &Server, pos: &str, mv: &str, touch: bool) {
    let a = server.ok(&format!("/api/position?pos={pos}"));
    let m = a["moves"].as_array().unwrap().iter().find(|m| m["move"] == mv).expect("legal");
    let css = match m["kind"].as_str().unwrap() {
        "walk" => format!("#board g.piece.movable[data-piece='{mv}']"),
        "place" => format!(".hand .pc.movable[data-hand='{mv}']"),
        _ => "#pass".to_string(),
    };
    if touch {
        tap(c, &css).await;
    } else {
        click(c, &css).await;
    }
}

/// While solving nothing tells the answer: no moves panel, no values, no
/// evaluation bar, no hint; the mistake of `p` is the last move on the
/// board (its slot marked, unless it was a pass).
async fn nothing_leaks(c: &Client, p: &Json) {
    let state = js(
        c,
        "const $ = (id) => document.getElementById(id);
        return [$('moves').offsetParent === null, $('eval-bar').hidden,
            document.querySelectorAll('#moves [data-value], #history [data-mark=mistake]').length,
            document.querySelectorAll('#board .hint').length,
            document.querySelectorAll('#board [data-last-move=to]').length,
            $('undo').offsetParent === null]",
    )
    .await;
    let marked = if p["mistake"] == "pass" { 0 } else { 1 };
    assert_eq!(state, json!([true, true, 0, 0, marked, true]), "while solving");
}

/// Solves `p` right at the first try: each right move is confirmed, the
/// opponent's replies come by themselves, and at the end the puzzle is
/// solved, the values show, and the rating and streak went up.
async fn solve_right(c: &Client, server: &Server, p: &Json, touch: bool, shot: &str) {
    js(c, "localStorage.removeItem('chaosclock.puzzle'); return true").await;
    open(c, server, p).await;
    nothing_leaks(c, p).await;
    let task = js(c, "return document.getElementById('puzzle-task').textContent").await;
    let label = js(c, &format!("return t('v.{}')", p["value"])).await;
    assert!(task.as_str().unwrap().contains(label.as_str().unwrap()), "{task}");
    screenshot(c, &format!("{shot}-1-solving")).await;
    let positions = line_positions(server, p);
    let moves = p["moves"].as_array().unwrap();
    let solver = p["solver"].as_array().unwrap();
    let forced = p["forced"].as_array().unwrap();
    for (k, mv) in moves.iter().enumerate() {
        // The opponent's replies and the player's forced moves are played
        // for the player.
        if solver[k] != json!(true) || forced[k] == json!(true) {
            continue;
        }
        let want = positions[k].clone();
        wait_until(c, "my move in the line", |s| s.position == want && !s.busy).await;
        wait_phase(c, "solving").await;
        play_on_board(c, server, &want, mv.as_str().unwrap(), touch).await;
        if k + 1 < moves.len() {
            let after = positions[k + 1].clone();
            wait_until(c, "my move played", |s| s.position != want && !s.busy).await;
            let s = shown(c).await;
            // Right at once (or already the reply after it).
            let result =
                js(c, "return document.getElementById('puzzle-feedback').dataset.result").await;
            assert_eq!(result, "right", "after a right move: {s:?} (want {after})");
            let mark = js(
                c,
                "const m = document.getElementById('puzzle-mark'); return m && m.dataset.result",
            )
            .await;
            assert_eq!(mark, "right", "marked right on the board");
            if solver[k + 1] == json!(true) {
                // A capturing placement: the player moves again, told so.
                assert_eq!(s.position, after, "no reply after a capturing placement");
                let text =
                    js(c, "return document.getElementById('puzzle-feedback').textContent").await;
                let again = js(c, "return t('puzzle.again')").await;
                assert!(text.as_str().unwrap().contains(again.as_str().unwrap()), "{text}");
                screenshot(c, &format!("{shot}-2-again")).await;
            }
            if k == 0 {
                screenshot(c, &format!("{shot}-2-right")).await;
            }
        }
    }
    wait_phase(c, "done").await;
    let last = positions.last().unwrap().clone();
    wait_until(c, "the end of the line", |s| s.position == last && !s.busy).await;
    let result = js(c, "return document.getElementById('puzzle-feedback').dataset.result").await;
    assert_eq!(result, "solved");
    // The values show again.
    let values = js(
        c,
        "return [document.getElementById('moves').offsetParent !== null,
        document.querySelectorAll('#moves tr[data-value]').length === document.querySelectorAll('#moves tr.move').length]",
    )
    .await;
    assert_eq!(values, json!([true, true]), "the moves panel after the puzzle");
    let r = record(c).await;
    assert_eq!(
        (r["played"].clone(), r["solved"].clone(), r["streak"].clone()),
        (json!(1), json!(1), json!(1))
    );
    assert!(r["rating"].as_f64().unwrap() > 1000.0, "a win raises the rating: {r}");
    assert!(r["rd"].as_f64().unwrap() < 350.0, "{r}");
    let shown_rating =
        js(c, "return Number(document.getElementById('puzzle-player').dataset.rating)").await;
    assert!((shown_rating.as_f64().unwrap() - r["rating"].as_f64().unwrap()).abs() < 0.01);
    screenshot(c, &format!("{shot}-3-solved")).await;
    // Reopened by its link, it counts no more.
    open(c, server, p).await;
    let url = c.current_url().await.unwrap().to_string();
    assert!(url.contains(&format!("puzzle={}", p["id"].as_str().unwrap())), "{url}");
    click(c, "#puzzle-solution").await;
    wait_phase(c, "done").await;
    assert_eq!(record(c).await, r, "a puzzle counts once");
    let result = js(c, "return document.getElementById('puzzle-feedback').dataset.result").await;
    assert_eq!(result, "failed");
    let text = js(c, "return document.getElementById('puzzle-feedback').textContent").await;
    let seen = js(c, "return t('puzzle.seen')").await;
    assert!(text.as_str().unwrap().contains(seen.as_str().unwrap()), "{text}");
}

/// After the puzzle, 分析这题 opens it on the analysis board: the game
/// from before the mistake, the mistake marked, the values shown.
async fn analyse(c: &Client, server: &Server, p: &Json) {
    click(c, "#puzzle-analyse").await;
    wait_until(c, "the analysis board", |s| !s.busy && s.moves > 0).await;
    let url = c.current_url().await.unwrap().to_string();
    assert!(!url.contains("mode="), "{url}");
    assert!(url.contains(&format!("pos={}", p["before"].as_str().unwrap())), "{url}");
    assert!(url.contains(&format!("moves={}", p["mistake"].as_str().unwrap())), "{url}");
    wait_for(
        c,
        "the mistake marked",
        "return document.querySelector('#history [data-ply=\"1\"]').dataset.mark === 'mistake'",
    )
    .await;
    let state = js(
        c,
        "return [document.getElementById('puzzle').hidden, document.querySelectorAll('#moves tr[data-value]').length > 0]",
    )
    .await;
    assert_eq!(state, json!([true, true]));
    let _ = server;
}

/// A wrong move: marked wrong at once with its value (worse than the
/// puzzle's) and the opponent's best reply played; the puzzle counts as
/// a loss (streak 0, rating down); retry goes back; the solution plays
/// the line and counts nothing more.
async fn wrong_retry_solution(c: &Client, server: &Server, p: &Json, touch: bool, shot: &str) {
    open(c, server, p).await;
    let before = record(c).await;
    let pos = p["position"].as_str().unwrap();
    let a = server.ok(&format!("/api/position?pos={pos}"));
    let right = p["moves"][0].as_str().unwrap();
    // A wrong walk that leaves the opponent to move, so that a reply shows.
    let moves = a["moves"].as_array().unwrap();
    let wrong = moves
        .iter()
        .find(|m| m["move"] != right && m["kind"] == "walk" && m["over"].is_null())
        .or_else(|| moves.iter().find(|m| m["move"] != right))
        .expect("a wrong move");
    let mv = wrong["move"].as_str().unwrap();
    play_on_board(c, server, pos, mv, touch).await;
    wait_for(
        c,
        "marked wrong",
        "return document.getElementById('puzzle-feedback').dataset.result === 'wrong'",
    )
    .await;
    let mark =
        js(c, "const m = document.getElementById('puzzle-mark'); return m && m.dataset.result")
            .await;
    assert_eq!(mark, "wrong", "marked wrong on the board");
    let value = wrong["value"].as_u64().unwrap();
    let badge = js(
        c,
        "const b = document.querySelector('#puzzle-feedback .badge'); return b && b.className",
    )
    .await;
    assert_eq!(badge, json!(format!("badge v{value}")), "the wrong move's value");
    assert_ne!(wrong["value"], p["value"], "a wrong move gives a worse value");
    let after = server.ok(&format!("/api/position?pos={}", wrong["position"].as_str().unwrap()));
    if after["over"].is_null() && after["side"] != p["side"] {
        // The refutation: the opponent's best move, played on the board.
        let reply = after["moves"][0]["position"].as_str().unwrap().to_string();
        wait_until(c, "the refutation", |s| s.position == reply && !s.busy).await;
        let text = js(c, "return document.getElementById('puzzle-feedback').textContent").await;
        let side = js(c, &format!("return t('{}')", after["side"].as_str().unwrap())).await;
        assert!(text.as_str().unwrap().contains(side.as_str().unwrap()), "the reply named: {text}");
    }
    nothing_leaks_but_the_refutation(c).await;
    let r = record(c).await;
    assert_eq!(r["streak"], json!(0), "{r}");
    assert_eq!(r["played"].as_u64(), before["played"].as_u64().map(|n| n + 1), "{r}");
    assert!(r["rating"].as_f64() < before["rating"].as_f64(), "a loss lowers the rating: {r}");
    let tools = js(c, "return document.getElementById('tree-tools').hidden").await;
    assert_eq!(tools, json!(true), "no promote or delete in a puzzle");
    screenshot(c, &format!("{shot}-4-wrong")).await;
    if touch {
        // Retry, the solution and the next puzzle are touch targets too.
        phone_layout(c).await;
        // The panel below the board on a phone.
        js(c, "document.getElementById('puzzle').scrollIntoView(); return true").await;
        screenshot(c, &format!("{shot}-4-wrong-panel")).await;
    }
    // Retry: back to the puzzle position.
    click_or_tap(c, "#puzzle-retry", touch).await;
    wait_phase(c, "solving").await;
    wait_until(c, "the puzzle again", |s| s.position == pos && !s.busy).await;
    // The solution: the line played to its end; nothing more counts.
    click_or_tap(c, "#puzzle-solution", touch).await;
    wait_phase(c, "done").await;
    let last = line_positions(server, p).pop().unwrap();
    wait_until(c, "the solution played", |s| s.position == last && !s.busy).await;
    let result = js(c, "return document.getElementById('puzzle-feedback').dataset.result").await;
    assert_eq!(result, "failed");
    assert_eq!(record(c).await, r, "the solution after a wrong move counts no more");
    screenshot(c, &format!("{shot}-5-solution")).await;
}

/// After a wrong move the moves panel stays hidden (the player may retry).
async fn nothing_leaks_but_the_refutation(c: &Client) {
    let state = js(
        c,
        "return [document.getElementById('moves').offsetParent === null,
        document.querySelectorAll('#moves tr[data-value]').length,
        document.getElementById('puzzle-retry').hidden, document.getElementById('puzzle-solution').hidden]",
    )
    .await;
    assert_eq!(state, json!([true, 0, false, false]), "after a wrong move");
}

async fn click_or_tap(c: &Client, css: &str, touch: bool) {
    if touch {
        tap(c, css).await;
    } else {
        click(c, css).await;
    }
}

/// The next puzzle is another one, near the rating, and its link (the URL
/// with its id) opens it again; the solution of a fresh puzzle counts as
/// a loss.
async fn next_and_link(c: &Client, server: &Server, p: &Json, touch: bool) {
    let id = p["id"].as_str().unwrap();
    click_or_tap(c, "#puzzle-next", touch).await;
    wait_for(
        c,
        "another puzzle",
        &format!("const b = document.getElementById('puzzle'); return b.dataset.id !== '{id}' && b.dataset.phase === 'solving' && document.getElementById('busy').hidden"),
    )
    .await;
    let next = js(c, "return document.getElementById('puzzle').dataset.id").await;
    let next = next.as_str().unwrap().to_string();
    let url = c.current_url().await.unwrap().to_string();
    assert!(url.contains(&format!("puzzle={next}")) && url.contains("mode=puzzle"), "{url}");
    let q = server.ok(&format!("/api/puzzle?id={next}"));
    assert_eq!(shown(c).await.position, q["position"].as_str().unwrap());
    let before = record(c).await;
    click_or_tap(c, "#puzzle-solution", touch).await;
    wait_phase(c, "done").await;
    let r = record(c).await;
    assert_eq!(r["played"].as_u64(), before["played"].as_u64().map(|n| n + 1), "{r}");
    assert_eq!(r["streak"], json!(0));
    // The link reopens it.
    c.goto(&url).await.unwrap();
    wait_phase(c, "solving").await;
    assert_eq!(js(c, "return document.getElementById('puzzle').dataset.id").await, json!(next));
}

/// On a phone every control is 40 × 40 px or more and nothing overflows
/// sideways.
async fn phone_layout(c: &Client) {
    let small = js(
        c,
        "const out = [];
        const big = (e) => { const r = e.getBoundingClientRect(); return r.width >= 40 && r.height >= 40; };
        for (const e of document.querySelectorAll('button, select, .hand .pc, #moves tr.move')) {
            if (e.offsetParent !== null && !big(e)) out.push(e.id || e.className || e.tagName);
        }
        for (const e of document.querySelectorAll('input')) {
            const target = e.closest('label') || e;
            if (target.offsetParent !== null && !big(target)) out.push(`${e.id || e.value}`);
        }
        return out;",
    )
    .await;
    assert_eq!(small, json!([]), "controls under 40 px");
    let wide = js(c, "return document.documentElement.scrollWidth <= innerWidth").await;
    assert_eq!(wide, json!(true), "no horizontal overflow");
}

/// Glicko-2 as the page computes it, against the worked example of
/// Glickman's paper: 1500, RD 200, σ 0.06 against 1400/30 (won),
/// 1550/100 and 1700/300 (lost), τ 0.5 → 1464.06, RD 151.52, σ 0.05999.
async fn glicko(c: &Client, server: &Server, p: &Json) {
    open(c, server, p).await;
    let r = js(
        c,
        "return glicko2({ rating: 1500, rd: 200, vol: 0.06 }, [
            { rating: 1400, rd: 30, score: 1 }, { rating: 1550, rd: 100, score: 0 },
            { rating: 1700, rd: 300, score: 0 }], 0.5)",
    )
    .await;
    let get = |k: &str| r[k].as_f64().unwrap();
    assert!((get("rating") - 1464.06).abs() < 0.02, "{r}");
    assert!((get("rd") - 151.52).abs() < 0.01, "{r}");
    assert!((get("vol") - 0.05999).abs() < 0.00001, "{r}");
    // No games in a period: only the deviation grows.
    let idle = js(c, "return glicko2({ rating: 1500, rd: 200, vol: 0.06 }, [])").await;
    assert!((idle["rd"].as_f64().unwrap() - 200.2714).abs() < 0.01, "{idle}");
}

/// From the analysis board, 谜题 in the header starts a puzzle: a new
/// player gets a 12-slot puzzle near 1000; a theme chosen in the panel
/// gives a puzzle of that theme at once. In English.
async fn from_the_header(c: &Client, server: &Server) {
    c.goto(&server.url("/?pos=2,1,4,3,6,5,8,7")).await.unwrap();
    wait_until(c, "the analysis board", |s| !s.busy && s.moves > 0).await;
    js(c, "localStorage.removeItem('chaosclock.puzzle'); return true").await;
    click(c, "[data-mode='puzzle']").await;
    wait_phase(c, "solving").await;
    let id = js(c, "return document.getElementById('puzzle').dataset.id").await;
    let p = server.ok(&format!("/api/puzzle?id={}", id.as_str().unwrap()));
    assert_eq!(p["slots"], json!(12), "{p}");
    assert_eq!(shown(c).await.position, p["position"].as_str().unwrap());
    // The nearest to 1000 among the set (ratings within 100 are drawn).
    let near = server.ok("/api/puzzle?slots=12&rating=1000&seed=1");
    let gap = |q: &Json| (q["rating"].as_i64().unwrap() - 1000).abs();
    assert!(gap(&p) <= gap(&near).max(100), "{} for a newcomer", p["rating"]);
    let url = c.current_url().await.unwrap().to_string();
    assert!(
        url.contains("mode=puzzle")
            && url.contains(&format!("puzzle={}", p["id"].as_str().unwrap())),
        "{url}"
    );
    nothing_leaks(c, &p).await;
    // A theme.
    c.find(fantoccini::Locator::Id("puzzle-theme"))
        .await
        .unwrap()
        .select_by_value("pass")
        .await
        .unwrap();
    wait_for(
        c,
        "a puzzle with a pass",
        // It may be the same puzzle if it has a pass.
        "return puzzle.p.themes.includes('pass') && puzzle.phase === 'solving' &&
        document.getElementById('puzzle').dataset.phase === 'solving' && document.getElementById('busy').hidden",
    )
    .await;
    let id = js(c, "return document.getElementById('puzzle').dataset.id").await;
    let q = server.ok(&format!("/api/puzzle?id={}", id.as_str().unwrap()));
    assert!(q["themes"].as_array().unwrap().contains(&json!("pass")), "{q}");
    assert_eq!(record(c).await["theme"], json!("pass"));
    click(c, "[data-lang='en']").await;
    let task = js(c, "return document.getElementById('puzzle-task').textContent").await;
    assert!(task.as_str().unwrap().contains("find the only move that keeps"), "{task}");
    screenshot(c, "61-puzzle-desktop-en-12-slots").await;
    click(c, "[data-lang='zh']").await;
    // Back to the analysis board: the panel goes, the values come back.
    click(c, "[data-mode='analysis']").await;
    wait_until(c, "analysis", |s| !s.busy && s.moves > 0).await;
    let back = js(c, "return [document.getElementById('puzzle').hidden, document.querySelectorAll('#moves tr[data-value]').length > 0]").await;
    assert_eq!(back, json!([true, true]));
}

/// A size and theme kept by an older page (no 6-slot set, no theme
/// `mate`) give the defaults, not a page stuck on "载入谜题…"; a theme the
/// server has no puzzle of at the size (made so by a stand-in `api`) gives
/// any theme, said so in the page's language.
async fn stale_choices(c: &Client, server: &Server) {
    let stale = json!({"rating": 1100, "rd": 80, "vol": 0.06, "slots": 6, "theme": "mate"});
    js(c, &format!("localStorage.setItem('chaosclock.puzzle', '{stale}'); return true")).await;
    c.goto(&server.url("/?mode=puzzle")).await.unwrap();
    wait_phase(c, "solving").await;
    let shown = js(c, "return [puzzle.p.slots, document.getElementById('puzzle-slots').value,
        document.getElementById('puzzle-theme').value, document.getElementById('puzzle-title').textContent]").await;
    assert_eq!(
        (&shown[0], &shown[1], &shown[2]),
        (&json!(12), &json!("12"), &json!("")),
        "{shown}"
    );
    assert!(!shown[3].as_str().unwrap().contains('…'), "{shown}");
    // No puzzle of the theme: the server's 404, as for a set without it.
    js(
        c,
        "window.realApi = api; api = (path, ...rest) => path.includes('theme=')
        ? Promise.reject(new PageError('error.http', [], 'no puzzle of the theme', 404))
        : window.realApi(path, ...rest); return true",
    )
    .await;
    c.find(fantoccini::Locator::Id("puzzle-theme"))
        .await
        .unwrap()
        .select_by_value("walk-n")
        .await
        .unwrap();
    wait_for(
        c,
        "a puzzle of any theme, said so",
        "return puzzle.phase === 'solving' && !!puzzle.notice
        && document.getElementById('busy').hidden",
    )
    .await;
    let said = text_of(c, "puzzle-feedback").await;
    assert!(said.contains("没有") && said.contains("全部主题"), "{said}");
    assert_eq!(record(c).await["theme"], json!(""));
    assert_eq!(js(c, "return document.getElementById('puzzle-theme').value").await, json!(""));
    screenshot(c, "65-puzzle-no-theme-zh").await;
    click(c, "[data-lang='en']").await;
    let said = text_of(c, "puzzle-feedback").await;
    assert!(said.contains("any theme instead"), "{said}");
    screenshot(c, "65-puzzle-no-theme-en").await;
    click(c, "[data-lang='zh']").await;
    js(c, "api = window.realApi; localStorage.removeItem('chaosclock.puzzle'); return true").await;
}

/// The text of the element `id`.
async fn text_of(c: &Client, id: &str) -> String {
    let v = js(c, &format!("return document.getElementById('{id}').textContent")).await;
    v.as_str().unwrap().to_string()
}

/// Plays the player's moves of `p` (open, at its start) to the end of its
/// line.
async fn solve_line(c: &Client, server: &Server, p: &Json, touch: bool) {
    let positions = line_positions(server, p);
    let moves = p["moves"].as_array().unwrap();
    for (k, mv) in moves.iter().enumerate() {
        if p["solver"][k] != json!(true) || p["forced"][k] == json!(true) {
            continue;
        }
        let want = positions[k].clone();
        wait_until(c, "my move in the line", |s| s.position == want && !s.busy).await;
        wait_phase(c, "solving").await;
        play_on_board(c, server, &want, mv.as_str().unwrap(), touch).await;
    }
    wait_phase(c, "done").await;
}

/// Issue 65's puzzle defects: ← at the start goes back as ◀ does and the
/// page says the board is looking back; a right move and ◀ at once, then
/// ▶, shows the position after the move; ◀ during the solution pauses it
/// with a way on; the puzzle's rating shows only at the end; a wrong move
/// reads as a player would say it; a link to no puzzle says so and offers
/// the next one.
async fn steps_back_and_forth(c: &Client, server: &Server, p: &Json, touch: bool, shot: &str) {
    open(c, server, p).await;
    let rating = js(c, &format!("return t('puzzle.rating', {})", p["rating"])).await;
    let rating = rating.as_str().unwrap().to_string();
    assert!(!text_of(c, "puzzle-title").await.contains(&rating), "the rating shows while solving");
    let positions = line_positions(server, p);
    let before = p["before"].as_str().unwrap().to_string();
    // ← at the start: back to the position before the mistake, told so.
    key(c, "ArrowLeft").await;
    wait_until(c, "back before the mistake", |s| s.position == before && !s.busy).await;
    let review = js(c, "return [document.getElementById('puzzle').dataset.review, document.getElementById('puzzle-feedback').dataset.result]").await;
    assert_eq!(review, json!(["1", "review"]), "the page says it looks back");
    assert!(text_of(c, "puzzle-feedback").await.contains('▶'));
    screenshot(c, &format!("{shot}-1-looking-back")).await;
    key(c, "ArrowRight").await;
    wait_until(c, "the puzzle again", |s| s.position == positions[0] && !s.busy).await;
    wait_for(
        c,
        "no longer looking back",
        "return document.getElementById('puzzle').dataset.review === ''",
    )
    .await;
    // A right move, ◀ at once, then ▶: the position after the move.
    let first = p["moves"][0].as_str().unwrap();
    play_on_board(c, server, &positions[0], first, touch).await;
    wait_until(c, "the right move", |s| s.position != positions[0] && !s.busy).await;
    click_or_tap(c, "#back", touch).await;
    wait_until(c, "back at the start", |s| s.position == positions[0] && !s.busy).await;
    click_or_tap(c, "#forward", touch).await;
    let after = wait_until(c, "forward", |s| s.position != positions[0] && !s.busy).await;
    assert_eq!(after.position, positions[1], "▶ after ◀ shows the position after the move");
    // The solution, paused by ◀ and continued.
    if p["moves"].as_array().unwrap().len() > 1 {
        wait_phase(c, "solving").await;
        click_or_tap(c, "#puzzle-solution", touch).await;
        wait_phase(c, "solution").await;
        click_or_tap(c, "#back", touch).await;
        wait_for(
            c,
            "the solution paused",
            "const b = document.getElementById('puzzle'); return b.dataset.phase === 'done' || (b.dataset.review === '1' && !document.getElementById('puzzle-solution').hidden && document.getElementById('busy').hidden)",
        )
        .await;
        if js(c, "return document.getElementById('puzzle').dataset.phase").await == "solution" {
            screenshot(c, &format!("{shot}-2-solution-paused")).await;
            click_or_tap(c, "#puzzle-solution", touch).await;
        }
    } else {
        wait_phase(c, "done").await;
    }
    wait_phase(c, "done").await;
    let last = positions.last().unwrap().clone();
    wait_until(c, "the end of the line", |s| s.position == last && !s.busy).await;
    assert!(text_of(c, "puzzle-title").await.contains(&rating), "the rating at the end");
    // A wrong move, in words a player would use.
    open(c, server, p).await;
    let a = server.ok(&format!("/api/position?pos={}", positions[0]));
    let wrong = a["moves"].as_array().unwrap().iter().find(|m| m["move"] != first).unwrap();
    play_on_board(c, server, &positions[0], wrong["move"].as_str().unwrap(), touch).await;
    wait_phase(c, "wrong").await;
    let said = text_of(c, "puzzle-feedback").await;
    let lang = js(c, "return lang").await;
    if lang == "en" {
        assert!(said.starts_with("✗ Not that one: “"), "{said}");
        assert!(!said.contains(" is wrong"), "{said}");
    } else {
        assert!(said.contains("不对"), "{said}");
    }
    // A link to no puzzle.
    let url = format!("/?mode=puzzle&puzzle=ZZZZZZ{}", if lang == "en" { "&lang=en" } else { "" });
    c.goto(&server.url(&url)).await.unwrap();
    wait_phase(c, "missing").await;
    let title = text_of(c, "puzzle-title").await;
    assert!(title.contains("ZZZZZZ"), "{title}");
    let next = js(c, "return document.getElementById('puzzle-next').hidden").await;
    assert_eq!(next, json!(false), "the next puzzle offered");
    screenshot(c, &format!("{shot}-3-no-such-puzzle")).await;
    click_or_tap(c, "#puzzle-next", touch).await;
    wait_phase(c, "solving").await;
}

/// Puzzle streak: `mode=streak` starts a run; a puzzle solved goes on to
/// the next (rated higher or as high), by itself; the first miss ends it;
/// the best run is kept; the player's rating does not move.
async fn streak(c: &Client, server: &Server, touch: bool, shot: &str) {
    let lang = js(c, "return lang").await;
    let url = format!("/?mode=streak{}", if lang == "en" { "&lang=en" } else { "" });
    let before = record(c).await;
    c.goto(&server.url(&url)).await.unwrap();
    wait_phase(c, "solving").await;
    let state = js(c, "return [document.getElementById('puzzle').dataset.streak, location.search.includes('mode=streak')]").await;
    assert_eq!(state, json!(["0", true]));
    screenshot(c, &format!("{shot}-4-streak")).await;
    let id = js(c, "return puzzle.p.id").await;
    let first = server.ok(&format!("/api/puzzle?id={}", id.as_str().unwrap()));
    solve_line(c, server, &first, touch).await;
    wait_for(c, "a streak of 1", "return document.getElementById('puzzle').dataset.streak === '1'")
        .await;
    let r = record(c).await;
    assert!(r["streakBest"].as_u64() >= Some(1), "{r}");
    assert_eq!(r["rating"], before["rating"], "a streak is not rated");
    // The next puzzle comes by itself.
    wait_for(
        c,
        "the next puzzle of the streak",
        &format!("return puzzle.p && puzzle.p.id !== '{}' && document.getElementById('puzzle').dataset.phase === 'solving' && document.getElementById('busy').hidden", first["id"].as_str().unwrap()),
    )
    .await;
    // A miss ends it: no retry, no next; the streak button starts again.
    let id = js(c, "return puzzle.p.id").await;
    let second = server.ok(&format!("/api/puzzle?id={}", id.as_str().unwrap()));
    let pos = second["position"].as_str().unwrap();
    let a = server.ok(&format!("/api/position?pos={pos}"));
    let wrong =
        a["moves"].as_array().unwrap().iter().find(|m| m["move"] != second["moves"][0]).unwrap();
    play_on_board(c, server, pos, wrong["move"].as_str().unwrap(), touch).await;
    wait_phase(c, "wrong").await;
    let state = js(
        c,
        "const $ = (id) => document.getElementById(id);
        return [$('puzzle').dataset.streakOver, $('puzzle-retry').hidden, $('puzzle-next').hidden, $('puzzle-streak').textContent === t('streak.start')]",
    )
    .await;
    assert_eq!(state, json!(["1", true, true, true]), "a miss ends the streak");
    let said = text_of(c, "puzzle-feedback").await;
    let over = js(c, "return t('streak.over', 1)").await;
    assert!(said.contains(over.as_str().unwrap()), "{said}");
    screenshot(c, &format!("{shot}-5-streak-over")).await;
    assert_eq!(record(c).await["rating"], before["rating"], "a streak is not rated");
    // The button starts a new run.
    click_or_tap(c, "#puzzle-streak", touch).await;
    wait_phase(c, "solving").await;
    assert_eq!(js(c, "return document.getElementById('puzzle').dataset.streak").await, json!("0"));
    let best = js(c, "return document.getElementById('puzzle-player').textContent").await;
    let want =
        js(c, &format!("return t('streak.you', 0, {})", record(c).await["streakBest"])).await;
    assert_eq!(best, want);
}

/// The history: each puzzle tried with its result and a link back, the
/// count by theme, kept across pages and cleared by its button.
async fn history(c: &Client, server: &Server, touch: bool, shot: &str) {
    let h = js(c, "return JSON.parse(localStorage.getItem('chaosclock.puzzle.history'))").await;
    let h = h.as_array().unwrap().clone();
    assert!(h.len() >= 3, "{h:?}");
    // The streak's two tries, last: one solved, one missed.
    let n = h.len();
    assert_eq!(
        (h[n - 2]["result"].clone(), h[n - 2]["streak"].clone()),
        (json!("win"), json!(true))
    );
    assert_eq!(
        (h[n - 1]["result"].clone(), h[n - 1]["change"].clone()),
        (json!("loss"), json!(null))
    );
    js(c, "document.getElementById('puzzle-history').open = true; return true").await;
    let shown_rows =
        js(c, "return document.querySelectorAll('#puzzle-history-list li').length").await;
    assert_eq!(shown_rows.as_u64(), Some(n.min(50) as u64));
    let newest = js(c, "return document.querySelector('#puzzle-history-list li').dataset.id").await;
    assert_eq!(newest, h[n - 1]["id"]);
    // Solved / tried by theme.
    let theme = h[n - 1]["themes"][0].as_str().unwrap();
    let tried =
        h.iter().filter(|e| e["themes"].as_array().unwrap().iter().any(|t| t == theme)).count();
    let row = js(c, &format!("const r = document.querySelector('#puzzle-history-themes tr[data-theme=\"{theme}\"]'); return r && Number(r.dataset.tried)")).await;
    assert_eq!(row.as_u64(), Some(tried as u64));
    js(c, "document.getElementById('puzzle-history').scrollIntoView(); return true").await;
    screenshot(c, &format!("{shot}-6-history")).await;
    if touch {
        phone_layout(c).await;
    }
    // A link back to a puzzle tried.
    let id = h[0]["id"].as_str().unwrap();
    let link = js(c, &format!("const a = document.querySelector('#puzzle-history-list li[data-id=\"{id}\"] a'); return a && a.getAttribute('href')")).await;
    let link = link.as_str().unwrap().to_string();
    assert!(link.contains(&format!("puzzle={id}")), "{link}");
    c.goto(&server.url(&format!("/{link}"))).await.unwrap();
    wait_phase(c, "solving").await;
    assert_eq!(js(c, "return puzzle.p.id").await, json!(id));
    // Cleared.
    js(c, "document.getElementById('puzzle-history').open = true; return true").await;
    click_or_tap(c, "#puzzle-history-clear", touch).await;
    let left = js(c, "return [localStorage.getItem('chaosclock.puzzle.history'), document.querySelectorAll('#puzzle-history-list li').length]").await;
    assert_eq!(left, json!([null, 0]));
}
