// How the pages write things the server sends: HTML-escaped text, a player's name, a rating and its change.
// Pure (the words through i18n.js); the REST calls and the session are api.js's.

import { gettext } from "./i18n.js";

// ---- how ratings read everywhere ------------------------------------------------------------------------

/** A signed whole-point change with a real minus sign: +8, −10, ±0. @param {number | string | null} change */
export function signedPoints(change) {
  const n = Math.round(Number(change));
  if (!Number.isFinite(n)) return "";
  if (n === 0) return "±0";
  return n > 0 ? `+${n}` : `\u2212${-n}`;
}

/** The title of a provisional rating ("1500?"). */
export function provisionalNote() {
  return gettext(
    "A question mark means the rating is provisional: too few rated games yet (or a long time away) to be sure of it.",
  );
}

/** "Rating 1520, uncertainty ±64". @param {{rating: number, rd: number}} r */
export function ratingTitle(r) {
  return gettext("Rating %(rating)s, uncertainty ±%(rd)s", { rating: Math.round(r.rating), rd: Math.round(r.rd) });
}

/** The name of a player who has not chosen one. */
export function guestName() {
  return gettext("Guest");
}

/** @type {Record<string, string>} */
const HTML_ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** @param {unknown} s */
export function escapeHtml(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * A player's name as the site shows it: "BOT robo" for a bot account (``title``), else the name.
 * @param {{name?: string | null, title?: string | null} | null | undefined} player
 */
export function shownName(player) {
  const name = player?.name || guestName();
  return player?.title ? `${player.title} ${name}` : name;
}
