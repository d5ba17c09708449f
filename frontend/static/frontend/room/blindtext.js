// Blind mode's words, pure (no DOM): the board read by peg or by level, a typed line parsed into a move
// or a command, the announcement of a move, the threat warnings, the clock and the last moves
// (docs/accessibility.md). blind.js puts them on the page.

import { clockText } from "../clock.js";
import { colourWord, PEGS, parsePeg, replay, SIZE, sideName } from "../game.js";
import { gettext, listText, ngettext, pgettext } from "../i18n.js";

/** @typedef {import("./types.js").Colour} Colour */
/** @typedef {import("./types.js").Threats} Threats */
/** @typedef {Record<string, Colour[]>} Stacks */

/**
 * @typedef {{kind: "move", peg: string} | {kind: "peg", peg: string} | {kind: "level", level: number}
 *   | {kind: "board" | "levels" | "clock" | "legal" | "turn" | "chat" | "help"} | {kind: "moves", count: number}
 *   | {kind: "unknown", text: string}} Command
 */

/** @typedef {"move" | "board" | "level" | "moves" | "clock" | "legal" | "turn" | "chat" | "help"} Word */

/**
 * The words of each command: the page's language's (its first word is the one the help names), then the
 * English ones, which work on every page.
 * @returns {Array<{kind: Word, own: string[], english: string[]}>}
 */
export function commandWords() {
  /** @type {Array<[Word, string, string]>} */
  const words = [
    ["move", "play drop", pgettext("blind mode: words that play a peg (c3)", "play drop")],
    ["board", "b board peg", pgettext("blind mode: words that read the board, or a peg (b c3)", "b board peg")],
    ["level", "l level levels", pgettext("blind mode: words that read the levels, or one (l 2)", "l level levels")],
    ["moves", "m moves last", pgettext("blind mode: words that read the last moves (m 10)", "m moves last")],
    ["clock", "c clock", pgettext("blind mode: words that read the clock", "c clock")],
    ["legal", "p pegs legal", pgettext("blind mode: words that list the pegs one can play", "p pegs legal")],
    ["turn", "t turn", pgettext("blind mode: words that say whose turn it is", "t turn")],
    ["chat", "chat", pgettext("blind mode: words that read the chat", "chat")],
    ["help", "h help ?", pgettext("blind mode: words that say the help", "h help ?")],
  ];
  /** @param {string} text */
  const split = (text) => normalise(text).split(/\s+/).filter(Boolean);
  return words.map(([kind, english, own]) => ({ kind, own: split(own), english: split(english) }));
}

/** A line as compared: lower case, full-width letters and digits (an input method's) made plain. @param {string} text */
function normalise(text) {
  return text.normalize("NFKC").trim().toLowerCase();
}

/** Which command a word is (the page language's words first), or null. @param {string} word */
function commandOf(word) {
  const all = commandWords();
  return (all.find((c) => c.own.includes(word)) || all.find((c) => c.english.includes(word)))?.kind ?? null;
}

/** The word the help names for a command. @param {Word} kind */
function wordOf(kind) {
  const found = commandWords().find((c) => c.kind === kind);
  return found?.own[0] || found?.english[0] || kind;
}

/** The help: how to play and each command, by the page language's words. */
export function helpText() {
  /** @type {Record<string, string>} */
  const first = Object.fromEntries(commandWords().map((c) => [c.kind, wordOf(c.kind)]));
  return gettext(
    "Type a peg, like c3, and Enter to play it. Commands: %(board)s reads the board peg by peg; %(board)s c3 one peg; %(level)s reads every level; %(level)s 2 one level; %(legal)s lists the pegs you can play; %(moves)s the last moves (%(moves)s 10: ten); %(clock)s the clock; %(turn)s whose turn; %(chat)s the last messages; %(help)s this help.",
    first,
  );
}

/**
 * A typed line: a peg to play, or a command (see helpText). Case, spaces and full-width characters do not
 * matter; the commands are the English words and the page language's.
 * @param {string} line
 * @returns {Command}
 */
export function parseCommand(line) {
  const words = normalise(line).split(/\s+/).filter(Boolean);
  const [head = "", arg, ...rest] = words;
  const unknown = /** @type {Command} */ ({ kind: "unknown", text: line.trim() });
  if (rest.length) return unknown;
  if (!arg && parsePeg(head)) return { kind: "move", peg: head };
  const kind = commandOf(head);
  if (kind === "move" && arg && parsePeg(arg)) return { kind: "move", peg: arg };
  if (kind === "board") {
    if (!arg) return { kind: "board" };
    if (parsePeg(arg)) return { kind: "peg", peg: arg };
  }
  if (kind === "level") {
    if (!arg) return { kind: "levels" };
    const level = Number(arg);
    if (Number.isInteger(level) && level >= 1 && level <= SIZE) return { kind: "level", level };
  }
  if (kind === "moves") {
    const count = arg ? Number(arg) : 6;
    if (Number.isInteger(count) && count > 0) return { kind: "moves", count };
  }
  if (!arg && (kind === "clock" || kind === "legal" || kind === "turn" || kind === "chat" || kind === "help"))
    return { kind };
  return unknown;
}

