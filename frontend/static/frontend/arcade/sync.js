// A run kept in step with the server: the page's input queue (docs/arcade.md, "Pages"). RunSync is pure (no
// DOM; the transport and the clock passed in; ArcadeSocket, at the end, is the transport the pages
// give it), so that frontend/tests/arcade-sync.test.js plays it against a fake server.
//
// Every key is queued and resolved against the latest board, in order: when nothing is on its way, the next
// key's slide is worked out from the shared rules (rules.js): a slide that moves nothing is dropped (nothing
// shown, nothing sent); one that moves is shown at once ("slide") and sent with `n`, the run's steps as the
// page knows them. Its answer places the server's new tiles ("spawn"), and the next key is resolved on the
// board that left. One step is on its way at a time: the next move's board holds the spawn only the answer
// brings. A step whose answer is lost is sent again with the same `n` and `ref` when the socket is back (the
// server answers a retry what it answered first, and applies it once). A local run (offline) deals its own
// tiles (run.js playLocal) and sends nothing: it never ranks.

import { ReconnectingSocket } from "../socket.js";
import { modeById, slide } from "./rules.js";
import { canUndo, continueRun, endRun, playDealt, playLocal, undo } from "./run.js";

/** @typedef {import("./run.js").Run} Run */
/** @typedef {import("./rules.js").Spawn} Spawn */
/** @typedef {import("./rules.js").TileMove} TileMove */
/** @typedef {import("../api.js").Json} Json */
/** @typedef {{op: "move", dir: string} | {op: "undo" | "continue" | "end"}} Input */

/**
 * What the page is told, in order.
 * @typedef {{kind: "slide", dir: string, board: number[], tiles: TileMove[], merged: number[], gained: number}
 *   | {kind: "spawn", board: number[], spawned: Spawn[]}
 *   | {kind: "state", board: number[]}
 *   | {kind: "error", code: string, message: string}} SyncEvent
 */

/**
 * @typedef {object} SyncIo
 * @property {(frame: object) => boolean} send a frame on the socket: false when it is not open (sent later)
 * @property {(event: SyncEvent) => void} onEvent
 * @property {() => void} [refresh] the run must be read again from the server (a refusal the queue cannot mend)
 * @property {(fn: () => void, ms: number) => unknown} [later] a timer (setTimeout unless told)
 */

// Refusals after which the same step is sent again, a little later (the server applied nothing).
const RETRY = new Set(["rate_limited", "unavailable"]);
const RETRY_MS = 250;

/**
 * The page's run from the server's JSON (a run, a stale refusal's run, or a step's answer over `base`).
 * @param {Json} json
 * @param {Run | null} [base]
 * @returns {Run}
 */
export function runFromServer(json, base = null) {
  const mode = base ? base.mode : modeById(json.mode);
  const reachedTarget = json.reached_target ?? (base?.reachedTarget || Math.max(...json.board) >= mode.target);
  return {
    mode,
    board: json.board.slice(),
    moveCap: json.move_cap ?? base?.moveCap ?? mode.moveCap,
    score: json.score,
    moves: json.moves,
    played: Math.max(json.moves, base ? base.played : 0),
    status: json.status,
    // Past a won target and playing on: the target is not checked again.
    continued: mode.targetWins && reachedTarget && json.status !== "won",
    reachedTarget,
    slot: null, // the server holds a synced run's undo slot (canUndo says whether it is full)
    peakScore: json.peak ?? json.score,
    peakTile: json.top_tile ?? Math.max(0, ...json.board),
  };
}

export class RunSync {
  /** @param {SyncIo} io */
  constructor(io) {
    this.io = io;
    /** @type {Run | null} the run as the server last confirmed it (a local run: as played) */
    this.run = null;
    /** @type {string | null} */
    this.id = null;
    this.steps = 0;
    this.best = 0;
    this.serverCanUndo = false;
    this.local = false;
    /** @type {Input[]} keys and actions not yet resolved */
    this.queue = [];
    /** @type {{input: Input, n: number, ref: number, frame: object} | null} the step on its way */
    this.pending = null;
    this.ref = 0;
    this.retrying = false;
    this.mismatches = 0; // answers whose board was not the one the page worked out (taken from the server)
  }

  /**
   * Takes the server's run (started, resumed or read again): whatever was queued is dropped.
   * @param {Json} json
   */
  load(json) {
    this.run = runFromServer(json);
    this.id = json.id;
    this.steps = json.steps;
    this.best = json.best ?? 0;
    this.serverCanUndo = !!json.can_undo;
    this.local = false;
    this.queue = [];
    this.pending = null;
    this.io.onEvent({ kind: "state", board: this.run.board });
  }

  /**
   * Plays on without the server: the run becomes local (it never ranks). A move on its way gets the page's
   * own new tiles; the queue then plays on locally.
   * @param {Run | null} [run] a local run to take up (one saved on the device), else this one from here
   */
  goLocal(run = null) {
    if (run) this.run = run;
    if (!this.run) return;
    this.local = true;
    this.id = null;
    const pending = this.pending;
    this.pending = null;
    if (pending) this.queue.unshift(pending.input);
    if (run) this.io.onEvent({ kind: "state", board: this.run.board });
    this.pump();
  }

  /** Whether an undo would be played now (the server's slot, or a local run's). */
  get canUndo() {
    if (!this.run) return false;
    return this.local ? canUndo(this.run) : this.serverCanUndo && this.run.status !== "ended";
  }

  /** @param {string} dir */
  press(dir) {
    this.queue.push({ op: "move", dir });
    this.pump();
  }

