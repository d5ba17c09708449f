import { describe, expect, test } from "vitest";
import { applyMove, applySpectators, RoomSocket } from "../static/frontend/room/socket.js";
import { game, move, room } from "./fixtures.js";

/** @typedef {import("../static/frontend/room/types.js").Room} Room */

describe("applyMove", () => {
  test("appends the peg to the game's moves and copies the move's game fields", () => {
    const before = room({ version: 7, game: game({ moves: ["a1", "b2"] }) });
    const frame = move(before, "a1", { deadline: "2026-11-30T12:00:30.000Z", threats: { red: [] } });
    const after = applyMove(before, frame);
    expect(after).not.toBeNull();
    expect(after?.version).toBe(8);
    expect(after?.game).toEqual({
      ...before.game,
      moves: ["a1", "b2", "a1"],
      ply: 3,
      to_move_seat: 2,
      deadline: "2026-11-30T12:00:30.000Z",
      threats: { red: [] },
    });
    expect(after?.seats).toBe(before.seats);
  });

  test("leaves the room it was given as it was", () => {
    const before = room({ version: 3, game: game({ moves: ["c3"] }) });
    const copy = structuredClone(before);
    applyMove(before, move(before, "d4"));
    expect(before).toEqual(copy);
  });

  test("the move that ends the game carries its result into the room", () => {
    const before = room({ version: 2, game: game({ moves: ["a1", "b1", "a1", "b1", "a1", "b1"] }) });
    const line = [1, 2, 3, 4].map((level) => ({ peg: "a1", level }));
    const after = applyMove(
      before,
      move(before, "a1", { status: "won", winner_seat: 1, line, reason: "line", to_move_seat: 2 }),
    );
    expect(after?.game).toMatchObject({ status: "won", winner_seat: 1, line, reason: "line", ply: 7 });
  });

  test("is null for a move that does not follow the room: a version gap, another game, another ply", () => {
    const before = room({ version: 5, game: game({ moves: ["a1"] }) });
    expect(applyMove(before, move(before, "b2", { version: 7 }))).toBeNull();
    expect(applyMove(before, move(before, "b2", { game: "g2" }))).toBeNull();
    expect(applyMove(before, move(before, "b2", { ply: 3 }))).toBeNull();
    expect(applyMove(room({ version: 5 }), { ...move(before, "b2") })).toBeNull();
    expect(applyMove(null, move(before, "b2"))).toBeNull();
  });
});

/** A room socket that is never connected: what it would send is kept, and the socket counts as open. */
class Unconnected extends RoomSocket {
  /** @param {Room[]} shown */
  constructor(shown) {
    super("K7QZ2M", { onRoom: (r) => shown.push(r) });
    /** @type {object[]} */
    this.sent = [];
  }

  /** @param {object} frame */
  send(frame) {
    this.sent.push(frame);
    return true;
  }
}

describe("RoomSocket frame order", () => {
  test("a room frame at or below the applied version is ignored; a move above it is applied", () => {
    /** @type {Room[]} */
    const shown = [];
    const sock = new Unconnected(shown);
    const first = room({ version: 4, game: game({ moves: ["a1"] }) });
    sock.onFrame(first);
    sock.onFrame(room({ version: 3 }));
    sock.onFrame(room({ version: 4 }));
    expect(shown).toEqual([first]);
    sock.onFrame(move(first, "b2"));
    expect(shown).toHaveLength(2);
    expect(shown[1].game?.moves).toEqual(["a1", "b2"]);
    expect(sock.version).toBe(5);
  });

  test("a gap asks for the whole room once, ignores moves until it comes, and takes it at the same version", () => {
    /** @type {Room[]} */
    const shown = [];
    const sock = new Unconnected(shown);
    const first = room({ version: 4, game: game({ moves: ["a1"] }) });
    sock.onFrame(first);
    const gapped = move(first, "b2", { version: 6 });
    sock.onFrame(gapped);
    expect(sock.sent).toEqual([{ type: "sync" }]);
    sock.onFrame(move(first, "c3", { version: 7 }));
    expect(sock.sent).toHaveLength(1);
    expect(shown).toHaveLength(1);
    const synced = room({ version: 4, game: game({ moves: ["a1"] }) });
    sock.onFrame(synced);
    expect(shown).toEqual([first, synced]);
    expect(sock.syncing).toBe(false);
  });

  test("a spectators frame sets the count at the next version; after a gap it asks for the room", () => {
    /** @type {Room[]} */
    const shown = [];
    const sock = new Unconnected(shown);
    const first = { ...room({ version: 4, game: game({ moves: ["a1"] }) }), spectators: 0 };
    sock.onFrame(first);
    sock.onFrame({ type: "spectators", version: 5, spectators: 12 });
    expect(shown[1]).toEqual({ ...first, version: 5, spectators: 12 });
    sock.onFrame(move(shown[1], "b2"));
    expect(shown[2].game?.moves).toEqual(["a1", "b2"]);
    expect(shown[2].spectators).toBe(12);
    sock.onFrame({ type: "spectators", version: 6, spectators: 3 }); // not above the last version
    expect(shown).toHaveLength(3);
    sock.onFrame({ type: "spectators", version: 8, spectators: 3 });
    expect(sock.sent).toEqual([{ type: "sync" }]);
    expect(applySpectators(null, { type: "spectators", version: 1, spectators: 1 })).toBeNull();
  });

  test("nextRoom resolves with the next room shown", async () => {
    const sock = new Unconnected([]);
    const next = sock.nextRoom();
    const frame = room({ version: 1 });
    sock.onFrame(frame);
    await expect(next).resolves.toBe(frame);
  });
});
