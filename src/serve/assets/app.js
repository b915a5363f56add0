// The analysis board of `chaosclock serve`: draws a position as a clock
// face, lists every legal move with its exact result from /api/position,
// plays moves by clicking, and plays against perfect play.
//
// State: a start position and the moves played from it (`game`), and how
// many of them are shown (`cursor`, for undo and redo). The URL holds
// `pos` (the start) and `moves`, so a link shows the same game.
"use strict";

const LABELS = {
  4: ["己赢", "self-win"], 3: ["共赢", "both-win"], 2: ["同输", "both-lose"],
  1: ["己输", "self-lose"], 0: ["无果", "no-result"],
};
const OVER = {
  "jia-wins": "甲胜 甲 (odd) wins", "yi-wins": "乙胜 乙 (even) wins",
  "both-win": "共赢 both win", "both-lose": "同输 both lose",
};
const SIDE = { jia: "甲 (odd)", yi: "乙 (even)" };

const game = { start: null, moves: [], cursor: 0, marks: [] };
const cache = new Map(); // position -> answer of /api/position
let mode = "analysis";
let shown = null; // the answer drawn
let token = 0; // the newest request; older answers are dropped
let busy = false; // a position is being solved: the board takes no moves
// Hover previews wait for the pointer to move after a click: the new rows
// that land under a still pointer are not being pointed at (issue 22).
let previews = true;

const $ = (id) => document.getElementById(id);

/** Reads a position in the interchange format: slots, side, last. */
function parsePosition(text) {
  const [board, side, last] = text.split(";");
  const slots = board.split(",").map(Number);
  return { slots, n: slots.length, side: side === "0" ? "jia" : "yi", last: Number(last || 0) };
}

/** The position after `k` moves of the game. */
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
  const t = text.trim();
  if (t.toLowerCase() === "pass") return "pass";
  if (!/^\+?[0-9]+$/.test(t)) return null;
  const p = Number(t);
  return p >= 1 && p <= 255 ? String(p) : null;
}

