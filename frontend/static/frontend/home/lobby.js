// The home page's lobby: "Play online" (quick pairing), the open games anyone may join, and the live
// games to watch. Everything arrives over the lobby socket; joining an open game is one REST call.

import { ApiError, apiPost } from "../api.js";
import { gridPlace } from "../board/topview.js";
import { rankedText, secondsAMove } from "../clock.js";
import { $ } from "../dom.js";
import { PEGS, replay, SIZE, sideName } from "../game.js";
import { gettext } from "../i18n.js";
import { escapeHtml, guestName } from "../text.js";
import { LobbySocket } from "./lobbysocket.js";

/** @typedef {import("../api.js").Json} Json */
/** @typedef {HTMLFormElement & {turn_seconds: HTMLSelectElement, ranked: HTMLInputElement}} OnlineForm */

/** "0:07", "1:23": minutes and seconds since `startedAt` (ms). @param {number} ms */
export function clockText(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** How long ago an ISO instant was, for "waiting 3 min". @param {string} iso @param {number} [now] */
export function agoText(iso, now = Date.now()) {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds) || seconds < 60) return gettext("just now");
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return gettext("%(minutes)s min", { minutes });
  return gettext("%(hours)s h", { hours: Math.floor(minutes / 60) });
}

/** @param {unknown} range [low, high] or null ends */
export function rangeText(range) {
  if (!Array.isArray(range) || range[0] == null || range[1] == null) return gettext("Any rating");
  return gettext("Ratings %(low)s–%(high)s", { low: range[0], high: range[1] });
}

/** @param {number | null} seconds */
function timerText(seconds) {
  return seconds ? secondsAMove(seconds) : gettext("no timer");
}

/**
 * A small top view of a position: 16 pegs, each with its beads bottom-up. Decorative (aria-hidden).
 * @param {string[] | null | undefined} moves
 */
export function miniBoard(moves) {
  const { stacks } = replay(moves || []);
  const board = document.createElement("div");
  board.className = "mini-board";
  board.setAttribute("aria-hidden", "true");
  for (const peg of PEGS) {
    const cell = document.createElement("span");
    cell.className = "mini-peg";
    const { gc, gr } = gridPlace(peg, 0);
    cell.style.gridColumn = String(gc + 1);
    cell.style.gridRow = String(gr + 1);
    const stack = stacks[peg] || [];
    for (let level = 0; level < SIZE; level++) {
      const dot = document.createElement("i");
      dot.className = `mini-dot ${stack[level] || ""}`.trim();
      cell.appendChild(dot);
    }
    board.appendChild(cell);
  }
  return board;
}

/**
 * @param {{ensurePlayer: () => Promise<boolean>, myPlayerId: () => string|null, playComputer: () => Promise<void>}} deps
 *   ensurePlayer gives the device a player if it has none (true when it had to: the socket reconnects).
 */
