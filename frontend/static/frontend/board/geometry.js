// Where things stand on the 3D board, in world units: pegs, cells, the base. Shared by the scene, the
// camera, picking and drawing; no state.

import * as THREE from "three";
import { parsePeg } from "../game.js";

export const SPACING = 1.25;
export const BEAD_R = 0.42;
export const LEVEL_H = 0.84;
export const BEAD_Y0 = 0.47;
export const PEG_H = 3.7;
export const BASE_W = 5.9;
export const PEG_RING = 1.5 * SPACING * Math.SQRT2; // the corner pegs' distance from the centre

/** @type {{red: THREE.Color, yellow: THREE.Color}} */
export const COLOURS = {
  red: new THREE.Color("#d62839"),
  yellow: new THREE.Color("#f5b700"),
};

/**
 * The foot of a peg on the base.
 * @param {string} peg a peg name ("a1" ... "d4")
 */
export function pegPosition(peg) {
  const place = parsePeg(peg);
  if (!place) throw new RangeError(`not a peg: ${peg}`);
  // Column a..d along +x; row 1 nearest the default camera (which sits on +z).
  return new THREE.Vector3((place.col - 1.5) * SPACING, 0, (1.5 - place.row) * SPACING);
}

/**
 * The centre of the bead at `level` (1 = bottom) on `peg`.
 * @param {string} peg
 * @param {number} level
 */
export function cellPosition(peg, level) {
  const p = pegPosition(peg);
  p.y = BEAD_Y0 + (level - 1) * LEVEL_H;
  return p;
}
