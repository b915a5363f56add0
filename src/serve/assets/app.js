// The analysis board of `chaosclock serve`: draws a position as a clock
// face, lists every legal move with its exact result from /api/position,
// plays moves by clicking or with the keyboard, and plays against an
// engine of level 1 to 8 (8: perfect play). Words come from i18n.js, the
// evaluation graph from graph.js, puzzle mode from puzzle.js (`modeHooks`).
//
// State: a start position and the tree of moves played from it (tree.js:
// the main line and its variations), the line shown (`line`: the nodes
// from the root through the current node and on along first children),
// and how far along it the board is (`cursor`, for ← → undo and redo).
// `moves` are the line's moves (so `positionAt(k)` is the position after
// k of them). The URL holds `pos` (the start), `moves` (the main line),
// `ply` or `line` (the current node, tree.js), `mode`, `lang`, and
// `level` and `seed` below level 8, so a link shows the same game.
"use strict";

const game = { start: null, root: null, line: [], moves: [], cursor: 0 };
const cache = new Map(); // position -> answer of /api/position
let mode = "analysis";
let shown = null; // the answer drawn
let token = 0; // the newest request; older answers are dropped
let busy = false; // a position is being solved: the board takes no moves
// Hover previews wait for the pointer to move after a click: the new rows
// that land under a still pointer are not being pointed at (issue 22).
let previews = true;
// After a move made with the keyboard, the focus goes back to the moves.
let keyFocus = null;
// The request under way (its AbortController) and what it asks for.
let request = null;
// A play mode was just chosen: the engine may move in the middle of the
// game (`maybeEngineMove`).
let modeSwitched = false;
// The engine's level (1 to 8; 8 is perfect play, the best move of the
// answer) and, below 8, the seed of its choices: after k moves it asks
// /api/engine-move with seed + k, so a link replays the same choices.
let level = 8;
let seed = Math.floor(Math.random() * 2 ** 31);

const $ = (id) => document.getElementById(id);

/** Reads a position in the interchange format: slots, side, last. */
function parsePosition(text) {
  const [board, side, last] = text.split(";");
  const slots = board.split(",").map(Number);
  return { slots, n: slots.length, side: side === "0" ? "jia" : "yi", last: Number(last || 0) };
}

/** Whether `text` can be drawn before the server has checked it: 4 to 12
 * slots (even), each empty or a piece of the board once, a side and a
 * last piece in range (issue 59: `1,1` drew a 2-slot dial, a 1,500-entry
 * board 1,499 hand pieces). The server's check decides the rest. */
function drawable(text) {
  const parts = text.split(";");
  if (parts.length > 3 || !/^[0-9]+(,[0-9]+)*$/.test(parts[0])) return false;
  const slots = parts[0].split(",").map(Number);
  const n = slots.length;
  if (n < 4 || n > 12 || n % 2) return false;
  const on = slots.filter((x) => x);
  if (on.some((x) => x > n) || new Set(on).size !== on.length) return false;
  if (parts.length > 1 && !["0", "1"].includes(parts[1])) return false;
  const last = parts.length > 2 ? Number(parts[2]) : 0;
  return Number.isInteger(last) && last >= -1 && last <= n;
}

/** The position after `k` moves of the game, if its answers are known. */
function positionAt(k) {
  let pos = game.start;
  for (let i = 0; i < k; i++) {
    const a = cache.get(pos);
    const m = a && a.moves.find((x) => x.move === game.moves[i]);
    if (!m) return null;
    pos = m.position;
  }
  return pos;
}

/** A move as the API reads it (`MoveText` in src/moves.rs): `pass` in any
 * case, or a piece number (leading zeros or `+` allowed), trimmed; the
 * text the API answers with (`pass`, `7`), or null. */
function normalMove(text) {
  const tx = text.trim();
  if (tx.toLowerCase() === "pass") return "pass";
  if (!/^\+?[0-9]+$/.test(tx)) return null;
  const p = Number(tx);
  return p >= 1 && p <= 255 ? String(p) : null;
}

/** An error the page can say in either language: a key of i18n.js and
 * its arguments, and the server's own words (English), if any. */
class PageError extends Error {
  constructor(key, args = [], detail = "", status = 0, body = null) {
    super(detail || key);
    this.key = key;
    this.args = args;
    this.detail = detail;
    this.status = status;
    this.body = body; // the server's error, with its code (issue 66)
  }
  /** Whether asking again can succeed: not for bad input (400), a
   * position over the budget (422) and the like (issue 59). */
  retryable() {
    return !(this.status >= 400 && this.status < 500);
  }
  text() {
    // The server's code worded in the page's language (issue 66).
    const coded = this.key.startsWith("http.") && codedText(this.body);
    if (coded) return coded;
    const head = t(this.key, ...this.args);
    if (!this.detail || lang !== "en") return head; // no English in another language
    // In English the server's sentence says it all.
    if (this.key.startsWith("http.") && this.detail.length <= 300) return this.detail;
    return `${head} (${cut(this.detail, 200, 80)})`;
  }
}

/** `text` cut in the middle when longer than `head + tail` characters. */
function cut(text, head = 40, tail = 15) {
  return text.length > head + tail + 5 ? `${text.slice(0, head)} … ${text.slice(-tail)}` : text;
}

/** The server's error body `b` (`code`, `args`, `position`) in the page's
 * language, or "" if it has no code the page knows (src/serve/error_code.rs). */
function codedText(b) {
  if (!b || !b.code || !WORDS.zh[`err.${b.code}`]) return "";
  // A position's part, ply or side in words; a cfg's keys as they are.
  const named = b.code.startsWith("position.") || b.code === "cfg.won";
  const word = (a) => (named && WORDS.zh[`arg.${a}`] ? t(`arg.${a}`) : named && (a === "jia" || a === "yi") ? t(a)
    : b.code === "puzzle.none" && WORDS.zh[`theme.${a}`] ? t(`theme.${a}`) : cut(String(a)));
  const where = b.position !== undefined ? t("err.in-position", cut(b.position))
    : b.code.startsWith("position.") || b.code.startsWith("cfg.") ? t("err.in-cfg") : "";
  return where + t(`err.${b.code}`, ...(b.args || []).map(word));
}

/** GETs `path` of the API; the request can be cancelled (`cancelRequest`).
 * Throws a PageError naming the status, with the server's message. */
async function api(path) {
  // A new request replaces the one under way: cancel it, so the server
  // stops a solve nobody waits for (issue 59).
  if (request) request.ctl.abort();
  const ctl = new AbortController();
  request = { ctl, path };
  let r;
  try {
    r = await fetch(path, { signal: ctl.signal });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new PageError("http.network");
  } finally {
    if (request && request.ctl === ctl) request = null;
  }
  const body = await r.json().catch(() => ({}));
  if (!r.ok) {
    const key = WORDS.zh[`http.${r.status}`] ? `http.${r.status}` : "http.other";
    throw new PageError(key, [r.status], body.error || "", r.status, body);
  }
  return body;
}

/** `text` escaped for a query string, `,` and `;` as they are (the server
 * reads both): a long position stays under the 4,096-byte target limit
 * (a 3 KB `pos` got 414, issue 59). */
function queryText(text) {
  return encodeURIComponent(text).replace(/%2C/gi, ",").replace(/%3B/gi, ";");
}

