// Unit tests of the pages' pure parts (frontend/tests/*.test.js), run in Node: no browser, no DOM.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.js"],
    environment: "node",
  },
});
