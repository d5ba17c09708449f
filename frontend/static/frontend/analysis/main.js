// The analysis board (/analysis): move both colours from any position, a tree of the main line and its
// variations, the engine's proved verdicts (GET /api/analysis) and the opening explorer (GET /api/explorer).
// The URL always says where the board is: ?record= the position's moves, ?line= the main line.

import { ApiError, apiGet, apiPost, errorText } from "../api.js";
import { mountBoard } from "../board/board3d.js";
import { TopView } from "../board/topview.js";
import { $ } from "../dom.js";
import { replay, SIZE } from "../game.js";
import { gettext } from "../i18n.js";
import {
  addMove,
  createTree,
  follow,
  mainLine,
  onMainLine,
  parseRecordParam,
  pathTo,
  recordParam,
  remove,
} from "./tree.js";
import { positionText, renderEngine, renderExplorer, renderTree } from "./view.js";

/** @typedef {import("../api.js").Json} Json */

const LONGER_BUDGET_MS = 2000;
const WAIT_BEFORE_LONGER_MS = 1500;

const params = new URLSearchParams(location.search);
const line = parseRecordParam(params.get("line"));
const start = parseRecordParam(params.get("record"));
const initialTree = createTree(line.length ? line : start);

/**
 * The page's state; tests read it through window.__analysis.
 * @type {{tree: import("./tree.js").MoveTree, current: number, answer: Json | null,
 *   explorer: Json | null, tab: "engine" | "explorer", asked: number}}
 */
const A = {
  tree: initialTree,
  current: follow(initialTree, start),
  answer: null,
  explorer: null,
  tab: "engine",
  asked: 0,
};
window.__analysis = A;

const topview = new TopView($("#topview"), { onSelect: (peg) => play(peg) });
const board = mountBoard({
  topview,
  onPick: (peg) => play(peg),
  note: gettext("The 3D view is not available: use the top view."),
});
/** @type {ReturnType<typeof setTimeout> | undefined} */
let longer;

/** @param {string} peg */
function play(peg) {
  const moves = pathTo(A.tree, A.current);
  if (A.answer && A.answer.ply === moves.length && A.answer.to_move === null)
    return say(gettext("The game is over here."));
  if ((replay(moves).stacks[peg] || []).length >= SIZE) return say(gettext("Peg %(peg)s is full.", { peg }));
  A.current = addMove(A.tree, A.current, peg);
  show();
}

/** @param {string} text */
function say(text) {
  $("#verdict").textContent = text;
}

/** @param {number} id */
function go(id) {
  A.current = id;
  show();
}

function url() {
  const moves = pathTo(A.tree, A.current);
  const main = mainLine(A.tree).length ? pathTo(A.tree, mainLine(A.tree).at(-1) ?? 0) : [];
  const query = new URLSearchParams();
  if (moves.length) query.set("record", recordParam(moves));
  if (main.length && recordParam(main) !== recordParam(moves)) query.set("line", recordParam(main));
  const text = query.toString();
  return `/analysis${text ? `?${text}` : ""}`;
}

function show() {
  const moves = pathTo(A.tree, A.current);
  const { stacks, placed } = replay(moves);
  const last = placed.at(-1) || null;
  board?.setPosition({ stacks, last, line: null, animate: true });
  topview.update({ stacks, last, line: null, selected: null, cross: null, canMove: true, readOnly: false });
  renderTree($("#tree"), A.tree, A.current, go);
  $("#to-move").textContent = positionText(moves.length, null);
  const here = url();
  history.replaceState(null, "", here);
  $("#share", HTMLAnchorElement).href = `${location.origin}/analysis?record=${encodeURIComponent(recordParam(moves))}`;
  $("#delete", HTMLButtonElement).disabled = A.current === 0;
  $("#main-line", HTMLButtonElement).disabled = onMainLine(A.tree, A.current);
  ask(moves);
}

