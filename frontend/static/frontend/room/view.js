// The room page's view: draws the latest state (S.room and the page's own choices) into the 3D board, the
// top view, the turn banner, the result, the seats, the buttons, the house rules, the moves and the
// timer. It reads the state and changes nothing in it.

import { rememberedName } from "../api.js";
import { clockText } from "../clock.js";
import { $ } from "../dom.js";
import {
  abandonedText,
  colourWord,
  drawText,
  endText,
  levelName,
  replay,
  SIZE,
  seatColour,
  youPlayText,
} from "../game.js";
import { gettext, ngettext, pgettext } from "../i18n.js";
import { escapeHtml, provisionalNote, ratingTitle, signedPoints } from "../text.js";
import { renderOffers } from "./offers.js";
import {
  canSit,
  game,
  isClosed,
  isHost,
  isMyTurn,
  isPlaying,
  isWatching,
  moverColour,
  mySeat,
  position,
  seatName,
  seatOf,
} from "./state.js";

/** @typedef {import("./ctrl.js").RoomCtrl} RoomCtrl */
/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Seat} Seat */
/**
 * @typedef {HTMLFormElement & {turn_seconds: HTMLSelectElement, days_per_move: HTMLSelectElement,
 *   alternate_first: HTMLInputElement,
 *   ranked: HTMLInputElement, cpu_level: HTMLSelectElement, spectator_chat: HTMLInputElement,
 *   open: HTMLInputElement}} RulesForm the house rules' form (_rules_fields.html)
 */

/** The house rules' form. */
export function rulesForm() {
  return /** @type {RulesForm} */ ($("#rules", HTMLFormElement));
}

/** @param {RoomCtrl} ctrl */
export function render(ctrl) {
  if (!ctrl.S.room) return;
  renderBoard(ctrl);
  renderTopView(ctrl);
  renderTurn(ctrl);
  renderResult(ctrl);
  renderSeats(ctrl);
  renderControls(ctrl);
  renderRules(ctrl);
  renderMoves(ctrl);
  renderTimer(ctrl);
  renderOffers(ctrl);
}

/** The 3D board (a new bead falls when it is the next ply of the same game) and what sits around it. @param {RoomCtrl} ctrl */
function renderBoard(ctrl) {
  const { S, board } = ctrl;
  const pos = position(S);
  const g = game(S);
  const me = mySeat(S);
  const animate = !!g && g.id === S.lastGameId && pos.ply === S.lastPly + 1;
  if (board) {
    board.setPosition({ stacks: pos.stacks, last: pos.last, line: pos.line, animate });
    const ghostColour = isPlaying(S) ? (me != null ? seatColour(g, me) : moverColour(S)) : null;
    board.setGhost(S.selected ?? S.premove, ghostColour);
    const threatsOn = $("#show-threats", HTMLInputElement).checked && isPlaying(S) && g?.threats;
    board.setThreats(threatsOn ? g.threats : null);
  }
  S.lastGameId = g ? g.id : null;
  S.lastPly = pos.ply;
  const wrap = $("#board-wrap");
  wrap.dataset.turn = isPlaying(S) ? moverColour(S) || "" : "";
  wrap.classList.toggle("my-turn", isMyTurn(S));
  $("#threats-toggle").hidden = !(isPlaying(S) && g?.threats);
  const chooseBtn = $("#choose", HTMLButtonElement);
  const full = !!S.selected && (pos.stacks[S.selected] || []).length >= SIZE;
  // Only a seated player in a running game can choose; nobody else sees the button.
  chooseBtn.hidden = !(isPlaying(S) && !isWatching(S));
  chooseBtn.disabled = !(S.selected && isMyTurn(S) && !full);
  chooseBtn.textContent = S.selected ? gettext("Choose %(peg)s", { peg: S.selected }) : gettext("Choose a peg");
  $("#hint").textContent =
    isPlaying(S) && !isWatching(S)
      ? gettext("Drag to turn · tap a peg twice to drop")
      : gettext("Drag to turn the board");
}

/** @param {RoomCtrl} ctrl */
export function renderTopView(ctrl) {
  const { S } = ctrl;
  if (!S.room) return;
  const pos = position(S);
  const g = game(S);
  const me = mySeat(S);
  ctrl.topview.update({
    stacks: pos.stacks,
    last: pos.last,
    line: pos.line,
    selected: S.selected ?? S.premove,
    ghost: isPlaying(S) && me != null ? seatColour(g, me) : isPlaying(S) ? moverColour(S) : null,
    cross: S.cross,
    canMove: isMyTurn(S),
    readOnly: isWatching(S),
  });
}

