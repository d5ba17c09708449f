import * as THREE from "three";
import { describe, expect, test } from "vitest";
import { DEFAULT_FOV, fitPicture, insetRect, lensFor } from "../static/frontend/board/camera.js";

/** @typedef {import("../static/frontend/board/camera.js").Direction} Direction */
/** @typedef {import("../static/frontend/board/camera.js").Lens} Lens */
/** @typedef {import("../static/frontend/board/camera.js").Rect} Rect */

/** A square shape of half-width `r` in directions. @param {number} r @returns {Direction[]} */
function square(r) {
  return [
    { u: -r, v: -r },
    { u: r, v: -r },
    { u: -r, v: r },
    { u: r, v: r },
  ];
}

/** @param {Lens} lens @param {Direction} p */
function onCanvas(lens, p) {
  return { x: lens.cx + lens.focal * p.u, y: lens.cy + lens.focal * p.v };
}

/** @param {Lens} lens @param {Direction[]} points @param {Rect} inset */
function anyUnderInset(lens, points, inset) {
  return points.some((p) => {
    const { x, y } = onCanvas(lens, p);
    return x >= inset.x - 8 && y <= inset.y + inset.h + 8;
  });
}

describe("fitPicture", () => {
  test("a shape that fits at the longest focal length stays centred at it", () => {
    const lens = fitPicture({ width: 800, height: 600, frame: square(0.2), avoid: [], inset: null, maxFocal: 1000 });
    expect(lens).toEqual({ focal: 1000, cx: 400, cy: 300 });
  });

  test("a shape too big for the canvas shrinks until it fits, with the margin", () => {
    const lens = fitPicture({ width: 400, height: 400, frame: square(0.5), avoid: [], inset: null, maxFocal: 1000 });
    expect(lens.focal).toBeLessThan(1000);
    expect(lens.focal).toBeGreaterThan(380);
    for (const p of square(0.5)) {
      const { x, y } = onCanvas(lens, p);
      expect(x).toBeGreaterThanOrEqual(6 - 1e-6);
      expect(x).toBeLessThanOrEqual(394 + 1e-6);
      expect(y).toBeGreaterThanOrEqual(6 - 1e-6);
      expect(y).toBeLessThanOrEqual(394 + 1e-6);
    }
  });

  test("the picture moves down, away from the inset, before it shrinks", () => {
    const inset = { x: 300, y: 8, w: 92, h: 200 };
    const frame = square(0.3);
    const lens = fitPicture({ width: 400, height: 600, frame, avoid: frame, inset, maxFocal: 500 });
    expect(lens.focal).toBe(500);
    expect(lens.cx).toBe(200);
    expect(lens.cy).toBeGreaterThan(300);
    expect(anyUnderInset(lens, frame, inset)).toBe(false);
  });

  test("on a canvas with no room below, it shrinks just enough to clear the inset", () => {
    const inset = { x: 260, y: 8, w: 132, h: 132 };
    const frame = square(0.45);
    const lens = fitPicture({ width: 400, height: 400, frame, avoid: frame, inset, maxFocal: 400 });
    expect(lens.focal).toBeLessThan(400);
    expect(anyUnderInset(lens, frame, inset)).toBe(false);
    const bigger = { ...lens, focal: lens.focal * 1.1 };
    const placedBigger = fitPicture({
      width: 400,
      height: 400,
      frame,
      avoid: frame,
      inset,
      maxFocal: bigger.focal,
    });
    expect(placedBigger.focal).toBeCloseTo(lens.focal, 0);
  });
});

describe("insetRect", () => {
  test("a third of the short side, at most 200 px, in the top right corner", () => {
    expect(insetRect(800, 600)).toEqual({ x: 600, y: 8, w: 192, h: 192 });
    expect(insetRect(1600, 1000)).toEqual({ x: 1392, y: 8, w: 200, h: 200 });
  });

  test("a quarter on a phone, never under 88 px", () => {
    expect(insetRect(400, 500)).toEqual({ x: 292, y: 8, w: 100, h: 100 });
    expect(insetRect(300, 300)).toEqual({ x: 204, y: 8, w: 88, h: 88 });
  });
});

describe("lensFor: the main camera's lens", () => {
  const target = new THREE.Vector3(0, 1.25, 0);

  test("a roomy canvas keeps the usual 34° lens, centred", () => {
    const lens = lensFor(1400, 1000, null, target);
    expect(lens.fov).toBeCloseTo(DEFAULT_FOV, 6);
    expect(lens.offsetX).toBeCloseTo(0, 6);
    expect(lens.offsetY).toBeCloseTo(0, 6);
  });

  test("a phone's canvas with its inset widens the lens and moves the picture down", () => {
    const lens = lensFor(390, 390, insetRect(390, 390), target);
    expect(lens.fov).toBeGreaterThan(DEFAULT_FOV);
    expect(lens.offsetY).toBeLessThan(0);
  });
});
