// The board editor of the analysis board (issue 59), like lichess's: set
// any position by clicking or tapping the slots and the hands, the side to
// move and what the previous ply was (the piece that may not walk, a pass,
// or nothing), each edit checked by the server's /api/check (never a
// solve), its error shown in the editor; then analyse it or play it
// against the engine as a new game.
//
// A piece is chosen from a hand or from the board (it is ringed), and goes
// to the slot clicked next (a piece standing there goes back to its
// owner's hand); the chosen board piece clicked again, its hand, or 回手
// puts it back in its owner's hand. The hands are implied by the board.
//
// While it is open the URL is `?edit=POS` (with `lang`), so a link or a
// reload opens the editor with that position. Loaded before app.js: it
// uses app.js's drawBoard (with a pick handler), newGameIn, refresh and
// start when called; app.js asks `editorOpen()` and, once loaded, calls
// `openEditorFromUrl()`, which wires the editor.
"use strict";

const editor = {
  open: false,
  slots: [], // the piece on each slot, 0 for none
  side: 1, // 0: 甲 to move, 1: 乙
  last: 0, // 0 none, -1 a pass, -2 two passes, m: piece m walked
  chosen: null, // { piece, slot } (slot null: from a hand)
  from: null, // the position the editor opened with (for 还原)
  checked: null, // the server's answer for the position shown, or null
  said: null, // shows the check's answer in the language chosen
  ctl: null, // the check under way (its AbortController)
  timer: null,
};

/** Whether the editor is open (app.js draws nothing of the game then). */
function editorOpen() {
  return editor.open;
}

/** The position being edited, in the interchange format. */
function editorText() {
  return `${editor.slots.join(",")};${editor.side};${editor.last}`;
}

/** Opens the editor on `pos` (if it can be drawn, else an empty board of
 * 12 slots, and `pos`'s error from the server). */
function openEditor(pos) {
  // The game's request under way is not waited for any more.
  token++;
  if (request) request.ctl.abort();
  setBusy(false);
  showError(null);
  editor.open = true;
  document.body.classList.add("editing");
  $("editor").hidden = false;
  window.scrollTo(0, 0); // the board first (the button may be far down)
  const text = pos && editorDrawable(pos) ? pos : null;
  setEditorPosition(text || "0,0,0,0,0,0,0,0,0,0,0,0;1;0");
  if (pos && !text) {
    // Not drawn as it is: the server reads it (spaces, an escaped form)
    // or says what is wrong with it.
    clearTimeout(editor.timer);
    checkPosition(pos).then(() => {
      const c = editor.checked;
      if (c && editor.open && editorDrawable(c.position)) setEditorPosition(c.position);
    });
  }
}

/** Whether the editor can draw `text` (app.js's check, two passes too). */
function editorDrawable(text) {
  return drawable(text.replace(/;-2$/, ";-1"));
}

/** Puts `text` (drawable) in the editor as the position it started from. */
function setEditorPosition(text) {
  const p = parsePosition(text);
  editor.slots = p.slots;
  editor.side = p.side === "jia" ? 0 : 1;
  editor.last = p.last;
  editor.chosen = null;
  editor.from = editorText();
  editorUpdate();
}

/** Closes the editor; `m`, if given, starts a game of the position edited
 * in that mode, else the game before goes on. */
function closeEditor(m) {
  const pos = editor.checked && editor.checked.position;
  editor.open = false;
  clearTimeout(editor.timer);
  if (editor.ctl) editor.ctl.abort();
  document.body.classList.remove("editing");
  $("editor").hidden = true;
  window.scrollTo(0, 0);
  if (m && pos) newGameIn(pos, m);
  else if (game.start) refresh();
  else start();
}

/** Wires the editor's controls (once app.js has loaded), and opens the
 * editor if the URL asks for it (`?edit=POS`). */
function openEditorFromUrl() {
  wireEditor();
  const pos = new URL(location.href).searchParams.get("edit");
  if (pos === null) return false;
  openEditor(pos);
  return true;
}

