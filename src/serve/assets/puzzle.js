// The board's puzzle mode (`mode=puzzle`, issue 61), as lichess's puzzle
// trainer: a puzzle of /api/puzzle near the player's rating (and of the
// chosen size and theme) starts before the opponent's mistake, which is
// played on the board; the player looks for the only moves of its line
// (docs/puzzles.md), the opponent's replies come by themselves; a wrong
// move shows its value and the opponent's best reply to it. The player's
// Glicko-2 rating (glicko.js) and streak are kept in localStorage, with
// the history of the puzzles tried (#puzzle-history). Puzzle streak
// (`mode=streak`, issue 65): puzzles of rising rating, one after
// another, until the first miss; not rated, the best run kept.
//
// Loaded before app.js, whose hooks (`modeHooks`) it defines: app.js
// calls them where a mode takes part (the start, a move played, a
// position shown, the evaluation hidden, the URL, the mode chosen).
// A puzzle is a game of app.js: its start is the position before the
// mistake, its first move the mistake, then the line's moves.
"use strict";

/** The puzzle on the board and where the player is in it. `phase`:
 * idle (not in puzzle mode), loading, missing (a link to no puzzle),
 * intro (the mistake about to be played), solving, wrong (a wrong move
 * and its refutation shown), solution (the line being played), done. */
const puzzle = {
  p: null,
  phase: "idle",
  // null until the puzzle counts: "win", "loss", or "seen" (counted on an
  // earlier visit: it counts once).
  result: null,
  // A wrong move was played or the solution asked for.
  failed: false,
  // The rating before and after this puzzle counted.
  change: null,
  // A wrong move: its text, value, the line's step it replaced, the reply.
  wrong: null,
  // A move the page plays itself (the mistake, a reply, the solution),
  // not the player's.
  auto: false,
  timer: null,
  // The id of a link that names no puzzle (phase missing).
  missing: null,
  // Puzzle streak: null, or the run: puzzles solved, ids seen, over.
  streak: null,
  // The try is in the history.
  logged: false,
};

/** Where the player's puzzle record is kept. */
const PUZZLE_KEY = "chaosclock.puzzle";
/** Where the history of the puzzles tried is kept (the last 500). */
const HISTORY_KEY = "chaosclock.puzzle.history";
/** Puzzle streak: the rating of its first puzzle and the rise per
 * puzzle solved (the sets range over 500..1700). */
const STREAK_START = 600;
const STREAK_STEP = 50;
/** A new player: Glicko-2's deviation and volatility for a newcomer
 * (350, 0.06), and a rating of 1000, not 1500: on this scale (the
 * engines' levels, docs/levels.md) level 1 is 800 and the perfect engine
 * 1375, and the shipped puzzles range over 500..1689 with medians near
 * 1200; 1000 is a middle level, and a deviation of 350 moves it 200 to
 * 300 points after the first puzzles. */
const PUZZLE_NEWCOMER = { rating: 1000, rd: 350, vol: 0.06 };
/** The themes of docs/puzzles.md, in the order of the theme menu. */
const PUZZLE_THEMES = ["win", "both-win", "both-lose", "extra-move", "pass", "walk-n", "block",
  "finish", "one-move", "short", "long", "very-long"];
/** The sizes of the built-in puzzle sets. */
const PUZZLE_SIZES = [8, 10, 12];

/** The player's record: rating, deviation, volatility, streak, best
 * streak, puzzles played and solved, the ids counted (the last 2000), the
 * chosen size and theme. */
function puzzleRecord() {
  let r = null;
  try { r = JSON.parse(localStorage.getItem(PUZZLE_KEY)); } catch (_) { /* a new one */ }
  const fresh = { ...PUZZLE_NEWCOMER, streak: 0, best: 0, played: 0, solved: 0, seen: [], slots: 12, theme: "" };
  if (!r || typeof r !== "object" || !Number.isFinite(r.rating)) return fresh;
  const out = { ...fresh, ...r, seen: Array.isArray(r.seen) ? r.seen : [] };
  // Stale choices of an older page: the defaults.
  if (!PUZZLE_SIZES.includes(out.slots)) out.slots = fresh.slots;
  if (out.theme !== "" && !PUZZLE_THEMES.includes(out.theme)) out.theme = "";
  return out;
}

