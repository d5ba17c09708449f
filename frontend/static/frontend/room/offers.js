// The room page's offers and Berserk: the buttons that offer a draw or ask for a takeback, the box that
// answers the opponent's offer, the note each offer frame makes, and the Berserk button of an arena game
// (sent on the arena's socket, as the arena page would). docs/protocol.md, "Offers".

import { apiGet } from "../api.js";
import { sendBerserk } from "../arena/socket.js";
import { $ } from "../dom.js";
import { seatColour } from "../game.js";
import { gettext } from "../i18n.js";
import { game, isPlaying, mySeat, seatName, seatOf } from "./state.js";

/** @typedef {import("./ctrl.js").RoomCtrl} RoomCtrl */
/** @typedef {import("./types.js").OfferFrame} OfferFrame */
/** @typedef {import("./state.js").RoomPageState} RoomPageState */

/** @type {Map<string, boolean>} whether each arena allows Berserk, by id (asked once per page) */
const berserkAllowed = new Map();

/**
 * Whether the viewer's own colour has moved yet in the game being played.
 * @param {RoomPageState} S
 */
function haveMoved(S) {
  const g = game(S);
  const me = mySeat(S);
  if (!g || me == null) return false;
  return g.ply > (seatColour(g, me) === "red" ? 0 : 1);
}

/** Draws the offer buttons, the answer box and the Berserk button. @param {RoomCtrl} ctrl */
export function renderOffers(ctrl) {
  const S = ctrl.S;
  const g = game(S);
  const me = mySeat(S);
  const playing = isPlaying(S) && me != null && !!g;
  const offers = (playing && g.offers) || [];
  const mine = (/** @type {string} */ kind) => offers.some((o) => o.kind === kind && o.seat === me);
  const theirs = offers.find((o) => o.seat !== me);
  const casual = !!g && !g.ranked && g.tournament == null;
  const draw = $("#offer-draw", HTMLButtonElement);
  draw.hidden = !playing;
  draw.disabled = mine("draw");
  draw.textContent = mine("draw") ? gettext("Draw offered") : gettext("Offer a draw");
  const takeback = $("#offer-takeback", HTMLButtonElement);
  takeback.hidden = !(playing && casual && haveMoved(S));
  takeback.disabled = mine("takeback");
  $("#offer-box").hidden = !theirs;
  if (theirs) {
    const who = seatName(seatOf(S, theirs.seat));
    $("#offer-text").textContent =
      theirs.kind === "draw"
        ? gettext("%(who)s offers a draw.", { who })
        : gettext("%(who)s asks to take their last move back.", { who });
    $("#offer-box").dataset.kind = theirs.kind;
  }
  renderBerserk(ctrl, playing);
}

/** @param {RoomCtrl} ctrl @param {boolean} playing */
function renderBerserk(ctrl, playing) {
  const S = ctrl.S;
  const g = game(S);
  const btn = $("#berserk", HTMLButtonElement);
  const arena = g?.tournament;
  const colour = g && mySeat(S) != null ? seatColour(g, mySeat(S)) : null;
  const on = !!(colour && g?.berserk?.[colour]);
  if (arena != null && !berserkAllowed.has(String(arena))) {
    berserkAllowed.set(String(arena), false);
    apiGet(`/api/tournaments/${arena}`)
      .then((a) => {
        berserkAllowed.set(String(arena), !!a.berserk);
        renderOffers(ctrl);
      })
      .catch(() => {});
  }
  const allowed = arena != null && berserkAllowed.get(String(arena)) && !!g?.deadline;
  btn.hidden = !(playing && allowed && (on || !haveMoved(S)));
  btn.disabled = on;
  btn.classList.toggle("on", on);
  btn.textContent = on ? gettext("🔥 Berserk") : gettext("🔥 Berserk (half your time)");
}

/**
 * What an offer frame says to the viewer ("" for their own actions, which their buttons show).
 * @param {RoomPageState} S
 * @param {OfferFrame} frame
 */
export function offerNote(S, frame) {
  if (frame.seat === mySeat(S)) return "";
  const who = seatName(seatOf(S, frame.seat));
  const draw = frame.kind === "draw";
  if (frame.action === "offer")
    return draw ? gettext("%(who)s offers a draw.", { who }) : gettext("%(who)s asks for a takeback.", { who });
  if (frame.action === "accept")
    return draw ? gettext("%(who)s accepted the draw.", { who }) : gettext("%(who)s accepted the takeback.", { who });
  return draw ? gettext("%(who)s declined the draw.", { who }) : gettext("%(who)s declined the takeback.", { who });
}

/** Wires the buttons to the room socket (and Berserk to the arena's). @param {RoomCtrl} ctrl */
export function bindOffers(ctrl) {
  const send = (/** @type {string} */ type, /** @type {string} */ action) => ctrl.sock.send({ type, action });
  $("#offer-draw").addEventListener("click", () => send("draw", "offer"));
  $("#offer-takeback").addEventListener("click", () => send("takeback", "offer"));
  const answer = (/** @type {string} */ action) => send($("#offer-box").dataset.kind || "draw", action);
  $("#offer-accept").addEventListener("click", () => answer("accept"));
  $("#offer-decline").addEventListener("click", () => answer("decline"));
  $("#berserk").addEventListener("click", () => berserk(ctrl));
}

/** Sends the arena socket's berserk frame for the game being played; the room frame that follows shows it. */
function berserk(/** @type {RoomCtrl} */ ctrl) {
  const g = game(ctrl.S);
  if (!g || g.tournament == null) return;
  sendBerserk(g.tournament, g.id, (message) => ctrl.say(message || gettext("Berserk was refused.")));
}