/** @param {string} text what was typed */
export function unknownText(text) {
  return gettext("Not a peg or a command: %(text)s. Type %(help)s for help.", { text, help: wordOf("help") });
}

/** One peg's beads, bottom up. @param {string} peg @param {Colour[]} stack */
export function pegText(peg, stack) {
  if (!stack.length) return gettext("%(peg)s: empty.", { peg });
  const beads = listText(
    stack.map((c, i) => gettext("level %(level)s %(colour)s", { level: i + 1, colour: colourWord(c) })),
  );
  const free = SIZE - stack.length;
  return free
    ? ngettext("%(peg)s: %(beads)s; %(n)s free.", "%(peg)s: %(beads)s; %(n)s free.", free, { peg, beads })
    : gettext("%(peg)s: %(beads)s; full.", { peg, beads });
}

/** The board peg by peg (a1 to d4, row by row). @param {Stacks} stacks */
export function boardText(stacks) {
  const filled = PEGS.filter((p) => stacks[p]?.length);
  if (!filled.length) return gettext("The board is empty.");
  const empty = PEGS.filter((p) => !stacks[p]?.length);
  const tail = empty.length ? ` ${gettext("Empty: %(pegs)s.", { pegs: listText(empty) })}` : "";
  return filled.map((p) => pegText(p, stacks[p])).join(" ") + tail;
}

/** One level, peg by peg. @param {Stacks} stacks @param {number} level 1 = bottom */
export function levelText(stacks, level) {
  const taken = PEGS.filter((p) => stacks[p]?.[level - 1]).map((p) =>
    gettext("%(peg)s %(colour)s", { peg: p, colour: colourWord(stacks[p][level - 1]) }),
  );
  return taken.length
    ? gettext("Level %(level)s: %(beads)s; the rest empty.", { level, beads: listText(taken) })
    : gettext("Level %(level)s: empty.", { level });
}

/** Every level, bottom up. @param {Stacks} stacks */
export function levelsText(stacks) {
  return Array.from({ length: SIZE }, (_, i) => levelText(stacks, i + 1)).join(" ");
}

/** The pegs that take a bead, each with the level it would land on. @param {Stacks} stacks */
export function legalPegs(stacks) {
  return PEGS.filter((p) => (stacks[p]?.length || 0) < SIZE).map((peg) => ({
    peg,
    level: (stacks[peg]?.length || 0) + 1,
  }));
}

/** @param {Stacks} stacks */
export function legalText(stacks) {
  const legal = legalPegs(stacks);
  return legal.length
    ? gettext("You can play: %(pegs)s.", {
        pegs: listText(legal.map((l) => gettext("%(peg)s (level %(level)s)", { peg: l.peg, level: l.level }))),
      })
    : gettext("No peg is free.");
}

/** "Yellow, c3, level 2." @param {{colour: Colour, peg: string, level: number}} move */
export function moveText(move) {
  return gettext("%(side)s, %(peg)s, level %(level)s.", {
    side: sideName(move.colour),
    peg: move.peg,
    level: move.level,
  });
}

/**
 * What is announced when a game's moves go from `seen` to the whole of `moves`: each new move in order
 * (none when nothing was seen of this game yet: the page just opened, which `openingText` says).
 * @param {string[]} moves
 * @param {number} seen how many of them were announced already
 */
export function newMovesText(moves, seen) {
  return replay(moves)
    .placed.filter((m) => m.ply >= seen)
    .map(moveText);
}

/** The last `count` moves, oldest first. @param {string[]} moves @param {number} count */
export function lastMovesText(moves, count) {
  const placed = replay(moves).placed;
  if (!placed.length) return gettext("No move yet.");
  return placed
    .slice(-count)
    .map((m) => `${m.ply + 1}. ${moveText(m)}`)
    .join(" ");
}

/**
 * The warnings of the threats hint: "Red threatens a line on c3, level 3, playable now."
 * @param {Threats | null | undefined} threats
 */
export function threatsText(threats) {
  if (!threats) return [];
  /** @type {Colour[]} */
  const colours = ["red", "yellow"];
  return colours.flatMap((colour) =>
    (threats[colour] || []).map((t) => {
      const values = { side: sideName(colour), peg: t.peg, level: t.level };
      return t.playable
        ? gettext("%(side)s threatens a line on %(peg)s, level %(level)s, playable now.", values)
        : gettext("%(side)s threatens a line on %(peg)s, level %(level)s.", values);
    }),
  );
}

/**
 * The clock of the move being played.
 * @param {{status: string, deadline: string | null} | null} g
 * @param {Colour | null} mover
 * @param {number} now milliseconds since the epoch
 */
export function clockSpoken(g, mover, now) {
  if (g?.status !== "playing") return gettext("No game is being played.");
  if (!g.deadline) return gettext("This game has no clock.");
  const time = clockText((Date.parse(g.deadline) - now) / 1000);
  return gettext("%(side)s to move: %(time)s left.", { side: sideName(mover), time });
}