function savePuzzleRecord(r) {
  try { localStorage.setItem(PUZZLE_KEY, JSON.stringify(r)); } catch (_) { /* not kept */ }
}

/** The history of the puzzles tried, oldest first: id, size, the
 * puzzle's rating, result (win or loss), the rating change (null when it
 * did not count), themes, and whether it was a streak's. */
function puzzleHistory() {
  try {
    const h = JSON.parse(localStorage.getItem(HISTORY_KEY));
    return Array.isArray(h) ? h.filter((e) => e && typeof e.id === "string") : [];
  } catch (_) {
    return [];
  }
}

/** Adds this try of the puzzle shown to the history, once. */
function logTry(outcome) {
  const p = puzzle.p;
  if (!p || puzzle.logged) return;
  puzzle.logged = true;
  const change = puzzle.change ? Math.round(puzzle.change.to) - Math.round(puzzle.change.from) : null;
  const entry = { id: p.id, slots: p.slots, rating: p.rating, result: outcome, change,
    themes: p.themes, streak: !!puzzle.streak };
  try {
    localStorage.setItem(HISTORY_KEY, JSON.stringify(puzzleHistory().concat(entry).slice(-500)));
  } catch (_) { /* not kept */ }
}

/** Puzzle streak: the puzzle solved or missed. A miss ends the run; the
 * best run is kept in the record (`streakBest`). Not rated. */
function countStreak(outcome) {
  const s = puzzle.streak;
  if (puzzle.result !== null) return;
  puzzle.result = outcome;
  if (outcome === "win") {
    s.count += 1;
    const r = puzzleRecord();
    if (s.count > (r.streakBest || 0)) savePuzzleRecord({ ...r, streakBest: s.count });
  } else {
    s.over = true;
  }
  logTry(outcome);
}

/** Counts the puzzle once: a win (solved at the first try) or a loss (a
 * wrong move, or the solution asked for), a Glicko-2 rating period of one
 * game against the puzzle's rating and deviation. */
function countPuzzle(outcome) {
  const p = puzzle.p;
  if (puzzle.result !== null || !p) return;
  if (puzzle.streak) return countStreak(outcome);
  const r = puzzleRecord();
  if (r.seen.includes(p.id)) {
    puzzle.result = "seen";
    logTry(outcome);
    return;
  }
  const score = outcome === "win" ? 1 : 0;
  const next = glicko2(r, [{ rating: p.rating, rd: p.rating_deviation, score }]);
  puzzle.change = { from: r.rating, to: next.rating };
  Object.assign(r, next);
  r.streak = score ? r.streak + 1 : 0;
  r.best = Math.max(r.best, r.streak);
  r.played += 1;
  r.solved += score;
  r.seen = r.seen.concat(p.id).slice(-2000);
  savePuzzleRecord(r);
  puzzle.result = outcome;
  logTry(outcome);
}

/** Runs `act` after `ms`, unless the page has shown something else since. */
function puzzleLater(act, ms) {
  clearTimeout(puzzle.timer);
  const my = token;
  puzzle.timer = setTimeout(() => {
    if (my === token && mode === "puzzle" && !busy) act();
  }, ms);
}

/** Plays `move` for the puzzle (not as the player's move). */
function puzzleAuto(move) {
  puzzle.auto = true;
  try { play(move); } finally { puzzle.auto = false; }
}

/** Asks /api/puzzle for a puzzle: by `id`, else near the player's rating
 * in the chosen size and theme (one not counted yet, if a few draws find
 * one), and starts it. */
