// The lobby websocket (/ws/lobby/): quick pairing and the live lists, reconnecting (socket.js); the
// server sends both lists whole on every (re)connect, so nothing needs re-syncing. A seek lives as long
// as its socket: after a reconnect the page decides whether to seek again.

import { ReconnectingSocket } from "../socket.js";

// While seeking the page must speak often: a silent page's seek is dropped from the pool.
const PING_SEEKING = 5000;
const PING_IDLE = 15000;

/** @typedef {import("../api.js").Json} Json */

/**
 * What the page does with each frame (all optional; frames as docs/protocol.md, "Lobby socket", has them).
 * @typedef {object} LobbyHandlers
 * @property {(frame: Json) => void} [onSeeking]
 * @property {(frame: Json) => void} [onPaired]
 * @property {(frame: Json) => void} [onCancelled]
 * @property {(rooms: Json[]) => void} [onOpenRooms]
 * @property {(games: Json[]) => void} [onLiveGames]
 * @property {(frame: Json) => void} [onError]
 * @property {() => void} [onOpen]
 * @property {(wasSeeking: boolean) => void} [onClose]
 */

export class LobbySocket extends ReconnectingSocket {
  /** @param {LobbyHandlers} handlers */
  constructor(handlers) {
    super("/ws/lobby/", PING_IDLE);
    this.h = handlers;
    this.seeking = false;
    /** @type {Array<() => void>} */
    this.openWaiters = [];
  }

  onOpened() {
    const waiters = this.openWaiters;
    this.openWaiters = [];
    for (const w of waiters) w();
    this.h.onOpen?.();
  }

  onClosed() {
    const wasSeeking = this.seeking;
    this.seeking = false;
    this.h.onClose?.(wasSeeking);
    return undefined;
  }

  /**
   * A promise for the socket being open (at once if it is).
   * @returns {Promise<void>}
   */
  whenOpen() {
    if (this.isOpen) return Promise.resolve();
    return new Promise((resolve) => this.openWaiters.push(resolve));
  }

  /** Connects again at once: the server reads who the player is when the socket opens. */
  reconnectNow() {
    this.seeking = false;
    super.reconnectNow();
    return this.whenOpen();
  }

  /**
   * @param {number | null} turnSeconds
   * @param {boolean} ranked
   */
  seek(turnSeconds, ranked) {
    const sent = this.send({ type: "seek", turn_seconds: turnSeconds, ranked });
    if (sent) {
      this.seeking = true;
      this.setPing(PING_SEEKING);
    }
    return sent;
  }

  cancel() {
    return this.send({ type: "cancel" });
  }

  stopped() {
    this.seeking = false;
    if (this.isOpen) this.setPing(PING_IDLE);
  }

  /** @param {Json} frame */
  onFrame(frame) {
    switch (frame.type) {
      case "seeking":
        this.h.onSeeking?.(frame);
        break;
      case "paired":
        this.stopped();
        this.h.onPaired?.(frame);
        break;
      case "cancelled":
        this.stopped();
        this.h.onCancelled?.(frame);
        break;
      case "open_rooms":
        this.h.onOpenRooms?.(Array.isArray(frame.rooms) ? frame.rooms : []);
        break;
      case "live_games":
        this.h.onLiveGames?.(Array.isArray(frame.games) ? frame.games : []);
        break;
      case "error":
        if (frame.code === "no_player") this.stopped();
        this.h.onError?.(frame);
        break;
      default:
        break;
    }
  }
}
