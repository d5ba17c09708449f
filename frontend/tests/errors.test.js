import { describe, expect, test } from "vitest";
import { errorOutcome } from "../static/frontend/room/errors.js";

describe("errorOutcome", () => {
  test("a server error with a drop in flight offers the same peg again", () => {
    expect(errorOutcome({ code: "server_error", message: "boom" }, "b3")).toEqual({
      text: "Your move on b3 did not go through (a server error). Tap Choose to try again.",
      kind: "error",
      select: "b3",
      cross: null,
    });
  });

  test("a server error with nothing in flight says nothing changed", () => {
    expect(errorOutcome({ code: "server_error" }, null)).toEqual({
      text: "Something went wrong on the server: nothing changed. Please try again.",
      kind: "error",
      select: null,
      cross: null,
    });
  });

  test("a stale drop is information, not an error, and selects nothing", () => {
    const outcome = errorOutcome({ code: "stale", message: "ignored" }, "a1");
    expect(outcome).toEqual({
      text: "The board moved on: look again and choose.",
      kind: "info",
      select: null,
      cross: null,
    });
  });

  test("a full peg crosses the peg of the drop in flight, with the server's words", () => {
    expect(errorOutcome({ code: "peg_full", message: "Peg c2 is full." }, "c2")).toEqual({
      text: "Peg c2 is full.",
      kind: "error",
      select: null,
      cross: "c2",
    });
    expect(errorOutcome({ code: "peg_full" }, null).text).toBe("That peg is full.");
  });

  test("any other code shows the server's message, else the code in words", () => {
    expect(errorOutcome({ code: "not_your_turn", message: "Wait for your turn." }, null).text).toBe(
      "Wait for your turn.",
    );
    expect(errorOutcome({ code: "seat_taken" }, null).text).toBe("seat taken");
    expect(errorOutcome({ code: "seat_taken", message: 42 }, null).text).toBe("seat taken");
  });

  test("a frame without a code is a plain error", () => {
    expect(errorOutcome({}, null)).toEqual({ text: "error", kind: "error", select: null, cross: null });
    expect(errorOutcome(null, "a1").text).toBe("error");
  });
});