/** The answer for `pos` (cached). */
async function answer(pos) {
  if (cache.has(pos)) return cache.get(pos);
  const a = await api(`/api/position?pos=${queryText(pos)}`);
  cache.set(pos, a);
  return a;
}

/** Shows `e` (or hides the error); `retry`, if given, is offered as a
 * button. */
let errorShown = null;
function showError(e, retry) {
  if (e instanceof PageError && !e.retryable()) retry = null;
  errorShown = e ? { e, retry } : null;
  const box = $("error");
  box.hidden = !e;
  box.replaceChildren();
  if (!e) return;
  box.textContent = t("error", e instanceof PageError ? e.text() : e.message || e);
  // The server's own words, in English, for whoever wants them.
  box.title = (e instanceof PageError && e.detail) || "";
  if (retry) {
    const b = document.createElement("button");
    b.id = "retry";
    b.textContent = t("retry");
    b.addEventListener("click", retry);
    box.append(" ", b);
  }
}

let progressTimer = null;

/** While busy, the board and the moves are locked (issue 22: a click
 * during a solve must not reach the next game), and after a moment the
 * server's progress shows, with a cancel button. */
function setBusy(on) {
  busy = on;
  $("busy").hidden = !on;
  $("board").classList.toggle("locked", on);
  $("moves").classList.toggle("locked", on);
  // A new game, a fair start or a load waits for this one (issue 59).
  for (const id of ["random", "fair", "load", "cfg-file", "cfg-file-button"]) $(id).disabled = on;
  // 不走 as the position shown allows, once nothing is solving (issue 59:
  // it stayed grey after a failed or cancelled request).
  $("pass").disabled = on || !passable(shown);
  clearInterval(progressTimer);
  progressTimer = null;
  $("progress").textContent = "";
  $("book-value").hidden = true;
  if (on) {
    const began = performance.now();
    progressTimer = setInterval(() => showProgress(began), 500);
  }
}

/** Whether 不走 can be clicked in the position answered `a`. */
function passable(a) {
  return !!a && a.moves.some((m) => m.kind === "pass") && !isEngineTurn(a) &&
    positionAt(game.cursor) === a.position;
}

/** Asks the server how far its solve has come, and shows it. */
async function showProgress(began) {
  const secs = t("seconds", ((performance.now() - began) / 1000).toFixed(1));
  let p = null;
  try {
    const r = await fetch("/api/progress");
    if (r.ok) p = await r.json();
  } catch (_) { /* the time alone */ }
  if (!busy) return;
  let what = "";
  let book = "";
  if (p && p.solving) {
    const asked = request && new URLSearchParams(request.path.split("?")[1] || "").get("pos");
    if (asked && !samePosition(asked, p.position)) what = t("progress.waiting");
    else {
      what = p.phase === "enumerating" ? t("progress.enumerating", count(p.states))
        : t("progress.solving", Math.floor((100 * p.states) / Math.max(1, p.total)), count(p.total));
      // An opening's value is known at once; the solve is for its moves.
      // Not while the evaluation is hidden (issue 59).
      if (p.book && !evalHidden(shown)) book = valueBadge(p.book.value);
    }
  }
  $("progress").textContent = what ? `${what} · ${secs}` : secs;
  $("book-value").hidden = !book;
  $("book-value").innerHTML = book ? `${t("progress.book")} ${book}` : "";
}

/** Whether two positions in the interchange format are the same (the
 * short forms `board` and `board;side` are completed). */
function samePosition(a, b) {
  const full = (x) => {
    const parts = x.replace(/\s/g, "").split(";");
    return [parts[0], parts[1] ?? "1", parts[2] ?? "0"].join(";");
  };
  return full(a) === full(b);
}

/** Stops waiting for the answer under way. The server may go on solving
 * (and keep the solution); the page goes back to where it was. */
function cancelRequest() {
  if (!busy) return;
  token++;
  if (request) request.ctl.abort();
  setBusy(false);
  const at = game.start && positionAt(game.cursor);
  if (at && shown && shown.position === at) return; // the best line: nothing else waits
  if (at && game.cursor > 0 && !cache.has(at)) {
    // A move was waiting for its answer: take it back (a new leaf goes,
    // a node with moves after it stays).
    const node = game.line[game.cursor];
    const parent = node.children.length ? node.parent : treeDelete(node);
    setLine(parent);
    refresh();
    return;
  }
  showError(new PageError("cancelled"), game.start ? refresh : () => { showError(null); start(); });
}

/** Walks the moves of the game from the start, filling the cache. */
async function replay(k) {
  let pos = game.start;
  for (let i = 0; i < k; i++) {
    const a = await answer(pos);
    const m = a.moves.find((x) => x.move === game.moves[i]);
    if (!m) throw new PageError("move-illegal", [i + 1, game.moves[i], pos]);
    pos = m.position;
  }
  return pos;
}

/** Draws the current position of the game and its moves. */
async function refresh() {
  const my = ++token;
  showError(null);
  setBusy(true);
  try {
    const pos = await replay(game.cursor);
    const a = await answer(pos);
    if (my !== token) return;
    const before = shown;
    shown = a;
    setBusy(false);
    redraw();
    // A step forward of one ply sounds (issue 66; prefs.js, off by default).
    if (before && before !== a && game.cursor > 0 && positionAt(game.cursor - 1) === before.position) {
      const last = lastMove(a.position);
      moveSound(last && last.captures ? "capture" : "move");
    }
    writeUrl();
    maybeEngineMove(a);
  } catch (e) {
    if (my !== token || e.name === "AbortError") return;
    setBusy(false);
    showError(e, refresh);
  }
}

/** Draws everything for the answer shown, in the chosen language. */
function redraw() {
  if (!shown || editorOpen()) return;
  drawBoard(shown.position, shown, false);
  drawMoves(shown);
  drawEvalBar(shown);
  drawHistory();
  drawEvalGraph();
  drawGameSummary();
  reportDrawn();
  modeHooks.drawn();
  restoreFocus();
}

