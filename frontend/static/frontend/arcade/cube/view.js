// The 3D view of a cube run (play.js's view interface: mount, show, direction, keysHelp, finish): the cube
// in three.js on the board's stage (board/scene.js's buildStage, board/camera.js's orbit, board/drawing.js's
// frame with an inset), turned by a drag (two fingers on a phone, where one finger swipes a move), the
// back-view window over it (backview.js), and the controls relative to the camera (controls.js). A key is
// read against the view as it is at that moment and played at once; the frame is drawn later, when the
// browser asks for one (input never waits for a frame).

import * as THREE from "three";
import { createOrbit, fitPicture } from "../../board/camera.js";
import { drawFrame } from "../../board/drawing.js";
import { buildStage } from "../../board/scene.js";
import { pgettext } from "../../i18n.js";
import { BackView } from "./backview.js";
import { CONTROLS, keyDirection, swipeControl } from "./controls.js";
import { cellPosition, reach } from "./geometry.js";
import { Tiles } from "./tiles.js";

/** @typedef {import("./tiles.js").Change} Change */
/** @typedef {import("./controls.js").Control} Control */
/** @typedef {{mode: {shape: number[]}, play?: (dir: string) => void}} MountContext */

const START_AZIMUTH = 0.5; // radians: the front and the right face in view, the top from above
const START_POLAR = THREE.MathUtils.degToRad(58);
const FAR_AZIMUTH = START_AZIMUTH + Math.PI; // the back view: the back, the left face and the bottom
const FAR_POLAR = THREE.MathUtils.degToRad(122);
const DISTANCE = 3.4; // in the cube's reaches (geometry.js)

/** The inputs' names, in the page's language. @param {Control} control */
export function controlWord(control) {
  const words = {
    left: pgettext("3D 2048", "Left"),
    right: pgettext("3D 2048", "Right"),
    away: pgettext("3D 2048", "Away"),
    near: pgettext("3D 2048", "Toward you"),
    up: pgettext("3D 2048", "Up"),
    down: pgettext("3D 2048", "Down"),
  };
  return words[control];
}

/** The keys as a person reads them: "←", "A", "E", "Page Up". @param {string} key */
function keyName(key) {
  const names = { ArrowLeft: "←", ArrowRight: "→", ArrowUp: "↑", ArrowDown: "↓", PageUp: "PgUp", PageDown: "PgDn" };
  return names[/** @type {keyof typeof names} */ (key)] || key.toUpperCase();
}

/** The cube's view: built on mount, in the element given (which it fills). */
export class CubeView {
  constructor() {
    /** @type {number[]} */
    this.shape = [3, 3, 3];
    this.dirty = true;
    /** the pending animation frame's id, 0 when none is asked for (a frame is asked for only to draw) */
    this.raf = 0;
    this.loop = this.loop.bind(this);
    this.width = 1;
    this.height = 1;
    /** @type {Change | null} the last move's change (tests read where its tiles went) */
    this.lastChange = null;
    this.themed = false; // the theme is followed (once for every mount)
    this.dark = false;
    this.frames = 0; // frames drawn (the bench reads it)
  }

