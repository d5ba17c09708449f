// Leaderboard: GET /api/ratings?limit=&offset=. Until the ratings API exists the page says so.

import { apiGet } from "./api.js";

const $ = (sel) => document.querySelector(sel);
const LIMIT = 25;
let offset = Math.max(0, Number(new URLSearchParams(location.search).get("offset")) || 0);

function rowsOf(data) {
  if (Array.isArray(data)) return data;
  return (data && (data.results || data.players || data.items || data.ratings)) || [];
}

async function load() {
  const status = $("#board-status");
  const table = $("#leaderboard");
  let data;
  try {
    data = await apiGet(`/api/ratings?limit=${LIMIT}&offset=${offset}`);
  } catch (err) {
    status.textContent = err.status === 404 ? "Ratings are coming soon." : `Could not load the leaderboard: ${err.message}`;
    table.hidden = true;
    return;
  }
  const rows = rowsOf(data);
  const tbody = table.querySelector("tbody");
  tbody.innerHTML = "";
  rows.forEach((row, i) => {
    const player = row.player || row;
    const tr = document.createElement("tr");
    const rank = row.rank ?? offset + i + 1;
    const rating = row.rating ?? player.rating;
    const games = row.games ?? row.games_played ?? player.games ?? "";
    const cells = [String(rank), null, rating != null ? String(Math.round(rating)) : "–", String(games)];
    cells.forEach((text, c) => {
      const td = document.createElement("td");
      if (c === 1) {
        const a = document.createElement("a");
        a.href = `/players/${encodeURIComponent(player.id ?? row.id)}`;
        a.textContent = player.name || row.name || "Guest";
        td.appendChild(a);
      } else {
        td.textContent = text;
        if (c !== 1) td.className = "num";
      }
      tr.appendChild(td);
    });
    tbody.appendChild(tr);
  });
  table.hidden = rows.length === 0;
  status.textContent = rows.length ? "" : "No rated players yet: ranked games between two people count.";
  const total = data && (data.count ?? data.total);
  $("#prev").hidden = offset === 0;
  $("#next").hidden = total != null ? offset + LIMIT >= total : rows.length < LIMIT;
}

function go(delta) {
  offset = Math.max(0, offset + delta);
  history.replaceState(null, "", offset ? `?offset=${offset}` : location.pathname);
  load();
}

$("#prev").addEventListener("click", () => go(-LIMIT));
$("#next").addEventListener("click", () => go(LIMIT));
load();
