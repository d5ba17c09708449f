import { afterEach, describe, expect, test } from "vitest";
import { endText, levelName } from "../static/frontend/game.js";
import {
  formatDate,
  formatNumber,
  formatPercent,
  gettext,
  interpolate,
  lang,
  listText,
  ngettext,
  npgettext,
  pgettext,
  useCatalog,
} from "../static/frontend/i18n.js";
import { momentText } from "../static/frontend/replay/postgame.js";
import { helpText, moveText, parseCommand, threatsText, unknownText } from "../static/frontend/room/blindtext.js";

/**
 * A catalog as the catalog script sets it (frontend/jscatalog.py).
 * @param {string} language
 * @param {(n: number) => number} plural
 * @param {Record<string, string | string[]>} texts
 */
const catalog = (language, plural, texts) => ({ lang: language, plural, catalog: texts });

afterEach(() => useCatalog(null));

describe("texts without a catalog (English, the source)", () => {
  test("a text is its msgid, its placeholders filled; a count picks English's form", () => {
    expect(lang()).toBe("en");
    expect(gettext("Peg %(peg)s is full.", { peg: "c3" })).toBe("Peg c3 is full.");
    expect(ngettext("%(n)s game", "%(n)s games", 1)).toBe("1 game");
    expect(ngettext("%(n)s game", "%(n)s games", 0)).toBe("0 games");
    expect(ngettext("One move was taken back.", "%(n)s moves were taken back.", 3)).toBe("3 moves were taken back.");
    expect(pgettext("side", "Red")).toBe("Red");
    expect(npgettext("x", "%(n)s bead", "%(n)s beads", 2)).toBe("2 beads");
  });

  test("placeholders: by name, in any order; one without a value stays; numbers written for the language", () => {
    expect(interpolate("%(b)s beat %(a)s", { a: "Ann", b: "Bob" })).toBe("Bob beat Ann");
    expect(interpolate("%(a)s and %(missing)s", { a: 1 })).toBe("1 and %(missing)s");
    expect(interpolate("100%% sure, %(n)s", { n: 12345 })).toBe("100% sure, 12,345");
    expect(interpolate("as it is: %(a)s %%", undefined)).toBe("as it is: %(a)s %%");
    expect(gettext("rating %(rating)s", { rating: 1500 })).toBe("rating 1500"); // four digits: no separator
  });
});

describe("texts from a catalog", () => {
  const ja = catalog("ja", () => 0, {
    "Peg %(peg)s is full.": "%(peg)sの棒はいっぱいです。",
    "%(n)s game": ["%(n)s局"],
    "side\u0004Red": "赤",
    "list separator\u0004, ": "、",
    "Untranslated here": "",
  });

  test("the translation, its placeholders filled, one plural form for every count in Japanese", () => {
    useCatalog(ja);
    expect(lang()).toBe("ja");
    expect(gettext("Peg %(peg)s is full.", { peg: "c3" })).toBe("c3の棒はいっぱいです。");
    expect(ngettext("%(n)s game", "%(n)s games", 1)).toBe("1局");
    expect(ngettext("%(n)s game", "%(n)s games", 40)).toBe("40局");
    expect(pgettext("side", "Red")).toBe("赤");
    expect(listText(["a1", "b2", "c3"])).toBe("a1、b2、c3");
  });

  test("a text the catalog lacks, or has empty, falls back to English", () => {
    useCatalog(ja);
    expect(gettext("Not in the catalog %(x)s", { x: 1 })).toBe("Not in the catalog 1");
    expect(gettext("Untranslated here")).toBe("Untranslated here");
    expect(pgettext("bead colour", "Red")).toBe("Red"); // the context tells it from "side"
    expect(ngettext("%(n)s move", "%(n)s moves", 2)).toBe("2 moves");
  });

  test("French takes the singular for 0 and 1; Spanish has a third form (millions)", () => {
    useCatalog(catalog("fr", (n) => Number(n > 1), { "%(n)s game": ["%(n)s partie", "%(n)s parties"] }));
    expect([0, 1, 2].map((n) => ngettext("%(n)s game", "%(n)s games", n))).toEqual([
      "0 partie",
      "1 partie",
      "2 parties",
    ]);
    const es = (/** @type {number} */ n) => (n === 1 ? 0 : n !== 0 && n % 1000000 === 0 ? 1 : 2);
    useCatalog(catalog("es", es, { "%(n)s game": ["%(n)s partida", "%(n)s de partidas", "%(n)s partidas"] }));
    expect([1, 2000000, 3].map((n) => ngettext("%(n)s game", "%(n)s games", n))).toEqual([
      "1 partida",
      "2.000.000 de partidas",
      "3 partidas",
    ]);
  });

  test("numbers, shares and dates in the page's language", () => {
    useCatalog(catalog("de", (n) => Number(n !== 1), {}));
    expect(formatNumber(12345)).toBe("12.345");
    expect(formatNumber(1500)).toBe("1500");
    expect(formatPercent(0.456)).toBe("46\u00a0%");
    expect(formatDate("2026-12-01T12:30:00Z", { timeZone: "UTC", dateStyle: "medium" })).toBe("01.12.2026");
    expect(formatDate("not a date")).toBe("");
    useCatalog(catalog("fr", (n) => Number(n > 1), {}));
    expect(formatNumber(12345).replace(/\s/g, " ")).toBe("12 345");
  });
});

