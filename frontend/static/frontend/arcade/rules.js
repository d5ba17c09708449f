// The arcade's rules as the page plays them: 2048 on the 4x4 and 3D 2048 on the 2x2x2 and 3x3x3 cubes
// (docs/arcade.md). The server's engine (arcade/engine) is the same rules in Python; both run the shared
// vectors (arcade/engine/vectors.json) in their tests, so the slide the page shows at once is the one the
// server applies. Pure: no DOM, no network, no clock; randomness only where it is passed in.
//
// A board is a flat array of cells, 0 for an empty cell. On a cube of side n a cell's index is
// x + n*y + n*n*z (x: left to right, y: front to back, z: bottom to top); on the 4x4, x + 4*y (y: the top
// row first).

/** @typedef {"left" | "right" | "up" | "down" | "forward" | "backward"} Direction */

/**
 * @typedef {object} Mode
 * @property {string} id "classic", "cube2", "cube3" or "cube3-hard"
 * @property {number[]} shape [4, 4], [2, 2, 2] or [3, 3, 3]
 * @property {number} fourRate the chance that a new tile is a 4
 * @property {number} spawns new tiles after a move that changed the board (2 on Hard)
 * @property {number} target the target tile
 * @property {boolean} targetWins the cubes stop at the target (won) until the player continues
 * @property {boolean} undo the cubes have a one-level undo
 * @property {number} moveCap a run ends after this many moves played (undone ones included)
 */

/** @typedef {{cell: number, value: number}} Spawn */

/**
 * One tile's journey in a slide, for the animation.
 * @typedef {object} TileMove
 * @property {number} from the cell it left
 * @property {number} to the cell it arrived on
 * @property {number} value its value before the slide
 * @property {boolean} merged it arrived on a cell where a merge made a new tile
 */

/**
 * @typedef {object} Slide
 * @property {number[]} board the board after the slide, before any spawn
 * @property {number} gained the score of the slide: the sum of the tiles its merges made
 * @property {boolean} moved whether any tile changed cell (a slide that moved nothing is not a move)
 * @property {number[]} merged the cells (sorted) holding a tile made by a merge
 * @property {TileMove[]} tiles every tile that was on the board, where it went
 */

/**
 * @typedef {object} LineSlide
 * @property {number[]} values the line after the slide, read from the wall
 * @property {number} gained the score of its merges
 * @property {number[]} merged positions (from the wall) of the tiles made by a merge
 * @property {number[][]} sources for each position after the slide, the positions its tile(s) came from
 */

const MOVE_CAP = 20000;

/** @type {Readonly<Record<string, Mode>>} */
export const MODES = Object.freeze({
  classic: mode("classic", [4, 4], 0.1, 1, 2048, false, false),
  cube2: mode("cube2", [2, 2, 2], 0.05, 1, 256, true, true),
  cube3: mode("cube3", [3, 3, 3], 0.1, 1, 2048, true, true),
  "cube3-hard": mode("cube3-hard", [3, 3, 3], 0.1, 2, 2048, true, true),
});

/**
 * @param {string} id @param {number[]} shape @param {number} fourRate @param {number} spawns
 * @param {number} target @param {boolean} targetWins @param {boolean} undo
 * @returns {Mode}
 */
function mode(id, shape, fourRate, spawns, target, targetWins, undo) {
  return Object.freeze({ id, shape, fourRate, spawns, target, targetWins, undo, moveCap: MOVE_CAP });
}

/** A refusal, with the engine's stable code ("bad_dir", "bad_spawn", "no_undo", "undo_spent" ...). */
export class ArcadeError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {number | null} [step] the offending step of a replayed record
   */
  constructor(code, message, step = null) {
    super(message);
    this.name = "ArcadeError";
    this.code = code;
    this.step = step;
  }
}

/**
 * @param {string} id
 * @returns {Mode}
 */
export function modeById(id) {
  const found = Object.hasOwn(MODES, id) ? MODES[id] : undefined;
  if (!found) throw new ArcadeError("bad_mode", `"${id}" is not an arcade mode.`);
  return found;
}

// [axis, toward the last index] of each direction, by the number of dimensions.
/** @type {Record<number, Partial<Record<Direction, [number, boolean]>>>} */
const AXES = {
  2: { left: [0, false], right: [0, true], up: [1, false], down: [1, true] },
  3: {
    left: [0, false],
    right: [0, true],
    backward: [1, false],
    forward: [1, true],
    down: [2, false],
    up: [2, true],
  },
};

/**
 * The board's directions: four on the square, six on the cubes.
 * @param {number[]} shape
 * @returns {Direction[]}
 */
export function directions(shape) {
  return /** @type {Direction[]} */ (Object.keys(AXES[shape.length]));
}

/** @param {number[]} shape */
export function cellCount(shape) {
  return shape.reduce((product, side) => product * side, 1);
}

/**
 * The coordinates [x, y] or [x, y, z] of a cell.
 * @param {number[]} shape
 * @param {number} index
 * @returns {number[]}
 */
export function coords(shape, index) {
  const side = shape[0];
  return shape.map((_, axis) => Math.floor(index / side ** axis) % side);
}

/**
 * @param {number[]} shape
 * @param {number[]} at coordinates
 */
export function cellIndex(shape, at) {
  return at.reduce((sum, value, axis) => sum + value * shape[0] ** axis, 0);
}

/** @type {Map<string, number[][]>} */
const LINES = new Map();

/**
 * Every line parallel to the direction's axis, each ordered from the wall slid toward.
 * @param {number[]} shape
 * @param {string} dir
 * @returns {number[][]}
 */
