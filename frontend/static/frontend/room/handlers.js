// The room socket's handlers: what the page does with each frame the room socket hands it (room/socket.js
// has already put room and move frames in order) and with each change of the connection.

import { $ } from "../dom.js";
import { gettext, interpolate, ngettext } from "../i18n.js";
import { rememberRoom } from "../recent.js";
import { playSound } from "../sounds.js";
import { errorOutcome } from "./errors.js";
import { offerNote } from "./offers.js";
import { roomSound } from "./sounds.js";
import { isMyTurn, receiveRoom, seatName, seatOf } from "./state.js";

/** @typedef {import("./ctrl.js").RoomCtrl} RoomCtrl */
/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").ErrorFrame} ErrorFrame */
/** @typedef {import("./types.js").NoticeFrame} NoticeFrame */
/** @typedef {import("./types.js").OfferFrame} OfferFrame */

/** @type {Record<string, string>} */
const STATUS_TEXT = {
  connecting: gettext("Connecting…"),
  open: gettext("Connected"),
  reconnecting: gettext("Reconnecting…"),
  gone: gettext("This room does not exist."),
  closed: gettext("This room is closed."),
  banned: gettext("Banned by a moderator."),
};

/** @type {Record<number, string>} */
const GONE_TEXT = {
  4410: gettext("<b>This room is closed.</b>"),
  4403: gettext("<b>This player is banned by a moderator:</b> it cannot play or watch here."),
};

/**
 * The page's answer to each of the room socket's frames and states.
 * @param {RoomCtrl} ctrl
 * @param {import("./chat.js").RoomChat} chat
 */
export function socketHandlers(ctrl, chat) {
  return {
    /** @param {Room} frame */
    onRoom(frame) {
      const prev = ctrl.S.room;
      const { remember, newGame } = receiveRoom(ctrl.S, frame);
      if (remember) rememberRoom(ctrl.code);
      const sound = roomSound(prev, frame);
      if (sound) playSound(sound);
      if (frame.taken_back) {
        const n = frame.taken_back;
        ctrl.say(ngettext("One move was taken back.", "%(n)s moves were taken back.", n), "info");
      }
      ctrl.render();
      ctrl.playPremove();
      chat.setRoom(frame);
      if (newGame) showTurn();
      ctrl.maybeAutostart();
    },

    /** @param {ErrorFrame} frame */
    onError(frame) {
      if (chat.claimError(frame)) return; // the answer to a chat message: shown in the chat
      const S = ctrl.S;
      const pendingPeg = S.pendingPly != null ? S.pendingPeg : null;
      const outcome = errorOutcome(frame, pendingPeg);
      // The server changed nothing: whatever was in flight is over, and the board takes taps again.
      S.pendingPly = null;
      if (outcome.cross) ctrl.showCross(outcome.cross);
      if (outcome.select && isMyTurn(S)) S.selected = outcome.select;
      ctrl.say(outcome.text, outcome.kind);
      ctrl.render();
    },

    /** @param {NoticeFrame} frame */
    onNotice(frame) {
      const seat = seatOf(ctrl.S, frame.seat);
      const who = seat ? seatName(seat) : gettext("Seat %(seat)s", { seat: frame.seat });
      /** @type {Record<string, string>} */
      const texts = {
        timeout: gettext("Time ran out: the computer moved for %(who)s."),
        away: gettext("%(who)s is away: the computer stands in."),
        back: gettext("%(who)s is back."),
      };
      if (texts[frame.code]) ctrl.say(interpolate(texts[frame.code], { who }), "info");
    },

    /** @param {OfferFrame} frame */
    onOffer(frame) {
      const note = offerNote(ctrl.S, frame);
      if (!note) return;
      ctrl.say(note, "info");
      if (frame.action === "offer") playSound("notify");
    },

    /** @param {string} state */
    onStatus(state) {
      // A drop sent on a connection that then died may never have arrived; the snapshot a new connection
      // brings shows it if it did, so the board must not stay locked waiting for it.
      if (state === "open") ctrl.S.pendingPly = null;
      const el = $("#conn");
      el.dataset.state = state;
      document.body.classList.toggle("is-reconnecting", state === "reconnecting");
      el.textContent = STATUS_TEXT[state] || state;
    },

    /** @param {number} code the close code after which reconnecting would not help */
    onGone(code) {
      const turn = $("#turn");
      const back = `<a href="/">${gettext("Back to the start")}</a>`;
      turn.innerHTML = `${GONE_TEXT[code] || gettext("<b>Room not found.</b>")} ${back}`;
      turn.dataset.gone = String(code || 4404);
    },

    /** @param {any} frame a chat frame (room/chat.js reads it) */
    onChat(frame) {
      chat.add(frame);
    },

    /** @param {any} frame a chat history frame */
    onChatHistory(frame) {
      chat.history(frame);
    },
  };
}

/** Brings the turn banner into view when it is not (a new game began while the page was scrolled). */
function showTurn() {
  const box = $("#turn").getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  $(".board-col").scrollIntoView({ block: "start" });
}
