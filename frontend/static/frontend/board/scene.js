// The 3D board's scene: the renderer, the lights, the wooden base with its pegs and notation, and the
// markers (ghost bead, rings, winning rod, cross, threat dots) that drawing.js moves and shows. Built once.
// The stage under it (the renderer, its light, the software check: buildStage) is shared with the arcade's
// cube (arcade/cube/stage.js), as are the canvas helpers (canvas2d, srgbTexture).

import * as THREE from "three";
import { RoomEnvironment } from "three/addons/environments/RoomEnvironment.js";
import { RoundedBoxGeometry } from "three/addons/geometries/RoundedBoxGeometry.js";
import { COLUMNS, PEGS, SIZE } from "../game.js";
import { BASE_W, BEAD_R, COLOURS, PEG_H, pegPosition, SPACING } from "./geometry.js";

/**
 * Everything drawn, by what it is for.
 * @typedef {object} BoardScene
 * @property {THREE.WebGLRenderer} renderer
 * @property {THREE.Scene} scene
 * @property {boolean} software the renderer is a software one (no image-based light there)
 * @property {Record<string, THREE.Mesh<THREE.CylinderGeometry, THREE.MeshStandardMaterial>>} pegMeshes
 * @property {THREE.SphereGeometry} beadGeo
 * @property {{red: THREE.MeshPhysicalMaterial, yellow: THREE.MeshPhysicalMaterial}} beadMats
 * @property {THREE.Group} beadGroup the beads on the board (drawing.js keeps it in step with the position)
 * @property {THREE.Mesh<THREE.SphereGeometry, THREE.MeshStandardMaterial>} ghost
 * @property {THREE.Mesh<THREE.TorusGeometry, THREE.MeshBasicMaterial>} selectRing
 * @property {THREE.Mesh<THREE.TorusGeometry, THREE.MeshBasicMaterial>} lastRing
 * @property {THREE.Mesh<THREE.CylinderGeometry, THREE.MeshBasicMaterial>} lineRod
 * @property {THREE.Sprite} cross
 * @property {THREE.Group} threatGroup
 * @property {THREE.SphereGeometry} threatGeo
 */

/**
 * @param {THREE.WebGLRenderer} renderer
 * @returns {boolean}
 */
export function isSoftwareRenderer(renderer) {
  try {
    const gl = renderer.getContext();
    const info = gl.getExtension("WEBGL_debug_renderer_info");
    const name = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
    return /swiftshader|llvmpipe|software|softpipe/i.test(String(name));
  } catch {
    return false;
  }
}

/**
 * A canvas of the given size and its 2D context.
 * @param {number} w
 * @param {number} h
 * @returns {[HTMLCanvasElement, CanvasRenderingContext2D]}
 */
export function canvas2d(w, h) {
  const canvas = document.createElement("canvas");
  canvas.width = w;
  canvas.height = h;
  const g = canvas.getContext("2d");
  if (!g) throw new Error("no 2D canvas");
  return [canvas, g];
}

/** @param {HTMLCanvasElement} canvas */
export function srgbTexture(canvas) {
  const tex = new THREE.CanvasTexture(canvas);
  tex.colorSpace = THREE.SRGBColorSpace;
  return tex;
}

/** @param {string} text */
function textTexture(text) {
  const [canvas, g] = canvas2d(128, 128);
  g.fillStyle = "#4a2c14";
  g.font = "700 88px system-ui, sans-serif";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(text, 64, 64 + 4);
  const tex = srgbTexture(canvas);
  tex.anisotropy = 4;
  return tex;
}

function woodTexture() {
  const [canvas, g] = canvas2d(512, 512);
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
  return srgbTexture(canvas);
}

function crossTexture() {
  const [canvas, g] = canvas2d(128, 128);
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
  return srgbTexture(canvas);
}

/**
 * The renderer, its canvas appended to `container`.
 * @param {HTMLElement} container
 */
function createRenderer(container) {
  const renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true, powerPreference: "low-power" });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  renderer.toneMapping = THREE.ACESFilmicToneMapping;
  renderer.toneMappingExposure = 1.05;
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = THREE.PCFShadowMap;
  renderer.setClearColor(0x000000, 0);
  container.appendChild(renderer.domElement);
  renderer.domElement.classList.add("board-canvas");
  renderer.domElement.setAttribute("aria-hidden", "true");
  return renderer;
}

