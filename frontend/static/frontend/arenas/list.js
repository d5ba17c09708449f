// The arenas list of the home page and of the arenas page (arenas/main.js): those running now and starting
// soon (refreshed every 20 s), and the form that creates one (an account, at most three a day; the server
// says why when it refuses).

import { ApiError, apiGet, apiPost } from "../api.js";
import { $ } from "../dom.js";
import { formatDate, gettext, ngettext } from "../i18n.js";
import { escapeHtml } from "../text.js";

/** @typedef {import("../api.js").Json} Json */
/**
 * @typedef {HTMLFormElement & {starts_in: HTMLSelectElement, arena_name: HTMLInputElement,
 *   minutes: HTMLSelectElement, turn_seconds: HTMLSelectElement, ranked: HTMLInputElement,
 *   berserk: HTMLInputElement}} ArenaForm the new arena's form (home.html)
 */
const REFRESH = 20000;

/** @param {Json} a an arena */
function when(a) {
  if (a.status === "started")
    return gettext("running · ends %(time)s", { time: formatDate(a.ends_at, { hour: "2-digit", minute: "2-digit" }) });
  const start = formatDate(a.starts_at, { weekday: "short", hour: "2-digit", minute: "2-digit" });
  return gettext("starts %(time)s", { time: start });
}

/**
 * An arena as the lists show it: its name (a link to its page), when, its length, timer and players.
 * @param {Json} a
 */
export function arenaItem(a) {
  const at = a.status === "finished" ? gettext("ended %(time)s", { time: formatDate(a.ends_at) }) : when(a);
  return `<li><a href="/tournaments/${a.id}"><b>${escapeHtml(a.name)}</b></a>
        <span class="muted small">${escapeHtml(at)} · ${escapeHtml(details(a))}</span></li>`;
}

/** "45 min · 30 s · 12 players". @param {Json} a */
function details(a) {
  const minutes = gettext("%(minutes)s min", { minutes: a.minutes });
  const seconds = gettext("%(seconds)s s", { seconds: a.turn_seconds });
  return `${minutes} · ${seconds} · ${ngettext("%(n)s player", "%(n)s players", a.players)}`;
}

async function refresh() {
  try {
    const page = await apiGet("/api/tournaments?limit=10");
    const shown = page.results.filter((/** @type {Json} */ a) => a.status !== "finished");
    $("#arenas").innerHTML = shown.map(arenaItem).join("");
    $("#arenas-empty").hidden = shown.length > 0;
  } catch {
    /* the next refresh tries again */
  }
}

/** The form that creates an arena (_arena_form.html): an account's, the server says why it refuses. */
export function bindArenaForm() {
  const form = /** @type {ArenaForm} */ ($("#arena-form", HTMLFormElement));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#arena-create-error").textContent = "";
    const starts =
      form.starts_in.value === "0" ? null : new Date(Date.now() + Number(form.starts_in.value) * 60000).toISOString();
    try {
      const arena = await apiPost("/api/tournaments", {
        name: form.arena_name.value,
        starts_at: starts,
        minutes: Number(form.minutes.value),
        turn_seconds: Number(form.turn_seconds.value),
        ranked: form.ranked.checked,
        berserk: form.berserk.checked,
      });
      location.assign(`/tournaments/${arena.id}`);
    } catch (err) {
      $("#arena-create-error").textContent =
        err instanceof ApiError ? err.message : gettext("The server could not be reached.");
    }
  });
}

/** The home page's arenas: those running and starting soon, refreshed, and the form. */
export function startArenas() {
  refresh();
  setInterval(refresh, REFRESH);
  bindArenaForm();
}
