// The evaluation graph of the analysis board: the value of each position
// of the game from 甲's view, ply by ply, like lichess's. Mistakes and
// only moves are marked on the ply that played them; clicking a point
// goes to that ply.
"use strict";

/** The rows of the graph, top to bottom: the value from 甲's view (a
 * value code of the side to move, turned to 甲's when 乙 is to move). */
const GRAPH_ROWS = [
  { key: "g.jia", cls: "v4" }, // 甲 wins
  { key: "v.3", cls: "v3" }, // both win
  { key: "v.2", cls: "v2" }, // both lose
  { key: "v.0", cls: "v0" }, // no result
  { key: "g.yi", cls: "v1" }, // 乙 wins
];

/** The row of a position answered `a` (`value` for `side`, or `over`). */
function graphRow(a) {
  const over = { "jia-wins": 0, "both-win": 1, "both-lose": 2, "yi-wins": 4 };
  if (a.over) return over[a.over];
  const forJia = { 4: 0, 3: 1, 2: 2, 0: 3, 1: 4 };
  const forYi = { 1: 0, 3: 1, 2: 2, 0: 3, 4: 4 };
  return (a.side === "jia" ? forJia : forYi)[a.value];
}

/** Draws `points` (`ply`, `row`, `mark`: "", "only" or "mistake", `fall`
 * of a mistake: "inaccuracy", "mistake" or "blunder", `title`)
 * into the SVG `svg`, the ply `cursor` highlighted; `pick(ply)` is called
 * when a point is clicked. */
function drawGraph(svg, points, cursor, pick) {
  const NS = "http://www.w3.org/2000/svg";
  const add = (name, attrs, parent = svg) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    parent.appendChild(e);
    return e;
  };
  svg.replaceChildren();
  const W = 400, left = 58, right = 8, top = 10, rowH = 24;
  const last = Math.max(1, ...points.map((p) => p.ply));
  const x = (ply) => left + ((W - left - right) * ply) / last;
  const y = (row) => top + row * rowH;
  GRAPH_ROWS.forEach((r, i) => {
    add("line", { x1: left, x2: W - right, y1: y(i), y2: y(i), class: "grid" });
    const label = add("text", { x: left - 6, y: y(i), class: `label ${r.cls}` });
    label.textContent = t(r.key);
  });
  if (!points.length) return;
  if (cursor >= 0 && cursor <= last) {
    add("line", { x1: x(cursor), x2: x(cursor), y1: top - 6, y2: y(4) + 6, class: "cursor" });
  }
  // A step line: each value holds until the next ply.
  let d = "";
  points.forEach((p, i) => {
    d += i === 0 ? `M${x(p.ply)},${y(p.row)}` : `H${x(p.ply)}V${y(p.row)}`;
  });
  add("path", { d, class: "trace" });
  // Each point's target is 40 px wide or more on screen (issue 59: 11 px
  // on a phone); where targets overlap, a click goes to the nearest point.
  const px = svg.getBoundingClientRect().width / W || 1;
  const hitW = Math.max(44, 44 / px);
  const nearest = (e) => {
    const m = svg.getScreenCTM();
    if (!m) return null;
    const u = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    let best = points[0];
    for (const q of points) if (Math.abs(x(q.ply) - u.x) < Math.abs(x(best.ply) - u.x)) best = q;
    return best.ply;
  };
  for (const p of points) {
    const g = add("g", { class: `point ${GRAPH_ROWS[p.row].cls}${p.mark ? ` ${p.mark}` : ""}${p.fall ? ` fall-${p.fall}` : ""}`, "data-graph-ply": p.ply });
    if (p.fall) g.dataset.fall = p.fall;
    add("circle", { cx: x(p.ply), cy: y(p.row), r: p.mark ? 5 : 3.5 }, g);
    // A wide invisible target, easy to hit with a finger.
    add("rect", { x: x(p.ply) - hitW / 2, y: top - 8, width: hitW, height: y(4) - top + 16, class: "hit" }, g);
    add("title", {}, g).textContent = p.title;
    g.addEventListener("click", (e) => pick(e.target.tagName === "rect" ? nearest(e) ?? p.ply : p.ply));
  }
}
