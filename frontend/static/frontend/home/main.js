// Home: two clicks to a game. Play online (quick pairing), play the computer, create a party room, join by
// code or from the open games, watch a live game, continue a game.

import {
  ApiError,
  apiGet,
  apiPost,
  errorText,
  getSession,
  login,
  logout,
  register,
  rememberedName,
  rememberName,
  saveName,
} from "../api.js";
import { startArenas } from "../arenas/list.js";
import { TopView } from "../board/topview.js";
import { $ } from "../dom.js";
import { puzzleTask, replay } from "../game.js";
import { gettext } from "../i18n.js";
import { forgetRoom, recentRooms } from "../recent.js";
import { escapeHtml, guestName, provisionalNote } from "../text.js";
import { startCorrespondence } from "./correspondence.js";
import { startFriends } from "./friends.js";
import { startLobby } from "./lobby.js";

/** @typedef {import("../api.js").Json} Json */
/** @typedef {HTMLFormElement & {username: HTMLInputElement, password: HTMLInputElement}} AccountForm */
/**
 * @typedef {HTMLFormElement & {turn_seconds: HTMLSelectElement, days_per_move: HTMLSelectElement,
 *   alternate_first: HTMLInputElement,
 *   ranked: HTMLInputElement, open: HTMLInputElement}} PartyForm the party room's rules (_rules_fields.html)
 */

/** @type {Json} the device's session (api.js getSession), null while it has no player */
let session = null;

/**
 * @template {HTMLFormElement} T
 * @param {string} sel
 * @returns {T} the form, typed with its named fields
 */
function form(sel) {
  return /** @type {T} */ ($(sel, HTMLFormElement));
}

/** @param {string} sel @param {unknown} err */
function showError(sel, err) {
  $(sel).textContent = err ? (err instanceof Error && err.message) || String(err) : "";
}

/** The name field. */
function nameInput() {
  return $("#name-input", HTMLInputElement);
}

/** Saves the typed name first when it differs from the player's current one. */
async function syncName() {
  const typed = nameInput().value.trim();
  const current = session?.player ? session.player.name : null;
  if (typed && typed !== current) {
    session = { ...(session || {}), ...(await saveName(typed)) };
    rememberName(typed);
  }
  nameTyped = false;
}

/** Gives the device a player when it has none (named as typed); true when it had to. */
async function ensurePlayer() {
  const had = !!session?.player;
  await syncName();
  if (!session?.player) {
    const name = nameInput().value.trim() || rememberedName() || guestName();
    session = { ...(session || {}), ...(await saveName(name)) };
    rememberName(name);
  }
  renderMe();
  return !had;
}

/**
 * Creates a room and goes there (starting its first game at once with `start`).
 * @param {object} body
 * @param {{start: boolean}} opts
 */
async function createRoom(body, { start }) {
  await syncName();
  const room = await apiPost("/api/rooms", body);
  location.href = `/r/${encodeURIComponent(room.code)}${start ? "?start=1" : ""}`;
}

/** @param {HTMLButtonElement} button @param {boolean} on */
function busy(button, on) {
  button.disabled = on;
  button.setAttribute("aria-busy", on ? "true" : "false");
}

const cpuForm = form("#cpu-form");
cpuForm.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const btn = $("#play-cpu", HTMLButtonElement);
  busy(btn, true);
  showError("#home-error", null);
  try {
    const level = Number(new FormData(cpuForm).get("level") || 3);
    await createRoom({ cpu_level: level, ranked: false, turn_seconds: null }, { start: true });
  } catch (err) {
    showError("#home-error", err);
    busy(btn, false);
  }
});

/** @type {PartyForm} */
const partyForm = form("#party-form");
partyForm.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const btn = $("#create-room", HTMLButtonElement);
  busy(btn, true);
  showError("#home-error", null);
  const f = partyForm;
  try {
    await createRoom(
      {
        turn_seconds: f.turn_seconds.value ? Number(f.turn_seconds.value) : null,
        days_per_move: f.days_per_move.value ? Number(f.days_per_move.value) : null,
        alternate_first: f.alternate_first.checked,
        ranked: f.ranked.checked,
        open: f.open.checked,
      },
      { start: false },
    );
  } catch (err) {
    showError("#home-error", err);
    busy(btn, false);
  }
});

$("#join-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError("#join-error", null);
  let code = $("#join-code", HTMLInputElement).value.trim();
  const m = code.match(/\/r\/([A-Za-z0-9]+)/);
  if (m) code = m[1];
  code = code.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
  if (!code) {
    $("#join-error").textContent = gettext("Type the room code you were given.");
    return;
  }
  try {
    await apiGet(`/api/rooms/${encodeURIComponent(code)}`);
    await syncName();
    location.href = `/r/${code}`;
  } catch (err) {
    $("#join-error").textContent =
      err instanceof ApiError && err.status === 404
        ? gettext("No room has the code %(code)s.", { code })
        : errorText(err);
  }
});

$("#name-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  try {
    const name = nameInput().value.trim() || guestName();
    session = { ...(session || {}), ...(await saveName(name)) };
    rememberName(name);
    renderMe();
    $("#name-status").textContent = gettext("Saved.");
  } catch (err) {
    $("#name-status").textContent = errorText(err);
  }
});

