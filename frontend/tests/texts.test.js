import { expect, describe as group, test } from "vitest";
import { agoText, clockText, rangeText } from "../static/frontend/home/lobby.js";
import { describe, evalText, redValue } from "../static/frontend/replay/postgame.js";
import { escapeHtml, shownName, signedPoints } from "../static/frontend/text.js";

group("how ratings and names read", () => {
  test("a rating change has its sign, a real minus and a ±0", () => {
    expect(signedPoints(8)).toBe("+8");
    expect(signedPoints(-10.4)).toBe("\u221210");
    expect(signedPoints(0.2)).toBe("±0");
    expect(signedPoints("x")).toBe("");
    expect(signedPoints(null)).toBe("±0");
  });

  test("text going into HTML has its five special characters escaped", () => {
    expect(escapeHtml(`<b a="1">Tom & Jerry's</b>`)).toBe("&lt;b a=&quot;1&quot;&gt;Tom &amp; Jerry&#39;s&lt;/b&gt;");
    expect(escapeHtml(null)).toBe("");
    expect(escapeHtml(42)).toBe("42");
  });

  test("a bot's name carries its title; a nameless player is a guest", () => {
    expect(shownName({ name: "robo", title: "BOT" })).toBe("BOT robo");
    expect(shownName({ name: "Ann", title: null })).toBe("Ann");
    expect(shownName(null)).toBe("Guest");
  });
});

group("the lobby's clocks", () => {
  test("minutes and seconds since a seek began, never negative", () => {
    expect(clockText(7_900)).toBe("0:07");
    expect(clockText(83_000)).toBe("1:23");
    expect(clockText(-5)).toBe("0:00");
  });

  test("how long a room has waited", () => {
    const now = Date.parse("2026-12-01T12:00:00Z");
    expect(agoText("2026-12-01T11:59:30Z", now)).toBe("just now");
    expect(agoText("2026-12-01T11:57:00Z", now)).toBe("3 min");
    expect(agoText("2026-12-01T09:00:00Z", now)).toBe("3 h");
    expect(agoText("not a time", now)).toBe("just now");
  });

  test("the rating range a seek is matched in", () => {
    expect(rangeText([1400, 1600])).toBe("Ratings 1400–1600");
    expect(rangeText([null, null])).toBe("Any rating");
    expect(rangeText(null)).toBe("Any rating");
  });
});

group("the replay's analysis in words", () => {
  test("how a game ended", () => {
    expect(describe({ status: "won", winner: "red", reason: "line" })).toBe("Red wins with four in a row.");
    expect(describe({ status: "resigned", winner: "yellow", reason: "resignation" })).toBe(
      "Red resigned: Yellow wins.",
    );
    // A draw says why: agreed (at any move) or a full board.
    expect(describe({ status: "drawn", reason: "agreement" })).toBe(
      "Draw by agreement: both players accepted a draw offer.",
    );
    expect(describe({ status: "drawn", reason: "full_board" })).toBe("The board is full with no four in a row.");
    expect(describe({ status: "playing" })).toBe("Game in progress.");
  });

  test("a proved win, a proved loss and the engine's opinion, each from the right side", () => {
    const win = { to_move: /** @type {const} */ ("yellow"), eval: { kind: "forced_win", plies: 3, move: "b2" } };
    expect(evalText(win, null)).toBe("Yellow wins by force in 3 (proved), e.g. b2");
    expect(redValue(win, null)).toBe(-1);
    const loss = { to_move: /** @type {const} */ ("yellow"), eval: { kind: "forced_loss", plies: 4 } };
    expect(evalText(loss, null)).toBe("Red wins by force in 4 at the latest (proved)");
    expect(redValue(loss, null)).toBe(1);
    const opinion = { to_move: /** @type {const} */ ("yellow"), eval: { kind: "heuristic", score: 12, move: "c3" } };
    expect(evalText(opinion, null)).toBe("Engine's opinion (not proved): Yellow better by 12; suggests c3");
    expect(redValue(opinion, null)).toBeCloseTo((0.9 * -12) / (12 + 30), 10);
  });

  test("the final position takes the game's result", () => {
    const final = { to_move: /** @type {const} */ ("red"), eval: { kind: "final" } };
    expect(redValue(final, { winner: "yellow" })).toBe(-1);
    expect(redValue(final, { winner: null, status: "drawn" })).toBe(0);
    expect(evalText(final, { status: "drawn", reason: "full_board" })).toBe("The board is full with no four in a row.");
    expect(evalText(final, null)).toBe("The game is over.");
  });
});