  /** @param {"undo" | "continue" | "end"} op */
  act(op) {
    this.queue.push({ op });
    this.pump();
  }

  /** The socket is open (again): a step whose answer never came goes again, as it was. */
  connected() {
    if (this.pending && !this.retrying) this.io.send(this.pending.frame);
  }

  /**
   * A frame from the arcade socket.
   * @param {Json} frame
   */
  receive(frame) {
    const pending = this.pending;
    if (!pending || frame.ref !== pending.ref || this.local) return; // an answer already taken, or none of ours
    if (frame.type === "error") {
      this.refused(frame);
      return;
    }
    if (frame.type !== "step") return;
    this.pending = null;
    this.steps = frame.steps;
    this.best = Math.max(this.best, frame.best ?? 0);
    this.serverCanUndo = !!frame.can_undo;
    const run = /** @type {Run} */ (this.run);
    const input = pending.input;
    let next = null;
    if (input.op === "move" && frame.moved) {
      try {
        next = playDealt(run, input.dir, frame.spawned).run;
      } catch {
        next = null; // the server's board is the truth: taken whole below
      }
    }
    const mine = next;
    next = runFromServer(frame, next || run);
    if (mine && same(mine.board, frame.board)) {
      next.played = mine.played;
      next.continued = mine.continued || next.continued;
      this.run = next;
      this.io.onEvent({ kind: "spawn", board: next.board, spawned: frame.spawned });
    } else {
      if (input.op === "move") this.mismatches += 1;
      this.run = next;
      this.io.onEvent({ kind: "state", board: next.board });
    }
    this.pump();
  }

  /** @param {Json} frame an error frame answering the pending step */
  refused(frame) {
    const pending = /** @type {NonNullable<RunSync["pending"]>} */ (this.pending);
    if (RETRY.has(frame.code)) {
      this.retrying = true;
      (this.io.later || setTimeout)(() => {
        this.retrying = false;
        if (this.pending === pending && !this.local) this.io.send(pending.frame);
      }, RETRY_MS);
      return;
    }
    this.pending = null;
    if (frame.code === "stale" && frame.run) {
      this.load(frame.run);
      return;
    }
    this.queue = [];
    this.io.onEvent({ kind: "error", code: frame.code, message: frame.message || "" });
    this.io.onEvent({ kind: "state", board: /** @type {Run} */ (this.run).board });
    this.io.refresh?.();
  }

  /** Resolves the queue against the latest board until a step is on its way or nothing is left. */
  pump() {
    while (!this.pending && this.queue.length && this.run) {
      const input = /** @type {Input} */ (this.queue.shift());
      if (this.local) this.playLocal(input);
      else this.sendStep(input);
    }
  }

  /** @param {Input} input */
  sendStep(input) {
    const run = /** @type {Run} */ (this.run);
    if (input.op === "move") {
      if (run.status !== "playing") return;
      const slid = slide(run.board, run.mode.shape, input.dir);
      if (!slid.moved) return; // not a move: nothing shown, nothing sent
      this.io.onEvent({
        kind: "slide",
        dir: input.dir,
        board: slid.board,
        tiles: slid.tiles,
        merged: slid.merged,
        gained: slid.gained,
      });
    } else if (!this.allowed(input.op)) return;
    const ref = ++this.ref;
    const frame = {
      type: input.op,
      run: this.id,
      n: this.steps,
      ref,
      ...(input.op === "move" ? { dir: input.dir } : {}),
    };
    this.pending = { input, n: this.steps, ref, frame };
    this.io.send(frame); // not open: sent by connected()
  }

  /** @param {"undo" | "continue" | "end"} op */
  allowed(op) {
    const run = /** @type {Run} */ (this.run);
    if (op === "undo") return this.canUndo;
    if (op === "continue") return run.status === "won";
    return run.status !== "ended";
  }

  /** @param {Input} input */
  playLocal(input) {
    const run = /** @type {Run} */ (this.run);
    if (input.op !== "move") {
      if (!this.allowed(input.op)) return;
      this.run = input.op === "undo" ? undo(run) : input.op === "continue" ? continueRun(run) : endRun(run);
      this.io.onEvent({ kind: "state", board: this.run.board });
      return;
    }
    if (run.status !== "playing") return;
    const done = playLocal(run, input.dir);
    if (!done.moved) return;
    this.run = done.run;
    const slid = slide(run.board, run.mode.shape, input.dir);
    this.io.onEvent({
      kind: "slide",
      dir: input.dir,
      board: slid.board,
      tiles: done.tiles,
      merged: done.merged,
      gained: done.gained,
    });
    this.io.onEvent({ kind: "spawn", board: done.run.board, spawned: done.spawned });
  }
}

/** @param {number[]} a @param {number[]} b */
function same(a, b) {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** The arcade socket (/ws/arcade/): its frames, opens and closes go to the page's RunSync and controller. */
export class ArcadeSocket extends ReconnectingSocket {
  /** @param {{frame: (f: object) => void, open: () => void, closed: () => void}} on */
  constructor(on) {
    super("/ws/arcade/", 25000);
    this.on = on;
  }
  onOpened() {
    this.on.open();
  }
  /** @param {CloseEvent} event 4403 (banned, closed account) or 4409 (a new password): trying again cannot help */
  onClosed(event) {
    this.on.closed();
    return event.code === 4403 || event.code === 4409 ? "stop" : undefined;
  }
  /** @param {object} frame */
  onFrame(frame) {
    this.on.frame(frame);
  }
}
