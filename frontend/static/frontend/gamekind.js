// A finished game as a player's lists say it (GET /api/players/{id}/games): its result for the player, its
// kind, and a side's name; shared by the player page's table and the finished games of /my/games.

import { gettext, pgettext } from "./i18n.js";
import { shownName } from "./text.js";

/** @typedef {import("./api.js").Json} Json */

/** The player's result: "Win", "Draw", "Loss", or "Abandoned" (null). @param {string | null} result */
export function resultText(result) {
  if (result === "win") return gettext("Win");
  if (result === "draw") return gettext("Draw");
  return result === "loss" ? gettext("Loss") : gettext("Abandoned");
}

/** How the game came about, and whether it was rated: "online, rated". @param {string} kind @param {boolean} ranked */
export function kindText(kind, ranked) {
  /** @type {Record<string, string>} */
  const kinds = {
    party: pgettext("game kind", "party"),
    online: pgettext("game kind", "online"),
    cpu: pgettext("game kind", "computer"),
    arena: pgettext("game kind", "arena"),
    bot: pgettext("game kind", "bot"),
  };
  const name = kinds[kind] || kind;
  return ranked ? gettext("%(kind)s, rated", { kind: name }) : name;
}

/** A side of the game by who sat there: a player's name, the computer, or a dash. @param {Json} side */
export const sideText = (side) => (side.player ? shownName(side.player) : side.cpu ? gettext("Computer") : "—");