const NS = "http://www.w3.org/2000/svg";
function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** The slots of the move that led to `text` if it is the game's position
 * at the cursor: `from` (a walk's origin) and `to` (where the piece went). */
function lastMove(text) {
  if (game.cursor === 0 || positionAt(game.cursor) !== text) return null;
  const before = positionAt(game.cursor - 1);
  const mv = game.moves[game.cursor - 1];
  if (!before || mv === "pass") return null;
  const p = parsePosition(before);
  const k = Number(mv);
  const a = cache.get(before);
  const m = a && a.moves.find((x) => x.move === mv);
  const captures = m && m.captures ? m.captures : null;
  const from = p.slots.indexOf(k) + 1;
  if (from === 0) return { from: null, to: k, piece: k, captures }; // placed from the hand
  return { from, to: ((from + k - 1) % p.n) + 1, piece: k, captures, off: k === p.n };
}

/** The position whose last move was last animated: a move is animated
 * once, when it is first drawn. */
let animated = null;

/** Draws the last move `last` on `svg` (issue 59): a walk as an arrow
 * along the rim from its slot to its target (round to the hand for piece
 * N), a placement as a dashed arrow from the centre, the piece it took
 * faded where it stood; the walk animated once, unless the reader asks
 * for less motion. `at(s, radius)` gives a slot's point. */
function drawLastMove(svg, text, last, at, n, pieceR) {
  const c = 200;
  const rArc = 138 - pieceR - 12;
  const angle = (s) => (2 * Math.PI * s) / n;
  const point = (s, rad) => [c + rad * Math.sin(angle(s)), c - rad * Math.cos(angle(s))];
  let d;
  if (last.from !== null) {
    // Clockwise, k slots; piece N goes round, off the board.
    const steps = last.off ? n - 0.35 : last.piece;
    const a0 = angle(last.from) + 0.18, a1 = angle(last.from) + (2 * Math.PI * steps) / n - 0.18;
    const [x0, y0] = [c + rArc * Math.sin(a0), c - rArc * Math.cos(a0)];
    const [x1, y1] = [c + rArc * Math.sin(a1), c - rArc * Math.cos(a1)];
    const large = a1 - a0 > Math.PI ? 1 : 0;
    d = `M${x0.toFixed(1)},${y0.toFixed(1)} A${rArc},${rArc} 0 ${large} 1 ${x1.toFixed(1)},${y1.toFixed(1)}`;
  } else {
    const [x1, y1] = point(last.to, 138 - pieceR - 6);
    const [x0, y0] = point(last.to, 52);
    d = `M${x0.toFixed(1)},${y0.toFixed(1)} L${x1.toFixed(1)},${y1.toFixed(1)}`;
  }
  const kind = last.from === null ? "place" : "walk";
  el("path", { d, id: "last-move-arrow", class: `last-arrow ${kind}`, "data-kind": kind, "marker-end": "url(#lasthead)" }, svg);
  if (last.captures) {
    // The piece taken, faded, beside the slot where it stood (half a slot
    // back, on the ring: clear of the pieces and the numbers).
    const back = angle(last.to) - Math.PI / n;
    const [gx, gy] = [c + 138 * Math.sin(back), c - 138 * Math.cos(back)];
    const g = el("g", { class: `captured ${last.captures % 2 ? "jia" : "yi"}`, "data-captured": last.captures }, svg);
    el("circle", { cx: gx, cy: gy, r: pieceR * 0.5 }, g);
    el("text", { x: gx, y: gy }, g).textContent = last.captures;
    el("title", {}, g).textContent = t("captured", last.captures);
  }
  // The walk, animated once along its arc.
  const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (kind === "walk" && !last.off && animated !== text && !still) {
    const piece = svg.querySelector(`g.piece[data-slot="${last.to}"]`);
    if (piece) {
      const [tx, ty] = at(last.to);
      const [fx, fy] = at(last.from);
      const large = last.piece > n / 2 ? 1 : 0;
      const path = `M${(fx - tx).toFixed(1)},${(fy - ty).toFixed(1)} A138,138 0 ${large} 1 0,0`;
      el("animateMotion", { dur: "0.35s", path, fill: "remove" }, piece);
      piece.classList.add("walking");
    }
  }
  animated = text;
}

/** Whether the evaluation is hidden (issue 65): in a play mode, unless
 * 对局时显示评估 is on, until the game is over (the position shown or the
 * end of the line shown is finished). */
function evalHidden(a) {
  if (mode === "puzzle") return modeHooks.hideEval(a);
  if (mode === "analysis" || $("show-eval").checked || (a && a.over)) return false;
  const end = game.start && cache.get(positionAt(game.moves.length));
  return !(end && end.over);
}

/** Whether the best moves are marked on the board. */
function hinting(a) {
  return $("hint").checked && !!a && !isEngineTurn(a) && !evalHidden(a);
}

/** Makes `node` a keyboard target that runs `act` on Enter or Space. */
function actionable(node, label, act, focusKey) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", act);
  node.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    keyFocus = focusKey;
    act();
  });
}

/** Draws `text` (a position) on the dial; `a` (its answer) gives the legal
 * moves that make pieces clickable, unless `preview`. With `pick` (the
 * board editor), every slot and hand piece is clickable instead, calling
 * `pick({ slot, piece })` or `pick({ hand })`. */
function drawBoard(text, a, preview, pick = null) {
  const p = parsePosition(text);
  const svg = $("board");
  svg.replaceChildren();
  svg.classList.toggle("preview", preview);
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, defs);
  el("path", { d: "M0,0 L10,5 L0,10 z", class: "hint-head" }, marker);
  const lastHead = el("marker", { id: "lasthead", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, defs);
  el("path", { d: "M0,0 L10,5 L0,10 z", class: "last-head" }, lastHead);
  const c = 200, rFace = 192, r = 138, rNum = 178;
  el("circle", { cx: c, cy: c, r: rFace, class: "face" }, svg);
  const walks = new Map(), places = new Map();
  const playable = a && !preview && !isEngineTurn(a);
  if (playable) {
    for (const m of a.moves) {
      if (m.kind === "walk") walks.set(Number(m.move), m);
      if (m.kind === "place") places.set(Number(m.move), m);
    }
  }
  const hint = !preview && hinting(a) ? new Set(a.moves.filter((m) => m.best).map((m) => m.move)) : new Set();
  const banned = p.last > 0 && p.slots.includes(p.last) && p.slots[p.last - 1] !== p.last ? p.last : 0;
  const last = preview || pick ? null : lastMove(text);
  const pieceR = p.n > 8 ? 24 : 28;
  const at = (s, radius = r) => {
    const angle = (2 * Math.PI * s) / p.n;
    return [c + radius * Math.sin(angle), c - radius * Math.cos(angle)];
  };
  const arrows = [];
  for (let s = 1; s <= p.n; s++) {
    const [x, y] = at(s);
    const slot = el("circle", { cx: x, cy: y, r: pieceR + 3, class: "slot", "data-slot": s }, svg);
    if (!preview && last && last.from === s) slot.setAttribute("data-last-move", "from");
    if (!preview && last && last.to === s) slot.setAttribute("data-last-move", "to");
    const [nx, ny] = at(s, rNum);
    el("text", { x: nx, y: ny, class: "slotnum" }, svg).textContent = s;
    const piece = p.slots[s - 1];
    if (pick) actionable(slot, t("edit.slot", s), () => pick({ slot: s, piece }), null);
    if (!piece) continue;
    const cls = ["piece", piece % 2 ? "jia" : "yi"];
    if (piece === s) cls.push("fixed");
    if (piece === banned) cls.push("banned");
    if (walks.has(piece)) cls.push("movable");
    if (hint.has(String(piece)) && walks.has(piece)) {
      cls.push("hint");
      if (piece !== p.n) arrows.push([s, ((s - 1 + piece) % p.n) + 1]);
    }
    const g = el("g", { class: cls.join(" "), "data-piece": piece, "data-slot": s }, svg);
    // A piece that acts takes taps over a circle larger than it is drawn:
    // 40 px or more on a phone (issue 59), and apart from its neighbours'.
    if (walks.has(piece) || pick) el("circle", { cx: x, cy: y, r: pieceR + 6, class: "hit" }, g);
    el("circle", { cx: x, cy: y, r: pieceR }, g);
    el("text", { x, y }, g).textContent = piece;
    el("title", {}, g).textContent = piece === s ? t("fixed", piece) : piece === banned ? t("may-not-walk", piece) : `${piece}`;
    if (walks.has(piece)) {
      actionable(g, notation(p, walks.get(piece)), () => play(String(piece)), "board");
    }
    if (pick) actionable(g, `${t("edit.slot", s)}: ${piece}`, () => pick({ slot: s, piece }), null);
  }
  if (last) drawLastMove(svg, text, last, at, p.n, pieceR);
  // The hint: an arrow from each best walk's piece to where it lands.
  for (const [from, to] of arrows) {
    const [x1, y1] = at(from), [x2, y2] = at(to);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const k = (pieceR + 2) / len;
    el("line", { x1: x1 + (x2 - x1) * k, y1: y1 + (y2 - y1) * k, x2: x2 - (x2 - x1) * k, y2: y2 - (y2 - y1) * k, class: "hint-arrow", "marker-end": "url(#arrowhead)" }, svg);
  }
  // The centre: who moves, or the result.
  const over = a && !preview ? a.over : null;
  el("text", { x: c, y: c - 10, class: "center" }, svg).textContent = over ? t(`over.${over}`) : t("to-move.short", t(p.side));
  const ban = banned ? t("banned.short", banned) : "";
  el("text", { x: c, y: c + 14, class: "center small" }, svg).textContent = preview ? `${t("preview")}${ban ? ` · ${ban}` : ""}` : ban;
  // The hands: pieces not on the board.
  for (const side of ["jia", "yi"]) {
    const box = document.querySelector(`#hand-${side} .pieces`);
    box.replaceChildren();
    for (let q = 1; q <= p.n; q++) {
      if ((q % 2 === 1) !== (side === "jia") || p.slots.includes(q)) continue;
      const span = document.createElement("span");
      span.className = `pc ${side}`;
      span.textContent = q;
      span.dataset.hand = q;
      if (last && last.captures === q) {
        span.classList.add("captured");
        span.title = t("captured", q);
      }
      if (pick) actionable(span, String(q), () => pick({ hand: q }), null);
      if (places.has(q) && p.side === side) {
        span.classList.add("movable");
        if (hint.has(String(q))) span.classList.add("hint");
        span.title = t("place.title", q);
        actionable(span, notation(p, places.get(q)), () => play(String(q)), "board");
      }
      box.appendChild(span);
    }
  }
  if (!preview) {
    setTitle();
    // When the board was first drawn, in ms since the navigation began.
    if (!document.body.dataset.drawnMs) document.body.dataset.drawnMs = String(Math.round(performance.now()));
    $("position").textContent = text;
    $("status").textContent = over
      ? t("game-over", t(`over.${over}`))
      : `${t("to-move", t(p.side))}${banned ? ` · ${t("banned", banned)}` : ""}`;
    // 不走 names the pass rule when-stuck.
    const pb = $("pass"), k = a?.pass_rule == "when-stuck" ? "pass.stuck" : "pass";
    if (pb.dataset.i18n != k) pb.textContent = t(pb.dataset.i18n = k);
    pb.disabled = busy || !passable(a);
    pb.classList.toggle("hint", hint.has("pass"));
  }
}

