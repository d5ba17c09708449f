// The room page controller. Every handler reads the latest applied room frame (S.room), so quick
// repeated taps never act on an old board; each drop carries the ply it was made on.

import {
  escapeHtml,
  getSession,
  PROVISIONAL_NOTE,
  rememberedName,
  rememberName,
  saveName,
  shownName,
  signedPoints,
} from "./api.js";
import { mountBoard } from "./board3d.js";
import { RoomChat } from "./chat.js";
import { errorOutcome } from "./errors.js";
import { abandonedText, capitalise, fullPegMessage, replay, SIZE, seatColour } from "./game.js";
import { RoomSocket } from "./net.js";
import { rememberRoom } from "./recent.js";
import { TopView } from "./topview.js";

const $ = (sel) => document.querySelector(sel);
const root = $("#room");
const CODE = root.dataset.code;

const S = {
  room: null,
  selected: null,
  cross: null,
  pendingPly: null,
  pendingPeg: null,
  lastGameId: null,
  lastPly: -1,
  resignArmed: false,
  ratingAtStart: null,
  autostart: new URLSearchParams(location.search).get("start") === "1",
};

// ---- derived facts about the latest state ------------------------------------------------------

function game() {
  return S.room ? S.room.game : null;
}

function mySeat() {
  return S.room?.you ? S.room.you.seat : null;
}

function isPlaying() {
  const g = game();
  return !!g && g.status === "playing";
}

function isMyTurn() {
  const g = game();
  return isPlaying() && mySeat() != null && g.to_move_seat === mySeat();
}

/** A closed room shows its last state; nothing can be done in it any more. */
function isClosed() {
  return !!S.room?.closed_at;
}

/** True for a viewer without a seat: they watch, and see no controls they cannot use. */
function isWatching() {
  return !!S.room && mySeat() == null;
}

/** A seat this viewer could take now (a free one, or the CPU's between games). */
function canSit() {
  return isWatching() && !isClosed() && S.room.seats.some((s) => !s.player && (!s.cpu || !isPlaying()));
}

function isHost() {
  return !!(S.room?.you?.player && S.room.you.player === S.room.host);
}

function position() {
  const g = game();
  const moves = g ? g.moves || [] : [];
  const { stacks, placed } = replay(moves);
  const finished = g && g.status !== "playing";
  return { stacks, last: placed.at(-1) || null, line: finished && g.line ? g.line : null, ply: moves.length };
}

function seatOf(n) {
  return S.room ? S.room.seats.find((s) => s.seat === n) : null;
}

function seatName(seat) {
  if (!seat) return "—";
  if (seat.player) return shownName(seat.player);
  return seat.cpu ? "Computer" : "Open seat";
}

function moverColour() {
  const g = game();
  return g ? seatColour(g, g.to_move_seat) : null;
}

// ---- messages near the board -------------------------------------------------------------------

let msgTimer = null;
function say(text, kind = "error") {
  const el = $("#board-msg");
  el.textContent = text;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(msgTimer);
  msgTimer = setTimeout(
    () => {
      el.hidden = true;
    },
    kind === "error" ? 5000 : 3500,
  );
}

// ---- actions -----------------------------------------------------------------------------------

function pick(peg) {
  if (!S.room) return;
  if (isWatching()) {
    say(canSit() ? "You are watching: take a seat to play." : "You are watching this game.", "info");
    return;
  }
  const { stacks } = position();
  if ((stacks[peg] || []).length >= SIZE) {
    S.selected = null;
    showCross(peg);
    say(fullPegMessage(peg));
    render();
    return;
  }
  if (S.selected === peg) {
    choose(peg);
    return;
  }
  S.selected = peg;
  if (S.cross) hideCross();
  render();
}

