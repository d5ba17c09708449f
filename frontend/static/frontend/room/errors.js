// What the room page does with an error frame. Kept apart from room/main.js (which touches the page on import)
// so the browser tests can check the decision on its own.

import { gettext } from "../i18n.js";

/**
 * The page's answer to `{"type": "error", "code", "message"}`. The server changed nothing, so a drop in
 * flight is over either way: the board unlocks.
 *
 * @param {{code?: string, message?: unknown} | null} frame the error frame
 * @param {string|null} pendingPeg the peg of the drop in flight, if any
 * @returns {{text: string, kind: "error"|"info", select: string|null, cross: string|null}}
 *   text to show near the board; `select`: the peg to choose again (one tap on Choose retries);
 *   `cross`: a full peg to mark.
 */
export function errorOutcome(frame, pendingPeg) {
  const code = frame?.code || "error";
  const message = frame && typeof frame.message === "string" ? frame.message : "";
  switch (code) {
    case "server_error":
      // The server failed unexpectedly and the room is unchanged: the same move may well work now.
      return pendingPeg
        ? {
            text: gettext("Your move on %(peg)s did not go through (a server error). Tap Choose to try again.", {
              peg: pendingPeg,
            }),
            kind: "error",
            select: pendingPeg,
            cross: null,
          }
        : {
            text: gettext("Something went wrong on the server: nothing changed. Please try again."),
            kind: "error",
            select: null,
            cross: null,
          };
    case "stale":
      return { text: gettext("The board moved on: look again and choose."), kind: "info", select: null, cross: null };
    case "peg_full":
      return { text: message || gettext("That peg is full."), kind: "error", select: null, cross: pendingPeg };
    default:
      return { text: message || code.replace(/_/g, " "), kind: "error", select: null, cross: null };
  }
}
