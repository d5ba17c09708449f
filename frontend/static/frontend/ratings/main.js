// Leaderboard: GET /api/ratings?limit=&offset=&include_provisional=. The URL keeps the page and the
// checkbox (?offset=25&provisional=1), so a reload or a shared link shows the same list.

import { apiGet, errorText } from "../api.js";
import { $ } from "../dom.js";
import { formatNumber, gettext } from "../i18n.js";
import { provisionalNote, shownName } from "../text.js";

/** @typedef {import("../api.js").Json} Json */

const LIMIT = 25;
const params = new URLSearchParams(location.search);
const view = {
  offset: Math.max(0, Math.floor(Number(params.get("offset"))) || 0),
  provisional: params.get("provisional") === "1",
  bots: params.get("bots") !== "0",
  count: 0,
};
let loading = 0;

/**
 * @param {HTMLTableRowElement} tr
 * @param {string | null} text
 * @param {string} [className]
 */
function cell(tr, text, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  if (text != null) td.textContent = text;
  tr.appendChild(td);
  return td;
}

/** @param {Json} entry a leaderboard entry */
function row(entry) {
  const tr = document.createElement("tr");
  tr.dataset.player = entry.player.id;
  cell(tr, String(entry.rank), "num rank");
  const a = document.createElement("a");
  a.href = `/players/${encodeURIComponent(entry.player.id)}`;
  a.textContent = shownName(entry.player);
  cell(tr, null, "name").appendChild(a);
  const rating = cell(tr, entry.display, "num rating-cell");
  if (entry.provisional) {
    rating.classList.add("provisional");
    rating.title = provisionalNote();
  }
  cell(tr, `±${Math.round(entry.rd)}`, "num muted");
  cell(tr, formatNumber(entry.games), "num");
  return tr;
}

function syncUrl() {
  const p = new URLSearchParams();
  if (view.offset) p.set("offset", String(view.offset));
  if (view.provisional) p.set("provisional", "1");
  if (!view.bots) p.set("bots", "0");
  history.replaceState(null, "", p.size ? `?${p}` : location.pathname);
}

async function load() {
  const ticket = ++loading;
  const status = $("#board-status");
  const table = $("#leaderboard", HTMLTableElement);
  const q = `limit=${LIMIT}&offset=${view.offset}&include_provisional=${view.provisional}&bots=${view.bots}`;
  let data;
  try {
    data = await apiGet(`/api/ratings?${q}`);
  } catch (err) {
    if (ticket !== loading) return;
    status.textContent = gettext("Could not load the leaderboard: %(error)s", { error: errorText(err) });
    table.hidden = true;
    return;
  }
  if (ticket !== loading) return; // a newer request (checkbox, paging) has the say
  const rows = data.results || [];
  if (!rows.length && view.offset > 0 && data.count > 0) {
    // Past the end (the list shrank): go to the last page instead of showing nothing.
    view.offset = Math.max(0, Math.floor((data.count - 1) / LIMIT) * LIMIT);
    syncUrl();
    load();
    return;
  }
  view.count = data.count;
  table.tBodies[0].replaceChildren(...rows.map(row));
  table.hidden = rows.length === 0;
  table.dataset.count = String(data.count);
  status.textContent = rows.length
    ? ""
    : view.provisional
      ? gettext("Nobody has played a rated game yet: ranked games between two people count.")
      : gettext(
          "No established ratings yet. Tick “Show provisional players” to see everyone who has played a rated game.",
        );
  const first = rows.length ? view.offset + 1 : 0;
  $("#page-info").textContent = rows.length
    ? gettext("%(first)s–%(last)s of %(count)s", { first, last: view.offset + rows.length, count: data.count })
    : "";
  $("#prev", HTMLButtonElement).disabled = view.offset === 0;
  $("#next", HTMLButtonElement).disabled = view.offset + rows.length >= data.count;
  $("#prev").hidden = $("#next").hidden = data.count <= LIMIT && view.offset === 0;
}

/** @param {number} delta */
function go(delta) {
  view.offset = Math.max(0, view.offset + delta);
  syncUrl();
  load();
}

const provisional = $("#show-provisional", HTMLInputElement);
provisional.checked = view.provisional;
provisional.addEventListener("change", () => {
  view.provisional = provisional.checked;
  view.offset = 0;
  syncUrl();
  load();
});
const bots = $("#show-bots", HTMLInputElement);
bots.checked = view.bots;
bots.addEventListener("change", () => {
  view.bots = bots.checked;
  view.offset = 0;
  syncUrl();
  load();
});
$("#prev").addEventListener("click", () => go(-LIMIT));
$("#next").addEventListener("click", () => go(LIMIT));
load();