async function api(path) {
  const r = await fetch(path);
  const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

/** The answer for `pos` (cached). */
async function answer(pos) {
  if (cache.has(pos)) return cache.get(pos);
  const a = await api(`/api/position?pos=${encodeURIComponent(pos)}`);
  cache.set(pos, a);
  return a;
}

/** Shows `e` (or hides the error); `retry`, if given, is offered as a
 * button. */
function showError(e, retry) {
  const box = $("error");
  box.hidden = !e;
  box.textContent = e ? `错误 error: ${e.message || e}` : "";
  if (e && retry) {
    const b = document.createElement("button");
    b.id = "retry";
    b.innerHTML = '重试 <span class="en">retry</span>';
    b.addEventListener("click", retry);
    box.append(" ", b);
  }
}

/** While busy, the board and the moves are locked (issue 22: a click
 * during a solve must not reach the next game). */
function setBusy(on) {
  busy = on;
  $("busy").hidden = !on;
  $("board").classList.toggle("locked", on);
  $("moves").classList.toggle("locked", on);
  $("pass").disabled = on || $("pass").disabled;
}

/** Walks the moves of the game from the start, filling the cache. */
async function replay(k) {
  let pos = game.start;
  for (let i = 0; i < k; i++) {
    const a = await answer(pos);
    const m = a.moves.find((x) => x.move === game.moves[i]);
    if (!m) throw new Error(`move ${i + 1} '${game.moves[i]}' is illegal in ${pos}`);
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
    shown = a;
    drawBoard(a.position, a, false);
    drawMoves(a);
    drawHistory();
    writeUrl();
    setBusy(false);
    maybeEngineMove(a);
  } catch (e) {
    if (my !== token) return;
    setBusy(false);
    showError(e, refresh);
  }
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
  const from = p.slots.indexOf(k) + 1;
  if (from === 0) return { from: null, to: k }; // placed from the hand
  return { from, to: ((from + k - 1) % p.n) + 1 };
}

/** Draws `text` (a position) on the dial; `a` (its answer) gives the legal
 * moves that make pieces clickable, unless `preview`. */
function drawBoard(text, a, preview) {
  const p = parsePosition(text);
  const svg = $("board");
  svg.replaceChildren();
  svg.classList.toggle("preview", preview);
  const c = 200, rFace = 192, r = 138, rNum = 178;
  el("circle", { cx: c, cy: c, r: rFace, class: "face" }, svg);
  const walks = new Set(), places = new Set();
  if (a && !preview && !isEngineTurn(a)) {
    for (const m of a.moves) {
      if (m.kind === "walk") walks.add(Number(m.move));
      if (m.kind === "place") places.add(Number(m.move));
    }
  }
  const banned = p.last > 0 && p.slots.includes(p.last) && p.slots[p.last - 1] !== p.last ? p.last : 0;
  const last = preview ? null : lastMove(text);
  const pieceR = p.n > 8 ? 24 : 28;
  for (let s = 1; s <= p.n; s++) {
    const angle = (2 * Math.PI * s) / p.n;
    const x = c + r * Math.sin(angle), y = c - r * Math.cos(angle);
    const slot = el("circle", { cx: x, cy: y, r: pieceR + 3, class: "slot", "data-slot": s }, svg);
    if (!preview && last && last.from === s) slot.setAttribute("data-last-move", "from");
    if (!preview && last && last.to === s) slot.setAttribute("data-last-move", "to");
    const t = el("text", { x: c + rNum * Math.sin(angle), y: c - rNum * Math.cos(angle), class: "slotnum" }, svg);
    t.textContent = s;
    const piece = p.slots[s - 1];
    if (!piece) continue;
    const cls = ["piece", piece % 2 ? "jia" : "yi"];
    if (piece === s) cls.push("fixed");
    if (piece === banned) cls.push("banned");
    if (walks.has(piece)) cls.push("movable");
    const g = el("g", { class: cls.join(" "), "data-piece": piece, "data-slot": s }, svg);
    el("circle", { cx: x, cy: y, r: pieceR }, g);
    const label = el("text", { x, y }, g);
    label.textContent = piece === s ? `${piece}` : piece;
    const title = el("title", {}, g);
    title.textContent = piece === s ? `${piece} 正位 fixed` : piece === banned ? `${piece} 禁走 banned this ply` : `${piece}`;
    if (walks.has(piece)) g.addEventListener("click", () => play(String(piece)));
  }
  // The centre: who moves, or the result.
  const over = a && !preview ? a.over : null;
  const mid = el("text", { x: c, y: c - 10, class: "center" }, svg);
  mid.textContent = over ? OVER[over] : `${p.side === "jia" ? "甲" : "乙"} 走 to move`;
  const sub = el("text", { x: c, y: c + 14, class: "center small" }, svg);
  const ban = banned ? `禁 banned: ${banned}` : "";
  sub.textContent = preview ? `预览 preview${ban ? ` · ${ban}` : ""}` : ban;
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
      if (places.has(q) && p.side === side) {
        span.classList.add("movable");
        span.title = `落子 place ${q}`;
        span.addEventListener("click", () => play(String(q)));
      }
      box.appendChild(span);
    }
  }
  if (!preview) {
    // When the board was first drawn, in ms since the navigation began.
    if (!document.body.dataset.drawnMs) document.body.dataset.drawnMs = String(Math.round(performance.now()));
    $("position").textContent = text;
    $("status").textContent = over
      ? `终局 game over: ${OVER[over]}`
      : `${SIDE[p.side]} 走棋 to move${banned ? ` · 禁走 banned ${banned}` : ""}`;
    $("pass").disabled = !(a && a.moves.some((m) => m.kind === "pass")) || isEngineTurn(a);
  }
}

function valueBadge(v) {
  const [zh, en] = LABELS[v];
  return `<span class="badge v${v}">${zh}</span> <span class="v${v}">${en}</span>`;
}

function moveText(m) {
  if (m.kind === "pass") return "不走 pass";
  return `${m.kind === "walk" ? "走" : "落"} ${m.move} <span class="en">${m.kind}</span>`;
}

/** The moves panel: every legal move, best first. */
function drawMoves(a) {
  const side = a.side === "jia" ? "甲" : "乙";
  const depth = a.depth === null ? "" : ` · ${a.depth} 步 plies`;
  $("summary").innerHTML = a.over
    ? `终局 game over: ${OVER[a.over]}`
    : `${side}: ${valueBadge(a.value)}${depth} <span class="en">(${a.source === "tables" ? "残局库 tables" : "求解 solved"})</span>`;
  const body = document.querySelector("#moves tbody");
  body.replaceChildren();
  for (const m of a.moves) {
    const tr = document.createElement("tr");
    tr.className = `move${m.best ? " best" : ""}`;
    tr.dataset.move = m.move;
    tr.dataset.value = m.value;
    tr.innerHTML = `<td>${moveText(m)}</td><td>${valueBadge(m.value)}</td><td>${m.depth ?? "–"}</td>`;
    tr.addEventListener("mouseenter", () => { if (previews && !busy) drawBoard(m.position, null, true); });
    tr.addEventListener("mouseleave", () => shown && !busy && drawBoard(shown.position, shown, false));
    tr.addEventListener("click", () => {
      if (isEngineTurn(a)) return;
      previews = false;
      play(m.move);
    });
    body.appendChild(tr);
  }
  $("line").replaceChildren();
  $("undo").disabled = game.cursor === 0;
  $("redo").disabled = game.cursor >= game.moves.length;
}

