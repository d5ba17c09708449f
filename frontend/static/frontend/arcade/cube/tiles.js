// The cube's tiles in the scene: a rounded block per tile in its value's colour, its number on a label that
// always faces the camera drawing it (a sprite, moved in front of its block for each camera: faceCamera),
// the cells' lattice, and the animations of a move: the tiles slide, a merge pops, a new tile grows. A
// board shown while an animation runs finishes it at once (finish): input never waits for one.

import * as THREE from "three";
import { RoundedBoxGeometry } from "three/addons/geometries/RoundedBoxGeometry.js";
import { canvas2d, srgbTexture } from "../../board/scene.js";
import { cellPosition, SPACING, TILE, tileColours } from "./geometry.js";

/** @typedef {import("../rules.js").TileMove} TileMove */
/** @typedef {import("../rules.js").Spawn} Spawn */
/** @typedef {{tiles?: TileMove[], merged?: number[], spawned?: Spawn[]}} Change what play.js tells a view */
/** @typedef {{group: THREE.Group, label: THREE.Sprite, value: number}} Tile */
/** @typedef {{start: number, dur: number, at: (t: number) => void, end?: () => void}} Animation */

export const SLIDE_MS = 90;
const POP_MS = 130;
const GROW_MS = 130;
const CORNER = TILE * 0.18;
const LABEL_OUT = (TILE / 2 - CORNER) * Math.sqrt(3) + CORNER + 0.01; // in front of the block's nearest corner

const STILL = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;
const blockGeometry = new RoundedBoxGeometry(TILE, TILE, TILE, 3, CORNER);
/** @type {Map<string, {block: THREE.Material, label: THREE.SpriteMaterial}>} */
const LOOKS = new Map();

/**
 * A value's block material and label, made once.
 * @param {number} value
 * @param {boolean} plain a matte block (Lambert): a software renderer draws it in two thirds of the time
 */
function looks(value, plain) {
  const key = `${plain ? "plain" : "lit"}:${value}`;
  let found = LOOKS.get(key);
  if (found) return found;
  const { fill, ink } = tileColours(value);
  const [canvas, g] = canvas2d(128, 128);
  const text = String(value);
  g.font = `700 ${[0, 80, 72, 58, 46, 38, 32][Math.min(6, text.length)]}px system-ui, sans-serif`;
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.lineJoin = "round";
  g.lineWidth = 10;
  g.strokeStyle = fill; // a rim of the tile's colour: the number reads over an edge or a neighbour too
  g.strokeText(text, 64, 68);
  g.fillStyle = ink;
  g.fillText(text, 64, 68);
  const texture = srgbTexture(canvas);
  texture.anisotropy = 4;
  found = {
    block: plain
      ? new THREE.MeshLambertMaterial({ color: fill })
      : new THREE.MeshStandardMaterial({ color: fill, roughness: 0.42, metalness: 0.05 }),
    label: new THREE.SpriteMaterial({ map: texture, transparent: true }),
  };
  LOOKS.set(key, found);
  return found;
}

/** @param {number} t @returns {number} */
const easeOut = (t) => 1 - (1 - t) * (1 - t);

export class Tiles {
  /**
   * @param {THREE.Scene} scene
   * @param {number[]} shape
   * @param {boolean} [plain] matte blocks (for a software renderer)
   */
  constructor(scene, shape, plain = false) {
    this.shape = shape;
    this.plain = plain;
    this.root = new THREE.Group();
    scene.add(this.root);
    /** @type {Map<number, Tile>} the tile on each cell, as the last board shown has it */
    this.tiles = new Map();
    /** @type {Animation[]} */
    this.anims = [];
    this.lattice = makeLattice(shape);
    this.root.add(this.lattice);
  }

  /**
   * @param {number} cell @param {number} value @param {number} [scale]
   * @returns {Tile}
   */
  make(cell, value, scale = 1) {
    const look = looks(value, this.plain);
    const group = new THREE.Group();
    group.add(new THREE.Mesh(blockGeometry, look.block));
    const label = new THREE.Sprite(look.label);
    label.scale.setScalar(TILE * 0.95);
    group.add(label);
    group.position.copy(cellPosition(this.shape, cell));
    group.scale.setScalar(scale);
    this.root.add(group);
    return { group, label, value };
  }

  /** @param {Tile} tile */
  drop(tile) {
    this.root.remove(tile.group);
  }

  /** @param {Animation} anim */
  animate(anim) {
    if (STILL?.matches) {
      anim.at(1); // the device asks for less motion: every change at once
      anim.end?.();
    } else {
      this.anims.push(anim);
    }
  }

  /** Every animation at its end at once. */
  finish() {
    const anims = this.anims;
    this.anims = [];
    for (const anim of anims) {
      anim.at(1);
      anim.end?.();
    }
  }

