import * as THREE from "three";
import { describe, expect, test } from "vitest";
import {
  CONTROLS,
  controlOf,
  keyDirection,
  quarter,
  screenDirections,
  swipeControl,
} from "../static/frontend/arcade/cube/controls.js";
import { cellPosition } from "../static/frontend/arcade/cube/geometry.js";
import { lines } from "../static/frontend/arcade/rules.js";

const SHAPE = [3, 3, 3];
const HORIZONTAL = /** @type {const} */ (["left", "right", "away", "near"]);
const SLACK = 1e-9;

/**
 * Where a direction slides a tile, in world units: from a cell to its neighbour toward the wall, as the view
 * draws the cells (not as controls.js assumes them).
 * @param {string} dir
 */
function slideVector(dir) {
  const line = lines(SHAPE, dir)[0]; // ordered from the wall slid toward
  return cellPosition(SHAPE, line[0]).sub(cellPosition(SHAPE, line[1])).normalize();
}
/** @type {Record<string, THREE.Vector3>} */
const SLIDES = Object.fromEntries(
  ["left", "right", "forward", "backward", "up", "down"].map((d) => [d, slideVector(d)]),
);
/** @param {string} dir */
const worldVector = (dir) => SLIDES[dir];

/**
 * A camera on the view's orbit around the cube at this azimuth and height.
 * @param {number} azimuth @param {number} polar
 */
function cameraAt(azimuth, polar) {
  const camera = new THREE.PerspectiveCamera(34, 1, 0.1, 100);
  camera.position.setFromSphericalCoords(9, polar, azimuth);
  camera.lookAt(0, 0, 0);
  camera.updateMatrixWorld();
  return camera;
}

// Every azimuth in tenths of a degree over three turns either way (the orbit's angle is not wrapped).
const AZIMUTHS = Array.from({ length: 2 * 3 * 3600 + 1 }, (_, i) => THREE.MathUtils.degToRad((i - 3 * 3600) / 10));

describe("the cube's camera-relative controls", () => {
  // Each test checks every azimuth and gathers the ones that break the rule (one expect: they are many).
  test("every azimuth: left and right are the board's directions nearest the screen's left and right", () => {
    const wrong = AZIMUTHS.filter((azimuth) => {
      const dirs = screenDirections(azimuth);
      const right = new THREE.Vector3(Math.cos(azimuth), 0, -Math.sin(azimuth)); // the camera's right
      const along = HORIZONTAL.map((c) => worldVector(dirs[c]).dot(right));
      const [left, rightward] = along;
      return !(
        left <= -Math.SQRT1_2 + SLACK &&
        rightward >= Math.SQRT1_2 - SLACK &&
        Math.min(...along) >= left - SLACK &&
        Math.max(...along) <= rightward + SLACK
      );
    });
    expect(wrong).toEqual([]);
  });

  test("every azimuth: away goes into the screen and near comes out of it, along the facing's nearest axis", () => {
    const wrong = AZIMUTHS.filter((azimuth) => {
      const dirs = screenDirections(azimuth);
      const facing = new THREE.Vector3(-Math.sin(azimuth), 0, -Math.cos(azimuth)); // flattened onto the floor
      return !(
        worldVector(dirs.away).dot(facing) >= Math.SQRT1_2 - SLACK &&
        worldVector(dirs.near).dot(facing) <= -Math.SQRT1_2 + SLACK
      );
    });
    expect(wrong).toEqual([]);
  });

  test("every azimuth: the four horizontal inputs are the four horizontal directions, up and down the world's", () => {
    const wrong = AZIMUTHS.filter((azimuth) => {
      const dirs = screenDirections(azimuth);
      const horizontal = new Set(HORIZONTAL.map((c) => /** @type {string} */ (dirs[c])));
      return !(
        horizontal.size === 4 &&
        ["left", "right", "forward", "backward"].every((d) => horizontal.has(d)) &&
        worldVector(dirs.up).y > 1 - SLACK &&
        worldVector(dirs.down).y < -1 + SLACK
      );
    });
    expect(wrong).toEqual([]);
  });

  test("seen through a real camera at any height, left moves a tile left on the screen and right to the right", () => {
    /** @type {number[][]} */
    const wrong = [];
    for (let degrees = -360; degrees <= 360; degrees += 2) {
      const azimuth = THREE.MathUtils.degToRad(degrees);
      const dirs = screenDirections(azimuth);
      for (let polar = 10; polar <= 150; polar += 20) {
        const camera = cameraAt(azimuth, THREE.MathUtils.degToRad(polar));
        const centre = new THREE.Vector3().project(camera);
        /** @param {string} dir */
        const screenX = (dir) => worldVector(dir).clone().project(camera).x - centre.x;
        if (!(screenX(dirs.left) < 0 && screenX(dirs.right) > 0)) wrong.push([degrees, polar]);
      }
    }
    expect(wrong).toEqual([]);
  });

  test("the mapping changes only where the view crosses a diagonal, a quarter at a time", () => {
    const changes = [];
    let before = JSON.stringify(screenDirections(AZIMUTHS[0]));
    for (const azimuth of AZIMUTHS) {
      const now = JSON.stringify(screenDirections(azimuth));
      if (now !== before) changes.push(Math.round(THREE.MathUtils.radToDeg(azimuth)));
      before = now;
    }
    // Crossing 45° + k·90° (the view between two axes takes the one it turns toward).
    expect(changes).toEqual(Array.from({ length: 24 }, (_, i) => -1035 + 90 * i));
    expect([0, 1, 2, 3].map((k) => quarter((k * Math.PI) / 2))).toEqual([0, 1, 2, 3]);
    expect(quarter(-Math.PI / 2)).toBe(3);
  });

  test("a half turn swaps left and right, away and near", () => {
    expect(screenDirections(0)).toEqual({
      left: "left",
      right: "right",
      away: "forward",
      near: "backward",
      up: "up",
      down: "down",
    });
    expect(screenDirections(Math.PI)).toMatchObject({
      left: "right",
      right: "left",
      away: "backward",
      near: "forward",
    });
  });

  test("keys: arrows, WASD (either case), E and Q, Page Up and Down; any other key is no move", () => {
    expect(CONTROLS.map((c) => c.keys[0])).toEqual(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "e", "q"]);
    expect(["ArrowLeft", "a", "A"].map(controlOf)).toEqual(["left", "left", "left"]);
    expect(["w", "S", "d", "E", "q", "PageDown"].map(controlOf)).toEqual([
      "away",
      "near",
      "right",
      "up",
      "down",
      "down",
    ]);
    expect(["z", "Enter", " ", "x", "ArrowLeftX"].map(controlOf)).toEqual([null, null, null, null, null]);
    expect(keyDirection("ArrowLeft", Math.PI)).toBe("right");
    expect(keyDirection("e", Math.PI / 2)).toBe("up");
    expect(keyDirection("z", 0)).toBeNull();
  });

  test("swipes: the longer axis wins; a short one is none", () => {
    expect(swipeControl(-40, 10)).toBe("left");
    expect(swipeControl(40, -39)).toBe("right");
    expect(swipeControl(5, -30)).toBe("away");
    expect(swipeControl(-5, 30)).toBe("near");
    expect(swipeControl(10, 20)).toBeNull();
  });
});
