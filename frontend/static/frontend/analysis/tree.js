// The analysis board's move tree: the main line and its variations, pure (unit-tested in Node).
// A node is a position reached by a peg from its parent; the root is the empty board. A node's first
// child continues its line; the others are variations starting there.

/**
 * @typedef {object} MoveNode
 * @property {number} id
 * @property {string | null} peg the move that reached it (null at the root)
 * @property {number | null} parent
 * @property {number[]} children the first continues the line, the others are variations
 */

/** @typedef {{nodes: Map<number, MoveNode>, next: number}} MoveTree */

/** A tree of one line: the empty board and `moves` after it. @param {string[]} [moves] */
export function createTree(moves = []) {
  /** @type {MoveTree} */
  const tree = { nodes: new Map([[0, { id: 0, peg: null, parent: null, children: [] }]]), next: 1 };
  let at = 0;
  for (const peg of moves) at = addMove(tree, at, peg);
  return tree;
}

/**
 * The node reached by `peg` from `from`: an existing child with that peg, or a new one (a variation when
 * `from` already had a continuation).
 * @param {MoveTree} tree @param {number} from @param {string} peg
 */
export function addMove(tree, from, peg) {
  const parent = tree.nodes.get(from);
  if (!parent) throw new RangeError(`no node ${from}`);
  const known = parent.children.find((id) => tree.nodes.get(id)?.peg === peg);
  if (known !== undefined) return known;
  const id = tree.next++;
  tree.nodes.set(id, { id, peg, parent: from, children: [] });
  parent.children.push(id);
  return id;
}

/** The pegs from the empty board to `id`. @param {MoveTree} tree @param {number} id */
export function pathTo(tree, id) {
  /** @type {string[]} */
  const pegs = [];
  for (let node = tree.nodes.get(id); node && node.peg !== null; node = tree.nodes.get(node.parent ?? -1)) {
    pegs.unshift(node.peg);
  }
  return pegs;
}

/**
 * The node at the end of `pegs` from the root, adding the moves the tree lacks.
 * @param {MoveTree} tree @param {string[]} pegs
 */
export function follow(tree, pegs) {
  let at = 0;
  for (const peg of pegs) at = addMove(tree, at, peg);
  return at;
}

/** The main line: the first children from the root. @param {MoveTree} tree */
export function mainLine(tree) {
  /** @type {number[]} */
  const ids = [];
  for (let node = tree.nodes.get(0); node?.children.length; node = tree.nodes.get(node.children[0])) {
    ids.push(node.children[0]);
  }
  return ids;
}

/** Whether `id` is on the main line (the root is). @param {MoveTree} tree @param {number} id */
export function onMainLine(tree, id) {
  for (let node = tree.nodes.get(id); node && node.parent !== null; node = tree.nodes.get(node.parent)) {
    const parent = tree.nodes.get(node.parent);
    if (!parent || parent.children[0] !== node.id) return false;
  }
  return true;
}

/**
 * Deletes `id` and everything after it; returns its parent (where the board goes). The root stays.
 * @param {MoveTree} tree @param {number} id
 */
export function remove(tree, id) {
  const node = tree.nodes.get(id);
  if (!node || node.parent === null) return 0;
  const parent = tree.nodes.get(node.parent);
  if (parent) parent.children = parent.children.filter((c) => c !== id);
  const stack = [id];
  while (stack.length) {
    const gone = /** @type {number} */ (stack.pop());
    stack.push(...(tree.nodes.get(gone)?.children || []));
    tree.nodes.delete(gone);
  }
  return node.parent;
}

/** The record of pegs as the URL carries it (`a1+b1`: spaces in a query). @param {string[]} pegs */
export function recordParam(pegs) {
  return pegs.join(" ");
}

/** The pegs of a `record` (or `line`) query value: commas, spaces or pluses between pegs. @param {string | null} text */
export function parseRecordParam(text) {
  return (text || "")
    .toLowerCase()
    .split(/[\s,+]+/)
    .filter((p) => /^[a-d][1-4]$/.test(p));
}
