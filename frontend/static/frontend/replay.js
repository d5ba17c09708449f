// Replay a game record (GET /api/games/{id}) step by step on the 3D board and the top view.

import { apiGet } from "./api.js";
import { createBoard3D } from "./board3d.js";
import { abandonedText, capitalise, replay } from "./game.js";
import { TopView } from "./topview.js";

const $ = (sel) => document.querySelector(sel);
const GAME = $("#replay").dataset.game;
const R = { record: null, moves: [], step: 0, timer: null };

const topview = new TopView($("#topview"), { onSelect: () => {} });
const board = createBoard3D($("#board3d"), {
  onPick: () => {},
  onView: (az) => topview.setAzimuth(az),
  insetLabel: $("#inset-label"),
});
if (!board) {
  $("#board-wrap").classList.add("no-webgl");
  $("#board-wrap").appendChild($("#topview"));
}

function show(step) {
  R.step = Math.max(0, Math.min(R.moves.length, step));
  const { stacks, placed } = replay(R.moves.slice(0, R.step));
  const atEnd = R.step === R.moves.length;
  const line = atEnd && R.record && R.record.line ? R.record.line : null;
  const last = placed.at(-1) || null;
  board?.setPosition({ stacks, last, line, animate: true });
  topview.update({ stacks, last, line, selected: null, ghost: null, cross: null, canMove: false, readOnly: true });
  $("#scrub").value = String(R.step);
  $("#ply-label").textContent = `move ${R.step} of ${R.moves.length}`;
  document.querySelectorAll("#moves li").forEach((li, i) => li.classList.toggle("current", i === R.step - 1));
  $("#result").hidden = !atEnd || !R.record || R.record.status === "playing";
}

function stop() {
  clearInterval(R.timer);
  R.timer = null;
  $("#play").textContent = "Play";
}

function play() {
  if (R.timer) return stop();
  if (R.step >= R.moves.length) show(0);
  $("#play").textContent = "Pause";
  R.timer = setInterval(() => {
    if (R.step >= R.moves.length) return stop();
    show(R.step + 1);
  }, 700);
}

function describe(rec) {
  if (rec.status === "drawn") return "Draw: the board filled up.";
  if (rec.status === "abandoned") return abandonedText(rec.reason);
  if (!rec.winner) return "Game in progress.";
  const loser = rec.winner === "red" ? "yellow" : "red";
  return rec.reason === "resignation"
    ? `${capitalise(loser)} resigned: ${rec.winner} wins.`
    : `${capitalise(rec.winner)} wins with four in a row.`;
}

function otherIsCpu(rec, colour) {
  const other = rec.players && rec.players[colour === "red" ? "yellow" : "red"];
  return !other || !other.player;
}

function rankedTag() {
  const tag = document.createElement("span");
  tag.className = "tag";
  tag.textContent = "rated";
  return tag;
}

async function load() {
  let rec;
  try {
    rec = await apiGet(`/api/games/${encodeURIComponent(GAME)}`);
  } catch (err) {
    $("#replay-status").textContent = err.status === 404 ? "No such game." : err.message;
    return;
  }
  R.record = rec;
  R.moves = (rec.moves || []).slice().sort((a, b) => a.ply - b.ply).map((m) => m.peg);
  $("#replay-title").textContent = `${rec.room || ""} · game ${rec.number ?? ""}`;
  $("#replay-status").innerHTML = rec.room ? `<a href="/r/${encodeURIComponent(rec.room)}">Open the room</a>` : "";
  for (const colour of ["red", "yellow"]) {
    const p = rec.players && rec.players[colour];
    const li = document.createElement("li");
    li.className = "seat";
    const name = p ? (p.player ? p.player.name : p.cpu ? "Computer" : "—") : "—";
    li.innerHTML = `<span class="bead ${colour}"></span><span class="seat-main"><span class="seat-name"></span></span>`;
    const nameEl = li.querySelector(".seat-name");
    if (p && p.player) {
      const a = document.createElement("a");
      a.href = `/players/${encodeURIComponent(p.player.id)}`;
      a.textContent = name;
      nameEl.appendChild(a);
    } else {
      nameEl.textContent = name;
    }
    if (rec.winner === colour) nameEl.append(" (won)");
    if (rec.ranked && p && p.player && !otherIsCpu(rec, colour)) li.querySelector(".seat-main").append(rankedTag());
    $("#seats").appendChild(li);
  }
  const { placed } = replay(R.moves);
  placed.forEach((m, i) => {
    const li = document.createElement("li");
    li.innerHTML = `<span class="bead ${m.colour}"></span><b>${m.peg}</b><span class="muted small">level ${m.level}</span>`;
    li.addEventListener("click", () => {
      stop();
      show(i + 1);
    });
    $("#moves").appendChild(li);
  });
  $("#result").innerHTML = `<strong>${describe(rec)}</strong>`;
  $("#scrub").max = String(R.moves.length);
  show(R.moves.length);
}

$("#first").addEventListener("click", () => (stop(), show(0)));
$("#prev").addEventListener("click", () => (stop(), show(R.step - 1)));
$("#next").addEventListener("click", () => (stop(), show(R.step + 1)));
$("#last").addEventListener("click", () => (stop(), show(R.moves.length)));
$("#play").addEventListener("click", play);
$("#scrub").addEventListener("input", (ev) => (stop(), show(Number(ev.target.value))));
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
  if (ev.key === "ArrowLeft") (stop(), show(R.step - 1));
  else if (ev.key === "ArrowRight") (stop(), show(R.step + 1));
});
load();