function valueBadge(v) {
  return `<span class="badge v${v}">${t(`v.${v}`)}</span>`;
}

/** The moves panel: every legal move, best first (in a fixed order, and
 * without values, while the evaluation is hidden). */
function drawMoves(a) {
  const hidden = evalHidden(a);
  const p = parsePosition(a.position);
  const who = `<span class="side">${t(a.side)}</span>${t("colon")}`;
  if (a.over) {
    // The result shows under the board and on it, once (issue 59).
    $("summary").textContent = "";
  } else if (hidden) {
    $("summary").innerHTML = `${who}${t("eval-hidden")}`;
  } else {
    const depth = a.depth === null ? "" : ` · ${t("plies", a.depth)}`;
    $("summary").innerHTML = `${who}${valueBadge(a.value)}${depth} <span class="source">(${t(`source.${a.source}`)})</span>`;
  }
  document.body.classList.toggle("eval-hidden", hidden);
  // The hint shows nothing while the evaluation is hidden: no ticking it.
  $("hint").disabled = hidden;
  const body = document.querySelector("#moves tbody");
  body.replaceChildren();
  let moves = a.moves;
  if (hidden) {
    const order = (m) => (m.kind === "walk" ? 0 : m.kind === "place" ? 1000 : 2000) + (Number(m.move) || 0);
    moves = [...moves].sort((x, y) => order(x) - order(y));
  }
  for (const m of moves) {
    const tr = document.createElement("tr");
    tr.className = `move${m.best && !hidden ? " best" : ""}`;
    tr.dataset.move = m.move;
    if (!hidden) tr.dataset.value = m.value;
    const result = hidden ? "" : valueBadge(m.value);
    const depth = hidden ? "" : m.depth ?? "–";
    tr.innerHTML = `<td>${notation(p, m)}</td><td>${result}</td><td>${depth}</td>`;
    tr.addEventListener("mouseenter", () => { if (previews && !busy) drawBoard(m.position, null, true); });
    // A touch is no hover: no preview stays behind it.
    tr.addEventListener("touchstart", () => { previews = false; }, { passive: true });
    tr.addEventListener("mouseleave", () => shown && !busy && drawBoard(shown.position, shown, false));
    actionable(tr, notation(p, m), () => {
      if (isEngineTurn(a)) return;
      previews = false;
      play(m.move);
    }, "moves");
    body.appendChild(tr);
  }
  $("line").replaceChildren();
  $("bestline").disabled = hidden || !!a.over;
  // At the end of a game no empty table and no best line (issue 66), and
  // none while the evaluation is hidden (issue 65).
  $("moves").hidden = !a.moves.length;
  $("bestline-row").hidden = !!a.over || hidden;
  $("undo").disabled = game.cursor === 0;
  $("redo").disabled = game.cursor >= game.moves.length;
}

/** The evaluation bar beside the board (issue 59): the value for the
 * side to move, filled from self-lose (empty) to self-win (full), and the
 * plies to the end; hidden with the evaluation and at the end. */
function drawEvalBar(a) {
  const bar = $("eval-bar");
  bar.hidden = !a || !!a.over || evalHidden(a);
  if (bar.hidden) {
    // Nothing of the value stays in the page (issue 65).
    delete bar.dataset.value;
    delete bar.dataset.depth;
    bar.querySelector(".text").textContent = "";
    bar.querySelector(".fill").className = "fill";
    bar.querySelector(".fill").style.height = "";
    return;
  }
  const share = { 4: 1, 3: 0.75, 0: 0.5, 2: 0.25, 1: 0.04 }[a.value];
  const fill = bar.querySelector(".fill");
  fill.style.height = `${Math.round(share * 100)}%`;
  fill.className = `fill b${a.value}`;
  bar.dataset.value = a.value;
  bar.dataset.depth = a.depth ?? "";
  const depth = a.depth === null ? "" : ` · ${t("plies", a.depth)}`;
  bar.querySelector(".text").textContent = `${t(a.side)}${t("colon")}${t(`v.${a.value}`)}${depth}`;
}

const rank = (v) => [1, 0, 2, 3, 4].indexOf(v); // self-lose < no-result < ...

/** How far `move`, played in a position answered `a`, fell below the best
 * (docs/serve.md, the whole-game report): "inaccuracy", "mistake",
 * "blunder", or "" if it kept the value. */
function fallOf(a, move) {
  const m = a.moves.find((x) => x.move === move);
  const best = Math.max(...a.moves.map((x) => rank(x.value)));
  if (!m || rank(m.value) >= best) return "";
  return m.value === 1 ? "blunder" : best >= 3 && rank(m.value) < 3 ? "mistake" : "inaccuracy";
}

