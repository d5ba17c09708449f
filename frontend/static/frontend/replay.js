// Replay a game record (GET /api/games/{id}) step by step on the 3D board and the top view, with its
// post-game analysis (GET /api/games/{id}/analysis): marks on the moves, an evaluation strip over the
// positions, and the key moments, which show the better move as a ghost bead.

import { apiGet } from "./api.js";
import { createBoard3D } from "./board3d.js";
import { abandonedText, capitalise, replay } from "./game.js";
import { TopView } from "./topview.js";

const $ = (sel) => document.querySelector(sel);
const GAME = $("#replay").dataset.game;
const R = { record: null, moves: [], step: 0, timer: null, analysis: null, ghost: null, board: null };
window.__replay = R;
// How often the page asks again while the analysis is queued or running.
const ANALYSIS_POLL_MS = 1500;

const topview = new TopView($("#topview"), { onSelect: () => {} });
const board = createBoard3D($("#board3d"), {
  onPick: () => {},
  onView: (az) => topview.setAzimuth(az),
  insetLabel: $("#inset-label"),
});
R.board = board;
if (!board) {
  $("#board-wrap").classList.add("no-webgl");
  $("#board-wrap").appendChild($("#topview"));
}

/** Shows the position after `step` moves; `ghost` ({peg, colour}) draws a better move there. */
function show(step, ghost = null) {
  R.step = Math.max(0, Math.min(R.moves.length, step));
  R.ghost = ghost?.peg ? ghost : null;
  const { stacks, placed } = replay(R.moves.slice(0, R.step));
  const atEnd = R.step === R.moves.length;
  const line = atEnd && R.record?.line ? R.record.line : null;
  const last = placed.at(-1) || null;
  board?.setPosition({ stacks, last, line, animate: true });
  board?.setGhost(R.ghost ? R.ghost.peg : null, R.ghost ? R.ghost.colour : null);
  topview.update({
    stacks,
    last,
    line,
    selected: R.ghost ? R.ghost.peg : null,
    ghost: R.ghost ? R.ghost.colour : null,
    cross: null,
    canMove: false,
    readOnly: true,
  });
  $("#scrub").value = String(R.step);
  $("#ply-label").textContent = `move ${R.step} of ${R.moves.length}`;
  document.querySelectorAll("#moves li").forEach((li, i) => {
    li.classList.toggle("current", i === R.step - 1);
  });
  $("#result").hidden = !atEnd || !R.record || R.record.status === "playing";
  showEval();
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
  const other = rec.players?.[colour === "red" ? "yellow" : "red"];
  return !other?.player;
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
  R.moves = (rec.moves || [])
    .slice()
    .sort((a, b) => a.ply - b.ply)
    .map((m) => m.peg);
  $("#replay-title").textContent = `${rec.room || ""} · game ${rec.number ?? ""}`;
  $("#replay-status").innerHTML = rec.room ? `<a href="/r/${encodeURIComponent(rec.room)}">Open the room</a>` : "";
  for (const colour of ["red", "yellow"]) {
    const p = rec.players?.[colour];
    const li = document.createElement("li");
    li.className = "seat";
    const name = p ? (p.player ? p.player.name : p.cpu ? "Computer" : "—") : "—";
    li.innerHTML = `<span class="bead ${colour}"></span><span class="seat-main"><span class="seat-name"></span></span>`;
    const nameEl = li.querySelector(".seat-name");
    if (p?.player) {
      const a = document.createElement("a");
      a.href = `/players/${encodeURIComponent(p.player.id)}`;
      a.textContent = name;
      nameEl.appendChild(a);
    } else {
      nameEl.textContent = name;
    }
    if (rec.winner === colour) nameEl.append(" (won)");
    if (rec.ranked && p?.player && !otherIsCpu(rec, colour)) li.querySelector(".seat-main").append(rankedTag());
    $("#seats").appendChild(li);
  }
  const { placed } = replay(R.moves);
  placed.forEach((m, i) => {
    const li = document.createElement("li");
    const bead = document.createElement("span");
    bead.className = `bead ${m.colour === "red" ? "red" : "yellow"}`;
    const peg = document.createElement("b");
    peg.textContent = m.peg;
    const level = document.createElement("span");
    level.className = "muted small";
    level.textContent = `level ${m.level}`;
    li.append(bead, peg, level);
    li.addEventListener("click", () => {
      stop();
      show(i + 1);
    });
    $("#moves").appendChild(li);
  });
  $("#result").innerHTML = `<strong>${describe(rec)}</strong>`;
  $("#scrub").max = String(R.moves.length);
  show(R.moves.length);
  loadAnalysis();
}

