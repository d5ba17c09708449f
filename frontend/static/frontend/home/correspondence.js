// The home page's "Play by correspondence": a seek (days per move, ranked) that waits a week with no page
// open, the open seeks with Accept (or Delete, your own), and "Your turn in N games". Accounts only: a
// guest sees the card with a note. The API: docs/protocol.md, "Correspondence".

import { apiDelete, apiGet, apiPost, errorText } from "../api.js";
import { rankedText, timeControlText } from "../clock.js";
import { $ } from "../dom.js";
import { gettext, ngettext } from "../i18n.js";
import { escapeHtml } from "../text.js";

/** @typedef {import("../api.js").Json} Json */

/**
 * One open seek.
 * @param {Json} seek
 * @param {string | null} me the device's player id
 * @param {() => Promise<void>} reload
 */
function seekItem(seek, me, reload) {
  const li = document.createElement("li");
  li.innerHTML =
    `<span><a href="/players/${encodeURIComponent(seek.player.id)}">${escapeHtml(seek.player.name)}</a>` +
    ` <span class="muted small">${escapeHtml(seek.display ?? seek.rating)} · ${escapeHtml(timeControlText(seek))} · ` +
    `${escapeHtml(rankedText(seek.ranked))}</span></span>`;
  const mine = seek.player.id === me;
  const button = document.createElement("button");
  button.type = "button";
  button.className = mine ? "btn ghost small" : "btn primary small";
  button.textContent = mine ? gettext("Delete") : gettext("Accept");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      if (mine) {
        await apiDelete(`/api/seeks/${seek.id}`);
        await reload();
      } else {
        const room = await apiPost(`/api/seeks/${seek.id}/accept`);
        location.assign(`/r/${room.code}`);
      }
    } catch (err) {
      $("#corr-error").textContent = errorText(err);
      await reload();
    }
  });
  li.append(" ", button);
  return li;
}

/**
 * Starts the card.
 * @param {Json} session GET /api/session's answer (null: no player yet)
 */
export function startCorrespondence(session) {
  const card = document.getElementById("correspondence");
  if (!card) return;
  const me = session?.player?.id || null;
  const account = Boolean(session?.username);
  const form = /** @type {HTMLFormElement & {days_per_move: HTMLSelectElement, ranked: HTMLInputElement}} */ (
    $("#corr-form", HTMLFormElement)
  );
  form.hidden = !account;
  $("#corr-guest").hidden = account;

  async function reload() {
    try {
      const [seeks, games] = await Promise.all([apiGet("/api/seeks"), apiGet("/api/my/games")]);
      const list = $("#corr-seeks");
      list.replaceChildren(...seeks.results.map((/** @type {Json} */ s) => seekItem(s, me, reload)));
      if (seeks.results.length === 0)
        list.innerHTML = `<li class="muted small">${escapeHtml(gettext("No open seeks: make one."))}</li>`;
      const turns = games.your_turn.length;
      const line = $("#corr-turns");
      line.hidden = turns === 0;
      line.innerHTML = `<a href="/my/games">${escapeHtml(ngettext("Your turn in %(n)s game", "Your turn in %(n)s games", turns))}</a>`;
    } catch (err) {
      $("#corr-error").textContent = errorText(err);
    }
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#corr-error").textContent = "";
    try {
      await apiPost("/api/seeks", { days_per_move: Number(form.days_per_move.value), ranked: form.ranked.checked });
      await reload();
    } catch (err) {
      $("#corr-error").textContent = errorText(err);
    }
  });
  card.hidden = false;
  reload();
}
