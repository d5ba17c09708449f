// Replay a game record (GET /api/games/{id}) step by step on the 3D board and the top view, with its
// post-game analysis (GET /api/games/{id}/analysis): marks on the moves, an evaluation strip over the
// positions, and the key moments, which show the better move as a ghost bead.

import { ApiError, apiGet, errorText } from "../api.js";
import { createBoard3D } from "../board/board3d.js";
import { TopView } from "../board/topview.js";
import { $ } from "../dom.js";
import { levelName, replay, sideName } from "../game.js";
import { gettext } from "../i18n.js";
import { describe, evalText, loadAnalysis, renderAnalysis } from "./postgame.js";

/** @typedef {import("../api.js").Json} Json */
/** @typedef {{peg: string, colour: "red" | "yellow"}} Ghost a better move, drawn as a faint bead */

const GAME = $("#replay").dataset.game || "";
/**
 * The page's state; tests read it through window.__replay.
 * @type {{record: Json | null, moves: string[], step: number, timer: ReturnType<typeof setInterval> | undefined,
 *   analysis: Json | null, ghost: Ghost | null, board: import("../board/board3d.js").Board3D | null}}
 */
const R = { record: null, moves: [], step: 0, timer: undefined, analysis: null, ghost: null, board: null };
window.__replay = R;

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

/**
 * Shows the position after `step` moves; `ghost` ({peg, colour}) draws a better move there.
 * @param {number} step
 * @param {Ghost | null} [ghost]
 */
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
  $("#scrub", HTMLInputElement).value = String(R.step);
  $("#ply-label").textContent = gettext("move %(step)s of %(moves)s", { step: R.step, moves: R.moves.length });
  const study = new URLSearchParams({ record: R.moves.slice(0, R.step).join(" "), line: R.moves.join(" ") });
  $("#analyse", HTMLAnchorElement).href = `/analysis?${study}`;
  document.querySelectorAll("#moves li").forEach((li, i) => {
    li.classList.toggle("current", i === R.step - 1);
  });
  $("#result").hidden = !atEnd || !R.record || R.record.status === "playing";
  showEval();
}

function stop() {
  clearInterval(R.timer);
  R.timer = undefined;
  $("#play").textContent = gettext("Play");
}

function play() {
  if (R.timer) return stop();
  if (R.step >= R.moves.length) show(0);
  $("#play").textContent = gettext("Pause");
  R.timer = setInterval(() => {
    if (R.step >= R.moves.length) return stop();
    show(R.step + 1);
  }, 700);
}

/** @param {Json} rec @param {"red" | "yellow"} colour */
function otherIsCpu(rec, colour) {
  const other = rec.players?.[colour === "red" ? "yellow" : "red"];
  return !other?.player;
}

function rankedTag() {
  const tag = document.createElement("span");
  tag.className = "tag";
  tag.textContent = gettext("rated");
  return tag;
}

async function load() {
  let rec;
  try {
    rec = await apiGet(`/api/games/${encodeURIComponent(GAME)}`);
  } catch (err) {
    $("#replay-status").textContent =
      err instanceof ApiError && err.status === 404 ? gettext("No such game.") : errorText(err);
    return;
  }
  R.record = rec;
  R.moves = (rec.moves || [])
    .slice()
    .sort((/** @type {Json} */ a, /** @type {Json} */ b) => a.ply - b.ply)
    .map((/** @type {Json} */ m) => m.peg);
  $("#replay-title").textContent = `${rec.room || ""} · ${gettext("game %(number)s", { number: rec.number ?? "" })}`;
  $("#replay-status").innerHTML = rec.room
    ? `<a href="/r/${encodeURIComponent(rec.room)}">${gettext("Open the room")}</a>`
    : "";
  for (const colour of /** @type {const} */ (["red", "yellow"])) {
    const p = rec.players?.[colour];
    const li = document.createElement("li");
    li.className = "seat";
    const name = p ? (p.player ? p.player.name : p.cpu ? gettext("Computer") : "—") : "—";
    li.innerHTML = `<span class="bead ${colour}"></span><span class="seat-main"><span class="seat-name"></span></span>`;
    const nameEl = $(".seat-name", HTMLElement, li);
    if (p?.player) {
      const a = document.createElement("a");
      a.href = `/players/${encodeURIComponent(p.player.id)}`;
      a.textContent = name;
      nameEl.appendChild(a);
    } else {
      nameEl.textContent = name;
    }
    if (rec.winner === colour) nameEl.append(` ${gettext("(won)")}`);
    if (rec.ranked && p?.player && !otherIsCpu(rec, colour)) $(".seat-main", HTMLElement, li).append(rankedTag());
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
    level.textContent = levelName(m.level);
    li.append(bead, peg, level);
    li.addEventListener("click", () => {
      stop();
      show(i + 1);
    });
    $("#moves").appendChild(li);
  });
  $("#result").innerHTML = `<strong>${describe(rec)}</strong>`;
  $("#scrub", HTMLInputElement).max = String(R.moves.length);
  show(R.moves.length);
  loadAnalysis(GAME, (a) => {
    R.analysis = a;
    renderAnalysis(a, {
      game: GAME,
      record: R.record,
      goTo: (ply, ghost) => {
        stop();
        show(ply, ghost);
      },
    });
    showEval();
  });
}

/** The current position's evaluation in words, the current strip cell, and the better move's note. */
function showEval() {
  document.querySelectorAll("#eval-strip .eval-cell").forEach((cell, i) => {
    cell.classList.toggle("current", i === R.step);
  });
  const entry = R.analysis?.plies[R.step];
  $("#eval-now").textContent = entry
    ? `${R.step === 0 ? gettext("Start") : gettext("After move %(n)s", { n: R.step })}: ${evalText(entry, R.record)}`
    : "";
  const note = $("#better-note");
  note.hidden = !R.ghost;
  note.textContent = R.ghost
    ? gettext("Better here: %(side)s %(peg)s (the faint bead).", { side: sideName(R.ghost.colour), peg: R.ghost.peg })
    : "";
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
const scrub = $("#scrub", HTMLInputElement);
scrub.addEventListener("input", () => {
  stop();
  show(Number(scrub.value));
});
document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof Element && ev.target.closest("input, select, textarea")) return;
  if (ev.key === "ArrowLeft") {
    stop();
    show(R.step - 1);
  } else if (ev.key === "ArrowRight") {
    stop();
    show(R.step + 1);
  }
});
load();