/** A slot, a board piece or a hand piece was clicked or tapped. */
function editorPick(target) {
  const ch = editor.chosen;
  if (target.hand) {
    editor.chosen = ch && ch.piece === target.hand ? null : { piece: target.hand, slot: null };
  } else if (ch && ch.slot === target.slot) {
    toHand();
  } else if (ch) {
    if (ch.slot) editor.slots[ch.slot - 1] = 0;
    editor.slots[target.slot - 1] = ch.piece; // a piece standing there goes to its hand
    editor.chosen = null;
  } else if (target.piece) {
    editor.chosen = { piece: target.piece, slot: target.slot };
  }
  editorUpdate();
}

/** Puts the chosen board piece back in its owner's hand. */
function toHand() {
  const ch = editor.chosen;
  if (ch && ch.slot) editor.slots[ch.slot - 1] = 0;
  editor.chosen = null;
}

/** Sets the number of slots: pieces past it go to the hands. */
function setEditorSlots(n) {
  const s = editor.slots.slice(0, n).map((p) => (p > n ? 0 : p));
  while (s.length < n) s.push(0);
  editor.slots = s;
  editor.chosen = null;
  editorUpdate();
}

/** Draws the position edited, its controls and URL, and checks it
 * (unless `recheck` is false and its answer is known: a new language). */
function editorUpdate(recheck = true) {
  const n = editor.slots.length;
  // A last piece no longer on the board restricts nothing.
  if (editor.last > 0 && !editor.slots.includes(editor.last)) editor.last = 0;
  const text = editorText();
  drawBoard(text, null, false, editorPick);
  const ch = editor.chosen;
  if (ch) {
    const node = ch.slot ? document.querySelector(`#board g.piece[data-slot="${ch.slot}"]`)
      : document.querySelector(`[data-hand="${ch.piece}"]`);
    if (node) node.classList.add("picked");
  }
  $("board").classList.toggle("choosing", !!ch);
  $("edit-to-hand").disabled = !(ch && ch.slot);
  $("edit-slots").value = String(n);
  for (const b of document.querySelectorAll("[data-edit-side]")) {
    b.setAttribute("aria-pressed", String(Number(b.dataset.editSide) === editor.side));
  }
  // The previous ply: nothing, a pass, two passes, or a walk of a piece
  // on the board that is not fixed (the server says if it cannot be).
  const sel = $("edit-last");
  sel.replaceChildren();
  const option = (value, label) => {
    const o = document.createElement("option");
    o.value = String(value);
    o.textContent = label;
    sel.append(o);
  };
  option(0, t("edit.last.none"));
  option(-1, t("edit.last.pass"));
  option(-2, t("edit.last.double"));
  editor.slots.forEach((p, i) => { if (p && p !== i + 1) option(p, t("edit.last.piece", p)); });
  sel.value = String(editor.last);
  $("edit-note").textContent = ch ? t(ch.slot ? "edit.chosen.board" : "edit.chosen.hand", ch.piece) : t("edit.help");
  writeEditUrl();
  if (recheck || !editor.said) scheduleCheck(text);
  else editor.said();
}

/** The URL of the editor with `text`: `?edit=POS`, `,` and `;` as they
 * are. Each edit is a step of the browser's history, so Back undoes it
 * (issue 66); the same position (a new language, a
 * step back itself) replaces it. */
function writeEditUrl() {
  const q = [`edit=${encodeURIComponent(editorText())}`];
  if (lang !== "zh") q.push(`lang=${lang}`);
  const query = q.join("&").replace(/%2C/gi, ",").replace(/%3B/gi, ";");
  const same = new URL(location.href).searchParams.get("edit") === editorText();
  history[same ? "replaceState" : "pushState"](null, "", `${location.pathname}?${query}`);
}

/** Back and Forward: the editor shows the URL's position, opens on an
 * `?edit=` step, and closes on a step of the game. */
function editorHistory() {
  const pos = new URL(location.href).searchParams.get("edit");
  if (pos !== null && editorDrawable(pos)) {
    if (!editor.open) openEditor(pos);
    const from = editor.from;
    setEditorPosition(pos);
    if (from) editor.from = from;
  } else if (pos === null && editor.open) {
    closeEditor(null);
  }
}