async function loadPuzzle(id) {
  clearTimeout(puzzle.timer);
  const r = puzzleRecord();
  puzzle.phase = "loading";
  drawPuzzle();
  const my = ++token;
  try {
    showError(null);
    setBusy(true);
    let p = null;
    if (id) {
      p = await api(`/api/puzzle?id=${encodeURIComponent(id)}`);
    } else if (puzzle.streak) {
      // Rising ratings, none twice in a run.
      const s = puzzle.streak;
      const rating = STREAK_START + STREAK_STEP * s.count;
      for (let i = 0; i < 5 && (!p || s.ids.includes(p.id)); i++) {
        const seed = Math.floor(Math.random() * 2 ** 31);
        p = await api(`/api/puzzle?slots=${r.slots}&rating=${rating}&seed=${seed}`);
      }
      s.ids.push(p.id);
    } else {
      const theme = r.theme ? `&theme=${encodeURIComponent(r.theme)}` : "";
      for (let i = 0; i < 5 && (!p || r.seen.includes(p.id)); i++) {
        const seed = Math.floor(Math.random() * 2 ** 31);
        p = await api(`/api/puzzle?slots=${r.slots}&rating=${Math.round(Math.max(0, r.rating))}${theme}&seed=${seed}`);
      }
    }
    if (my !== token) return;
    setBusy(false);
    startPuzzle(p);
  } catch (e) {
    if (my !== token || e.name === "AbortError") return;
    setBusy(false);
    if (id && e instanceof PageError && e.status === 400) {
      // A link to no puzzle: said so, and the next puzzle offered.
      Object.assign(puzzle, { p: null, phase: "missing", missing: id });
      drawPuzzle();
      return;
    }
    if (!id && !puzzle.streak && r.theme && e instanceof PageError && !e.retryable()) {
      // No puzzle of the theme at this size: any theme, and said so.
      savePuzzleRecord({ ...r, theme: "" });
      loadPuzzle().then(() => { puzzle.notice = { theme: r.theme, slots: r.slots }; drawPuzzle(); });
      return;
    }
    showError(e, () => { showError(null); loadPuzzle(id); });
  }
}

/** Starts puzzle `p`: the position before the mistake, then the mistake. */
function startPuzzle(p) {
  Object.assign(puzzle, { p, phase: "intro", result: null, failed: false, change: null, wrong: null,
    missing: null, logged: false, notice: null });
  const r = puzzleRecord();
  if (r.seen.includes(p.id)) puzzle.result = "seen";
  // The next puzzles are of this one's size (a link may name another).
  if (r.slots !== p.slots) savePuzzleRecord({ ...r, slots: p.slots });
  newGame(p.before);
  drawPuzzle();
}

/** The line's moves played so far, if the game is on the line. */
function puzzleStep() {
  const p = puzzle.p;
  const on = game.moves[0] === p.mistake && game.moves.slice(1).every((m, i) => m === p.moves[i]);
  return on ? game.moves.length - 1 : -1;
}

/** The puzzle is over: the values show, and it counts as a win if
 * nothing went wrong. */
function finishPuzzle() {
  countPuzzle("win");
  puzzle.phase = "done";
  redraw();
  // A streak goes on by itself.
  if (puzzle.streak && !puzzle.streak.over) puzzleLater(nextPuzzle, 1500);
}

/** Back to the position where the wrong move was played. */
function retryPuzzle() {
  if (puzzle.phase !== "wrong" || busy || puzzle.streak) return;
  const keep = puzzle.wrong.step + 1;
  puzzle.phase = "solving";
  puzzle.wrong = null;
  cutLine(keep);
  refresh();
}

/** Plays the rest of the line from where the player left it; the puzzle
 * counts as a loss. */
function showSolution() {
  if (busy) return;
  // Looking back during the solution: on to where it stopped.
  if (puzzle.phase === "solution") return goTo(game.moves.length);
  if (!["solving", "wrong"].includes(puzzle.phase)) return;
  countPuzzle("loss");
  puzzle.failed = true;
  const keep = puzzle.phase === "wrong" ? puzzle.wrong.step + 1 : Math.max(1, puzzleStep() + 1);
  puzzle.phase = "solution";
  puzzle.wrong = null;
  cutLine(keep);
  refresh();
}

/** The next puzzle, near the rating as it is now. */
function nextPuzzle() {
  if (mode !== "puzzle") return;
  if (puzzle.streak && puzzle.streak.over) puzzle.streak = null;
  loadPuzzle(null);
}

