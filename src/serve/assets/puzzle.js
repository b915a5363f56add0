// The board's puzzle mode (`mode=puzzle`, issue 61), as lichess's puzzle
// trainer: a puzzle of /api/puzzle near the player's rating (and of the
// chosen size and theme) starts before the opponent's mistake, which is
// played on the board; the player looks for the only moves of its line
// (docs/puzzles.md), the opponent's replies come by themselves; a wrong
// move shows its value and the opponent's best reply to it. The player's
// Glicko-2 rating (glicko.js) and streak are kept in localStorage.
//
// Loaded before app.js, whose hooks (`modeHooks`) it defines: app.js
// calls them where a mode takes part (the start, a move played, a
// position shown, the evaluation hidden, the URL, the mode chosen).
// A puzzle is a game of app.js: its start is the position before the
// mistake, its first move the mistake, then the line's moves.
"use strict";

/** The puzzle on the board and where the player is in it. `phase`:
 * idle (not in puzzle mode), loading, intro (the mistake about to be
 * played), solving, wrong (a wrong move and its refutation shown),
 * solution (the line being played), done. */
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
};

/** Where the player's puzzle record is kept. */
const PUZZLE_KEY = "chaosclock.puzzle";
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

/** The player's record: rating, deviation, volatility, streak, best
 * streak, puzzles played and solved, the ids counted (the last 2000), the
 * chosen size and theme. */
function puzzleRecord() {
  let r = null;
  try { r = JSON.parse(localStorage.getItem(PUZZLE_KEY)); } catch (_) { /* a new one */ }
  const fresh = { ...PUZZLE_NEWCOMER, streak: 0, best: 0, played: 0, solved: 0, seen: [], slots: 12, theme: "" };
  if (!r || typeof r !== "object" || !Number.isFinite(r.rating)) return fresh;
  return { ...fresh, ...r, seen: Array.isArray(r.seen) ? r.seen : [] };
}

function savePuzzleRecord(r) {
  try { localStorage.setItem(PUZZLE_KEY, JSON.stringify(r)); } catch (_) { /* not kept */ }
}

/** Counts the puzzle once: a win (solved at the first try) or a loss (a
 * wrong move, or the solution asked for), a Glicko-2 rating period of one
 * game against the puzzle's rating and deviation. */
function countPuzzle(outcome) {
  const p = puzzle.p;
  if (puzzle.result !== null || !p) return;
  const r = puzzleRecord();
  if (r.seen.includes(p.id)) {
    puzzle.result = "seen";
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
    showError(e, () => { showError(null); loadPuzzle(id); });
  }
}

/** Starts puzzle `p`: the position before the mistake, then the mistake. */
function startPuzzle(p) {
  Object.assign(puzzle, { p, phase: "intro", result: null, failed: false, change: null, wrong: null });
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
}

/** Back to the position where the wrong move was played. */
function retryPuzzle() {
  if (puzzle.phase !== "wrong" || busy) return;
  const keep = puzzle.wrong.step + 1;
  puzzle.phase = "solving";
  puzzle.wrong = null;
  cutLine(keep);
  refresh();
}

/** Plays the rest of the line from where the player left it; the puzzle
 * counts as a loss. */
