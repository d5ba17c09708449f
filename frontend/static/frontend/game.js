// Board arithmetic shared by every page: peg names, cells, replaying a move list.
// Columns a..d run along x, rows 1..4 along z; bit = 16*(level-1) + 4*row + column (0-based row/col).

import { gettext, pgettext } from "./i18n.js";

export const COLUMNS = ["a", "b", "c", "d"];
export const SIZE = 4;
/** @type {string[]} */
export const PEGS = [];
for (let row = 0; row < SIZE; row++) {
  for (let col = 0; col < SIZE; col++) PEGS.push(COLUMNS[col] + (row + 1));
}

/** @param {number} col @param {number} row 0-based */
export function pegName(col, row) {
  return COLUMNS[col] + (row + 1);
}

/**
 * {col, row} (0-based) of a peg name like "b3", or null when the name is not a peg.
 * @param {unknown} name
 * @returns {{col: number, row: number} | null}
 */
export function parsePeg(name) {
  if (typeof name !== "string" || name.length !== 2) return null;
  const col = COLUMNS.indexOf(name[0].toLowerCase());
  const row = Number(name[1]) - 1;
  if (col < 0 || !(row >= 0 && row < SIZE)) return null;
  return { col, row };
}

/** @param {string} peg @param {number} level 1 = bottom */
export function cellBit(peg, level) {
  const p = parsePeg(peg);
  if (!p) throw new RangeError(`not a peg: ${peg}`);
  return 16 * (level - 1) + 4 * p.row + p.col;
}

/** @param {number} ply @returns {"red" | "yellow"} */
export function colourOfPly(ply) {
  return ply % 2 === 0 ? "red" : "yellow";
}

/**
 * Replays a list of peg names from the empty board.
 * Returns {stacks: {peg: ["red", ...bottom-up]}, placed: [{peg, level, colour}]}.
 * @param {string[]} moves
 */
export function replay(moves) {
  /** @type {Record<string, Array<"red" | "yellow">>} */
  const stacks = Object.fromEntries(PEGS.map((p) => [p, []]));
  /** @type {Array<{peg: string, level: number, colour: "red" | "yellow", ply: number}>} */
  const placed = [];
  moves.forEach((peg, ply) => {
    const stack = stacks[peg];
    if (!stack || stack.length >= SIZE) return;
    const colour = colourOfPly(ply);
    stack.push(colour);
    placed.push({ peg, level: stack.length, colour, ply });
  });
  return { stacks, placed };
}

/** @param {string} peg */
export function fullPegMessage(peg) {
  return gettext("Peg %(peg)s is full: it already holds 4 beads.", { peg });
}

/**
 * @param {{red_seat: number} | null | undefined} game
 * @param {number | null} seat
 * @returns {"red" | "yellow" | null}
 */
export function seatColour(game, seat) {
  if (!game) return null;
  return game.red_seat === seat ? "red" : "yellow";
}

/** Why a game ended without a result ("abandoned"), from its reason. @param {string | null} reason */
export function abandonedText(reason) {
  if (reason === "aborted") return gettext("Aborted: a player let the time for their first move pass. Unrated.");
  return reason === "idle"
    ? gettext("Abandoned: the room was closed after a long time without activity. Unrated.")
    : gettext("Abandoned: the room was closed before the game ended. Unrated.");
}

/**
 * Why a game was drawn, from its reason: the players agreed, or the board filled up with no four in a row.
 * @param {string | null | undefined} reason "agreement", "full_board"
 */
export function drawText(reason) {
  if (reason === "agreement") return gettext("Draw by agreement: both players accepted a draw offer.");
  if (reason === "full_board") return gettext("The board is full with no four in a row.");
  return gettext("The game ended in a draw.");
}

/**
 * A side by its colour, as a name: "Red wins", "Yellow to move" (capitalised in English).
 * @param {string | null | undefined} colour "red" or "yellow"
 */
export function sideName(colour) {
  if (colour === "red") return pgettext("side", "Red");
  return colour === "yellow" ? pgettext("side", "Yellow") : "";
}

/**
 * A bead's colour in a description: "level 1 red", "a1 yellow".
 * @param {string | null | undefined} colour "red" or "yellow"
 */
export function colourWord(colour) {
  if (colour === "red") return pgettext("bead colour", "red");
  return colour === "yellow" ? pgettext("bead colour", "yellow") : "";
}

/** "you play red" / "you play yellow". @param {string | null | undefined} colour */
export function youPlayText(colour) {
  return colour === "red" ? gettext("you play red") : gettext("you play yellow");
}

/** A puzzle's task: "Red to play and win in 5". @param {{to_move: string, plies: number}} puzzle */
export function puzzleTask(puzzle) {
  return gettext("%(side)s to play and win in %(plies)s", { side: sideName(puzzle.to_move), plies: puzzle.plies });
}

/** "12 solved, 3 failed". @param {{solved: number, failed: number}} record */
export function puzzleRecord(record) {
  return gettext("%(solved)s solved, %(failed)s failed", record);
}

/** "level 2". @param {number} level */
export function levelName(level) {
  return gettext("level %(level)s", { level });
}

/**
 * How a won game ended, in words: "Red resigned: Yellow wins.", "Yellow wins with four in a row."
 * @param {string | null | undefined} reason "resignation", "timeout", or how the line was made
 * @param {string} winner the winner's colour
 */
export function endText(reason, winner) {
  const names = { winner: sideName(winner), loser: sideName(winner === "red" ? "yellow" : "red") };
  if (reason === "resignation") return gettext("%(loser)s resigned: %(winner)s wins.", names);
  if (reason === "timeout") return gettext("%(loser)s ran out of time: %(winner)s wins.", names);
  return gettext("%(winner)s wins with four in a row.", names);
}

/** @param {string} s */
export function capitalise(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
