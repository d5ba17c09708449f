// The arcade pages' input queue (static/frontend/arcade/sync.js) against a fake server that deals from a
// seeded source: keys pressed faster than the answers come are all played in order, each on the board the
// one before left; a key that moves nothing sends nothing; a lost answer is sent again as it was; a
// refusal to retry is retried; the run goes local and deals its own tiles.

import { describe, expect, test } from "vitest";
import { modeById, slide } from "../static/frontend/arcade/rules.js";
import { openRun, playLocal } from "../static/frontend/arcade/run.js";
import { RunSync } from "../static/frontend/arcade/sync.js";

/** @typedef {import("../static/frontend/arcade/run.js").Run} Run */

/** A deterministic float source. @param {number} seed */
function seeded(seed) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** A server holding one run: it answers the page's frames as arcade.socket does (steps, n, ref). */
class FakeServer {
  constructor(seed = 7) {
    this.random = seeded(seed);
    this.run = openRun(modeById("classic"), [
      { cell: 0, value: 2 },
      { cell: 4, value: 2 },
    ]);
    this.steps = 0;
    /** @type {any[]} */ this.inbox = [];
    /** @type {any[]} */ this.applied = [];
  }
  json() {
    const r = this.run;
    return {
      id: "r1",
      mode: "classic",
      board: r.board,
      score: r.score,
      moves: r.moves,
      steps: this.steps,
      status: r.status,
      peak: r.peakScore,
      top_tile: r.peakTile,
      best: r.peakScore,
      can_undo: false,
      reached_target: r.reachedTarget,
      move_cap: 20000,
    };
  }
  /** Answers one frame from the inbox. @param {any} frame */
  answer(frame) {
    if (frame.n !== this.steps) return { type: "error", ref: frame.ref, code: "stale", run: this.json() };
    const done = playLocal(this.run, frame.dir, this.random);
    if (done.moved) {
      this.run = done.run;
      this.steps += 1;
      this.applied.push(frame.dir);
    }
    return {
      type: "step",
      ref: frame.ref,
      moved: done.moved,
      spawned: done.spawned,
      gained: done.gained,
      ...this.json(),
    };
  }
}

function setUp(seed = 7) {
  const server = new FakeServer(seed);
  /** @type {any[]} */ const events = [];
  /** @type {any[]} */ const sent = [];
  let open = true;
  const sync = new RunSync({
    send: (frame) => {
      if (!open) return false;
      sent.push(frame);
      server.inbox.push(frame);
      return true;
    },
    onEvent: (ev) => events.push(ev),
    later: (fn) => fn(),
  });
  sync.load(server.json());
  /** Delivers the server's answers to every frame in its inbox, one at a time, until none is left. */
  const drain = () => {
    while (server.inbox.length) sync.receive(server.answer(server.inbox.shift()));
  };
  return {
    server,
    sync,
    events,
    sent,
    drain,
    setOpen: (/** @type {boolean} */ v) => {
      open = v;
    },
  };
}

describe("the input queue", () => {
  test("40 keys pressed before any answer are all played in order, each on the latest board", () => {
    const { server, sync, drain, sent } = setUp();
    const keys = Array.from({ length: 40 }, (_, i) => ["left", "up", "right", "down"][i % 4]);
    // The page's expectation: each key resolved on the board the server's answer to the one before left.
    for (const key of keys) sync.press(key);
    expect(sent.length).toBe(1); // one step on its way at a time
    drain();
    expect(sync.queue).toEqual([]);
    expect(sync.pending).toBe(null);
    expect(sync.run?.board).toEqual(server.run.board);
    expect(sync.steps).toBe(server.steps);
    expect(sync.mismatches).toBe(0);
    // Every key either moved on the board of its turn or was dropped there as moving nothing.
    expect(server.applied.length).toBe(sent.length);
    expect(sent.every((frame, i) => frame.n === i)).toBe(true);
    expect(server.steps).toBeGreaterThan(10);
  });

  test("a key that moves nothing sends nothing and shows nothing", () => {
    const { sync, sent, events } = setUp();
    // The opening: a 2 on cells 0 and 4, both on the left wall: "left" moves nothing.
    const board = /** @type {Run} */ (sync.run).board;
    expect(slide(board, [4, 4], "left").moved).toBe(false);
    const before = events.length;
    sync.press("left");
    expect(sent).toEqual([]);
    expect(events.length).toBe(before);
    sync.press("right");
    expect(sent.length).toBe(1);
    expect(events.at(-1).kind).toBe("slide");
  });

  test("the slide is shown at once, the spawn when the answer comes", () => {
    const { sync, events, drain } = setUp();
    sync.press("up"); // the two 2s merge into a 4
    expect(events.at(-1)).toMatchObject({ kind: "slide", dir: "up", gained: 4 });
    expect(events.at(-1).board.filter(Boolean)).toEqual([4]);
    drain();
    expect(events.at(-1).kind).toBe("spawn");
    expect(events.at(-1).board.filter(Boolean).length).toBe(2);
  });

  test("a step whose answer was lost goes again, with the same n and ref, when the socket is back", () => {
    const { server, sync, sent, drain, setOpen } = setUp();
    sync.press("right");
    server.inbox = []; // the answer is lost with the connection
    setOpen(false);
    sync.press("left");
    setOpen(true);
    sync.connected();
    expect(sent[1]).toEqual(sent[0]);
    drain();
    expect(server.steps).toBe(2);
    expect(sync.run?.board).toEqual(server.run.board);
  });

  test("rate_limited is sent again later; stale takes the server's run", () => {
    const { server, sync, sent, drain } = setUp();
    sync.press("right");
    const frame = server.inbox.shift();
    sync.receive({ type: "error", ref: frame.ref, code: "rate_limited", message: "" });
    expect(sent.length).toBe(2);
    expect(sent[1]).toEqual(sent[0]);
    drain();
    server.steps += 5; // another tab moved the run on
    sync.press("right");
    drain();
    expect(sync.steps).toBe(server.steps);
    expect(sync.pending).toBe(null);
  });

  test("a local run deals its own tiles and sends nothing", () => {
    const { sync, sent, events } = setUp();
    sync.press("right");
    sync.goLocal(); // the answer never comes: the move is played locally
    expect(sync.local).toBe(true);
    expect(events.at(-1).kind).toBe("spawn");
    const count = sent.length;
    for (const dir of ["up", "right", "down", "left"]) sync.press(dir);
    expect(sent.length).toBe(count);
    expect(/** @type {Run} */ (sync.run).moves).toBeGreaterThanOrEqual(2);
  });
});