function choose(peg) {
  if (!S.room || !peg) return;
  const g = game();
  const { stacks } = position();
  if ((stacks[peg] || []).length >= SIZE) {
    showCross(peg);
    say(fullPegMessage(peg));
    render();
    return;
  }
  if (g?.status !== "playing") {
    say(g ? "This game is over." : "The game has not started yet.", "info");
    return;
  }
  if (mySeat() == null) {
    say("You are watching this game.", "info");
    return;
  }
  if (!isMyTurn()) {
    S.selected = peg;
    render();
    say("It is not your turn yet.", "info");
    return;
  }
  if (S.pendingPly === g.ply) return; // this ply's drop is already on its way
  if (!sock.send({ type: "drop", peg, ply: g.ply })) {
    say("Not connected: reconnecting…");
    return;
  }
  S.pendingPly = g.ply;
  S.pendingPeg = peg;
  S.selected = null;
  render();
}

function showCross(peg) {
  S.cross = peg;
  board?.showCross(peg);
  clearTimeout(showCross.t);
  showCross.t = setTimeout(() => {
    hideCross();
    renderTopView();
  }, 4000);
}

function hideCross() {
  S.cross = null;
  board?.hideCross();
}

async function sitDown() {
  const btn = $("#sit");
  btn.disabled = true;
  try {
    const typed = $("#sit-name").value.trim();
    const you = S.room?.you;
    if (!you?.player) {
      const name = typed || rememberedName() || "Guest";
      await saveName(name);
      rememberName(name);
      // The socket was opened without a player: open it again so the server knows who we are.
      await sock.reconnectNow();
    } else if (typed) {
      await saveName(typed);
      rememberName(typed);
    }
    sock.send({ type: "sit" });
  } catch (err) {
    say(err.message || "Could not take a seat.");
  } finally {
    btn.disabled = false;
  }
}

function resign() {
  const btn = $("#resign");
  if (!S.resignArmed) {
    S.resignArmed = true;
    btn.textContent = "Tap again to resign";
    btn.classList.add("armed");
    clearTimeout(resign.t);
    resign.t = setTimeout(() => {
      S.resignArmed = false;
      renderControls();
    }, 4000);
    return;
  }
  S.resignArmed = false;
  clearTimeout(resign.t);
  sock.send({ type: "resign" });
  renderControls();
}

function sendRules() {
  const f = $("#rules");
  const ts = f.turn_seconds.value;
  sock.send({
    type: "rules",
    turn_seconds: ts ? Number(ts) : null,
    alternate_first: f.alternate_first.checked,
    ranked: f.ranked.checked,
    cpu_level: Number(f.cpu_level.value),
    spectator_chat: f.spectator_chat.checked,
    open: f.open.checked,
  });
}

// ---- rendering ---------------------------------------------------------------------------------

function render() {
  if (!S.room) return;
  renderBoard();
  renderTopView();
  renderTurn();
  renderResult();
  renderSeats();
  renderControls();
  renderRules();
  renderMoves();
  renderTimer();
}

function renderBoard() {
  const pos = position();
  const g = game();
  const animate = !!g && g.id === S.lastGameId && pos.ply === S.lastPly + 1;
  if (board) {
    board.setPosition({ stacks: pos.stacks, last: pos.last, line: pos.line, animate });
    const ghostColour = isPlaying() ? (mySeat() != null ? seatColour(g, mySeat()) : moverColour()) : null;
    board.setGhost(S.selected, ghostColour);
    const threatsOn = $("#show-threats").checked && isPlaying() && g.threats;
    board.setThreats(threatsOn ? g.threats : null);
  }
  S.lastGameId = g ? g.id : null;
  S.lastPly = pos.ply;
  const wrap = $("#board-wrap");
  wrap.dataset.turn = isPlaying() ? moverColour() : "";
  wrap.classList.toggle("my-turn", isMyTurn());
  $("#threats-toggle").hidden = !(isPlaying() && g.threats);
  const chooseBtn = $("#choose");
  const full = S.selected && (pos.stacks[S.selected] || []).length >= SIZE;
  // Only a seated player in a running game can choose; nobody else sees the button.
  chooseBtn.hidden = !(isPlaying() && !isWatching());
  chooseBtn.disabled = !(S.selected && isMyTurn() && !full);
  chooseBtn.textContent = S.selected ? `Choose ${S.selected}` : "Choose a peg";
  $("#hint").textContent =
    isPlaying() && !isWatching() ? "Drag to turn · tap a peg twice to drop" : "Drag to turn the board";
}

