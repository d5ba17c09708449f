// The arena socket (/ws/tournaments/{id}/, docs/protocol.md, "Arena socket"), reconnecting (socket.js): the
// arena page follows the arena on it, and the room page of an arena game sends its Berserk on it.

import { ReconnectingSocket } from "../socket.js";

/** @typedef {import("../api.js").Json} Json */

// The server closes with it for an arena that does not exist: retrying cannot help.
const CLOSE_NO_ARENA = 4404;
// How long the room page waits for Berserk's answer before it closes its socket.
const BERSERK_WAIT_MS = 10000;

/**
 * What the page does with the socket (frames as docs/protocol.md, "Arena socket", has them).
 * @typedef {object} ArenaHandlers
 * @property {(frame: Json) => void} onFrame every frame but the notifications
 * @property {() => void} [onOpen] each time the socket opens (after a reconnect too)
 */

export class ArenaSocket extends ReconnectingSocket {
  /**
   * @param {number | string} arena the tournament's id
   * @param {number | null} pingEvery milliseconds between pings (null: none)
   * @param {ArenaHandlers} handlers
   */
  constructor(arena, pingEvery, handlers) {
    super(`/ws/tournaments/${encodeURIComponent(arena)}/`, pingEvery);
    this.h = handlers;
  }

  onOpened() {
    this.h.onOpen?.();
  }

  /** @param {Json} frame */
  onFrame(frame) {
    this.h.onFrame(frame);
  }

  /**
   * @param {CloseEvent} ev
   * @returns {"stop" | undefined}
   */
  onClosed(ev) {
    return ev.code === CLOSE_NO_ARENA ? "stop" : undefined;
  }
}

/**
 * Berserk for the player's game `game` of arena `arena`: a socket that sends the one frame once open and
 * closes at the answer (or after BERSERK_WAIT_MS). The room frame that follows shows the halved clock.
 * @param {number | string} arena
 * @param {string} game
 * @param {(message: string | undefined) => void} onRefused the server's `error` frame's message
 * @returns {ArenaSocket}
 */
export function sendBerserk(arena, game, onRefused) {
  const sock = new ArenaSocket(arena, null, {
    onOpen: () => sock.send({ type: "berserk", game }),
    onFrame(frame) {
      if (frame.type === "berserked") sock.close();
      else if (frame.type === "error") {
        sock.close();
        onRefused(frame.message);
      }
    },
  });
  sock.forwardsNotifications = false; // the room socket brings the player's notifications
  sock.connect();
  setTimeout(() => sock.close(), BERSERK_WAIT_MS);
  return sock;
}
