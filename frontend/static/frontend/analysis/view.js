// The analysis board's rendering: the move tree, the engine's verdicts and the explorer's table.

import { capitalise, colourOfPly, drawText, endText, sideName } from "../game.js";
import { formatNumber, formatPercent, gettext, listText, ngettext } from "../i18n.js";
import { mainLine, pathTo } from "./tree.js";

/** @typedef {import("../api.js").Json} Json */
/** @typedef {import("./tree.js").MoveTree} MoveTree */

/** The side other than `colour`. @param {string} colour */
const other = (colour) => (colour === "red" ? "yellow" : "red");

/**
 * Where the board is, above it: the side to move and the moves played, or once the game is over its result.
 * @param {number} played moves played
 * @param {Json | null} answer GET /api/analysis for this position, if it came
 */
export function positionText(played, answer) {
  const moves = ngettext("%(n)s move played", "%(n)s moves played", played, { n: played });
  if (answer && answer.ply === played && !answer.to_move) {
    const result = answer.winner ? gettext("%(side)s won", { side: sideName(answer.winner) }) : gettext("Draw");
    return `${result} · ${moves}`;
  }
  return `${gettext("%(side)s to move", { side: sideName(colourOfPly(played)) })} · ${moves}`;
}

/**
 * The engine's verdict on the position in words, for the side to move's result; once the game is over,
 * how it ended.
 * @param {Json} answer GET /api/analysis
 */
export function verdictText(answer) {
  const mover = answer.to_move;
  if (!mover) return answer.winner ? endText(null, answer.winner) : drawText("full_board");
  const values = {
    side: sideName(mover),
    other: sideName(other(mover)),
    plies: answer.plies ?? "",
    best: answer.best?.[0] ?? "",
    ms: answer.budget_ms ?? "",
  };
  switch (answer.verdict) {
    case "win":
      return gettext("%(side)s wins by force in %(plies)s (proved), with %(best)s.", values);
    case "loss":
      return gettext("%(other)s wins by force in %(plies)s (proved); %(side)s resists longest with %(best)s.", values);
    case "draw":
      return gettext("A draw with best play (proved), e.g. %(best)s.", values);
    default:
      return gettext("No forced result found within %(ms)s ms: the engine would play %(best)s.", values);
  }
}

/** A proved move's verdict in words, for the side playing it. @param {{verdict: string, plies: number | null}} move */
export function moveText(move) {
  if (move.verdict === "win") return gettext("wins in %(plies)s", { plies: move.plies ?? "" });
  if (move.verdict === "loss") return gettext("loses in %(plies)s", { plies: move.plies ?? "" });
  return gettext("draws");
}

/** A proved move's rank for its player: the fastest win first, then draws, then the longest loss. @param {Json} move */
const rank = (move) => (move.verdict === "win" ? move.plies : move.verdict === "draw" ? 100 : 200 - move.plies);

/**
 * The moves the engine proved something of, grouped by what it proved, the best for the side to move
 * first (those it proved nothing of say nothing to a player, and are left out).
 * @param {Json} answer GET /api/analysis
 * @returns {Array<{verdict: string, plies: number | null, pegs: string[]}>}
 */
export function provedMoves(answer) {
  /** @type {Map<string, {verdict: string, plies: number | null, pegs: string[]}>} */
  const groups = new Map();
  const proved = (answer.moves || []).filter((/** @type {Json} */ m) => m.verdict !== "unknown");
  for (const move of proved.sort((/** @type {Json} */ a, /** @type {Json} */ b) => rank(a) - rank(b))) {
    const key = `${move.verdict} ${move.plies}`;
    if (!groups.has(key)) groups.set(key, { verdict: move.verdict, plies: move.plies, pegs: [] });
    groups.get(key)?.pegs.push(move.peg);
  }
  return [...groups.values()];
}

/**
 * The move tree: the main line inline, each variation in brackets after the move it branches from.
 * @param {HTMLElement} root
 * @param {MoveTree} tree
 * @param {number} current
 * @param {(id: number) => void} go
 */