function renderTopView() {
  if (!S.room) return;
  const pos = position();
  const g = game();
  topview.update({
    stacks: pos.stacks,
    last: pos.last,
    line: pos.line,
    selected: S.selected,
    ghost: isPlaying() && mySeat() != null ? seatColour(g, mySeat()) : isPlaying() ? moverColour() : null,
    cross: S.cross,
    canMove: isMyTurn(),
    readOnly: isWatching(),
  });
}

const WATCHING = '<span class="watching">You are watching</span>';

function renderTurn() {
  const el = $("#turn");
  const g = game();
  el.className = "turn";
  el.hidden = false;
  const watching = isWatching();
  el.classList.toggle("watch", watching);
  if (!g) {
    if (isHost()) {
      // Until a friend sits down, the host's choice is between inviting one and playing the computer.
      el.innerHTML = S.room.seats.some((s) => !s.player)
        ? "<span><b>Copy the link</b> for a friend to join, or press <b>Start</b> to play the computer.</span>"
        : "<span><b>Ready when you are.</b> Press <b>Start</b>.</span>";
    } else if (watching) {
      el.innerHTML = `${WATCHING}<span>${canSit() ? "A seat is free: <b>take it to play.</b>" : "Waiting for the host to start."}</span>`;
    } else {
      el.innerHTML = "<b>Waiting for the host to start.</b>";
    }
    document.title = `Room ${CODE} · 3D Four in a Row`;
    return;
  }
  if (g.status !== "playing") {
    // The result banner says how it ended; a spectator still learns up front that they only watch.
    el.innerHTML = watching
      ? `${WATCHING}<span>${canSit() ? "A seat is free: <b>take it to play.</b>" : "Game over."}</span>`
      : "";
    el.hidden = !watching;
    document.title = `Room ${CODE} · 3D Four in a Row`;
    return;
  }
  const colour = moverColour();
  const mover = seatOf(g.to_move_seat);
  el.classList.add(colour);
  if (isMyTurn()) {
    el.classList.add("mine");
    el.innerHTML = `<span class="bead ${colour}"></span><b>Your turn</b> · you play ${colour}`;
    document.title = `● Your turn · Room ${CODE}`;
  } else {
    const who = mover && (mover.cpu || mover.away) && !mover.player ? "The computer" : seatName(mover);
    const thinking = mover && (mover.cpu || mover.away) ? " is thinking…" : " to move";
    el.innerHTML =
      (watching ? WATCHING : "") +
      `<span class="bead ${colour}"></span><span><b>${escapeHtml(who)}</b>${thinking} <span class="muted">(${colour})</span></span>`;
    document.title = `Room ${CODE} · 3D Four in a Row`;
  }
}

function renderResult() {
  const el = $("#result");
  const g = game();
  if (!g || g.status === "playing") {
    el.hidden = true;
    return;
  }
  const me = mySeat();
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
    const winnerColour = seatColour(g, g.winner_seat);
    const loserColour = winnerColour === "red" ? "yellow" : "red";
    const winnerName = seatName(seatOf(g.winner_seat));
    if (me != null) head = g.winner_seat === me ? "You win!" : "You lose";
    else head = `${escapeHtml(winnerName)} wins`;
    detail =
      g.status === "resigned" || g.reason === "resignation"
        ? `${capitalise(loserColour)} resigned: ${winnerColour} wins.`
        : `${capitalise(winnerColour)} wins with four in a row.`;
    el.dataset.outcome = me == null ? "watch" : g.winner_seat === me ? "win" : "loss";
    el.dataset.colour = winnerColour;
  }
  el.innerHTML =
    `<strong>${head}</strong> <span>${detail}</span>${ratingMove(g)}` +
    `<a class="replay-link" href="/games/${encodeURIComponent(g.id)}">Replay</a>`;
  el.hidden = false;
}

