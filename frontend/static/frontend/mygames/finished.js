// The finished games of /my/games: the device's player's games, most recent first, 20 a page
// (GET /api/players/{id}/games), each opening as a replay.

import { apiGet, errorText } from "../api.js";
import { $ } from "../dom.js";
import { kindText, resultText, sideText } from "../gamekind.js";
import { formatDate, gettext, ngettext } from "../i18n.js";
import { escapeHtml, signedPoints } from "../text.js";

/** @typedef {import("../api.js").Json} Json */

/** One finished game, for the player who played `g.colour`. @param {Json} g */
export function finishedItem(g) {
  const li = document.createElement("li");
  li.className = "my-game";
  const opponent = g.colour === "red" ? g.yellow : g.red;
  const name = escapeHtml(sideText(opponent));
  const who = opponent.player ? `<a href="/players/${encodeURIComponent(opponent.player.id)}">${name}</a>` : name;
  const facts = [kindText(g.kind, g.ranked), ngettext("%(n)s move", "%(n)s moves", g.plies)];
  if (g.ranked && typeof g.rating_change === "number") facts.push(signedPoints(g.rating_change));
  facts.push(formatDate(g.finished_at, { dateStyle: "medium" }));
  li.innerHTML =
    `<div class="my-game-text"><span><a class="btn ghost small" href="/games/${encodeURIComponent(g.game)}">` +
    `${escapeHtml(gettext("Replay"))}</a> <strong>${escapeHtml(resultText(g.result))}</strong> ` +
    `${gettext("vs %(who)s", { who })}</span><span class="muted small">${escapeHtml(facts.join(" · "))}</span></div>`;
  return li;
}

/**
 * Shows the player's finished games, a page at a time; answers a function that reads the shown page again.
 * @param {string | null} player the device's player's id (null: none yet, so no games)
 */
export function startFinished(player) {
  let page = 1;
  const list = $("#my-finished");
  const prev = $("#finished-prev", HTMLButtonElement);
  const next = $("#finished-next", HTMLButtonElement);
  const load = async () => {
    if (!player) {
      list.innerHTML = `<li class="muted small">${escapeHtml(gettext("None."))}</li>`;
      prev.hidden = next.hidden = true;
      return;
    }
    try {
      const answer = await apiGet(`/api/players/${encodeURIComponent(player)}/games?page=${page}`);
      list.replaceChildren(...answer.games.map(finishedItem));
      if (!answer.games.length) list.innerHTML = `<li class="muted small">${escapeHtml(gettext("None."))}</li>`;
      $("#finished-page").textContent = answer.pages > 1 ? gettext("page %(page)s of %(pages)s", answer) : "";
      prev.hidden = next.hidden = answer.pages <= 1;
      prev.disabled = answer.page <= 1;
      next.disabled = answer.page >= answer.pages;
    } catch (err) {
      $("#finished-page").textContent = errorText(err);
    }
  };
  prev.addEventListener("click", () => {
    page = Math.max(1, page - 1);
    load();
  });
  next.addEventListener("click", () => {
    page += 1;
    load();
  });
  load();
  return load;
}