describe("the game's words", () => {
  test("English: how a game ended, a move and a threat as blind mode says them", () => {
    expect(endText("resignation", "red")).toBe("Yellow resigned: Red wins.");
    expect(endText("timeout", "yellow")).toBe("Red ran out of time: Yellow wins.");
    expect(endText("line", "red")).toBe("Red wins with four in a row.");
    expect(levelName(2)).toBe("level 2");
    expect(moveText({ colour: "yellow", peg: "c3", level: 2 })).toBe("Yellow, c3, level 2.");
  });

  test("in a catalog's language: the colours and the sentences are its own", () => {
    useCatalog(
      catalog("ja", () => 0, {
        "side\u0004Red": "赤",
        "side\u0004Yellow": "黄",
        "%(side)s, %(peg)s, level %(level)s.": "%(side)s、%(peg)s、%(level)s段目。",
        "%(side)s threatens a line on %(peg)s, level %(level)s.": "%(side)sが%(peg)sの%(level)s段目でリーチ。",
      }),
    );
    expect(moveText({ colour: "yellow", peg: "c3", level: 2 })).toBe("黄、c3、2段目。");
    expect(threatsText({ red: [{ peg: "c3", level: 3, playable: false }] })).toEqual(["赤がc3の3段目でリーチ。"]);
  });

  test("blind mode's commands: the language's words, English's, and a peg however it is typed", () => {
    useCatalog(
      catalog("ja", () => 0, {
        "blind mode: words that read the board, or a peg (b c3)\u0004b board peg": "盤 ばん",
        "blind mode: words that say the help\u0004h help ?": "ヘルプ",
      }),
    );
    expect(parseCommand("盤")).toEqual({ kind: "board" });
    expect(parseCommand("ばん c3")).toEqual({ kind: "peg", peg: "c3" });
    expect(parseCommand("b c3")).toEqual({ kind: "peg", peg: "c3" }); // English works on every page
    expect(parseCommand("ｃ３")).toEqual({ kind: "move", peg: "c3" }); // an input method's full-width letters
    expect(parseCommand("ヘルプ")).toEqual({ kind: "help" });
    expect(unknownText("e5")).toBe("Not a peg or a command: e5. Type ヘルプ for help.");
    expect(helpText()).toContain("盤 reads the board");
  });
});

describe("a key moment of the analysis, said on the page", () => {
  /** @type {import("../static/frontend/replay/postgame.js").Entry[]} */
  const plies = [
    { to_move: "red", eval: { kind: "forced_win", plies: 1, move: "d1" } },
    { to_move: "yellow", eval: { kind: "forced_win", plies: 3, move: "a2" } },
    { to_move: "red", eval: { kind: "draw" } },
  ];
  const moment = { ply: 0, move_number: 1, colour: "red", peg: "b2", better: "d1", text: "from the server" };

  test("the server's English sentence, from the entries before and after the move", () => {
    expect(momentText({ ...moment, kind: "missed_win" }, plies)).toBe(
      "Move 1, Red b2: missed a forced win in 1 (d1 first); after this Yellow wins by force in 3",
    );
    expect(momentText({ ...moment, kind: "blunder", better: "c4" }, plies)).toBe(
      "Move 1, Red b2: after this Yellow wins by force in 3",
    );
    expect(momentText({ ...moment, kind: "missed_win", ply: 1 }, plies)).toBe(
      "Move 1, Red b2: missed a forced win in 3 (d1 first); after this the game is a draw with best play",
    );
    expect(
      momentText({ ...moment, kind: "slower_win" }, [
        plies[0],
        { to_move: "yellow", eval: { kind: "forced_loss", plies: 4 } },
      ]),
    ).toBe("Move 1, Red b2: still wins by force, but in 5 instead of 1 (d1 first)");
    expect(momentText({ ...moment, kind: "missed_win" }, [])).toBe("from the server");
  });
});
