// A run replayed (/arcade/runs/{id}): its record (GET /api/arcade/runs/{id}, a closed run's) played through
// the page's rules (run.js replaySteps) on the flat view (a cube's layers side by side), move by move with
// its new tiles: play/pause, a step either way, the first and the last, a slider; the arrow keys step.

import { apiGet, errorText } from "../api.js";
import { $ } from "../dom.js";
import { formatDate, formatNumber, gettext } from "../i18n.js";
import { shownName } from "../text.js";
import { directionWord, flatView } from "./flat/view.js";
import { modeById, slide } from "./rules.js";
import { replaySteps } from "./run.js";
import { moveText } from "./words.js";

/** @typedef {import("./run.js").Run} Run */
/** @typedef {import("./run.js").Step} Step */

const EVERY_MS = 400;
const card = $("#run-card");
const range = $("#run-range", HTMLInputElement);
const playButton = $("#run-play");
const view = flatView();
/** @type {Run[]} */ let runs = [];
/** @type {Step[]} */ let steps = [];
let at = 0;
/** @type {ReturnType<typeof setInterval> | undefined} */ let timer;

/** @param {Step} step */
function stepWord(step) {
  if (step.op === "move") return directionWord(step.dir);
  return { undo: gettext("Undo"), continue: gettext("Continue"), end: gettext("Run ended") }[step.op];
}

/** Shows step `to` (0: the opening), animated when it is the next one. @param {number} to */
function go(to) {
  const next = Math.max(0, Math.min(runs.length - 1, to));
  const run = runs[next];
  const step = next === at + 1 ? steps[at] : null;
  if (step && step.op === "move") {
    const slid = slide(runs[at].board, run.mode.shape, step.dir);
    view.show(slid.board, { tiles: slid.tiles, merged: slid.merged });
    view.show(run.board, { spawned: step.spawned });
    $("#run-said").textContent = moveText(run.mode.shape, stepWord(step), run.board, slid.merged, step.spawned);
  } else {
    view.show(run.board, null);
    $("#run-said").textContent = next > 0 ? String(stepWord(steps[next - 1])) : "";
  }
  at = next;
  range.value = String(at);
  $("#run-score").textContent = formatNumber(run.score);
  $("#run-step").textContent = `${formatNumber(at)} / ${formatNumber(steps.length)}`;
  if (at >= runs.length - 1) pause();
}

function pause() {
  clearInterval(timer);
  timer = undefined;
  playButton.setAttribute("aria-pressed", "false");
  playButton.textContent = gettext("Play");
}

function play() {
  if (at >= runs.length - 1) go(0);
  timer = setInterval(() => go(at + 1), EVERY_MS);
  playButton.setAttribute("aria-pressed", "true");
  playButton.textContent = gettext("Pause");
}

async function load() {
  const status = $("#run-status");
  let run;
  try {
    run = await apiGet(`/api/arcade/runs/${encodeURIComponent(card.dataset.run || "")}`);
  } catch (err) {
    status.textContent = errorText(err);
    return;
  }
  if (!run.record) {
    status.textContent = gettext("This run is still being played: it can be watched once it has ended.");
    return;
  }
  const mode = modeById(run.mode);
  try {
    runs = [...replaySteps(run.record)];
  } catch (err) {
    status.textContent = errorText(err);
    return;
  }
  steps = run.record.steps || [];
  view.mount($("#arcade-board"), { mode });
  range.max = String(steps.length);
  $("#run-scores", HTMLAnchorElement).href = `/arcade/scores?mode=${encodeURIComponent(run.mode)}`;
  $("#run-about").textContent = gettext("%(player)s · %(mode)s · %(score)s points · %(date)s", {
    player: shownName(run.player),
    mode:
      mode.id === "classic" ? "2048" : `3D 2048 ${mode.shape.join("×")}${mode.spawns > 1 ? ` ${gettext("Hard")}` : ""}`,
    score: run.ranked_score ?? run.peak,
    date: formatDate(run.closed_at),
  });
  status.textContent = "";
  at = 0;
  go(0);
  document.body.dataset.loaded = "1";
}

$("#run-first").addEventListener("click", () => go(0));
$("#run-back").addEventListener("click", () => go(at - 1));
$("#run-next").addEventListener("click", () => go(at + 1));
$("#run-last").addEventListener("click", () => go(runs.length - 1));
playButton.addEventListener("click", () => (timer ? pause() : play()));
range.addEventListener("input", () => go(Number(range.value)));
document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement || document.querySelector("dialog[open]")) return;
  if (ev.key === "ArrowRight") go(at + 1);
  else if (ev.key === "ArrowLeft") go(at - 1);
  else return;
  ev.preventDefault();
});
load();
