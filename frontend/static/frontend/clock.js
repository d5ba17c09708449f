// How long is left, as a person reads it: minutes and seconds for a live turn, days and hours for a
// correspondence move (pure: the room page's clock, the games lists).

import { gettext, ngettext } from "./i18n.js";

/**
 * @param {number} seconds left (negative counts as none)
 * @returns {string} "0:42" under an hour, "3 h 05 min" under a day, else "2 d 4 h"
 */
export function clockText(seconds) {
  const left = Math.max(0, Math.ceil(seconds));
  if (left < 3600) return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  const hours = Math.floor(left / 3600);
  if (hours < 24) {
    const minutes = String(Math.floor((left % 3600) / 60)).padStart(2, "0");
    return gettext("%(hours)s h %(minutes)s min", { hours, minutes });
  }
  return gettext("%(days)s d %(hours)s h", { days: Math.floor(hours / 24), hours: hours % 24 });
}

/**
 * The time left until an instant.
 * @param {string | null} deadline ISO-8601, or null (no deadline)
 * @param {number} now milliseconds since the epoch
 * @returns {string} "" without a deadline
 */
export function untilText(deadline, now) {
  if (!deadline) return "";
  return clockText((Date.parse(deadline) - now) / 1000);
}

/**
 * A game's time control in words.
 * @param {{days_per_move?: number | null, turn_seconds?: number | null}} rules
 */
export function timeControlText(rules) {
  if (rules.days_per_move) return ngettext("%(n)s day a move", "%(n)s days a move", rules.days_per_move);
  if (rules.turn_seconds) return secondsAMove(rules.turn_seconds);
  return gettext("no timer");
}

/** "30 s a move". @param {number} seconds */
export function secondsAMove(seconds) {
  return gettext("%(seconds)s s a move", { seconds });
}

/** "ranked" or "casual". @param {boolean} ranked */
export function rankedText(ranked) {
  return ranked ? gettext("ranked") : gettext("casual");
}
