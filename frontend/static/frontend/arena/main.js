// The arena page: the arena live on /ws/tournaments/{id}/ (whole state on each frame, at most twice a
// second), a countdown, the standings (flame for "on fire", your own row always visible), Join / Pause /
// Withdraw over REST, and into your room as soon as you are paired (the tab's title changes and a short
// tone plays when the page is in the background). The podium shows at the end.

import { ApiError, apiPost, getSession, rememberedName, saveName } from "../api.js";
import { rankedText, secondsAMove } from "../clock.js";
import { $ } from "../dom.js";
import { gettext, ngettext, pgettext } from "../i18n.js";
import { escapeHtml, guestName } from "../text.js";
import { ArenaSocket } from "./socket.js";

/** @typedef {import("../api.js").Json} Json */

const ARENA = Number($(".arena-head").dataset.arena);
/**
 * The page's state.
 * @type {{arena: Json | null, version: number, paired: Json | null, seenGame: string | null | undefined}}
 *   arena: the latest tournament frame (or REST answer); paired: the "paired" frame this page follows;
 *   seenGame: the viewer's game in the last state drawn (undefined before the first)
 */
const S = { arena: null, version: -1, paired: null, seenGame: undefined };

/** @param {number} ms */
function clock(ms) {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** @param {Json} r a standings row @param {boolean} mine */
function row(r, mine) {
  const flame = r.fire
    ? `<span class="fire" role="img" title="${escapeHtml(gettext("On fire: wins score double"))}" aria-label="${escapeHtml(gettext("on fire"))}">🔥</span>`
    : "";
  const state = r.withdrawn
    ? pgettext("arena player", "withdrawn")
    : r.paused
      ? pgettext("arena player", "paused")
      : "";
  const tags = [state, r.playing ? pgettext("arena player", "playing") : ""]
    .filter(Boolean)
    .map((t) => `<span class="tag">${t}</span>`)
    .join("");
  return `<tr class="${mine ? "mine" : ""}" data-player="${escapeHtml(r.player.id)}">
    <td>${r.rank}</td><td>${escapeHtml(r.player.name)}${flame}${tags}</td>
    <td class="num"><b>${r.score}</b></td><td class="num wide-only">${r.games}</td>
    <td class="num wide-only">${r.wins}/${r.draws}/${r.losses}</td>
    <td class="num wide-only">${r.performance ?? "–"}</td></tr>`;
}

function render() {
  const a = S.arena;
  if (!a) return;
  $("#arena-name").textContent = a.name;
  document.title = S.paired ? document.title : gettext("%(name)s · arena", { name: a.name });
  const rules = [
    ngettext("%(n)s minute", "%(n)s minutes", a.minutes),
    secondsAMove(a.turn_seconds),
    a.ranked ? gettext("rated") : rankedText(false),
  ];
  if (a.berserk) rules.push(gettext("berserk allowed"));
  $("#arena-rules").textContent = rules.join(" · ");
  $("#arena-players").textContent = `(${ngettext("%(n)s player", "%(n)s players", a.players)})`;
  const me = a.me;
  const mineId = me ? me.player.id : null;
  $("#standings-body").innerHTML = a.standings.map((/** @type {Json} */ r) => row(r, r.player.id === mineId)).join("");
  $("#standings-empty").hidden = a.standings.length > 0;
  const shown = mineId && a.standings.some((/** @type {Json} */ r) => r.player.id === mineId);
  $("#standings-me").hidden = !me || shown;
  $("#standings-me").innerHTML = me && !shown ? row(me, true) : "";
  const finished = a.status === "finished";
  const active = me && !me.withdrawn;
  $("#arena-join").hidden = finished || (active && !me.paused);
  $("#arena-join").textContent = me?.paused && !me.withdrawn ? gettext("Resume") : gettext("Join");
  $("#arena-pause").hidden = finished || !active || me.paused;
  $("#arena-withdraw").hidden = finished || !active;
  const game = me?.game;
  $("#arena-game").hidden = !game;
  if (game) $("#arena-game", HTMLAnchorElement).href = `/r/${game.code}`;
  // A game that started while this page was open: go, even if its "paired" frame was lost on the way.
  if (game && a.status !== "finished" && S.seenGame !== undefined && S.seenGame !== game.game) paired(game);
  S.seenGame = game ? game.game : null;
  $("#arena-status").textContent = finished
    ? gettext("The arena is over.")
    : !me || me.withdrawn
      ? gettext("Join to be paired: anyone free is paired again within a few seconds.")
      : me.paused
        ? gettext("Paused: you are not paired until you resume.")
        : game
          ? gettext("You are playing.")
          : a.status === "started"
            ? gettext("Waiting for an opponent…")
            : gettext("You are in: pairing starts with the arena.");
  const podium = $("#podium");
  podium.hidden = !a.podium;
  if (a.podium) {
    $("#podium-list").innerHTML = a.podium
      .map(
        (/** @type {Json} */ r) =>
          `<li><span class="place">${r.rank}</span>${escapeHtml(r.player.name)}<br>${ngettext("%(n)s points", "%(n)s points", r.score, { n: `<b>${r.score}</b>` })}</li>`,
      )
      .join("");
  }
  tick();
}

function tick() {
  const a = S.arena;
  if (!a) return;
  const now = Date.now();
  let phase;
  let left = "";
  if (a.status === "finished") phase = gettext("Finished");
  else if (now < Date.parse(a.starts_at)) {
    phase = gettext("Starts in");
    left = clock(Date.parse(a.starts_at) - now);
  } else if (now < Date.parse(a.ends_at)) {
    phase = gettext("Ends in");
    left = clock(Date.parse(a.ends_at) - now);
  } else phase = ngettext("Last games finishing (%(n)s left)", "Last games finishing (%(n)s left)", a.games_playing);
  $("#arena-phase").textContent = phase;
  $("#arena-countdown").textContent = left;
}

function chime() {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    osc.frequency.value = 880;
    osc.connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.15);
  } catch {
    /* no sound: the title says it */
  }
}

/** @param {Json} frame */
function paired(frame) {
  if (S.paired) return;
  S.paired = frame;
  document.title = gettext("▶ Your game! · %(arena)s", { arena: S.arena ? S.arena.name : gettext("arena") });
  if (document.hidden) chime();
  location.assign(`/r/${frame.code}`);
}

/** @param {Json} frame a frame of the arena socket */
function onFrame(frame) {
  if (frame.type === "tournament") {
    if (frame.version < S.version) return; // an older state from another server process
    S.version = frame.version;
    S.arena = frame;
    render();
  } else if (frame.type === "paired") paired(frame);
  else if (frame.type === "error") $("#arena-error").textContent = frame.message;
}

const sock = new ArenaSocket(ARENA, 20000, { onFrame });

/** @param {"join" | "pause" | "withdraw"} action */
async function act(action) {
  $("#arena-error").textContent = "";
  try {
    if (action === "join" && !(await getSession())) {
      await saveName(rememberedName() || guestName());
      sock.reconnectNow(); // the socket learns who we are
    }
    const body = await apiPost(`/api/tournaments/${ARENA}/${action}`);
    if (body.version >= S.version) {
      S.version = body.version;
      S.arena = body;
      render();
    }
  } catch (err) {
    $("#arena-error").textContent = err instanceof ApiError ? err.message : gettext("The server could not be reached.");
  }
}

$("#arena-join").addEventListener("click", () => act("join"));
$("#arena-pause").addEventListener("click", () => act("pause"));
$("#arena-withdraw").addEventListener("click", () => act("withdraw"));
setInterval(tick, 1000);
sock.connect();
