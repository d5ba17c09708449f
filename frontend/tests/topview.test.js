import { describe, expect, test } from "vitest";
import { gridPlace, quarterOf, stepPeg } from "../static/frontend/board/topview.js";
import { PEGS } from "../static/frontend/game.js";
import { keyAction } from "../static/frontend/room/keyboard.js";

const ARROWS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"];
/** @type {Record<string, string>} */
const OPPOSITE = { ArrowLeft: "ArrowRight", ArrowRight: "ArrowLeft", ArrowUp: "ArrowDown", ArrowDown: "ArrowUp" };

describe("the top view's grid", () => {
  test("unturned, a1 is bottom left and d4 top right, as seen from row 1", () => {
    expect(gridPlace("a1", 0)).toEqual({ gc: 0, gr: 3 });
    expect(gridPlace("d1", 0)).toEqual({ gc: 3, gr: 3 });
    expect(gridPlace("d4", 0)).toEqual({ gc: 3, gr: 0 });
  });

  test("a half turn puts a1 top right", () => {
    expect(gridPlace("a1", 2)).toEqual({ gc: 3, gr: 0 });
  });

  test("every quarter turn places the 16 pegs on 16 different squares", () => {
    for (const q of [0, 1, 2, 3]) {
      const squares = new Set(PEGS.map((p) => JSON.stringify(gridPlace(p, q))));
      expect(squares.size).toBe(16);
    }
  });

  test("the camera's azimuth rounds to the nearest quarter turn, either way round", () => {
    expect(quarterOf(0)).toBe(0);
    expect(quarterOf(Math.PI / 2)).toBe(1);
    expect(quarterOf(Math.PI / 4 - 0.01)).toBe(0);
    expect(quarterOf(-Math.PI / 2)).toBe(3);
    expect(quarterOf(Math.PI)).toBe(2);
    expect(quarterOf(2 * Math.PI)).toBe(0);
  });
});

describe("stepPeg: the arrow keys on the turned grid", () => {
  test("unturned, right is the next column and up the next row; the edge holds", () => {
    expect(stepPeg("a1", "ArrowRight", 0)).toBe("b1");
    expect(stepPeg("a1", "ArrowUp", 0)).toBe("a2");
    expect(stepPeg("a1", "ArrowLeft", 0)).toBe("a1");
    expect(stepPeg("a1", "ArrowDown", 0)).toBe("a1");
  });

  test("half turned, the keys follow the picture: right from d4 (now bottom left) is c4", () => {
    expect(stepPeg("d4", "ArrowRight", 2)).toBe("c4");
    expect(stepPeg("d4", "ArrowUp", 2)).toBe("d3");
  });

  test("an arrow then its opposite comes back, wherever it did not hit an edge", () => {
    for (const q of [0, 1, 2, 3]) {
      for (const peg of PEGS) {
        for (const key of ARROWS) {
          const next = stepPeg(peg, key, q);
          if (next !== peg) expect(stepPeg(next, OPPOSITE[key], q)).toBe(peg);
        }
      }
    }
  });

  test("no peg yet starts from a1; another key stays", () => {
    expect(stepPeg(null, "ArrowRight", 0)).toBe("b1");
    expect(stepPeg("c3", "Home", 0)).toBe("c3");
  });
});

describe("keyAction: what a key press on the board means", () => {
  /** @type {(from: string, key: string) => string} */
  const step = (from, key) => stepPeg(from, key, 0);
  const base = { selected: null, focused: null, roving: undefined, watching: false };

  test("an arrow selects the next peg from the selection, else the focused peg, else the roving one", () => {
    expect(keyAction({ ...base, key: "ArrowRight", selected: "b2", focused: "d4" }, step)).toEqual({
      kind: "select",
      peg: "c2",
    });
    expect(keyAction({ ...base, key: "ArrowRight", focused: "c3", roving: "a1" }, step)).toEqual({
      kind: "select",
      peg: "d3",
    });
    expect(keyAction({ ...base, key: "ArrowUp", roving: "b1" }, step)).toEqual({ kind: "select", peg: "b2" });
    expect(keyAction({ ...base, key: "ArrowUp" }, step)).toEqual({ kind: "select", peg: "a2" });
  });

  test("a spectator's arrows move the focus and select nothing", () => {
    expect(keyAction({ ...base, key: "ArrowRight", watching: true, roving: "a1" }, step)).toEqual({
      kind: "look",
      peg: "b1",
    });
  });

  test("Enter chooses the focused peg, else the selected one; Escape clears", () => {
    expect(keyAction({ ...base, key: "Enter", selected: "a1", focused: "b1" }, step)).toEqual({
      kind: "choose",
      peg: "b1",
    });
    expect(keyAction({ ...base, key: "Enter", selected: "a1" }, step)).toEqual({ kind: "choose", peg: "a1" });
    expect(keyAction({ ...base, key: "Enter" }, step)).toEqual({ kind: "none" });
    expect(keyAction({ ...base, key: "Escape", selected: "a1" }, step)).toEqual({ kind: "clear" });
    expect(keyAction({ ...base, key: "x" }, step)).toEqual({ kind: "none" });
  });
});
