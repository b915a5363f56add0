// The words of the analysis board in Chinese (the default) and English,
// and moves in the players' notation (走7吃11, 落2吃5再走, 不走).
//
// Every text the page shows comes from `t(key, ...args)` in the language
// chosen (`lang`): the static text of index.html through its
// `data-i18n` (text) and `data-i18n-placeholder` attributes, the rest from
// app.js. A key missing in English falls back to Chinese.
"use strict";

const WORDS = {
  zh: {
    title: "混乱时钟 · 分析",
    h1: "混乱时钟",
    "mode.analysis": "分析",
    "mode.play-jia": "执甲",
    "mode.play-yi": "执乙",
    jia: "甲",
    yi: "乙",
    "hand.jia": "甲",
    "hand.yi": "乙",
    pass: "不走",
    undo: "↶ 悔棋",
    redo: "↷ 重做",
    slots: "格数",
    random: "随机开局",
    fair: "公平开局",
    paste: "局面，如 2,8,11,9,4,12,10,6,5,7,1,3；或 chaosclock.cfg 的内容（Ctrl+Enter 载入）",
    load: "载入",
    file: "文件",
    copy: "复制",
    position: "局面",
    "th.move": "着法",
    "th.result": "结果",
    "th.depth": "步数",
    bestline: "最佳变化",
    history: "棋谱",
    graph: "评估曲线",
    hint: "提示最佳着",
    "hide-eval": "对局时隐藏评估",
    level: "引擎等级",
    "level.8": "8（完美）",
    "legend.marks": "! 唯一着 · ? 失误",
    "v.4": "己赢", "v.3": "共赢", "v.2": "同输", "v.1": "己输", "v.0": "无果",
    "over.jia-wins": "甲胜", "over.yi-wins": "乙胜",
    "over.both-win": "共赢", "over.both-lose": "同输",
    "g.jia": "甲胜", "g.yi": "乙胜",
    "to-move": "{0}走棋",
    "to-move.short": "{0} 走",
    banned: "禁走 {0}",
    "banned.short": "禁 {0}",
    preview: "预览",
    "game-over": "终局：{0}",
    fixed: "{0} 正位",
    "may-not-walk": "{0} 本步禁走",
    "place.title": "落 {0}",
    plies: "{0} 步",
    "source.tables": "残局库",
    "source.solve": "求解",
    "source.book": "开局库",
    "eval-hidden": "评估已隐藏",
    busy: "计算中…",
    cancel: "取消",
    "progress.enumerating": "枚举局面：{0} 个",
    "progress.solving": "求解：{0}%，共 {1} 个局面",
    "progress.waiting": "等待求解器",
    "progress.book": "开局库：",
    seconds: "{0} 秒",
    error: "错误：{0}",
    retry: "重试",
    cancelled: "已取消",
    "http.400": "输入有误",
    "http.404": "找不到",
    "http.422": "这个局面超出服务器的求解预算",
    "http.500": "服务器出错",
    "http.503": "求解器正忙，请几秒后再试",
    "http.other": "请求失败（HTTP {0}）",
    "http.network": "无法连接服务器",
    "url-illegal": "第 {0} 步 '{1}' 在 {2} 不合法：{3}",
    "url-kept": "保留了之前的 {0} 步",
    "url-kept.1": "保留了之前的 1 步",
    "file-too-large": "{0} 超过 65536 字节，不是 chaosclock.cfg",
    "ply": "第 {0} 步",
    "summary.title": "对局结束",
    colon: "：",
    copied: "已复制",
    captured: "上一步吃掉的 {0}",
    "copy-link": "复制链接",
    back: "后退一步",
    forward: "前进一步",
    "copy-failed": "未能复制，链接在输入框里",
    "fair.none": "没有 {0} 格的共赢开局",
    "pos.invalid": "局面 '{0}' 不成立：{1}",
    "summary.won": "你赢了",
    "summary.lost": "你输了",
    "summary.both-win": "共赢",
    "summary.both-lose": "同输",
    "summary.mistakes": "你的失误：{0}",
    "summary.only": "你的唯一着：{0}",
    "summary.none": "无",
    "summary.analyse": "分析这盘",
    "summary.new": "新局",
    "n.pass": "不走",
    "n.walk": "走{0}",
    "n.takes": "吃{0}",
    "n.fixed": "正位",
    "n.off": "回手",
    "n.place": "落{0}",
    "n.again": "再走",
    "edit.open": "摆棋",
    "edit.clear": "清空",
    "edit.reset": "还原",
    "edit.to-hand": "回手",
    "edit.side": "走棋方",
    "edit.last": "上一步",
    "edit.last.none": "无（不禁走）",
    "edit.last.pass": "不走（再不走即同输）",
    "edit.last.double": "连续两次不走（同输）",
    "edit.last.piece": "走了 {0}（本步禁走 {0}）",
    "edit.analyse": "分析",
    "edit.play-jia": "执甲下",
    "edit.play-yi": "执乙下",
    "edit.close": "返回",
    "edit.slot": "第 {0} 格",
    "edit.help": "点手中或盘上的棋子选中，再点一个格子放下；再点一次选中的棋子，放回手中。",
    "edit.chosen.hand": "已选手中的 {0}：点一个格子放下",
    "edit.chosen.board": "已选盘上的 {0}：点一个格子移过去，再点它或点“回手”放回手中",
    "edit.checking": "检查中…",
    "edit.ok": "局面成立",
    "edit.invalid": "局面不成立：{0}",
  },
  en: {
    title: "Chaos Clock · analysis",
    h1: "Chaos Clock",
    "mode.analysis": "Analysis",
    "mode.play-jia": "Play 甲 (odd)",
    "mode.play-yi": "Play 乙 (even)",
    jia: "甲 (odd)",
    yi: "乙 (even)",
    "hand.jia": "甲 odd",
    "hand.yi": "乙 even",
    pass: "Pass",
    undo: "↶ Undo",
    redo: "↷ Redo",
    slots: "Slots",
    random: "Random opening",
    fair: "Fair start",
    paste: "position, e.g. 2,8,11,9,4,12,10,6,5,7,1,3, or the text of a chaosclock.cfg (Ctrl+Enter loads)",
    load: "Load",
    file: "File",
    copy: "Copy",
    position: "Position",
    "th.move": "Move",
    "th.result": "Result",
    "th.depth": "Depth",
    bestline: "Best line",
    history: "Moves played",
    graph: "Evaluation",
    hint: "Show the best move",
    "hide-eval": "Hide the evaluation while playing",
    level: "Engine level",
    "level.8": "8 (perfect)",
    "legend.marks": "! only move · ? mistake",
    "v.4": "self-win", "v.3": "both-win", "v.2": "both-lose", "v.1": "self-lose", "v.0": "no-result",
    "over.jia-wins": "甲 (odd) wins", "over.yi-wins": "乙 (even) wins",
    "over.both-win": "both win", "over.both-lose": "both lose",
    "g.jia": "甲 wins", "g.yi": "乙 wins",
    "to-move": "{0} to move",
    "to-move.short": "{0} to move",
    banned: "{0} may not walk",
    "banned.short": "banned: {0}",
    preview: "preview",
    "game-over": "Game over: {0}",
    fixed: "{0} fixed",
    "may-not-walk": "{0} may not walk this ply",
    "place.title": "place {0}",
    plies: "{0} plies",
    "source.tables": "tables",
    "source.solve": "solved",
    "source.book": "openings book",
    "eval-hidden": "evaluation hidden",
    busy: "Solving…",
    cancel: "Cancel",
    "progress.enumerating": "enumerating: {0} states",
    "progress.solving": "solving: {0}% of {1} states",
    "progress.waiting": "waiting for the solver",
    "progress.book": "openings book:",
    seconds: "{0} s",
    error: "Error: {0}",
    retry: "Retry",
    cancelled: "cancelled",
    "http.400": "bad input",
    "http.404": "not found",
    "http.422": "this position is over the server's solve budget",
    "http.500": "server error",
    "http.503": "the solver is busy: try again in a few seconds",
    "http.other": "the request failed (HTTP {0})",
    "http.network": "cannot reach the server",
    "url-illegal": "move {0} '{1}' is illegal in {2}: {3}",
    "url-kept": "kept the {0} moves before it",
    "url-kept.1": "kept the move before it",
    "file-too-large": "{0} is larger than 65536 bytes: not a chaosclock.cfg",
    "ply": "ply {0}",
    "summary.title": "Game over",
    colon: ": ",
    copied: "Copied",
    captured: "{0}, taken by the last move",
    "copy-link": "Copy link",
    back: "Back one move",
    forward: "Forward one move",
    "copy-failed": "could not copy: the link is in the box",
    "fair.none": "no {0}-slot opening is both-win",
    "pos.invalid": "position '{0}' is impossible: {1}",
    "summary.won": "You won",
    "summary.lost": "You lost",
    "summary.both-win": "Both win",
    "summary.both-lose": "Both lose",
    "summary.mistakes": "Your mistakes: {0}",
    "summary.only": "Your only moves: {0}",
    "summary.none": "none",
    "summary.analyse": "Analyse this game",
    "summary.new": "New game",
    "n.pass": "pass",
    "n.walk": "walk {0}",
    "n.takes": " takes {0}",
    "n.fixed": ", fixed",
    "n.off": " off the board",
    "n.place": "place {0}",
    "n.again": ", moves again",
    "edit.open": "Board editor",
    "edit.clear": "Clear",
    "edit.reset": "Reset",
    "edit.to-hand": "To hand",
    "edit.side": "To move",
    "edit.last": "Last ply",
    "edit.last.none": "none (no piece banned)",
    "edit.last.pass": "a pass (another ends the game)",
    "edit.last.double": "two passes (both lose)",
    "edit.last.piece": "{0} walked ({0} may not walk)",
    "edit.analyse": "Analyse",
    "edit.play-jia": "Play 甲",
    "edit.play-yi": "Play 乙",
    "edit.close": "Back",
    "edit.slot": "slot {0}",
    "edit.help": "Tap a piece in a hand or on the board, then a slot to put it there; tap the chosen piece again to put it back in its hand.",
    "edit.chosen.hand": "{0} from the hand: tap a slot to put it there",
    "edit.chosen.board": "{0} chosen: tap a slot to move it, or tap it again or To hand to put it back in its hand",
    "edit.checking": "checking…",
    "edit.ok": "a legal position",
    "edit.invalid": "not a position: {0}",
  },
};

