// Reporting a player to the moderators (docs/protocol.md, "Reports and moderation"): the reason and a few
// words are asked in the browser's own dialogs, then POST /api/reports. Used next to each chat message and
// on player pages.

import { apiPost, errorText, getSession } from "./api.js";
import { $ } from "./dom.js";

/** @typedef {import("./api.js").Json} Json */

export const REASONS = ["abuse", "cheating", "spam", "other"];
export const TEXT_MAX = 500;

/**
 * The body of POST /api/reports, or null when ``reason`` is not one of REASONS.
 * @param {string} playerId
 * @param {string | null} reason as typed (any case, spaces around)
 * @param {string | null} text
 * @param {{message?: number | null, game?: string | null}} [about]
 */
export function reportBody(playerId, reason, text, about = {}) {
  const chosen = (reason || "").trim().toLowerCase();
  if (!REASONS.includes(chosen)) return null;
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
  const reason = window.prompt(`Report ${name} to the moderators. The reason: ${REASONS.join(", ")}.`, "abuse");
  if (reason === null) return "";
  const body = reportBody(playerId, reason, window.prompt("What happened? (optional)") || "", about);
  if (!body) return `The reason is one of: ${REASONS.join(", ")}.`;
  try {
    await apiPost("/api/reports", body);
    return "Thank you: the moderators will look at it.";
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