const watchingTag = () => `<span class="watching">${gettext("You are watching")}</span>`;
const seatFree = () => gettext("A seat is free: <b>take it to play.</b>");
/** @param {string} code */
const roomTitle = (code) => gettext("Room %(code)s · 3D Four in a Row", { code });

/** The banner over the board: whose turn it is, or what the viewer waits for. @param {RoomCtrl} ctrl */
function renderTurn(ctrl) {
  const { S, code } = ctrl;
  const el = $("#turn");
  const g = game(S);
  el.className = "turn";
  el.hidden = false;
  const watching = isWatching(S);
  el.classList.toggle("watch", watching);
  if (!g) {
    if (isHost(S)) {
      // Until a friend sits down, the host's choice is between inviting one and playing the computer.
      el.innerHTML = `<span>${
        S.room?.seats.some((s) => !s.player)
          ? gettext("<b>Copy the link</b> for a friend to join, or press <b>Start</b> to play the computer.")
          : gettext("<b>Ready when you are.</b> Press <b>Start</b>.")
      }</span>`;
    } else if (watching) {
      el.innerHTML = `${watchingTag()}<span>${canSit(S) ? seatFree() : gettext("Waiting for the host to start.")}</span>`;
    } else {
      el.innerHTML = `<b>${gettext("Waiting for the host to start.")}</b>`;
    }
    document.title = roomTitle(code);
    return;
  }
  if (g.status !== "playing") {
    // The result banner says how it ended; a spectator still learns up front that they only watch.
    el.innerHTML = watching ? `${watchingTag()}<span>${canSit(S) ? seatFree() : gettext("Game over.")}</span>` : "";
    el.hidden = !watching;
    document.title = roomTitle(code);
    return;
  }
  const colour = moverColour(S) || "";
  const mover = seatOf(S, g.to_move_seat);
  el.classList.add(colour);
  if (isMyTurn(S)) {
    el.classList.add("mine");
    el.innerHTML = `<span class="bead ${colour}"></span><b>${gettext("Your turn")}</b> · ${youPlayText(colour)}`;
    document.title = gettext("● Your turn · Room %(code)s", { code });
  } else {
    const who = mover && (mover.cpu || mover.away) && !mover.player ? gettext("The computer") : seatName(mover);
    const name = `<b>${escapeHtml(who)}</b>`;
    const thinking =
      mover && (mover.cpu || mover.away)
        ? gettext("%(who)s is thinking…", { who: name })
        : gettext("%(who)s to move", { who: name });
    el.innerHTML =
      (watching ? watchingTag() : "") +
      `<span class="bead ${colour}"></span><span>${thinking} <span class="muted">(${colourWord(colour)})</span></span>`;
    document.title = roomTitle(code);
  }
}

/** The result banner once a game is over. @param {RoomCtrl} ctrl */
function renderResult(ctrl) {
  const { S } = ctrl;
  const el = $("#result");
  const g = game(S);
  if (!g || g.status === "playing") {
    el.hidden = true;
    return;
  }
  const me = mySeat(S);
  let head;
  let detail;
  if (g.status === "drawn") {
    head = gettext("Draw");
    detail = drawText(g.reason);
    el.dataset.outcome = "draw";
  } else if (g.status === "abandoned") {
    head = gettext("Abandoned");
    detail = abandonedText(g.reason);
    el.dataset.outcome = "abandoned";
  } else {
    const winnerColour = seatColour(g, g.winner_seat) || "";
    const winnerName = seatName(seatOf(S, g.winner_seat));
    if (me != null) head = g.winner_seat === me ? gettext("You win!") : gettext("You lose");
    else head = gettext("%(name)s wins", { name: escapeHtml(winnerName) });
    detail = endText(g.status === "resigned" ? "resignation" : g.reason, winnerColour);
    el.dataset.outcome = me == null ? "watch" : g.winner_seat === me ? "win" : "loss";
    el.dataset.colour = winnerColour;
  }
  el.innerHTML =
    `<strong>${head}</strong> <span>${detail}</span>${ratingMove(ctrl, g)}` +
    `<a class="replay-link" href="/games/${encodeURIComponent(g.id)}">${gettext("Replay")}</a>` +
    ` <a class="analyse-link" href="/analysis?${new URLSearchParams({ record: (g.moves || []).join(" ") })}">${gettext("Analyse")}</a>`;
  el.hidden = false;
}

/**
 * After a rated game: "Rating 1500? → 1662?" for the seated viewer (both values as the server displays them).
 * @param {RoomCtrl} ctrl
 * @param {Game} g
 */
