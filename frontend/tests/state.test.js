import { describe, expect, test } from "vitest";
import { applyMove } from "../static/frontend/room/socket.js";
import {
  canSit,
  isHost,
  isMyTurn,
  isWatching,
  moverColour,
  newState,
  position,
  receiveRoom,
  seatName,
} from "../static/frontend/room/state.js";
import { game, move, room, seat } from "./fixtures.js";

describe("the facts derived from the room", () => {
  test("whose turn it is, for a player, the other player and a spectator", () => {
    const g = game({ moves: ["a1"] }); // yellow (seat 2) to move
    const mine = newState(false);
    receiveRoom(mine, room({ game: g, you: 2 }));
    const theirs = newState(false);
    receiveRoom(theirs, room({ game: g, you: 1 }));
    const watcher = newState(false);
    receiveRoom(watcher, room({ game: g, you: null }));
    expect([isMyTurn(mine), isMyTurn(theirs), isMyTurn(watcher)]).toEqual([true, false, false]);
    expect([isWatching(mine), isWatching(watcher)]).toEqual([false, true]);
    expect(moverColour(mine)).toBe("yellow");
    expect([isHost(theirs), isHost(mine)]).toEqual([true, false]);
  });

  test("a spectator can sit on a free seat, or the CPU's between games only", () => {
    const S = newState(false);
    const cpu = seat(2, { player: null, cpu: true });
    receiveRoom(S, room({ you: null, seats: [seat(1), cpu], game: game() }));
    expect(canSit(S)).toBe(false);
    receiveRoom(S, room({ version: 2, you: null, seats: [seat(1), cpu], game: game({ status: "drawn" }) }));
    expect(canSit(S)).toBe(true);
    receiveRoom(S, room({ version: 3, you: null, seats: [seat(1), seat(2)] }));
    expect(canSit(S)).toBe(false);
  });

  test("the position: stacks, the last bead, the line only once the game is over", () => {
    const S = newState(false);
    const line = [1, 2, 3, 4].map((level) => ({ peg: "a1", level }));
    receiveRoom(S, room({ game: game({ moves: ["a1", "b1", "a1"], line }) }));
    expect(position(S)).toMatchObject({ last: { peg: "a1", level: 2 }, line: null, ply: 3 });
    expect(position(S).stacks.a1).toEqual(["red", "red"]);
    receiveRoom(S, room({ version: 2, game: game({ moves: ["a1", "b1", "a1"], line, status: "won" }) }));
    expect(position(S).line).toBe(line);
  });

  test("a seat's name: its player's, the computer, or an open seat", () => {
    expect(seatName(seat(1, { player: { id: "b", name: "Bo", title: "BOT" } }))).toBe("BOT Bo");
    expect(seatName(seat(2, { player: null, cpu: true }))).toBe("Computer");
    expect(seatName(seat(2, { player: null }))).toBe("Open seat");
    expect(seatName(null)).toBe("—");
  });
});

describe("receiveRoom: a room frame changes the page's state", () => {
  test("a drop in flight stays pending until its ply has passed", () => {
    const S = newState(false);
    const before = room({ version: 3, game: game({ moves: ["a1"] }), you: 2 });
    receiveRoom(S, before);
    S.pendingPly = 1;
    S.pendingPeg = "b2";
    receiveRoom(S, room({ version: 4, game: game({ moves: ["a1"] }), you: 2 }));
    expect(S.pendingPly).toBe(1);
    const after = applyMove(before, move(before, "b2"));
    if (!after) throw new Error("the move should follow");
    receiveRoom(S, after);
    expect(S.pendingPly).toBeNull();
  });

  test("a new game ends the drop in flight and tells a seated viewer", () => {
    const S = newState(false);
    receiveRoom(S, room({ game: game({ moves: ["a1"], status: "won" }) }));
    S.pendingPly = 5;
    const next = receiveRoom(S, room({ version: 2, game: game({ id: "g2", moves: [] }) }));
    expect(next.newGame).toBe(true);
    expect(S.pendingPly).toBeNull();
    const watcher = newState(false);
    receiveRoom(watcher, room({ game: game(), you: null }));
    expect(receiveRoom(watcher, room({ version: 2, game: game({ id: "g2" }), you: null })).newGame).toBe(false);
  });

  test("the selection goes when its peg fills up or the game ends", () => {
    const S = newState(false);
    receiveRoom(S, room({ game: game({ moves: ["a1", "a1", "a1"] }) }));
    S.selected = "a1";
    receiveRoom(S, room({ version: 2, game: game({ moves: ["a1", "a1", "a1"] }) }));
    expect(S.selected).toBe("a1");
    receiveRoom(S, room({ version: 3, game: game({ moves: ["a1", "a1", "a1", "a1"] }) }));
    expect(S.selected).toBeNull();
    S.selected = "b2";
    receiveRoom(S, room({ version: 4, game: game({ moves: ["a1"], status: "resigned" }) }));
    expect(S.selected).toBeNull();
  });

  test("the viewer's rating is kept while a rated game runs", () => {
    const S = newState(false);
    const rating = {
      rating: 1500,
      rd: 350,
      provisional: true,
      display: "1500?",
      if_win: 160,
      if_draw: 0,
      if_loss: -160,
    };
    const rated = seat(1, { rating });
    receiveRoom(S, room({ game: game(), seats: [rated, seat(2)] }));
    expect(S.ratingAtStart).toEqual({ game: "g1", display: "1500?" });
    const after = seat(1, { rating: { ...rating, display: "1662?", if_win: null } });
    receiveRoom(S, room({ version: 2, game: game({ status: "won", winner_seat: 1 }), seats: [after, seat(2)] }));
    expect(S.ratingAtStart).toEqual({ game: "g1", display: "1500?" });
  });

  test("the room is remembered once, when the viewer has a seat", () => {
    const S = newState(false);
    expect(receiveRoom(S, room({ you: null })).remember).toBe(false);
    expect(receiveRoom(S, room({ version: 2, you: 2 })).remember).toBe(true);
    expect(S.remembered).toBe(true);
    expect(receiveRoom(S, room({ version: 3, you: 2 })).remember).toBe(false);
  });
});