/** The glyph of a fall. */
const FALL_GLYPH = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** The mark of a move played in a position answered `a`. */
function markOf(a, move) {
  const m = a.moves.find((x) => x.move === move);
  if (!m) return "";
  const best = Math.max(...a.moves.map((x) => rank(x.value)));
  if (rank(m.value) < best) return "mistake";
  // The only legal move is forced, not a find (issue 66).
  if (a.moves.length === 1) return "forced";
  return a.moves.filter((x) => rank(x.value) === best).length === 1 ? "only" : "";
}

/** The ply of `node` after the position `before`, if its answer is
 * known: the position before it, its answer, the move, its notation, its
 * mark and the node. */
function plyOf(node, ply, before) {
  const a = cache.get(before);
  const m = a && a.moves.find((x) => x.move === node.move);
  if (!m) return null;
  if (!node.mark) node.mark = markOf(a, node.move);
  // The server's analysis says "only" for a forced move too.
  if (node.mark === "only" && a.moves.length === 1) node.mark = "forced";
  // A move that fell is graded, in variations too (issue 66).
  const fall = node.mark === "mistake" ? fallOf(a, node.move) : "";
  return { ply, before, a, move: m, text: notation(parsePosition(before), m), mark: node.mark, fall, node };
}

/** The plies of `nodes` (the line shown unless given: nodes from the
 * root) as far as their answers are known. */
function plies(nodes = game.line) {
  const out = [];
  let pos = game.start;
  for (let i = 1; i < nodes.length; i++) {
    const p = plyOf(nodes[i], i, pos);
    if (!p) break;
    out.push(p);
    pos = p.move.position;
  }
  return out;
}

/** One entry of the history: `tag` (li for the main line, span in a
 * variation) for the ply `p`, `[data-node]` its node's id, the current
 * node marked `aria-current`; a click, Enter or Space goes there. */
function historyEntry(tag, p, hidden, numbered) {
  const e = document.createElement(tag);
  const mark = hidden ? "" : p.mark;
  const fall = hidden ? "" : p.fall;
  e.className = tag === "li" ? "" : "var-move";
  e.innerHTML = `${numbered ? `<span class="ply-no">${p.ply}.</span> ` : ""}<span class="side">${t(p.a.side)}</span> ${p.text}` +
    (mark === "only" ? ' <span class="mark-only">!</span>' : "") +
    (mark === "forced" ? ` <span class="mark-forced" title="${t("forced")}">□</span>` : "") +
    (mark === "mistake" ? ` <span class="mark-mistake">${FALL_GLYPH[fall] || "?"}</span>` : "");
  e.dataset.mark = mark;
  if (fall) e.dataset.fall = fall;
  e.dataset.ply = String(p.ply);
  e.dataset.node = String(p.node.id);
  if (tag !== "li") e.dataset.variation = "";
  if (p.node === currentNode()) {
    e.classList.add("current");
    e.setAttribute("aria-current", "step");
  }
  // Only the entry itself acts, not the variations inside a main entry.
  const act = (ev) => {
    if (ev.target.closest("[data-node], .variations") !== e) return;
    if (ev.type === "keydown") {
      if (ev.key !== "Enter" && ev.key !== " ") return;
      ev.preventDefault();
      keyFocus = "history";
    }
    previews = false;
    goToNode(p.node);
  };
  e.setAttribute("tabindex", "0");
  e.setAttribute("aria-label", `${t("ply", p.ply)}: ${p.text}`);
  e.addEventListener("click", act);
  e.addEventListener("keydown", act);
  return e;
}

/** The variation starting at `node` (after the position `before`, at ply
 * `ply`), in parentheses: its moves along first children, each followed
 * by the variations beside it, nested. */
function variationBox(node, ply, before, hidden) {
  const box = document.createElement("span");
  box.className = "variation";
  box.append("(");
  let pos = before;
  let numbered = true;
  for (let x = node, k = ply; x; x = x.children[0], k++) {
    const p = plyOf(x, k, pos);
    if (!p) break;
    box.append(historyEntry("span", p, hidden, numbered));
    numbered = false;
    // The variations beside x (its siblings), after the first move only:
    // the others' are drawn by the line they branch from.
    if (x !== node) {
      for (const alt of x.parent.children.slice(1)) {
        box.append(variationBox(alt, k, pos, hidden));
        numbered = true;
      }
    }
    pos = p.move.position;
  }
  box.append(")");
  return box;
}

/** The history: the main line, one numbered entry a ply, each followed by
 * the variations that replace it (lichess's order), in parentheses. */
function drawHistory() {
  const ol = $("history");
  ol.replaceChildren();
  if (!game.root) return;
  const hidden = evalHidden(shown);
  const main = [game.root, ...treeContinue(game.root)];
  for (const p of plies(main)) {
    const li = historyEntry("li", p, hidden, false);
    const alts = p.node.parent.children.slice(1);
    if (alts.length) {
      const vars = document.createElement("div");
      vars.className = "variations";
      for (const alt of alts) vars.append(variationBox(alt, p.ply, p.before, hidden));
      li.append(vars);
    }
    ol.appendChild(li);
  }
  // Promote and delete act on the current node.
  const node = currentNode();
  // A puzzle's moves are its line: nothing to promote or delete there.
  $("tree-tools").hidden = !node || !node.parent || mode === "puzzle";
  $("promote").disabled = !node || treeOnMain(node) || busy;
  $("promote-main").disabled = !node || treeOnMain(node) || busy;
  $("delete-node").disabled = !node || !node.parent || busy;
}

/** The evaluation graph over the game (hidden with the evaluation). */
function drawEvalGraph() {
  const svg = $("graph");
  const hidden = evalHidden(shown);
  svg.classList.toggle("hidden", hidden);
  if (hidden) return svg.replaceChildren();
  const points = [];
  const first = game.start && cache.get(game.start);
  if (first) points.push({ ply: 0, row: graphRow(first), mark: "", title: game.start });
  for (const p of plies()) {
    const a = cache.get(p.move.position);
    if (!a) break;
    points.push({ ply: p.ply, row: graphRow(a), mark: p.mark, fall: p.fall, title: `${t("ply", p.ply)}: ${t(p.a.side)} ${p.text}` });
  }
  drawGraph(svg, points, game.cursor, goTo);
}

/** At the end of a game played against the engine: the result for you,
 * your mistakes and only moves, and what next. */
function drawGameSummary() {
  const box = $("game-summary");
  const you = mode === "play-jia" ? "jia" : mode === "play-yi" ? "yi" : null;
  const over = shown && shown.over;
  box.hidden = !(you && over && game.cursor === game.moves.length);
  box.replaceChildren();
  if (box.hidden) return;
  const result = over === "both-win" || over === "both-lose"
    ? t(`summary.${over}`)
    : over === `${you}-wins` ? t("summary.won") : t("summary.lost");
  const mine = plies().filter((p) => p.a.side === you);
  const list = (mark) => mine.filter((p) => p.mark === mark).map((p) => `${t("ply", p.ply)} ${p.text}`).join("，") || t("summary.none");
  box.innerHTML = `<h3>${t("summary.title")}${t("colon")}<span class="result">${result}</span></h3>`;
  // Your moves that fell are in the report (#report), said once there.
  const line = document.createElement("p");
  line.className = "summary-only";
  line.textContent = t("summary.only", list("only"));
  box.append(line);
  const row = document.createElement("div");
  row.className = "row";
  const analyse = document.createElement("button");
  analyse.id = "analyse-game";
  analyse.textContent = t("summary.analyse");
  analyse.addEventListener("click", () => setMode("analysis"));
  const again = document.createElement("button");
  again.id = "new-game";
  again.textContent = t("summary.new");
  again.addEventListener("click", fairStart);
  row.append(analyse, again);
  box.append(row);
}

