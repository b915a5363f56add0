// What players expect around the board (issue 66): a dark theme (the
// system's choice until the switch #theme is pressed, then that choice,
// kept), move and capture sounds (#sound, off until switched on, kept),
// the list of keyboard shortcuts (#shortcuts) that `?` opens and Esc
// closes, and 对局时显示评估 (#show-eval, issue 65: off until switched on,
// kept; app.js reads it). index.html sets the theme before the first
// paint; app.js calls `moveSound(kind)` when a move is shown.
"use strict";

const PREFS = { theme: "chaosclock.theme", sound: "chaosclock.sound", showEval: "chaosclock.show-eval" };

/** A kept choice, or null. */
function kept(name) {
  try { return localStorage.getItem(PREFS[name]); } catch (_) { return null; }
}

function keep(name, value) {
  try { localStorage.setItem(PREFS[name], value); } catch (_) { /* not kept */ }
}

const darkScheme = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

/** Sets html[data-theme]: the kept choice, else the system's. */
function applyTheme() {
  const theme = kept("theme") || (darkScheme && darkScheme.matches ? "dark" : "light");
  document.documentElement.dataset.theme = theme;
  document.getElementById("theme").setAttribute("aria-pressed", String(theme === "dark"));
}

/** Whether the sounds are on. */
function soundOn() {
  return kept("sound") === "on";
}

let audio = null;

/** A short tone for a move, a lower double one for a capture: made by
 * WebAudio (no sound files), and only when the sounds are on. */
function moveSound(kind) {
  if (!soundOn()) return;
  document.body.dataset.sound = kind;
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const tones = kind === "capture" ? [[330, 0], [220, 0.07]] : [[660, 0]];
    for (const [hz, at] of tones) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      const t0 = audio.currentTime + at;
      osc.frequency.value = hz;
      osc.type = kind === "capture" ? "triangle" : "sine";
      gain.gain.setValueAtTime(0.0001, t0);
      gain.gain.exponentialRampToValueAtTime(0.25, t0 + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + 0.12);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0);
      osc.stop(t0 + 0.13);
    }
  } catch (_) { /* no audio: silence */ }
}

function wirePrefs() {
  applyTheme();
  if (darkScheme && darkScheme.addEventListener) darkScheme.addEventListener("change", applyTheme);
  document.getElementById("theme").addEventListener("click", () => {
    keep("theme", document.documentElement.dataset.theme === "dark" ? "light" : "dark");
    applyTheme();
  });
  const sound = document.getElementById("sound");
  sound.setAttribute("aria-pressed", String(soundOn()));
  sound.addEventListener("click", () => {
    keep("sound", soundOn() ? "off" : "on");
    sound.setAttribute("aria-pressed", String(soundOn()));
    if (soundOn()) moveSound("move"); // what it sounds like (and the browser's leave to play)
  });
  const list = document.getElementById("shortcuts");
  const open = () => { if (!list.open) list.showModal(); };
  document.getElementById("shortcuts-open").addEventListener("click", open);
  document.addEventListener("keydown", (e) => {
    const tg = e.target;
    const text = tg.tagName === "TEXTAREA" || tg.tagName === "SELECT" ||
      (tg.tagName === "INPUT" && !["radio", "checkbox"].includes(tg.type));
    if (e.key === "?" && !text && !e.ctrlKey && !e.altKey && !e.metaKey) {
      e.preventDefault();
      open();
    }
  });
}

wirePrefs();
