// The 3D board: a wooden base, 16 pegs, red and yellow beads, soft light, drag to turn.
// A small inset renders the board from the far side so no bead stays hidden behind others.
// The board only draws what it is told (setPosition/setGhost/...); it never decides a move itself.

import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { RoomEnvironment } from "three/addons/environments/RoomEnvironment.js";
import { RoundedBoxGeometry } from "three/addons/geometries/RoundedBoxGeometry.js";
import { COLUMNS, PEGS, parsePeg, SIZE } from "./game.js";

const SPACING = 1.25;
const BEAD_R = 0.42;
const LEVEL_H = 0.84;
const BEAD_Y0 = 0.47;
const PEG_H = 3.7;
const BASE_W = 5.9;
const CLICK_SLOP_MOUSE = 6;
const CLICK_SLOP_TOUCH = 12;

export const COLOURS = {
  red: new THREE.Color("#d62839"),
  yellow: new THREE.Color("#f5b700"),
};

export function pegPosition(peg) {
  const { col, row } = parsePeg(peg);
  // Column a..d along +x; row 1 nearest the default camera (which sits on +z).
  return new THREE.Vector3((col - 1.5) * SPACING, 0, (1.5 - row) * SPACING);
}

export function cellPosition(peg, level) {
  const p = pegPosition(peg);
  p.y = BEAD_Y0 + (level - 1) * LEVEL_H;
  return p;
}

/** True when this browser can give us a WebGL context at all. */
export function hasWebGL() {
  try {
    const c = document.createElement("canvas");
    return !!(c.getContext("webgl2") || c.getContext("webgl"));
  } catch {
    return false;
  }
}

function isSoftwareRenderer(renderer) {
  try {
    const gl = renderer.getContext();
    const info = gl.getExtension("WEBGL_debug_renderer_info");
    const name = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
    return /swiftshader|llvmpipe|software|softpipe/i.test(String(name));
  } catch {
    return false;
  }
}

function textTexture(text, { color = "#4a2c14", font = "700 88px system-ui, sans-serif", w = 128, h = 128 } = {}) {
  const canvas = document.createElement("canvas");
  canvas.width = w;
  canvas.height = h;
  const g = canvas.getContext("2d");
  g.fillStyle = color;
  g.font = font;
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(text, w / 2, h / 2 + 4);
  const tex = new THREE.CanvasTexture(canvas);
  tex.colorSpace = THREE.SRGBColorSpace;
  tex.anisotropy = 4;
  return tex;
}

function woodTexture() {
  const canvas = document.createElement("canvas");
  canvas.width = 512;
  canvas.height = 512;
  const g = canvas.getContext("2d");
  const grad = g.createLinearGradient(0, 0, 512, 0);
  grad.addColorStop(0, "#c8955c");
  grad.addColorStop(0.5, "#d4a46b");
  grad.addColorStop(1, "#c08a52");
  g.fillStyle = grad;
  g.fillRect(0, 0, 512, 512);
  // Deterministic grain so every page load looks the same.
  let seed = 7;
  const rnd = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  for (let i = 0; i < 90; i++) {
    const y = rnd() * 512;
    g.strokeStyle = `rgba(${110 + rnd() * 30},${60 + rnd() * 20},${25},${0.05 + rnd() * 0.12})`;
    g.lineWidth = 1 + rnd() * 3;
    g.beginPath();
    g.moveTo(0, y);
    for (let x = 0; x <= 512; x += 32) g.lineTo(x, y + Math.sin(x / 70 + i) * 4 + (rnd() - 0.5) * 2);
    g.stroke();
  }
  const tex = new THREE.CanvasTexture(canvas);
  tex.colorSpace = THREE.SRGBColorSpace;
  return tex;
}

function crossTexture() {
  const canvas = document.createElement("canvas");
  canvas.width = 128;
  canvas.height = 128;
  const g = canvas.getContext("2d");
  g.fillStyle = "rgba(255,255,255,0.92)";
  g.beginPath();
  g.arc(64, 64, 58, 0, Math.PI * 2);
  g.fill();
  g.strokeStyle = "#c0152a";
  g.lineWidth = 16;
  g.lineCap = "round";
  g.beginPath();
  g.moveTo(38, 38);
  g.lineTo(90, 90);
  g.moveTo(90, 38);
  g.lineTo(38, 90);
  g.stroke();
  const tex = new THREE.CanvasTexture(canvas);
  tex.colorSpace = THREE.SRGBColorSpace;
  return tex;
}

