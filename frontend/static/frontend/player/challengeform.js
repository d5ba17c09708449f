// The challenge form of a player's page: challenge an account (a person or a bot) with a turn timer,
// ranked or not and a colour; then wait for the answer and go to the game's room once it is accepted.
// POST /api/challenge/{username} (docs/bots.md). The answer comes on the page's player socket: the
// challenger's `challenge_accepted`, `challenge_declined` or `challenge_expired` notification (a cancel is
// this page's own). What the socket may have missed (before it joined the player's group, or while it
// reconnected) is read once with GET /api/challenge/{id}/show each time it is live again, and every
// SAFETY_POLL_MS while the challenge waits, in case the socket cannot connect at all.

import { ApiError, apiGet, apiPost, errorText, getSession, rememberedName, saveName } from "../api.js";
import { $ } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { notificationFrames } from "../socket.js";
import { shownName } from "../text.js";

/** @typedef {import("../api.js").Json} Json */

const SAFETY_POLL_MS = 15000;
// The notifications that answer the challenger (bots/challenges.py), each carrying the challenge.
const ANSWERS = new Set(["challenge_accepted", "challenge_declined", "challenge_expired"]);
/** @type {Record<string, string>} */
const DECLINED = {
  generic: gettext("%(name)s declined the challenge."),
  later: gettext("%(name)s cannot play now: try later."),
  rated: gettext("%(name)s plays rated games only."),
  casual: gettext("%(name)s plays casual games only."),
  timer: gettext("%(name)s does not play with this turn timer."),
};

/**
 * The challenge waiting for an answer, to whom, and its safety poll.
 * @type {{id: string, player: Json, timer: ReturnType<typeof setInterval> | undefined} | null}
 */
let waiting = null;

/** @param {string} text */
function say(text) {
  $("#challenge-status").textContent = text;
}

function idle() {
  if (waiting) clearInterval(waiting.timer);
  waiting = null;
  $("#challenge-send", HTMLButtonElement).disabled = false;
  $("#challenge-cancel").hidden = true;
}

/**
 * What the challenge has become, from a notification or the server's answer: to the room, or said and done.
 * @param {Json} challenge the challenge as docs/bots.md has it
 */
function settle(challenge) {
  if (!waiting || String(challenge?.id) !== waiting.id || challenge.status === "created") return;
  const player = waiting.player;
  if (challenge.status === "accepted" && challenge.room) {
    clearInterval(waiting.timer);
    say(gettext("Accepted: to the game…"));
    location.assign(`/r/${challenge.room}`);
    return;
  }
  say(
    challenge.status === "declined"
      ? interpolate(DECLINED[challenge.decline_reason] || DECLINED.generic, { name: shownName(player) })
      : challenge.status === "expired"
        ? gettext("The challenge expired unanswered.")
        : gettext("The challenge was canceled."),
  );
  idle();
}

/** Asks the server what became of the waiting challenge (what the socket may have missed). */
async function check() {
  if (!waiting) return;
  try {
    settle(await apiGet(`/api/challenge/${encodeURIComponent(waiting.id)}/show`));
  } catch (err) {
    if (!waiting) return;
    say(gettext("Could not follow the challenge: %(error)s", { error: errorText(err) }));
    idle();
  }
}

notificationFrames.addEventListener("notification", (ev) => {
  const note = /** @type {CustomEvent} */ (ev).detail?.notification;
  if (ANSWERS.has(note?.kind)) settle(note.data?.challenge);
});
notificationFrames.addEventListener("live", check);

/**
 * Shows the form on the page of an account that is not this device's, for `player` (GET /api/players/{id}).
 * @param {Json} player
 */
export async function mountChallenge(player) {
  if (!player.username) return;
  const session = await getSession().catch(() => null);
  if (session && session.player.id === player.id) return;
  $("#challenge-who").textContent = shownName(player);
  $("#challenge-no-timer").hidden = player.title === "BOT"; // a game with a bot needs a turn timer
  $("#challenge").hidden = false;
  $("#challenge").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (waiting) return;
    $("#challenge-send", HTMLButtonElement).disabled = true;
    const timer = $("#challenge-timer", HTMLSelectElement).value;
    const body = {
      turn_seconds: timer ? Number(timer) : null,
      ranked: $("#challenge-ranked", HTMLInputElement).checked,
      colour: $("#challenge-colour", HTMLSelectElement).value,
    };
    try {
      if (!(await getSession())) await saveName(rememberedName()); // a first visit: become a guest first
      const made = await apiPost(`/api/challenge/${encodeURIComponent(player.username)}`, body);
      waiting = { id: String(made.id), player, timer: setInterval(check, SAFETY_POLL_MS) };
      $("#challenge-cancel").hidden = false;
      say(gettext("Waiting for %(name)s to accept…", { name: shownName(player) }));
      check(); // answered already (a bot is quick; this page's socket may have joined after the answer)
    } catch (err) {
      say(
        err instanceof ApiError
          ? err.message
          : gettext("Could not send the challenge: %(error)s", { error: errorText(err) }),
      );
      idle();
    }
  });
  $("#challenge-cancel").addEventListener("click", async () => {
    if (!waiting) return;
    const id = waiting.id;
    idle();
    try {
      await apiPost(`/api/challenge/${encodeURIComponent(id)}/cancel`);
      say(gettext("Challenge canceled."));
    } catch (err) {
      say(errorText(err));
    }
  });
}
