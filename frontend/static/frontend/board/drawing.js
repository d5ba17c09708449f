// Drawing on the 3D board: the beads of a position (with the drop animation), the last-move ring, the
// winning rod, the ghost bead and selection ring, the cross over a full peg, the threat dots, the pegs'
// highlight, and one frame of the main view with the far-side inset. It draws what it is told.

import * as THREE from "three";
import { PEGS, SIZE } from "../game.js";
import { COLOURS, cellPosition, PEG_H, pegPosition } from "./geometry.js";

/** @typedef {import("./scene.js").BoardScene} BoardScene */
/** @typedef {import("./camera.js").Rect} Rect */
/** @typedef {{peg: string, level: number}} Cell */
/** @typedef {"red" | "yellow"} Colour */
/** @typedef {Record<string, Colour[]>} Stacks each peg's beads, bottom up */
/** @typedef {(now: number) => boolean} Animation a step of an animation; false once it is over */
/** @typedef {THREE.Mesh<THREE.SphereGeometry, THREE.MeshPhysicalMaterial>} Bead */

/**
 * A bead falling from above its peg onto `to`.
 * @param {THREE.Object3D} mesh
 * @param {THREE.Vector3} to
 * @returns {Animation}
 */
function dropAnimation(mesh, to) {
  const from = to.clone();
  from.y = PEG_H + 0.6;
  mesh.position.copy(from);
  const start = performance.now();
  const dur = 150 + 70 * (PEG_H - to.y);
  return (now) => {
    const t = Math.min(1, (now - start) / dur);
    const e = t * t; // falls, accelerating
    mesh.position.y = from.y + (to.y - from.y) * e;
    return t < 1;
  };
}

/**
 * Makes the beads on the board those of `stacks`: a bead whose colour changed is replaced, a new one is
 * added (falling, if it is the last move and `animate`), a gone one removed; then the last-move ring and
 * the winning line (its beads glow, a rod runs through them).
 * @param {BoardScene} s
 * @param {Map<string, Bead>} beads "peg:level" -> mesh, kept in step
 * @param {{stacks: Stacks, last: Cell | null, line: Cell[] | null, animate: boolean}} pos
 * @returns {Animation[]} the drops to play
 */
export function drawPosition(s, beads, { stacks, last, line, animate }) {
  /** @type {Animation[]} */
  const drops = [];
  const seen = new Set();
  for (const peg of PEGS) {
    const stack = stacks[peg] || [];
    stack.forEach((colour, i) => {
      const level = i + 1;
      const key = `${peg}:${level}`;
      seen.add(key);
      let mesh = beads.get(key);
      if (mesh && mesh.userData.colour !== colour) {
        s.beadGroup.remove(mesh);
        beads.delete(key);
        mesh = undefined;
      }
      if (!mesh) {
        mesh = new THREE.Mesh(s.beadGeo, s.beadMats[colour].clone());
        mesh.castShadow = true;
        mesh.receiveShadow = true;
        mesh.userData = { peg, level, colour };
        const to = cellPosition(peg, level);
        mesh.position.copy(to);
        s.beadGroup.add(mesh);
        beads.set(key, mesh);
        if (animate && last && last.peg === peg && last.level === level) drops.push(dropAnimation(mesh, to));
      }
    });
  }
  for (const [key, mesh] of beads) {
    if (!seen.has(key)) {
      s.beadGroup.remove(mesh);
      mesh.material.dispose();
      beads.delete(key);
    }
  }

  if (last) {
    s.lastRing.position.copy(cellPosition(last.peg, last.level));
    s.lastRing.visible = true;
  } else {
    s.lastRing.visible = false;
  }

  const lineKeys = new Set((line || []).map((c) => `${c.peg}:${c.level}`));
  for (const [key, mesh] of beads) {
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
    s.lineRod.scale.set(1, len + 0.5, 1);
    s.lineRod.position.copy(a).addScaledVector(dir, 0.5);
    s.lineRod.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), dir.normalize());
    s.lineRod.visible = true;
    s.lastRing.visible = false;
  } else {
    s.lineRod.visible = false;
  }
  return drops;
}

