//! Variations on the analysis board (issue 59, and its defect 3) in
//! headless Chromium: a game of 8 slots, a different move at an earlier
//! ply starts a variation and keeps the main line; entries are clicked
//! (tapped on a phone), walked with the keyboard, promoted and deleted;
//! the URL gives back the main line and the current node; a best-line
//! entry plays as a variation; a play mode chosen mid-game loses nothing.
//! At 1280×900 with a mouse and at 390×844 with touch, in Chinese and in
//! English; screenshots `59-var-*` (see serve_browser.rs for where).

#[path = "common/browser.rs"]
mod browser;
mod common;

use browser::*;
use common::server::Server;
use fantoccini::Client;
use serde_json::{Value, json};

/// The start and the 8 plies of the game played in the test.
const START: &str = "6,1,7,2,4,8,5,3";
const MAIN: [&str; 8] = ["3", "4", "6", "5", "2", "5", "1", "4"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn variations_are_kept_promoted_and_deleted() {
    let Some(session) = Session::start(&[]).await else { return };
    let c = &session.c;
    let dir = tempfile::tempdir().unwrap();
    // 8-slot positions solve in memory at once.
    let server = Server::start(dir.path(), &["--tables", "."]);
    c.set_window_size(1280, 900).await.unwrap();
    tree_model(c, &server).await;
    for (w, h, touch) in [(1280, 900, false), (390, 844, true)] {
        c.set_window_size(w, h).await.unwrap();
        for lang in ["zh", "en"] {
            let tag = format!("{}-{lang}", if touch { "phone" } else { "desktop" });
            variations(c, &server, lang, touch, &tag).await;
            play_mode_mid_game(c, &server, lang, touch, &tag).await;
        }
    }
    session.close().await;
}

/// Saves a screenshot `name` with `css` in the middle of the view.
async fn picture(c: &Client, css: &str, name: &str) {
    let script =
        format!("document.querySelector(\"{css}\").scrollIntoView({{block: 'center'}}); return 0");
    js(c, &script).await;
    screenshot(c, name).await;
}

/// Clicks `css`, or taps it with a finger.
async fn press(c: &Client, css: &str, touch: bool) {
    if touch {
        tap(c, css).await;
    } else {
        click(c, css).await;
    }
}

/// The positions after each ply of `moves` from `START`, from the API.
fn positions(server: &Server, moves: &[&str]) -> Vec<String> {
    let mut pos = START.to_string();
    let mut out = vec![];
    for mv in moves {
        let a = server.ok(&format!("/api/position?pos={pos}"));
        let m = a["moves"].as_array().unwrap().iter().find(|m| m["move"] == *mv).unwrap();
        pos = m["position"].as_str().unwrap().to_string();
        out.push(pos.clone());
    }
    out
}

/// The main line's moves (the `data-node` entries of `#history > li`,
/// by the URL's `moves`), the current entry's ply and whether it is a
/// variation, the number of variation entries, and the URL's query.
async fn tree_state(c: &Client) -> Value {
    js(
        c,
        "const cur = document.querySelector('#history [aria-current]');
        const lis = [...document.querySelectorAll('#history > li')];
        return {
            main: lis.length,
            nodes: lis.every((li) => li.dataset.node),
            ply: cur ? Number(cur.dataset.ply) : 0,
            variation: !!(cur && 'variation' in cur.dataset),
            variations: document.querySelectorAll('#history [data-variation]').length,
            moves: new URL(location.href).searchParams.get('moves'),
            line: new URL(location.href).searchParams.get('line'),
            ply_param: new URL(location.href).searchParams.get('ply'),
            mode: document.querySelector('input[name=mode]:checked').value,
        };",
    )
    .await
}

/// Waits for the page to show `pos` with its moves.
async fn wait_at(c: &Client, what: &str, pos: &str) {
    let pos = pos.to_string();
    wait_until(c, what, move |s| !s.busy && s.position == pos).await;
}

/// tree.js alone: add, main line, promote one level and to the main line,
/// delete, and the link's parameters read back.
async fn tree_model(c: &Client, server: &Server) {
    c.goto(&server.url(&format!("/?pos={START}"))).await.unwrap();
    wait_until(c, "the page", |s| !s.busy && s.moves > 0).await;
    let got = js(
        c,
        "const r = treeRoot();
        const a = treeAdd(r, '1'), b = treeAdd(a, '2'), c = treeAdd(b, '3');
        const same = treeAdd(a, '2') === b;
        const v = treeAdd(a, '5'), w = treeAdd(v, '6'), x = treeAdd(w, '7'), y = treeAdd(w, '8');
        const out = { same, main: treeMoves(c), onMain: [treeOnMain(c), treeOnMain(v), treeOnMain(y)] };
        out.q1 = treeQuery(y).join('&');
        out.q2 = treeQuery(b).join('&');
        out.q3 = treeQuery(c).join('&');
        const one = treePromote(y, false);
        out.afterOne = [one, treeOnMain(y), treeOnMain(v), treeMoves(treeContinue(r).at(-1))];
        treePromote(y, true);
        out.afterMain = [treeOnMain(y), treeMoves(treeContinue(r).at(-1))];
        out.del = treeDelete(v) === a && treeContinue(r).map((n) => n.move);
        out.found = treeFind(r, c.id) === c && treeFind(r, v.id) === null;
        const get = (q) => (name) => new URLSearchParams(q).get(name);
        out.parse = [treeParse(get('moves=1,2,3&line=1,5,6,8')), treeParse(get('moves=1,2,3&ply=1')),
            treeParse(get('moves=1,2,3')), treeParse(get('moves=1,2&ply=9')), treeParse(get(''))];
        return out;",
    )
    .await;
    assert_eq!(got["same"], true, "{got}");
    assert_eq!(got["main"], json!(["1", "2", "3"]));
    assert_eq!(got["onMain"], json!([true, false, false]));
    assert_eq!(got["q1"], "moves=1,2,3&line=1,5,6,8");
    assert_eq!(got["q2"], "moves=1,2,3&ply=2");
    assert_eq!(got["q3"], "moves=1,2,3");
    // One level: 8 before 7 under 6; the variation 5 still beside 2.
    assert_eq!(got["afterOne"], json!([true, false, false, ["1", "2", "3"]]));
    assert_eq!(got["afterMain"], json!([true, ["1", "5", "6", "8"]]));
    assert_eq!(got["del"], json!(["1", "2", "3"]));
    assert_eq!(got["found"], true);
    let p = &got["parse"];
    assert_eq!(p[0], json!({"main": ["1", "2", "3"], "line": ["1", "5", "6", "8"]}));
    assert_eq!(p[1], json!({"main": ["1", "2", "3"], "line": ["1"]}));
    assert_eq!(p[2], json!({"main": ["1", "2", "3"], "line": null}));
    assert_eq!(p[3], json!({"main": ["1", "2"], "line": null}), "a ply out of range");
    assert_eq!(p[4], json!({"main": [], "line": null}));
}

/// The tree on the page: a variation, clicks, keys, reload, promote,
/// delete, the best line, and no position asked twice.
async fn variations(c: &Client, server: &Server, lang: &str, touch: bool, tag: &str) {
    let after = positions(server, &MAIN);
    let main = MAIN.join(",");
    c.goto(&server.url(&format!("/?pos={START}&moves={main}&lang={lang}"))).await.unwrap();
    wait_at(c, "the end of the game", &after[7]).await;
    let s = tree_state(c).await;
    assert_eq!(
        (s["main"].clone(), s["nodes"].clone(), s["variations"].clone()),
        (json!(8), json!(true), json!(0)),
        "{s}"
    );
    // Back to ply 3 by its entry.
    press(c, "#history > li[data-ply='3'] > .side", touch).await;
    wait_at(c, "ply 3", &after[2]).await;
    assert_eq!(tree_state(c).await["ply"], 3);
    // A move other than the game's 4th: a variation, the main line kept.
    let a = server.ok(&format!("/api/position?pos={}", after[2]));
    let other =
        a["moves"].as_array().unwrap().iter().find(|m| m["move"] != MAIN[3]).expect("another move");
    let (mv, var1) =
        (other["move"].as_str().unwrap(), other["position"].as_str().unwrap().to_string());
    press(c, &format!("#moves tr[data-move='{mv}'] td"), touch).await;
    wait_at(c, "the variation's first move", &var1).await;
    let s = tree_state(c).await;
    assert_eq!(s["main"], 8, "the main line is kept: {s}");
    assert_eq!(s["moves"], main.as_str());
    assert_eq!(
        (s["variation"].clone(), s["ply"].clone(), s["variations"].clone()),
        (json!(true), json!(4), json!(1)),
        "{s}"
    );
    assert_eq!(s["line"], format!("{},{},{},{mv}", MAIN[0], MAIN[1], MAIN[2]));
    picture(c, "#history", &format!("59-var-{tag}-1-variation")).await;
    // A second move in the variation.
    let b = server.ok(&format!("/api/position?pos={var1}"));
    let mv2 = b["moves"][0]["move"].as_str().unwrap().to_string();
    let var2 = b["moves"][0]["position"].as_str().unwrap().to_string();
    press(c, &format!("#moves tr[data-move='{mv2}'] td"), touch).await;
    wait_at(c, "the variation's second move", &var2).await;
    assert_eq!(tree_state(c).await["variations"], 2);
    // From here on (every position played),, moving around asks the server nothing it answered.
    js(
        c,
        "window.asked = []; const f = window.fetch;
        window.fetch = (u, o) => { window.asked.push(String(u)); return f(u, o); }; return 0",
    )
    .await;
    // Keys: ← back along the variation, to ply 3; → forward into the
    // variation again (the line shown); ↑ the main line's move beside it,
    // ↓ back; Home and End the line's ends.
    key(c, "ArrowLeft").await;
    wait_at(c, "← in the variation", &var1).await;
    key(c, "ArrowLeft").await;
    wait_at(c, "← to ply 3", &after[2]).await;
    key(c, "ArrowRight").await;
    wait_at(c, "→ into the variation", &var1).await;
    key(c, "ArrowUp").await;
    wait_at(c, "↑ the main line's 4th move", &after[3]).await;
    let s = tree_state(c).await;
    assert_eq!((s["ply"].clone(), s["variation"].clone()), (json!(4), json!(false)), "{s}");
    key(c, "ArrowDown").await;
    wait_at(c, "↓ back to the variation", &var1).await;
    key(c, "End").await;
    wait_at(c, "End of the variation", &var2).await;
    key(c, "Home").await;
    wait_until(c, "Home", |s| !s.busy && s.position.starts_with(&format!("{START};"))).await;
    // A variation entry clicked.
    press(c, "#history [data-variation][data-ply='5']", touch).await;
    wait_at(c, "the variation's entry", &var2).await;
    let none: Value = js(c, "return window.asked.filter((u) => u.includes('/api/position'))").await;
    assert_eq!(none, json!([]), "moving around the tree asked again");
    picture(c, "#history", &format!("59-var-{tag}-2-nested")).await;
    // The URL gives the same main line and current node back.
    let href = js(c, "return location.href").await;
    let href = href.as_str().unwrap().to_string();
    assert!(href.contains(&format!("moves={main}&line=")), "{href}");
    c.goto(&href).await.unwrap();
    wait_at(c, "the reloaded variation", &var2).await;
    let s = tree_state(c).await;
    assert_eq!(s["main"], 8, "{s}");
    assert_eq!(s["moves"], main.as_str());
    assert_eq!(
        (s["variation"].clone(), s["ply"].clone(), s["variations"].clone()),
        (json!(true), json!(5), json!(2)),
        "{s}"
    );
    // Promote the variation to the main line, at its second move.
    press(c, "#history [data-variation][data-ply='5']", touch).await;
    wait_at(c, "the variation again", &var2).await;
    let tools = js(
        c,
        "return [...document.querySelectorAll('#tree-tools button')].map((b) => {
            const r = b.getBoundingClientRect(); return [b.id, r.width >= 40 && r.height >= 40, b.disabled]; })",
    )
    .await;
    // On a phone each is at least 40×40 px.
    let t = json!(touch);
    assert_eq!(
        tools,
        json!([
            ["promote", t, false],
            ["promote-main", t, false],
            ["delete-node", t, false],
            ["comment-edit", t, false]
        ])
    );
    picture(c, "#tree-tools", &format!("59-var-{tag}-3-tools")).await;
    press(c, "#promote-main", touch).await;
    wait_for(c, "the promotion", "return document.querySelectorAll('#history > li').length === 5")
        .await;
    let s = tree_state(c).await;
    assert_eq!(
        (s["variation"].clone(), s["ply"].clone(), s["variations"].clone()),
        (json!(false), json!(5), json!(5)),
        "{s}"
    );
    assert_eq!(s["moves"], format!("{},{},{},{mv},{mv2}", MAIN[0], MAIN[1], MAIN[2]));
    assert_eq!(shown(c).await.position, var2, "the board stays");
    picture(c, "#history", &format!("59-var-{tag}-4-promoted")).await;
    // The old game back up, one level, from its 6th move.
    press(c, "#history [data-variation][data-ply='6']", touch).await;
    wait_at(c, "the old 6th move", &after[5]).await;
    press(c, "#promote", touch).await;
    wait_for(
        c,
        "promoted one level",
        "return document.querySelectorAll('#history > li').length === 8",
    )
    .await;
    assert_eq!(tree_state(c).await["moves"], main.as_str());
    // Delete the variation at its first move: the board goes to ply 3.
    press(c, "#history [data-variation][data-ply='4']", touch).await;
    wait_at(c, "the variation's first move", &var1).await;
    press(c, "#delete-node", touch).await;
    wait_at(c, "the parent of the deleted move", &after[2]).await;
    let s = tree_state(c).await;
    assert_eq!(
        (s["main"].clone(), s["variations"].clone(), s["ply"].clone()),
        (json!(8), json!(0), json!(3)),
        "{s}"
    );
    // The board mid-game in a link: `ply` (the variations are not kept).
    press(c, "#history > li[data-ply='6'] > .side", touch).await;
    wait_at(c, "ply 6", &after[5]).await;
    assert_eq!(tree_state(c).await["ply_param"], "6");
    c.goto(js(c, "return location.href").await.as_str().unwrap()).await.unwrap();
    wait_at(c, "ply 6 reloaded", &after[5]).await;
    assert_eq!(tree_state(c).await["main"], 8);
    press(c, "#history > li[data-ply='3'] > .side", touch).await;
    wait_at(c, "ply 3", &after[2]).await;
    // The best line from ply 3 of a game whose 4th move is not the best
    // one (`pass` instead of 5; the game's moves are all best): its 2nd
    // entry plays two moves as a variation, the game is kept. The link
    // opens at ply 3 (`ply=3`).
    let sidelined = format!("{},{},{},pass", MAIN[0], MAIN[1], MAIN[2]);
    c.goto(&server.url(&format!("/?pos={START}&moves={sidelined}&ply=3&lang={lang}")))
        .await
        .unwrap();
    wait_at(c, "ply 3 of the link", &after[2]).await;
    let best = server.ok(&format!("/api/mainline?pos={}", after[2]));
    assert_ne!(best["line"][0]["move"], "pass", "the best line leaves the game");
    press(c, "#bestline", touch).await;
    wait_for(
        c,
        "the best line",
        "return document.querySelectorAll('#line li[data-line-move]').length >= 2",
    )
    .await;
    press(c, "#line li:nth-child(2)", touch).await;
    wait_at(c, "the best line played", best["line"][1]["position"].as_str().unwrap()).await;
    let s = tree_state(c).await;
    assert_eq!((s["main"].clone(), s["moves"].clone()), (json!(4), json!(sidelined)), "{s}");
    assert_eq!(
        (s["variation"].clone(), s["ply"].clone(), s["variations"].clone()),
        (json!(true), json!(5), json!(2)),
        "{s}"
    );
    assert_eq!(js(c, BOARD_IS_POSITION).await, true, "a preview left behind");
    picture(c, "#history", &format!("59-var-{tag}-5-bestline")).await;
}

