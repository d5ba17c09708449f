// The room socket: one per page, reconnecting (socket.js). Room frames are applied only when their
// version is above the last applied one, so a reconnect re-syncs from the full snapshot it receives.
// A move frame is applied to the last room (see applyMove); one that does not follow it (a version gap,
// another game) makes the page ask for the whole room ({"type": "sync"}) and wait for it.

import { ReconnectingSocket } from "./socket.js";

// No ping of its own: the server's websocket-level pings, which the browser answers by itself, prove the
// socket alive (a {"type":"ping"} frame is still answered with a pong).
const PING_EVERY = null;
// 4404 unknown room, 4410 room closed, 4403 banned player: reconnecting would not help.
const GONE = { 4404: "gone", 4410: "closed", 4403: "banned" };

export class RoomSocket extends ReconnectingSocket {
  /**
   * @param {string} code room code
   * @param {{onRoom, onError, onNotice, onStatus, onGone, onChat, onChatHistory}} handlers
   */
  constructor(code, handlers) {
    super(`/ws/rooms/${encodeURIComponent(code)}/`, PING_EVERY);
    this.code = code;
    this.h = handlers;
    this.version = -Infinity;
    this.room = null; // the last room frame with the move frames since applied
    this.syncing = false; // a sync was asked for: moves wait for the room frame
    this.waiters = [];
  }

  onConnecting(attempt) {
    this.status(attempt === 0 ? "connecting" : "reconnecting");
  }

  onOpened() {
    this.status("open");
  }

  onRetrying(delay) {
    this.status("reconnecting", delay);
  }

  onClosed(ev) {
    const gone = GONE[ev.code];
    if (!gone) return undefined;
    this.status(gone);
    this.h.onGone?.(ev.code);
    return "stop";
  }

  /** Drops the current connection and connects again at once (e.g. after this device got a player). */
  reconnectNow() {
    // A fresh connection must be able to re-sync even at the same version.
    this.version = -Infinity;
    this.room = null;
    this.syncing = false;
    super.reconnectNow();
    return this.nextRoom();
  }

  /** A promise for the next applied room frame. */
  nextRoom() {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  onFrame(frame) {
    switch (frame.type) {
      case "room": {
        const answersSync = this.syncing && frame.version === this.version;
        if (typeof frame.version === "number" && frame.version <= this.version && !answersSync) return;
        this.version = typeof frame.version === "number" ? frame.version : this.version;
        this.syncing = false;
        this.apply(frame);
        break;
      }
      case "move": {
        if (this.syncing || typeof frame.version !== "number" || frame.version <= this.version) return;
        const room = applyMove(this.room, frame);
        if (room === null) {
          this.syncing = this.send({ type: "sync" });
          return;
        }
        this.version = frame.version;
        this.apply(room);
        break;
      }
      case "error":
        this.h.onError?.(frame);
        break;
      case "notice":
        this.h.onNotice?.(frame);
        break;
      case "chat":
        this.h.onChat?.(frame);
        break;
      case "chat_history":
        this.h.onChatHistory?.(frame);
        break;
      default:
        break;
    }
  }

  /** Hands a room (a room frame, or one a move frame was applied to) to the page. */
  apply(room) {
    this.room = room;
    this.h.onRoom?.(room);
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w(room);
  }

  status(state, delay) {
    this.h.onStatus?.(state, delay);
  }
}

// The fields of a move frame that are copied into the room's game (its peg is appended to game.moves).
const MOVE_GAME_FIELDS = ["ply", "to_move_seat", "deadline", "status", "winner_seat", "line", "reason", "threats"];

/**
 * The room frame a move frame makes of the last one, exactly as the server would have sent it; null when
 * the move does not follow it (a version gap, another game, a ply that does not follow): then ask for the
 * whole room. Mirrors lobby.protocol.apply_move on the server.
 */
export function applyMove(room, move) {
  const game = room?.game;
  if (!game || move.version !== room.version + 1 || game.id !== move.game || move.ply !== game.moves.length + 1) {
    return null;
  }
  const next = { ...game, moves: [...game.moves, move.peg] };
  for (const field of MOVE_GAME_FIELDS) next[field] = move[field];
  return { ...room, version: move.version, game: next };
}