/** After a rated game: "Rating 1500? → 1662?" for the seated viewer (both values as the server displays them). */
function ratingMove(g) {
  const me = seatOf(mySeat());
  const before = S.ratingAtStart && S.ratingAtStart.game === g.id ? S.ratingAtStart.display : null;
  const now = me?.rating ? me.rating.display : null;
  if (!before || !now || before === now) return "";
  return ` <span class="rating-move">Rating ${escapeHtml(before)} → <b>${escapeHtml(now)}</b></span>`;
}

function renderSeats() {
  const ol = $("#seats");
  const g = game();
  ol.innerHTML = "";
  for (const seat of S.room.seats) {
    const li = document.createElement("li");
    li.className = "seat";
    li.dataset.seat = seat.seat;
    const colour = g ? seatColour(g, seat.seat) : null;
    const toMove = isPlaying() && g.to_move_seat === seat.seat;
    if (toMove) li.classList.add("to-move");
    const tags = [];
    if (S.room.you && seat.seat === S.room.you.seat) tags.push('<span class="tag you">you</span>');
    if (seat.player && seat.player.id === S.room.host) tags.push('<span class="tag">host</span>');
    if (seat.cpu && !seat.player) tags.push(`<span class="tag cpu">CPU · level ${S.room.rules.cpu_level}</span>`);
    if (seat.away) tags.push('<span class="tag away">away · CPU standing in</span>');
    if (seat.wants_again && g && g.status !== "playing") tags.push('<span class="tag ready">ready</span>');
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
      `<span class="bead ${colour || "none"}" aria-label="${colour || "no colour yet"}"></span>` +
      `<span class="seat-main">${presence}<span class="seat-name">${name}</span>${rating}` +
      `<span class="tags">${tags.join("")}</span>${awayAt}${stakes(seat)}</span>` +
      (toMove ? '<span class="arrow" aria-label="to move">◀</span>' : "");
    ol.appendChild(li);
  }
  const n = S.room.spectators || 0;
  $("#spectators").textContent = n ? `${n} watching` : "";
}

/** The seat person's rating as the server displays it ("1500?"), when the room is ranked. */
function seatRating(seat) {
  const r = seat.player && seat.rating;
  if (!r?.display) return "";
  const title = r.provisional ? PROVISIONAL_NOTE : `Rating ${Math.round(r.rating)}, uncertainty ±${Math.round(r.rd)}`;
  return `<span class="rating" title="${escapeHtml(title)}">${escapeHtml(r.display)}</span>`;
}

/** "win +8 · draw −1 · loss −10": what a rated game against the other seat would change, before or during it. */
function stakes(seat) {
  const r = seat.player && seat.rating;
  const g = game();
  if (!r || r.if_win == null || r.if_draw == null || r.if_loss == null || (g && g.status !== "playing")) return "";
  const part = (label, v) => `<span class="stake ${label}">${label} ${signedPoints(v)}</span>`;
  return (
    `<span class="stakes small" aria-label="Rating change for a win, a draw, a loss">` +
    `${part("win", r.if_win)} · ${part("draw", r.if_draw)} · ${part("loss", r.if_loss)}</span>`
  );
}

/** The buttons under the board: only what this viewer can do now, so it shows without scrolling. */
function renderControls() {
  const g = game();
  const seated = mySeat() != null && !isClosed();
  const over = g && g.status !== "playing";
  const sit = canSit();
  $("#sit-box").hidden = !sit;
  if (sit && !$("#sit-name").value) $("#sit-name").value = rememberedName();
  $("#start").hidden = !(isHost() && !g && !isClosed());
  const again = $("#again");
  const arena = g ? g.tournament : null;
  again.hidden = !(seated && over) || arena != null; // an arena pairs the next game itself
  const back = $("#back-arena");
  back.hidden = !(over && arena != null);
  if (arena != null) back.href = `/tournaments/${arena}`;
  const mine = seatOf(mySeat());
  again.disabled = !!mine?.wants_again;
  again.textContent = mine?.wants_again ? "Waiting for the other player…" : "Play again";
  const resignBtn = $("#resign");
  resignBtn.hidden = !(seated && isPlaying());
  if (!S.resignArmed) {
    resignBtn.textContent = "Resign";
    resignBtn.classList.remove("armed");
  }
  $("#stand").hidden = !(seated && !isPlaying());
}