/** Starts a puzzle streak, or leaves the one under way for rated
 * puzzles. */
function toggleStreak() {
  if (mode !== "puzzle") return;
  puzzle.streak = puzzle.streak && !puzzle.streak.over ? null : { count: 0, ids: [], over: false };
  loadPuzzle(null);
}

/** The move `move` of the API's answer `a`, in the players' notation. */
function puzzleMoveText(a, move) {
  const m = a && a.moves.find((x) => x.move === move);
  return m ? notation(parsePosition(a.position), m) : move === "pass" ? t("n.pass") : move;
}

/** The line from the puzzle position, as far as its positions are known. */
function puzzleLineText() {
  const p = puzzle.p;
  let pos = p.position;
  const out = [];
  for (const mv of p.moves) {
    const a = cache.get(pos);
    out.push(`${t(a ? a.side : p.side)} ${puzzleMoveText(a, mv)}`);
    const m = a && a.moves.find((x) => x.move === mv);
    if (!m) break;
    pos = m.position;
  }
  return out.join(t("puzzle.sep"));
}

/** Whether the board shows an earlier position of the puzzle than the
 * last one played (◀, ←, Home): no move can be played there. */
function puzzleReviewing() {
  const p = puzzle.p;
  return !!p && ["solving", "wrong", "solution"].includes(puzzle.phase) &&
    game.start === p.before && game.cursor < game.moves.length;
}

/** Draws the puzzle panel: the player's rating, the puzzle, the task or
 * the verdict, and the buttons of the phase. */
