// A player's page (GET /api/players/{id}): rating, record, an SVG rating-history chart (one point per
// rated game) and recent games, each opening as a replay.

import { ApiError, apiGet, errorText } from "../api.js";
import { $ } from "../dom.js";
import { puzzleRecord } from "../game.js";
import { formatDate, formatNumber, gettext, ngettext } from "../i18n.js";
import { mountReport } from "../report.js";
import { provisionalNote, ratingTitle, shownName, signedPoints } from "../text.js";
import { mountChallenge } from "./challengeform.js";
import { mountFollow } from "./follow.js";
import "./games.js"; // the list of every game played

/** @typedef {import("../api.js").Json} Json */
/** @typedef {{at?: string, rating: number, rd: number}} HistoryPoint */

const PLAYER = $("#player").dataset.player || "";
const SVG = "http://www.w3.org/2000/svg";
/** @type {Record<string, string>} */
const RESULT_TEXT = { win: gettext("Win"), draw: gettext("Draw"), loss: gettext("Loss") };

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 */
function svg(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text != null) el.textContent = text;
  return el;
}

/** @param {string | undefined} at */
function shortDate(at) {
  return formatDate(at, { day: "numeric", month: "short" });
}

/** A nice step for gridlines spanning `range` rating points in about four steps. @param {number} range */
function gridStep(range) {
  for (const step of [10, 25, 50, 100, 200, 250, 500]) if (range / step <= 5) return step;
  return 1000;
}

/**
 * Draws history points [{at, rating, rd}] (oldest first) as a line with a band of ±RD.
 * One point sits in the middle; the range always spans at least 100 points so small moves stay small.
 * @param {HistoryPoint[]} points
 */
export function drawChart(points) {
  const W = 680;
  const H = 240;
  const pad = { l: 48, r: 16, t: 14, b: 30 };
  const lows = points.map((p) => p.rating - (p.rd || 0));
  const highs = points.map((p) => p.rating + (p.rd || 0));
  const ratings = points.map((p) => p.rating);
  let lo = Math.min(...ratings, ...lows.map((v, i) => Math.max(v, ratings[i] - 150)));
  let hi = Math.max(...ratings, ...highs.map((v, i) => Math.min(v, ratings[i] + 150)));
  if (hi - lo < 100) {
    const mid = (hi + lo) / 2;
    lo = mid - 50;
    hi = mid + 50;
  }
  const step = gridStep(hi - lo);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const n = points.length;
  /** @type {(i: number) => number} */
  const x = (i) => pad.l + (n === 1 ? 0.5 : i / (n - 1)) * (W - pad.l - pad.r);
  /** @type {(r: number) => number} */
  const y = (r) => pad.t + (1 - (Math.min(hi, Math.max(lo, r)) - lo) / (hi - lo)) * (H - pad.t - pad.b);

  const last = points[n - 1];
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "rating-chart",
    role: "img",
    "data-points": n,
    "aria-label": ngettext(
      "Rating history: %(n)s rated game, now %(rating)s",
      "Rating history: %(n)s rated games, now %(rating)s",
      n,
      {
        rating: String(Math.round(last.rating)),
      },
    ),
  });
  for (let r = lo; r <= hi + 0.001; r += step) {
    root.appendChild(svg("line", { x1: pad.l, x2: W - pad.r, y1: y(r), y2: y(r), class: "grid" }));
    root.appendChild(svg("text", { x: pad.l - 8, y: y(r) + 4, "text-anchor": "end", class: "axis" }, String(r)));
  }
  // The uncertainty band: rating ± RD after each game.
  if (n > 1) {
    const top = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating + p.rd).toFixed(1)}`);
    const bottom = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating - p.rd).toFixed(1)}`).reverse();
    root.appendChild(svg("polygon", { points: [...top, ...bottom].join(" "), class: "band" }));
    const d = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
    root.appendChild(svg("path", { d, class: "line" }));
  } else {
    const p = points[0];
    const top = y(p.rating + p.rd);
    root.appendChild(
      svg("rect", { x: x(0) - 14, width: 28, y: top, height: y(p.rating - p.rd) - top, rx: 6, class: "band" }),
    );
  }
  points.forEach((p, i) => {
    const c = svg("circle", { cx: x(i), cy: y(p.rating), r: n > 30 ? 2.5 : 4.5, class: "pt", "data-rating": p.rating });
    c.appendChild(svg("title", {}, `${Math.round(p.rating)} ±${Math.round(p.rd)} · ${shortDate(p.at)}`));
    root.appendChild(c);
  });
  // Dates under the first and last points, and the latest value beside the last point.
  const baseY = H - 8;
  if (n === 1) {
    root.appendChild(svg("text", { x: x(0), y: baseY, "text-anchor": "middle", class: "axis" }, shortDate(last.at)));
  } else {
    root.appendChild(
      svg("text", { x: x(0), y: baseY, "text-anchor": "start", class: "axis" }, shortDate(points[0].at)),
    );
    root.appendChild(svg("text", { x: x(n - 1), y: baseY, "text-anchor": "end", class: "axis" }, shortDate(last.at)));
  }
  const labelRight = x(n - 1) < W - pad.r - 60;
  root.appendChild(
    svg(
      "text",
      {
        x: x(n - 1) + (labelRight ? 10 : -10),
        y: y(last.rating) - 10,
        "text-anchor": labelRight ? "start" : "end",
        class: "value",
      },
      String(Math.round(last.rating)),
    ),
  );
  return root;
}