export function renderTree(root, tree, current, go) {
  root.replaceChildren();
  /** @param {number} id @param {HTMLElement} into */
  const moveButton = (id, into) => {
    const ply = pathTo(tree, id).length;
    const b = document.createElement("button");
    b.type = "button";
    b.className = `tree-move${id === current ? " current" : ""}`;
    b.dataset.node = String(id);
    b.textContent = `${ply}. ${tree.nodes.get(id)?.peg}`; // each move numbered, as the replay does
    b.setAttribute("aria-current", id === current ? "true" : "false");
    b.addEventListener("click", () => go(id));
    into.appendChild(b);
  };
  /** @param {number} first the first node of a line @param {HTMLElement} into */
  const line = (first, into) => {
    for (let id = first; ; ) {
      moveButton(id, into);
      const node = tree.nodes.get(id);
      const parent = tree.nodes.get(node?.parent ?? -1);
      if (parent && parent.children[0] === id) {
        for (const variation of parent.children.slice(1)) {
          const span = document.createElement("span");
          span.className = "variation";
          line(variation, span);
          into.appendChild(span);
        }
      }
      if (!node?.children.length) return;
      id = node.children[0];
    }
  };
  const root0 = tree.nodes.get(0);
  if (!root0?.children.length) {
    root.textContent = gettext("No moves yet: click a peg.");
    return;
  }
  const main = document.createElement("div");
  main.className = "main-line";
  line(mainLine(tree)[0], main);
  root.appendChild(main);
}

/**
 * The engine's answer: the verdict, the threats and each move's verdict (a click plays it).
 * @param {Json} answer
 * @param {(peg: string) => void} play
 */
export function renderEngine(answer, play) {
  const verdict = document.getElementById("verdict");
  if (verdict) {
    verdict.textContent = verdictText(answer);
    verdict.dataset.verdict = answer.verdict;
  }
  const threats = document.getElementById("threats");
  const shown = (answer.threats || []).map((/** @type {Json} */ t) => {
    const values = { side: sideName(t.colour), peg: t.peg, level: t.level };
    return t.playable
      ? gettext("%(side)s %(peg)s level %(level)s (playable)", values)
      : gettext("%(side)s %(peg)s level %(level)s", values);
  });
  if (threats) {
    threats.hidden = !answer.to_move; // a finished game has nothing left to threaten
    threats.textContent = shown.length
      ? gettext("Threats: %(threats)s", { threats: listText(shown) })
      : gettext("No threats.");
  }
  const list = document.getElementById("move-verdicts");
  if (!list) return;
  list.replaceChildren();
  for (const group of provedMoves(answer)) {
    const li = document.createElement("li");
    li.className = `verdict-${group.verdict}`;
    const label = document.createElement("span");
    label.textContent = `${capitalise(moveText(group))}:`;
    li.appendChild(label);
    for (const peg of group.pegs) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "btn ghost small";
      b.textContent = peg;
      b.addEventListener("click", () => play(peg));
      li.appendChild(b);
    }
    list.appendChild(li);
  }
}

/**
 * The explorer's answer: games through the position and each move's results (a click plays it).
 * @param {Json} answer
 * @param {(peg: string) => void} play
 */
export function renderExplorer(answer, play) {
  const total = document.getElementById("explorer-total");
  if (total) {
    total.textContent = answer.games
      ? ngettext(
          "%(n)s game of the site reached this position (first %(depth)s plies).",
          "%(n)s games of the site reached this position (first %(depth)s plies).",
          answer.games,
          { depth: answer.depth },
        )
      : gettext("No game of the site reached this position yet.");
  }
  const body = document.getElementById("explorer-moves");
  if (!body) return;
  body.replaceChildren();
  for (const move of answer.moves || []) {
    const tr = document.createElement("tr");
    const pct = (/** @type {number} */ n) => formatPercent(n / move.games);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn ghost small";
    b.textContent = move.peg;
    b.addEventListener("click", () => play(move.peg));
    const cells = [
      formatNumber(move.games) +
        (move.bot_games ? ` ${ngettext("(%(n)s with a bot)", "(%(n)s with a bot)", move.bot_games)}` : ""),
      `${pct(move.red_wins)} / ${pct(move.draws)} / ${pct(move.yellow_wins)}`,
      move.average_rating === null ? "—" : String(move.average_rating),
    ];
    const first = document.createElement("td");
    first.appendChild(b);
    tr.appendChild(first);
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}
