// The puzzle trainer: a position where the side to move wins by force; the solver plays the winning side
// and the server answers each move with the longest defence (POST /api/puzzles/{id}/move with all the
// solver's moves so far). The server sends no solution before the attempt is solved or failed.

import { ApiError, apiGet, apiPost, errorText, getSession, rememberedName, saveName } from "../api.js";
import { mountBoard } from "../board/board3d.js";
import { TopView } from "../board/topview.js";
import { $ } from "../dom.js";
import { fullPegMessage, puzzleRecord, puzzleTask, replay, SIZE } from "../game.js";
import { gettext } from "../i18n.js";
import { guestName, signedPoints } from "../text.js";

/** @typedef {import("../api.js").Json} Json */
/** @typedef {import("../board/board3d.js").Cell} Cell */

const REPLY_DELAY_MS = 450;
const LINE_STEP_MS = 700;
/**
 * The page's state; tests read it through window.__puzzle.
 * @type {{puzzle: Json | null, start: string[], mine: string[], line: string[], selected: string | null,
 *   busy: boolean, over: boolean, result: Json | null, wrong: {before: string[]} | null, session: Json | null}}
 *   puzzle: GET /api/puzzles/{id}; start: its position's moves; mine: the solver's moves so far; line: the
 *   moves played since the start; result: the attempt's last answer once over; wrong: where it went wrong
 */
const P = { ...attempt(null), session: null };
window.__puzzle = P;

/**
 * The state of a fresh attempt at `puzzle` (null: none yet).
 * @param {Json | null} puzzle
 */
function attempt(puzzle) {
  const start = puzzle?.record ? puzzle.record.split(" ") : [];
  return { puzzle, start, mine: [], line: [], selected: null, busy: false, over: false, result: null, wrong: null };
}

const topview = new TopView($("#topview"), { onSelect: pick });
const board = mountBoard({ topview, onPick: pick });

/** @returns {"red" | "yellow"} */
const solverColour = () => (P.puzzle ? P.puzzle.to_move : "red");
const moves = () => [...P.start, ...P.line];

/** @param {string} text @param {"error" | "info"} [kind] */
function say(text, kind = "error") {
  const msg = $("#board-msg");
  msg.textContent = text || "";
  msg.dataset.kind = kind;
  msg.hidden = !text;
}

/** @param {{animate?: boolean, line?: Cell[] | null}} [opts] */
function render({ animate = false, line = null } = {}) {
  const { stacks, placed } = replay(moves());
  const last = placed.at(-1) || null;
  board?.setPosition({ stacks, last, line, animate });
  const canMove = !!P.puzzle && !P.over && !P.busy;
  board?.setGhost(canMove ? P.selected : null, solverColour());
  topview.update({
    stacks,
    last,
    line,
    selected: canMove ? P.selected : null,
    ghost: canMove ? solverColour() : null,
    cross: null,
    canMove,
    readOnly: !canMove,
  });
  $("#board-wrap").dataset.turn = canMove ? solverColour() : "";
  const choose = $("#choose", HTMLButtonElement);
  choose.hidden = P.over;
  choose.disabled = !(canMove && P.selected);
  choose.textContent = P.selected && canMove ? gettext("Play %(peg)s", { peg: P.selected }) : gettext("Choose a peg");
  const list = $("#moves");
  list.replaceChildren();
  placed.slice(P.start.length).forEach((m) => {
    const li = document.createElement("li");
    const bead = document.createElement("span");
    bead.className = `bead ${m.colour}`;
    const peg = document.createElement("b");
    peg.textContent = m.peg;
    li.append(bead, peg);
    if (m.colour !== solverColour()) li.append(` ${gettext("(reply)")}`);
    list.append(li);
  });
}

function task() {
  const p = P.puzzle;
  if (!p) return "";
  return puzzleTask(p);
}

/** @param {Json} rating @param {number | null} change */
function showRating(rating, change) {
  if (rating) $("#my-puzzle-rating").textContent = rating.display;
  const el = $("#rating-change");
  el.textContent = change == null ? "" : signedPoints(change);
  el.dataset.sign = change == null ? "" : change >= 0 ? "up" : "down";
}

async function ensurePlayer() {
  if (P.session) return;
  P.session = await getSession();
  if (!P.session) P.session = await saveName(rememberedName() || guestName());
}

async function loadMyRating() {
  try {
    P.session = await getSession();
    if (!P.session) return;
    const page = await apiGet(`/api/players/${encodeURIComponent(P.session.player.id)}`);
    if (page.puzzles) {
      showRating(page.puzzles.rating, null);
      $("#my-puzzle-record").textContent = puzzleRecord(page.puzzles);
    }
  } catch {
    /* the rating stays at its default */
  }
}