/** @param {THREE.Scene} scene */
function addLights(scene) {
  const lit = scene.environment ? 1 : 1.45; // without image-based light the lamps do all the work
  scene.add(new THREE.HemisphereLight(0xfff6e8, 0x6b5a48, 0.9 * lit));
  const key = new THREE.DirectionalLight(0xfff1dc, 1.6 * lit);
  key.position.set(4.5, 11, 7);
  key.castShadow = true;
  key.shadow.mapSize.set(1024, 1024);
  Object.assign(key.shadow.camera, { left: -5, right: 5, top: 5, bottom: -5, near: 2, far: 30 });
  key.shadow.radius = 5;
  key.shadow.bias = -0.0006;
  key.shadow.normalBias = 0.02;
  scene.add(key);
  const fill = new THREE.DirectionalLight(0xdde8ff, 0.45 * lit);
  fill.position.set(-7, 5, -4);
  scene.add(fill);
  if (!scene.environment) {
    // A soft front light for the sheen an environment map would otherwise give the beads.
    const front = new THREE.DirectionalLight(0xffffff, 0.6);
    front.position.set(-2, 6, 12);
    scene.add(front);
  }
}

/**
 * The base, its shadow, the pegs and their sockets, the notation; returns the peg meshes.
 * @param {THREE.Scene} scene
 */
function addBoard(scene) {
  const base = new THREE.Mesh(
    new RoundedBoxGeometry(BASE_W, 0.5, BASE_W, 4, 0.18),
    new THREE.MeshStandardMaterial({ map: woodTexture(), roughness: 0.55, metalness: 0.0 }),
  );
  base.position.y = -0.25;
  base.userData.tint = [0xffffff, 0x8a7866]; // light, dark: the wood darker at night
  base.receiveShadow = true;
  scene.add(base);

  // A soft shadow under the board so it sits on something.
  const [shadowCanvas, sg] = canvas2d(128, 128);
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
  scene.add(floor);

  const pegGeo = new THREE.CylinderGeometry(0.075, 0.085, PEG_H, 20);
  pegGeo.translate(0, PEG_H / 2, 0);
  const socketGeo = new THREE.CylinderGeometry(0.2, 0.24, 0.06, 28);
  /** @type {BoardScene["pegMeshes"]} */
  const pegMeshes = {};
  for (const peg of PEGS) {
    const pos = pegPosition(peg);
    const mat = new THREE.MeshStandardMaterial({ color: 0xe9dcc6, roughness: 0.35, metalness: 0.25 });
    const mesh = new THREE.Mesh(pegGeo, mat);
    mesh.userData.tint = [0xe9dcc6, 0xb5a892];
    mesh.position.copy(pos);
    mesh.castShadow = true;
    scene.add(mesh);
    const socket = new THREE.Mesh(socketGeo, new THREE.MeshStandardMaterial({ color: 0x8a5a2b, roughness: 0.7 }));
    socket.position.set(pos.x, 0.02, pos.z);
    socket.userData.tint = [0x8a5a2b, 0x5c3b1c];
    socket.receiveShadow = true;
    scene.add(socket);
    pegMeshes[peg] = mesh;
  }

  // Notation on the base: letters along the front and back edges, digits along the sides.
  const labelGeo = new THREE.PlaneGeometry(0.5, 0.5);
  const edge = BASE_W / 2 - 0.32;
  /** @type {(text: string, x: number, z: number, rotZ: number) => void} */
  const addLabel = (text, x, z, rotZ) => {
    const m = new THREE.Mesh(
      labelGeo,
      new THREE.MeshStandardMaterial({ map: textTexture(text), transparent: true, roughness: 0.8, depthWrite: false }),
    );
    m.rotation.x = -Math.PI / 2;
    m.rotation.z = rotZ;
    m.position.set(x, 0.006, z);
    scene.add(m);
  };
  for (let i = 0; i < SIZE; i++) {
    const x = (i - 1.5) * SPACING;
    const z = (1.5 - i) * SPACING;
    addLabel(COLUMNS[i], x, edge, 0);
    addLabel(COLUMNS[i], x, -edge, Math.PI);
    addLabel(String(i + 1), -edge, z, 0);
    addLabel(String(i + 1), edge, z, 0);
  }
  return pegMeshes;
}

/**
 * The board for a dark page or a light one: at night the wood, the pegs and their sockets are darker,
 * so that the beads (unchanged) stand out against them as they do by day.
 * @param {THREE.Scene} scene
 * @param {boolean} dark
 */
