// The page's own recent runs, per mode, kept on the device (the server keeps the runs and the best; this list
// is what this device played): each run's score, top tile and when, a closed run's replay one click away.
// And the player's best of each mode, as the server keeps it (their player page's `arcade` part).

import { apiGet, getSession } from "../api.js";
import { formatDate, formatNumber, gettext } from "../i18n.js";

/** @typedef {{id: string | null, score: number, top: number, at: number, local: boolean, done: boolean}} RecentRun */

const KEY = "arcade.recent.";
const KEEP = 5;

/** @param {string} modeId @returns {RecentRun[]} */
export function recentRuns(modeId) {
  try {
    const list = JSON.parse(localStorage.getItem(KEY + modeId) || "[]");
    return Array.isArray(list) ? list.filter((r) => r && typeof r.score === "number") : [];
  } catch {
    return [];
  }
}

/**
 * Puts the run first in its mode's list (the same run's entry replaced: a local run is one entry per page).
 * @param {string} modeId
 * @param {RecentRun} run
 */
export function rememberRun(modeId, run) {
  const same = (/** @type {RecentRun} */ r) => (run.id ? r.id === run.id : !r.id && r.local && !r.done);
  const list = [run, ...recentRuns(modeId).filter((r) => !same(r))].slice(0, KEEP);
  try {
    localStorage.setItem(KEY + modeId, JSON.stringify(list));
  } catch {
    /* private mode */
  }
}

/**
 * Draws the mode's recent runs into a list.
 * @param {HTMLElement} list
 * @param {string} modeId
 */
export function drawRecent(list, modeId) {
  const runs = recentRuns(modeId);
  list.replaceChildren(
    ...runs.map((run) => {
      const li = document.createElement("li");
      const text = gettext("%(score)s points · top tile %(top)s · %(when)s", {
        score: formatNumber(run.score),
        top: formatNumber(run.top),
        when: formatDate(run.at, { dateStyle: "short", timeStyle: "short" }),
      });
      li.append(text);
      if (run.local) li.append(` · ${gettext("local, not ranked")}`);
      else if (run.done && run.id) {
        const a = document.createElement("a");
        a.href = `/arcade/runs/${encodeURIComponent(run.id)}`;
        a.textContent = gettext("Replay");
        li.append(" · ", a);
      }
      return li;
    }),
  );
  /** @type {HTMLElement} */ (list.parentElement).hidden = runs.length === 0;
}

/**
 * The device's player's best run of each mode ({mode: {score, top_tile, run, date} | null}); none for a
 * device without a player, or without a network.
 * @returns {Promise<Record<string, import("../api.js").Json>>}
 */
export async function myBests() {
  try {
    const session = await getSession();
    if (!session) return {};
    const me = await apiGet(`/api/players/${encodeURIComponent(session.player.id)}`);
    return me?.arcade?.best || {};
  } catch {
    return {};
  }
}
