// A player's page: rating, an SVG rating-history chart and recent games (each opens as a replay).

import { apiGet } from "./api.js";

const $ = (sel) => document.querySelector(sel);
const PLAYER = $("#player").dataset.player;
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** Draws [{at, rating}] as a line chart with its range labelled. */
export function drawChart(points) {
  const W = 640;
  const H = 220;
  const pad = { l: 46, r: 12, t: 12, b: 26 };
  const ratings = points.map((p) => p.rating);
  let lo = Math.min(...ratings);
  let hi = Math.max(...ratings);
  if (hi - lo < 50) {
    lo -= 25;
    hi += 25;
  }
  const x = (i) => pad.l + (points.length === 1 ? 0.5 : i / (points.length - 1)) * (W - pad.l - pad.r);
  const y = (r) => pad.t + (1 - (r - lo) / (hi - lo)) * (H - pad.t - pad.b);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "Rating over time" });
  for (const r of [lo, (lo + hi) / 2, hi]) {
    root.appendChild(svg("line", { x1: pad.l, x2: W - pad.r, y1: y(r), y2: y(r), stroke: "#e5e0d8" }));
    const t = svg("text", { x: pad.l - 6, y: y(r) + 4, "text-anchor": "end", "font-size": 12, fill: "#6b7684" });
    t.textContent = String(Math.round(r));
    root.appendChild(t);
  }
  const d = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  root.appendChild(svg("path", { d, fill: "none", stroke: "#d62839", "stroke-width": 2.5, "stroke-linejoin": "round" }));
  points.forEach((p, i) => {
    const c = svg("circle", { cx: x(i), cy: y(p.rating), r: 3.2, fill: "#d62839" });
    const title = svg("title", {});
    title.textContent = `${Math.round(p.rating)}${p.at ? ` · ${new Date(p.at).toLocaleDateString()}` : ""}`;
    c.appendChild(title);
    root.appendChild(c);
  });
  return root;
}

function gameLine(g) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = `/games/${encodeURIComponent(g.id ?? g.game ?? g.game_id)}`;
  a.className = "btn ghost small";
  a.textContent = "Replay";
  const opp = g.opponent ? g.opponent.name || g.opponent : null;
  const result = g.result || g.outcome || g.status || "";
  const when = g.finished_at || g.at || g.started_at;
  const text = document.createElement("span");
  text.textContent = [result && String(result), opp && `vs ${opp}`, when && new Date(when).toLocaleString()]
    .filter(Boolean)
    .join(" · ");
  const delta = g.rating_change ?? g.delta;
  li.append(a, text);
  if (delta != null) {
    const d = document.createElement("span");
    d.className = "muted small";
    d.textContent = `${delta >= 0 ? "+" : ""}${Math.round(delta)}`;
    li.appendChild(d);
  }
  return li;
}

async function load() {
  let data;
  try {
    data = await apiGet(`/api/players/${encodeURIComponent(PLAYER)}`);
  } catch (err) {
    $("#player-status").textContent =
      err.status === 404 ? "Ratings are coming soon: this page will show rating history and recent games." : err.message;
    return;
  }
  const player = data.player || data;
  $("#player-name").textContent = player.name || "Player";
  document.title = `${player.name || "Player"} · 3D Four in a Row`;
  $("#player-status").textContent = "";
  const rating = data.rating ?? player.rating;
  if (rating != null) {
    const rd = data.rd ?? data.deviation;
    $("#player-rating").textContent = `${Math.round(rating)}${rd != null ? ` ± ${Math.round(2 * rd)}` : ""}`;
  }
  const history = (data.history || data.rating_history || [])
    .map((h) => ({ at: h.at || h.date || h.played_at, rating: Number(h.rating ?? h.value) }))
    .filter((h) => Number.isFinite(h.rating));
  if (history.length) {
    $("#chart").appendChild(drawChart(history));
    $("#chart-fig").hidden = false;
  }
  const games = data.recent_games || data.games || [];
  $("#recent-h").hidden = games.length === 0;
  for (const g of games) $("#recent").appendChild(gameLine(g));
}

load();