function renderRules() {
  const f = $("#rules");
  const r = S.room.rules || {};
  const editable = isHost() && !isPlaying() && !isClosed();
  if (!f.contains(document.activeElement)) {
    f.turn_seconds.value = r.turn_seconds ? String(r.turn_seconds) : "";
    f.alternate_first.checked = !!r.alternate_first;
    f.ranked.checked = !!r.ranked;
    f.cpu_level.value = String(r.cpu_level || 3);
    f.spectator_chat.checked = r.spectator_chat !== false;
    f.open.checked = !!r.open;
  }
  for (const el of f.elements) el.disabled = !editable;
  $("#rules-note").textContent = isHost()
    ? isPlaying()
      ? "Locked during a game; change them between games."
      : "You are the host: changes apply to the next game."
    : "Only the host can change these.";
}

function renderMoves() {
  const ol = $("#moves");
  const g = game();
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

function renderTimer() {
  const g = game();
  const el = $("#timer");
  if (!isPlaying() || !g.deadline) {
    el.hidden = true;
  } else {
    const left = Math.max(0, Math.ceil((Date.parse(g.deadline) - Date.now()) / 1000));
    el.hidden = false;
    el.textContent = `⏱ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    el.classList.toggle("low", left <= 10);
    el.setAttribute("aria-label", `${left} seconds left for this move`);
  }
  for (const span of document.querySelectorAll(".away-at")) {
    const left = Math.max(0, Math.ceil((Date.parse(span.dataset.at) - Date.now()) / 1000));
    span.textContent = `CPU stands in in ${left}s`;
  }
}

// ---- socket handlers ---------------------------------------------------------------------------

function onRoom(frame) {
  const prev = S.room;
  S.room = frame;
  const g = frame.game;
  if (!g || S.pendingPly == null || g.ply > S.pendingPly || (prev?.game && prev.game.id !== g.id)) {
    S.pendingPly = null;
  }
  if (S.selected && (position().stacks[S.selected] || []).length >= SIZE) S.selected = null;
  if (g && g.status !== "playing") S.selected = null;
  // Remember the viewer's rating while a game runs, to show how the result moved it.
  const mine = frame.you && frame.you.seat != null ? frame.seats.find((s) => s.seat === frame.you.seat) : null;
  if (g && g.status === "playing" && mine && mine.rating && mine.rating.if_win != null) {
    S.ratingAtStart = { game: g.id, display: mine.rating.display };
  }
  if (frame.you && frame.you.seat != null && !S.remembered) {
    S.remembered = true;
    rememberRoom(CODE);
  }
  render();
  chat.setRoom(frame);
  if (g && prev?.game && prev.game.id !== g.id && frame.you && frame.you.seat != null) showTurn();
  maybeAutostart();
}

/** Brings the turn banner into view when it is not (a new game began while the page was scrolled). */
function showTurn() {
  const box = $("#turn").getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  $(".board-col").scrollIntoView({ block: "start" });
}

function maybeAutostart() {
  if (!S.autostart || !S.room) return;
  S.autostart = false;
  const params = new URLSearchParams(location.search);
  params.delete("start");
  history.replaceState(null, "", location.pathname + (params.size ? `?${params}` : ""));
  if (isHost() && !game()) sock.send({ type: "start" });
}

function onError(frame) {
  if (chat.claimError(frame)) return; // the answer to a chat message: shown in the chat
  const pendingPeg = S.pendingPly != null ? S.pendingPeg : null;
  const outcome = errorOutcome(frame, pendingPeg);
  // The server changed nothing: whatever was in flight is over, and the board takes taps again.
  S.pendingPly = null;
  if (outcome.cross) showCross(outcome.cross);
  if (outcome.select && isMyTurn()) S.selected = outcome.select;
  say(outcome.text, outcome.kind);
  render();
}

function onNotice(frame) {
  const seat = seatOf(frame.seat);
  const who = seat ? seatName(seat) : `Seat ${frame.seat}`;
  const texts = {
    timeout: `Time ran out: the computer moved for ${who}.`,
    away: `${who} is away: the computer stands in.`,
    back: `${who} is back.`,
  };
  if (texts[frame.code]) say(texts[frame.code], "info");
}

function onStatus(state) {
  // A drop sent on a connection that then died may never have arrived; the snapshot a new connection
  // brings shows it if it did, so the board must not stay locked waiting for it.
  if (state === "open") S.pendingPly = null;
  const el = $("#conn");
  el.dataset.state = state;
  document.body.classList.toggle("is-reconnecting", state === "reconnecting");
  el.textContent =
    {
      connecting: "Connecting…",
      open: "Connected",
      reconnecting: "Reconnecting…",
      gone: "This room does not exist.",
      closed: "This room is closed.",
      banned: "Banned by a moderator.",
    }[state] || state;
}

function onGone(code) {
  const texts = {
    4410: "<b>This room is closed.</b>",
    4403: "<b>This player is banned by a moderator:</b> it cannot play or watch here.",
  };
  $("#turn").innerHTML = `${texts[code] || "<b>Room not found.</b>"} <a href="/">Back to the start</a>`;
  $("#turn").dataset.gone = String(code || 4404);
}

// ---- wiring ------------------------------------------------------------------------------------

const topview = new TopView($("#topview"), { onSelect: pick });
const board = mountBoard({ topview, onPick: pick });

const chat = new RoomChat($("#chat"), { send: (frame) => sock.send(frame), reconnect: () => sock.reconnectNow() });
const sock = new RoomSocket(CODE, {
  onRoom,
  onError,
  onNotice,
  onStatus,
  onGone,
  onChat: (frame) => chat.add(frame),
  onChatHistory: (frame) => chat.history(frame),
});
sock.connect();

$("#share-link").value = `${location.origin}/r/${CODE}`;
$("#copy-link").addEventListener("click", async () => {
  const input = $("#share-link");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand?.("copy");
  }
  $("#copy-link").textContent = "Copied!";
  setTimeout(() => {
    $("#copy-link").textContent = "Copy link";
  }, 1800);
});
$("#choose").addEventListener("click", () => choose(S.selected));
$("#start").addEventListener("click", () => sock.send({ type: "start" }));
$("#again").addEventListener("click", () => sock.send({ type: "again" }));
$("#resign").addEventListener("click", resign);
$("#stand").addEventListener("click", () => sock.send({ type: "stand" }));
$("#sit").addEventListener("click", sitDown);
$("#rules").addEventListener("change", sendRules);
$("#show-threats").addEventListener("change", render);

document.addEventListener("keydown", (ev) => {
  const t = ev.target;
  if (t.closest?.("input, select, textarea, a")) return;
  const onPegButton = t.closest?.("#topview .peg");
  const neutral = t === document.body || onPegButton || t.closest?.("#board3d");
  if (!neutral || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (ev.key.startsWith("Arrow")) {
    ev.preventDefault();
    if (board) topview.setAzimuth(board.azimuth());
    const from = S.selected || (onPegButton ? onPegButton.dataset.peg : topview.roving || "a1");
    const next = topview.step(from, ev.key);
    if (isWatching()) {
      // A spectator reads the pegs one by one but selects nothing.
      topview.roving = next;
      topview.focus(next);
      return;
    }
    S.selected = next;
    render();
    topview.focus(S.selected);
  } else if (ev.key === "Enter") {
    ev.preventDefault(); // no synthetic click on the focused button: one Enter, one choice
    const peg = onPegButton ? onPegButton.dataset.peg : S.selected;
    if (peg) choose(peg);
  } else if (ev.key === "Escape") {
    S.selected = null;
    render();
  }
});

setInterval(renderTimer, 250);

// A quick REST look lets the page show something before the socket answers (and the player's name).
getSession()
  .then((s) => {
    if (s?.player && !$("#sit-name").value) $("#sit-name").value = s.player.name || "";
  })
  .catch(() => {});

// For the browser tests and curious developers.
window.__room = {
  get state() {
    return S.room;
  },
  get selected() {
    return S.selected;
  },
  board,
  socket: sock,
  chat,
};
