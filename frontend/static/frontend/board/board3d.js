// The 3D board: a wooden base, 16 pegs, red and yellow beads, soft light, drag to turn.
// A small inset renders the board from the far side so no bead stays hidden behind others.
// The board only draws what it is told (setPosition/setGhost/...); it never decides a move itself.
// This module is its API (the pages and the browser tests use only what Board3D offers); the scene is
// built in board/scene.js, the cameras fitted in board/camera.js, taps read in board/picking.js and the
// position drawn by board/drawing.js.

import * as THREE from "three";
import { PEGS } from "../game.js";
import { gettext } from "../i18n.js";
import { onPrefs, themeOf } from "../prefs.js";
import { createOrbit, insetRect, lensFor, lessMotion, placeFarCamera } from "./camera.js";
import { drawCross, drawFrame, drawGhost, drawPegs, drawPosition, drawThreats } from "./drawing.js";
import { PEG_H, pegPosition } from "./geometry.js";
import { bindPointer, pickIn } from "./picking.js";
import { buildScene, setSceneTheme } from "./scene.js";

/** The height in CSS pixels of the far-side inset's caption ("far side"), under its picture, never over it. */
const INSET_CAPTION = 18;

export { fitPicture } from "./camera.js";
export { COLOURS, cellPosition, pegPosition } from "./geometry.js";

/** @typedef {import("./drawing.js").Stacks} Stacks */
/** @typedef {import("./drawing.js").Cell} Cell */
/** @typedef {import("./drawing.js").Colour} Colour */
/** @typedef {import("./drawing.js").Animation} Animation */
/** @typedef {import("./camera.js").Rect} Rect */

/**
 * @typedef {object} BoardOptions
 * @property {(peg: string) => void} [onPick] a peg was tapped or clicked
 * @property {(azimuth: number) => void} [onView] the view turned (the camera's azimuth in radians)
 * @property {boolean} [inset] false: no far-side inset
 * @property {HTMLElement | null} [insetLabel] an element laid over the inset (hidden when there is none)
 * @property {boolean} [noEnvironment] no image-based light even on a GPU
 */

/** True when this browser can give us a WebGL context at all. */
export function hasWebGL() {
  try {
    const c = document.createElement("canvas");
    return !!(c.getContext("webgl2") || c.getContext("webgl"));
  } catch {
    return false;
  }
}

export class Board3D {
  /**
   * @param {HTMLElement} container element the canvas fills
   * @param {BoardOptions} opts
   */
  constructor(container, opts = {}) {
    this.container = container;
    this.opts = opts;
    this.onPick = opts.onPick || (() => {});
    this.onView = opts.onView || (() => {});
    this.insetEnabled = opts.inset !== false;
    this.dirty = true;
    /** the pending animation frame's id, 0 when none is asked for (the board asks only when it has to draw) */
    this.raf = 0;
    /** @type {Animation[]} */
    this.anims = [];
    /** @type {Stacks} */
    this.stacks = Object.fromEntries(PEGS.map((p) => [p, []]));
    /** @type {Map<string, import("./drawing.js").Bead>} "peg:level" -> mesh */
    this.beads = new Map();
    /** @type {string | null} */
    this.hovered = null;
    /** @type {string | null} */
    this.selected = null;
    /** @type {string | null} the peg the cross stands over (the browser tests read it) */
    this.crossPeg = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.crossTimer = undefined;
    this.width = 1;
    this.height = 1;

    this.parts = buildScene(container, opts);
    this.renderer = this.parts.renderer;
    this.software = this.parts.software;
    this.scene = this.parts.scene;
    this.ghost = this.parts.ghost; // the browser tests read where the ghost bead stands
    this.target = new THREE.Vector3(0, 1.25, 0);
    const { camera, controls } = createOrbit(this.renderer.domElement, this.target, () => {
      this.invalidate();
      this.onView(this.azimuth());
    });
    this.camera = camera;
    this.controls = controls;
    this.farCamera = new THREE.PerspectiveCamera(36, 1, 0.1, 100);

    bindPointer(this.renderer.domElement, {
      pickAt: (x, y) => this.pickAt(x, y),
      onPick: (peg) => this.onPick(peg),
      onHover: (peg) => {
        this.hovered = peg;
        this.refreshPegs();
      },
    });

    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.loop = this.loop.bind(this);
    this.resize();
  }

  /** The far-side inset in canvas pixels, or null when there is none. */
  insetRect() {
    return this.insetEnabled ? insetRect(this.width, this.height) : null;
  }

  // ---- picking and where things are on screen -----------------------------------------------------

