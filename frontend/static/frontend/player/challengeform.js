// The challenge form of a player's page: challenge an account (a person or a bot) with a turn timer,
// ranked or not and a colour; then wait for the answer and go to the game's room once it is accepted.
// POST /api/challenge/{username}, polled with GET /api/challenge/{id}/show (docs/bots.md).

import { ApiError, apiGet, apiPost, errorText, getSession, rememberedName, saveName } from "../api.js";
import { $ } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { shownName } from "../text.js";

/** @typedef {import("../api.js").Json} Json */

const POLL_MS = 1000;
/** @type {Record<string, string>} */
const DECLINED = {
  generic: gettext("%(name)s declined the challenge."),
  later: gettext("%(name)s cannot play now: try later."),
  rated: gettext("%(name)s plays rated games only."),
  casual: gettext("%(name)s plays casual games only."),
  timer: gettext("%(name)s does not play with this turn timer."),
};

/** @type {{id: string, timer: ReturnType<typeof setTimeout> | undefined} | null} the challenge waiting for an answer */
let waiting = null;

/** @param {string} text */
function say(text) {
  $("#challenge-status").textContent = text;
}

function idle() {
  if (waiting) clearTimeout(waiting.timer);
  waiting = null;
  $("#challenge-send", HTMLButtonElement).disabled = false;
  $("#challenge-cancel").hidden = true;
}

/** @param {Json} player */
async function poll(player) {
  if (!waiting) return;
  let challenge;
  try {
    challenge = await apiGet(`/api/challenge/${encodeURIComponent(waiting.id)}/show`);
  } catch (err) {
    say(gettext("Could not follow the challenge: %(error)s", { error: errorText(err) }));
    idle();
    return;
  }
  if (challenge.status === "accepted" && challenge.room) {
    say(gettext("Accepted: to the game…"));
    location.assign(`/r/${challenge.room}`);
    return;
  }
  if (challenge.status !== "created") {
    say(
      challenge.status === "declined"
        ? interpolate(DECLINED[challenge.decline_reason] || DECLINED.generic, { name: shownName(player) })
        : challenge.status === "expired"
          ? gettext("The challenge expired unanswered.")
          : gettext("The challenge was canceled."),
    );
    idle();
    return;
  }
  if (waiting) waiting.timer = setTimeout(() => poll(player), POLL_MS);
}

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
      waiting = { id: made.id, timer: undefined };
      $("#challenge-cancel").hidden = false;
      say(gettext("Waiting for %(name)s to accept…", { name: shownName(player) }));
      poll(player);
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