/** Puts the focus back where the keyboard left it. */
function restoreFocus() {
  const where = keyFocus;
  keyFocus = null;
  const target = where === "moves" ? document.querySelector("#moves tr.move")
    : where === "board" ? document.querySelector("#board .piece.movable, .hand .pc.movable")
    : where === "history" ? document.querySelector("#history [aria-current]") : null;
  if (target) target.focus();
}

/** The URL of the game: `pos`, `moves` (the main line), `ply` or `line`
 * (the current node, tree.js), `mode` and `lang`, with `,` and `;` as
 * they are, readable (issue 59). */
function gameUrl() {
  if (mode === "puzzle") return modeHooks.url();
  const q = [`pos=${encodeURIComponent(game.start)}`];
  if (game.root) q.push(...treeQuery(currentNode()));
  if (mode !== "analysis") q.push(`mode=${mode}`);
  if (level < 8) q.push(`level=${level}`, `seed=${seed}`);
  if (lang !== "zh") q.push(`lang=${lang}`);
  const query = q.join("&").replace(/%2C/gi, ",").replace(/%3B/gi, ";");
  return `${location.origin}${location.pathname}?${query}`;
}

function writeUrl() {
  if (game.start && !editorOpen()) history.replaceState(null, "", gameUrl());
}

/** Copies `text` and says so on `button` for a moment; if the browser
 * refuses, the text goes to the box, selected, and the button says that. */
async function copyText(button, text) {
  let ok = true;
  // A browser may neither copy nor refuse (no permission asked): after a
  // second, it counts as refused.
  const late = new Promise((_, no) => setTimeout(() => no(new Error("no answer")), 1000));
  try { await Promise.race([navigator.clipboard.writeText(text), late]); } catch (_) { ok = false; }
  if (!ok) {
    $("paste").value = text;
    $("paste").select();
  }
  button.dataset.copied = ok ? "ok" : "failed";
  button.textContent = ok ? `✓ ${t("copied")}` : t("copy-failed");
  clearTimeout(button.copyTimer);
  button.copyTimer = setTimeout(() => {
    delete button.dataset.copied;
    button.textContent = t(button.dataset.i18n);
  }, 2000);
}

/** Makes the line through `node` the line shown (tree.js `treeLine`),
 * the board at `node`. */
function setLine(node) {
  game.line = treeLine(node);
  game.cursor = game.line.indexOf(node);
  game.moves = game.line.slice(1).map((x) => x.move);
}

/** Keeps the first `k` moves of the line shown and forgets every move
 * after them, variations included (puzzle mode's retry and solution). */
function cutLine(k) {
  const node = game.line[k];
  node.children = [];
  setLine(node);
}

/** The node the board shows. */
function currentNode() {
  return game.line[game.cursor];
}

/** Plays `moves` one after the other from the current node: a move the
 * tree has there is followed, another starts a variation (the line after
 * the node is kept). In play mode the engine answers the last one. */
function playFrom(moves) {
  let node = currentNode();
  for (const mv of moves) node = treeAdd(node, mv);
  // Still on the line shown (the moves it already had): keep the line.
  if (game.line[game.cursor + moves.length] === node) game.cursor += moves.length;
  else setLine(node);
  modeSwitched = true;
  refresh();
}

/** Plays `move` at the current node (a new move starts a variation). */
function play(move) {
  if (busy) return;
  // Puzzle mode (puzzle.js) judges the player's moves first.
  if (modeHooks.play(move)) return;
  playFrom([move]);
}

/** Plays `moves` one after the other at the current node. */
function playLine(moves) {
  if (busy || !moves.length) return;
  previews = false;
  playFrom(moves);
}

/** Shows the position after `k` moves of the line shown. */
function goTo(k) {
  if (busy || k < 0 || k > game.moves.length || k === game.cursor) return;
  game.cursor = k;
  refresh();
}

/** Shows `node` (its line becomes the line shown, unless it is on it). */
function goToNode(node) {
  if (busy || !node) return;
  const k = game.line.indexOf(node);
  if (k >= 0) return goTo(k);
  setLine(node);
  refresh();
}

/** The sibling `step` (-1, 1) places from the current node: the
 * variation above or below (↑ ↓). */
function goToSibling(step) {
  const node = currentNode();
  if (!node || !node.parent) return;
  const sibs = node.parent.children;
  goToNode(sibs[sibs.indexOf(node) + step]);
}

/** Promotes the current node's variation (one level, or to the main
 * line with `toMain`); the board stays where it is. */
function promote(toMain) {
  const node = currentNode();
  if (busy || !node || !treePromote(node, toMain)) return;
  redraw();
  writeUrl();
}

/** Deletes the current node and the moves after it; the board goes to
 * its parent. */
function deleteNode() {
  const node = currentNode();
  if (busy || !node || !node.parent) return;
  setLine(treeDelete(node));
  refresh();
}

function engineSide() {
  if (mode === "puzzle") return modeHooks.engineSide();
  return mode === "play-jia" ? "yi" : mode === "play-yi" ? "jia" : null;
}

function isEngineTurn(a) {
  return !!a && !a.over && a.side === engineSide();
}

/** In play mode, the engine answers: at level 8 with its best move (its
 * best value, the fastest win or slowest loss among equals: the API's
 * order), below with the move of /api/engine-move for its level and seed. */
function maybeEngineMove(a) {
  const switched = modeSwitched;
  modeSwitched = false;
  if (mode === "puzzle") return modeHooks.shown(a);
  if (!isEngineTurn(a) || !a.moves.length) return;
  const my = token;
  // Mid-line (重做 or → onto its turn), its move is the line's next one:
  // a step forward (issue 66: it waited there, and nothing could be
  // clicked). Right after the mode was chosen or a move was played, it
  // chooses: the line's next move (a step) or a variation.
  if (game.cursor !== game.moves.length && !switched) {
    setTimeout(() => { if (my === token) goTo(game.cursor + 1); }, 250);
    return;
  }
  const reply = (mv) => {
    if (my !== token) return;
    if (game.moves[game.cursor] === mv) goTo(game.cursor + 1);
    else play(mv);
  };
  if (level >= 8) {
    const best = a.moves[0].move;
    setTimeout(() => reply(best), 250);
    return;
  }
  const q = `pos=${encodeURIComponent(a.position)}&level=${level}&seed=${seed + game.cursor}`;
  const asked = Date.now();
  fetch(`/api/engine-move?${q}`)
    .then(async (r) => {
      const body = await r.json().catch(() => ({}));
      if (!r.ok) throw new PageError(WORDS.zh[`http.${r.status}`] ? `http.${r.status}` : "http.other", [r.status], body.error || "", r.status, body);
      return body;
    })
    .then((b) => {
      // As at level 8, the reply shows after a quarter of a second.
      if (b.move !== null) setTimeout(() => reply(b.move), Math.max(0, 250 - (Date.now() - asked)));
    })
    .catch((e) => {
      if (my !== token) return;
      const again = () => { showError(null); maybeEngineMove(a); };
      showError(e instanceof PageError ? e : new PageError("http.network"), again);
    });
}

