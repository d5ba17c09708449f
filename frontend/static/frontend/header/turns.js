// The header's "My games" count: the games whose turn is yours (GET /api/my/games), read once on every
// page that has a player and again when a notification about a game arrives.

import { apiGet } from "../api.js";
import { ngettext } from "../i18n.js";
import { notificationFrames } from "../socket.js";

const KINDS = ["your_turn", "game_over", "paired", "challenge_accepted"];

async function refresh() {
  const badge = document.getElementById("my-turns");
  if (!badge) return;
  try {
    const games = await apiGet("/api/my/games");
    const turns = games.your_turn.length;
    badge.textContent = String(turns);
    badge.hidden = turns === 0;
    badge.setAttribute("aria-label", ngettext("your turn in %(n)s game", "your turn in %(n)s games", turns));
  } catch {
    badge.hidden = true; // the count is a hint: a failed read shows none
  }
}

notificationFrames.addEventListener("notification", (ev) => {
  const kind = /** @type {CustomEvent} */ (ev).detail?.notification?.kind;
  if (KINDS.includes(kind)) refresh();
});
refresh();