function ratingMove(ctrl, g) {
  const { S } = ctrl;
  const me = seatOf(S, mySeat(S));
  const before = S.ratingAtStart && S.ratingAtStart.game === g.id ? S.ratingAtStart.display : null;
  const now = me?.rating ? me.rating.display : null;
  if (!before || !now || before === now) return "";
  const move = gettext("Rating %(before)s → %(now)s", { before: escapeHtml(before), now: `<b>${escapeHtml(now)}</b>` });
  return ` <span class="rating-move">${move}</span>`;
}

/** @param {RoomCtrl} ctrl */
function renderSeats(ctrl) {
  const { S } = ctrl;
  const room = S.room;
  if (!room) return;
  const ol = $("#seats");
  const g = game(S);
  ol.innerHTML = "";
  for (const seat of room.seats) {
    const li = document.createElement("li");
    li.className = "seat";
    li.dataset.seat = String(seat.seat);
    const colour = g ? seatColour(g, seat.seat) : null;
    const toMove = !!g && isPlaying(S) && g.to_move_seat === seat.seat;
    if (toMove) li.classList.add("to-move");
    const tags = [];
    const tag = (/** @type {string} */ kind, /** @type {string} */ text) => `<span class="tag ${kind}">${text}</span>`;
    if (room.you && seat.seat === room.you.seat) tags.push(tag("you", pgettext("seat tag", "you")));
    if (seat.player && seat.player.id === room.host) tags.push(tag("", pgettext("seat tag", "host")));
    if (seat.cpu && !seat.player)
      tags.push(tag("cpu", gettext("CPU · level %(level)s", { level: room.rules.cpu_level })));
    if (seat.away) tags.push(tag("away", gettext("away · CPU standing in")));
    if (seat.wants_again && g && g.status !== "playing") tags.push(tag("ready", pgettext("seat tag", "ready")));
    if (colour && g?.berserk?.[colour])
      tags.push(`<span class="tag berserk" title="${escapeHtml(gettext("Berserk: half the time"))}">🔥</span>`);
    const rating = seatRating(seat);
    const presence = seat.player
      ? `<span class="presence ${seat.connected ? "on" : "off"}" title="${seat.connected ? gettext("connected") : gettext("not connected")}"></span>`
      : "";
    const awayAt = seat.away_at
      ? `<span class="away-at small muted" data-at="${escapeHtml(seat.away_at)}"></span>`
      : "";
    const name = seat.player
      ? `<a href="/players/${encodeURIComponent(seat.player.id)}">${escapeHtml(seatName(seat))}</a>`
      : escapeHtml(seatName(seat));
    li.innerHTML =
      `<span class="bead ${colour || "none"}" role="img" aria-label="${colourWord(colour) || gettext("no colour yet")}"></span>` +
      `<span class="seat-main">${presence}<span class="seat-name">${name}</span>${rating}` +
      `<span class="tags">${tags.join("")}</span>${awayAt}${stakes(ctrl, seat)}</span>` +
      (toMove ? `<span class="arrow" role="img" aria-label="${gettext("to move")}">◀</span>` : "");
    ol.appendChild(li);
  }
  const n = room.spectators || 0;
  $("#spectators").textContent = n ? ngettext("%(n)s watching", "%(n)s watching", n) : "";
}

/** The seat person's rating as the server displays it ("1500?"), when the room is ranked. @param {Seat} seat */
function seatRating(seat) {
  const r = seat.player && seat.rating;
  if (!r?.display) return "";
  const title = r.provisional ? provisionalNote() : ratingTitle(r);
  return `<span class="rating" title="${escapeHtml(title)}">${escapeHtml(r.display)}</span>`;
}

/**
 * "win +8 · draw −1 · loss −10": what a rated game against the other seat would change, before or during it.
 * @param {RoomCtrl} ctrl
 * @param {Seat} seat
 */
function stakes(ctrl, seat) {
  const r = seat.player && seat.rating;
  const g = game(ctrl.S);
  if (!r || r.if_win == null || r.if_draw == null || r.if_loss == null || (g && g.status !== "playing")) return "";
  /** @type {(kind: string, label: string, v: number) => string} */
  const part = (kind, label, v) => `<span class="stake ${kind}">${label} ${signedPoints(v)}</span>`;
  const win = part("win", pgettext("rating stake", "win"), r.if_win);
  const draw = part("draw", pgettext("rating stake", "draw"), r.if_draw);
  const loss = part("loss", pgettext("rating stake", "loss"), r.if_loss);
  const label = escapeHtml(gettext("Rating change for a win, a draw, a loss"));
  return `<span class="stakes small" aria-label="${label}">${win} · ${draw} · ${loss}</span>`;
}

