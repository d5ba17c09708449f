// Blind mode's words, pure (no DOM): the board read by peg or by level, a typed line parsed into a move
// or a command, the announcement of a move, the threat warnings, the clock and the last moves
// (docs/accessibility.md). blind.js puts them on the page.

import { clockText } from "../clock.js";
import { capitalise, PEGS, parsePeg, replay, SIZE } from "../game.js";

/** @typedef {import("./types.js").Colour} Colour */
/** @typedef {import("./types.js").Threats} Threats */
/** @typedef {Record<string, Colour[]>} Stacks */

/**
 * @typedef {{kind: "move", peg: string} | {kind: "peg", peg: string} | {kind: "level", level: number}
 *   | {kind: "board" | "levels" | "clock" | "legal" | "turn" | "chat" | "help"} | {kind: "moves", count: number}
 *   | {kind: "unknown", text: string}} Command
 */

export const HELP =
  "Type a peg, like c3, and Enter to play it. Commands: b reads the board peg by peg; b c3 one peg; " +
  "l reads every level; l 2 one level; p lists the pegs you can play; m the last moves (m 10: ten); " +
  "c the clock; t whose turn; chat the last messages; h this help.";

/**
 * A typed line: a peg to play, or a command (see HELP). Case and spaces do not matter.
 * @param {string} line
 * @returns {Command}
 */
export function parseCommand(line) {
  const words = line.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const [head = "", arg, ...rest] = words;
  if (rest.length) return { kind: "unknown", text: line.trim() };
  if (!arg && parsePeg(head)) return { kind: "move", peg: head };
  if ((head === "play" || head === "drop") && arg && parsePeg(arg)) return { kind: "move", peg: arg };
  if (head === "b" || head === "board" || head === "peg") {
    if (!arg) return { kind: "board" };
    if (parsePeg(arg)) return { kind: "peg", peg: arg };
  }
  if (head === "l" || head === "level" || head === "levels") {
    if (!arg) return { kind: "levels" };
    const level = Number(arg);
    if (Number.isInteger(level) && level >= 1 && level <= SIZE) return { kind: "level", level };
  }
  if (head === "m" || head === "moves" || head === "last") {
    const count = arg ? Number(arg) : 6;
    if (Number.isInteger(count) && count > 0) return { kind: "moves", count };
  }
  /** @type {Record<string, "clock" | "legal" | "turn" | "chat" | "help">} */
  const single = {
    c: "clock",
    clock: "clock",
    p: "legal",
    pegs: "legal",
    legal: "legal",
    t: "turn",
    turn: "turn",
    chat: "chat",
    h: "help",
    help: "help",
    "?": "help",
  };
  if (!arg && single[head]) return { kind: single[head] };
  return { kind: "unknown", text: line.trim() };
}

/** @param {string} text what was typed */
export function unknownText(text) {
  return `Not a peg or a command: ${text}. Type h for help.`;
}

/** One peg's beads, bottom up. @param {string} peg @param {Colour[]} stack */
export function pegText(peg, stack) {
  if (!stack.length) return `${peg}: empty.`;
  const beads = stack.map((c, i) => `level ${i + 1} ${c}`).join(", ");
  const free = SIZE - stack.length;
  return `${peg}: ${beads}; ${free ? `${free} free` : "full"}.`;
}

/** The board peg by peg (a1 to d4, row by row). @param {Stacks} stacks */
export function boardText(stacks) {
  const filled = PEGS.filter((p) => stacks[p]?.length);
  if (!filled.length) return "The board is empty.";
  const empty = PEGS.filter((p) => !stacks[p]?.length);
  const tail = empty.length ? ` Empty: ${empty.join(", ")}.` : "";
  return filled.map((p) => pegText(p, stacks[p])).join(" ") + tail;
}

/** One level, peg by peg. @param {Stacks} stacks @param {number} level 1 = bottom */
export function levelText(stacks, level) {
  const taken = PEGS.filter((p) => stacks[p]?.[level - 1]).map((p) => `${p} ${stacks[p][level - 1]}`);
  return taken.length ? `Level ${level}: ${taken.join(", ")}; the rest empty.` : `Level ${level}: empty.`;
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
    ? `You can play: ${legal.map((l) => `${l.peg} (level ${l.level})`).join(", ")}.`
    : "No peg is free.";
}

/** "Yellow, c3, level 2." @param {{colour: Colour, peg: string, level: number}} move */
export function moveText(move) {
  return `${capitalise(move.colour)}, ${move.peg}, level ${move.level}.`;
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
  if (!placed.length) return "No move yet.";
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
    (threats[colour] || []).map(
      (t) =>
        `${capitalise(colour)} threatens a line on ${t.peg}, level ${t.level}${t.playable ? ", playable now" : ""}.`,
    ),
  );
}

/**
 * The clock of the move being played.
 * @param {{status: string, deadline: string | null} | null} g
 * @param {Colour | null} mover
 * @param {number} now milliseconds since the epoch
 */
export function clockSpoken(g, mover, now) {
  if (g?.status !== "playing") return "No game is being played.";
  if (!g.deadline) return "This game has no clock.";
  return `${capitalise(mover || "")} to move: ${clockText((Date.parse(g.deadline) - now) / 1000)} left.`;
}