/** Sets the engine's level (1 to 8). */
function setLevel(k) {
  level = k;
  $("level").value = String(k);
  writeUrl();
}

/** The side to move after `k` moves, if known. */
function sideAt(k) {
  const p = positionAt(k);
  return p ? parsePosition(p).side : null;
}

/** Takes a move back; in play mode back to your own turn, so your move
 * and the engine's reply go together (issue 22: one undo used to land on
 * the engine's turn, where nothing could be clicked). */
function undo() {
  if (game.cursor === 0 || busy) return;
  let k = game.cursor - 1;
  const engine = engineSide();
  if (engine) {
    while (k > 0 && sideAt(k) === engine) k--;
    // The engine opened the game: its first move stays.
    if (sideAt(k) === engine) k = Math.min(1, game.moves.length);
    if (k >= game.cursor) return;
  }
  goTo(k);
}

/** Starts a game from `start`: its board is drawn at once and the old
 * moves go, so nothing of the last game can be clicked while it solves. */
function newGame(start) {
  game.start = start;
  game.root = treeRoot();
  setLine(game.root);
  shown = null;
  document.querySelector("#moves tbody").replaceChildren();
  $("summary").textContent = "";
  $("history").replaceChildren();
  $("tree-tools").hidden = true;
  $("graph").replaceChildren();
  $("game-summary").hidden = true;
  // The old game's bar goes too (issue 66: it stayed while the new game
  // solved, and after 取消).
  drawEvalBar(null);
  // No empty moves table and no best line before the answer (issue 66).
  $("moves").hidden = true;
  $("bestline-row").hidden = true;
  // The URL, the size, undo and redo are the new game's at once (issue
  // 59: after a failed answer they still named the old one).
  $("undo").disabled = true;
  $("redo").disabled = true;
  if (drawable(start)) {
    $("slots").value = String(parsePosition(start).n);
    drawBoard(start, null, false);
  }
  writeUrl();
  refresh();
}

/** Starts a game from `pos` in mode `m` (the board editor's way out). */
function newGameIn(pos, m) {
  mode = m;
  document.querySelector(`input[name="mode"][value="${m}"]`).checked = true;
  $("hint").checked = m === "analysis";
  newGame(pos);
}

/** An empty board: no dial, no hands, no moves. */
function clearBoard() {
  $("board").replaceChildren();
  for (const side of ["jia", "yi"]) document.querySelector(`#hand-${side} .pieces`).replaceChildren();
  $("status").textContent = "";
  $("position").textContent = "";
  $("moves").hidden = true;
  $("bestline-row").hidden = true;
  $("undo").disabled = true;
  $("redo").disabled = true;
  $("pass").disabled = true;
}

/** A random opening of `n` slots: every piece on the board, none fixed. */
function randomOpening(n) {
  for (;;) {
    const b = Array.from({ length: n }, (_, i) => i + 1);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [b[i], b[j]] = [b[j], b[i]];
    }
    if (b.every((p, i) => p !== i + 1)) return `${b.join(",")};1;0`;
  }
}

/** A proven both-win opening of the chosen size, from the server. */
async function fairStart() {
  const my = ++token;
  try {
    showError(null);
    setBusy(true);
    const f = await api(`/api/fair-start?slots=${$("slots").value}`);
    if (my !== token) return;
    newGame(f.position);
  } catch (e) {
    if (my !== token || e.name === "AbortError") return;
    setBusy(false);
    // 422 here is no both-win opening of the size, not the budget (issue 59).
    if (e instanceof PageError && e.status === 422) {
      e = new PageError("fair.none", [$("slots").value], e.detail, e.status, e.body);
    }
    showError(e);
  }
}

async function loadText(text) {
  text = text.trim();
  if (!text) return;
  // A game record, a link or a position and its moves (report.js).
  if (await loadRecordText(text)) return;
  const my = ++token;
  try {
    const isCfg = /[=\n]/.test(text);
    const q = isCfg ? `cfg=${encodeURIComponent(text)}` : `pos=${encodeURIComponent(text)}`;
    showError(null);
    setBusy(true);
    const a = await api(`/api/position?${q}`);
    if (my !== token) return;
    cache.set(a.position, a);
    newGame(a.position);
  } catch (e) {
    if (my !== token || e.name === "AbortError") return;
    setBusy(false);
    showError(e);
  }
}

async function showBestLine() {
  const pos = shown && shown.position;
  if (!pos || busy) return;
  const my = ++token;
  try {
    setBusy(true);
    const l = await api(`/api/mainline?pos=${encodeURIComponent(pos)}`);
    if (my !== token) return;
    setBusy(false);
    const ol = $("line");
    ol.replaceChildren();
    let before = l.position;
    for (const p of l.line) {
      const li = document.createElement("li");
      li.innerHTML = `${t(p.side)} ${notation(parsePosition(before), p)} ${valueBadge(p.value)}`;
      li.dataset.lineMove = p.move;
      li.addEventListener("mouseenter", () => { if (previews && !busy) drawBoard(p.position, null, true); });
      li.addEventListener("mouseleave", () => shown && !busy && drawBoard(shown.position, shown, false));
      li.addEventListener("touchstart", () => { previews = false; }, { passive: true });
      // A click or a tap plays the line up to this entry (issue 59: a tap
      // left the board in preview).
      const upTo = l.line.slice(0, l.line.indexOf(p) + 1).map((x) => x.move);
      actionable(li, notation(parsePosition(before), p), () => playLine(upTo), "moves");
      ol.appendChild(li);
      before = p.position;
    }
    if (l.over) {
      const li = document.createElement("li");
      li.textContent = t("game-over", t(`over.${l.over}`));
      ol.appendChild(li);
    }
  } catch (e) {
    if (my !== token || e.name === "AbortError") return;
    setBusy(false);
    showError(e);
  }
}

/** Switches to `m` (analysis, play-jia or play-yi). */
function setMode(m) {
  mode = m;
  document.querySelector(`input[name="mode"][value="${m}"]`).checked = true;
  setTitle();
  if (modeHooks.mode(m)) return;
  // The hint is on for analysis and off for play, until changed.
  $("hint").checked = m === "analysis";
  // The moves after the position shown stay (issue 59);
  // a different move played here starts a variation.
  modeSwitched = true;
  refresh();
}

/** The page's title names the mode (issue 66). */
function setTitle() {
  document.title = t(`title.${editorOpen() ? "editor" : mode}`);
}

/** Switches the language of the page. */
function setLang(l) {
  lang = l;
  try { localStorage.setItem("chaosclock.lang", l); } catch (_) { /* not kept */ }
  applyWords();
  setTitle();
  redraw();
  if (errorShown) showError(errorShown.e, errorShown.retry);
  if (game.start) writeUrl();
}

