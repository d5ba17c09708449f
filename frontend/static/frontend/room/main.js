// The room page: wires the room's controller (room/ctrl.js) to the page. The state and what follows from
// it are room/state.js, the drawing room/view.js, the socket's frames room/handlers.js, the keys
// room/keyboard.js; the socket itself is room/socket.js.

import { getSession } from "../api.js";
import { mountBoard } from "../board/board3d.js";
import { TopView } from "../board/topview.js";
import { $ } from "../dom.js";
import { gettext } from "../i18n.js";
import { onPrefs } from "../prefs.js";
import { playSound } from "../sounds.js";
import { blindWanted, mountBlind } from "./blind.js";
import { RoomChat } from "./chat.js";
import { RoomCtrl } from "./ctrl.js";
import { socketHandlers } from "./handlers.js";
import { bindKeyboard } from "./keyboard.js";
import { bindOffers } from "./offers.js";
import { RoomSocket } from "./socket.js";
import { lowClock } from "./sounds.js";
import { renderTimer } from "./view.js";

const CODE = $("#room").dataset.code || "";

/** @param {string} peg */
const pick = (peg) => ctrl.pick(peg);
const topview = new TopView($("#topview"), { onSelect: pick });
// Blind mode (room/blind.js) reads the board out instead of drawing it.
const blind = blindWanted();
const board = blind ? null : mountBoard({ topview, onPick: pick });

// The socket's handlers need the controller and the chat, which both need the socket: the handlers are
// handed over once all three exist, before the socket connects.
const chat = new RoomChat($("#chat"), {
  send: (frame) => sock.send(frame),
  reconnect: () => sock.reconnectNow(),
});
const sock = new RoomSocket(CODE, {});
const ctrl = new RoomCtrl({
  code: CODE,
  autostart: new URLSearchParams(location.search).get("start") === "1",
  topview,
  board,
  sock,
});
sock.h = socketHandlers(ctrl, chat);
if (blind) mountBlind(ctrl);
sock.connect();

$("#share-link", HTMLInputElement).value = `${location.origin}/r/${CODE}`;
$("#copy-link").addEventListener("click", async () => {
  const input = $("#share-link", HTMLInputElement);
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand?.("copy");
  }
  $("#copy-link").textContent = gettext("Copied!");
  setTimeout(() => {
    $("#copy-link").textContent = gettext("Copy link");
  }, 1800);
});
$("#choose").addEventListener("click", () => ctrl.choose(ctrl.S.selected));
$("#start").addEventListener("click", () => sock.send({ type: "start" }));
$("#again").addEventListener("click", () => sock.send({ type: "again" }));
$("#resign").addEventListener("click", () => ctrl.resign());
$("#stand").addEventListener("click", () => sock.send({ type: "stand" }));
$("#sit").addEventListener("click", () => ctrl.sitDown());
$("#rules").addEventListener("change", () => ctrl.sendRules());
$("#show-threats").addEventListener("change", () => ctrl.render());
bindKeyboard(ctrl);
bindOffers(ctrl);
// A tap away from the board and the top view cancels a premove.
document.addEventListener("pointerdown", (ev) => {
  const target = /** @type {Element | null} */ (ev.target);
  if (!target?.closest("#board-wrap, #topview")) ctrl.cancelPremove();
});
onPrefs((p) => {
  $("#show-threats", HTMLInputElement).checked = p.show_threats;
  ctrl.render();
});

let ticked = ""; // the turn whose low-clock tick was played (game id and ply)
setInterval(() => {
  renderTimer(ctrl);
  const g = ctrl.S.room?.game;
  if (g && lowClock(ctrl.S.room, Date.now()) && ticked !== `${g.id}:${g.ply}`) {
    ticked = `${g.id}:${g.ply}`;
    playSound("clock");
  }
}, 250);

// A quick REST look lets the page show something before the socket answers (and the player's name).
getSession()
  .then((s) => {
    const input = $("#sit-name", HTMLInputElement);
    if (s?.player && !input.value) input.value = s.player.name || "";
  })
  .catch(() => {});

// For the browser tests and curious developers.
window.__room = {
  get state() {
    return ctrl.S.room;
  },
  get selected() {
    return ctrl.S.selected;
  },
  get premove() {
    return ctrl.S.premove;
  },
  board,
  socket: sock,
  chat,
};
