// The 3D board's cameras: the orbit the player turns, the lens that fits the board to the canvas and keeps
// it clear of the far-side inset (fitPicture, the pure part), the inset's place and the far camera.

import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { SIZE } from "../game.js";
import { BASE_W, BEAD_R, BEAD_Y0, LEVEL_H, PEG_H, PEG_RING } from "./geometry.js";

export const DEFAULT_FOV = 34;
export const DEFAULT_DISTANCE = 12.6;
export const DEFAULT_POLAR = THREE.MathUtils.degToRad(57);
const FRAME_MARGIN = 6; // px between the board and the canvas edge
const INSET_MARGIN = 8; // px between the pegs and the inset

/** @typedef {{x: number, y: number, w: number, h: number}} Rect a rectangle of canvas pixels */

const STILL = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

/** Whether the device asks for less motion (its system's setting): no glide after a turn, no falling beads. */
export function lessMotion() {
  return !!STILL?.matches;
}
/** @typedef {{u: number, v: number}} Direction screen x and y per unit of depth */
/** @typedef {{focal: number, cx: number, cy: number}} Lens a focal length in pixels and the picture's centre */

/**
 * The largest picture of a shape that fits a canvas and keeps part of it clear of a rectangle.
 * `frame` and `avoid` are directions {u, v} (screen x and y per unit of depth); a direction lands on the
 * canvas at (cx + focal·u, cy + focal·v). Returns {focal, cx, cy}: focal at most `maxFocal`, every
 * `frame` point inside the canvas, no `avoid` point inside `inset` (a top-right rectangle, grown by a
 * margin), and the picture as near the canvas centre as that allows: it moves down, away from the inset,
 * and also left only where that buys a clearly bigger picture (wide canvases have room at the sides).
 * @param {{width: number, height: number, frame: Direction[], avoid: Direction[], inset: Rect | null,
 *          maxFocal: number}} shape
 * @returns {Lens}
 */