/** @param {HTMLTableRowElement} tr @param {string} [className] */
function td(tr, className) {
  const el = document.createElement("td");
  if (className) el.className = className;
  tr.appendChild(el);
  return el;
}

/** @param {Json} g a recent game */
function gameRow(g) {
  const tr = document.createElement("tr");
  tr.dataset.game = g.id;
  const result = td(tr);
  const badge = document.createElement("span");
  const abandoned = g.status === "abandoned";
  badge.className = `result-badge ${g.result || (abandoned ? "abandoned" : "open")}`;
  badge.textContent = RESULT_TEXT[g.result] || (abandoned ? gettext("Abandoned") : gettext("In play"));
  if (abandoned) badge.title = gettext("The room closed before the game ended: no result, unrated.");
  result.appendChild(badge);

  const opp = td(tr, "opponent");
  if (g.opponent) {
    const a = document.createElement("a");
    a.href = `/players/${encodeURIComponent(g.opponent.id)}`;
    a.textContent = shownName(g.opponent);
    const [before, after = ""] = gettext("vs %(who)s").split("%(who)s");
    opp.append(before, a, after);
  } else {
    opp.textContent = g.opponent_cpu ? gettext("vs the computer") : "—";
  }

  const rating = td(tr, "num");
  if (g.rated && g.rating_change != null) {
    const change = document.createElement("b");
    const whole = Math.round(g.rating_change);
    change.className = `change ${whole > 0 ? "up" : whole < 0 ? "down" : ""}`;
    change.textContent = signedPoints(g.rating_change);
    const after = document.createElement("span");
    after.className = "muted small";
    after.textContent = ` → ${Math.round(g.rating_after)}`;
    rating.append(change, after);
  } else {
    rating.innerHTML = `<span class="muted small">${gettext("unrated")}</span>`;
  }

  const when = td(tr, "when muted small");
  if (g.finished_at) {
    const t = document.createElement("time");
    t.dateTime = g.finished_at;
    t.textContent = formatDate(g.finished_at);
    when.appendChild(t);
  }

  const a = document.createElement("a");
  a.href = `/games/${encodeURIComponent(g.id)}`;
  a.className = "btn ghost small replay";
  a.textContent = gettext("Replay");
  a.setAttribute(
    "aria-label",
    g.opponent ? gettext("Replay the game against %(name)s", { name: g.opponent.name }) : gettext("Replay the game"),
  );
  td(tr, "go").appendChild(a);
  return tr;
}

async function load() {
  let data;
  try {
    data = await apiGet(`/api/players/${encodeURIComponent(PLAYER)}`);
  } catch (err) {
    $("#player-status").textContent =
      err instanceof ApiError && err.status === 404 ? gettext("There is no such player.") : errorText(err);
    return;
  }
  const name = shownName(data);
  $("#player-name").textContent = name;
  document.title = gettext("%(name)s · 3D Four in a Row", { name });
  $("#player-kind").textContent =
    data.title === "BOT"
      ? gettext("Bot: an engine playing through the bot API")
      : data.account
        ? gettext("Registered player")
        : gettext("Guest player");
  mountChallenge(data);
  mountFollow(data);
  mountReport(data);
  $("#player-status").textContent = "";

  $("#player-rating").textContent = data.display;
  $("#player-rating").title = data.provisional ? provisionalNote() : "";
  $("#rating-note").textContent = data.provisional
    ? gettext("“?” = provisional: too few rated games to be sure yet")
    : ratingTitle(data);
  $("#player-rating-box").hidden = false;

  $("#rec-games").textContent = formatNumber(data.games);
  $("#rec-wins").textContent = formatNumber(data.wins);
  $("#rec-draws").textContent = formatNumber(data.draws);
  $("#rec-losses").textContent = formatNumber(data.losses);
  $("#record").hidden = false;
  if (data.puzzles) {
    $("#puzzle-rating").textContent = data.puzzles.rating.display;
    $("#puzzle-record").textContent = puzzleRecord(data.puzzles);
    $("#puzzles-line").hidden = false;
  }
  arcadeBests(data.arcade?.best || {});

  const history = (data.history || []).filter((/** @type {HistoryPoint} */ h) => Number.isFinite(h.rating));
  const chart = $("#chart");
  chart.replaceChildren();
  if (history.length) {
    chart.appendChild(drawChart(history));
  } else {
    const empty = document.createElement("p");
    empty.className = "chart-empty muted";
    empty.textContent = gettext(
      "No rated games yet. Ranked games between two people count; the chart starts with the first one.",
    );
    chart.appendChild(empty);
  }
  $("#chart-fig").hidden = false;

  const games = data.recent_games || [];
  $("#recent tbody").replaceChildren(...games.map(gameRow));
  $("#recent-box").hidden = games.length === 0;
}

load();

/**
 * Each arcade mode's best run of the player (their page's `arcade` part), a link to its replay.
 * @param {Record<string, Json | null>} best
 */
function arcadeBests(best) {
  const names = { classic: "2048", cube2: "3D 2×2×2", cube3: "3D 3×3×3", "cube3-hard": `3D 3×3×3 ${gettext("Hard")}` };
  const parts = Object.entries(names).flatMap(([mode, name]) => {
    const run = best[mode];
    if (!run) return [];
    const a = document.createElement("a");
    a.href = `/arcade/runs/${encodeURIComponent(run.run)}`;
    a.textContent = `${name} ${formatNumber(run.score)}`;
    return [a];
  });
  $("#arcade-bests").replaceChildren(...parts.flatMap((a, i) => (i ? [" · ", a] : [a])));
  $("#arcade-line").hidden = parts.length === 0;
}
