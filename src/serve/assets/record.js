// Game records on the board (issue 66; docs/notation.md "Game records"):
// the reader and writer of the library's `chaosclock::record`, in the
// page, with the rules they need to check moves and write them in the
// players' notation. `tests/browser_record.rs` checks that each reads
// what the other writes. A tree is tree.js's, a node may hold `comment`.
"use strict";

/** A position `{ n, board, side (0 甲, 1 乙), last }` from its text, or null. */
function recPos(text) {
  const parts = text.replace(/\s/g, "").split(";");
  if (parts.length > 3 || !/^[0-9]+(,[0-9]+)*$/.test(parts[0])) return null;
  const board = parts[0].split(",").map(Number);
  const n = board.length;
  if (n < 4 || n > 12 || n % 2 || board.some((x) => x > n)) return null;
  const side = parts.length > 1 ? Number(parts[1]) : 1;
  const last = parts.length > 2 ? Number(parts[2]) : 0;
  if (![0, 1].includes(side) || !Number.isInteger(last) || last < -2 || last > n) return null;
  return { n, board, side, last };
}

const recFixed = (p, q) => p.board[q - 1] === q;
const recComplete = (p, s) => { for (let q = 1 + s; q <= p.n; q += 2) if (!recFixed(p, q)) return false; return true; };

/** How the game is over in `p`: "jia-wins", "yi-wins", "both-win", "both-lose" or null. */
function recOver(p) {
  if (p.last === -2) return "both-lose";
  const m = recComplete(p, p.side), o = recComplete(p, 1 - p.side);
  if (m && o) return "both-win";
  if (m) return p.side === 0 ? "jia-wins" : "yi-wins";
  return null;
}

/** The piece that may not walk, or 0. */
function recBanned(p) {
  const k = p.last;
  return k > 0 && p.board.includes(k) && !recFixed(p, k) ? k : 0;
}

/** Why `mv` ({ kind: walk|place|pass, piece }) is illegal in `p` (a key
 * of i18n.js's "rec.why.*"), or "" if it is legal, under pass rule `rule`. */
function recIllegal(p, mv, rule) {
  if (recOver(p)) return "over";
  if (mv.kind === "pass") return rule === "when-stuck" && recLegal(p, rule).some((m) => m.kind !== "pass") ? "pass" : "";
  const k = mv.piece;
  if (k < 1 || k > p.n) return "piece";
  const s = p.board.indexOf(k) + 1;
  if (mv.kind === "walk") {
    if (!s) return "hand";
    if (s === k) return "fixed";
    if (recBanned(p) === k) return "banned";
    const t = ((s - 1 + k) % p.n) + 1;
    return k !== p.n && recFixed(p, t) ? "blocked" : "";
  }
  if (s === k) return "fixed";
  return s || k % 2 !== (p.side === 0 ? 1 : 0) ? "hand" : "";
}

/** The legal moves of `p`. */
function recLegal(p, rule) {
  if (recOver(p)) return [];
  const out = [];
  for (let k = 1; k <= p.n; k++) {
    for (const kind of ["walk", "place"]) if (!recIllegal(p, { kind, piece: k }, rule)) out.push({ kind, piece: k });
  }
  if (rule === "always" || !out.length) out.push({ kind: "pass", piece: 0 });
  return out;
}

/** The position after the legal move `mv`, and what it captured. */
function recPlay(p, mv) {
  const b = p.board.slice();
  const q = { n: p.n, board: b, side: 1 - p.side, last: 0, captured: 0 };
  if (mv.kind === "pass") { q.last = p.last === -1 ? -2 : -1; return q; }
  const k = mv.piece;
  if (mv.kind === "walk") {
    const s = b.indexOf(k) + 1;
    b[s - 1] = 0;
    if (k === p.n) return q;
    const t = ((s - 1 + k) % p.n) + 1;
    q.captured = b[t - 1];
    b[t - 1] = k;
    q.last = t === k ? 0 : k;
    return q;
  }
  q.captured = b[k - 1];
  b[k - 1] = k;
  // Taking an opponent's piece by placing earns another move.
  if (q.captured && q.captured % 2 !== k % 2) q.side = p.side;
  return q;
}

/** `p` in the interchange format. */
function recText(p) {
  return `${p.board.join(",")};${p.side};${p.last}`;
}

