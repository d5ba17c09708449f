// Your games (/my/games): the correspondence games whose turn is yours, soonest deadline first, and those
// waiting for the opponent, each with a small top-view board (no 3D), from GET /api/my/games; drawn again
// when a notification about a game arrives and every minute (the deadlines move on); then every game the
// player finished, most recent first, a page at a time (finished.js).

import { apiGet, errorText, getSession } from "../api.js";
import { timeControlText, untilText } from "../clock.js";
import { $ } from "../dom.js";
import { replay, sideName } from "../game.js";
import { gettext, ngettext } from "../i18n.js";
import { notificationFrames } from "../socket.js";
import { escapeHtml, shownName } from "../text.js";
import { startFinished } from "./finished.js";

/** @typedef {import("../api.js").Json} Json */

const GAME_KINDS = ["your_turn", "game_over", "paired", "time_running_out", "challenge_accepted"];

/**
 * A 4×4 top view: each peg's beads bottom up as small bars, the last move ringed.
 * @param {string[]} moves
 * @returns {HTMLElement}
 */
export function miniBoard(moves) {
  const { stacks } = replay(moves);
  const last = moves.at(-1);
  const grid = document.createElement("div");
  grid.className = "mini-board";
  grid.setAttribute("role", "img");
  const label = ngettext("Board after %(n)s move", "Board after %(n)s moves", moves.length);
  grid.setAttribute("aria-label", last ? gettext("%(board)s, last %(peg)s", { board: label, peg: last }) : label);
  // Row 4 at the top, as the top view is drawn.
  for (let row = 4; row >= 1; row--) {
    for (const col of ["a", "b", "c", "d"]) {
      const peg = `${col}${row}`;
      const cell = document.createElement("span");
      cell.className = `mini-peg${peg === last ? " last" : ""}`;
      for (const colour of stacks[peg] || []) {
        const bead = document.createElement("i");
        bead.className = colour;
        cell.append(bead);
      }
      grid.append(cell);
    }
  }
  return grid;
}

/** @param {Json} item @param {boolean} mine */
function gameItem(item, mine) {
  const li = document.createElement("li");
  li.className = "my-game";
  const opp = item.opponent;
  const who = opp.cpu
    ? escapeHtml(opp.name)
    : `<a href="/players/${encodeURIComponent(opp.id)}">${escapeHtml(shownName(opp))}</a>`;
  const left = untilText(item.deadline, Date.now());
  const facts = [sideName(item.colour), timeControlText(item), gettext("move %(n)s", { n: item.ply + 1 })];
  if (item.last_move) facts.push(gettext("last %(peg)s", { peg: item.last_move }));
  if (left) facts.push(gettext("%(time)s left", { time: left }));
  li.innerHTML =
    `<div class="my-game-text"><a class="btn ${mine ? "primary" : "ghost"} small" href="/r/${encodeURIComponent(item.room)}">` +
    `${escapeHtml(mine ? gettext("Play") : gettext("Open"))}</a> <span>${gettext("vs %(who)s", { who })}</span>` +
    `<span class="muted small">${escapeHtml(facts.join(" · "))}</span></div>`;
  li.prepend(miniBoard(item.moves || []));
  return li;
}

async function load() {
  let games;
  try {
    games = await apiGet("/api/my/games");
  } catch (err) {
    $("#my-games-status").textContent = gettext("Could not load your games: %(error)s", { error: errorText(err) });
    return;
  }
  for (const [id, list, mine] of /** @type {const} */ ([
    ["#my-turn", "your_turn", true],
    ["#my-waiting", "waiting", false],
  ])) {
    const ul = $(id);
    ul.replaceChildren(...games[list].map((/** @type {Json} */ g) => gameItem(g, mine)));
    if (games[list].length === 0) ul.innerHTML = `<li class="muted small">${escapeHtml(gettext("None."))}</li>`;
  }
  $("#my-games-status").textContent = "";
}

if (typeof document !== "undefined" && document.getElementById("my-games")) {
  /** @type {() => Promise<void>} */
  let finished = async () => {};
  notificationFrames.addEventListener("notification", (ev) => {
    const kind = /** @type {CustomEvent} */ (ev).detail?.notification?.kind;
    if (GAME_KINDS.includes(kind)) load();
    if (kind === "game_over") finished();
  });
  setInterval(load, 60000);
  load();
  getSession()
    .then((session) => {
      finished = startFinished(session?.player?.id || null);
    })
    .catch(() => {
      finished = startFinished(null);
    });
}
