// The room page's view: draws the latest state (S.room and the page's own choices) into the 3D board, the
// top view, the turn banner, the result, the seats, the buttons, the house rules, the moves and the
// timer. It reads the state and changes nothing in it.

import { escapeHtml, PROVISIONAL_NOTE, rememberedName, signedPoints } from "../api.js";
import { clockText } from "../clock.js";
import { $ } from "../dom.js";
import { abandonedText, capitalise, replay, SIZE, seatColour } from "../game.js";
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
  chooseBtn.textContent = S.selected ? `Choose ${S.selected}` : "Choose a peg";
  $("#hint").textContent =
    isPlaying(S) && !isWatching(S) ? "Drag to turn · tap a peg twice to drop" : "Drag to turn the board";
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

const WATCHING = '<span class="watching">You are watching</span>';

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
      el.innerHTML = S.room?.seats.some((s) => !s.player)
        ? "<span><b>Copy the link</b> for a friend to join, or press <b>Start</b> to play the computer.</span>"
        : "<span><b>Ready when you are.</b> Press <b>Start</b>.</span>";
    } else if (watching) {
      el.innerHTML = `${WATCHING}<span>${canSit(S) ? "A seat is free: <b>take it to play.</b>" : "Waiting for the host to start."}</span>`;
    } else {
      el.innerHTML = "<b>Waiting for the host to start.</b>";
    }
    document.title = `Room ${code} · 3D Four in a Row`;
    return;
  }
  if (g.status !== "playing") {
    // The result banner says how it ended; a spectator still learns up front that they only watch.
    el.innerHTML = watching
      ? `${WATCHING}<span>${canSit(S) ? "A seat is free: <b>take it to play.</b>" : "Game over."}</span>`
      : "";
    el.hidden = !watching;
    document.title = `Room ${code} · 3D Four in a Row`;
    return;
  }
  const colour = moverColour(S) || "";
  const mover = seatOf(S, g.to_move_seat);
  el.classList.add(colour);
  if (isMyTurn(S)) {
    el.classList.add("mine");
    el.innerHTML = `<span class="bead ${colour}"></span><b>Your turn</b> · you play ${colour}`;
    document.title = `● Your turn · Room ${code}`;
  } else {
    const who = mover && (mover.cpu || mover.away) && !mover.player ? "The computer" : seatName(mover);
    const thinking = mover && (mover.cpu || mover.away) ? " is thinking…" : " to move";
    el.innerHTML =
      (watching ? WATCHING : "") +
      `<span class="bead ${colour}"></span><span><b>${escapeHtml(who)}</b>${thinking} <span class="muted">(${colour})</span></span>`;
    document.title = `Room ${code} · 3D Four in a Row`;
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
    head = "Draw";
    detail = "The board is full with no four in a row.";
    el.dataset.outcome = "draw";
  } else if (g.status === "abandoned") {
    head = "Abandoned";
    detail = abandonedText(g.reason);
    el.dataset.outcome = "abandoned";
  } else {
    const winnerColour = seatColour(g, g.winner_seat) || "";
    const loserColour = winnerColour === "red" ? "yellow" : "red";
    const winnerName = seatName(seatOf(S, g.winner_seat));
    if (me != null) head = g.winner_seat === me ? "You win!" : "You lose";
    else head = `${escapeHtml(winnerName)} wins`;
    detail =
      g.status === "resigned" || g.reason === "resignation"
        ? `${capitalise(loserColour)} resigned: ${winnerColour} wins.`
        : g.reason === "timeout"
          ? `${capitalise(loserColour)} ran out of time: ${winnerColour} wins.`
          : `${capitalise(winnerColour)} wins with four in a row.`;
    el.dataset.outcome = me == null ? "watch" : g.winner_seat === me ? "win" : "loss";
    el.dataset.colour = winnerColour;
  }
  el.innerHTML =
    `<strong>${head}</strong> <span>${detail}</span>${ratingMove(ctrl, g)}` +
    `<a class="replay-link" href="/games/${encodeURIComponent(g.id)}">Replay</a>` +
    ` <a class="analyse-link" href="/analysis?${new URLSearchParams({ record: (g.moves || []).join(" ") })}">Analyse</a>`;
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
  return ` <span class="rating-move">Rating ${escapeHtml(before)} → <b>${escapeHtml(now)}</b></span>`;
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
    if (room.you && seat.seat === room.you.seat) tags.push('<span class="tag you">you</span>');
    if (seat.player && seat.player.id === room.host) tags.push('<span class="tag">host</span>');
    if (seat.cpu && !seat.player) tags.push(`<span class="tag cpu">CPU · level ${room.rules.cpu_level}</span>`);
    if (seat.away) tags.push('<span class="tag away">away · CPU standing in</span>');
    if (seat.wants_again && g && g.status !== "playing") tags.push('<span class="tag ready">ready</span>');
    if (colour && g?.berserk?.[colour]) tags.push('<span class="tag berserk" title="Berserk: half the time">🔥</span>');
    const rating = seatRating(seat);
    const presence = seat.player
      ? `<span class="presence ${seat.connected ? "on" : "off"}" title="${seat.connected ? "connected" : "not connected"}"></span>`
      : "";
    const awayAt = seat.away_at
      ? `<span class="away-at small muted" data-at="${escapeHtml(seat.away_at)}"></span>`
      : "";
    const name = seat.player
      ? `<a href="/players/${encodeURIComponent(seat.player.id)}">${escapeHtml(seatName(seat))}</a>`
      : escapeHtml(seatName(seat));
    li.innerHTML =
      `<span class="bead ${colour || "none"}" role="img" aria-label="${colour || "no colour yet"}"></span>` +
      `<span class="seat-main">${presence}<span class="seat-name">${name}</span>${rating}` +
      `<span class="tags">${tags.join("")}</span>${awayAt}${stakes(ctrl, seat)}</span>` +
      (toMove ? '<span class="arrow" role="img" aria-label="to move">◀</span>' : "");
    ol.appendChild(li);
  }
  const n = room.spectators || 0;
  $("#spectators").textContent = n ? `${n} watching` : "";
}