// ---- the analysis -------------------------------------------------------------------------------

const MARKS = {
  missed_win: { symbol: "?!", label: "missed win" },
  slower_win: { symbol: "!?", label: "slower win" },
  blunder: { symbol: "??", label: "blunder" },
  only_move: { symbol: "!", label: "only move" },
  best: { symbol: "✓", label: "best move" },
};
const other = (colour) => (colour === "red" ? "yellow" : "red");

async function loadAnalysis() {
  let a;
  try {
    a = await apiGet(`/api/games/${encodeURIComponent(GAME)}/analysis`);
  } catch (err) {
    if (err.status === 404 || err.status === 409) {
      // Abandoned games are not analysed; a game being played is analysed when it ends.
      $("#analysis-status").textContent =
        err.code === "game_playing" ? "The game is analysed when it ends." : "This game has no analysis.";
    } else {
      $("#analysis-status").textContent = "The analysis could not be loaded; retrying…";
      setTimeout(loadAnalysis, ANALYSIS_POLL_MS * 4);
    }
    return;
  }
  if (a.status === "queued" || a.status === "running") {
    $("#analysis-status").textContent =
      a.status === "running" ? "Analysis in progress…" : "Analysis in progress (queued)…";
    $("#analysis").classList.add("pending");
    setTimeout(loadAnalysis, ANALYSIS_POLL_MS);
    return;
  }
  $("#analysis").classList.remove("pending");
  if (a.status !== "done" || !Array.isArray(a.plies)) {
    $("#analysis-status").textContent = "The analysis could not be computed.";
    return;
  }
  R.analysis = a;
  $("#analysis-status").textContent = a.moments.length
    ? "Done. Click a key moment to see what was better."
    : "Done: no missed wins and no blunders were proved.";
  renderMarks(a);
  renderStrip(a);
  renderSummary(a);
  renderMoments(a);
  showEval();
}

function renderMarks(a) {
  const items = document.querySelectorAll("#moves li");
  a.plies.forEach((entry, i) => {
    const info = MARKS[entry.mark];
    if (!info || !items[i]) return;
    const mark = document.createElement("span");
    mark.className = `mark mark-${entry.mark}`;
    mark.dataset.mark = entry.mark;
    mark.textContent = info.symbol;
    mark.title = info.label;
    const hidden = document.createElement("span");
    hidden.className = "visually-hidden";
    hidden.textContent = ` (${info.label})`;
    mark.append(hidden);
    items[i].append(mark);
  });
}

/** An entry's value for the strip, from Red's side: -1 (Yellow wins) .. 1 (Red wins). */
function redValue(entry) {
  const ev = entry.eval;
  const sign = entry.to_move === "red" ? 1 : -1;
  if (ev.kind === "forced_win") return sign;
  if (ev.kind === "forced_loss") return -sign;
  if (ev.kind === "heuristic") {
    const s = sign * (ev.score || 0);
    return (0.9 * s) / (Math.abs(s) + 30); // a few tens of points is a clear edge; never reaches a proof's 1
  }
  if (ev.kind === "final" && R.record) {
    if (R.record.winner === "red") return 1;
    if (R.record.winner === "yellow") return -1;
  }
  return 0;
}

/** The words for an entry's evaluation. */
function evalText(entry) {
  const ev = entry.eval;
  const mover = capitalise(entry.to_move || "");
  switch (ev.kind) {
    case "forced_win":
      return `${mover} wins by force in ${ev.plies} (proved), e.g. ${ev.move}`;
    case "forced_loss":
      return `${capitalise(other(entry.to_move))} wins by force in ${ev.plies} at the latest (proved)`;
    case "draw":
      return "A draw with best play (proved)";
    case "heuristic": {
      const score = entry.to_move === "red" ? ev.score : -ev.score;
      const side = score > 0 ? "Red" : score < 0 ? "Yellow" : "neither side";
      return `Engine's opinion (not proved): ${score === 0 ? "even" : `${side} better by ${Math.abs(score)}`}; suggests ${ev.move}`;
    }
    default:
      return R.record ? describe(R.record) : "The game is over.";
  }
}