  /**
   * The peg under a client point, using the far-side camera inside the inset.
   * @param {number} clientX
   * @param {number} clientY
   */
  pickAt(clientX, clientY) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const px = clientX - rect.left;
    const py = clientY - rect.top;
    const inset = this.insetRect();
    if (inset && px >= inset.x && px <= inset.x + inset.w && py >= inset.y && py <= inset.y + inset.h) {
      return pickIn(this.farCamera, inset, px, py, this.parts.beadGroup);
    }
    return pickIn(this.camera, { x: 0, y: 0, w: rect.width, h: rect.height }, px, py, this.parts.beadGroup);
  }

  /**
   * A client point over the given peg in the main view that really picks it (used by tests and hints).
   * @param {string} peg
   * @returns {{x: number, y: number} | null}
   */
  pegClientPoint(peg) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const inset = this.insetRect();
    for (const y of [3.4, 3.0, 2.5, 2.0, 1.4, 0.8, 0.3]) {
      const p = pegPosition(peg);
      p.y = y;
      p.project(this.camera);
      const px = ((p.x + 1) / 2) * rect.width;
      const py = ((1 - p.y) / 2) * rect.height;
      if (inset && px >= inset.x - 4 && py <= inset.y + inset.h + 4) continue;
      const x = rect.left + px;
      const yy = rect.top + py;
      if (this.pickAt(x, yy) === peg) return { x, y: yy };
    }
    return null;
  }

  /**
   * Where each peg stands in the main view, in client pixels: {a1: {base: {x, y}, top: {x, y}}, ...}
   * (top = the peg's tip). For tests and layout checks.
   */
  pegScreenPoints() {
    const rect = this.renderer.domElement.getBoundingClientRect();
    /** @type {(v: THREE.Vector3) => {x: number, y: number}} */
    const toClient = (v) => {
      const p = v.clone().project(this.camera);
      return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height };
    };
    /** @type {Record<string, {base: {x: number, y: number}, top: {x: number, y: number}}>} */
    const out = {};
    for (const peg of PEGS) {
      const base = pegPosition(peg);
      const top = base.clone();
      top.y = PEG_H;
      out[peg] = { base: toClient(base), top: toClient(top) };
    }
    return out;
  }

  /** The far-side inset in client pixels {x, y, width, height}, or null when there is none. */
  insetClientRect() {
    const inset = this.insetRect();
    if (!inset) return null;
    const rect = this.renderer.domElement.getBoundingClientRect();
    return { x: rect.left + inset.x, y: rect.top + inset.y, width: inset.w, height: inset.h };
  }

  /** Camera azimuth in radians: 0 looks from row 1 towards row 4; positive turns the camera towards +x. */
  azimuth() {
    return this.controls.getAzimuthalAngle();
  }

  /**
   * Turns the view to `azimuth` (radians, as azimuth() reads it) at once, at the same height and
   * distance, without a drag's easing; drawn on the next frame. What the view shows can be read at once
   * (pegScreenPoints, pegClientPoint).
   * @param {number} azimuth
   */
  turnTo(azimuth) {
    const target = this.controls.target;
    const around = new THREE.Spherical().setFromVector3(this.camera.position.clone().sub(target));
    around.theta = azimuth;
    this.camera.position.setFromSpherical(around).add(target);
    this.controls.update(); // looks at the target again; its change event marks the frame dirty
    this.camera.updateMatrixWorld();
  }

  // ---- drawing the position ----------------------------------------------------------------------

  /**
   * Draws a position; with `animate` the last move's bead falls onto its peg (unless the device asks for
   * less motion: then it is there at once).
   * @param {{stacks: Stacks, last?: Cell | null, line?: Cell[] | null, animate?: boolean}} pos
   */
  setPosition({ stacks, last = null, line = null, animate = false }) {
    const falls = animate && !lessMotion();
    this.anims.push(...drawPosition(this.parts, this.beads, { stacks, last, line, animate: falls }));
    this.stacks = stacks;
    this.invalidate();
  }

  /**
   * Shows a translucent bead where a drop on `peg` would land; null hides it.
   * @param {string | null} peg
   * @param {Colour | null} colour
   */
  setGhost(peg, colour) {
    this.selected = peg;
    drawGhost(this.parts, this.stacks, peg, colour);
    this.refreshPegs();
  }

  /**
   * A cross over a full peg, for a few seconds.
   * @param {string} peg
   */
  showCross(peg) {
    clearTimeout(this.crossTimer);
    this.crossPeg = peg;
    drawCross(this.parts, peg);
    this.invalidate();
    this.crossTimer = setTimeout(() => this.hideCross(), 4000);
  }

  hideCross() {
    clearTimeout(this.crossTimer);
    this.crossPeg = null;
    drawCross(this.parts, null);
    this.invalidate();
  }

  /** @param {Parameters<typeof drawThreats>[1]} threats {red: [{peg, level, playable}], yellow: [...]}, or null */
  setThreats(threats) {
    drawThreats(this.parts, threats);
    this.invalidate();
  }

  /** @param {"light" | "dark"} theme the page's theme: the wood follows it (board/scene.js) */
  setTheme(theme) {
    this.theme = theme;
    setSceneTheme(this.scene, theme === "dark");
    this.invalidate();
  }

  refreshPegs() {
    drawPegs(this.parts, this.selected, this.hovered);
    this.invalidate();
  }

  // ---- frame loop --------------------------------------------------------------------------------

  resize() {
    const w = Math.max(1, this.container.clientWidth);
    const h = Math.max(1, this.container.clientHeight);
    this.width = w;
    this.height = h;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    const inset = this.insetRect();
    // The main picture keeps clear of the inset and of its caption under it.
    const lens = lensFor(w, h, inset && { ...inset, h: inset.h + INSET_CAPTION }, this.target);
    this.camera.fov = lens.fov;
    this.camera.setViewOffset(w, h, lens.offsetX, lens.offsetY, w, h);
    this.camera.updateProjectionMatrix();
    const label = this.opts.insetLabel;
    if (label) {
      label.hidden = !inset;
      if (inset) {
        Object.assign(label.style, {
          left: `${inset.x}px`,
          top: `${inset.y}px`,
          width: `${inset.w}px`,
          height: `${inset.h + INSET_CAPTION}px`,
        });
        label.style.setProperty("--picture", `${inset.h}px`);
      }
    }
    this.invalidate();
  }

  /** Something drawn changed: the next frame draws it (a frame is asked for only then, not every frame). */
  invalidate() {
    this.dirty = true;
    if (!this.raf) this.raf = requestAnimationFrame(this.loop);
  }

  /**
   * A frame: the orbit's easing and the beads' animations step, the picture is drawn if anything changed,
   * and another frame is asked for only while something still moves (an idle board costs no frames).
   * @param {number} now
   */
  loop(now) {
    this.raf = 0;
    const turning = this.controls.update(); // its change event marks the frame dirty
    if (this.anims.length) {
      this.anims = this.anims.filter((step) => step(now));
      this.dirty = true;
    }
    if (this.dirty) {
      this.dirty = false;
      this.render();
    }
    if ((turning || this.anims.length) && !this.raf) this.raf = requestAnimationFrame(this.loop);
  }

  render() {
    const inset = this.insetRect();
    if (inset) placeFarCamera(this.farCamera, this.camera, this.controls.target);
    drawFrame(this.parts, { camera: this.camera, far: this.farCamera, width: this.width, height: this.height, inset });
  }

  dispose() {
    cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.loop = () => {};
    this.resizeObserver.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}

