// Bring your own game (issue 66): 载入 of a game record, a link or a
// position followed by moves (record.js reads them); 导出 of the whole
// tree as a record; and the whole-game report (#report) of the main line
// from /api/analyse, its moves that fell marked in the history and on the
// graph (`reportDrawn`, called by app.js's redraw). Loaded before app.js;
// uses its game, cache, answer, newGame, setLine, goToNode and copyText
// when called. Its words are added to i18n.js's here.
"use strict";

Object.assign(WORDS.zh, {
  export: "导出",
  comment: "注释",
  report: "报告",
  "report.side": "方",
  "report.accuracy": "准确率",
  "report.inaccuracy": "欠佳",
  "report.mistake": "失误",
  "report.blunder": "败着",
  "report.decisive": "决定胜负的一着：{0}",
  "report.none": "无：没有一着改变局面的结果",
  "report.empty": "走几步后这里给出整局报告。",
  "report.wait": "计算报告中…",
  "report.fall": "第 {0} 步 {1} {2}：{3}",
  "fall.inaccuracy": "欠佳",
  "fall.mistake": "失误",
  "fall.blunder": "败着",
  "rec.error": "棋谱第 {0} 行第 {1} 列：{2}",
  "rec.comment-open": "注释没有以 } 结束",
  "rec.value-open": "标签值没有以 \" 结束",
  "rec.tag-name": "[ 后应是标签名",
  "rec.tag-value": "标签 [{0}] 缺少带引号的值",
  "rec.tag-close": "标签 [{0}] 没有以 ] 结束",
  "rec.tag-twice": "标签 [{0}] 出现了两次",
  "rec.tag-late": "标签应在着法之前",
  "rec.rule": "不认识的走法规则 '{0}'",
  "rec.rule-other": "本棋盘的规则是 {0}，棋谱是 {1}",
  "rec.start": "'{0}' 不是局面",
  "rec.start-bad": "起始局面不成立（{0}）",
  "rec.start-twice": "起始局面只能给一次，且在第一着之前",
  "rec.no-start": "没有起始局面：请给出 [Start] 标签或在着法前写局面",
  "rec.slots": "[Slots \"{0}\"] 与起始局面的 {1} 格不符",
  "rec.result-word": "'{0}' 不是结果",
  "rec.result": "结果 '{0}' 不对：主线的结果是 {1}",
  "rec.result-inside": "结果应写在主线末尾，不在变化里",
  "rec.after-result": "结果之后不能再有内容",
  "rec.unexpected": "多余的 '{0}'",
  "rec.variation-first": "变化必须跟在一着之后",
  "rec.deep": "变化嵌套超过 100 层",
  "rec.close": "')' 没有对应的 '('",
  "rec.empty": "变化里没有着法",
  "rec.unclosed": "这个变化没有以 ')' 结束",
  "rec.not-move": "'{0}' 不是着法（走N、落N、不走、棋子号或 pass）",
  "rec.ply": "步数 {0} 处应是第 {1} 步",
  "rec.walk-off": "'{0}' 走棋子 {1}，但它不在盘上",
  "rec.place-on": "'{0}' 落棋子 {1}，但它在盘上",
  "rec.illegal": "'{0}' 在 {1} 不合法：{2}",
  "rec.claim": "'{0}' 与实际不符：应为 {1}",
  "rec.repeat": "第 {0} 步 {1} 已在此处，变化重复了它",
  "rec.why.over": "对局已结束",
  "rec.why.piece": "没有这个棋子",
  "rec.why.hand": "这个棋子不能这样走",
  "rec.why.fixed": "棋子已正位，不能再动",
  "rec.why.banned": "对方上一步刚走过它",
  "rec.why.blocked": "会落在正位的棋子上",
  "rec.why.pass": "只有无棋可走时才能不走",
  "rec.link": "链接中的着法不合法：{0}",
});
Object.assign(WORDS.en, {
  export: "Export",
  comment: "Comment",
  report: "Report",
  "report.side": "Side",
  "report.accuracy": "Accuracy",
  "report.inaccuracy": "Inaccuracies",
  "report.mistake": "Mistakes",
  "report.blunder": "Blunders",
  "report.decisive": "The move that decided the game: {0}",
  "report.none": "none: no move changed the value",
  "report.empty": "Play some moves to get a report on the whole game.",
  "report.wait": "Judging the game…",
  "report.fall": "ply {0} {1} {2}: {3}",
  "fall.inaccuracy": "inaccuracy",
  "fall.mistake": "mistake",
  "fall.blunder": "blunder",
  "rec.error": "record line {0}, column {1}: {2}",
  "rec.comment-open": "the comment is not closed by '}'",
  "rec.value-open": "the tag value is not closed by '\"'",
  "rec.tag-name": "expected a tag name after '['",
  "rec.tag-value": "expected the quoted value of tag [{0}]",
  "rec.tag-close": "tag [{0}] is not closed by ']'",
  "rec.tag-twice": "tag [{0}] is given twice",
  "rec.tag-late": "tags come before the moves",
  "rec.rule": "unknown pass rule '{0}'",
  "rec.rule-other": "this board plays pass rule {0}, the record {1}",
  "rec.start": "'{0}' is not a position",
  "rec.start-bad": "the start is not a position ({0})",
  "rec.start-twice": "the start is given once, before the first move",
  "rec.no-start": "no start position: give a [Start] tag or a position before the moves",
  "rec.slots": "[Slots \"{0}\"] disagrees with the start, which has {1} slots",
  "rec.result-word": "'{0}' is not a result",
  "rec.result": "result '{0}' is wrong: the main line ends {1}",
  "rec.result-inside": "the result comes after the main line, outside variations",
  "rec.after-result": "nothing may follow the result",
  "rec.unexpected": "unexpected '{0}'",
  "rec.variation-first": "a variation must follow a move",
  "rec.deep": "variations nested deeper than 100",
  "rec.close": "')' closes no variation",
  "rec.empty": "a variation holds no move",
  "rec.unclosed": "this variation is not closed by ')'",
  "rec.not-move": "'{0}' is not a move (走N, 落N, 不走, a piece number or pass)",
  "rec.ply": "ply number {0} where ply {1} comes",
  "rec.walk-off": "'{0}': piece {1} is not on the board",
  "rec.place-on": "'{0}': piece {1} is on the board",
  "rec.illegal": "'{0}' is illegal in {1}: {2}",
  "rec.claim": "'{0}' is not what the move does: it is {1}",
  "rec.repeat": "ply {0} {1} is already played here: a variation repeats it",
  "rec.why.over": "the game is over",
  "rec.why.piece": "there is no such piece",
  "rec.why.hand": "that piece cannot move so",
  "rec.why.fixed": "the piece is fixed and never moves",
  "rec.why.banned": "it was walked on the previous ply",
  "rec.why.blocked": "it would land on a fixed piece",
  "rec.why.pass": "passing only when no other move is legal",
  "rec.link": "a move of the link is illegal: {0}",
});