/** Distance from point (x, y) to the segment a-b, all in the same screen pixels. */
function distanceToSegment(x, y, a, b) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : THREE.MathUtils.clamp(((x - a.x) * dx + (y - a.y) * dy) / len2, 0, 1);
  return Math.hypot(x - (a.x + t * dx), y - (a.y + t * dy));
}

const DEFAULT_FOV = 34;
const DEFAULT_DISTANCE = 12.6;
const DEFAULT_POLAR = THREE.MathUtils.degToRad(57);
const PEG_RING = 1.5 * SPACING * Math.SQRT2; // the corner pegs' distance from the centre
const FRAME_MARGIN = 6; // px between the board and the canvas edge
const INSET_MARGIN = 8; // px between the pegs and the inset

/**
 * The largest picture of a shape that fits a canvas and keeps part of it clear of a rectangle.
 * `frame` and `avoid` are directions {u, v} (screen x and y per unit of depth); a direction lands on the
 * canvas at (cx + focal·u, cy + focal·v). Returns {focal, cx, cy}: focal at most `maxFocal`, every
 * `frame` point inside the canvas, no `avoid` point inside `inset` (a top-right rectangle, grown by a
 * margin), and the picture as near the canvas centre as that allows: it moves down, away from the inset,
 * and also left only where that buys a clearly bigger picture (wide canvases have room at the sides).
 */
export function fitPicture({ width, height, frame, avoid, inset, maxFocal }) {
  const m = FRAME_MARGIN;
  const umin = Math.min(...frame.map((p) => p.u));
  const umax = Math.max(...frame.map((p) => p.u));
  const vmin = Math.min(...frame.map((p) => p.v));
  const vmax = Math.max(...frame.map((p) => p.v));
  const clear = (focal, cx, cy) => {
    if (!inset) return true;
    const x0 = inset.x - INSET_MARGIN;
    const y1 = inset.y + inset.h + INSET_MARGIN;
    return avoid.every((p) => cx + focal * p.u < x0 || cy + focal * p.v > y1);
  };
  // For a focal length: the most centred placement that fits, or null.
  const place = (focal, sideways) => {
    const cxLo = m - focal * umin;
    const cxHi = width - m - focal * umax;
    const cyLo = m - focal * vmin;
    const cyHi = height - m - focal * vmax;
    if (cxLo > cxHi || cyLo > cyHi) return null;
    const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));
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