/**
 * Creates the 3D board, or returns null when WebGL is unavailable (the top view still works).
 * @param {HTMLElement} container
 * @param {BoardOptions} [opts]
 */
export function createBoard3D(container, opts) {
  if (!hasWebGL()) return null;
  try {
    return new Board3D(container, opts);
  } catch (err) {
    console.warn("3D board unavailable:", err);
    return null;
  }
}

/**
 * The page's board: the 3D board in `#board3d` turning with the top view, or, without WebGL (or with
 * `?flat`, which forces it), null: then the top view stands in the board's place with a note.
 * Expects `#board-wrap`, `#board3d`, `#inset-label` and `#topview` on the page.
 * @param {{topview: import("./topview.js").TopView, onPick: (peg: string) => void, note?: string}} opts
 */
export function mountBoard({
  topview,
  onPick,
  note = gettext("The 3D view is not available in this browser: play on the top view."),
}) {
  /** @type {(sel: string) => HTMLElement} */
  const $ = (sel) => {
    const el = document.querySelector(sel);
    if (!(el instanceof HTMLElement)) throw new Error(`the page has no ${sel}`);
    return el;
  };
  const board = new URLSearchParams(location.search).has("flat")
    ? null
    : createBoard3D($("#board3d"), {
        onPick,
        onView: (az) => topview.setAzimuth(az),
        insetLabel: $("#inset-label"),
      });
  // The preferences: the board's wood follows the page's theme; "top" shows the top view alone.
  onPrefs((p) => {
    board?.setTheme(themeOf(p));
    document.body.classList.toggle("board-only-top", p.board === "top");
  });
  if (!board) {
    const wrap = $("#board-wrap");
    wrap.classList.add("no-webgl");
    $("#inset-label").hidden = true;
    const p = document.createElement("p");
    p.className = "muted small no3d-note";
    p.textContent = note;
    wrap.prepend(p);
    wrap.appendChild($("#topview"));
  }
  return board;
}