/** The mark of a move played in a position answered `a`. */
function markOf(a, move) {
  const m = a.moves.find((x) => x.move === move);
  if (!m) return "";
  const rank = (v) => [1, 0, 2, 3, 4].indexOf(v); // self-lose < no-result < ...
  const best = Math.max(...a.moves.map((x) => rank(x.value)));
  if (rank(m.value) < best) return "mistake";
  return a.moves.filter((x) => rank(x.value) === best).length === 1 ? "only" : "";
}

function drawHistory() {
  const ol = $("history");
  ol.replaceChildren();
  let pos = game.start;
  game.moves.forEach((mv, i) => {
    const a = cache.get(pos);
    const li = document.createElement("li");
    const side = a ? (a.side === "jia" ? "甲" : "乙") : "";
    const mark = game.marks[i] || (a ? markOf(a, mv) : "");
    game.marks[i] = mark;
    li.innerHTML = `${side} ${mv === "pass" ? "不走 pass" : mv}` +
      (mark === "only" ? ' <span class="mark-only" title="唯一着 only move">!</span>' : "") +
      (mark === "mistake" ? ' <span class="mark-mistake" title="失误 mistake">?</span>' : "");
    li.dataset.mark = mark;
    li.dataset.ply = String(i + 1);
    if (i + 1 === game.cursor) li.classList.add("current");
    li.addEventListener("click", () => { game.cursor = i + 1; refresh(); });
    ol.appendChild(li);
    const m = a && a.moves.find((x) => x.move === mv);
    pos = m ? m.position : pos;
  });
}

function writeUrl() {
  const u = new URL(location.href);
  u.searchParams.set("pos", game.start);
  if (mode === "analysis") u.searchParams.delete("mode");
  else u.searchParams.set("mode", mode);
  if (game.moves.length) u.searchParams.set("moves", game.moves.slice(0, game.cursor).join(","));
  else u.searchParams.delete("moves");
  history.replaceState(null, "", u);
}

/** Plays `move` at the cursor (dropping the moves after it). */
function play(move) {
  if (busy) return;
  game.moves = game.moves.slice(0, game.cursor);
  game.marks = game.marks.slice(0, game.cursor);
  game.moves.push(move);
  game.cursor++;
  refresh();
}

function engineSide() {
  return mode === "play-jia" ? "yi" : mode === "play-yi" ? "jia" : null;
}

function isEngineTurn(a) {
  return !!a && !a.over && a.side === engineSide();
}

/** In play mode, the engine answers with its best move: its best value,
 * the fastest win or slowest loss among equals (the API's order). */
function maybeEngineMove(a) {
  if (!isEngineTurn(a) || game.cursor !== game.moves.length || !a.moves.length) return;
  const my = token;
  setTimeout(() => { if (my === token) play(a.moves[0].move); }, 250);
}

/** Starts a game from `start`: its board is drawn at once and the old
 * moves go, so nothing of the last game can be clicked while it solves. */
/** The side to move after `k` moves, if known. */
function sideAt(k) {
  const p = positionAt(k);
  return p ? parsePosition(p).side : null;
}

/** Takes a move back; in play mode back to your own turn, so your move
 * and the engine's reply go together (issue 22: one undo used to land on
 * the engine's turn, where nothing could be clicked). */
function undo() {
  if (game.cursor === 0) return;
  let k = game.cursor - 1;
  const engine = engineSide();
  if (engine) {
    while (k > 0 && sideAt(k) === engine) k--;
    // The engine opened the game: its first move stays.
    if (sideAt(k) === engine) k = Math.min(1, game.moves.length);
    if (k >= game.cursor) return;
  }
  game.cursor = k;
  refresh();
}