/** The buttons under the board: only what this viewer can do now, so it shows without scrolling. @param {RoomCtrl} ctrl */
export function renderControls(ctrl) {
  const { S } = ctrl;
  const g = game(S);
  const seated = mySeat(S) != null && !isClosed(S);
  const over = !!g && g.status !== "playing";
  const sit = canSit(S);
  $("#sit-box").hidden = !sit;
  const sitName = $("#sit-name", HTMLInputElement);
  if (sit && !sitName.value) sitName.value = rememberedName();
  $("#start").hidden = !(isHost(S) && !g && !isClosed(S));
  const again = $("#again", HTMLButtonElement);
  const arena = g ? g.tournament : null;
  again.hidden = !(seated && over) || arena != null; // an arena pairs the next game itself
  const back = $("#back-arena", HTMLAnchorElement);
  back.hidden = !(over && arena != null);
  if (arena != null) back.href = `/tournaments/${arena}`;
  const mine = seatOf(S, mySeat(S));
  again.disabled = !!mine?.wants_again;
  again.textContent = mine?.wants_again ? gettext("Waiting for the other player…") : gettext("Play again");
  const resignBtn = $("#resign");
  resignBtn.hidden = !(seated && isPlaying(S));
  if (!S.resignArmed) {
    resignBtn.textContent = gettext("Resign");
    resignBtn.classList.remove("armed");
  }
  $("#stand").hidden = !(seated && !isPlaying(S));
}

/** The house rules, editable by the host between games. @param {RoomCtrl} ctrl */
function renderRules(ctrl) {
  const { S } = ctrl;
  const f = rulesForm();
  const r = S.room?.rules;
  const editable = isHost(S) && !isPlaying(S) && !isClosed(S);
  if (!f.contains(document.activeElement)) {
    f.turn_seconds.value = r?.turn_seconds ? String(r.turn_seconds) : "";
    f.days_per_move.value = r?.days_per_move ? String(r.days_per_move) : "";
    f.alternate_first.checked = !!r?.alternate_first;
    f.ranked.checked = !!r?.ranked;
    f.cpu_level.value = String(r?.cpu_level || 3);
    f.spectator_chat.checked = r?.spectator_chat !== false;
    f.open.checked = !!r?.open;
  }
  for (const el of f.elements) if ("disabled" in el) el.disabled = !editable;
  $("#rules-note").textContent = isHost(S)
    ? isPlaying(S)
      ? gettext("Locked during a game; change them between games.")
      : gettext("You are the host: changes apply to the next game.")
    : gettext("Only the host can change these.");
}

/** @param {RoomCtrl} ctrl */
function renderMoves(ctrl) {
  const ol = $("#moves");
  const g = game(ctrl.S);
  const moves = g ? g.moves || [] : [];
  const { placed } = replay(moves);
  if (ol.childElementCount === placed.length && ol.dataset.game === String(g?.id)) return;
  ol.dataset.game = String(g?.id);
  ol.innerHTML = "";
  placed.forEach((m, i) => {
    const li = document.createElement("li");
    li.innerHTML = `<span class="bead ${m.colour}"></span><b>${m.peg}</b><span class="muted small">${levelName(m.level)}</span>`;
    if (i === placed.length - 1) li.classList.add("last");
    ol.appendChild(li);
  });
  ol.scrollTop = ol.scrollHeight;
}

/** The turn's clock, and each countdown before the CPU stands in for a seat. @param {RoomCtrl} ctrl */
export function renderTimer(ctrl) {
  const g = game(ctrl.S);
  const el = $("#timer");
  if (!g || !isPlaying(ctrl.S) || !g.deadline) {
    el.hidden = true;
  } else {
    const left = Math.max(0, Math.ceil((Date.parse(g.deadline) - Date.now()) / 1000));
    el.hidden = false;
    el.textContent = `⏱ ${clockText(left)}`;
    el.classList.toggle("low", g.days_per_move ? left <= 3600 : left <= 10);
    el.setAttribute("aria-label", gettext("%(time)s left for this move", { time: clockText(left) }));
  }
  for (const span of document.querySelectorAll(".away-at")) {
    if (!(span instanceof HTMLElement)) continue;
    const left = Math.max(0, Math.ceil((Date.parse(span.dataset.at || "") - Date.now()) / 1000));
    span.textContent = gettext("CPU stands in in %(seconds)s s", { seconds: left });
  }
}
