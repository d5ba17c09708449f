// The lobby websocket (/ws/lobby/): quick pairing and the live lists, reconnecting (socket.js); the
// server sends both lists whole on every (re)connect, so nothing needs re-syncing. A seek lives as long
// as its socket: after a reconnect the page decides whether to seek again.

import { ReconnectingSocket } from "./socket.js";

// While seeking the page must speak often: a silent page's seek is dropped from the pool.
const PING_SEEKING = 5000;
const PING_IDLE = 15000;

export class LobbySocket extends ReconnectingSocket {
  /**
   * @param {{onSeeking, onPaired, onCancelled, onOpenRooms, onLiveGames, onError, onOpen, onClose}} handlers
   */
  constructor(handlers) {
    super("/ws/lobby/", PING_IDLE);
    this.h = handlers;
    this.seeking = false;
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

  /** A promise for the socket being open (at once if it is). */
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