/** @param {string | null} id a puzzle, or null for the next one (of the chosen theme) */
async function load(id) {
  P.busy = true;
  say("");
  const theme = $("#theme", HTMLSelectElement).value;
  let puzzle;
  try {
    puzzle = id
      ? await apiGet(`/api/puzzles/${encodeURIComponent(id)}`)
      : await apiGet(`/api/puzzles/next${theme ? `?theme=${encodeURIComponent(theme)}` : ""}`);
  } catch (err) {
    $("#task").textContent =
      err instanceof ApiError && err.status === 404 ? gettext("There is no such puzzle.") : errorText(err);
    P.busy = false;
    return;
  }
  Object.assign(P, attempt(puzzle));
  $("#puzzle-id").textContent = puzzle.id;
  $("#puzzle-rating").textContent = String(puzzle.rating);
  $("#task").textContent = task();
  $("#task").dataset.colour = puzzle.to_move;
  $("#verdict").hidden = true;
  $("#show-solution").hidden = true;
  $("#next-puzzle").hidden = true;
  $("#analyse-puzzle").hidden = true;
  $("#skip").hidden = false;
  showRating(null, null);
  if (location.pathname !== `/puzzles/${puzzle.id}`) history.replaceState(null, "", `/puzzles/${puzzle.id}`);
  render();
}

/** @param {string} peg */
function pick(peg) {
  if (!P.puzzle || P.over || P.busy) return;
  const { stacks } = replay(moves());
  if ((stacks[peg] || []).length >= SIZE) {
    P.selected = null;
    say(fullPegMessage(peg));
    render();
    return;
  }
  say("");
  if (P.selected === peg) {
    play(peg);
    return;
  }
  P.selected = peg;
  render();
}

/** @param {number} ms */
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {string} peg */
async function play(peg) {
  P.busy = true;
  P.selected = null;
  P.line.push(peg);
  P.mine.push(peg);
  render({ animate: true });
  let answer;
  try {
    await ensurePlayer();
    answer = await apiPost(`/api/puzzles/${encodeURIComponent(P.puzzle?.id)}/move`, { moves: P.mine });
  } catch (err) {
    P.line.pop();
    P.mine.pop();
    P.busy = false;
    say(errorText(err));
    render();
    return;
  }
  if (answer.result === "continue") {
    await wait(REPLY_DELAY_MS);
    P.line.push(answer.reply);
    P.busy = false;
    render({ animate: true });
    return;
  }
  P.result = answer;
  P.over = true;
  P.busy = false;
  finish(answer);
}

/** @param {Json} answer the attempt's answer once solved or failed */
async function finish(answer) {
  const verdict = $("#verdict");
  verdict.hidden = false;
  verdict.dataset.outcome = answer.result === "solved" ? "win" : "loss";
  const change = answer.rating_change;
  const rated = change == null ? ` ${gettext("(not rated: you had tried this puzzle before)")}` : "";
  if (answer.result === "solved") {
    verdict.innerHTML = `<strong>${gettext("Solved!")}</strong> `;
    verdict.append(`${gettext("Four in a row.")}${rated}`);
  } else {
    const wrong = P.line.at(-1) || "";
    P.wrong = { before: P.line.slice(0, -1) };
    verdict.innerHTML = `<strong>${gettext("Not the winning move.")}</strong> `;
    const defence = answer.refutation.join(" ");
    verdict.append(`${gettext("After %(peg)s the defence holds: %(line)s.", { peg: wrong, line: defence })}${rated}`);
    $("#show-solution").hidden = false;
  }
  showRating(answer.rating, change);
  if (answer.puzzle_rating != null) $("#puzzle-rating").textContent = String(answer.puzzle_rating);
  if (answer.rating) loadMyRating().then(() => showRating(answer.rating, change));
  $("#next-puzzle").hidden = false;
  $("#skip").hidden = true;
  const study = $("#analyse-puzzle", HTMLAnchorElement);
  study.href = `/analysis?${new URLSearchParams({ record: moves().join(" ") })}`;
  study.hidden = false;
  render({ line: answer.line || null });
  if (answer.result === "failed") {
    for (const peg of answer.refutation.slice(0, 1)) {
      await wait(REPLY_DELAY_MS);
      P.line.push(peg);
      render({ animate: true });
    }
  }
}

async function showSolution() {
  if (!P.result || !P.wrong) return;
  $("#show-solution").hidden = true;
  P.line = P.wrong.before.slice();
  render();
  for (const peg of P.result.solution) {
    await wait(LINE_STEP_MS);
    P.line.push(peg);
    render({ animate: true });
  }
  $("#verdict").append(` ${gettext("Winning line: %(line)s.", { line: P.result.solution.join(" ") })}`);
}

$("#choose").addEventListener("click", () => P.selected && play(P.selected));
$("#next-puzzle").addEventListener("click", () => load(null));
$("#skip").addEventListener("click", () => load(null));
$("#show-solution").addEventListener("click", showSolution);
$("#theme").addEventListener("change", () => load(null));
loadMyRating();
load($("#puzzle").dataset.puzzle || null);
