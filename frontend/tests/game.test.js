import { describe, expect, test } from "vitest";
import { PEGS, parsePeg, replay, seatColour } from "../static/frontend/game.js";

describe("the board's arithmetic", () => {
  test("16 pegs a1..d4, row by row", () => {
    expect(PEGS).toHaveLength(16);
    expect(PEGS.slice(0, 5)).toEqual(["a1", "b1", "c1", "d1", "a2"]);
  });

  test("parsePeg reads a peg's column and row, and nothing else", () => {
    expect(parsePeg("b3")).toEqual({ col: 1, row: 2 });
    expect(parsePeg("D4")).toEqual({ col: 3, row: 3 });
    for (const bad of ["e1", "a5", "a0", "a", "a11", "", null, 7]) expect(parsePeg(bad)).toBeNull();
  });

  test("replay stacks the beads bottom up, colours by ply (red first), skipping a drop on a full peg or no peg", () => {
    const { stacks, placed } = replay(["a1", "a1", "b2", "a1", "a1", "a1", "zz", "c3"]);
    expect(stacks.a1).toEqual(["red", "yellow", "yellow", "red"]);
    expect(stacks.b2).toEqual(["red"]);
    expect(stacks.c3).toEqual(["yellow"]); // ply 7, after two skipped
    expect(placed.map((m) => [m.peg, m.level, m.colour])).toEqual([
      ["a1", 1, "red"],
      ["a1", 2, "yellow"],
      ["b2", 1, "red"],
      ["a1", 3, "yellow"],
      ["a1", 4, "red"],
      ["c3", 1, "yellow"],
    ]);
  });

  test("a seat's colour follows the game's red seat", () => {
    expect(seatColour({ red_seat: 2 }, 2)).toBe("red");
    expect(seatColour({ red_seat: 2 }, 1)).toBe("yellow");
    expect(seatColour(null, 1)).toBeNull();
  });
});
