// Picking on the 3D board: which peg a click or tap aims at, and the pointer wiring that tells a tap
// (pick a peg) from a drag (the orbit turns the view).

import * as THREE from "three";
import { COLUMNS, PEGS, SIZE } from "../game.js";
import { PEG_H, pegPosition, SPACING } from "./geometry.js";

const CLICK_SLOP_MOUSE = 6;
const CLICK_SLOP_TOUCH = 12;

/** @typedef {import("./camera.js").Rect} Rect */

/**
 * Distance from point (x, y) to the segment a-b, all in the same screen pixels.
 * @param {number} x
 * @param {number} y
 * @param {{x: number, y: number}} a
 * @param {{x: number, y: number}} b
 */
export function distanceToSegment(x, y, a, b) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : THREE.MathUtils.clamp(((x - a.x) * dx + (y - a.y) * dy) / len2, 0, 1);
  return Math.hypot(x - (a.x + t * dx), y - (a.y + t * dy));
}

/**
 * The peg a person aims at, at canvas point (px, py) of a view {x, y, w, h} drawn by `camera`: the bead
 * the ray meets first; else the peg whose stick passes nearest on screen, within a finger's width (the
 * front one where two sticks overlap); else the hole nearest to where the ray meets the base.
 * Only what is drawn counts, so a peg behind another is picked where it shows.
 * @param {THREE.Camera} camera
 * @param {Rect} view
 * @param {number} px
 * @param {number} py
 * @param {THREE.Group} beads the beads on the board (each mesh's userData.peg names its peg)
 * @returns {string | null}
 */
export function pickIn(camera, view, px, py, beads) {
  const ndc = new THREE.Vector2(((px - view.x) / view.w) * 2 - 1, -((py - view.y) / view.h) * 2 + 1);
  const ray = new THREE.Raycaster();
  ray.setFromCamera(ndc, camera);
  const bead = ray.intersectObjects(beads.children, false)[0];
  if (bead) return bead.object.userData.peg;

  /** @type {(v: THREE.Vector3) => {x: number, y: number, depth: number}} */
  const onView = (v) => {
    const p = v.clone().project(camera);
    return { x: view.x + ((p.x + 1) / 2) * view.w, y: view.y + ((1 - p.y) / 2) * view.h, depth: p.z };
  };
  const reach = THREE.MathUtils.clamp(view.w * 0.05, 8, 28);
  /** @type {{peg: string, d: number, depth: number} | null} */
  let best = null;
  for (const peg of PEGS) {
    const foot = pegPosition(peg);
    const tip = foot.clone();
    tip.y = PEG_H;
    const a = onView(foot);
    const d = distanceToSegment(px, py, a, onView(tip));
    if (d > reach) continue;
    const clearlyNearer = !best || d < best.d - 2;
    const asNearButInFront = best && Math.abs(d - best.d) <= 2 && a.depth < best.depth;
    if (clearlyNearer || asNearButInFront) best = { peg, d, depth: a.depth };
  }
  if (best) return best.peg;

  const onBase = ray.ray.intersectPlane(new THREE.Plane(new THREE.Vector3(0, 1, 0), 0), new THREE.Vector3());
  if (!onBase) return null;
  const col = Math.round(onBase.x / SPACING + 1.5);
  const row = Math.round(1.5 - onBase.z / SPACING);
  if (col < 0 || col >= SIZE || row < 0 || row >= SIZE) return null;
  const hole = pegPosition(COLUMNS[col] + (row + 1));
  return Math.hypot(onBase.x - hole.x, onBase.z - hole.z) <= SPACING / 2 ? COLUMNS[col] + (row + 1) : null;
}

/**
 * A tap (a press and release that moved less than a finger's slop, one pointer) picks the peg under it;
 * a mouse hovering over a peg shows it. Anything else is the orbit's drag.
 * @param {HTMLElement} el the canvas
 * @param {{pickAt: (x: number, y: number) => string | null, onPick: (peg: string) => void,
 *          onHover: (peg: string | null) => void}} to
 */
export function bindPointer(el, { pickAt, onPick, onHover }) {
  /** @type {{x: number, y: number, id: number, type: string, multi: boolean} | null} */
  let down = null;
  /** @type {string | null} */
  let hovered = null;
  el.addEventListener("pointerdown", (ev) => {
    down = { x: ev.clientX, y: ev.clientY, id: ev.pointerId, type: ev.pointerType, multi: !ev.isPrimary };
  });
  el.addEventListener("pointerup", (ev) => {
    if (!down || down.id !== ev.pointerId) return;
    const slop = down.type === "touch" ? CLICK_SLOP_TOUCH : CLICK_SLOP_MOUSE;
    const moved = Math.hypot(ev.clientX - down.x, ev.clientY - down.y);
    const wasMulti = down.multi;
    down = null;
    if (wasMulti || moved > slop) return; // a rotation, not a move
    const peg = pickAt(ev.clientX, ev.clientY);
    if (peg) onPick(peg);
  });
  el.addEventListener("pointercancel", () => {
    down = null;
  });
  el.addEventListener("pointermove", (ev) => {
    if (ev.pointerType !== "mouse" || ev.buttons) return;
    const peg = pickAt(ev.clientX, ev.clientY);
    if (peg !== hovered) {
      hovered = peg;
      el.style.cursor = peg ? "pointer" : "grab";
      onHover(peg);
    }
  });
  el.addEventListener("pointerleave", () => {
    if (hovered) {
      hovered = null;
      onHover(null);
    }
  });
}