/** Checks `text` after a short pause (one request for a burst of edits). */
function scheduleCheck(text) {
  editor.checked = null;
  editor.said = null;
  showCheck("pending", t("edit.checking"));
  clearTimeout(editor.timer);
  editor.timer = setTimeout(() => checkPosition(text), 120);
}

/** Asks /api/check about `text` (the check before is cancelled) and shows
 * the answer in the editor. */
async function checkPosition(text) {
  if (editor.ctl) editor.ctl.abort();
  const ctl = new AbortController();
  editor.ctl = ctl;
  try {
    const r = await fetch(`/api/check?pos=${queryText(text)}`, { signal: ctl.signal });
    const body = await r.json().catch(() => ({}));
    if (editor.ctl !== ctl || !editor.open) return;
    if (r.ok) {
      editor.checked = body;
      const over = () => (body.over ? ` · ${t("game-over", t(`over.${body.over}`))}` : "");
      editor.said = () => showCheck("true", "", `${t("edit.ok")}${over()}`);
    } else {
      // In the page's language (issue 66), from the error's code.
      editor.said = () => showCheck("false", t("edit.invalid", codedText(body) || (lang === "en" && body.error) || t("http.other", r.status)));
    }
    editor.said();
  } catch (e) {
    if (e.name === "AbortError" || editor.ctl !== ctl) return;
    showCheck("false", t("http.network"));
  }
}

/** Shows the check's state: `valid` "true", "false" or "pending", the
 * error (in place, under the editor's controls) and the verdict. */
function showCheck(valid, error, verdict = "") {
  $("editor").dataset.valid = valid;
  $("edit-error").hidden = !error || valid === "pending";
  $("edit-error").textContent = valid === "pending" ? "" : error;
  $("edit-verdict").textContent = valid === "pending" ? error : verdict;
  for (const id of ["edit-analyse", "edit-play-jia", "edit-play-yi"]) $(id).disabled = valid !== "true";
}

function wireEditor() {
  window.addEventListener("popstate", editorHistory);
  $("edit-open").addEventListener("click", () => {
    openEditor(shown ? shown.position : $("position").textContent || null);
  });
  $("edit-close").addEventListener("click", () => closeEditor(null));
  $("edit-analyse").addEventListener("click", () => closeEditor("analysis"));
  $("edit-play-jia").addEventListener("click", () => closeEditor("play-jia"));
  $("edit-play-yi").addEventListener("click", () => closeEditor("play-yi"));
  $("edit-clear").addEventListener("click", () => {
    editor.slots = editor.slots.map(() => 0);
    editor.last = 0;
    editor.chosen = null;
    editorUpdate();
  });
  $("edit-random").addEventListener("click", () => {
    const p = parsePosition(randomOpening(editor.slots.length));
    Object.assign(editor, { slots: p.slots, side: 1, last: 0, chosen: null });
    editorUpdate();
  });
  $("edit-reset").addEventListener("click", () => setEditorPosition(editor.from));
  $("edit-to-hand").addEventListener("click", () => { toHand(); editorUpdate(); });
  $("edit-slots").addEventListener("change", () => setEditorSlots(Number($("edit-slots").value)));
  $("edit-last").addEventListener("change", () => { editor.last = Number($("edit-last").value); editorUpdate(); });
  for (const b of document.querySelectorAll("[data-edit-side]")) {
    b.addEventListener("click", () => { editor.side = Number(b.dataset.editSide); editorUpdate(); });
  }
  // A click on a hand beside its pieces puts the chosen board piece there.
  for (const side of ["jia", "yi"]) {
    $(`hand-${side}`).addEventListener("click", (e) => {
      if (!editor.open || e.target.closest("[data-hand]") || !editor.chosen || !editor.chosen.slot) return;
      toHand();
      editorUpdate();
    });
  }
  // The words change after app.js's own handler has run (wired before).
  for (const b of document.querySelectorAll("[data-lang]")) {
    b.addEventListener("click", () => editor.open && editorUpdate(false));
  }
  document.addEventListener("keydown", (e) => {
    if (editor.open && e.key === "Escape" && editor.chosen) {
      editor.chosen = null;
      editorUpdate();
    }
  });
}
