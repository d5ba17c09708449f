// Every page's notifications (docs/protocol.md, "Notifications"): the bell in the header (the unread count,
// the list, mark read), an incoming challenge's card with Accept / Decline, the challenger taken to the
// room once accepted, the count in a hidden tab's title and, with the person's permission, a browser
// notification for a challenge while the tab is hidden.
//
// The frames come on whatever socket the page has (socket.js hands every `notification` frame to
// `notificationFrames`): the room, lobby and arena pages' own; any other page opens the player socket
// (/ws/player/), so an idle page holds one socket.

import { apiGet, apiPost, getSession, sessionChanges } from "../api.js";
import { $ } from "../dom.js";
import { gettext } from "../i18n.js";
import { notificationFrames, ReconnectingSocket } from "../socket.js";
import { playSound } from "../sounds.js";
import * as bell from "./state.js";
import { drawBell, drawChallengeCard, drawNoticeCard, removeChallengeCard } from "./view.js";

/** @typedef {import("../api.js").Json} Json */

const PAGE = (document.body.className.match(/\bpage-(\S+)/) || [])[1] || "";
// The pages whose own socket carries the player's notifications.
const OWN_SOCKET = new Set(["home", "room", "arena"]);
const CLOSE_NO_PLAYER = 4404;

let state = bell.emptyBell();

/** The player socket of a page without one of its own: it only listens (socket.js dispatches its frames). */
class PlayerSocket extends ReconnectingSocket {
  constructor() {
    super("/ws/player/", null);
  }

  onOpened() {
    this.send({ type: "ping" }); // answered once the server has put the socket in the player's group
  }

  /** @param {Json} frame */
  onFrame(frame) {
    if (frame.type !== "pong") return;
    $("#bell").dataset.live = "true"; // notifications come live from now on (the browser tests wait for it)
    notificationFrames.dispatchEvent(new Event("live")); // e.g. the challenge form checks what it missed
    refresh(); // what came while the socket was (re)opening
  }

  /** @param {CloseEvent} event */
  onClosed(event) {
    delete $("#bell").dataset.live;
    return event.code === CLOSE_NO_PLAYER ? "stop" : undefined;
  }
}

function redraw() {
  drawBell(state, open);
  document.title = bell.tabTitle(document.title.replace(/^\(\d+\) /, ""), state.unread, document.hidden);
}

/** @param {number[] | null} ids null: all */
async function markRead(ids) {
  const answer = await apiPost("/api/notifications/read", ids === null ? { all: true } : { ids });
  state = bell.markRead(state, ids, Number(answer.unread) || 0);
  redraw();
}

/** @param {Json} note */
async function open(note) {
  if (!note.read) await markRead([note.id]).catch(() => undefined);
  if (note.kind === "challenge" && note.data?.challenge?.status === "created") showChallenge(note.data.challenge);
  else if (note.url) location.assign(note.url);
}

/** @param {Json} challenge */
function showChallenge(challenge) {
  drawChallengeCard(challenge, {
    async accept(id) {
      const answer = await apiPost(`/api/challenge/${encodeURIComponent(id)}/accept`);
      if (answer.room) location.assign(`/r/${answer.room}`);
    },
    async decline(id) {
      await apiPost(`/api/challenge/${encodeURIComponent(id)}/decline`, { reason: "generic" });
    },
  });
}

/** @param {Json} note */
function alertWhileHidden(note) {
  if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
  const shown = new Notification(gettext("3D Four in a Row"), { body: note.text, tag: `notification-${note.id}` });
  shown.onclick = () => window.focus();
}

/** @param {Json} frame a `notification` frame */
function receive(frame) {
  state = bell.receive(state, frame);
  redraw();
  const note = frame.notification;
  playSound("notify"); // a challenge or a notification (silent if the preferences or the browser say so)
  const challenge = note.data?.challenge;
  if (challenge && note.kind !== "challenge") removeChallengeCard(String(challenge.id));
  switch (bell.actionOf(note, PAGE)) {
    case "inbox":
      showChallenge(challenge);
      alertWhileHidden(note);
      break;
    case "go":
      if (!document.hidden) location.assign(note.url);
      else drawNoticeCard(note);
      break;
    default:
      drawNoticeCard(note);
  }
}

function wireHeader() {
  const button = $("#bell-button");
  const panel = $("#bell-panel");
  button.addEventListener("click", async () => {
    panel.hidden = !panel.hidden;
    button.setAttribute("aria-expanded", String(!panel.hidden));
    if (!panel.hidden) {
      state = bell.fromPage(await apiGet("/api/notifications").catch(() => ({ ...state, results: state.items })));
      redraw();
    }
  });
  $("#bell-read-all").addEventListener("click", () => markRead(null).catch(() => undefined));
  const allow = $("#bell-allow", HTMLButtonElement);
  allow.hidden = !("Notification" in window) || Notification.permission !== "default";
  allow.addEventListener("click", async () => {
    await Notification.requestPermission();
    allow.hidden = true;
  });
  document.addEventListener("visibilitychange", redraw);
}

/** The bell and the inbox as the server has them: the first page, and the challenges waiting for an answer. */
async function refresh() {
  const page = await apiGet("/api/notifications").catch(() => null);
  if (page) state = bell.fromPage(page);
  redraw();
  const open = await apiGet("/api/challenge").catch(() => null);
  for (const challenge of open?.in || []) showChallenge(challenge);
}

let started = false;

async function start() {
  const session = await getSession().catch(() => null);
  if (!session) {
    // No player yet: nothing to be told (the page opens no player socket) until the page makes one.
    sessionChanges.addEventListener("saved", start, { once: true });
    return;
  }
  if (started) return;
  started = true;
  $("#bell").hidden = false;
  wireHeader();
  notificationFrames.addEventListener("notification", (ev) => receive(/** @type {CustomEvent} */ (ev).detail));
  if (OWN_SOCKET.has(PAGE)) await refresh();
  else new PlayerSocket().connect(); // refreshes once in the player's group
}

start();