/** @param {string} code @param {Json} room the room as GET /api/rooms/{code} has it */
function continueItem(code, room) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = `/r/${encodeURIComponent(code)}`;
  a.className = "btn primary";
  let detail = "";
  if (room?.game) {
    const g = room.game;
    const mine = room.you && g.to_move_seat === room.you.seat;
    const other = room.seats.find((/** @type {Json} */ s) => s.seat !== room.you?.seat);
    const vs = other ? (other.player ? other.player.name : gettext("the computer")) : "";
    const parts = [gettext("move %(n)s", { n: g.ply + 1 })];
    if (vs) parts.unshift(gettext("vs %(who)s", { who: vs }));
    if (mine) parts.push(gettext("your turn"));
    detail = parts.join(" · ");
  }
  a.textContent = gettext("Continue room %(code)s", { code });
  li.appendChild(a);
  if (detail) {
    const span = document.createElement("span");
    span.className = "muted small";
    span.textContent = ` ${detail}`;
    li.appendChild(span);
  }
  return li;
}

async function findRunningGames() {
  const codes = new Set();
  if (session && Array.isArray(session.rooms)) {
    for (const r of session.rooms) if (r.playing !== false) codes.add(r.code);
  }
  for (const r of recentRooms()) codes.add(r.code);
  /** @type {Array<[string, Json]>} */
  const found = [];
  await Promise.all(
    [...codes].map(async (code) => {
      try {
        const room = await apiGet(`/api/rooms/${encodeURIComponent(code)}`);
        const seated = room.you && room.you.seat != null;
        if (seated && room.game && room.game.status === "playing") found.push([code, room]);
      } catch (err) {
        if (err instanceof ApiError && (err.status === 404 || err.status === 410)) forgetRoom(code);
      }
    }),
  );
  const list = $("#continue-list");
  list.innerHTML = "";
  for (const [code, room] of found) list.appendChild(continueItem(code, room));
  $("#continue").hidden = found.length === 0;
}

// ---- you: name, rating, account ----------------------------------------------------------------

/** Whether the name field holds what the person typed since the page's last save of it (kept as typed). */
let nameTyped = false;
nameInput().addEventListener("input", () => {
  nameTyped = true;
});

function renderMe() {
  const player = session?.player;
  const input = nameInput();
  // A session that arrives after the person typed (a slow first answer) must not wipe what they typed.
  if (document.activeElement !== input && !nameTyped) input.value = player?.name || rememberedName() || "";
  const rating = session?.rating;
  const me = $("#me");
  me.hidden = !player;
  if (player) {
    const href = `/players/${encodeURIComponent(player.id)}`;
    const display = rating?.display ? rating.display : null;
    const title = rating?.provisional ? ` title="${escapeHtml(provisionalNote())}"` : "";
    const value = `<a class="rating-value" href="${href}"${title}>${escapeHtml(display)}</a>`;
    $("#my-rating").innerHTML = display
      ? `${gettext("Rating %(rating)s", { rating: value })} · <a href="${href}">${gettext("your games")}</a>`
      : `<a href="${href}">${gettext("Your games and rating")}</a>`;
    $("#my-account").textContent = session.username
      ? gettext("Signed in as %(username)s", { username: session.username })
      : gettext("Guest on this device");
  }
  const username = session?.username;
  $("#account-user").hidden = !username;
  $("#account-guest").hidden = !!username;
  $("#account-username").textContent = username || "";
}

async function reloadSession() {
  try {
    session = await getSession();
  } catch {
    session = null;
  }
  if (session?.player?.name) rememberName(session.player.name);
  renderMe();
}

/**
 * @param {HTMLFormElement} form
 * @param {HTMLButtonElement} button
 * @param {() => Promise<unknown>} action
 */
async function accountAction(form, button, action) {
  showError("#account-error", null);
  busy(button, true);
  try {
    await action();
    form.reset();
    await reloadSession();
    await lobby.reconnect(); // the lobby socket speaks for the device's (new) player
    lobby.rerender();
    await findRunningGames();
  } catch (err) {
    showError("#account-error", err);
  } finally {
    busy(button, false);
  }
}

/** @type {AccountForm} */
const registerForm = form("#register-form");
registerForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const f = registerForm;
  accountAction(f, $("#register", HTMLButtonElement), async () => {
    await syncName(); // the typed name becomes the account player's name
    await register(f.username.value.trim(), f.password.value);
  });
});

/** @type {AccountForm} */
const loginForm = form("#login-form");
loginForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const f = loginForm;
  accountAction(f, $("#login", HTMLButtonElement), () => login(f.username.value.trim(), f.password.value));
});

const logoutButton = $("#logout", HTMLButtonElement);
logoutButton.addEventListener("click", () => {
  accountAction(loginForm, logoutButton, logout);
});

const lobby = startLobby({
  ensurePlayer,
  myPlayerId: () => (session?.player ? session.player.id : null),
  playComputer: () => {
    /** @type {HTMLFormElement & {turn_seconds: HTMLSelectElement}} */
    const f = form("#online-form");
    const seconds = f.turn_seconds.value ? Number(f.turn_seconds.value) : null;
    return createRoom({ cpu_level: 3, ranked: false, turn_seconds: seconds }, { start: true });
  },
});

startArenas();

/** The daily puzzle (GET /api/puzzles/daily): its task, a top view of the position and a link to solve it. */
async function showDaily() {
  let puzzle;
  try {
    puzzle = await apiGet("/api/puzzles/daily");
  } catch {
    return; // no pool: the card stays hidden
  }
  $("#daily-task").textContent = puzzleTask(puzzle);
  $("#daily-rating").textContent = gettext("rating %(rating)s", { rating: String(puzzle.rating) });
  $("#daily-link", HTMLAnchorElement).href = `/puzzles/${encodeURIComponent(puzzle.id)}`;
  const { stacks, placed } = replay(puzzle.record ? puzzle.record.split(" ") : []);
  new TopView($("#daily-board")).update({ stacks, last: placed.at(-1) || null, readOnly: true });
  $("#daily").hidden = false;
}

async function init() {
  showDaily();
  await reloadSession();
  startFriends(() => !!session?.username);
  startCorrespondence(session);
  lobby.rerender();
  await findRunningGames();
}

init();