/** The languages, and the one chosen: the URL's `lang`, else the last
 * choice on this browser, else Chinese. */
const LANGS = ["zh", "en"];
let lang = (() => {
  const asked = new URL(location.href).searchParams.get("lang");
  if (LANGS.includes(asked)) return asked;
  try {
    const saved = localStorage.getItem("chaosclock.lang");
    if (LANGS.includes(saved)) return saved;
  } catch (_) { /* no storage: the default */ }
  return "zh";
})();

/** The text of `key` in the chosen language, with `{0}`, `{1}`, ...
 * replaced by `args` (a function among them is called, so that it can
 * give words of the language chosen later). */
function t(key, ...args) {
  const text = WORDS[lang][key] ?? WORDS.zh[key] ?? key;
  return text.replace(/\{(\d)\}/g, (_, i) => {
    const a = args[Number(i)];
    return String(typeof a === "function" ? a() : a);
  });
}

/** A number with thousands separators. */
function count(n) {
  return Number(n).toLocaleString("en-US");
}

/** Writes the static text of the page in the chosen language. */
function applyWords() {
  document.documentElement.lang = lang === "zh" ? "zh-Hans" : "en";
  document.title = t("title");
  for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of document.querySelectorAll("[data-i18n-placeholder]")) {
    e.placeholder = t(e.dataset.i18nPlaceholder);
  }
  for (const e of document.querySelectorAll("[data-i18n-title]")) {
    e.title = t(e.dataset.i18nTitle);
    e.setAttribute("aria-label", e.title);
  }
  for (const b of document.querySelectorAll("[data-lang]")) {
    b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
  }
}

/** Move `m` of the API (a move object: `move`, `kind`, `captures`,
 * `extra_move`) played in the position `before` (parsed: `slots`, `n`),
 * in the players' notation of the chosen language: 走7吃11 (a walk and
 * what it took; 正位 when the piece lands on its own slot, 回手 when
 * piece N walks round and off the board), 落2吃5再走 (a placement, what
 * it took, and the extra move when that was the opponent's piece), 不走
 * (a pass). */
function notation(before, m) {
  if (m.kind === "pass") return t("n.pass");
  const k = Number(m.move);
  const took = m.captures ? t("n.takes", m.captures) : "";
  if (m.kind === "place") return t("n.place", k) + took + (m.extra_move ? t("n.again") : "");
  if (k === before.n) return t("n.walk", k) + t("n.off");
  const from = before.slots.indexOf(k) + 1;
  const to = ((from - 1 + k) % before.n) + 1;
  return t("n.walk", k) + took + (to === k ? t("n.fixed") : "");
}