  /**
   * @param {HTMLElement} el
   * @param {MountContext} ctx
   */
  mount(el, ctx) {
    this.dispose(); // mounted again: another size of cube
    this.shape = ctx.mode.shape;
    this.host = document.createElement("div");
    this.host.className = "cube3d";
    el.classList.add("cube-board"); // square (cube.css)
    el.replaceChildren(this.host);
    const { renderer, scene, software } = buildStage(this.host, { shadows: false });
    this.stage = { renderer, scene };
    this.software = software;
    const radius = reach(this.shape[0]);
    const target = new THREE.Vector3();
    const distance = radius * DISTANCE;
    const { camera, controls } = createOrbit(renderer.domElement, target, () => this.touch(), {
      distance,
      polar: START_POLAR,
      azimuth: START_AZIMUTH,
      minDistance: distance * 0.8,
      maxDistance: distance * 1.4,
      minPolar: THREE.MathUtils.degToRad(10),
      maxPolar: THREE.MathUtils.degToRad(150),
    });
    // One finger swipes a move (swipes below); two turn the cube and pinch its size.
    controls.touches = { ONE: null, TWO: THREE.TOUCH.DOLLY_ROTATE };
    this.camera = camera;
    this.controls = controls;
    this.far = new THREE.PerspectiveCamera(2 * THREE.MathUtils.radToDeg(Math.asin(1 / DISTANCE)) * 1.12, 1, 0.1, 100);
    this.far.position.setFromSphericalCoords(distance, FAR_POLAR, FAR_AZIMUTH);
    this.far.lookAt(target);
    // The stage's lamps shine from above and in front: a lamp beside the back view lights what it shows.
    const back = new THREE.DirectionalLight(0xffffff, 1.1);
    back.position.copy(this.far.position);
    scene.add(back);
    this.tiles = new Tiles(scene, this.shape, software);
    this.backview = new BackView(
      this.host,
      () => this.touch(),
      () => this.fit(),
    );
    if (ctx.play) this.swipes(ctx.play);
    if (!this.themed) {
      // The page's theme as <html data-theme> has it (prefs.js sets it from the preferences).
      this.themed = true;
      const root = document.documentElement;
      const follow = () => {
        this.dark = root.dataset.theme === "dark";
        this.tiles?.setTheme(this.dark);
        this.touch();
      };
      new MutationObserver(follow).observe(root, { attributes: true, attributeFilter: ["data-theme"] });
      follow();
    }
    this.tiles.setTheme(!!this.dark);
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(this.host);
    this.resize();
  }

  /** Something drawn changed: the next frame draws it (an idle cube asks for no frames). */
  touch() {
    this.dirty = true;
    if (!this.raf && this.stage) this.raf = requestAnimationFrame(this.loop);
  }

  /**
   * @param {number[]} board
   * @param {Change | null} [change]
   */
  show(board, change) {
    if (change?.tiles) this.lastChange = change;
    this.tiles?.show(board, change, performance.now());
    this.touch();
  }

  /** Every animation at its end at once. */
  finish() {
    this.tiles?.finish();
    this.touch();
  }

  /** The camera's azimuth in radians (0 in front of the cube; OrbitControls' reading). */
  azimuth() {
    return this.controls ? this.controls.getAzimuthalAngle() : START_AZIMUTH;
  }

  /**
   * The board's direction a key plays now, or null.
   * @param {string} key
   */
  direction(key) {
    return keyDirection(key, this.azimuth());
  }

  /** The six inputs for the page's buttons and its keys' help: the first key of each is the one to play. */
  keysHelp() {
    return CONTROLS.map(({ control, keys, symbol }) => ({
      key: keys[0],
      keys: keys.map(keyName),
      symbol,
      label: controlWord(control),
    }));
  }

  /**
   * Turns the view to `azimuth` at once, at the same height and distance (tests, the bench).
   * @param {number} azimuth
   */
  turnTo(azimuth) {
    if (!this.camera || !this.controls) return;
    const target = this.controls.target;
    const around = new THREE.Spherical().setFromVector3(this.camera.position.clone().sub(target));
    around.theta = azimuth;
    this.camera.position.setFromSpherical(around).add(target);
    this.controls.update();
    this.camera.updateMatrixWorld();
    this.touch();
  }