/** `mv` in the players' notation (走7吃11, 落2吃5再走, 走12回手, 走5正位, 不走). */
function recNotation(p, mv) {
  if (mv.kind === "pass") return "不走";
  const q = recPlay(p, mv), k = mv.piece;
  const took = q.captured ? `吃${q.captured}` : "";
  if (mv.kind === "place") return `落${k}${took}${q.side === p.side ? "再走" : ""}`;
  if (k === p.n) return `走${k}回手`;
  return `走${k}${took}${q.board[k - 1] === k ? "正位" : ""}`;
}

/** The API's text of a move: `7` or `pass`. */
const recApi = (mv) => (mv.kind === "pass" ? "pass" : String(mv.piece));

const REC_TAGS = [["Event", "?"], ["Date", "????.??.??"], ["Jia", "?"], ["Yi", "?"]];
const REC_DERIVED = ["Slots", "PassRule", "Start", "Result"];

/** `text` between `open` and `close`, `\` and `close` escaped. */
function recQuote(open, text, close) {
  let s = open;
  for (const c of text) s += c === "\\" || c === close ? `\\${c}` : c;
  return s + close;
}

/** The record of the tree under `root` from `start` (text), with `tags`
 * (`[[name, value]]`, standard ones first) and pass rule `rule`. */
function recordWrite(root, start, tags = [], rule = "always") {
  const p0 = recPos(start);
  const words = [];
  if (root.comment != null) words.push(recQuote("{", root.comment, "}"));
  const node = (p, c, ply) => {
    const mv = recMove(p, c.move);
    words.push(`${ply}. ${recNotation(p, mv)}${c.glyph || ""}`);
    if (c.comment != null) words.push(recQuote("{", c.comment, "}"));
    return recPlay(p, mv);
  };
  const line = (at, p, ply) => {
    while (at.children.length) {
      const main = at.children[0];
      const next = node(p, main, ply);
      for (const alt of at.children.slice(1)) {
        const open = words.length;
        line(alt, node(p, alt, ply), ply + 1);
        words[open] = `(${words[open]}`;
        words[words.length - 1] += ")";
      }
      at = main;
      p = next;
      ply++;
    }
    return p;
  };
  const end = line(root, p0, 1);
  const result = recOver(end) || "*";
  words.push(result);
  const known = new Map(tags);
  const all = REC_TAGS.map(([k, v]) => [k, known.has(k) ? known.get(k) : v]);
  all.push(["Slots", String(p0.n)], ["PassRule", rule], ["Start", recText(p0)], ["Result", result]);
  for (const [k, v] of tags) if (!REC_TAGS.some((x) => x[0] === k) && !REC_DERIVED.includes(k)) all.push([k, v]);
  let out = all.map(([k, v]) => `[${k} ${recQuote('"', v, '"')}]\n`).join("") + "\n";
  let width = 0;
  words.forEach((w, i) => {
    const len = [...w].length;
    if (i > 0) {
      if (width + 1 + len > 79) { out += "\n"; width = 0; } else { out += " "; width++; }
    }
    out += w;
    const nl = w.lastIndexOf("\n");
    width = nl >= 0 ? [...w.slice(nl + 1)].length : width + len;
  });
  return `${out}\n`;
}

/** The move of API text `text` in `p`. */
function recMove(p, text) {
  if (text === "pass") return { kind: "pass", piece: 0 };
  const k = Number(text);
  return { kind: p.board.includes(k) ? "walk" : "place", piece: k };
}

/** The annotation glyphs a move may end in, longest first (docs/notation.md). */
const REC_GLYPHS = ["!!", "!?", "?!", "??", "!", "?", "□"];

/** A move word without its glyph, and the glyph (as the library reads it). */
function recGlyph(text) {
  for (const g of REC_GLYPHS) {
    const r = text.slice(0, -g.length);
    if (text.endsWith(g) && r && !/[!?□]$/.test(r)) return [r, g];
  }
  return [text, null];
}

/** An error of the reader: where, and what (a key of i18n.js and its
 * arguments; a move among them is `{ move: text }`, worded by the page). */
class RecordError extends Error {
  constructor(at, key, args = []) {
    super(key);
    this.at = at;
    this.key = key;
    this.args = args;
  }
}

const recSpace = (c) => c === " " || c === "\t" || c === "\r" || c === "\n" || c === "\u3000" || c === "\ufeff";
const recDelim = (c) => recSpace(c) || "[]{}()\"".includes(c);
const REC_RESULTS = ["*", "jia-wins", "yi-wins", "both-win", "both-lose"];

/** Reads a record: `{ start, rule, tags, root }` (root: a tree.js tree,
 * nodes with `comment`), or throws a RecordError with `line`, `column`. */