function drawPuzzle() {
  const box = document.getElementById("puzzle");
  const on = mode === "puzzle";
  box.hidden = !on;
  document.body.classList.toggle("mode-puzzle", on);
  const solving = on && !["done", "idle", "missing"].includes(puzzle.phase);
  document.body.classList.toggle("puzzle-solving", solving);
  if (!on) return;
  const r = puzzleRecord();
  const player = document.getElementById("puzzle-player");
  const streak = puzzle.streak;
  player.textContent = streak
    ? t("streak.you", streak.count, r.streakBest || 0)
    : t("puzzle.you", Math.round(r.rating), Math.round(r.rd), r.streak, r.played);
  Object.assign(player.dataset, { rating: r.rating.toFixed(2), rd: r.rd.toFixed(2), streak: r.streak });
  box.dataset.streak = streak ? String(streak.count) : "";
  box.dataset.streakOver = streak && streak.over ? "1" : "";
  // The menus: size and theme, in the words of the language chosen.
  document.getElementById("puzzle-slots").value = String(r.slots);
  const menu = document.getElementById("puzzle-theme");
  if (menu.dataset.lang !== lang) {
    menu.replaceChildren();
    for (const name of [""].concat(PUZZLE_THEMES)) {
      const o = document.createElement("option");
      o.value = name;
      o.textContent = name ? t(`theme.${name}`) : t("puzzle.any");
      menu.append(o);
    }
    menu.dataset.lang = lang;
  }
  menu.value = streak ? "" : r.theme;
  menu.disabled = !!streak;
  const p = puzzle.p;
  const phase = puzzle.phase;
  const review = puzzleReviewing();
  box.dataset.phase = phase;
  box.dataset.review = review ? "1" : "";
  box.dataset.id = p ? p.id : "";
  const title = document.getElementById("puzzle-title");
  const mistake = document.getElementById("puzzle-mistake");
  const task = document.getElementById("puzzle-task");
  const feedback = document.getElementById("puzzle-feedback");
  for (const e of [title, mistake, task, feedback]) e.replaceChildren();
  feedback.dataset.result = "";
  const over = streak && streak.over;
  const buttons = { retry: phase === "wrong" && !streak && !review,
    solution: ["solving", "wrong"].includes(phase) || (phase === "solution" && review),
    next: (phase === "done" || phase === "wrong" || phase === "missing") && !over,
    analyse: phase === "done" };
  for (const [name, visible] of Object.entries(buttons)) {
    document.getElementById(`puzzle-${name}`).hidden = !visible;
  }
  const solutionButton = document.getElementById("puzzle-solution");
  solutionButton.textContent = t(phase === "solution" ? "puzzle.continue" : "puzzle.solution");
  const streakButton = document.getElementById("puzzle-streak");
  streakButton.textContent = t(streak && !over ? "streak.leave" : "streak.start");
  drawPuzzleHistory();
  if (phase === "missing") {
    title.textContent = t("puzzle.missing", puzzle.missing);
    return;
  }
  if (!p || phase === "loading") {
    title.textContent = t("puzzle.loading");
    return;
  }
  // The puzzle's rating shows once it is over (as on lichess).
  const name = streak ? t("streak.title", streak.count + (phase === "done" && !over ? 0 : 1)) : t("puzzle.title", p.id);
  title.textContent = phase === "done" ? `${name} · ${t("puzzle.rating", p.rating)}` : name;
  const before = cache.get(p.before);
  const them = p.side === "jia" ? "yi" : "jia";
  mistake.textContent = t("puzzle.mistake", t(them), puzzleMoveText(before, p.mistake));
  const kept = valueBadge(p.value);
  const length = p.length === 1 ? t("puzzle.length.1") : t("puzzle.length", p.length);
  task.innerHTML = `${t(p.value === 2 ? "puzzle.task.lose" : "puzzle.task", t(p.side), kept)}${length}`;
  const step = puzzleStep();
  const forced = p.forced || [];
  if (review) {
    // ◀ ← Home: an earlier position, where nothing can be played.
    feedback.dataset.result = "review";
    feedback.textContent = t(phase === "solution" ? "puzzle.review.solution" : "puzzle.review");
  } else if (phase === "solving" && step > 0 && step < p.moves.length) {
    const again = p.solver[step] && p.solver[step - 1];
    feedback.dataset.result = "right";
    const words = forced[step - 1] ? t("puzzle.forced", puzzleMoveText(cache.get(positionAt(step)), p.moves[step - 1]))
      : t("puzzle.right");
    feedback.textContent = `${words}${again && !forced[step] ? t("puzzle.again") : ""}`;
  } else if (phase === "intro" || (phase === "solving" && step === 0 && p.solver[0])) {
    const n = puzzle.notice;
    feedback.textContent = n ? t("puzzle.no-theme", t(`theme.${n.theme}`), n.slots) : "";
  } else if (phase === "solution") {
    feedback.textContent = t("puzzle.showing");
  } else if (phase === "wrong") {
    const w = puzzle.wrong;
    feedback.dataset.result = "wrong";
    let html = t("puzzle.wrong", puzzleMoveText(w.before, w.move), valueBadge(w.value));
    if (w.reply) html += t("puzzle.refute", `${t(w.reply.a.side)} ${puzzleMoveText(w.reply.a, w.reply.move)}`);
    else if (w.again) html += t("puzzle.refute.again");
    if (over) html += ` ${t("streak.over", streak.count)}`;
    feedback.innerHTML = html;
  } else if (phase === "done") {
    const solved = !puzzle.failed;
    feedback.dataset.result = solved ? "solved" : "failed";
    const parts = [solved ? t("puzzle.solved") : t("puzzle.failed", puzzleLineText())];
    if (puzzle.change) {
      const { from, to } = puzzle.change;
      const d = Math.round(to) - Math.round(from);
      parts.push(t("puzzle.change", Math.round(from), Math.round(to), d >= 0 ? `+${d}` : `${d}`));
    } else if (puzzle.result === "seen") {
      parts.push(t("puzzle.seen"));
    }
    if (over) parts.push(t("streak.over", streak.count));
    else if (streak) parts.push(t("streak.on"));
    parts.push(t("puzzle.themes", p.themes.map((x) => t(`theme.${x}`)).join(t("puzzle.sep"))));
    feedback.textContent = parts.join(" ");
  }
  // Right or wrong on the board too, under who is to move: on a phone the
  // panel is below the board.
  const board = document.getElementById("board");
  const old = document.getElementById("puzzle-mark");
  if (old) old.remove();
  const verdict = feedback.dataset.result;
  if (["right", "wrong", "solved"].includes(verdict) && board.querySelector(".center")) {
    const mark = el("text", { x: 200, y: 242, id: "puzzle-mark", class: `puzzle-mark ${verdict}` }, board);
    mark.dataset.result = verdict;
    mark.textContent = t(`puzzle.mark.${verdict}`);
  }
}