export function startLobby({ ensurePlayer, myPlayerId, playComputer }) {
  // rooms and games stay null until the socket first sends them.
  /**
   * @type {{wanted: {turnSeconds: number | null, ranked: boolean} | null, startedAt: number, range: unknown,
   *   rooms: Json[] | null, games: Json[] | null}}
   *   wanted: the seek this page keeps up; startedAt: when it began (ms)
   */
  const S = { wanted: null, startedAt: 0, range: null, rooms: null, games: null };
  /** @type {() => OnlineForm} */
  const onlineForm = () => /** @type {OnlineForm} */ ($("#online-form", HTMLFormElement));
  const sock = new LobbySocket({
    onOpen() {
      // A socket that dropped while seeking took its seek with it: seek again on the new one.
      if (S.wanted) sock.seek(S.wanted.turnSeconds, S.wanted.ranked);
    },
    onSeeking(frame) {
      S.range = frame.range;
      renderSeeking();
    },
    onPaired(frame) {
      S.wanted = null;
      $("#seek-range").textContent = gettext("Opponent found!");
      location.href = `/r/${encodeURIComponent(frame.code)}`;
    },
    onCancelled(frame) {
      const reason = frame.reason;
      if (reason === "expired" && S.wanted) {
        sock.seek(S.wanted.turnSeconds, S.wanted.ranked); // the page is here after all: keep looking
        return;
      }
      stopSeeking();
      if (reason === "timeout") {
        const time = clockText(Date.now() - S.startedAt);
        $("#seek-none-text").textContent = gettext("Nobody was free to play in %(time)s.", { time });
        $("#seek-none").hidden = false;
        $("#online-form").hidden = true;
      } else if (reason === "replaced") {
        showError("#online-error", gettext("You are looking for an opponent in another tab."));
      }
    },
    onOpenRooms(rooms) {
      S.rooms = rooms;
      renderOpenRooms();
    },
    onLiveGames(games) {
      S.games = games;
      renderLiveGames();
    },
    onError(frame) {
      if (frame.code === "no_player" || frame.code === "already_seeking") {
        if (frame.code === "no_player") stopSeeking();
        showError("#online-error", frame.message);
      }
    },
  });
  sock.connect();

  /** @param {string} sel @param {unknown} err */
  function showError(sel, err) {
    $(sel).textContent = err ? (err instanceof Error && err.message) || String(err) : "";
  }

  // ---- play online ------------------------------------------------------------------------------

  /** @param {number | null} turnSeconds @param {boolean} ranked */
  async function playOnline(turnSeconds, ranked) {
    showError("#online-error", null);
    const button = $("#play-online", HTMLButtonElement);
    button.disabled = true;
    try {
      const changed = await ensurePlayer();
      if (changed) await sock.reconnectNow();
      else await sock.whenOpen();
      S.wanted = { turnSeconds, ranked };
      S.startedAt = Date.now();
      S.range = null;
      $("#online-form").hidden = true;
      $("#seek-none").hidden = true;
      $("#seeking").hidden = false;
      renderSeeking();
      sock.seek(turnSeconds, ranked);
      $("#seek-cancel").focus();
    } catch (err) {
      stopSeeking();
      showError("#online-error", err);
    } finally {
      button.disabled = false;
    }
  }

  function stopSeeking() {
    S.wanted = null;
    $("#seeking").hidden = true;
    $("#online-form").hidden = false;
  }

  function renderSeeking() {
    if (!S.wanted) return;
    $("#seek-clock").textContent = clockText(Date.now() - S.startedAt);
    $("#seek-range").textContent = S.range ? rangeText(S.range) : "";
  }

  onlineForm().addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = onlineForm();
    playOnline(f.turn_seconds.value ? Number(f.turn_seconds.value) : null, f.ranked.checked);
  });
  $("#seek-cancel").addEventListener("click", () => {
    stopSeeking();
    sock.cancel();
    $("#play-online").focus();
  });
  $("#seek-again").addEventListener("click", () => {
    const f = onlineForm();
    playOnline(f.turn_seconds.value ? Number(f.turn_seconds.value) : null, f.ranked.checked);
  });
  const seekCpu = $("#seek-cpu", HTMLButtonElement);
  seekCpu.addEventListener("click", async () => {
    seekCpu.disabled = true;
    try {
      await playComputer();
    } catch (err) {
      showError("#online-error", err);
      seekCpu.disabled = false;
    }
  });

  // ---- open games -------------------------------------------------------------------------------

  function renderOpenRooms() {
    const list = $("#open-rooms");
    list.innerHTML = "";
    const me = myPlayerId();
    for (const room of S.rooms || []) {
      const li = document.createElement("li");
      li.className = "lobby-item";
      const name = room.host?.name ? room.host.name : guestName();
      const rating = room.rating?.display ? room.rating.display : "";
      li.innerHTML =
        `<span class="lobby-who"><b>${escapeHtml(name)}</b> <span class="lobby-rating">${escapeHtml(rating)}</span></span>` +
        `<span class="lobby-meta muted small">${escapeHtml(timerText(room.turn_seconds))} · ${escapeHtml(rankedText(room.ranked))}` +
        ` · ${gettext("waiting %(time)s", { time: `<span class="ago" data-since="${escapeHtml(room.since)}">${escapeHtml(agoText(room.since))}</span>` })}</span>`;
      const mine = me && room.host && room.host.id === me;
      const button = document.createElement("button");
      button.type = "button";
      button.className = `btn small ${mine ? "ghost" : "primary"}`;
      button.textContent = mine ? gettext("Your room") : gettext("Join");
      button.setAttribute(
        "aria-label",
        mine ? gettext("Your open room %(code)s", { code: room.code }) : gettext("Join %(name)s's game", { name }),
      );
      button.addEventListener("click", () => join(room.code, button));
      li.appendChild(button);
      list.appendChild(li);
    }
    $("#open-empty").hidden = !S.rooms || S.rooms.length > 0;
  }

  /** @param {string} code @param {HTMLButtonElement} button */
  async function join(code, button) {
    showError("#open-error", null);
    button.disabled = true;
    try {
      await ensurePlayer();
      await apiPost(`/api/rooms/${encodeURIComponent(code)}/seat`);
      location.href = `/r/${encodeURIComponent(code)}`;
    } catch (err) {
      const taken = err instanceof ApiError && (err.code === "seat_taken" || err.code === "no_room");
      showError("#open-error", taken ? gettext("Someone took that seat first: try another game.") : err);
      button.disabled = false;
    }
  }

  // ---- live games -------------------------------------------------------------------------------

  /** @param {Json} entry @param {"red" | "yellow"} colour */
  function side(entry, colour) {
    const name = entry?.player ? entry.player.name : guestName();
    const rating = entry?.rating ? entry.rating.display : "";
    return `<span class="live-side"><i class="bead ${colour}"></i><b>${escapeHtml(name)}</b> <span class="lobby-rating">${escapeHtml(rating)}</span></span>`;
  }

  function renderLiveGames() {
    const list = $("#live-games");
    list.innerHTML = "";
    for (const game of S.games || []) {
      const li = document.createElement("li");
      li.className = "live-item";
      li.appendChild(miniBoard(game.moves));
      const text = document.createElement("div");
      text.className = "live-text";
      text.innerHTML =
        `<div class="live-players">${side(game.red, "red")} <span class="muted">${gettext("vs")}</span> ${side(game.yellow, "yellow")}</div>` +
        `<div class="muted small">${escapeHtml(gettext("move %(n)s", { n: game.ply + 1 }))} · ${escapeHtml(timerText(game.turn_seconds))} · ${escapeHtml(rankedText(game.ranked))}</div>`;
      const watch = document.createElement("a");
      watch.className = "btn small ghost";
      watch.href = `/r/${encodeURIComponent(game.code)}`;
      watch.textContent = gettext("Watch");
      const red = game.red?.player ? game.red.player.name : sideName("red");
      const yellow = game.yellow?.player ? game.yellow.player.name : sideName("yellow");
      watch.setAttribute("aria-label", gettext("Watch %(red)s vs %(yellow)s", { red, yellow }));
      text.appendChild(watch);
      li.appendChild(text);
      list.appendChild(li);
    }
    $("#live-empty").hidden = !S.games || S.games.length > 0;
  }

  setInterval(() => {
    renderSeeking();
    for (const span of document.querySelectorAll("#open-rooms .ago")) {
      if (span instanceof HTMLElement) span.textContent = agoText(span.dataset.since || "");
    }
  }, 1000);

  // For the browser tests and curious developers.
  window.__lobby = {
    get state() {
      return { seeking: !!S.wanted, range: S.range, rooms: S.rooms, games: S.games };
    },
    socket: sock,
  };

  return {
    /** The device's player changed (logged in or out): the socket must say so to the server. */
    reconnect() {
      S.wanted = null;
      stopSeeking();
      return sock.reconnectNow();
    },
    rerender() {
      renderOpenRooms();
    },
  };
}