function recordRead(text) {
  const ch = [...text];
  try {
    return recRead(ch);
  } catch (e) {
    if (!(e instanceof RecordError)) throw e;
    let line = 1, column = 1;
    for (const c of ch.slice(0, e.at)) { if (c === "\n") { line++; column = 1; } else column++; }
    e.line = line;
    e.column = column;
    throw e;
  }
}

function recRead(ch) {
  let i = 0;
  const skip = () => { while (i < ch.length && recSpace(ch[i])) i++; };
  const quoted = (open, close) => {
    let s = "";
    for (;;) {
      if (i >= ch.length) throw new RecordError(open, close === "}" ? "rec.comment-open" : "rec.value-open");
      const c = ch[i++];
      if (c === close) return s;
      if (c === "\\" && (ch[i] === close || ch[i] === "\\")) s += ch[i++];
      else s += c;
    }
  };
  const tags = [];
  for (;;) {
    skip();
    if (ch[i] !== "[") break;
    const open = i++;
    skip();
    const a = i;
    while (i < ch.length && /[A-Za-z0-9_]/.test(ch[i])) i++;
    if (a === i) throw new RecordError(i, "rec.tag-name");
    const name = ch.slice(a, i).join("");
    skip();
    if (ch[i] !== '"') throw new RecordError(i, "rec.tag-value", [name]);
    const at = i++;
    const value = quoted(at, '"');
    skip();
    if (ch[i] !== "]") throw new RecordError(open, "rec.tag-close", [name]);
    i++;
    if (tags.some((t) => t.name === name)) throw new RecordError(open, "rec.tag-twice", [name]);
    tags.push({ name, value, at: at + 1 });
  }
  const get = (name) => tags.find((t) => t.name === name);
  let rule = "always";
  if (get("PassRule")) {
    rule = get("PassRule").value;
    if (!["always", "when-stuck"].includes(rule)) throw new RecordError(get("PassRule").at, "rec.rule", [rule]);
  }
  let rec = null;
  const begin = (text, at) => {
    const p = recPos(text);
    if (!p) throw new RecordError(at, "rec.start", [text]);
    const slots = get("Slots");
    if (slots && slots.value.trim() !== String(p.n)) throw new RecordError(slots.at, "rec.slots", [slots.value, p.n]);
    const res = get("Result");
    if (res && !REC_RESULTS.includes(res.value)) throw new RecordError(res.at, "rec.result-word", [res.value]);
    const root = treeRoot();
    root.pos = p;
    root.ply = 0;
    rec = { start: recText(p), startAt: at, rule, root, tags: [] };
    for (const t of tags) if (!REC_DERIVED.includes(t.name)) rec.tags.push([t.name, t.value]);
  };
  if (get("Start")) begin(get("Start").value, get("Start").at);
  let rootComment = null;
  const frames = [];
  let at = rec ? rec.root : null;
  let result = null;
  const join = (old, text) => (old == null ? text : `${old} ${text}`);
  for (;;) {
    skip();
    if (i >= ch.length) break;
    const c = ch[i];
    if (result) throw new RecordError(i, "rec.after-result");
    const here = i;
    if (c === "[") throw new RecordError(here, "rec.tag-late");
    if ("]}\"".includes(c)) throw new RecordError(here, "rec.unexpected", [c]);
    if (c === "{") {
      i++;
      const text = quoted(here, "}");
      const f = frames[frames.length - 1];
      if (f && at === f.from) f.pending = join(f.pending, text);
      else if (rec && at !== rec.root) at.comment = join(at.comment, text);
      else rootComment = join(rootComment, text);
      continue;
    }
    if (c === "(") {
      i++;
      const f = frames[frames.length - 1];
      if (!rec || at === rec.root || (f && at === f.from)) throw new RecordError(here, "rec.variation-first");
      if (frames.length >= 100) throw new RecordError(here, "rec.deep");
      frames.push({ back: at, from: at.parent, open: here, pending: null });
      at = at.parent;
      continue;
    }
    if (c === ")") {
      i++;
      const f = frames.pop();
      if (!f) throw new RecordError(here, "rec.close");
      if (at === f.from) throw new RecordError(f.open, "rec.empty");
      at = f.back;
      continue;
    }
    const start = i;
    while (i < ch.length && !recDelim(ch[i])) i++;
    const word = ch.slice(start, i).join("");
    if (REC_RESULTS.includes(word)) {
      if (frames.length) throw new RecordError(start, "rec.result-inside");
      result = { at: start, value: word };
      continue;
    }
    if (word.includes(",") || word.includes(";")) {
      if (rec) throw new RecordError(start, "rec.start-twice");
      begin(word, start);
      at = rec.root;
      continue;
    }
    if (!rec) throw new RecordError(start, "rec.no-start");
    if (!at) at = rec.root;
    let mvText = word, mvAt = start;
    const dot = word.indexOf(".");
    if (dot >= 0) {
      const digits = word.slice(0, dot);
      if (!/^[0-9]+$/.test(digits)) throw new RecordError(start, "rec.not-move", [word]);
      const rest = word.slice(dot).replace(/^\.+/, "");
      const want = at.ply + 1;
      if (Number(digits) !== want) throw new RecordError(start, "rec.ply", [digits, want]);
      if (!rest) continue;
      mvAt = start + [...word.slice(0, word.length - rest.length)].length;
      mvText = rest;
    }
    const [bare, glyph] = recGlyph(mvText);
    const child = recReadMove(rec, at, bare, mvAt);
    if (glyph) child.glyph = glyph;
    const f = frames[frames.length - 1];
    if (f && at === f.from) { child.comment = f.pending; f.pending = null; if (child.comment == null) delete child.comment; }
    at = child;
  }
  if (frames.length) throw new RecordError(frames[frames.length - 1].open, "rec.unclosed");
  if (!rec) throw new RecordError(i, "rec.no-start");
  if (rootComment != null) rec.root.comment = rootComment;
  let end = rec.root;
  while (end.children.length) end = end.children[0];
  const truth = recOver(end.pos) || "*";
  const claims = [];
  if (get("Result")) claims.push({ at: get("Result").at, value: get("Result").value });
  if (result) claims.push(result);
  for (const cl of claims) if (cl.value !== truth) throw new RecordError(cl.at, "rec.result", [cl.value, truth]);
  return rec;
}