/** The tags of a loaded record, by its tree's root (for 导出). */
const recordTags = new WeakMap();

/** A move in the players' notation (走7吃11正位, 不走) in the page's words. */
function recWords(text) {
  const m = /^(?:(不走|pass)|(走|落)(\d+)(?:吃(\d+))?(正位)?(回手)?(再走)?)$/i.exec(text);
  if (!m) return text;
  if (m[1]) return t("n.pass");
  return t(m[2] === "走" ? "n.walk" : "n.place", m[3]) + (m[4] ? t("n.takes", m[4]) : "") +
    (m[5] ? t("n.fixed") : "") + (m[6] ? t("n.off") : "") + (m[7] ? t("n.again") : "");
}

/** The words of a reader's error, in the page's language (issue 66). */
function recordErrorText(e) {
  const args = e.args.map((a) => (a && a.move !== undefined ? recWords(a.move) : a));
  if (e.key === "rec.illegal") args[2] = t(`rec.why.${args[2]}`);
  return t("rec.error", e.line, e.column, t(e.key, ...args));
}

/** Whether `text` is for the record reader: a record (tags or a
 * comment first), or a position followed by moves. */
function isRecordText(text) {
  if (/^[[{]/.test(text)) return true;
  if (/[=]/.test(text)) return false;
  return text.replace(/\s*([,;])\s*/g, "$1").split(/[\s\u3000]+/).length > 1;
}

/** Loads `text` if it is a record or a link: true if it was one (done,
 * or its error shown; the board keeps its game on an error). */
async function loadRecordText(text) {
  let rec;
  const link = /^https?:\/\//.test(text) ? recLink(text) : null;
  try {
    if (link) {
      rec = recordRead(`${link.start} ${link.link.main.join(" ")}`);
      if (link.link.line) {
        let at = rec.root;
        for (const m of link.link.line) at = treeChild(at, normalMove(m) || m) || recReadMove(rec, at, m, 0);
      }
    } else if (isRecordText(text)) {
      rec = recordRead(text);
    } else return false;
  } catch (e) {
    if (!(e instanceof RecordError)) throw e;
    const words = recordErrorText(e);
    showError(new Error(link ? t("rec.link", words) : words));
    return true;
  }
  const my = ++token;
  try {
    showError(null);
    setBusy(true);
    const a = await api(`/api/position?pos=${queryText(rec.start)}`);
    if (my !== token) return true;
    cache.set(a.position, a);
    if (a.pass_rule && a.pass_rule !== rec.rule) throw new Error(t("rec.rule-other", a.pass_rule, rec.rule));
    // Every node's answer, so the history shows every variation.
    const todo = [[rec.root, a.position]];
    while (todo.length) {
      const [node, pos] = todo.pop();
      const an = await answer(pos);
      if (my !== token) return true;
      for (const c of node.children) {
        const m = an.moves.find((x) => x.move === c.move);
        if (m) todo.push([c, m.position]);
      }
    }
    setBusy(false);
    recordTags.set(rec.root, rec.tags);
    newGame(a.position);
    game.root = rec.root;
    setLine(link && link.link.line ? treeFollow(rec.root, link.link.line) || rec.root : rec.root);
  } catch (e) {
    if (my !== token || e.name === "AbortError") return true;
    setBusy(false);
    showError(e instanceof PageError ? new Error(t("rec.start-bad", e.text())) : e);
  }
  return true;
}

/** Sets the glyph of every move under `node` (at position `pos`) whose
 * values are known to the board's mark (?! ? ?? ! □), keeping a read
 * !! or !? where the board has none. */
function markGlyphs(node, pos) {
  const a = cache.get(pos);
  for (const c of node.children) {
    const m = a && a.moves.find((x) => x.move === c.move);
    if (!m) continue;
    const mark = markOf(a, c.move);
    const g = mark === "mistake" ? FALL_GLYPH[fallOf(a, c.move)] : { only: "!", forced: "□" }[mark];
    if (g || !["!!", "!?"].includes(c.glyph)) c.glyph = g;
    if (!c.glyph) delete c.glyph;
    markGlyphs(c, m.position);
  }
}

/** The record of the whole tree on the board. */
function exportRecord() {
  if (!game.root || !game.start) return "";
  // While the evaluation is hidden in play, the board's marks would give it away.
  if (!evalHidden(shown)) markGlyphs(game.root, game.start);
  const a = cache.get(game.start);
  return recordWrite(game.root, game.start, recordTags.get(game.root) || [], (a && a.pass_rule) || "always");
}

/** 导出: copies the record and downloads it as a file. */
function exportClicked() {
  const text = exportRecord();
  if (!text) return;
  copyText($("export"), text);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  link.download = "chaosclock-game.txt";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** The report shown: its key (start and main line) and /api/analyse's answer. */
const report = { key: null, data: null, ctl: null };

/** Draws the report of the main line, asking for it when the line changed,
 * and marks its moves that fell in the history and on the graph. */
function reportDrawn() {
  const box = $("report");
  if (!box) return;
  drawCommentBox();
  const hidden = evalHidden(shown) || mode === "puzzle";
  box.hidden = hidden;
  if (hidden) {
    // Nothing of the last report stays in the page (issue 65).
    box.querySelector(".report-body").replaceChildren();
    delete box.dataset.ready;
    report.key = null;
  }
  if (hidden || !game.root) return;
  const main = treeContinue(game.root);
  const key = `${game.start}|${main.map((x) => x.move).join(",")}`;
  if (key !== report.key) {
    report.key = key;
    report.data = null;
    if (report.ctl) report.ctl.abort();
    if (main.length) {
      const ctl = new AbortController();
      report.ctl = ctl;
      fetch(`/api/analyse?pos=${queryText(game.start)}&moves=${main.map((x) => x.move).join(",")}`, { signal: ctl.signal })
        .then((r) => (r.ok ? r.json() : null))
        .then((d) => {
          if (report.key !== key) return;
          report.data = d;
          reportDrawn();
        })
        .catch(() => {});
    }
  }
  drawReport(box, main);
  // The comments of a loaded record, after their moves.
  for (const e of document.querySelectorAll("#history [data-node]")) {
    const node = treeFind(game.root, Number(e.dataset.node));
    if (!node || node.comment == null || e.querySelector(":scope > .comment")) continue;
    const c = document.createElement("span");
    c.className = "comment";
    c.textContent = node.comment;
    const vars = e.querySelector(":scope > .variations");
    e.insertBefore(c, vars);
  }
  // The game's comment, before the history.
  let gc = $("game-comment");
  if (!gc) {
    gc = document.createElement("p");
    gc.id = "game-comment";
    gc.className = "comment";
    $("history").before(gc);
  }
  gc.hidden = game.root.comment == null;
  gc.textContent = game.root.comment ?? "";
}

/** The comment box (`#comment`, opened by 注释 `#comment-edit`): the
 * comment of the current move, changed as it is typed (issue 66). */
const commentBox = { open: false, node: null };
function drawCommentBox() {
  const box = $("comment"), node = currentNode();
  box.hidden = !commentBox.open || $("tree-tools").hidden;
  $("comment-edit").setAttribute("aria-expanded", String(!box.hidden));
  if (node !== commentBox.node) {
    commentBox.node = node;
    box.value = (node && node.comment) || "";
  }
}
document.getElementById("comment-edit").addEventListener("click", () => {
  commentBox.open = !commentBox.open;
  drawCommentBox();
  if (commentBox.open) $("comment").focus();
});
document.getElementById("comment").addEventListener("input", (e) => {
  const node = commentBox.node, text = e.target.value;
  if (!node) return;
  if (text.trim()) node.comment = text;
  else delete node.comment;
  drawHistory();
  reportDrawn();
});

function drawReport(box, main) {
  const body = box.querySelector(".report-body");
  const d = report.data;
  body.replaceChildren();
  if (!main.length || !d) {
    body.textContent = main.length ? t("report.wait") : t("report.empty");
    box.dataset.ready = "";
    return;
  }
  const r = d.report;
  const table = document.createElement("table");
  table.className = "report-table";
  const head = ["report.side", "report.accuracy", "report.inaccuracy", "report.mistake", "report.blunder"];
  table.innerHTML = `<thead><tr>${head.map((k, i) => `<th>${t(k)}${["", "", " ?!", " ?", " ??"][i]}</th>`).join("")}</tr></thead>`;
  const tb = document.createElement("tbody");
  for (const side of ["jia", "yi"]) {
    const s = r[side];
    const tr = document.createElement("tr");
    tr.dataset.side = side;
    const acc = s.accuracy === null ? "–" : `${s.accuracy.toFixed(1)}%`;
    tr.innerHTML = `<td class="side ${side}">${t(side)}</td><td data-accuracy>${acc}</td><td>${s.inaccuracies}</td><td>${s.mistakes}</td><td>${s.blunders}</td>`;
    tb.append(tr);
  }
  table.append(tb);
  const decisive = document.createElement("p");
  decisive.className = "report-decisive";
  // The moves in the page's notation and language, where known.
  const texts = plies([game.root, ...main]).map((p) => p.text);
  const fallText = (f) => t("report.fall", f.ply, t(f.side), texts[f.ply - 1] || recWords(f.notation), t(`fall.${f.fall}`));
  decisive.textContent = t("report.decisive", r.decisive ? fallText(r.decisive) : t("report.none"));
  const list = document.createElement("ol");
  list.className = "report-falls";
  for (const f of r.falls) {
    const li = document.createElement("li");
    li.dataset.ply = String(f.ply);
    li.dataset.fall = f.fall;
    li.textContent = `${FALL_GLYPH[f.fall]} ${fallText(f)}`;
    const node = main[f.ply - 1];
    actionable(li, li.textContent, () => goToNode(node), null);
    list.append(li);
  }
  body.append(table, decisive, list);
  box.dataset.ready = "true";
  // The marks ?! ? ?? of the moves that fell, in the history and on the
  // graph, are app.js's (fallOf), variations' too.
}