  /**
   * One frame of the animations.
   * @param {number} now
   * @returns {boolean} whether any still runs
   */
  step(now) {
    this.anims = this.anims.filter((anim) => {
      const t = anim.dur > 0 ? Math.min(1, Math.max(0, (now - anim.start) / anim.dur)) : 1;
      anim.at(t);
      if (t < 1) return true;
      anim.end?.();
      return false;
    });
    return this.anims.length > 0;
  }

  /**
   * Shows a board: a move's change animated (the slide, then the merges' pop and the new tiles' growth),
   * anything else drawn at once. What the board says wins over what was animated.
   * @param {number[]} board
   * @param {Change | null | undefined} change
   * @param {number} now
   */
  show(board, change, now) {
    if (change?.tiles) {
      this.finish(); // a move while one slides: that one ends at once
      this.slide(board, change, now);
    }
    const after = change?.tiles ? now + SLIDE_MS : now;
    for (const { cell, value } of change?.spawned || []) {
      const old = this.tiles.get(cell);
      if (old) this.drop(old);
      const tile = this.make(cell, value, 0);
      this.tiles.set(cell, tile);
      this.animate({ start: after, dur: GROW_MS, at: (t) => tile.group.scale.setScalar(easeOut(t)) });
    }
    board.forEach((value, cell) => {
      const tile = this.tiles.get(cell);
      if (value && tile?.value === value) return;
      if (tile) {
        this.drop(tile);
        this.tiles.delete(cell);
      }
      if (value) this.tiles.set(cell, this.make(cell, value));
    });
  }

  /**
   * @param {number[]} board
   * @param {Change} change
   * @param {number} now
   */
  slide(board, change, now) {
    /** @type {Map<number, Tile>} */
    const next = new Map();
    for (const move of change.tiles || []) {
      const tile = this.tiles.get(move.from);
      if (!tile) continue;
      const from = tile.group.position.clone();
      const to = cellPosition(this.shape, move.to);
      if (move.from !== move.to) {
        this.animate({ start: now, dur: SLIDE_MS, at: (t) => tile.group.position.lerpVectors(from, to, easeOut(t)) });
      }
      if (move.merged) this.animate({ start: now, dur: SLIDE_MS, at: () => {}, end: () => this.drop(tile) });
      else next.set(move.to, tile);
    }
    for (const cell of change.merged || []) {
      const tile = this.make(cell, board[cell], 0);
      next.set(cell, tile);
      this.animate({
        start: now + SLIDE_MS,
        dur: POP_MS,
        at: (t) => tile.group.scale.setScalar(t === 0 ? 0 : 1 + 0.22 * Math.sin(Math.PI * t)),
      });
    }
    this.tiles = next;
  }

  /**
   * Puts every label in front of its block as seen from `camera` (each camera that draws calls this).
   * @param {THREE.Camera} camera
   */
  faceCamera(camera) {
    const toward = new THREE.Vector3();
    for (const child of this.root.children) {
      const label = child.children[1];
      if (!(label instanceof THREE.Sprite)) continue;
      toward.subVectors(camera.position, child.position).normalize().multiplyScalar(LABEL_OUT);
      label.position.copy(toward);
    }
  }

  /** @param {boolean} dark the page's theme: the lattice light on a dark page */
  setTheme(dark) {
    for (const part of this.lattice.children) {
      if (part instanceof THREE.LineSegments || part instanceof THREE.Points)
        part.material.color.setHex(dark ? 0xc8d0dc : 0x5d5348);
    }
  }

  /** The cells as the last board shown has them (for tests: the animation's end, not its frame). */
  cells() {
    return Array.from(this.tiles, ([cell, tile]) => [cell, tile.value]);
  }
}

/**
 * The cells' lattice: the cube's outline and a dot on every cell's centre, so that the empty cells show.
 * @param {number[]} shape
 */
function makeLattice(shape) {
  const n = shape[0];
  const half = ((n - 1) / 2) * SPACING + TILE / 2 + 0.12;
  const group = new THREE.Group();
  const box = new THREE.EdgesGeometry(new THREE.BoxGeometry(2 * half, 2 * half, 2 * half));
  group.add(new THREE.LineSegments(box, new THREE.LineBasicMaterial({ transparent: true, opacity: 0.5 })));
  const dots = [];
  for (let cell = 0; cell < n ** 3; cell += 1) dots.push(...cellPosition(shape, cell).toArray());
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.Float32BufferAttribute(dots, 3));
  group.add(new THREE.Points(geometry, new THREE.PointsMaterial({ size: 0.09, transparent: true, opacity: 0.6 })));
  return group;
}
