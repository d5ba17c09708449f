// The challenges page (/challenges): your open challenges, received (Accept / Decline) and sent (Cancel),
// from GET /api/challenge (docs/bots.md), drawn again whenever a notification about a challenge arrives.

import { apiGet, apiPost, errorText } from "../api.js";
import { $ } from "../dom.js";
import { gettext } from "../i18n.js";
import { rulesText } from "../notify/state.js";
import { notificationFrames } from "../socket.js";
import { escapeHtml, shownName } from "../text.js";

/** @typedef {import("../api.js").Json} Json */

/**
 * @param {Json} challenge
 * @param {"in" | "out"} side
 */
function row(challenge, side) {
  const item = document.createElement("li");
  const who = side === "in" ? challenge.challenger : challenge.dest;
  const rating = who.rating ? ` (${escapeHtml(who.rating)})` : "";
  item.innerHTML = `<span><a href="/players/${encodeURIComponent(who.id)}">${escapeHtml(shownName(who))}</a>${rating}
    <span class="muted small">${escapeHtml(rulesText(challenge, side === "in" ? "dest" : "challenger"))}</span></span><span class="inbox-actions"></span>`;
  const actions = $(".inbox-actions", HTMLElement, item);
  /** @type {Record<string, string>} */
  const words = { accept: gettext("Accept"), decline: gettext("Decline"), cancel: gettext("Cancel") };
  for (const act of side === "in" ? ["accept", "decline"] : ["cancel"]) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = act === "accept" ? "btn primary small" : "btn ghost small";
    button.textContent = words[act];
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const answer = await apiPost(`/api/challenge/${encodeURIComponent(challenge.id)}/${act}`);
        if (act === "accept" && answer.room) location.assign(`/r/${answer.room}`);
        else await load();
      } catch (err) {
        $("#challenges-status").textContent = errorText(err);
        await load();
      }
    });
    actions.append(button);
  }
  return item;
}

async function load() {
  let open;
  try {
    open = await apiGet("/api/challenge");
  } catch (err) {
    $("#challenges-status").textContent = gettext("Could not load your challenges: %(error)s", {
      error: errorText(err),
    });
    return;
  }
  for (const side of /** @type {const} */ (["in", "out"])) {
    const list = $(`#challenges-${side}`);
    list.replaceChildren(...open[side].map((/** @type {Json} */ c) => row(c, side)));
    if (open[side].length === 0)
      list.innerHTML = `<li class="muted small">${escapeHtml(gettext("None waiting."))}</li>`;
  }
  $("#challenges-status").textContent = "";
}

notificationFrames.addEventListener("notification", (ev) => {
  const kind = /** @type {CustomEvent} */ (ev).detail?.notification?.kind;
  if (typeof kind === "string" && kind.startsWith("challenge")) load();
});
load();
