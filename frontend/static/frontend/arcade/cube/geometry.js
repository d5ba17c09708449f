// Where the cube's cells stand, in world units, and the tiles' colours. The cube is centred on the origin;
// the board's x runs along the world's +x (left to right), its y (front to back) along -z, away from the
// camera's first place, and its z (bottom to top) along +y, the world's up. No state.

import * as THREE from "three";
import { coords } from "../rules.js";

export const SPACING = 1;
export const TILE = 0.6; // a tile's side, in cells: the gaps let the inner tiles be seen

/**
 * The centre of a cell of a cube of side shape[0].
 * @param {number[]} shape
 * @param {number} cell
 */
export function cellPosition(shape, cell) {
  const [x, y, z] = coords(shape, cell);
  const mid = (shape[0] - 1) / 2;
  return new THREE.Vector3((x - mid) * SPACING, (z - mid) * SPACING, (mid - y) * SPACING);
}

/**
 * The radius of the sphere that holds every tile of a cube of side n, whichever way it is turned.
 * @param {number} n
 */
export function reach(n) {
  return (((n - 1) / 2) * SPACING + TILE / 2) * Math.sqrt(3);
}

// The tiles' colours by value, as 2048 paints them; the text dark on the two lightest.
/** @type {Record<number, string>} */
const FILL = {
  2: "#eee4da",
  4: "#ede0c8",
  8: "#f2b179",
  16: "#f59563",
  32: "#f67c5f",
  64: "#f65e3b",
  128: "#edcf72",
  256: "#edcc61",
  512: "#edc850",
  1024: "#edc53f",
  2048: "#edc22e",
};

/**
 * A tile's fill and text colours.
 * @param {number} value
 * @returns {{fill: string, ink: string}}
 */
export function tileColours(value) {
  return { fill: FILL[value] || "#3c3a32", ink: value <= 4 ? "#5b524a" : "#ffffff" };
}