/** Draws the history: the puzzles tried, newest first, each with its
 * result, rating change and a link back; the count by theme. */
function drawPuzzleHistory() {
  const h = puzzleHistory();
  const box = document.getElementById("puzzle-history");
  box.dataset.count = String(h.length);
  document.getElementById("puzzle-history-title").textContent = t("history.title", h.length);
  document.getElementById("puzzle-history-clear").hidden = h.length === 0;
  const list = document.getElementById("puzzle-history-list");
  list.replaceChildren();
  for (const e of h.slice(-50).reverse()) {
    const li = document.createElement("li");
    li.dataset.id = e.id;
    li.dataset.result = e.result;
    const a = document.createElement("a");
    a.href = `?mode=puzzle&puzzle=${encodeURIComponent(e.id)}${lang !== "zh" ? `&lang=${lang}` : ""}`;
    a.textContent = e.id;
    const change = e.change === null || e.change === undefined ? ""
      : ` ${e.change >= 0 ? "+" : ""}${e.change}`;
    li.append(`${e.result === "win" ? "✓" : "✗"} `, a,
      ` ${t("history.entry", e.slots, e.rating)}${change}${e.streak ? ` ${t("history.streak")}` : ""}`);
    list.append(li);
  }
  const counts = new Map();
  for (const e of h) {
    for (const th of e.themes || []) {
      const c = counts.get(th) || { solved: 0, tried: 0 };
      c.tried += 1;
      c.solved += e.result === "win" ? 1 : 0;
      counts.set(th, c);
    }
  }
  const table = document.getElementById("puzzle-history-themes");
  table.replaceChildren();
  for (const th of PUZZLE_THEMES.filter((x) => counts.has(x))) {
    const { solved, tried } = counts.get(th);
    const tr = document.createElement("tr");
    tr.dataset.theme = th;
    tr.dataset.solved = String(solved);
    tr.dataset.tried = String(tried);
    for (const text of [t(`theme.${th}`), `${solved} / ${tried}`]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    table.append(tr);
  }
}

/** The side the player may not move for now: the opponent while
 * solving, whoever is to move while the page plays (nothing can be
 * clicked), nobody once the puzzle is over (the board is free). */
function puzzleEngineSide() {
  const ph = puzzle.phase;
  if (ph === "done" || ph === "idle" || !puzzle.p) return null;
  if (ph === "solving") return puzzle.p.side === "jia" ? "yi" : "jia";
  return shown ? shown.side : null;
}

/** A move of the player (from the board, the pass button): the right one
 * goes on; a wrong one is played and shown with its value and the
 * opponent's best reply. True if the move is refused. */
function puzzlePlay(move) {
  if (mode !== "puzzle" || puzzle.auto) return false;
  const ph = puzzle.phase;
  if (ph === "done" || ph === "idle") return false;
  const p = puzzle.p;
  const step = puzzleStep();
  if (ph !== "solving" || !shown || shown.side !== p.side || step < 0 ||
    game.cursor !== game.moves.length || shown.position !== positionAt(game.cursor)) return true;
  if (move === p.moves[step]) return false;
  const m = shown.moves.find((x) => x.move === move);
  if (!m) return true;
  puzzle.wrong = { step, move, before: shown, value: m.value, again: m.extra_move, reply: null };
  puzzle.phase = "wrong";
  puzzle.failed = true;
  countPuzzle("loss");
  drawPuzzle();
  return false;
}

/** A position was shown at the end of the game: the page plays the
 * mistake, the opponent's replies, the refutation or the solution. */
function puzzleShown(a) {
  const p = puzzle.p;
  if (!p || game.start !== p.before || game.cursor !== game.moves.length) return;
  const step = puzzleStep();
  switch (puzzle.phase) {
    case "intro":
      if (game.cursor === 0) puzzleLater(() => puzzleAuto(p.mistake), 700);
      else {
        // The board takes the player's moves from now on.
        puzzle.phase = "solving";
        redraw();
        puzzleShown(a);
      }
      break;
    case "solving":
      if (step < 0) break;
      if (step >= p.moves.length) finishPuzzle();
      // The opponent's replies, and the player's forced moves (the only
      // legal move: no puzzle move), are played for the player.
      else if (!p.solver[step] || (p.forced || [])[step]) puzzleLater(() => puzzleAuto(p.moves[step]), 500);
      break;
    case "wrong": {
      const w = puzzle.wrong;
      // After the wrong move the opponent's best reply (the API's first
      // move: best value, fastest win or slowest loss), played once.
      if (!w.reply && !a.over && a.side !== p.side && a.moves.length) {
        w.reply = { a, move: a.moves[0].move };
        puzzleLater(() => puzzleAuto(w.reply.move), 500);
      }
      break;
    }
    case "solution":
      if (step >= p.moves.length) finishPuzzle();
      else if (step >= 0) puzzleLater(() => puzzleAuto(p.moves[step]), 600);
      break;
    default:
      break;
  }
  drawPuzzle();
}

/** The page's URL in puzzle mode: the puzzle's id, so a link opens it. */
function puzzleUrl() {
  const q = [puzzle.streak ? "mode=streak" : "mode=puzzle"];
  if (puzzle.p && !puzzle.streak) q.push(`puzzle=${encodeURIComponent(puzzle.p.id)}`);
  if (lang !== "zh") q.push(`lang=${lang}`);
  return `${location.origin}${location.pathname}?${q.join("&")}`;
}

/** Enters puzzle mode (a new puzzle, or `id`, or a puzzle streak) or
 * leaves it. */
function puzzleMode(m, id, streak) {
  if (m !== "puzzle") {
    clearTimeout(puzzle.timer);
    puzzle.phase = "idle";
    puzzle.streak = null;
    drawPuzzle();
    return false;
  }
  puzzle.streak = streak ? { count: 0, ids: [], over: false } : null;
  mode = "puzzle";
  document.querySelector('input[name="mode"][value="puzzle"]').checked = true;
  document.getElementById("hint").checked = false;
  loadPuzzle(id);
  return true;
}

/** The hooks app.js calls (see the file's head). */
const modeHooks = {
  start: (u) => ["puzzle", "streak"].includes(u.searchParams.get("mode")) &&
    puzzleMode("puzzle", u.searchParams.get("puzzle"), u.searchParams.get("mode") === "streak"),
  mode: (m) => puzzleMode(m, null),
  play: puzzlePlay,
  shown: puzzleShown,
  drawn: drawPuzzle,
  engineSide: puzzleEngineSide,
  hideEval: () => !["done", "idle", "missing"].includes(puzzle.phase),
  url: puzzleUrl,
};

// The panel's controls.
document.getElementById("puzzle-retry").addEventListener("click", retryPuzzle);
document.getElementById("puzzle-solution").addEventListener("click", showSolution);
document.getElementById("puzzle-next").addEventListener("click", nextPuzzle);
document.getElementById("puzzle-analyse").addEventListener("click", () => setMode("analysis"));
document.getElementById("puzzle-streak").addEventListener("click", toggleStreak);
document.getElementById("puzzle-history-clear").addEventListener("click", () => {
  try { localStorage.removeItem(HISTORY_KEY); } catch (_) { /* nothing kept */ }
  drawPuzzleHistory();
});
for (const [id, key] of [["puzzle-slots", "slots"], ["puzzle-theme", "theme"]]) {
  document.getElementById(id).addEventListener("change", (e) => {
    const r = puzzleRecord();
    r[key] = key === "slots" ? Number(e.target.value) : e.target.value;
    savePuzzleRecord(r);
    nextPuzzle();
  });
}