function showSolution() {
  if (!["solving", "wrong"].includes(puzzle.phase) || busy) return;
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

/** Draws the puzzle panel: the player's rating, the puzzle, the task or
 * the verdict, and the buttons of the phase. */
function drawPuzzle() {
  const box = document.getElementById("puzzle");
  const on = mode === "puzzle";
  box.hidden = !on;
  document.body.classList.toggle("mode-puzzle", on);
  const solving = on && !["done", "idle"].includes(puzzle.phase);
  document.body.classList.toggle("puzzle-solving", solving);
  if (!on) return;
  const r = puzzleRecord();
  const player = document.getElementById("puzzle-player");
  player.textContent = t("puzzle.you", Math.round(r.rating), Math.round(r.rd), r.streak, r.played);
  Object.assign(player.dataset, { rating: r.rating.toFixed(2), rd: r.rd.toFixed(2), streak: r.streak });
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
  menu.value = r.theme;
  const p = puzzle.p;
  const phase = puzzle.phase;
  box.dataset.phase = phase;
  box.dataset.id = p ? p.id : "";
  const title = document.getElementById("puzzle-title");
  const mistake = document.getElementById("puzzle-mistake");
  const task = document.getElementById("puzzle-task");
  const feedback = document.getElementById("puzzle-feedback");
  for (const e of [title, mistake, task, feedback]) e.replaceChildren();
  feedback.dataset.result = "";
  const buttons = { retry: phase === "wrong", solution: ["solving", "wrong"].includes(phase),
    next: phase === "done" || phase === "wrong", analyse: phase === "done" };
  for (const [name, visible] of Object.entries(buttons)) {
    document.getElementById(`puzzle-${name}`).hidden = !visible;
  }
  if (!p || phase === "loading") {
    title.textContent = t("puzzle.loading");
    return;
  }
  title.textContent = `${t("puzzle.title", p.id)} · ${t("puzzle.rating", p.rating)}`;
  const before = cache.get(p.before);
  const them = p.side === "jia" ? "yi" : "jia";
  mistake.textContent = t("puzzle.mistake", t(them), puzzleMoveText(before, p.mistake));
  const kept = valueBadge(p.value);
  const length = p.length === 1 ? t("puzzle.length.1") : t("puzzle.length", p.length);
  task.innerHTML = `${t(p.value === 2 ? "puzzle.task.lose" : "puzzle.task", t(p.side), kept)}${length}`;
  const step = puzzleStep();
  if (phase === "solving" && step > 0 && step < p.moves.length) {
    const again = p.solver[step] && p.solver[step - 1];
    feedback.dataset.result = "right";
    feedback.textContent = `${t("puzzle.right")}${again ? t("puzzle.again") : ""}`;
  } else if (phase === "solving" && step === 0 && p.solver[0]) {
    feedback.textContent = "";
  } else if (phase === "wrong") {
    const w = puzzle.wrong;
    feedback.dataset.result = "wrong";
    let html = t("puzzle.wrong", puzzleMoveText(w.before, w.move), valueBadge(w.value));
    if (w.reply) html += t("puzzle.refute", `${t(w.reply.a.side)} ${puzzleMoveText(w.reply.a, w.reply.move)}`);
    else if (w.again) html += t("puzzle.refute.again");
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
      else if (!p.solver[step]) puzzleLater(() => puzzleAuto(p.moves[step]), 500);
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
  const q = ["mode=puzzle"];
  if (puzzle.p) q.push(`puzzle=${encodeURIComponent(puzzle.p.id)}`);
  if (lang !== "zh") q.push(`lang=${lang}`);
  return `${location.origin}${location.pathname}?${q.join("&")}`;
}

/** Enters puzzle mode (a new puzzle, or `id`) or leaves it. */
function puzzleMode(m, id) {
  if (m !== "puzzle") {
    clearTimeout(puzzle.timer);
    puzzle.phase = "idle";
    drawPuzzle();
    return false;
  }
  mode = "puzzle";
  document.querySelector('input[name="mode"][value="puzzle"]').checked = true;
  document.getElementById("hint").checked = false;
  loadPuzzle(id);
  return true;
}

/** The hooks app.js calls (see the file's head). */
const modeHooks = {
  start: (u) => u.searchParams.get("mode") === "puzzle" && puzzleMode("puzzle", u.searchParams.get("puzzle")),
  mode: (m) => puzzleMode(m, null),
  play: puzzlePlay,
  shown: puzzleShown,
  drawn: drawPuzzle,
  engineSide: puzzleEngineSide,
  hideEval: () => !["done", "idle"].includes(puzzle.phase),
  url: puzzleUrl,
};

// The panel's controls.
document.getElementById("puzzle-retry").addEventListener("click", retryPuzzle);
document.getElementById("puzzle-solution").addEventListener("click", showSolution);
document.getElementById("puzzle-next").addEventListener("click", nextPuzzle);
document.getElementById("puzzle-analyse").addEventListener("click", () => setMode("analysis"));
for (const [id, key] of [["puzzle-slots", "slots"], ["puzzle-theme", "theme"]]) {
  document.getElementById(id).addEventListener("change", (e) => {
    const r = puzzleRecord();
    r[key] = key === "slots" ? Number(e.target.value) : e.target.value;
    savePuzzleRecord(r);
    nextPuzzle();
  });
}