  /**
   * Where a cell's centre is on the screen now, in client pixels (tests: where a tile went, on screen).
   * @param {number} cell
   */
  screenPoint(cell) {
    if (!this.camera || !this.host) return null;
    const rect = this.host.getBoundingClientRect();
    this.camera.updateMatrixWorld();
    const p = cellPosition(this.shape, cell).project(this.camera);
    return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height };
  }

  /** @param {(dir: string) => void} play */
  swipes(play) {
    const dom = /** @type {HTMLElement} */ (this.stage?.renderer.domElement);
    /** @type {Map<number, {x: number, y: number}>} */
    const down = new Map();
    let spoilt = false; // a second finger came: the gesture turns the cube, it is no swipe
    dom.addEventListener("pointerdown", (ev) => {
      if (ev.pointerType !== "touch") return;
      down.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (down.size > 1) spoilt = true;
    });
    /** @param {PointerEvent} ev */
    const up = (ev) => {
      const start = down.get(ev.pointerId);
      down.delete(ev.pointerId);
      if (!start) return;
      const wasSpoilt = spoilt;
      if (down.size === 0) spoilt = false;
      if (wasSpoilt || ev.type === "pointercancel") return;
      const control = swipeControl(ev.clientX - start.x, ev.clientY - start.y);
      const dir = control && keyDirection(CONTROLS.find((c) => c.control === control)?.keys[0] || "", this.azimuth());
      if (dir) play(dir);
    };
    dom.addEventListener("pointerup", up);
    dom.addEventListener("pointercancel", up);
    // A finger on the cube never scrolls the page (touch-action: none in the CSS says so too).
    this.host?.addEventListener("touchmove", (ev) => ev.preventDefault(), { passive: false });
  }

  resize() {
    if (!this.host || !this.stage || !this.camera) return;
    const w = Math.max(1, this.host.clientWidth);
    const h = Math.max(1, this.host.clientHeight);
    this.width = w;
    this.height = h;
    this.stage.renderer.setSize(w, h, false);
    this.backview?.layout();
    this.fit();
  }

  /**
   * The main camera's lens: the cube as large as the view allows, whichever way it is turned, and clear
   * of the back-view window where it starts (board/camera.js's fitPicture, as the 3D board keeps its pegs
   * clear of its inset).
   */
  fit() {
    if (!this.camera) return;
    const { width: w, height: h } = this;
    const reachAt = Math.tan(Math.asin(1 / DISTANCE)) * 1.04; // the cube's outline, in screen units a unit deep
    const outline = Array.from({ length: 48 }, (_, i) => ({
      u: reachAt * Math.cos((i * Math.PI) / 24),
      v: reachAt * Math.sin((i * Math.PI) / 24),
    }));
    const inset = this.backview ? this.backview.corner() : null;
    const maxFocal = Math.min(w, h) / 2 / reachAt;
    const lens = fitPicture({ width: w, height: h, frame: outline, avoid: outline, inset, maxFocal });
    this.camera.aspect = w / h;
    this.camera.fov = THREE.MathUtils.radToDeg(2 * Math.atan(h / 2 / lens.focal));
    this.camera.setViewOffset(w, h, w / 2 - lens.cx, h / 2 - lens.cy, w, h);
    this.camera.updateProjectionMatrix();
    this.touch();
  }

  /**
   * A frame: the orbit's easing and the tiles' animations step, the picture is drawn if anything changed,
   * and another frame is asked for only while something still moves.
   * @param {number} now
   */
  loop(now) {
    this.raf = 0;
    const turning = !!this.controls?.update(); // its change event marks the frame dirty
    const animating = !!this.tiles?.anims.length;
    if (animating) {
      this.tiles?.step(now);
      this.dirty = true;
    }
    if (this.dirty) {
      this.dirty = false;
      this.render();
    }
    if ((turning || animating) && !this.raf) this.raf = requestAnimationFrame(this.loop);
  }

  render() {
    if (!this.stage || !this.camera || !this.far || !this.tiles) return;
    const tiles = this.tiles;
    drawFrame(this.stage, {
      camera: this.camera,
      far: this.far,
      width: this.width,
      height: this.height,
      inset: this.backview ? this.backview.rect() : null,
      before: (camera) => tiles.faceCamera(camera),
      insetClear: this.dark ? [0x141a22, 0.45] : [0xffffff, 0.35], // the window's backdrop, under its picture
    });
    this.frames += 1;
  }

  dispose() {
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.resizeObserver?.disconnect();
    this.controls?.dispose();
    this.stage?.renderer.dispose();
    this.stage?.renderer.forceContextLoss(); // a browser keeps few WebGL contexts: a new size makes another
    this.host?.remove();
    this.stage = undefined; // nothing is drawn until the next mount
    this.lastChange = null;
  }
}

/** @returns {CubeView} */
export function cubeView() {
  return new CubeView();
}
