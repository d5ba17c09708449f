import { expect, test } from "vitest";
import { reportBody, TEXT_MAX } from "../static/frontend/report.js";

test("a report's body takes a reason as typed and what it is about", () => {
  expect(reportBody("p1", " Abuse ", "he insults me", { message: 42 })).toEqual({
    player: "p1",
    reason: "abuse",
    text: "he insults me",
    game: null,
    message: 42,
  });
  expect(reportBody("p1", "spam", null, { game: "g1" })?.game).toBe("g1");
  expect(reportBody("p1", "rude", "x")).toBeNull();
  expect(reportBody("p1", null, "x")).toBeNull();
  expect(reportBody("p1", "other", "y".repeat(600))?.text.length).toBe(TEXT_MAX);
});
