// The home page's "Friends": the accounts you follow who are online now, with Watch when they play
// (GET /api/my/following, read again every 20 s while the page is shown). Guests see nothing.

import { apiGet } from "../api.js";
import { $ } from "../dom.js";
import { gettext } from "../i18n.js";
import { escapeHtml } from "../text.js";

/** @typedef {import("../api.js").Json} Json */

const EVERY_MS = 20000;

/**
 * One online friend: their name (a link to their page), rating, and Watch when they play.
 * @param {Json} friend {player: {id, name, rating, bot}, online, playing}
 */
export function friendItem(friend) {
  const li = document.createElement("li");
  const p = friend.player;
  const bot = p.bot ? '<span class="bot-badge">BOT</span> ' : "";
  li.innerHTML =
    `<a href="/players/${encodeURIComponent(p.id)}">${bot}${escapeHtml(p.name)}</a>` +
    ` <span class="muted small">${escapeHtml(p.rating?.display || "")}</span>`;
  if (friend.playing) {
    const watch = document.createElement("a");
    watch.className = "btn ghost small";
    watch.href = `/r/${encodeURIComponent(friend.playing.room)}`;
    watch.textContent = gettext("Watch");
    li.append(" ", watch);
  }
  return li;
}

/** @param {boolean} signedIn whether the device is an account's (only accounts follow) */
export async function showFriends(signedIn) {
  const card = $("#friends");
  if (!signedIn) {
    card.hidden = true;
    return;
  }
  /** @type {Json[]} */
  let all;
  try {
    all = await apiGet("/api/my/following");
  } catch {
    return; // keep what is shown; the next round tries again
  }
  const online = all.filter((friend) => friend.online);
  $("#friends-list").replaceChildren(...online.map(friendItem));
  $("#friends-none").hidden = online.length > 0;
  $("#friends-none").textContent = all.length
    ? gettext("None of the players you follow is online.")
    : gettext("Follow players from their pages to see here when they are online.");
  card.hidden = false;
}

/** @param {() => boolean} signedIn */
export function startFriends(signedIn) {
  showFriends(signedIn());
  setInterval(() => {
    if (!document.hidden) showFriends(signedIn());
  }, EVERY_MS);
}
