// The room socket: one per page, reconnecting (socket.js). Room frames are applied only when their
// version is above the last applied one, so a reconnect re-syncs from the full snapshot it receives.

import { ReconnectingSocket } from "./socket.js";

const PING_EVERY = 15000;
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
        if (typeof frame.version === "number" && frame.version <= this.version) return;
        this.version = typeof frame.version === "number" ? frame.version : this.version;
        this.h.onRoom?.(frame);
        const waiters = this.waiters;
        this.waiters = [];
        waiters.forEach((w) => w(frame));
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

  status(state, delay) {
    this.h.onStatus?.(state, delay);
  }
}
