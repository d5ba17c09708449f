// Reporting a player to the moderators (docs/protocol.md, "Reports and moderation"): the reason and a few
// words are asked in the browser's own dialogs, then POST /api/reports. Used next to each chat message and
// on player pages.

import { apiPost, errorText, getSession } from "./api.js";
import { $ } from "./dom.js";
import { gettext, listText, pgettext } from "./i18n.js";

/** @typedef {import("./api.js").Json} Json */

export const REASONS = ["abuse", "cheating", "spam", "other"];
/** @type {Record<string, string>} */
const REASON_WORDS = {
  abuse: pgettext("report reason", "abuse"),
  cheating: pgettext("report reason", "cheating"),
  spam: pgettext("report reason", "spam"),
  other: pgettext("report reason", "other"),
};

/** A reason as typed: one of REASONS, in English or in the page's language (null for neither). @param {string} typed */
export function reasonOf(typed) {
  const word = typed.trim().toLowerCase();
  if (REASONS.includes(word)) return word;
  return REASONS.find((reason) => REASON_WORDS[reason].toLowerCase() === word) || null;
}
export const TEXT_MAX = 500;

/**
 * The body of POST /api/reports, or null when ``reason`` is not one of REASONS.
 * @param {string} playerId
 * @param {string | null} reason as typed (any case, spaces around)
 * @param {string | null} text
 * @param {{message?: number | null, game?: string | null}} [about]
 */
export function reportBody(playerId, reason, text, about = {}) {
  const chosen = reasonOf(reason || "");
  if (!chosen) return null;
  return {
    player: playerId,
    reason: chosen,
    text: (text || "").trim().slice(0, TEXT_MAX),
    game: about.game ?? null,
    message: about.message ?? null,
  };
}

/**
 * Ask for the reason and the text, and send the report; the sentence to show ("" when cancelled).
 * @param {string} playerId
 * @param {string} name
 * @param {{message?: number | null, game?: string | null}} [about]
 */
export async function reportPlayer(playerId, name, about = {}) {
  const words = listText(REASONS.map((r) => REASON_WORDS[r]));
  const reason = window.prompt(
    gettext("Report %(name)s to the moderators. The reason: %(reasons)s.", { name, reasons: words }),
    REASON_WORDS.abuse,
  );
  if (reason === null) return "";
  const body = reportBody(playerId, reason, window.prompt(gettext("What happened? (optional)")) || "", about);
  if (!body) return gettext("The reason is one of: %(reasons)s.", { reasons: words });
  try {
    await apiPost("/api/reports", body);
    return gettext("Thank you: the moderators will look at it.");
  } catch (err) {
    return errorText(err);
  }
}

/**
 * The player page's Report button (not on one's own page).
 * @param {Json} data the player's page (GET /api/players/{id})
 */
export async function mountReport(data) {
  const button = $("#report-btn", HTMLButtonElement);
  const status = $("#social-status");
  const session = await getSession().catch(() => null);
  if (session?.player?.id === data.id) return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    const said = await reportPlayer(data.id, data.name);
    if (said) status.textContent = said;
  });
}