/// Defect 3: at ply 3 of 8, 分析 then a play mode, then →: nothing is
/// lost and the mode stays; a different move is a variation; 悔棋 and 重做
/// keep every move.
async fn play_mode_mid_game(c: &Client, server: &Server, lang: &str, touch: bool, tag: &str) {
    let after = positions(server, &MAIN);
    let main = MAIN.join(",");
    c.goto(&server.url(&format!("/?pos={START}&moves={main}&lang={lang}"))).await.unwrap();
    wait_at(c, "the game", &after[7]).await;
    press(c, "#history > li[data-ply='3'] > .side", touch).await;
    wait_at(c, "ply 3", &after[2]).await;
    // The side to move at ply 3 plays; the engine has the other.
    let you = if side(&after[2]) == "0" { "play-jia" } else { "play-yi" };
    let engine = if you == "play-jia" { "play-yi" } else { "play-jia" };
    press(c, "[data-mode='analysis']", touch).await;
    press(c, &format!("[data-mode='{engine}']"), touch).await;
    // The engine moves at once (its move is the game's 4th or a variation).
    wait_for(
        c,
        "the engine's reply",
        "return document.querySelector('#history [aria-current]').dataset.ply === '4'",
    )
    .await;
    wait_until(c, "its answer", |s| !s.busy).await;
    let s = tree_state(c).await;
    assert_eq!(
        (s["main"].clone(), s["moves"].clone(), s["mode"].clone()),
        (json!(8), json!(main), json!(engine)),
        "{s}"
    );
    // → on the focused radio: the line goes on (if the engine's move was
    // the game's), the mode stays.
    let followed = !tree_state(c).await["variation"].as_bool().unwrap();
    let radio = c.find(fantoccini::Locator::Css(&format!("[data-mode='{engine}']"))).await.unwrap();
    radio.send_keys("\u{E014}").await.unwrap();
    if followed {
        wait_for(
            c,
            "→",
            "return document.querySelector('#history [aria-current]').dataset.ply === '5'",
        )
        .await;
    }
    wait_until(c, "ply 5", |s| !s.busy).await;
    let s = tree_state(c).await;
    assert_eq!(
        (s["main"].clone(), s["mode"].clone()),
        (json!(8), json!(engine)),
        "→ changed the mode or lost moves: {s}"
    );
    // Now the player's side, at ply 3 again (its turn): a move other than
    // the game's is a variation, and the engine answers in it. Back to ply
    // 3 through 分析: in the engine's mode ply 3 is the engine's turn, and
    // it steps on along the line after 250 ms (on a loaded machine before
    // the player's mode was chosen).
    press(c, "[data-mode='analysis']", touch).await;
    wait_until(c, "analysis", |s| !s.busy).await;
    press(c, "#history > li[data-ply='3'] > .side", touch).await;
    wait_at(c, "ply 3", &after[2]).await;
    press(c, &format!("[data-mode='{you}']"), touch).await;
    wait_until(c, "play mode", |s| !s.busy).await;
    assert_eq!(shown(c).await.position, after[2], "the engine moved for the player");
    let a = server.ok(&format!("/api/position?pos={}", after[2]));
    let moves = a["moves"].as_array().unwrap();
    let other = moves
        .iter()
        .find(|m| m["move"] != MAIN[3] && m["kind"] != "pass")
        .or_else(|| moves.iter().find(|m| m["move"] != MAIN[3]))
        .expect("another move");
    let mv = other["move"].as_str().unwrap();
    press(c, &format!("#moves tr[data-move='{mv}'] td"), touch).await;
    wait_for(
        c,
        "the variation",
        "return !!document.querySelector('#history [data-variation][aria-current]')",
    )
    .await;
    // The engine's answer (a quarter of a second later): the player's turn.
    let mine = if you == "play-jia" { "0" } else { "1" };
    wait_until(c, "the engine's answer", |s| !s.busy && side(&s.position) == mine).await;
    let s = tree_state(c).await;
    assert_eq!(
        (s["main"].clone(), s["moves"].clone(), s["mode"].clone()),
        (json!(8), json!(main), json!(you)),
        "{s}"
    );
    picture(c, "#history", &format!("59-var-{tag}-6-play-variation")).await;
    // 悔棋 back to the player's turn at ply 3, nothing deleted; 重做 on.
    let before = tree_state(c).await["variations"].clone();
    press(c, "#undo", touch).await;
    wait_at(c, "undo to ply 3", &after[2]).await;
    let s = tree_state(c).await;
    assert_eq!(
        (s["main"].clone(), s["variations"].clone()),
        (json!(8), before.clone()),
        "悔棋 deleted moves: {s}"
    );
    press(c, "#redo", touch).await;
    wait_for(
        c,
        "redo",
        "return !!document.querySelector('#history [data-variation][aria-current]')",
    )
    .await;
    wait_until(c, "redo", |s| !s.busy).await;
    assert_eq!(tree_state(c).await["variations"], before);
    press(c, "[data-mode='analysis']", touch).await;
    wait_until(c, "analysis", |s| !s.busy).await;
}
