import { expect, test } from "vitest";
import { countsText } from "../static/frontend/player/follow.js";

test("a player's counts read as a person says them", () => {
  expect(countsText(0, 0)).toBe("0 followers · 0 following");
  expect(countsText(1, 3)).toBe("1 follower · 3 following");
  expect(countsText(12, 1)).toBe("12 followers · 1 following");
});
