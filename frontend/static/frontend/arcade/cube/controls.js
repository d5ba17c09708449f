// The cube's controls (ARCADE.md, "The cube's controls"): the four horizontal inputs follow the view, the
// two vertical ones are always the world's up and down. The camera's facing direction, flattened onto the
// horizontal plane, is snapped to the nearest cube axis; "away" is that axis, "left" the one on the
// screen's left. Pure: a function of the camera's azimuth (OrbitControls' getAzimuthalAngle: 0 looks at
// the cube's front, from y = 0 toward the back; a positive azimuth has turned the camera toward +x).

/** @typedef {import("../rules.js").Direction} Direction */
/** @typedef {"left" | "right" | "away" | "near" | "up" | "down"} Control an input, as the player sees it */

/** The inputs, each with its keys (the first is the one play.js and the page name) and an arrow to draw. */
export const CONTROLS = /** @type {const} */ ([
  { control: "left", keys: ["ArrowLeft", "a"], symbol: "←" },
  { control: "right", keys: ["ArrowRight", "d"], symbol: "→" },
  { control: "away", keys: ["ArrowUp", "w"], symbol: "↑" },
  { control: "near", keys: ["ArrowDown", "s"], symbol: "↓" },
  { control: "up", keys: ["e", "PageUp"], symbol: "⤒" },
  { control: "down", keys: ["q", "PageDown"], symbol: "⤓" },
]);

// The horizontal directions in the order the facing axis takes as the camera turns by a quarter, from
// azimuth 0 (facing the back: "forward") through 90° (the camera on the right, facing -x: "left").
/** @type {Direction[]} */
const AROUND = ["forward", "left", "backward", "right"];

/**
 * Which quarter of the turn the view is in: 0 at the front, 1 on the right (+x), 2 at the back, 3 on the
 * left. A view exactly between two axes takes the one the camera is turning toward as the azimuth grows.
 * @param {number} azimuth radians, any number of turns
 */
export function quarter(azimuth) {
  const k = Math.floor(azimuth / (Math.PI / 2) + 0.5);
  return ((k % 4) + 4) % 4;
}

/**
 * The board's direction for each input, seen from a camera at `azimuth`.
 * @param {number} azimuth
 * @returns {Record<Control, Direction>}
 */
export function screenDirections(azimuth) {
  const k = quarter(azimuth);
  return {
    away: AROUND[k],
    left: AROUND[(k + 1) % 4],
    near: AROUND[(k + 2) % 4],
    right: AROUND[(k + 3) % 4],
    up: "up",
    down: "down",
  };
}

/**
 * The input a key stands for (arrows, WASD, E and Q, Page Up and Down), or null.
 * @param {string} key a KeyboardEvent's key
 * @returns {Control | null}
 */
export function controlOf(key) {
  const lower = key.length === 1 ? key.toLowerCase() : key;
  const found = CONTROLS.find((c) => /** @type {readonly string[]} */ (c.keys).includes(lower));
  return found ? found.control : null;
}

/**
 * The board's direction a key plays with the camera at `azimuth`, or null for a key that is no move.
 * @param {string} key
 * @param {number} azimuth
 * @returns {Direction | null}
 */
export function keyDirection(key, azimuth) {
  const control = controlOf(key);
  return control ? screenDirections(azimuth)[control] : null;
}

/**
 * The input a swipe stands for: left, right, away (up the screen) or near (down), or null when it is too
 * short to be one.
 * @param {number} dx screen pixels, rightward
 * @param {number} dy screen pixels, downward
 * @param {number} [least] the shortest swipe
 * @returns {Control | null}
 */
export function swipeControl(dx, dy, least = 24) {
  if (Math.max(Math.abs(dx), Math.abs(dy)) < least) return null;
  if (Math.abs(dx) > Math.abs(dy)) return dx < 0 ? "left" : "right";
  return dy < 0 ? "away" : "near";
}