export function lines(shape, dir) {
  const key = `${shape.join("x")}:${dir}`;
  let found = LINES.get(key);
  if (found) return found;
  const axes = AXES[shape.length];
  const axis = Object.hasOwn(axes, dir) ? axes[/** @type {Direction} */ (dir)] : undefined;
  if (!axis) throw new ArcadeError("bad_dir", `"${dir}" is not a direction of this board.`);
  const [along, toLast] = axis;
  const side = shape[0];
  found = [];
  for (let index = 0; index < cellCount(shape); index += 1) {
    if (coords(shape, index)[along] !== 0) continue; // one line per cell on the axis' first wall
    const line = [];
    for (let step = 0; step < side; step += 1) line.push(index + step * side ** along);
    found.push(toLast ? line.reverse() : line);
  }
  LINES.set(key, found);
  return found;
}

/**
 * Slide one line toward its first cell (values read from the wall): the tiles close up; walking from the
 * wall, the first two neighbouring equal tiles merge into one of double value nearest the wall, and the walk
 * steps past both (a tile made by a merge never merges again in the same move).
 * @param {number[]} values
 * @returns {LineSlide}
 */
export function slideLine(values) {
  const tiles = [];
  for (let position = 0; position < values.length; position += 1) if (values[position]) tiles.push(position);
  /** @type {number[]} */ const out = [];
  /** @type {number[]} */ const merged = [];
  /** @type {number[][]} */ const sources = [];
  let gained = 0;
  for (let i = 0; i < tiles.length; i += 1) {
    const value = values[tiles[i]];
    if (i + 1 < tiles.length && values[tiles[i + 1]] === value) {
      merged.push(out.length);
      sources.push([tiles[i], tiles[i + 1]]);
      out.push(value * 2);
      gained += value * 2;
      i += 1;
    } else {
      sources.push([tiles[i]]);
      out.push(value);
    }
  }
  while (out.length < values.length) out.push(0);
  return { values: out, gained, merged, sources };
}

/**
 * Slide every line of the board toward the direction's wall.
 * @param {number[]} board
 * @param {number[]} shape
 * @param {string} dir
 * @returns {Slide}
 */
export function slide(board, shape, dir) {
  const after = board.slice();
  let gained = 0;
  /** @type {number[]} */ const merged = [];
  /** @type {TileMove[]} */ const tiles = [];
  for (const line of lines(shape, dir)) {
    const done = slideLine(line.map((cell) => board[cell]));
    gained += done.gained;
    line.forEach((cell, position) => {
      after[cell] = done.values[position];
    });
    done.merged.forEach((position) => {
      merged.push(line[position]);
    });
    done.sources.forEach((from, position) => {
      for (const source of from) {
        tiles.push({ from: line[source], to: line[position], value: board[line[source]], merged: from.length > 1 });
      }
    });
  }
  const moved = after.some((value, cell) => value !== board[cell]);
  return { board: after, gained, moved, merged: merged.sort((a, b) => a - b), tiles };
}

/**
 * Whether some move changes the board: a cell is empty, or two equal tiles are neighbours along an axis.
 * @param {number[]} board
 * @param {number[]} shape
 */
export function hasMove(board, shape) {
  if (board.includes(0)) return true;
  const side = shape[0];
  return board.some((value, index) =>
    coords(shape, index).some((at, axis) => at + 1 < side && board[index + side ** axis] === value),
  );
}

/**
 * Every cell holds a tile and no two equal tiles are neighbours along any axis: no move is left.
 * @param {number[]} board
 * @param {number[]} shape
 */
export function isStuck(board, shape) {
  return !hasMove(board, shape);
}

/**
 * @param {number[]} board
 * @returns {number[]} the indexes of the empty cells, in order
 */
export function emptyCells(board) {
  const empty = [];
  for (let index = 0; index < board.length; index += 1) if (board[index] === 0) empty.push(index);
  return empty;
}

/**
 * How many tiles a move that changed the board spawns (board: after its slide): the mode's count, or
 * fewer when fewer cells are empty.
 * @param {number[]} board
 * @param {Mode} mode
 */
export function spawnCount(board, mode) {
  return Math.min(mode.spawns, emptyCells(board).length);
}

/**
 * The board with the spawns placed in order.
 * @param {number[]} board
 * @param {Spawn[]} spawns
 * @returns {number[]}
 */
export function placeSpawns(board, spawns) {
  const after = board.slice();
  for (const { cell, value } of spawns) {
    if (value !== 2 && value !== 4) throw new ArcadeError("bad_spawn", `A new tile is a 2 or a 4, not ${value}.`);
    if (!(cell >= 0 && cell < after.length) || after[cell] !== 0) {
      throw new ArcadeError("bad_spawn", `Cell ${cell} is not an empty cell of the board.`);
    }
    after[cell] = value;
  }
  return after;
}

/**
 * New tiles dealt by the page itself, for a local run (offline: it never ranks): each on a cell chosen
 * uniformly among the cells still empty, then a 4 at the mode's four-rate. The server deals a ranked run's.
 * @param {number[]} board
 * @param {Mode} mode
 * @param {number} count
 * @param {() => number} [random] a float in [0, 1)
 * @returns {Spawn[]}
 */
export function dealSpawns(board, mode, count, random = Math.random) {
  const empty = emptyCells(board);
  if (count > empty.length) throw new ArcadeError("bad_spawn", "No empty cell is left for a new tile.");
  /** @type {Spawn[]} */ const spawns = [];
  for (let i = 0; i < count; i += 1) {
    const [cell] = empty.splice(Math.floor(random() * empty.length), 1);
    spawns.push({ cell, value: random() < mode.fourRate ? 4 : 2 });
  }
  return spawns;
}