export function fitPicture({ width, height, frame, avoid, inset, maxFocal }) {
  const m = FRAME_MARGIN;
  const umin = Math.min(...frame.map((p) => p.u));
  const umax = Math.max(...frame.map((p) => p.u));
  const vmin = Math.min(...frame.map((p) => p.v));
  const vmax = Math.max(...frame.map((p) => p.v));
  /** @type {(focal: number, cx: number, cy: number) => boolean} */
  const clear = (focal, cx, cy) => {
    if (!inset) return true;
    const x0 = inset.x - INSET_MARGIN;
    const y1 = inset.y + inset.h + INSET_MARGIN;
    return avoid.every((p) => cx + focal * p.u < x0 || cy + focal * p.v > y1);
  };
  /** @type {(x: number, lo: number, hi: number) => number} */
  const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));
  /**
   * For a focal length: the most centred placement that fits, or null.
   * @type {(focal: number, sideways: boolean) => Lens | null}
   */
  const place = (focal, sideways) => {
    const cxLo = m - focal * umin;
    const cxHi = width - m - focal * umax;
    const cyLo = m - focal * vmin;
    const cyHi = height - m - focal * vmax;
    if (cxLo > cxHi || cyLo > cyHi) return null;
    const cx0 = clamp(width / 2, cxLo, cxHi);
    const cy0 = clamp(height / 2, cyLo, cyHi);
    const steps = 24;
    for (let i = 0; i <= steps; i++) {
      const cy = cy0 + ((cyHi - cy0) * i) / steps;
      if (clear(focal, cx0, cy)) return { focal, cx: cx0, cy };
    }
    for (let i = 1; sideways && i <= steps; i++) {
      const cx = cx0 + ((cxLo - cx0) * i) / steps;
      if (clear(focal, cx, cyHi)) return { focal, cx, cy: cyHi };
    }
    return null;
  };
  /** @type {(sideways: boolean) => Lens} */
  const largest = (sideways) => {
    let best = place(maxFocal, sideways);
    if (best) return best;
    let lo = maxFocal * 0.2;
    let hi = maxFocal;
    best = place(lo, sideways) || { focal: lo, cx: width / 2, cy: height / 2 };
    for (let i = 0; i < 20; i++) {
      const mid = (lo + hi) / 2;
      const p = place(mid, sideways);
      if (p) {
        best = p;
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return best;
  };
  const centred = largest(false);
  const shifted = largest(true);
  return shifted.focal > centred.focal * 1.05 ? shifted : centred;
}

/**
 * The far-side inset on a canvas of w × h pixels: a third of the short side (at most 200 px), on a
 * phone a quarter so the board keeps its size, in the top right corner.
 * @param {number} w
 * @param {number} h
 * @returns {Rect}
 */
export function insetRect(w, h) {
  const short = Math.min(w, h);
  const s = Math.round(Math.min(200, Math.max(88, short * (w < 520 ? 0.25 : 0.32))));
  return { x: w - s - 8, y: 8, w: s, h: s };
}

/**
 * The main camera's lens (field of view and a shift of the picture) for a canvas of w × h: from the
 * default height and distance the whole board fits the canvas and no peg or bead comes under the
 * far-side inset, whichever way the board is turned. Keeps the usual 34° lens and a centred picture when
 * they already fit; otherwise the picture moves (see fitPicture) and shrinks just enough.
 * @param {number} w
 * @param {number} h
 * @param {Rect | null} inset
 * @param {THREE.Vector3} target the point the camera orbits
 * @returns {{fov: number, offsetX: number, offsetY: number}} degrees; the view offset in pixels
 */
export function lensFor(w, h, inset, target) {
  const pose = new THREE.PerspectiveCamera();
  pose.position.setFromSphericalCoords(DEFAULT_DISTANCE, DEFAULT_POLAR, 0).add(target);
  pose.lookAt(target);
  pose.updateMatrixWorld();
  // Directions from the camera (x right, y down, per unit of depth) of what must stay visible.
  /** @type {(x: number, y: number, z: number) => Direction} */
  const dir = (x, y, z) => {
    const p = new THREE.Vector3(x, y, z).applyMatrix4(pose.matrixWorldInverse);
    return { u: p.x / -p.z, v: -p.y / -p.z };
  };
  const half = BASE_W / 2;
  const frame = []; // must lie inside the canvas: the base as it first stands, the pegs at any turn
  const pegs = []; // must stay clear of the inset: pegs and their beads at any turn
  for (const y of [0.25, -0.5]) {
    for (const [x, z] of [
      [-half, -half],
      [half, -half],
      [-half, half],
      [half, half],
    ])
      frame.push(dir(x, y, z));
  }
  // Beads reach out further but not as high as the peg tips.
  const topBead = BEAD_Y0 + (SIZE - 1) * LEVEL_H + BEAD_R;
  const rings = [
    [PEG_RING + BEAD_R, 0],
    [PEG_RING + BEAD_R, topBead],
    [PEG_RING + 0.1, PEG_H],
  ];
  for (let a = 0; a < 360; a += 5) {
    const t = THREE.MathUtils.degToRad(a);
    for (const [r, y] of rings) pegs.push(dir(r * Math.cos(t), y, r * Math.sin(t)));
  }
  frame.push(...pegs);
  const maxFocal = h / 2 / Math.tan(THREE.MathUtils.degToRad(DEFAULT_FOV / 2));
  const lens = fitPicture({ width: w, height: h, frame, avoid: pegs, inset, maxFocal });
  return {
    fov: THREE.MathUtils.radToDeg(2 * Math.atan(h / 2 / lens.focal)),
    offsetX: w / 2 - lens.cx,
    offsetY: h / 2 - lens.cy,
  };
}

/**
 * @typedef {object} OrbitPlace where the orbit starts and how far it may go (the board's by default)
 * @property {number} [distance] from the target
 * @property {number} [polar] the height: radians from straight above
 * @property {number} [azimuth] radians, as OrbitControls' getAzimuthalAngle reads it
 * @property {number} [minDistance]
 * @property {number} [maxDistance]
 * @property {number} [minPolar] radians
 * @property {number} [maxPolar] radians
 */

/**
 * The main camera at its default place, and the orbit controls that turn it (no panning, bounded zoom
 * and height), calling `onChange` whenever the view moves. `place` changes the board's default place and
 * bounds (the arcade's cube).
 * @param {HTMLElement} dom the canvas that takes the drags
 * @param {THREE.Vector3} target
 * @param {() => void} onChange
 * @param {OrbitPlace} [place]
 */
export function createOrbit(dom, target, onChange, place = {}) {
  const deg = THREE.MathUtils.degToRad;
  const camera = new THREE.PerspectiveCamera(DEFAULT_FOV, 1, 0.1, 100);
  camera.position.setFromSphericalCoords(
    place.distance ?? DEFAULT_DISTANCE,
    place.polar ?? DEFAULT_POLAR,
    place.azimuth ?? 0,
  );
  camera.position.add(target);
  const controls = new OrbitControls(camera, dom);
  controls.target.copy(target);
  controls.enablePan = false;
  controls.enableDamping = !lessMotion(); // the view glides to a stop after a drag, unless asked not to move
  controls.dampingFactor = 0.12;
  controls.rotateSpeed = 0.8;
  controls.minDistance = place.minDistance ?? 9;
  controls.maxDistance = place.maxDistance ?? 22;
  controls.minPolarAngle = place.minPolar ?? deg(8);
  controls.maxPolarAngle = place.maxPolar ?? deg(84);
  controls.update();
  controls.addEventListener("change", onChange);
  return { camera, controls };
}

/**
 * Puts the far camera on the same orbit turned half way round, a little higher so levels separate.
 * @param {THREE.PerspectiveCamera} far
 * @param {THREE.Camera} camera the main camera
 * @param {THREE.Vector3} target
 */
export function placeFarCamera(far, camera, target) {
  const offset = new THREE.Vector3().subVectors(camera.position, target);
  const sph = new THREE.Spherical().setFromVector3(offset);
  sph.theta += Math.PI;
  sph.phi = THREE.MathUtils.clamp(sph.phi, 0.7, 1.25);
  sph.radius = 11.2;
  far.position.setFromSpherical(sph).add(target);
  far.lookAt(target);
  far.aspect = 1;
  far.updateProjectionMatrix();
}
