// Reporting a player to the moderators (docs/protocol.md, "Reports and moderation"): the reason and a few
// words are asked in a dialog (dialog.js), then POST /api/reports. Used next to each chat message and
// on player pages.

import { apiPost, errorText, getSession } from "./api.js";
import { ask } from "./dialog.js";
import { $ } from "./dom.js";
import { gettext, pgettext } from "./i18n.js";

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
 * The report dialog's fields: the four reasons as radio buttons (none chosen yet), then a few words.
 * @param {string} name the reported player's
 */
function reportFields(name) {
  const fields = document.createElement("div");
  const set = document.createElement("fieldset");
  const legend = document.createElement("legend");
  legend.textContent = gettext("Why are you reporting %(name)s?", { name });
  set.append(legend);
  for (const reason of REASONS) {
    const label = document.createElement("label");
    label.className = "check";
    const radio = document.createElement("input");
    radio.type = "radio";
    radio.name = "reason";
    radio.value = reason;
    radio.required = true;
    label.append(radio, ` ${capitalised(REASON_WORDS[reason])}`);
    set.append(label);
  }
  const text = document.createElement("label");
  text.className = "stacked";
  const area = document.createElement("textarea");
  area.name = "text";
  area.rows = 3;
  area.maxLength = TEXT_MAX;
  text.append(gettext("What happened? (optional)"), area);
  fields.append(set, text);
  return fields;
}

/** @param {string} s */
const capitalised = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/**
 * Asks for the reason and a few words in a dialog, and sends the report; the sentence to show ("" when
 * cancelled).
 * @param {string} playerId
 * @param {string} name
 * @param {{message?: number | null, game?: string | null}} [about]
 */
export async function reportPlayer(playerId, name, about = {}) {
  const answer = await ask({
    title: gettext("Report %(name)s to the moderators", { name }),
    body: reportFields(name),
    actions: [
      { label: gettext("Cancel"), value: "cancel" },
      { label: gettext("Send the report"), value: "send", kind: "primary" },
    ],
  });
  if (!answer) return "";
  const fields = new FormData(answer.form);
  const body = reportBody(playerId, String(fields.get("reason") || ""), String(fields.get("text") || ""), about);
  if (!body) return "";
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
