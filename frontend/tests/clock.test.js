import { describe, expect, test } from "vitest";
import { clockText, timeControlText, untilText } from "../static/frontend/clock.js";
import { abandonedText } from "../static/frontend/game.js";

describe("the time left, as a person reads it", () => {
  test("minutes and seconds under an hour, hours and minutes under a day, then days and hours", () => {
    expect(clockText(42)).toBe("0:42");
    expect(clockText(59.2)).toBe("1:00"); // rounded up: a turn never shows 0:00 with time left
    expect(clockText(-5)).toBe("0:00");
    expect(clockText(3599)).toBe("59:59");
    expect(clockText(3600 * 3 + 5 * 60)).toBe("3 h 05 min");
    expect(clockText(86400 * 2 + 3600 * 4 + 59)).toBe("2 d 4 h");
  });

  test("until an instant, and nothing without one", () => {
    const now = Date.parse("2026-12-01T12:00:00Z");
    expect(untilText("2026-12-03T13:00:00Z", now)).toBe("2 d 1 h");
    expect(untilText(null, now)).toBe("");
  });

  test("a time control in words; an aborted game says why", () => {
    expect(timeControlText({ days_per_move: 1, turn_seconds: null })).toBe("1 day a move");
    expect(timeControlText({ days_per_move: 3 })).toBe("3 days a move");
    expect(timeControlText({ turn_seconds: 30 })).toBe("30 s a move");
    expect(timeControlText({})).toBe("no timer");
    expect(abandonedText("aborted")).toMatch(/first move/);
  });
});