/** The engine's word on the position (again with a larger budget when the player waits on it). @param {string[]} moves */
async function ask(moves, budget = 0) {
  clearTimeout(longer);
  const asked = ++A.asked;
  const query = new URLSearchParams({ record: moves.join(",") });
  if (budget) query.set("budget", String(budget));
  if (!budget) $("#verdict").textContent = gettext("The engine is thinking…");
  try {
    const answer = await apiGet(`/api/analysis?${query}`);
    if (asked !== A.asked) return; // the board moved on meanwhile
    A.answer = answer;
    renderEngine(answer, play);
    showThreats(answer);
    if (!answer.to_move) showEnd(moves, answer);
    if (!budget && answer.verdict === "unknown" && !answer.complete) {
      longer = setTimeout(() => ask(moves, LONGER_BUDGET_MS), WAIT_BEFORE_LONGER_MS);
    }
  } catch (err) {
    if (asked === A.asked) say(err instanceof ApiError ? err.message : errorText(err));
  }
  if (A.tab === "explorer" && !budget) explore(moves);
}

/** A finished position: its result above the board, its line of four drawn. @param {string[]} moves @param {Json} answer */
function showEnd(moves, answer) {
  $("#to-move").textContent = positionText(moves.length, answer);
  const { stacks, placed } = replay(moves);
  const last = placed.at(-1) || null;
  board?.setPosition({ stacks, last, line: answer.line, animate: false });
  topview.update({ stacks, last, line: answer.line, selected: null, cross: null, canMove: false, readOnly: false });
}

/** Marks the pegs where a threat cell lies on the top view. @param {Json} answer */
function showThreats(answer) {
  for (const button of document.querySelectorAll("#topview .peg")) {
    button.classList.remove("threat-red", "threat-yellow");
  }
  for (const threat of answer.threats || []) {
    document.querySelector(`#topview .peg[data-peg="${threat.peg}"]`)?.classList.add(`threat-${threat.colour}`);
  }
}

/** @param {string[]} moves */
async function explore(moves) {
  try {
    A.explorer = await apiGet(`/api/explorer?${new URLSearchParams({ record: moves.join(",") })}`);
    renderExplorer(A.explorer, play);
  } catch (err) {
    $("#explorer-total").textContent = errorText(err);
  }
}

/** @param {"engine" | "explorer"} tab */
function showTab(tab) {
  A.tab = tab;
  for (const name of /** @type {const} */ (["engine", "explorer"])) {
    $(`#${name}`).hidden = name !== tab;
    const button = $(`#tab-${name}`);
    button.setAttribute("aria-selected", String(name === tab));
    button.classList.toggle("ghost", name !== tab);
  }
  if (tab === "explorer") explore(pathTo(A.tree, A.current));
}

async function load() {
  const error = $("#paste-error");
  error.hidden = true;
  try {
    const parsed = await apiPost("/api/records/parse", { text: $("#paste", HTMLTextAreaElement).value });
    A.tree = createTree(parsed.moves);
    A.current = follow(A.tree, parsed.moves);
    show();
  } catch (err) {
    error.textContent = err instanceof ApiError ? err.message : errorText(err);
    error.hidden = false;
  }
}

const parentOf = () => A.tree.nodes.get(A.current)?.parent ?? 0;
const firstChild = () => A.tree.nodes.get(A.current)?.children[0];
$("#back").addEventListener("click", () => go(parentOf()));
$("#forward").addEventListener("click", () => {
  const next = firstChild();
  if (next !== undefined) go(next);
});
$("#main-line").addEventListener("click", () => {
  let id = A.current;
  while (!onMainLine(A.tree, id)) id = A.tree.nodes.get(id)?.parent ?? 0;
  go(id);
});
$("#delete").addEventListener("click", () => go(remove(A.tree, A.current)));
$("#tab-engine").addEventListener("click", () => showTab("engine"));
$("#tab-explorer").addEventListener("click", () => showTab("explorer"));
$("#load").addEventListener("click", load);
document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof Element && ev.target.closest("input, select, textarea")) return;
  if (ev.key === "ArrowLeft") go(parentOf());
  if (ev.key === "ArrowRight") {
    const next = firstChild();
    if (next !== undefined) go(next);
  }
});
show();