/** The seat person's rating as the server displays it ("1500?"), when the room is ranked. @param {Seat} seat */
function seatRating(seat) {
  const r = seat.player && seat.rating;
  if (!r?.display) return "";
  const title = r.provisional ? PROVISIONAL_NOTE : `Rating ${Math.round(r.rating)}, uncertainty ±${Math.round(r.rd)}`;
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
  /** @type {(label: string, v: number) => string} */
  const part = (label, v) => `<span class="stake ${label}">${label} ${signedPoints(v)}</span>`;
  return (
    `<span class="stakes small" aria-label="Rating change for a win, a draw, a loss">` +
    `${part("win", r.if_win)} · ${part("draw", r.if_draw)} · ${part("loss", r.if_loss)}</span>`
  );
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
  again.textContent = mine?.wants_again ? "Waiting for the other player…" : "Play again";
  const resignBtn = $("#resign");
  resignBtn.hidden = !(seated && isPlaying(S));
  if (!S.resignArmed) {
    resignBtn.textContent = "Resign";
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
      ? "Locked during a game; change them between games."
      : "You are the host: changes apply to the next game."
    : "Only the host can change these.";
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
    li.innerHTML = `<span class="bead ${m.colour}"></span><b>${m.peg}</b><span class="muted small">level ${m.level}</span>`;
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
    el.setAttribute("aria-label", `${clockText(left)} left for this move`);
  }
  for (const span of document.querySelectorAll(".away-at")) {
    if (!(span instanceof HTMLElement)) continue;
    const left = Math.max(0, Math.ceil((Date.parse(span.dataset.at || "") - Date.now()) / 1000));
    span.textContent = `CPU stands in in ${left}s`;
  }
}
