import { describe, expect, test } from "vitest";
import { replay } from "../static/frontend/game.js";
import {
  boardText,
  clockSpoken,
  lastMovesText,
  legalPegs,
  levelText,
  newMovesText,
  parseCommand,
  pegText,
  threatsText,
  unknownText,
} from "../static/frontend/room/blindtext.js";

const stacksOf = (/** @type {string[]} */ moves) => replay(moves).stacks;

describe("a typed line", () => {
  test("a peg is a move, in any case and with spaces around it, and so is play c3", () => {
    expect(parseCommand("c3")).toEqual({ kind: "move", peg: "c3" });
    expect(parseCommand("  C3 ")).toEqual({ kind: "move", peg: "c3" });
    expect(parseCommand("play d4")).toEqual({ kind: "move", peg: "d4" });
  });

  test("the commands, with and without their argument", () => {
    expect(parseCommand("b")).toEqual({ kind: "board" });
    expect(parseCommand("b a2")).toEqual({ kind: "peg", peg: "a2" });
    expect(parseCommand("l")).toEqual({ kind: "levels" });
    expect(parseCommand("level 3")).toEqual({ kind: "level", level: 3 });
    expect(parseCommand("m")).toEqual({ kind: "moves", count: 6 });
    expect(parseCommand("m 10")).toEqual({ kind: "moves", count: 10 });
    expect(parseCommand("c")).toEqual({ kind: "clock" });
    expect(parseCommand("p")).toEqual({ kind: "legal" });
    expect(parseCommand("t")).toEqual({ kind: "turn" });
    expect(parseCommand("chat")).toEqual({ kind: "chat" });
    expect(parseCommand("h")).toEqual({ kind: "help" });
  });

  test("anything else is unknown and said back as typed: off the board, a bad level, extra words", () => {
    for (const line of ["e1", "a5", "l 5", "l x", "b z9", "m 0", "c3 c4", "c3 now please", ""]) {
      expect(parseCommand(line).kind).toBe("unknown");
    }
    expect(unknownText("e1")).toBe("Not a peg or a command: e1. Type h for help.");
  });
});

describe("the board in words", () => {
  const stacks = stacksOf(["a1", "a1", "b2", "a1", "a1"]); // a1: red, yellow, yellow, red; b2: red

  test("one peg bottom up, with its free levels or full", () => {
    expect(pegText("a1", stacks.a1)).toBe("a1: level 1 red, level 2 yellow, level 3 yellow, level 4 red; full.");
    expect(pegText("b2", stacks.b2)).toBe("b2: level 1 red; 3 free.");
    expect(pegText("c3", stacks.c3)).toBe("c3: empty.");
  });

  test("the board names the pegs with beads in order, then the empty ones", () => {
    const text = boardText(stacks);
    expect(text.startsWith("a1: level 1 red")).toBe(true);
    expect(text).toContain("b2: level 1 red; 3 free.");
    expect(text.endsWith("Empty: b1, c1, d1, a2, c2, d2, a3, b3, c3, d3, a4, b4, c4, d4.")).toBe(true);
    expect(boardText(stacksOf([]))).toBe("The board is empty.");
  });

  test("a level names only the beads on it", () => {
    expect(levelText(stacks, 1)).toBe("Level 1: a1 red, b2 red; the rest empty.");
    expect(levelText(stacks, 4)).toBe("Level 4: a1 red; the rest empty.");
    expect(levelText(stacks, 3)).toBe("Level 3: a1 yellow; the rest empty.");
    expect(levelText(stacksOf(["a1"]), 2)).toBe("Level 2: empty.");
  });

  test("the legal pegs leave the full one out and say where a bead would land", () => {
    const legal = legalPegs(stacks);
    expect(legal).toHaveLength(15);
    expect(legal.find((l) => l.peg === "a1")).toBeUndefined();
    expect(legal.find((l) => l.peg === "b2")).toEqual({ peg: "b2", level: 2 });
  });
});

describe("the announcements", () => {
  test("each new move with its colour, peg and level, in order; none already said", () => {
    const moves = ["c3", "c3", "a1"];
    expect(newMovesText(moves, 1)).toEqual(["Yellow, c3, level 2.", "Red, a1, level 1."]);
    expect(newMovesText(moves, 3)).toEqual([]);
  });

  test("the last moves, numbered", () => {
    expect(lastMovesText(["c3", "c3", "a1"], 2)).toBe("2. Yellow, c3, level 2. 3. Red, a1, level 1.");
    expect(lastMovesText([], 6)).toBe("No move yet.");
  });

  test("the threats hint: each colour's lines one bead from four, the playable ones marked", () => {
    const threats = {
      red: [{ peg: "c3", level: 3, playable: false }],
      yellow: [{ peg: "d1", level: 1, playable: true }],
    };
    expect(threatsText(threats)).toEqual([
      "Red threatens a line on c3, level 3.",
      "Yellow threatens a line on d1, level 1, playable now.",
    ]);
    expect(threatsText(null)).toEqual([]);
  });

  test("the clock from the game's deadline, read at the time given", () => {
    const now = Date.parse("2026-12-01T12:00:00Z");
    expect(clockSpoken({ status: "playing", deadline: "2026-12-01T12:00:23Z" }, "yellow", now)).toBe(
      "Yellow to move: 0:23 left.",
    );
    expect(clockSpoken({ status: "playing", deadline: null }, "red", now)).toBe("This game has no clock.");
    expect(clockSpoken({ status: "won", deadline: null }, null, now)).toBe("No game is being played.");
    expect(clockSpoken(null, null, now)).toBe("No game is being played.");
  });
});