export function setSceneTheme(scene, dark) {
  scene.traverse((o) => {
    const tint = o.userData.tint;
    if (tint && o instanceof THREE.Mesh) o.material.color.setHex(tint[dark ? 1 : 0]);
  });
}

/** @param {THREE.Color} colour */
function beadMaterial(colour) {
  return new THREE.MeshPhysicalMaterial({
    color: colour,
    roughness: 0.28,
    clearcoat: 1,
    clearcoatRoughness: 0.12,
    emissive: colour,
    emissiveIntensity: 0,
  });
}

/**
 * @template {THREE.Object3D} T
 * @param {THREE.Scene} scene
 * @param {T} object
 * @returns {T} the object, added to the scene hidden
 */
function hidden(scene, object) {
  object.visible = false;
  scene.add(object);
  return object;
}

/**
 * The stage a 3D view stands on: the renderer (its canvas appended to `container`), an empty scene with
 * the lamps (and image-based light on a GPU), and whether the renderer is a software one.
 * @param {HTMLElement} container
 * @param {{noEnvironment?: boolean, shadows?: boolean}} opts noEnvironment: no image-based light even on a
 *   GPU; shadows: false for none even on a GPU
 */
export function buildStage(container, opts) {
  const renderer = createRenderer(container);
  const scene = new THREE.Scene();
  // Image-based light makes the beads glossy, but its shaders take seconds to compile on a software
  // renderer (SwiftShader, llvmpipe), so there the lamps alone light the scene. There the lamps cast no
  // shadows either: the shadow map is a third of each frame's CPU (the soft shadow under the board stays).
  const software = isSoftwareRenderer(renderer);
  renderer.shadowMap.enabled = !software && opts.shadows !== false;
  if (!software && !opts.noEnvironment) {
    const pmrem = new THREE.PMREMGenerator(renderer);
    scene.environment = pmrem.fromScene(new RoomEnvironment(), 0.04).texture;
    scene.environmentIntensity = 0.55;
    pmrem.dispose();
  }
  addLights(scene);
  return { renderer, scene, software };
}

/**
 * Builds the whole scene in `container`.
 * @param {HTMLElement} container
 * @param {{noEnvironment?: boolean}} opts noEnvironment: no image-based light even on a GPU
 * @returns {BoardScene}
 */
export function buildScene(container, opts) {
  const { renderer, scene, software } = buildStage(container, opts);
  const pegMeshes = addBoard(scene);

  const beadGeo = new THREE.SphereGeometry(BEAD_R, 40, 28);
  beadGeo.scale(1, 0.93, 1);
  const beadGroup = new THREE.Group();
  scene.add(beadGroup);

  const ghost = hidden(
    scene,
    new THREE.Mesh(
      beadGeo,
      new THREE.MeshStandardMaterial({
        color: COLOURS.red,
        transparent: true,
        opacity: 0.45,
        roughness: 0.4,
        depthWrite: false,
      }),
    ),
  );
  const selectRing = new THREE.Mesh(
    new THREE.TorusGeometry(0.4, 0.045, 12, 40),
    new THREE.MeshBasicMaterial({ color: 0xffffff }),
  );
  selectRing.rotation.x = -Math.PI / 2;
  hidden(scene, selectRing);
  const lastRing = new THREE.Mesh(
    new THREE.TorusGeometry(BEAD_R + 0.035, 0.035, 10, 48),
    new THREE.MeshBasicMaterial({ color: 0xffffff }),
  );
  lastRing.rotation.x = -Math.PI / 2;
  hidden(scene, lastRing);
  const lineRod = new THREE.Mesh(
    new THREE.CylinderGeometry(0.07, 0.07, 1, 12),
    new THREE.MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.9, depthTest: false }),
  );
  lineRod.renderOrder = 10;
  hidden(scene, lineRod);
  const cross = new THREE.Sprite(new THREE.SpriteMaterial({ map: crossTexture(), depthTest: false }));
  cross.scale.set(0.9, 0.9, 1);
  cross.renderOrder = 11;
  hidden(scene, cross);
  const threatGroup = new THREE.Group();
  scene.add(threatGroup);

  return {
    renderer,
    scene,
    software,
    pegMeshes,
    beadGeo,
    beadMats: { red: beadMaterial(COLOURS.red), yellow: beadMaterial(COLOURS.yellow) },
    beadGroup,
    ghost,
    selectRing,
    lastRing,
    lineRod,
    cross,
    threatGroup,
    threatGeo: new THREE.SphereGeometry(0.15, 16, 12),
  };
}
