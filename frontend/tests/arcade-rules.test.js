// The page's arcade rules (static/frontend/arcade) on the shared vectors the server's engine runs too
// (arcade/engine/vectors.json, written by scripts/arcade_vectors.py): ARCADE.md's golden cases and the
// engine's own results, so that the page and the server cannot disagree.

import { describe, expect, test } from "vitest";
import data from "../../arcade/engine/vectors.json" with { type: "json" };
import { dealSpawns, isStuck, MODES, modeById, slide, slideLine } from "../static/frontend/arcade/rules.js";
import {
  canUndo,
  continueRun,
  endRun,
  playDealt,
  playLocal,
  replay,
  runAt,
  undo,
} from "../static/frontend/arcade/run.js";

/** @typedef {import("../static/frontend/arcade/run.js").Run} Run */
/** @typedef {import("../static/frontend/arcade/run.js").Step} Step */
/** @typedef {import("../static/frontend/arcade/run.js").Record} RunRecord */
/**
 * @typedef {{board?: number[], score?: number, peak_score?: number, peak_tile?: number, moves?: number,
 *   played?: number, status?: string, can_undo?: boolean, reached_target?: boolean, error?: string,
 *   step?: number | null}} Expect
 * @typedef {{id: string, shape: number[], four_rate: number, spawns: number, target: number,
 *   target_wins: boolean, undo: boolean, move_cap: number}} ModeCase
 * @typedef {{why?: string, line: number[], after: number[], gained: number}} LineCase
 * @typedef {{why?: string, mode: string, board: number[], dir: string, after: number[], gained: number,
 *   moved: boolean, merged?: number[]}} SlideCase
 * @typedef {{why?: string, mode: string, board: number[], stuck: boolean}} StuckCase
 * @typedef {{why: string, mode: string, at: {board: number[], score?: number}, steps: Step[], expect: Expect}} MovesCase
 * @typedef {{why?: string, record: RunRecord, expect: Expect}} RecordCase
 * @typedef {{modes: ModeCase[], lines: LineCase[], slides: SlideCase[], stuck: StuckCase[], moves: MovesCase[],
 *   records: RecordCase[]}} Vectors
 */

const vectors = /** @type {Vectors} */ (/** @type {unknown} */ (data));

/** @param {{why?: string}} item @param {number} index */
const named = (item, index) => `${index} ${item.why || "(generated)"}`;

/**
 * The run's fields that the case expects, named as the vectors name them.
 * @param {Run} run
 * @param {Expect} wanted
 */
function seen(run, wanted) {
  const all = {
    board: run.board,
    score: run.score,
    peak_score: run.peakScore,
    peak_tile: run.peakTile,
    moves: run.moves,
    played: run.played,
    status: run.status,
    can_undo: canUndo(run),
    reached_target: run.reachedTarget,
  };
  return Object.fromEntries(Object.keys(wanted).map((key) => [key, all[/** @type {keyof typeof all} */ (key)]]));
}

test("the modes are the engine's", () => {
  expect(
    vectors.modes.map((mode) => ({
      id: mode.id,
      shape: mode.shape,
      fourRate: mode.four_rate,
      spawns: mode.spawns,
      target: mode.target,
      targetWins: mode.target_wins,
      undo: mode.undo,
      moveCap: mode.move_cap,
    })),
  ).toEqual(Object.values(MODES));
});

test("every kind of case has golden cases from ARCADE.md", () => {
  for (const kind of /** @type {const} */ (["lines", "slides", "stuck", "moves", "records"])) {
    expect(vectors[kind].some((item) => "why" in item)).toBe(true);
  }
});

describe("lines", () => {
  test.each(vectors.lines.map((item, index) => [named(item, index), item]))("%s", (_, item) => {
    const done = slideLine(item.line);
    expect([done.values, done.gained]).toEqual([item.after, item.gained]);
  });
});

describe("slides", () => {
  test.each(vectors.slides.map((item, index) => [named(item, index), item]))("%s", (_, item) => {
    const done = slide(item.board, modeById(item.mode).shape, item.dir);
    expect([done.board, done.gained, done.moved]).toEqual([item.after, item.gained, item.moved]);
    if (item.merged) expect(done.merged).toEqual(item.merged);
    // Every tile leaves from its cell once, and lands where the board says.
    expect(done.tiles.map((tile) => tile.from).sort((a, b) => a - b)).toEqual(
      item.board.flatMap((value, cell) => (value ? [cell] : [])),
    );
    for (const tile of done.tiles) expect(done.board[tile.to]).toBe(tile.merged ? tile.value * 2 : tile.value);
  });
});

describe("stuck", () => {
  test.each(vectors.stuck.map((item, index) => [named(item, index), item]))("%s", (_, item) => {
    expect(isStuck(item.board, modeById(item.mode).shape)).toBe(item.stuck);
  });
});

/**
 * One step as a move played live: a move that moves nothing is allowed and changes nothing.
 * @param {Run} run
 * @param {Step} step
 */
function play(run, step) {
  if (step.op === "move") return playDealt(run, step.dir, step.spawned).run;
  return { undo, continue: continueRun, end: endRun }[step.op](run);
}

describe("moves from a position", () => {
  test.each(vectors.moves.map((item, index) => [named(item, index), item]))("%s", (_, item) => {
    let run = runAt(modeById(item.mode), item.at.board, item.at.score || 0);
    const wanted = item.expect;
    for (let index = 0; index < item.steps.length; index += 1) {
      if (wanted.error && index === wanted.step) {
        expect(() => play(run, item.steps[index])).toThrow(expect.objectContaining({ code: wanted.error }));
        return;
      }
      run = play(run, item.steps[index]);
    }
    expect(wanted.error).toBeUndefined();
    expect(seen(run, wanted)).toEqual(wanted);
  });
});

describe("records replayed", () => {
  test.each(vectors.records.map((item, index) => [named(item, index), item]))("%s", (_, item) => {
    const { error, step, ...wanted } = item.expect;
    if (error) {
      expect(() => replay(item.record)).toThrow(expect.objectContaining({ code: error, step }));
    } else {
      expect(seen(replay(item.record), wanted)).toEqual(wanted);
    }
  });
});

test("spawns: a uniform empty cell, then a 4 at the four-rate, the second among the cells still empty", () => {
  const draws = [0.99, 0.049, 0.0, 0.05];
  const spawns = dealSpawns([2, 0, 4, 0, 0, 8, 2, 4], MODES.cube2, 2, () => /** @type {number} */ (draws.shift()));
  expect(spawns).toEqual([
    { cell: 4, value: 4 },
    { cell: 1, value: 2 },
  ]);
});

test("a move that moves nothing draws nothing and changes nothing", () => {
  const run = runAt(MODES.cube3, [2, ...new Array(26).fill(0)]);
  const done = playLocal(run, "left", () => {
    throw new Error("drew");
  });
  expect(done.moved).toBe(false);
  expect(done.run).toBe(run);
  expect(done.spawned).toEqual([]);
});

test("a local run deals its own spawns: Hard two from the first move", () => {
  const run = runAt(MODES["cube3-hard"], [2, ...new Array(26).fill(0)]);
  const done = playLocal(run, "right", () => 0.5);
  expect(done.spawned.length).toBe(2);
  expect(done.run.board.filter((value) => value).length).toBe(3);
  expect(() => playLocal(run, "sideways")).toThrow(expect.objectContaining({ code: "bad_dir" }));
  expect(() => playLocal(runAt(MODES.classic, new Array(16).fill(0)), "forward")).toThrow(
    expect.objectContaining({ code: "bad_dir" }),
  );
});
