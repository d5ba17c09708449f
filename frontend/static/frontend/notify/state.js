// The bell's state, pure: the notifications shown (newest first, each once), the unread count, and what a
// hidden tab's title says. The page's notify/main.js owns one and draws it (notify/view.js).

import { rankedText, secondsAMove } from "../clock.js";
import { youPlayText } from "../game.js";
import { gettext } from "../i18n.js";

/** @typedef {import("../api.js").Json} Json */

/** The most notifications the bell keeps (a page of the REST list, and those that came live since). */
export const KEPT = 20;

/**
 * @typedef {object} BellState
 * @property {Json[]} items the notifications, newest first (docs/protocol.md, "Notifications")
 * @property {number} unread the player's unread count, as the server last said it
 */

/** @returns {BellState} */
export function emptyBell() {
  return { items: [], unread: 0 };
}

/**
 * The bell after a page of `GET /api/notifications`.
 * @param {Json} page {unread, results, next}
 * @returns {BellState}
 */
export function fromPage(page) {
  const items = Array.isArray(page?.results) ? page.results.slice(0, KEPT) : [];
  return { items, unread: Number(page?.unread) || 0 };
}

/**
 * The bell after a live `notification` frame: the notification first (once, by id), the count the frame says.
 * @param {BellState} bell
 * @param {Json} frame {type: "notification", notification, unread}
 * @returns {BellState}
 */
export function receive(bell, frame) {
  const note = frame?.notification;
  if (!note || typeof note.id !== "number") return bell;
  const items = [note, ...bell.items.filter((n) => n.id !== note.id)].slice(0, KEPT);
  return { items, unread: Number(frame.unread) || 0 };
}

/**
 * The bell once these ids (all, if null) are marked read, with the server's new count.
 * @param {BellState} bell
 * @param {number[] | null} ids
 * @param {number} unread
 * @returns {BellState}
 */
export function markRead(bell, ids, unread) {
  const read = ids === null ? null : new Set(ids);
  return {
    items: bell.items.map((n) => (read === null || read.has(n.id) ? { ...n, read: true } : n)),
    unread,
  };
}

/**
 * The tab's title: the page's own, led by the unread count while the tab is hidden.
 * @param {string} title the page's own title
 * @param {number} unread
 * @param {boolean} hidden
 */
export function tabTitle(title, unread, hidden) {
  return hidden && unread > 0 ? `(${unread}) ${title}` : title;
}

/**
 * What a notification frame asks the page to do, beside the bell: "inbox" (a challenge to answer),
 * "go" (the challenger's challenge was accepted: to the room), or null.
 * @param {Json} note a notification
 * @param {string} page the page's kind (its body's page-* class), e.g. "room"
 * @returns {"inbox" | "go" | null}
 */
export function actionOf(note, page) {
  if (note?.kind === "challenge" && note.data?.challenge?.status === "created") return "inbox";
  // A player in a room (perhaps playing) is not taken away from it: the bell says where to go.
  if (note?.kind === "challenge_accepted" && note.url && page !== "room") return "go";
  return null;
}

/**
 * The rules of a challenge as they read to one of its two players: "60 s a move · casual · you play yellow".
 * @param {Json} challenge
 * @param {"challenger" | "dest"} reader
 */
export function rulesText(challenge, reader) {
  const timer = challenge.turn_seconds ? secondsAMove(challenge.turn_seconds) : gettext("no turn timer");
  const other = { red: "yellow", yellow: "red" };
  /** @type {string} */
  const chosen = challenge.colour;
  const colour =
    chosen === "red" || chosen === "yellow"
      ? youPlayText(reader === "challenger" ? chosen : other[chosen])
      : gettext("colours by lot");
  return `${timer} · ${rankedText(challenge.ranked)} · ${colour}`;
}
