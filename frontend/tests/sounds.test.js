import { describe, expect, test } from "vitest";
import { lowClock, roomSound } from "../static/frontend/room/sounds.js";
import { game, room } from "./fixtures.js";

describe("the sound a room frame makes", () => {
  const before = room({ game: game({ moves: ["a1"] }) }); // seat 2 to move; the viewer is seat 1

  test("a move of mine knocks; the opponent's move says it is my turn", () => {
    expect(roomSound(room({ game: game() }), before)).toBe("move");
    expect(roomSound(before, room({ game: game({ moves: ["a1", "b1"] }) }))).toBe("turn");
  });

  test("the end of a game: a win, a loss, a draw", () => {
    const over = (/** @type {object} */ fields) =>
      room({ game: game({ moves: ["a1", "b1"], status: "won", ...fields }) });
    expect(roomSound(before, over({ winner_seat: 1 }))).toBe("win");
    expect(roomSound(before, over({ winner_seat: 2 }))).toBe("loss");
    expect(roomSound(before, over({ winner_seat: null, status: "drawn" }))).toBe("draw");
    expect(roomSound(before, over({ winner_seat: null, status: "abandoned" }))).toBe(null);
  });

  test("nothing for a frame that changes no move (a takeback, a seat)", () => {
    expect(roomSound(before, room({ game: game() }))).toBe(null);
    expect(roomSound(before, before)).toBe(null);
  });

  test("the low clock ticks on my turn of a 30 or 60 s timer with 10 s left", () => {
    const now = Date.parse("2026-12-01T12:00:00Z");
    const timed = (/** @type {number} */ left, /** @type {number | null} */ seconds = 30) => {
      const r = room({ game: game({ deadline: new Date(now + left * 1000).toISOString() }) });
      return { ...r, rules: { ...r.rules, turn_seconds: seconds } };
    };
    expect(lowClock(timed(10), now)).toBe(true);
    expect(lowClock(timed(11), now)).toBe(false);
    expect(lowClock(timed(5, null), now)).toBe(false);
  });
});
