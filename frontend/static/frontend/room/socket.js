// The room socket: one per page, reconnecting (socket.js). Room frames are applied only when their
// version is above the last applied one, so a reconnect re-syncs from the full snapshot it receives.
// A move frame is applied to the last room (see applyMove), and so is a spectators frame (the count alone,
// applySpectators); one that does not follow it (a version gap, another game) makes the page ask for the
// whole room ({"type": "sync"}) and wait for it.

import { ReconnectingSocket } from "../socket.js";

/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").MoveFrame} MoveFrame */
/** @typedef {import("./types.js").SpectatorsFrame} SpectatorsFrame */
/** @typedef {import("./types.js").Game} Game */
/**
 * What the page does with each frame and state (all optional).
 * @typedef {object} RoomHandlers
 * @property {(room: Room) => void} [onRoom] a room to show: a room frame, or one a move frame was applied to
 * @property {(frame: import("./types.js").ErrorFrame) => void} [onError]
 * @property {(frame: import("./types.js").NoticeFrame) => void} [onNotice]
 * @property {(state: string, delay?: number) => void} [onStatus] connecting, open, reconnecting, gone, closed, banned
 * @property {(code: number) => void} [onGone] the close code after which reconnecting cannot help
 * @property {(frame: import("./types.js").OfferFrame) => void} [onOffer]
 * @property {(frame: any) => void} [onChat]
 * @property {(frame: any) => void} [onChatHistory]
 */

// No ping of its own: the server's websocket-level pings, which the browser answers by itself, prove the
// socket alive (a {"type":"ping"} frame is still answered with a pong).
const PING_EVERY = null;
// 4404 unknown room, 4410 room closed, 4403 banned player: reconnecting would not help.
/** @type {Record<number, string>} */
const GONE = { 4404: "gone", 4410: "closed", 4403: "banned" };

export class RoomSocket extends ReconnectingSocket {
  /**
   * @param {string} code room code
   * @param {RoomHandlers} handlers (the page may set them later, as `h`, before it connects)
   */
  constructor(code, handlers) {
    super(`/ws/rooms/${encodeURIComponent(code)}/`, PING_EVERY);
    this.code = code;
    this.h = handlers;
    this.version = -Infinity;
    /** @type {Room | null} the last room frame with the move frames since applied */
    this.room = null;
    this.syncing = false; // a sync was asked for: moves wait for the room frame
    /** @type {Array<(room: Room) => void>} */
    this.waiters = [];
  }

  /** @param {number} attempt */
  onConnecting(attempt) {
    this.status(attempt === 0 ? "connecting" : "reconnecting");
  }

  onOpened() {
    this.status("open");
  }

  /** @param {number} delay */
  onRetrying(delay) {
    this.status("reconnecting", delay);
  }

  /**
   * @param {CloseEvent} ev
   * @returns {"stop" | undefined}
   */
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

  /**
   * A promise for the next applied room frame.
   * @returns {Promise<Room>}
   */
  nextRoom() {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** @param {any} frame */
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
      case "move":
      case "spectators": {
        if (this.syncing || typeof frame.version !== "number" || frame.version <= this.version) return;
        const room = frame.type === "move" ? applyMove(this.room, frame) : applySpectators(this.room, frame);
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
      case "offer":
        this.h.onOffer?.(frame);
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

  /**
   * Hands a room (a room frame, or one a move frame was applied to) to the page.
   * @param {Room} room
   */
  apply(room) {
    this.room = room;
    this.h.onRoom?.(room);
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w(room);
  }

  /**
   * @param {string} state
   * @param {number} [delay]
   */
  status(state, delay) {
    this.h.onStatus?.(state, delay);
  }
}

// The fields of a move frame that are copied into the room's game (its peg is appended to game.moves).
/** @type {ReadonlyArray<keyof MoveFrame & keyof Game>} */
const MOVE_GAME_FIELDS = [
  "ply",
  "to_move_seat",
  "deadline",
  "status",
  "winner_seat",
  "line",
  "reason",
  "threats",
  "offers",
];

/**
 * The room frame a move frame makes of the last one, exactly as the server would have sent it; null when
 * the move does not follow it (a version gap, another game, a ply that does not follow): then ask for the
 * whole room. Mirrors lobby.protocol.apply_move on the server.
 * @param {Room | null} room
 * @param {MoveFrame} move
 * @returns {Room | null}
 */
export function applyMove(room, move) {
  const game = room?.game;
  if (!game || move.version !== room.version + 1 || game.id !== move.game || move.ply !== game.moves.length + 1) {
    return null;
  }
  /** @type {Record<string, unknown>} */
  const next = { ...game, moves: [...game.moves, move.peg] };
  for (const field of MOVE_GAME_FIELDS) next[field] = move[field];
  return { ...room, version: move.version, game: /** @type {Game} */ (next) };
}

/**
 * The room frame a spectators frame makes of the last one (its count at the next version); null when it
 * does not follow it (a version gap): then ask for the whole room. Mirrors
 * lobby.protocol.apply_spectators on the server.
 * @param {Room | null} room
 * @param {SpectatorsFrame} frame
 * @returns {Room | null}
 */
export function applySpectators(room, frame) {
  if (!room || frame.version !== room.version + 1) return null;
  return { ...room, version: frame.version, spectators: frame.spectators };
}