/** Plays the move written `text` at `at` (the reader's), returning the node. */
function recReadMove(rec, at, text, where) {
  const p = at.pos;
  let m = /^(?:(不走)|(pass)|([0-9]+)|(走|落)([0-9]+)((?:吃[0-9]+)?(?:正位)?(?:回手)?(?:再走)?))$/i.exec(text);
  const num = (s) => (/^[0-9]+$/.test(s) && Number(s) >= 1 && Number(s) <= 255 ? Number(s) : 0);
  if (m && (m[3] || m[5]) && !num(m[3] || m[5])) m = null;
  if (m && m[6] && /吃/.test(m[6]) && !num(m[6].replace(/^吃([0-9]+).*$/, "$1"))) m = null;
  if (!m) throw new RecordError(where, "rec.not-move", [text]);
  let mv;
  if (m[1] || m[2]) mv = { kind: "pass", piece: 0 };
  else if (m[3]) { const k = num(m[3]); mv = { kind: p.board.includes(k) ? "walk" : "place", piece: k }; }
  else {
    const k = num(m[5]);
    mv = { kind: m[4] === "走" ? "walk" : "place", piece: k };
    if (k <= p.n && !recOver(p)) {
      const on = p.board.includes(k);
      if (mv.kind === "walk" && !on) throw new RecordError(where, "rec.walk-off", [{ move: text }, k]);
      if (mv.kind === "place" && on) throw new RecordError(where, "rec.place-on", [{ move: text }, k]);
    }
  }
  const why = recIllegal(p, mv, rec.rule);
  if (why) throw new RecordError(where, "rec.illegal", [{ move: text }, recText(p), why, mv.piece]);
  const truth = recNotation(p, mv);
  if (m[6] && truth !== text) throw new RecordError(where, "rec.claim", [{ move: text }, { move: truth }]);
  const api = recApi(mv);
  if (treeChild(at, api)) throw new RecordError(where, "rec.repeat", [at.ply + 1, { move: truth }]);
  const c = treeAdd(at, api);
  c.pos = recPlay(p, mv);
  c.ply = at.ply + 1;
  return c;
}

/** The tree of a link the board made (`?pos=...&moves=...&line=...`):
 * `{ start, moves: [main], line }`, or null if `text` is no such link. */
function recLink(text) {
  let u;
  try { u = new URL(text.trim()); } catch (_) { return null; }
  const pos = u.searchParams.get("pos");
  if (!pos) return null;
  return { start: pos, link: treeParse((name) => u.searchParams.get(name)) };
}
