import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, test } from "vitest";

const STATIC = join(import.meta.dirname, "..", "static", "frontend");
const TEMPLATES = join(import.meta.dirname, "..", "templates");

/** @param {string} dir @param {string} ext @returns {string[]} every file under dir ending in ext */
function files(dir, ext) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name), ext) : entry.name.endsWith(ext) ? [join(dir, entry.name)] : [],
  );
}

// The browser's own prompt, alert and confirm: unstyled, untranslatable buttons, and a page frozen behind
// them. Every question is a dialog.js dialog.
const BROWSER_DIALOG = /\b(?:window\s*\.\s*)?(?:prompt|alert|confirm)\s*\(/;

test("no page asks with the browser's prompt, alert or confirm: dialog.js instead", () => {
  const scripts = [...files(STATIC, ".js"), ...files(TEMPLATES, ".html")];
  expect(scripts.length).toBeGreaterThan(30); // the files are where this test looks
  const asking = scripts.filter((path) =>
    readFileSync(path, "utf8")
      .split("\n")
      .some((line) => BROWSER_DIALOG.test(line.replace(/\b\w+Dialog\s*\(/g, ""))),
  );
  expect(asking.map((path) => relative(join(STATIC, ".."), path))).toEqual([]);
});

test("the pattern finds each of them, written either way", () => {
  for (const line of ['window.prompt("x")', "alert(said)", "if (!confirm(text)) return;"])
    expect(BROWSER_DIALOG.test(line)).toBe(true);
  for (const line of ["confirmDialog(a, b, c)", "tellDialog(a, b)", "const confirmed = 1;"])
    expect(BROWSER_DIALOG.test(line.replace(/\b\w+Dialog\s*\(/g, ""))).toBe(false);
});
