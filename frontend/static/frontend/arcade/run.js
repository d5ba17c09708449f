// A run as the page keeps it: its position, score, status and undo slot, and the moves, undos, continues
// and ends that change it, the same as the server's engine (arcade/engine/run.py, record.py; the shared
// vectors check both). The page plays a ranked run's slide at once and places the server's spawns when its
// answer arrives (playDealt); a local run (offline, never ranked) deals its own (playLocal); a finished
// run's record is watched move by move (replaySteps).

import { ArcadeError, cellCount, dealSpawns, hasMove, modeById, placeSpawns, slide, spawnCount } from "./rules.js";

/** @typedef {import("./rules.js").Mode} Mode */
/** @typedef {import("./rules.js").Spawn} Spawn */
/** @typedef {import("./rules.js").TileMove} TileMove */
/** @typedef {"playing" | "won" | "over" | "ended"} Status */

/**
 * The position an undo restores.
 * @typedef {{board: number[], score: number, moves: number, status: Status, continued: boolean}} Snapshot
 */

/**
 * @typedef {object} Run
 * @property {Mode} mode
 * @property {number[]} board
 * @property {number} moveCap the run ends after this many moves played
 * @property {number} score the sum of the tiles every counted move's merges made
 * @property {number} moves the moves counted (an undo takes its move back off)
 * @property {number} played every move applied, undone ones included (what the cap counts)
 * @property {Status} status
 * @property {boolean} continued the player continued past a win (the target is not checked again)
 * @property {boolean} reachedTarget the target tile was ever on the board
 * @property {Snapshot | null} slot the undo slot
 * @property {number} peakScore the highest score reached: what ranks (an undo never lowers it)
 * @property {number} peakTile the largest tile ever on the board
 */

/**
 * @typedef {object} MoveResult
 * @property {Run} run the run after the move (the same run when nothing moved)
 * @property {boolean} moved whether any tile changed cell
 * @property {number} gained the score of the move's merges
 * @property {Spawn[]} spawned the new tiles
 * @property {number[]} merged the cells holding a tile made by a merge
 * @property {TileMove[]} tiles where each tile went (for the animation)
 */

/**
 * @typedef {{op: "move", dir: string, spawned: Spawn[]} | {op: "undo" | "continue" | "end"}} Step
 * @typedef {{mode: string, move_cap?: number, opening: Spawn[], steps?: Step[]}} Record
 */

/** @param {number[]} board */
const topTile = (board) => Math.max(0, ...board);

/**
 * A run of the mode whose board holds the two opening tiles.
 * @param {Mode} mode
 * @param {Spawn[]} opening
 * @param {number} [moveCap]
 * @returns {Run}
 */
export function openRun(mode, opening, moveCap = mode.moveCap) {
  if (opening.length !== 2) throw new ArcadeError("bad_spawn", "A run opens with two tiles.");
  const board = placeSpawns(new Array(cellCount(mode.shape)).fill(0), opening);
  return runAt(mode, board, 0, moveCap);
}

/**
 * A run at a position, as if its moves had been played (no move counted, the undo slot empty); its status
 * follows from the board.
 * @param {Mode} mode
 * @param {number[]} board
 * @param {number} [score]
 * @param {number} [moveCap]
 * @returns {Run}
 */
export function runAt(mode, board, score = 0, moveCap = mode.moveCap) {
  /** @type {Run} */
  const run = {
    mode,
    board: board.slice(),
    moveCap,
    score,
    moves: 0,
    played: 0,
    status: "playing",
    continued: false,
    reachedTarget: topTile(board) >= mode.target,
    slot: null,
    peakScore: score,
    peakTile: topTile(board),
  };
  return { ...run, status: statusOf(run, run.board, 0) };
}

/**
 * @param {Run} run
 * @param {number[]} board
 * @param {number} played
 * @returns {Status}
 */
function statusOf(run, board, played) {
  if (played >= run.moveCap) return "ended";
  // The target is checked before "no move left": a move that does both is a win.
  if (run.mode.targetWins && !run.continued && topTile(board) >= run.mode.target) return "won";
  return hasMove(board, run.mode.shape) ? "playing" : "over";
}

/** @param {Run} run */
export function canUndo(run) {
  return run.slot !== null && run.status !== "ended";
}

/**
 * Play a direction with spawns dealt before (the server's answer, or a record's): none when the move moves
 * nothing. Throws ArcadeError: "bad_dir", "not_playing", "bad_spawn".
 * @param {Run} run
 * @param {string} dir
 * @param {Spawn[]} spawns
 * @returns {MoveResult}
 */
export function playDealt(run, dir, spawns) {
  const slid = slideOf(run, dir);
  const count = slid.moved ? spawnCount(slid.board, run.mode) : 0;
  if (spawns.length !== count) throw new ArcadeError("bad_spawn", `This move makes ${count} new tiles.`);
  return apply(run, slid, spawns);
}

