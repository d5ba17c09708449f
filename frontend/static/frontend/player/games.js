// The player page's list of every game played (GET /api/players/{id}/games): filters, 20 a page, each
// game opening as a replay or on the analysis board.

import { apiGet, errorText } from "../api.js";
import { $ } from "../dom.js";
import { kindText, resultText, sideText } from "../gamekind.js";
import { formatDate, formatNumber, gettext, ngettext } from "../i18n.js";
import { escapeHtml } from "../text.js";

/** @typedef {import("../api.js").Json} Json */

const PLAYER = $("#player").dataset.player || "";
const form = $("#games-filter", HTMLFormElement);
let page = 1;

async function load() {
  const query = new URLSearchParams({ page: String(page) });
  for (const [name, value] of new FormData(form)) if (value) query.set(name, String(value));
  const body = $("#games-table tbody");
  try {
    const answer = await apiGet(`/api/players/${encodeURIComponent(PLAYER)}/games?${query}`);
    body.replaceChildren();
    for (const g of answer.games) {
      const tr = document.createElement("tr");
      const cells = [
        resultText(g.result),
        sideText(g.red),
        sideText(g.yellow),
        kindText(g.kind, g.ranked),
        formatNumber(g.plies),
        formatDate(g.finished_at, { dateStyle: "medium" }),
      ];
      for (const text of cells) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      }
      const links = document.createElement("td");
      links.innerHTML = `<a href="/games/${encodeURIComponent(g.game)}">${escapeHtml(gettext("Replay"))}</a>`;
      tr.appendChild(links);
      body.appendChild(tr);
    }
    $("#games-page").textContent = `${gettext("page %(page)s of %(pages)s", answer)} · ${ngettext(
      "%(n)s game",
      "%(n)s games",
      answer.count,
    )}`;
    $("#games-prev", HTMLButtonElement).disabled = answer.page <= 1;
    $("#games-next", HTMLButtonElement).disabled = answer.page >= answer.pages;
  } catch (err) {
    $("#games-page").textContent = errorText(err);
  }
}

form.addEventListener("change", () => {
  page = 1;
  load();
});
$("#games-prev").addEventListener("click", () => {
  page = Math.max(1, page - 1);
  load();
});
$("#games-next").addEventListener("click", () => {
  page += 1;
  load();
});
load();
