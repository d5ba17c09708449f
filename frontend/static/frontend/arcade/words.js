// The arcade board in words, for a screen reader (the arcade pages' "board in words", like the room's blind
// mode): the board as rows of numbers, each move's merges and new tiles as a sentence, the score on demand.
// Pure: texts only.

import { formatNumber, gettext, listText, ngettext } from "../i18n.js";
import { coords } from "./rules.js";

/** @typedef {import("./rules.js").Spawn} Spawn */

/** A cell's name: "row 2, column 3" on the 4x4; "layer 1, row 2, column 3" on a cube (layer 1 at the bottom, row 1 at the front). @param {number[]} shape @param {number} cell */
export function cellName(shape, cell) {
  const [x, y, z] = coords(shape, cell);
  if (shape.length === 2) return gettext("row %(row)s, column %(col)s", { row: y + 1, col: x + 1 });
  return gettext("layer %(layer)s, row %(row)s, column %(col)s", { layer: z + 1, row: y + 1, col: x + 1 });
}

/**
 * The board as lines of text: one a row ("Row 1: 2 · 4 · – · –"), a cube's layers from the top.
 * @param {number[]} board @param {number[]} shape
 * @returns {string[]}
 */
export function boardLines(board, shape) {
  const n = shape[0];
  /** @param {number} first */
  const row = (first) => {
    const values = [];
    for (let x = 0; x < n; x += 1) values.push(board[first + x] ? formatNumber(board[first + x]) : "–");
    return values.join(" · ");
  };
  if (shape.length === 2) {
    return Array.from({ length: n }, (_, y) => gettext("Row %(row)s: %(cells)s", { row: y + 1, cells: row(y * n) }));
  }
  const out = [];
  for (let z = n - 1; z >= 0; z -= 1) {
    for (let y = n - 1; y >= 0; y -= 1) {
      out.push(
        gettext("Layer %(layer)s, row %(row)s: %(cells)s", { layer: z + 1, row: y + 1, cells: row(z * n * n + y * n) }),
      );
    }
  }
  return out;
}

/**
 * What a move did, said: "Left. 2 and 2 made 4. New tile: 2 at row 1, column 4."
 * @param {number[]} shape @param {string} dirWord @param {number[]} board after the move
 * @param {number[]} merged cells of the tiles made by a merge @param {Spawn[]} spawned
 */
export function moveText(shape, dirWord, board, merged, spawned) {
  const parts = [dirWord];
  if (merged.length) {
    const made = merged.map((cell) => formatNumber(board[cell]));
    parts.push(gettext("Merged into %(tiles)s.", { tiles: listText(made) }));
  }
  if (spawned.length) {
    const news = spawned.map((s) =>
      gettext("%(value)s at %(cell)s", { value: s.value, cell: cellName(shape, s.cell) }),
    );
    parts.push(ngettext("New tile: %(tiles)s.", "New tiles: %(tiles)s.", spawned.length, { tiles: listText(news) }));
  }
  return parts.join(" ");
}

/** @param {number} score @param {number} best */
export function scoreText(score, best) {
  return gettext("Score %(score)s, best %(best)s.", { score, best });
}