function wire() {
  $("pass").addEventListener("click", () => play("pass"));
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", () => goTo(game.cursor + 1));
  $("cancel").addEventListener("click", cancelRequest);
  $("random").addEventListener("click", () => newGame(randomOpening(Number($("slots").value))));
  $("fair").addEventListener("click", fairStart);
  $("load").addEventListener("click", () => loadText($("paste").value));
  // A position is one line: Enter loads it; a cfg file has several, so
  // Shift+Enter makes a new line and Ctrl+Enter always loads.
  $("paste").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || !e.shiftKey)) {
      e.preventDefault();
      loadText($("paste").value);
    }
  });
  // The browser's own file button speaks its language, not the page's
  // (issue 66): a button of the page opens the hidden input.
  $("cfg-file-button").addEventListener("click", () => $("cfg-file").click());
  $("cfg-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    if (file.size > 65536) return showError(new PageError("file-too-large", [file.name]));
    const text = await file.text();
    $("paste").value = text;
    e.target.value = "";
    loadText(text);
  });
  $("copy").addEventListener("click", () => copyText($("copy"), $("position").textContent));
  $("copy-link").addEventListener("click", () => game.start && copyText($("copy-link"), gameUrl()));
  $("export").addEventListener("click", exportClicked);
  $("back").addEventListener("click", () => goTo(game.cursor - 1));
  $("forward").addEventListener("click", () => goTo(game.cursor + 1));
  $("bestline").addEventListener("click", showBestLine);
  $("promote").addEventListener("click", () => promote(false));
  $("promote-main").addEventListener("click", () => promote(true));
  $("delete-node").addEventListener("click", deleteNode);
  for (const r of document.querySelectorAll('input[name="mode"]')) {
    r.addEventListener("change", () => setMode(r.value));
  }
  $("level").addEventListener("change", () => setLevel(Number($("level").value)));
  $("hint").addEventListener("change", redraw);
  // 对局时显示评估: off until switched on, then kept (prefs.js).
  $("show-eval").checked = kept("showEval") === "on";
  $("show-eval").addEventListener("change", () => {
    keep("showEval", $("show-eval").checked ? "on" : "off");
    redraw();
  });
  for (const b of document.querySelectorAll("[data-lang]")) {
    b.addEventListener("click", () => setLang(b.dataset.lang));
  }
  // Previews follow the pointer only while it moves (issue 59: a move
  // the browser makes up when the page changes under a still pointer, at
  // the same place, is no move).
  let pointer = null;
  document.addEventListener("mousemove", (e) => {
    const at = `${e.screenX},${e.screenY}`;
    const moved = pointer !== at && !previews;
    if (pointer !== at) previews = true;
    pointer = at;
    // The row the pointer came onto before it moved is previewed now.
    const row = moved && e.target.closest ? e.target.closest("#moves tr.move, #line li") : null;
    if (row) row.dispatchEvent(new MouseEvent("mouseenter"));
  });
  // ← → Home End move along the line shown, ↑ ↓ to the variation above
  // or below, wherever the focus is but in text (issue 59: on a mode's
  // radio button they changed the mode), Escape cancels a solve.
  document.addEventListener("keydown", (e) => {
    const tg = e.target;
    const text = tg.tagName === "TEXTAREA" || tg.tagName === "SELECT" ||
      (tg.tagName === "INPUT" && !["radio", "checkbox"].includes(tg.type));
    if (text || editorOpen()) return;
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    if (document.querySelector("dialog[open]")) return; // the shortcuts list is open
    const keys = {
      // As ◀ in analysis and puzzles (issue 65: ← did nothing at a
      // puzzle's start); in play mode back to your own turn.
      ArrowLeft: () => (mode === "analysis" || mode === "puzzle" ? goTo(game.cursor - 1) : undo()),
      ArrowRight: () => goTo(game.cursor + 1),
      Home: () => goTo(0),
      End: () => goTo(game.moves.length),
      ArrowUp: () => goToSibling(-1),
      ArrowDown: () => goToSibling(1),
      Escape: cancelRequest,
    };
    if (!keys[e.key]) return;
    e.preventDefault();
    // A keyboard step shows the real position, never a preview.
    previews = false;
    keys[e.key]();
  });
}

async function start() {
  const u = new URL(location.href);
  if (modeHooks.start(u)) return;
  const m = u.searchParams.get("mode");
  if (m && ["analysis", "play-jia", "play-yi"].includes(m)) {
    mode = m;
    document.querySelector(`input[name="mode"][value="${m}"]`).checked = true;
    $("hint").checked = m === "analysis";
  }
  const lv = Number(u.searchParams.get("level"));
  if (Number.isInteger(lv) && lv >= 1 && lv <= 8) level = lv;
  const sd = Number(u.searchParams.get("seed"));
  if (u.searchParams.get("seed") && Number.isSafeInteger(sd) && sd >= 0) seed = sd;
  $("level").value = String(level);
  const pos = u.searchParams.get("pos") || "2,8,11,9,4,12,10,6,5,7,1,3;1;0";
  // The moves as the API reads them: `2,,3` has an empty second move
  // (issue 59). The main line, and the current node's moves if it is not
  // the main line's end.
  const link = treeParse((name) => u.searchParams.get(name));
  const asked = link.main;
  // Draw the board at once if it can be one; the moves come when the
  // server answers.
  if (!asked.length && drawable(pos)) drawBoard(pos, null, false);
  const my = ++token;
  setBusy(true);
  try {
    const a = await api(`/api/position?pos=${queryText(pos)}`);
    if (my !== token) return;
    cache.set(a.position, a);
    game.start = a.position;
    $("slots").value = String(parsePosition(a.position).n);
  } catch (e) {
    if (my !== token || e.name === "AbortError") return;
    // The first answer failed: an empty board and the error (issue 59:
    // an impossible position was drawn as a game), and a retry when
    // asking again can help (busy, not bad input).
    setBusy(false);
    clearBoard();
    showError(e, () => { showError(null); start(); });
    return;
  }
  // The legal moves of the URL, up to the first that is not (issue 22:
  // one bad move must not lose the game): the main line, then the current
  // node's line (a variation where it leaves the main line).
  game.root = treeRoot();
  let refused = null;
  let node = game.root;
  const follow = async (list) => {
    const moves = [];
    const kept = () => (moves.length === 1 ? t("url-kept.1") : t("url-kept", moves.length));
    node = game.root;
    try {
      let at = game.start;
      for (const text of list) {
        const mv = normalMove(text);
        const a = await answer(at);
        const found = mv && a.moves.find((x) => x.move === mv);
        if (!found) {
          refused = refused || new PageError("url-illegal", [moves.length + 1, text, at, kept]);
          break;
        }
        moves.push(mv);
        node = treeAdd(node, mv);
        at = found.position;
      }
    } catch (e) {
      if (e.name === "AbortError") return false;
      // Re-said in the language chosen later (issue 66).
      refused = refused || new PageError("url-failed", [() => (e instanceof PageError ? e.text() : e.message || e), kept]);
    }
    return true;
  };
  if (!(await follow(asked))) return;
  if (link.line && !(await follow(link.line))) return;
  setLine(node);
  const main = treeContinue(game.root);
  if (main.length) {
    // The marks of a shared game, from the server's analysis.
    fetch(`/api/analyse?pos=${encodeURIComponent(game.start)}&moves=${main.map((x) => x.move).join(",")}`)
      .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
      .then((r) => {
        r.plies.forEach((p, i) => { if (main[i]) main[i].mark = p.mistake ? "mistake" : p.only ? "only" : ""; });
        redraw();
      })
      .catch(() => {});
  }
  await refresh();
  if (refused) showError(refused);
}

applyWords();
wire();
if (!openEditorFromUrl()) start();