/**
 * The selection ring on `peg` and a translucent bead where a drop there would land; null hides both.
 * @param {BoardScene} s
 * @param {Stacks} stacks
 * @param {string | null} peg
 * @param {Colour | null} colour
 */
export function drawGhost(s, stacks, peg, colour) {
  if (!peg) {
    s.ghost.visible = false;
    s.selectRing.visible = false;
    return;
  }
  const level = (stacks[peg] || []).length + 1;
  s.selectRing.position.copy(pegPosition(peg));
  s.selectRing.position.y = 0.06;
  s.selectRing.material.color.copy(colour ? COLOURS[colour] : new THREE.Color(0xffffff));
  s.selectRing.visible = true;
  if (level <= SIZE && colour) {
    s.ghost.material.color.copy(COLOURS[colour]);
    s.ghost.position.copy(cellPosition(peg, level));
    s.ghost.visible = true;
  } else {
    s.ghost.visible = false;
  }
}

/**
 * The cross over `peg` (null hides it).
 * @param {BoardScene} s
 * @param {string | null} peg
 */
export function drawCross(s, peg) {
  if (!peg) {
    s.cross.visible = false;
    return;
  }
  const p = pegPosition(peg);
  p.y = PEG_H + 0.55;
  s.cross.position.copy(p);
  s.cross.visible = true;
}

/**
 * Threat hints: {red: [{peg, level, playable}], yellow: [...]}, or null to hide them.
 * @param {BoardScene} s
 * @param {Partial<Record<Colour, Array<Cell & {playable: boolean}>>> | null} threats
 */
export function drawThreats(s, threats) {
  s.threatGroup.clear();
  if (!threats) return;
  for (const colour of /** @type {const} */ (["red", "yellow"])) {
    for (const t of threats[colour] || []) {
      const m = new THREE.Mesh(
        s.threatGeo,
        new THREE.MeshBasicMaterial({ color: COLOURS[colour], transparent: true, opacity: t.playable ? 0.95 : 0.4 }),
      );
      m.position.copy(cellPosition(t.peg, t.level));
      m.scale.setScalar(t.playable ? 1.2 : 0.9);
      s.threatGroup.add(m);
    }
  }
}

/**
 * Lights up the selected and the hovered peg.
 * @param {BoardScene} s
 * @param {string | null} selected
 * @param {string | null} hovered
 */
export function drawPegs(s, selected, hovered) {
  for (const peg of PEGS) {
    const hot = peg === selected || peg === hovered;
    s.pegMeshes[peg].material.emissive.setHex(hot ? 0x6a5a3a : 0x000000);
  }
}

/**
 * One frame: the main view over the whole canvas, then (when there is an inset) the far camera's view in
 * its square. `s` is the board's scene, or any {renderer, scene} (the arcade's cube); `before(camera)` is
 * called before each of the two views is drawn (the cube turns its labels to the camera that draws them);
 * `insetClear` is the inset's background (the board's: half-transparent white).
 * @param {{renderer: THREE.WebGLRenderer, scene: THREE.Scene}} s
 * @param {{camera: THREE.Camera, far: THREE.Camera, width: number, height: number, inset: Rect | null,
 *          before?: (camera: THREE.Camera) => void, insetClear?: [number, number]}} view
 */
export function drawFrame(s, { camera, far, width, height, inset, before, insetClear = [0xffffff, 0.5] }) {
  const r = s.renderer;
  r.setScissorTest(false);
  r.setViewport(0, 0, width, height);
  r.setClearColor(0x000000, 0);
  r.clear();
  before?.(camera);
  r.render(s.scene, camera);
  if (!inset) return;
  const gy = height - inset.y - inset.h; // GL's origin is bottom-left
  r.setScissorTest(true);
  r.setScissor(inset.x, gy, inset.w, inset.h);
  r.setViewport(inset.x, gy, inset.w, inset.h);
  r.setClearColor(insetClear[0], insetClear[1]);
  r.clear();
  before?.(far);
  r.render(s.scene, far);
  r.setScissorTest(false);
  r.setClearColor(0x000000, 0);
}
