// The arcade's high scores (/arcade/scores?mode=&period=&bots=1&page=): GET /api/arcade/scores, 50 rows a
// page, your own row highlighted; each row's Replay opens the run (/arcade/runs/{id}).

import { apiGet, errorText, getSession } from "../api.js";
import { $ } from "../dom.js";
import { formatDate, formatNumber, gettext } from "../i18n.js";
import { shownName } from "../text.js";

/** @typedef {import("../api.js").Json} Json */

const PERIODS = ["all", "week", "day"];
const params = new URLSearchParams(location.search);
const modeSelect = $("#scores-mode", HTMLSelectElement);
const periodSelect = $("#scores-period", HTMLSelectElement);
const bots = $("#scores-bots", HTMLInputElement);
const view = {
  mode: [...modeSelect.options].some((o) => o.value === params.get("mode")) ? String(params.get("mode")) : "classic",
  period: PERIODS.includes(params.get("period") || "") ? String(params.get("period")) : "all",
  bots: params.get("bots") === "1",
  page: Math.max(1, Math.floor(Number(params.get("page"))) || 1),
};
/** @type {string | null} */ let me = null;
let loading = 0;

/** @param {HTMLTableRowElement} tr @param {string | Node} content @param {string} [className] */
function cell(tr, content, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.append(content);
  tr.append(td);
}

/** @param {Json} row */
function rowOf(row) {
  const tr = document.createElement("tr");
  tr.dataset.run = row.run;
  const player = document.createElement("a");
  player.href = `/players/${encodeURIComponent(row.player.id)}`;
  player.textContent = shownName(row.player);
  if (row.player.id === me) {
    tr.classList.add("you");
    tr.setAttribute("aria-current", "true");
    player.append(` (${gettext("you")})`);
  }
  const replay = document.createElement("a");
  replay.href = `/arcade/runs/${encodeURIComponent(row.run)}`;
  replay.textContent = gettext("Replay");
  replay.className = "replay-link";
  cell(tr, String(row.rank), "num rank");
  cell(tr, player);
  cell(tr, formatNumber(row.score), "num");
  cell(tr, formatNumber(row.top_tile), "num opt");
  cell(tr, formatNumber(row.moves), "num opt");
  cell(tr, formatDate(row.date, { dateStyle: "medium" }), "opt");
  cell(tr, replay);
  return tr;
}

function syncUrl() {
  const p = new URLSearchParams({ mode: view.mode, period: view.period });
  if (view.bots) p.set("bots", "1");
  if (view.page > 1) p.set("page", String(view.page));
  history.replaceState(null, "", `?${p}`);
}

async function load() {
  const ticket = ++loading;
  const status = $("#scores-status");
  const table = $("#scores", HTMLTableElement);
  const q = new URLSearchParams({
    mode: view.mode,
    period: view.period,
    board: view.bots ? "bots" : "players",
    page: String(view.page),
  });
  let data;
  try {
    data = await apiGet(`/api/arcade/scores?${q}`);
  } catch (err) {
    if (ticket !== loading) return;
    status.textContent = gettext("Could not load the high scores: %(error)s", { error: errorText(err) });
    table.hidden = true;
    return;
  }
  if (ticket !== loading) return;
  const rows = data.rows || [];
  table.tBodies[0].replaceChildren(...rows.map(rowOf));
  table.hidden = rows.length === 0;
  status.textContent = rows.length ? "" : gettext("No run has been scored here yet.");
  $("#scores-prev").hidden = view.page <= 1;
  $("#scores-next").hidden = !data.more;
  document.body.dataset.loaded = "1";
}

modeSelect.value = view.mode;
periodSelect.value = view.period;
bots.checked = view.bots;
for (const [el, apply] of /** @type {const} */ ([
  [
    modeSelect,
    () => {
      view.mode = modeSelect.value;
    },
  ],
  [
    periodSelect,
    () => {
      view.period = periodSelect.value;
    },
  ],
  [
    bots,
    () => {
      view.bots = bots.checked;
    },
  ],
])) {
  el.addEventListener("change", () => {
    apply();
    view.page = 1;
    syncUrl();
    load();
  });
}
$("#scores-prev").addEventListener("click", () => {
  view.page = Math.max(1, view.page - 1);
  syncUrl();
  load();
});
$("#scores-next").addEventListener("click", () => {
  view.page += 1;
  syncUrl();
  load();
});
getSession()
  .then((session) => {
    me = session?.player.id || null;
  })
  .catch(() => {})
  .finally(load);
