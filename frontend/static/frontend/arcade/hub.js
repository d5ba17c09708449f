// The arcade's hub (/arcade): each mode's card gets your best (your player page's `arcade` part) and
// today's top three (GET /api/arcade/scores?period=day).

import { apiGet } from "../api.js";
import { $ } from "../dom.js";
import { formatNumber, gettext } from "../i18n.js";
import { shownName } from "../text.js";
import { myBests } from "./recent.js";

/** @typedef {import("../api.js").Json} Json */

/** @param {HTMLElement} card @param {Json} page the scores' answer */
function drawTop(card, page) {
  const list = $(".mode-top", HTMLOListElement, card);
  const rows = (page?.rows || []).slice(0, 3);
  if (!rows.length) {
    list.replaceChildren(
      Object.assign(document.createElement("li"), {
        className: "muted",
        textContent: gettext("No run ended today yet."),
      }),
    );
    return;
  }
  list.replaceChildren(
    ...rows.map((/** @type {Json} */ row) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/arcade/runs/${encodeURIComponent(row.run)}`;
      a.textContent = formatNumber(row.score);
      li.append(`${shownName(row.player)} · `, a);
      return li;
    }),
  );
}

async function load() {
  const cards = [...document.querySelectorAll("#arcade-modes [data-mode]")].map(
    (el) => /** @type {HTMLElement} */ (el),
  );
  const bests = await myBests();
  await Promise.all(
    cards.map(async (card) => {
      const mode = card.dataset.mode || "";
      const best = bests[mode];
      $(".mode-best", HTMLElement, card).textContent = best ? formatNumber(best.score) : "–";
      const page = await apiGet(`/api/arcade/scores?mode=${encodeURIComponent(mode)}&period=day`).catch(() => null);
      drawTop(card, page);
    }),
  );
  document.body.dataset.loaded = "1";
}

load();