function newGame(start) {
  game.start = start;
  game.moves = [];
  game.marks = [];
  game.cursor = 0;
  shown = null;
  document.querySelector("#moves tbody").replaceChildren();
  $("summary").textContent = "";
  $("history").replaceChildren();
  if (/^[0-9,;-]+$/.test(start)) drawBoard(start, null, false);
  refresh();
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

async function loadText(text) {
  text = text.trim();
  if (!text) return;
  try {
    const isCfg = /[=\n]/.test(text);
    const q = isCfg ? `cfg=${encodeURIComponent(text)}` : `pos=${encodeURIComponent(text)}`;
    setBusy(true);
    const a = await api(`/api/position?${q}`);
    cache.set(a.position, a);
    newGame(a.position);
  } catch (e) {
    setBusy(false);
    showError(e);
  }
}

async function showBestLine() {
  const pos = shown && shown.position;
  if (!pos) return;
  try {
    setBusy(true);
    const l = await api(`/api/mainline?pos=${encodeURIComponent(pos)}`);
    setBusy(false);
    const ol = $("line");
    ol.replaceChildren();
    for (const p of l.line) {
      const li = document.createElement("li");
      li.innerHTML = `${p.side === "jia" ? "甲" : "乙"} ${p.move === "pass" ? "不走 pass" : p.move} ${valueBadge(p.value)}`;
      li.addEventListener("mouseenter", () => drawBoard(p.position, null, true));
      li.addEventListener("mouseleave", () => shown && drawBoard(shown.position, shown, false));
      ol.appendChild(li);
    }
    if (l.over) {
      const li = document.createElement("li");
      li.textContent = `终局 ${OVER[l.over]}`;
      ol.appendChild(li);
    }
  } catch (e) {
    setBusy(false);
    showError(e);
  }
}

function wire() {
  $("pass").addEventListener("click", () => play("pass"));
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", () => {
    if (game.cursor < game.moves.length) { game.cursor++; refresh(); }
  });
  $("random").addEventListener("click", () => newGame(randomOpening(Number($("slots").value))));
  $("fair").addEventListener("click", async () => {
    try {
      setBusy(true);
      const f = await api(`/api/fair-start?slots=${$("slots").value}`);
      newGame(f.position);
    } catch (e) {
      setBusy(false);
      showError(e);
    }
  });
  $("load").addEventListener("click", () => loadText($("paste").value));
  // A position is one line: Enter loads it; a cfg file has several, so
  // Shift+Enter makes a new line and Ctrl+Enter always loads.
  $("paste").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || !e.shiftKey)) {
      e.preventDefault();
      loadText($("paste").value);
    }
  });
  $("cfg-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    if (file.size > 65536) return showError(new Error(`${file.name} is larger than 65536 bytes: not a chaosclock.cfg`));
    const text = await file.text();
    $("paste").value = text;
    loadText(text);
  });
  $("copy").addEventListener("click", async () => {
    const text = $("position").textContent;
    try { await navigator.clipboard.writeText(text); } catch (_) { $("paste").value = text; }
  });
  $("bestline").addEventListener("click", showBestLine);
  for (const r of document.querySelectorAll('input[name="mode"]')) {
    r.addEventListener("change", () => {
      mode = r.value;
      // Playing goes on from the position shown: the moves after it go.
      if (mode !== "analysis") {
        game.moves = game.moves.slice(0, game.cursor);
        game.marks = game.marks.slice(0, game.cursor);
      }
      refresh();
    });
  }
  document.addEventListener("mousemove", () => { previews = true; });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA") return;
    if (e.key === "ArrowLeft") $("undo").click();
    if (e.key === "ArrowRight") $("redo").click();
  });
}

async function start() {
  const u = new URL(location.href);
  const m = u.searchParams.get("mode");
  if (m && ["analysis", "play-jia", "play-yi"].includes(m)) {
    mode = m;
    document.querySelector(`input[name="mode"][value="${m}"]`).checked = true;
  }
  const pos = u.searchParams.get("pos") || "2,8,11,9,4,12,10,6,5,7,1,3;1;0";
  const asked = (u.searchParams.get("moves") || "").split(",").filter((x) => x.trim());
  // Draw the board at once; the moves come when the server answers.
  if (!asked.length && /^[0-9,;-]+$/.test(pos)) {
    drawBoard(pos, null, false);
    setBusy(true);
  }
  try {
    const a = await api(`/api/position?pos=${encodeURIComponent(pos)}`);
    cache.set(a.position, a);
    game.start = a.position;
    $("slots").value = String(parsePosition(a.position).n);
  } catch (e) {
    // The first answer failed (busy, over the budget): say so, and offer
    // to ask again.
    setBusy(false);
    showError(e, () => { showError(null); $("board").replaceChildren(); start(); });
    return;
  }
  // The legal moves of the URL, up to the first that is not (issue 22:
  // one bad move must not lose the game).
  const moves = [];
  let refused = null;
  const kept = () => (moves.length === 1 ? "kept the move before it" : `kept the ${moves.length} moves before it`);
  try {
    let at = game.start;
    for (const text of asked) {
      const mv = normalMove(text);
      const a = await answer(at);
      const m = mv && a.moves.find((x) => x.move === mv);
      if (!m) {
        refused = `move ${moves.length + 1} '${text}' is illegal in ${at}: ${kept()}`;
        break;
      }
      moves.push(mv);
      at = m.position;
    }
  } catch (e) {
    refused = `${e.message || e}: ${kept()}`;
  }
  game.moves = moves;
  game.cursor = moves.length;
  if (moves.length) {
    // The marks of a shared game, from the server's analysis.
    api(`/api/analyse?pos=${encodeURIComponent(game.start)}&moves=${moves.join(",")}`)
      .then((r) => { game.marks = r.plies.map((p) => (p.mistake ? "mistake" : p.only ? "only" : "")); drawHistory(); })
      .catch(() => {});
  }
  await refresh();
  if (refused) showError(new Error(refused));
}

wire();
start();