/**
 * Play a direction in a local run, the spawns dealt by the page.
 * @param {Run} run
 * @param {string} dir
 * @param {() => number} [random]
 * @returns {MoveResult}
 */
export function playLocal(run, dir, random = Math.random) {
  const slid = slideOf(run, dir);
  const spawns = slid.moved ? dealSpawns(slid.board, run.mode, spawnCount(slid.board, run.mode), random) : [];
  return apply(run, slid, spawns);
}

/**
 * @param {Run} run
 * @param {string} dir
 */
function slideOf(run, dir) {
  const slid = slide(run.board, run.mode.shape, dir);
  if (run.status !== "playing") throw new ArcadeError("not_playing", `The run is ${run.status}.`);
  return slid;
}

/**
 * @param {Run} run
 * @param {import("./rules.js").Slide} slid
 * @param {Spawn[]} spawns
 * @returns {MoveResult}
 */
function apply(run, slid, spawns) {
  if (!slid.moved) return { run, moved: false, gained: 0, spawned: [], merged: [], tiles: slid.tiles };
  const board = placeSpawns(slid.board, spawns);
  const played = run.played + 1;
  const score = run.score + slid.gained;
  const { mode } = run;
  /** @type {Snapshot} */
  const snapshot = {
    board: run.board,
    score: run.score,
    moves: run.moves,
    status: run.status,
    continued: run.continued,
  };
  const after = {
    ...run,
    board,
    score,
    moves: run.moves + 1,
    played,
    status: statusOf(run, board, played),
    slot: mode.undo ? snapshot : null,
    reachedTarget: run.reachedTarget || topTile(board) >= mode.target,
    peakScore: Math.max(run.peakScore, score),
    peakTile: Math.max(run.peakTile, topTile(board)),
  };
  return { run: after, moved: true, gained: slid.gained, spawned: spawns, merged: slid.merged, tiles: slid.tiles };
}

/**
 * The run as it was before its last move; the peak score and tile stay (the best never goes down).
 * Throws ArcadeError: "no_undo", "run_ended", "undo_spent".
 * @param {Run} run
 * @returns {Run}
 */
export function undo(run) {
  if (!run.mode.undo) throw new ArcadeError("no_undo", "This game has no undo.");
  if (run.status === "ended") throw new ArcadeError("run_ended", "The run has ended.");
  if (!run.slot) throw new ArcadeError("undo_spent", "There is no move to undo: one undo at a time.");
  return { ...run, ...run.slot, slot: null };
}

/**
 * A won run played on: playing again, or over at once when no move is left.
 * @param {Run} run
 * @returns {Run}
 */
export function continueRun(run) {
  if (run.status === "ended") throw new ArcadeError("run_ended", "The run has ended.");
  if (run.status !== "won") throw new ArcadeError("not_won", "Only a won run can be continued.");
  return { ...run, status: hasMove(run.board, run.mode.shape) ? "playing" : "over", continued: true };
}

/**
 * @param {Run} run
 * @returns {Run}
 */
export function endRun(run) {
  if (run.status === "ended") throw new ArcadeError("run_ended", "The run has ended.");
  return { ...run, status: "ended" };
}

/**
 * One step of a record. Throws "moved_nothing" for a move that moves nothing (no record holds one).
 * @param {Run} run
 * @param {Step} step
 * @returns {Run}
 */
export function applyStep(run, step) {
  if (step.op === "move") {
    const done = playDealt(run, step.dir, step.spawned);
    if (!done.moved) throw new ArcadeError("moved_nothing", "A move that moves nothing is not a move.");
    return done.run;
  }
  if (step.op === "undo") return undo(run);
  if (step.op === "continue") return continueRun(run);
  if (step.op === "end") return endRun(run);
  throw new ArcadeError("bad_record", "This is not a run's record.");
}

/**
 * The run after its opening, then after each step of the record: a replay to watch move by move.
 * A step that breaks a rule throws its ArcadeError with `step` set (null: the opening).
 * @param {Record} record
 * @returns {Generator<Run>}
 */
export function* replaySteps(record) {
  const mode = modeById(record.mode);
  let run = openRun(mode, record.opening, record.move_cap ?? mode.moveCap);
  yield run;
  const steps = record.steps || [];
  for (let index = 0; index < steps.length; index += 1) {
    try {
      run = applyStep(run, steps[index]);
    } catch (error) {
      if (error instanceof ArcadeError) error.step = index;
      throw error;
    }
    yield run;
  }
}

/**
 * @param {Record} record
 * @returns {Run} the run at the end of its record
 */
export function replay(record) {
  let last = null;
  for (const run of replaySteps(record)) last = run;
  return /** @type {Run} */ (last);
}