function renderStrip(a) {
  const strip = $("#eval-strip");
  strip.replaceChildren();
  a.plies.forEach((entry, i) => {
    const cell = document.createElement("button");
    cell.type = "button";
    const proved = ["forced_win", "forced_loss", "draw"].includes(entry.eval.kind);
    cell.className = `eval-cell ${proved ? "forced" : entry.eval.kind}`;
    cell.dataset.kind = entry.eval.kind;
    const v = redValue(entry);
    cell.style.setProperty("--v", String(Math.abs(v)));
    cell.classList.add(v > 0 ? "red-side" : v < 0 ? "yellow-side" : "even");
    const bar = document.createElement("span");
    bar.className = "eval-bar";
    cell.append(bar);
    cell.setAttribute("aria-label", `Position after move ${i}: ${evalText(entry)}`);
    cell.title = cell.getAttribute("aria-label");
    cell.addEventListener("click", () => {
      stop();
      show(i);
    });
    strip.append(cell);
  });
  strip.hidden = false;
  $("#eval-legend").hidden = false;
}

function renderSummary(a) {
  const list = $("#analysis-summary");
  list.replaceChildren();
  for (const colour of ["red", "yellow"]) {
    const s = a.summary?.[colour];
    if (!s) continue;
    const li = document.createElement("li");
    const bead = document.createElement("span");
    bead.className = `bead ${colour}`;
    const parts = [
      `${s.best} best`,
      `${s.only_move} only moves`,
      `${s.slower_win ?? 0} slower wins`,
      `${s.missed_win} missed wins`,
      `${s.blunder} blunders`,
    ];
    li.append(bead, ` ${capitalise(colour)}: ${parts.join(", ")} (${s.moves} moves)`);
    list.append(li);
  }
  list.hidden = false;
}

function renderMoments(a) {
  const list = $("#moments");
  list.replaceChildren();
  for (const m of a.moments) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = `moment moment-${MARKS[m.kind] ? m.kind : "missed_win"}`;
    button.dataset.ply = String(m.ply);
    button.textContent = m.text;
    if (m.better) {
      const better = document.createElement("span");
      better.className = "moment-better";
      better.textContent = ` Better: ${m.better}.`;
      button.append(better);
    }
    button.addEventListener("click", () => {
      stop();
      show(m.ply, m.better ? { peg: m.better, colour: m.colour } : null);
    });
    li.append(button);
    li.dataset.ply = String(m.ply);
    list.append(li);
  }
  list.hidden = $("#moments-title").hidden = a.moments.length === 0;
  linkPuzzles();
}

/** Each missed win made into a puzzle (GET /api/puzzles?game=...) gets a link to solve it. */
async function linkPuzzles() {
  let found;
  try {
    found = await apiGet(`/api/puzzles?game=${encodeURIComponent(GAME)}`);
  } catch {
    return;
  }
  for (const p of found.puzzles) {
    const li = document.querySelector(`#moments li[data-ply="${p.ply}"]`);
    if (!li || li.querySelector(".moment-puzzle")) continue;
    const a = document.createElement("a");
    a.className = "moment-puzzle small";
    a.href = `/puzzles/${encodeURIComponent(p.id)}`;
    a.textContent = `Solve it as a puzzle (win in ${p.plies})`;
    li.append(a);
  }
}

/** The current position's evaluation in words, the current strip cell, and the better move's note. */
function showEval() {
  document.querySelectorAll("#eval-strip .eval-cell").forEach((cell, i) => {
    cell.classList.toggle("current", i === R.step);
  });
  const entry = R.analysis?.plies[R.step];
  $("#eval-now").textContent = entry ? `${R.step === 0 ? "Start" : `After move ${R.step}`}: ${evalText(entry)}` : "";
  const note = $("#better-note");
  note.hidden = !R.ghost;
  note.textContent = R.ghost ? `Better here: ${capitalise(R.ghost.colour)} ${R.ghost.peg} (the faint bead).` : "";
}

$("#first").addEventListener("click", () => {
  stop();
  show(0);
});
$("#prev").addEventListener("click", () => {
  stop();
  show(R.step - 1);
});
$("#next").addEventListener("click", () => {
  stop();
  show(R.step + 1);
});
$("#last").addEventListener("click", () => {
  stop();
  show(R.moves.length);
});
$("#play").addEventListener("click", play);
$("#scrub").addEventListener("input", (ev) => {
  stop();
  show(Number(ev.target.value));
});
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest?.("input, select, textarea")) return;
  if (ev.key === "ArrowLeft") {
    stop();
    show(R.step - 1);
  } else if (ev.key === "ArrowRight") {
    stop();
    show(R.step + 1);
  }
});
load();
