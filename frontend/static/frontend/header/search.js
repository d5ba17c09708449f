// The header's search box: the accounts whose username starts with what is typed (GET /api/players?q=),
// as links to their pages, BOT marked. Asks once per pause in typing; Enter opens the first match.

import { apiGet } from "../api.js";
import { $ } from "../dom.js";
import { gettext } from "../i18n.js";

/** @typedef {import("../api.js").Json} Json */

const PAUSE_MS = 200;

/**
 * One suggestion: a link to the player's page, "BOT" before a bot's name, the username after the name.
 * @param {Json} found {id, name, username, bot}
 */
export function suggestion(found) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = `/players/${encodeURIComponent(found.id)}`;
  a.className = "search-hit";
  if (found.bot) {
    const badge = document.createElement("span");
    badge.className = "bot-badge";
    badge.textContent = "BOT";
    a.append(badge, " ");
  }
  a.append(found.name);
  if (found.username && found.username !== found.name) {
    const user = document.createElement("span");
    user.className = "muted small";
    user.textContent = ` @${found.username}`;
    a.append(user);
  }
  li.appendChild(a);
  return li;
}

function mount() {
  const form = $("#player-search", HTMLFormElement);
  const input = $("#player-search-q", HTMLInputElement);
  const list = $("#player-search-results", HTMLUListElement);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let asked = 0;

  async function look() {
    const q = input.value.trim();
    const mine = ++asked;
    if (!q) {
      list.replaceChildren();
      list.hidden = true;
      return;
    }
    /** @type {Json[]} */
    let found = [];
    try {
      found = await apiGet(`/api/players?q=${encodeURIComponent(q)}`);
    } catch {
      found = []; // too many searches, or a blip: no suggestions this time
    }
    if (mine !== asked) return; // a later keystroke asked again
    list.replaceChildren(...found.map(suggestion));
    if (!found.length) {
      const none = document.createElement("li");
      none.className = "muted small search-none";
      none.textContent = gettext("No player by that name");
      list.appendChild(none);
    }
    list.hidden = false;
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(look, PAUSE_MS);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const first = list.querySelector("a");
    if (first instanceof HTMLAnchorElement) window.location.assign(first.href);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") list.hidden = true;
  });
  document.addEventListener("click", (event) => {
    if (!form.contains(/** @type {Node} */ (event.target))) list.hidden = true;
  });
}

mount();
