// The game tree of the analysis board, as lichess's analysis board keeps
// it (issue 59): pure data, no DOM, no requests.
//
// A node is `{ id, move, parent, children, mark }`: `move` is the move
// text of the API (`7`, `pass`) that leads from `parent` to it (null at
// the root, the start position), `id` a number unique in the page's life
// (the history's `data-node`), `mark` the review mark of the move
// ("only", "mistake", "" or null while unknown). Invariants: the moves of
// a node's children are all different; `children[0]` is the main
// continuation, the others are variations, in the order they were made.
// The main line is the root's chain of first children.
//
// In a link (`treeQuery`, `treeParse`): `moves=` is the main line, then,
// only where the current node is not the main line's end, `ply=K` (the
// K-th node of the main line, 0 = the start) or `line=M,M,...` (the moves
// from the start to a node off the main line). Other variations are not
// kept in links (as lichess keeps only the main line).
"use strict";

/** The last node id given. */
let treeLastId = 0;

/** A new node after `parent` (null for a root), reached by `move`. */
function treeNode(move, parent) {
  return { id: ++treeLastId, move, parent, children: [], mark: null };
}

/** A new tree: its root, the start position. */
function treeRoot() {
  return treeNode(null, null);
}

/** The child of `node` reached by `move`, or null. */
function treeChild(node, move) {
  return node.children.find((c) => c.move === move) || null;
}

/** The child of `node` reached by `move`: the existing one, or a new one
 * (the main continuation if `node` had none, else a variation). */
function treeAdd(node, move) {
  let c = treeChild(node, move);
  if (!c) {
    c = treeNode(move, node);
    node.children.push(c);
  }
  return c;
}

/** The nodes from the root to `node`, both included. */
function treePath(node) {
  const path = [];
  for (let x = node; x; x = x.parent) path.push(x);
  return path.reverse();
}

/** The moves from the root to `node`. */
function treeMoves(node) {
  return treePath(node).slice(1).map((x) => x.move);
}

/** The nodes after `node` along first children. */
function treeContinue(node) {
  const out = [];
  for (let x = node.children[0]; x; x = x.children[0]) out.push(x);
  return out;
}

/** The line through `node`: the root to it, then its main continuation. */
function treeLine(node) {
  return treePath(node).concat(treeContinue(node));
}

/** The root of `node`'s tree. */
function treeRootOf(node) {
  let x = node;
  while (x.parent) x = x.parent;
  return x;
}

/** Whether `node` is on the main line. */
function treeOnMain(node) {
  for (let x = node; x.parent; x = x.parent) if (x.parent.children[0] !== x) return false;
  return true;
}

/** The node of id `id` under `root` (itself included), or null. */
function treeFind(root, id) {
  const todo = [root];
  while (todo.length) {
    const x = todo.pop();
    if (x.id === id) return x;
    todo.push(...x.children);
  }
  return null;
}

/** The node reached from `root` by `moves`, or null if one is missing. */
function treeFollow(root, moves) {
  let x = root;
  for (const m of moves) {
    x = treeChild(x, m);
    if (!x) return null;
  }
  return x;
}

/** Promotes the variation holding `node`: one level up (the nearest
 * ancestor-or-self that is not a first child becomes its parent's first),
 * or with `toMain` until `node` is on the main line. Returns whether
 * anything moved. */
function treePromote(node, toMain) {
  let moved = false;
  for (let x = node; x.parent; x = x.parent) {
    const sibs = x.parent.children;
    if (sibs[0] === x) continue;
    sibs.splice(sibs.indexOf(x), 1);
    sibs.unshift(x);
    moved = true;
    if (!toMain) break;
  }
  return moved;
}

/** Deletes `node` and everything after it; returns its parent. The root
 * is never deleted (returned as it is). */
function treeDelete(node) {
  const p = node.parent;
  if (!p) return node;
  p.children.splice(p.children.indexOf(node), 1);
  return p;
}

/** The query parameters (`name=value`, commas as they are) that record
 * the main line of `node`'s tree and `node` (see the file's head). */
function treeQuery(node) {
  const root = treeRootOf(node);
  const main = treeContinue(root);
  const q = [];
  if (main.length) q.push(`moves=${main.map((x) => x.move).join(",")}`);
  if (treeOnMain(node)) {
    const k = treePath(node).length - 1;
    if (k < main.length) q.push(`ply=${k}`);
  } else {
    q.push(`line=${treeMoves(node).join(",")}`);
  }
  return q;
}

/** Reads the tree of a link from its parameters `moves`, `ply` and
 * `line` (`get(name)` gives one, or null): `{ main, line }`, the moves
 * of the main line and of the current node (`line` null: the main line's
 * end). A `ply` out of range or not a number counts as absent; the moves
 * are not checked here (the page checks them against the answers). */
function treeParse(get) {
  const list = (text) => (text === null || text === "" ? [] : text.split(","));
  const main = list(get("moves"));
  const lineText = get("line");
  if (lineText !== null) return { main, line: list(lineText) };
  const plyText = get("ply");
  const k = Number(plyText);
  if (plyText !== null && /^[0-9]+$/.test(plyText) && k <= main.length) return { main, line: main.slice(0, k) };
  return { main, line: null };
}