export class Board3D {
  /**
   * @param {HTMLElement} container element the canvas fills
   * @param {{onPick?: (peg: string) => void, onView?: (azimuth: number) => void, inset?: boolean}} opts
   */
  constructor(container, opts = {}) {
    this.container = container;
    this.opts = opts;
    this.onPick = opts.onPick || (() => {});
    this.onView = opts.onView || (() => {});
    this.insetEnabled = opts.inset !== false;
    this.dirty = true;
    this.anims = [];
    this.stacks = Object.fromEntries(PEGS.map((p) => [p, []]));
    this.beads = new Map(); // "peg:level" -> mesh
    this.hovered = null;
    this.selected = null;
    this.crossPeg = null;

    const renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true, powerPreference: "low-power" });
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    renderer.outputColorSpace = THREE.SRGBColorSpace;
    renderer.toneMapping = THREE.ACESFilmicToneMapping;
    renderer.toneMappingExposure = 1.05;
    renderer.shadowMap.enabled = true;
    renderer.shadowMap.type = THREE.PCFShadowMap;
    renderer.setClearColor(0x000000, 0);
    this.renderer = renderer;
    container.appendChild(renderer.domElement);
    renderer.domElement.classList.add("board-canvas");
    renderer.domElement.setAttribute("aria-hidden", "true");

    const scene = new THREE.Scene();
    this.scene = scene;
    // Image-based light makes the beads glossy, but its shaders take seconds to compile on a software
    // renderer (SwiftShader, llvmpipe), so there the lamps alone light the scene.
    this.software = isSoftwareRenderer(renderer);
    if (!this.software && !opts.noEnvironment) {
      const pmrem = new THREE.PMREMGenerator(renderer);
      scene.environment = pmrem.fromScene(new RoomEnvironment(), 0.04).texture;
      scene.environmentIntensity = 0.55;
      pmrem.dispose();
    }

    this.camera = new THREE.PerspectiveCamera(DEFAULT_FOV, 1, 0.1, 100);
    this.camera.position.setFromSphericalCoords(DEFAULT_DISTANCE, DEFAULT_POLAR, 0);
    this.farCamera = new THREE.PerspectiveCamera(36, 1, 0.1, 100);
    this.target = new THREE.Vector3(0, 1.25, 0);
    this.camera.position.add(this.target);

    const controls = new OrbitControls(this.camera, renderer.domElement);
    controls.target.copy(this.target);
    controls.enablePan = false;
    controls.enableDamping = true;
    controls.dampingFactor = 0.12;
    controls.rotateSpeed = 0.8;
    controls.minDistance = 9;
    controls.maxDistance = 22;
    controls.minPolarAngle = THREE.MathUtils.degToRad(8);
    controls.maxPolarAngle = THREE.MathUtils.degToRad(84);
    controls.update();
    controls.addEventListener("change", () => {
      this.dirty = true;
      this.onView(this.azimuth());
    });
    this.controls = controls;

    this.buildLights();
    this.buildBoard();
    this.buildMarkers();
    this.bindPointer();

    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
    this.loop = this.loop.bind(this);
    this.raf = requestAnimationFrame(this.loop);
  }

  buildLights() {
    const lit = this.scene.environment ? 1 : 1.45; // without image-based light the lamps do all the work
    const hemi = new THREE.HemisphereLight(0xfff6e8, 0x6b5a48, 0.9 * lit);
    this.scene.add(hemi);
    const key = new THREE.DirectionalLight(0xfff1dc, 1.6 * lit);
    key.position.set(4.5, 11, 7);
    key.castShadow = true;
    key.shadow.mapSize.set(1024, 1024);
    key.shadow.camera.left = -5;
    key.shadow.camera.right = 5;
    key.shadow.camera.top = 5;
    key.shadow.camera.bottom = -5;
    key.shadow.camera.near = 2;
    key.shadow.camera.far = 30;
    key.shadow.radius = 5;
    key.shadow.bias = -0.0006;
    key.shadow.normalBias = 0.02;
    this.scene.add(key);
    const fill = new THREE.DirectionalLight(0xdde8ff, 0.45 * lit);
    fill.position.set(-7, 5, -4);
    this.scene.add(fill);
    if (!this.scene.environment) {
      // A soft front light for the sheen an environment map would otherwise give the beads.
      const front = new THREE.DirectionalLight(0xffffff, 0.6);
      front.position.set(-2, 6, 12);
      this.scene.add(front);
    }
  }

  buildBoard() {
    const base = new THREE.Mesh(
      new RoundedBoxGeometry(BASE_W, 0.5, BASE_W, 4, 0.18),
      new THREE.MeshStandardMaterial({ map: woodTexture(), roughness: 0.55, metalness: 0.0 }),
    );
    base.position.y = -0.25;
    base.receiveShadow = true;
    this.scene.add(base);

    // A soft shadow under the board so it sits on something.
    const shadowCanvas = document.createElement("canvas");
    shadowCanvas.width = shadowCanvas.height = 128;
    const sg = shadowCanvas.getContext("2d");
    const rg = sg.createRadialGradient(64, 64, 20, 64, 64, 64);
    rg.addColorStop(0, "rgba(40,30,20,0.45)");
    rg.addColorStop(1, "rgba(40,30,20,0)");
    sg.fillStyle = rg;
    sg.fillRect(0, 0, 128, 128);
    const floor = new THREE.Mesh(
      new THREE.PlaneGeometry(BASE_W * 1.9, BASE_W * 1.9),
      new THREE.MeshBasicMaterial({ map: new THREE.CanvasTexture(shadowCanvas), transparent: true, depthWrite: false }),
    );
    floor.rotation.x = -Math.PI / 2;
    floor.position.y = -0.52;
    this.scene.add(floor);

    const pegGeo = new THREE.CylinderGeometry(0.075, 0.085, PEG_H, 20);
    pegGeo.translate(0, PEG_H / 2, 0);
    const socketGeo = new THREE.CylinderGeometry(0.2, 0.24, 0.06, 28);
    this.pegMeshes = {};
    for (const peg of PEGS) {
      const pos = pegPosition(peg);
      const mat = new THREE.MeshStandardMaterial({ color: 0xe9dcc6, roughness: 0.35, metalness: 0.25 });
      const mesh = new THREE.Mesh(pegGeo, mat);
      mesh.position.copy(pos);
      mesh.castShadow = true;
      this.scene.add(mesh);
      const socket = new THREE.Mesh(socketGeo, new THREE.MeshStandardMaterial({ color: 0x8a5a2b, roughness: 0.7 }));
      socket.position.set(pos.x, 0.02, pos.z);
      socket.receiveShadow = true;
      this.scene.add(socket);
      this.pegMeshes[peg] = mesh;
    }

    // Notation on the base: letters along the front and back edges, digits along the sides.
    const labelGeo = new THREE.PlaneGeometry(0.5, 0.5);
    const edge = BASE_W / 2 - 0.32;
    const addLabel = (text, x, z, rotZ) => {
      const m = new THREE.Mesh(
        labelGeo,
        new THREE.MeshStandardMaterial({
          map: textTexture(text),
          transparent: true,
          roughness: 0.8,
          depthWrite: false,
        }),
      );
      m.rotation.x = -Math.PI / 2;
      m.rotation.z = rotZ;
      m.position.set(x, 0.006, z);
      this.scene.add(m);
    };
    for (let i = 0; i < SIZE; i++) {
      const x = (i - 1.5) * SPACING;
      const z = (1.5 - i) * SPACING;
      addLabel(COLUMNS[i], x, edge, 0);
      addLabel(COLUMNS[i], x, -edge, Math.PI);
      addLabel(String(i + 1), -edge, z, 0);
      addLabel(String(i + 1), edge, z, 0);
    }

    this.beadGeo = new THREE.SphereGeometry(BEAD_R, 40, 28);
    this.beadGeo.scale(1, 0.93, 1);
    this.beadMats = {
      red: new THREE.MeshPhysicalMaterial({
        color: COLOURS.red,
        roughness: 0.28,
        clearcoat: 1,
        clearcoatRoughness: 0.12,
        emissive: COLOURS.red,
        emissiveIntensity: 0,
      }),
      yellow: new THREE.MeshPhysicalMaterial({
        color: COLOURS.yellow,
        roughness: 0.28,
        clearcoat: 1,
        clearcoatRoughness: 0.12,
        emissive: COLOURS.yellow,
        emissiveIntensity: 0,
      }),
    };
    this.beadGroup = new THREE.Group();
    this.scene.add(this.beadGroup);
  }

  buildMarkers() {
    this.ghost = new THREE.Mesh(
      this.beadGeo,
      new THREE.MeshStandardMaterial({
        color: COLOURS.red,
        transparent: true,
        opacity: 0.45,
        roughness: 0.4,
        depthWrite: false,
      }),
    );
    this.ghost.visible = false;
    this.scene.add(this.ghost);

    this.selectRing = new THREE.Mesh(
      new THREE.TorusGeometry(0.4, 0.045, 12, 40),
      new THREE.MeshBasicMaterial({ color: 0xffffff }),
    );
    this.selectRing.rotation.x = -Math.PI / 2;
    this.selectRing.visible = false;
    this.scene.add(this.selectRing);

    this.lastRing = new THREE.Mesh(
      new THREE.TorusGeometry(BEAD_R + 0.035, 0.035, 10, 48),
      new THREE.MeshBasicMaterial({ color: 0xffffff }),
    );
    this.lastRing.rotation.x = -Math.PI / 2;
    this.lastRing.visible = false;
    this.scene.add(this.lastRing);

    this.lineRod = new THREE.Mesh(
      new THREE.CylinderGeometry(0.07, 0.07, 1, 12),
      new THREE.MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.9, depthTest: false }),
    );
    this.lineRod.renderOrder = 10;
    this.lineRod.visible = false;
    this.scene.add(this.lineRod);

    this.cross = new THREE.Sprite(new THREE.SpriteMaterial({ map: crossTexture(), depthTest: false }));
    this.cross.scale.set(0.9, 0.9, 1);
    this.cross.renderOrder = 11;
    this.cross.visible = false;
    this.scene.add(this.cross);

    this.threatGroup = new THREE.Group();
    this.scene.add(this.threatGroup);
    this.threatGeo = new THREE.SphereGeometry(0.15, 16, 12);
  }

  // ---- pointer: a click picks a peg, a drag turns the view ---------------------------------------

  bindPointer() {
    const el = this.renderer.domElement;
    let down = null;
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
      const peg = this.pickAt(ev.clientX, ev.clientY);
      if (peg) this.onPick(peg);
    });
    el.addEventListener("pointercancel", () => {
      down = null;
    });
    el.addEventListener("pointermove", (ev) => {
      if (ev.pointerType !== "mouse" || ev.buttons) return;
      const peg = this.pickAt(ev.clientX, ev.clientY);
      if (peg !== this.hovered) {
        this.hovered = peg;
        el.style.cursor = peg ? "pointer" : "grab";
        this.refreshPegs();
      }
    });
    el.addEventListener("pointerleave", () => {
      if (this.hovered) {
        this.hovered = null;
        this.refreshPegs();
      }
    });
  }

  insetRect() {
    if (!this.insetEnabled) return null;
    const w = this.width;
    const h = this.height;
    // A third of the short side (at most 200 px); on a phone a quarter, so the board keeps its size.
    const short = Math.min(w, h);
    const s = Math.round(Math.min(200, Math.max(88, short * (w < 520 ? 0.25 : 0.32))));
    return { x: w - s - 8, y: 8, w: s, h: s };
  }

  /** The peg under a client point, using the far-side camera inside the inset. */
  pickAt(clientX, clientY) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const px = clientX - rect.left;
    const py = clientY - rect.top;
    const inset = this.insetRect();
    if (inset && px >= inset.x && px <= inset.x + inset.w && py >= inset.y && py <= inset.y + inset.h) {
      return this.pickIn(this.farCamera, inset, px, py);
    }
    return this.pickIn(this.camera, { x: 0, y: 0, w: rect.width, h: rect.height }, px, py);
  }

  /**
   * The peg a person aims at, at canvas point (px, py) of a view {x, y, w, h} drawn by `camera`: the bead
   * the ray meets first; else the peg whose stick passes nearest on screen, within a finger's width (the
   * front one where two sticks overlap); else the hole nearest to where the ray meets the base.
   * Only what is drawn counts, so a peg behind another is picked where it shows.
   */
  pickIn(camera, view, px, py) {
    const ndc = new THREE.Vector2(((px - view.x) / view.w) * 2 - 1, -((py - view.y) / view.h) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(ndc, camera);
    const bead = ray.intersectObjects(this.beadGroup.children, false)[0];
    if (bead) return bead.object.userData.peg;

    const onView = (v) => {
      const p = v.clone().project(camera);
      return { x: view.x + ((p.x + 1) / 2) * view.w, y: view.y + ((1 - p.y) / 2) * view.h, depth: p.z };
    };
    const reach = THREE.MathUtils.clamp(view.w * 0.05, 8, 28);
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

  /** A client point over the given peg in the main view that really picks it (used by tests and hints). */
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
    const toClient = (v) => {
      const p = v.clone().project(this.camera);
      return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height };
    };
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

  // ---- drawing the position ----------------------------------------------------------------------

  /**
   * @param {{stacks: Object<string,string[]>, last?: {peg, level}|null, line?: Array<{peg, level}>|null,
   *          animate?: boolean}} pos
   */
  setPosition({ stacks, last = null, line = null, animate = false }) {
    const seen = new Set();
    for (const peg of PEGS) {
      const stack = stacks[peg] || [];
      stack.forEach((colour, i) => {
        const level = i + 1;
        const key = `${peg}:${level}`;
        seen.add(key);
        let mesh = this.beads.get(key);
        if (mesh && mesh.userData.colour !== colour) {
          this.beadGroup.remove(mesh);
          this.beads.delete(key);
          mesh = null;
        }
        if (!mesh) {
          mesh = new THREE.Mesh(this.beadGeo, this.beadMats[colour].clone());
          mesh.castShadow = true;
          mesh.receiveShadow = true;
          mesh.userData = { peg, level, colour };
          const to = cellPosition(peg, level);
          mesh.position.copy(to);
          this.beadGroup.add(mesh);
          this.beads.set(key, mesh);
          if (animate && last && last.peg === peg && last.level === level) this.animateDrop(mesh, to);
        }
      });
    }
    for (const [key, mesh] of this.beads) {
      if (!seen.has(key)) {
        this.beadGroup.remove(mesh);
        mesh.material.dispose();
        this.beads.delete(key);
      }
    }
    this.stacks = stacks;

    if (last) {
      this.lastRing.position.copy(cellPosition(last.peg, last.level));
      this.lastRing.visible = true;
    } else {
      this.lastRing.visible = false;
    }

    const lineKeys = new Set((line || []).map((c) => `${c.peg}:${c.level}`));
    for (const [key, mesh] of this.beads) {
      const on = lineKeys.has(key);
      mesh.material.emissiveIntensity = on ? 0.55 : 0;
      mesh.scale.setScalar(on ? 1.08 : 1);
    }
    if (line && line.length >= 2) {
      const pts = line.map((c) => cellPosition(c.peg, c.level));
      pts.sort((a, b) => a.x - b.x || a.y - b.y || a.z - b.z);
      const a = pts[0];
      const b = pts[pts.length - 1];
      const dir = new THREE.Vector3().subVectors(b, a);
      const len = dir.length();
      this.lineRod.scale.set(1, len + 0.5, 1);
      this.lineRod.position.copy(a).addScaledVector(dir, 0.5);
      this.lineRod.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), dir.normalize());
      this.lineRod.visible = true;
      this.lastRing.visible = false;
    } else {
      this.lineRod.visible = false;
    }
    this.dirty = true;
  }

  animateDrop(mesh, to) {
    const from = to.clone();
    from.y = PEG_H + 0.6;
    mesh.position.copy(from);
    const start = performance.now();
    const dur = 150 + 70 * (PEG_H - to.y);
    this.anims.push((now) => {
      const t = Math.min(1, (now - start) / dur);
      const e = t * t; // falls, accelerating
      mesh.position.y = from.y + (to.y - from.y) * e;
      return t < 1;
    });
  }

  /** Shows a translucent bead where a drop on `peg` would land; null hides it. */
  setGhost(peg, colour) {
    this.selected = peg;
    if (!peg) {
      this.ghost.visible = false;
      this.selectRing.visible = false;
    } else {
      const level = (this.stacks[peg] || []).length + 1;
      this.selectRing.position.copy(pegPosition(peg));
      this.selectRing.position.y = 0.06;
      this.selectRing.material.color.copy(colour ? COLOURS[colour] : new THREE.Color(0xffffff));
      this.selectRing.visible = true;
      if (level <= SIZE && colour) {
        this.ghost.material.color.copy(COLOURS[colour]);
        this.ghost.position.copy(cellPosition(peg, level));
        this.ghost.visible = true;
      } else {
        this.ghost.visible = false;
      }
    }
    this.refreshPegs();
  }

  /** A cross over a full peg, for a few seconds. */
  showCross(peg) {
    clearTimeout(this.crossTimer);
    this.crossPeg = peg;
    const p = pegPosition(peg);
    p.y = PEG_H + 0.55;
    this.cross.position.copy(p);
    this.cross.visible = true;
    this.dirty = true;
    this.crossTimer = setTimeout(() => this.hideCross(), 4000);
  }

  hideCross() {
    clearTimeout(this.crossTimer);
    this.crossPeg = null;
    this.cross.visible = false;
    this.dirty = true;
  }

  /** Threat hints: {red: [{peg, level, playable}], yellow: [...]}, or null to hide them. */
  setThreats(threats) {
    this.threatGroup.clear();
    if (threats) {
      for (const colour of ["red", "yellow"]) {
        for (const t of threats[colour] || []) {
          const m = new THREE.Mesh(
            this.threatGeo,
            new THREE.MeshBasicMaterial({
              color: COLOURS[colour],
              transparent: true,
              opacity: t.playable ? 0.95 : 0.4,
            }),
          );
          m.position.copy(cellPosition(t.peg, t.level));
          m.scale.setScalar(t.playable ? 1.2 : 0.9);
          this.threatGroup.add(m);
        }
      }
    }
    this.dirty = true;
  }

  refreshPegs() {
    for (const peg of PEGS) {
      const mat = this.pegMeshes[peg].material;
      const hot = peg === this.selected || peg === this.hovered;
      mat.emissive.setHex(hot ? 0x6a5a3a : 0x000000);
    }
    this.dirty = true;
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
    this.fitLens(inset);
    const label = this.opts.insetLabel;
    if (label) {
      label.hidden = !inset;
      if (inset)
        Object.assign(label.style, {
          left: `${inset.x}px`,
          top: `${inset.y}px`,
          width: `${inset.w}px`,
          height: `${inset.h}px`,
        });
    }
    this.dirty = true;
  }

  /**
   * Chooses the main camera's lens (field of view and a shift of the picture) so that, from the default
   * height and distance, the whole board fits the canvas and no peg or bead comes under the far-side
   * inset, whichever way the board is turned. Keeps the usual 34° lens and a centred picture when they
   * already fit; otherwise the picture moves (see fitPicture) and shrinks just enough.
   */
  fitLens(inset) {
    const w = this.width;
    const h = this.height;
    const pose = new THREE.PerspectiveCamera();
    pose.position.setFromSphericalCoords(DEFAULT_DISTANCE, DEFAULT_POLAR, 0).add(this.target);
    pose.lookAt(this.target);
    pose.updateMatrixWorld();
    // Directions from the camera (x right, y down, per unit of depth) of what must stay visible.
    const dir = (x, y, z) => {
      const p = new THREE.Vector3(x, y, z).applyMatrix4(pose.matrixWorldInverse);
      return { u: p.x / -p.z, v: -p.y / -p.z };
    };
    const half = BASE_W / 2;
    const frame = []; // must lie inside the canvas: the base as it first stands, the pegs at any turn
    const pegs = []; // must stay clear of the inset: pegs and their beads at any turn
    for (const y of [0.25, -0.5])
      for (const [x, z] of [
        [-half, -half],
        [half, -half],
        [-half, half],
        [half, half],
      ])
        frame.push(dir(x, y, z));
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
    const lens = fitPicture({
      width: w,
      height: h,
      frame,
      avoid: pegs,
      inset,
      maxFocal: h / 2 / Math.tan(THREE.MathUtils.degToRad(DEFAULT_FOV / 2)),
    });
    this.camera.fov = THREE.MathUtils.radToDeg(2 * Math.atan(h / 2 / lens.focal));
    this.camera.setViewOffset(w, h, w / 2 - lens.cx, h / 2 - lens.cy, w, h);
    this.camera.updateProjectionMatrix();
  }

  loop(now) {
    this.raf = requestAnimationFrame(this.loop);
    if (this.controls.update()) this.dirty = true;
    if (this.anims.length) {
      this.anims = this.anims.filter((step) => step(now));
      this.dirty = true;
    }
    if (!this.dirty) return;
    this.dirty = false;
    this.render();
  }

  render() {
    const r = this.renderer;
    const w = this.width;
    const h = this.height;
    r.setScissorTest(false);
    r.setViewport(0, 0, w, h);
    r.setClearColor(0x000000, 0);
    r.clear();
    r.render(this.scene, this.camera);
    const inset = this.insetRect();
    if (!inset) return;
    // The far side: the same orbit turned half way round, a little higher so levels separate.
    const offset = new THREE.Vector3().subVectors(this.camera.position, this.controls.target);
    const sph = new THREE.Spherical().setFromVector3(offset);
    sph.theta += Math.PI;
    sph.phi = THREE.MathUtils.clamp(sph.phi, 0.7, 1.25);
    sph.radius = 11.2;
    this.farCamera.position.setFromSpherical(sph).add(this.controls.target);
    this.farCamera.lookAt(this.controls.target);
    this.farCamera.aspect = 1;
    this.farCamera.updateProjectionMatrix();
    const gy = h - inset.y - inset.h; // GL's origin is bottom-left
    r.setScissorTest(true);
    r.setScissor(inset.x, gy, inset.w, inset.h);
    r.setViewport(inset.x, gy, inset.w, inset.h);
    r.setClearColor(0xffffff, 0.5);
    r.clear();
    const ghostVisible = this.ghost.visible;
    r.render(this.scene, this.farCamera);
    this.ghost.visible = ghostVisible;
    r.setScissorTest(false);
    r.setClearColor(0x000000, 0);
  }

  dispose() {
    cancelAnimationFrame(this.raf);
    this.resizeObserver.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}

/** Creates the 3D board, or returns null when WebGL is unavailable (the top view still works). */
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
 */
export function mountBoard({
  topview,
  onPick,
  note = "The 3D view is not available in this browser: play on the top view.",
}) {
  const $ = (sel) => document.querySelector(sel);
  const board = new URLSearchParams(location.search).has("flat")
    ? null
    : createBoard3D($("#board3d"), {
        onPick,
        onView: (az) => topview.setAzimuth(az),
        insetLabel: $("#inset-label"),
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
